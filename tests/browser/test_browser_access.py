"""Accessibility: axe-core (bundled by axe-playwright-python) finds nothing serious or
critical on the lobby, a table of each game in the middle of a game, the lessons, the
analysis board and the leaderboard, in English and in Persian; and a game is played, and
its end dialog closed, from the keyboard alone, with the focus always shown."""

from __future__ import annotations

import json
from typing import Any

import pytest
from accesskit import grave_findings, play_first_moves, seated_table, settled
from browserkit import DESKTOP, PHONE, turn_now, wait_for_next_version, wait_for_turn_or_end

pytestmark = pytest.mark.browser
pytest.importorskip("axe_playwright_python")

LOCALES = {"en": "en-US", "fa": "fa-IR"}


SCROLLS = "list => list.scrollHeight > list.clientHeight"


@pytest.mark.parametrize("lang", ["en", "fa"])
@pytest.mark.parametrize("screen", ["lobby", "pasur", "durak", "learn", "analysis",
                                    "leaderboard"])
def test_axe_finds_nothing_serious(open_page, server_url: str, request: Any, screen: str,
                                   lang: str) -> None:
    locale = LOCALES[lang]
    if screen in ("pasur", "durak"):
        page = seated_table(open_page, server_url, screen, locale=locale)
        # in the middle of a game: the move log long enough to scroll
        for _ in range(10):
            if page.locator(".move-log .log-lines").evaluate(SCROLLS):
                break
            play_first_moves(page, 2)
        assert page.locator(".move-log .log-lines").evaluate(SCROLLS)
    elif screen == "analysis":
        table = request.getfixturevalue("analysed_pasur")
        page = open_page(f"/#/analyse/{table}", locale=locale, reduced_motion=True)
        page.wait_for_selector('#analysis-status[data-done="true"]')
        assert page.locator(".analysis-graph .mark").count() > 0   # buttons on the graphs
        page.click("#analysis-moves button.show-move")
        page.wait_for_selector("#replay-table[data-step]")
    else:
        path = {"learn": "/#/learn", "leaderboard": "/#leaderboard"}.get(screen, "/")
        page = open_page(path, locale=locale, reduced_motion=True)
        page.wait_for_selector(f'body[data-screen="{screen}"] main h2')
        settled(page)
    assert page.evaluate("document.documentElement.lang") == lang
    assert grave_findings(page) == []


def focused(page: Any) -> dict:
    """The focused element: its tag, classes, card, and whether its focus ring shows."""
    return page.evaluate("""() => {
      const el = document.activeElement;
      const style = getComputedStyle(el);
      return { tag: el.tagName, cls: el.className || '', card: el.dataset.card || null,
               inDialog: !!el.closest('[role=dialog]'),
               ring: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2 };
    }""")


def tab_to(page: Any, selector: str, *, limit: int = 60) -> dict:
    """Press Tab until the focus is on an element matching ``selector``; every stop on the
    way shows its focus."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        now = focused(page)
        assert now["ring"], f"no focus ring on {now}"
        if page.evaluate("s => document.activeElement.matches(s)", selector):
            return now
    raise AssertionError(f"Tab never reached {selector}")


IN_HAND = "() => document.activeElement.matches('.hand-cards button.card')"
SENT = """v => { const root = document.querySelector('#table-root');
  return root.classList.contains('sent') || root.dataset.version !== v; }"""


@pytest.mark.parametrize(("lang", "viewport"), [("en", DESKTOP), ("fa", PHONE)])
def test_a_pasur_move_from_the_keyboard_alone(open_page, server_url: str, lang: str,
                                              viewport: dict) -> None:
    page = seated_table(open_page, server_url, "pasur", locale=LOCALES[lang], viewport=viewport)
    assert wait_for_turn_or_end(page)
    version, moves = turn_now(page)
    # from the top of the page to a playable card of the hand, every stop showing its focus
    playable = {move.partition(" x ")[0] for move in moves}
    card = tab_to(page, ".hand-cards button.card:not([aria-disabled])")["card"]
    assert card in playable
    name = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert name and card not in name   # named in words ("7 of clubs"), not "7♣"
    own = [move for move in moves if move.partition(" x ")[0] == card]
    page.keyboard.press("Enter")
    if not page.evaluate(SENT, version):
        # its captures to choose from (or, looking first, the one it would make): the
        # focus is on the first choice, and Space takes it
        page.wait_for_function("() => document.activeElement.matches('.choices button.choice')")
        assert page.evaluate("document.activeElement.dataset.move") in own
        page.keyboard.press(" ")
    else:
        assert len(own) == 1
    wait_for_next_version(page, version)
    mine = [line for line in page.locator(".move-log li.log-line").all_inner_texts()
            if line.startswith("You:" if lang == "en" else "شما")]
    assert len(mine) == 1, mine
    assert page.locator(f'.hand-cards button.card[data-card="{card}"]').count() == 0
    # the focus stayed in the hand (not back at the top of the page): the next move is
    # played from where the last one was
    assert wait_for_turn_or_end(page)
    assert page.evaluate(IN_HAND)


def test_a_durak_move_from_the_keyboard_alone(open_page, server_url: str) -> None:
    page = seated_table(open_page, server_url, "durak")
    assert wait_for_turn_or_end(page)
    version, moves = turn_now(page)
    attacks = [m for m in moves if m.startswith("attack ") and len(m.split()) == 2]
    defences = [m for m in moves if m.startswith("defend ")]
    if attacks:
        # a card chosen (pressed), then the Attack button
        played = attacks[0]
        card = tab_to(page, f'.hand-cards button.card[data-card="{played.split()[1]}"]')
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.activeElement.getAttribute('aria-pressed')"
                               " === 'true'")
        assert page.evaluate("document.activeElement.dataset.card") == card["card"]
        tab_to(page, ".actions button.attack:not([disabled])")
        page.keyboard.press("Enter")
    elif defences:
        # the beating card, then the attack card it beats (the focus is taken there)
        played = defences[0]
        tab_to(page, f'.hand-cards button.card[data-card="{played.split()[3]}"]')
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.activeElement.matches('.choices button.choice')")
        played = page.evaluate("document.activeElement.dataset.move")
        page.keyboard.press("Enter")
    else:
        played = "take"
        tab_to(page, ".actions button.take")
        page.keyboard.press("Enter")
    assert played in moves
    wait_for_next_version(page, version)
    assert any(line.startswith("You")   # "You: attack with 7♠", "You take the cards"
               for line in page.locator(".move-log li.log-line").all_inner_texts())
    assert page.evaluate(IN_HAND)


def test_the_end_dialog_keeps_the_focus_and_escape_closes_it(open_page, server_url: str) -> None:
    page = seated_table(open_page, server_url, "durak")
    assert wait_for_turn_or_end(page)
    page.once("dialog", lambda sure: sure.accept())   # "Resign this game?"
    page.click(".life-bar button.resign")
    dialog = page.locator(".summary.final")
    dialog.wait_for()
    assert dialog.get_attribute("role") == "dialog"
    assert dialog.get_attribute("aria-modal") == "true"
    assert focused(page)["inDialog"]
    # Tab and Shift+Tab go round the dialog's controls and never leave it
    for key in ["Tab"] * 8 + ["Shift+Tab"] * 8:
        page.keyboard.press(key)
        now = focused(page)
        assert now["inDialog"] and now["ring"], (key, now)
    page.keyboard.press("Escape")
    dialog.wait_for(state="detached")
    assert page.evaluate("document.activeElement.matches('button.open-summary')")
    page.keyboard.press("Enter")
    dialog.wait_for()
    assert json.loads(page.locator("#table-root").get_attribute("data-legal") or "[]") == []
