"""The page's words are complete in every language: the refusal codes, the table's help
(settings, move log, score sheets), and every rule option, choice and preset the server
offers, in plain words (no programmer notation)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

LANG = Path(__file__).resolve().parents[2] / "cardtable" / "server" / "static" / "js" / "lang"
LANGUAGES = ("en", "pt", "fa", "ru")
PARTS = ("codes", "table", "rules")


def strings(part: str, lang: str) -> dict[str, str]:
    """The strings of one language file (its lines are `"key": "text",`)."""
    text = (LANG / part / f"{lang}.js").read_text(encoding="utf-8")
    return {json.loads(key): json.loads(value) for key, value in
            re.findall(r'^\s*("(?:[^"\\]|\\.)*"):\s*("(?:[^"\\]|\\.)*"),$', text, re.M)}


@pytest.mark.parametrize("part", PARTS)
@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_every_language_has_every_string_with_the_same_placeholders(part: str,
                                                                     lang: str) -> None:
    english, other = strings(part, "en"), strings(part, lang)
    assert english, part
    assert set(other) == set(english), set(english) ^ set(other)
    for key, text in other.items():
        assert text.strip(), (lang, key)
        assert set(re.findall(r"\{(\w+)\}", text)) == set(re.findall(r"\{(\w+)\}",
                                                                     english[key])), (lang, key)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_rule_option_choice_and_preset_has_plain_words(client: TestClient,
                                                              lang: str) -> None:
    words = strings("rules", lang)
    for game in client.get("/api/games").json():
        for preset in game["presets"]:
            assert f"preset.{game['name']}.{preset}" in words
        for option in game["options"]:
            key = f"rules.{game['name']}.{option['name']}"
            assert key in words and f"{key}.doc" in words, key
            for choice in option["choices"] or []:
                assert f"{key}.{choice}" in words, (key, choice)
            for text in (words[key], words[f"{key}.doc"]):
                # no programmer notation: no snake_case names, no "%", no "None"
                assert not re.search(r"\w_\w|%|\bNone\b|==", text), (lang, key, text)
