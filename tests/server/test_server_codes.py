"""Refusal codes: every code the server's source can send is in the registry
(cardtable/server/core/codes.py) with its parameters, every language file of the page has a
text for it, and the refusals of a move carry their code and parameters."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from tablekit import Player, connect, create

from cardtable.server.core.codes import CODES, RESERVED
from cardtable.server.core.errors import Refused

SERVER = Path(__file__).resolve().parents[2] / "cardtable" / "server"
LANGS = SERVER / "static" / "js" / "lang" / "codes"
LANGUAGES = ("en", "pt", "fa", "ru")

CODE_AT = {"Refused": 2, "OutOfBounds": 1, "refused": 0,
           "Refusal": 1, "NameRefused": 1, "_close": 3, "_refuse": 3, "refuse": 2}
"""Where a call's code argument sits (a ``code=`` keyword counts too)."""


def _name(func: ast.expr) -> str:
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")


def codes_in_source() -> dict[str, str]:
    """Every code written out in the server's modules, with a file that sends it."""
    found: dict[str, str] = {}

    def note(node: ast.AST | None, where: str) -> None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.setdefault(node.value, where)

    for path in sorted(SERVER.rglob("*.py")):
        if path.name == "codes.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and _name(node.func) in CODE_AT:
                index = CODE_AT[_name(node.func)]
                if len(node.args) > index:
                    note(node.args[index], path.name)
                for keyword in node.keywords:
                    if keyword.arg == "code":
                        note(keyword.value, path.name)
            elif isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values, strict=True):
                    if isinstance(key, ast.Constant) and key.value == "code":
                        note(value, path.name)
            elif isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if any(isinstance(t, ast.Name) and t.id == "code" for t in targets):
                    note(node.value, path.name)
    for code in Refused.CODES.values():
        found.setdefault(code, "live.py (Refused.CODES)")
    found.setdefault("refused", "live.py (Refused's default)")
    return found


def texts_of(lang: str) -> dict[str, str]:
    """The ``code.*`` texts of one language file."""
    source = (LANGS / f"{lang}.js").read_text(encoding="utf-8")
    texts = dict(re.findall(r'"code\.([a-z_]+)":\s*"((?:[^"\\]|\\.)*)"', source))
    # a count's message: a form for each plural category ({ one: "...", other: "..." })
    for code, forms in re.findall(r'"code\.([a-z_]+)":\s*\{((?:[^{}]|\{\w+\})*)\}', source):
        texts[code] = " / ".join(re.findall(r'"((?:[^"\\]|\\.)*)"', forms))
    return texts


def test_every_code_in_the_source_is_in_the_registry() -> None:
    found = codes_in_source()
    # the scan does see the codes (a scan that found nothing would pass anything)
    assert {"not_your_turn", "stale_version", "illegal_move", "no_seat", "bad_message",
            "too_many_connections", "storage_unavailable", "table_full"} <= set(found)
    unknown = {code: where for code, where in found.items() if code not in CODES}
    assert not unknown, f"codes sent but not in cardtable/server/core/codes.py: {unknown}"


def test_no_parameter_shadows_a_field_of_the_message() -> None:
    for code, meaning in CODES.items():
        assert not set(meaning.params) & RESERVED, code
        assert re.fullmatch(r"[a-z]+(_[a-z]+)*", code), code


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_code_has_a_text_in_every_language(lang: str) -> None:
    texts = texts_of(lang)
    missing = sorted(set(CODES) - set(texts))
    assert not missing, f"lang/{lang}.js has no text for {missing}"
    for code, text in texts.items():
        assert code in CODES, f"lang/{lang}.js has a text for an unknown code {code}"
        assert text.strip(), (lang, code)
        used = set(re.findall(r"\{(\w+)\}", text))
        assert used <= set(CODES[code].params), (lang, code, used)


def test_refused_moves_carry_their_code_and_parameters(client: TestClient) -> None:
    seated = create(client, game="durak", seats=["human", "human"])
    table = seated["table"]
    joined = client.post(f"/api/tables/{table}/join").json()
    tokens = {seated["seat"]: seated["token"], joined["seat"]: joined["token"]}
    with connect(client, table, tokens[0]) as ws0, connect(client, table, tokens[1]) as ws1, \
            connect(client, table) as wsw:
        players = {0: Player(ws0), 1: Player(ws1)}
        state = players[0].state()
        while state["status"] != "playing":
            state = players[0].state()
        mover = state["to_move"]
        me, other = players[mover], players[1 - mover]
        while not me.states or me.states[-1]["version"] != state["version"] or \
                not me.states[-1]["legal_moves"]:
            me.state()
        good = me.states[-1]["legal_moves"][0]
        version = state["version"]

        def error_for(player: Player, message: dict) -> dict:
            player.send(message)
            return player.next_of("error")

        stale = error_for(me, {"type": "move", "version": version + 2, "move": good})
        assert stale["code"] == "stale_version"
        assert (stale["version"], stale["current"]) == (version + 2, version)
        turn = error_for(other, {"type": "move", "version": version, "move": good})
        assert turn["code"] == "not_your_turn" and turn["seat"] == mover
        # the first mover attacks: taking is a move of Durak, but not now
        illegal = error_for(me, {"type": "move", "version": version, "move": "take"})
        assert illegal["code"] == "illegal_move" and illegal["move"] == "take"
        words = error_for(me, {"type": "move", "version": version, "move": "xyzzy"})
        assert words["code"] == "not_a_move" and words["move"] == "xyzzy"
        watching = error_for(Player(wsw), {"type": "move", "version": version, "move": good})
        assert watching["code"] == "watching"
        for error in (stale, turn, illegal, words, watching):
            assert set(CODES[error["code"]].params) <= set(error), error
            assert error["reason"]


def test_http_refusals_carry_their_parameters(client: TestClient) -> None:
    missing = client.get("/api/tables/nosuchtable").json()
    assert missing["code"] == "not_found" and missing["table"] == "nosuchtable"
    seated = create(client, game="pasur", seats=["human", "human"])
    client.post(f"/api/tables/{seated['table']}/join")
    full = client.post(f"/api/tables/{seated['table']}/join")
    assert full.status_code == 409 and full.json()["code"] == "table_full"
    bot = client.post("/api/tables", json={"game": "pasur", "seats": ["human", "bot:nobody"]})
    assert bot.status_code == 422 and bot.json()["code"] == "bot_not_offered"
    assert bot.json()["bot"] == "nobody"


def test_docs_list_every_code() -> None:
    docs = (SERVER.parents[1] / "docs" / "server.md").read_text(encoding="utf-8")
    missing = [code for code in CODES if f"| `{code}` |" not in docs]
    assert not missing, f"docs/server.md's table of refusal codes lacks {missing}"
