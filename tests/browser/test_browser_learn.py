"""The school's page (/learn.html): open an analysis, solve a puzzle, in English and in
Persian (right to left).  The lessons are on the table: test_browser_learn_table.py."""

from __future__ import annotations

import json
import time
import urllib.request
from typing import Any

import pytest

from cardtable.analysis import puzzles

pytestmark = pytest.mark.browser


def call(server_url: str, method: str, path: str, body: dict | None = None) -> Any:
    request = urllib.request.Request(server_url + path, method=method,
                                     data=json.dumps(body).encode() if body else None,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_a_puzzle_is_solved_and_shows_why(open_page, lang: str) -> None:
    page = open_page(f"/learn.html?game=durak&puzzle=1&lang={lang}")
    page.wait_for_selector(".school-move")
    shown = page.locator("h1").get_attribute("data-puzzle")
    answer = next(p["answer"] for p in puzzles.load(game="durak") if p["id"] == shown)
    page.click(f'.school-move[data-move="{answer}"]')
    page.wait_for_selector("#verdict li")
    verdict = page.locator("#verdict")
    assert verdict.get_attribute("data-right") == "true"   # the stored answer is right
    assert verdict.locator("li").count() > 0               # every move's value
    assert verdict.locator(".puzzle-why").text_content()   # and the reason in words
    assert page.locator("#next-puzzle").text_content() == {"en": "Next puzzle",
                                                          "fa": "معمای بعد"}[lang]
    page.click("#next-puzzle")
    page.wait_for_selector(f'h1[data-puzzle]:not([data-puzzle="{shown}"])')


@pytest.fixture(scope="module")
def finished_table(server_url: str) -> str:
    """A Durak game between two easy bots, played to the end (one for both languages: the
    second page finds its analysis stored)."""
    table = call(server_url, "POST", "/api/tables",
                 {"game": "durak", "seats": ["bot:easy", "bot:easy"]})["table"]
    for _ in range(600):
        if call(server_url, "GET", f"/api/tables/{table}")["over"]:
            break
        time.sleep(0.2)
    return table


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_a_finished_game_is_analysed_on_the_page(open_page, server_url: str,
                                                 finished_table: str, lang: str) -> None:
    page = open_page(f"/learn.html?analyse={finished_table}&lang={lang}")
    page.wait_for_selector('#analysis-status[data-done="true"]', timeout=1_200_000)
    record = call(server_url, "GET", f"/api/tables/{finished_table}/record")
    rows = page.locator("#analysis-moves tbody tr").count()
    assert 0 < rows <= len(record["moves"])
    assert page.evaluate("document.documentElement.dir") == ("rtl" if lang == "fa" else "ltr")


def test_the_replay_and_the_header_lead_to_the_school(open_page, finished_table: str) -> None:
    page = open_page(f"/#replay/{finished_table}")
    link = page.locator(".replay a.analyse")
    link.wait_for()
    assert f"analyse={finished_table}" in link.get_attribute("href")
    assert "lang=en" in link.get_attribute("href")
    learn = page.locator('nav a[data-nav="learn"]')
    assert learn.get_attribute("href") == "/#/learn"   # the lessons, on the table
    link.click()
    page.wait_for_url(f"**/learn.html?analyse={finished_table}*")
    page.locator("#analysis-status").wait_for()
