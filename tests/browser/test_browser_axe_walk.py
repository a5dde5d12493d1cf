"""One walk through every page and dialog, in each of the four languages: axe-core finds
nothing serious or critical anywhere, and no page writes an error to the console.

The lobby; a table of each game at its start, in the middle (the move log scrolling) and
at its end (the end dialog open); the analysis board and the replay of a finished game;
the history; the leaderboard; the tournaments; the inbox; the account pages (sign in and
register, a password reset, then, signed in, the account's control page and the player's
profile); a tournament's page and an open challenge's; the lessons, a lesson and a
puzzle.  Each language walks with one viewport,
desktop and phone by turns (English and Russian on a desktop, Portuguese and Persian on a
phone: both directions on both), which keeps the walk to a few minutes; every finding of
the walk is reported at once, by screen.
"""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from accesskit import grave_findings, play_first_moves, seated_table, settled
from browserkit import DESKTOP, PHONE, wait_for_turn_or_end

from cardtable.analysis import lessons

pytestmark = pytest.mark.browser
pytest.importorskip("axe_playwright_python")

WALKERS = {"en": ("en-US", DESKTOP), "pt": ("pt-BR", PHONE), "fa": ("fa-IR", PHONE),
           "ru": ("ru-RU", DESKTOP)}


def screen(page: Any, server_url: str, path: str, name: str) -> None:
    """Go to ``path`` and wait until its screen has drawn and its data came."""
    page.goto(server_url + path)
    page.wait_for_selector(f'body[data-screen="{name}"] main h2')
    settled(page)


def ended(page: Any) -> None:
    """Resign, and wait for the end dialog."""
    page.locator(".life-bar button.resign").wait_for()
    page.once("dialog", lambda dialog: dialog.accept())
    page.click(".life-bar button.resign")
    page.wait_for_selector('#table-root[data-over="true"]')
    page.locator(".summary.final").wait_for()


@pytest.mark.parametrize("lang", list(WALKERS))
def test_every_page_and_dialog_has_nothing_serious(open_page: Any, server_url: str,
                                                   analysed_pasur: str, lang: str) -> None:
    locale, viewport = WALKERS[lang]
    found: dict[str, list[str]] = {}

    def look(page: Any, where: str) -> None:
        assert page.evaluate("document.documentElement.lang") == lang, where
        found[where] = grave_findings(page)

    for game in ("pasur", "durak"):
        page = seated_table(open_page, server_url, game, locale=locale, viewport=viewport)
        wait_for_turn_or_end(page)
        look(page, f"{game} at the start")
        play_first_moves(page, 4)
        look(page, f"{game} in the middle")
        ended(page)
        look(page, f"{game} at the end, its dialog open")

    page = open_page("/", locale=locale, viewport=viewport, reduced_motion=True)
    page.wait_for_selector('body[data-screen="lobby"] main h2')
    settled(page)
    look(page, "lobby")
    page.goto(f"{server_url}/#/analyse/{analysed_pasur}")
    page.wait_for_selector('#analysis-status[data-done="true"]')
    look(page, "analysis")
    screen(page, server_url, f"/#replay/{analysed_pasur}", "replay")
    page.wait_for_selector("#replay-table[data-step]")
    page.click(".replay-controls button.to-end")
    look(page, "replay, at its end")
    for path, name in (("/#history", "history"), ("/#leaderboard", "leaderboard"),
                       ("/#/learn", "learn"), ("/#account", "account"), ("/#reset", "reset"),
                       ("/#tournaments", "tournaments"), ("/#inbox", "inbox")):
        screen(page, server_url, path, name)
        look(page, name)
    step = lessons.course("pasur")[1]
    page.goto(f"{server_url}/#/learn/pasur/{step.key}")
    page.wait_for_selector(f'#lesson-panel[data-step="{step.key}"]')
    look(page, "a lesson")
    page.goto(f"{server_url}/#/puzzle/pasur/1")
    page.wait_for_selector("#puzzle-panel[data-puzzle]")
    page.wait_for_selector('#table-root[data-my-turn="true"]')
    look(page, "the puzzle")

    name = f"walk{lang}{secrets.token_hex(3)}"
    answer = page.request.post(f"{server_url}/api/account/register",
                               data={"username": name, "password": "a walk in four tongues"})
    assert answer.status == 201, answer.text()
    screen(page, server_url, "/#account/control", "control")
    look(page, "account control")
    screen(page, server_url, f"/#players/{name}", "profile")
    look(page, "profile")
    made = page.request.post(f"{server_url}/api/tournaments", data={
        "game": "pasur", "kind": "arena", "minutes": 30, "players": 2})
    assert made.status == 201, made.text()
    screen(page, server_url, f"/#tournaments/{made.json()['id']}", "tournaments")
    look(page, "a tournament")
    made = page.request.post(f"{server_url}/api/challenges", data={"game": "pasur",
                                                                    "players": 2})
    assert made.status == 201, made.text()
    page.goto(f"{server_url}/#challenge/{made.json()['id']}")
    page.wait_for_selector('body[data-screen="challenge"] #challenge-what')
    look(page, "an open challenge")

    assert {where: lines for where, lines in found.items() if lines} == {}
    assert len(found) == 22   # every screen above was looked at
    assert open_page.console == []
