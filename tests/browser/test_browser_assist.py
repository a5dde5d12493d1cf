"""Hint and undo on the page: offered at a table against bots only, never at a table
with another person."""

from __future__ import annotations

from typing import Any

import pytest
from browserkit import (
    click_durak_move,
    create_table,
    legal_moves,
    screenshot,
    table_root,
    wait_for_next_version,
    wait_for_turn_or_end,
)

pytestmark = pytest.mark.browser


def test_hint_and_undo_against_bots(open_page) -> None:
    page = open_page("/", reduced_motion=True)
    # no lone pass played by the page: the undo must find the move clicked below
    page.evaluate("localStorage.setItem('cardtable.settings', '{\"autoPass\": false}')")
    create_table(page, "durak", seats=["human", "bot:random"])
    page.click(".created .open-table")
    assert wait_for_turn_or_end(page)
    page.click(".actions button.hint")
    page.wait_for_selector("#table-root[data-hint]")
    assert table_root(page).get_attribute("data-hint") in legal_moves(page)
    assert "Hint: " in page.locator(".toast.info").last.inner_text()
    hinted = page.locator(".hand-cards .card.hinted").evaluate_all(
        "cs => cs.map(c => c.dataset.card)")
    hint = table_root(page).get_attribute("data-hint")
    assert all(card in hint for card in hinted)
    assert hinted or hint in ("take", "pass")   # a move with cards marks them in the hand
    # play a move, let the bot answer, then take it back
    version = table_root(page).get_attribute("data-version")
    moves = legal_moves(page)
    hand = set(hand_cards(page))
    move = next((m for m in moves if m != "take"), moves[0])
    click_durak_move(page, move, via_table=False)
    wait_for_next_version(page, version)
    assert wait_for_turn_or_end(page)
    undo = page.locator(".actions button.undo")
    if undo.count():
        undo.click()
        page.wait_for_function(
            "v => document.querySelector('#table-root').dataset.version === v", arg=version)
        assert wait_for_turn_or_end(page)
        assert sorted(legal_moves(page)) == sorted(moves)
    else:
        # the bot's answer ended the round and the hands were filled from the stock: no
        # Undo is offered, since the server would refuse it (the player has seen new cards)
        assert set(hand_cards(page)) - hand, (hand, hand_cards(page))
        assert page.locator(".actions button.hint").count() == 1   # the help is still there


def hand_cards(page: Any) -> list[str]:
    return page.locator(".hand-cards .card").evaluate_all("cs => cs.map(c => c.dataset.card)")


def test_no_hint_or_undo_at_a_table_with_another_person(open_page, server_url) -> None:
    page = open_page("/", reduced_motion=True)
    table = create_table(page, "durak", seats=["human", "human"])
    friend = open_page(f"/table/{table}", reduced_motion=True)   # seated by opening it
    friend.wait_for_selector('#table-root[data-seat="1"]')
    page.click(".created .open-table")
    page.wait_for_selector('#table-root[data-over="false"]')
    for someone in (page, friend):
        someone.wait_for_selector('#table-root[data-to-move]:not([data-to-move=""])')
        assert someone.locator(".actions button.hint, .actions button.undo").count() == 0


@pytest.mark.parametrize(("locale", "lang", "words", "percent", "ranked"),
                         [("en-US", "en", "keeps", "%", "The best of your"),
                          ("fa-IR", "fa", "حکم نگه می‌دارد", "٪", "بهترینِ")],
                         ids=["en", "fa"])
def test_a_hint_explains_its_move_and_the_best_moves_in_my_language(
        open_page, locale: str, lang: str, words: str, percent: str, ranked: str) -> None:
    page = open_page("/", locale=locale, reduced_motion=True)
    create_table(page, "durak", seats=["human", "bot:random"])
    page.click(".created .open-table")
    assert wait_for_turn_or_end(page)
    page.click(".actions button.hint")
    panel = page.locator(".hint-panel")
    panel.wait_for()
    assert panel.get_attribute("data-lang") == lang
    assert panel.get_attribute("data-move") == table_root(page).get_attribute("data-hint")
    assert words in panel.locator(".hint-why").inner_text()
    choices = panel.locator(".hint-choice")
    assert 1 <= choices.count() <= 3
    assert panel.locator(".hint-choice.chosen").count() == 1
    # the move named is the one its own figures rank first, and the judge's sentence says so
    assert "chosen" in (choices.first.get_attribute("class") or "")
    why = panel.locator(".hint-ranked").inner_text()
    assert (ranked in why) if choices.count() > 1 else why
    values = panel.locator(".hint-value").all_inner_texts()
    assert values and all(percent in v for v in values)
    if lang == "fa":   # the values in Persian digits, the explanation right to left
        assert all(any("۰" <= ch <= "۹" for ch in v) for v in values)
        assert page.evaluate("document.documentElement.dir") == "rtl"
    button = page.locator(".actions button.hint")   # ready to be asked again
    assert not button.is_disabled() and button.inner_text() == page.evaluate(
        "async () => (window.cardtableModules.get('/js/i18n.js')).t('table.hint')")
    panel.scroll_into_view_if_needed()
    screenshot(page, f"hint-{lang}-desktop")
    # the panel goes once the table moves on
    version = table_root(page).get_attribute("data-version")
    moves = legal_moves(page)
    click_durak_move(page, next((m for m in moves if m != "take"), moves[0]), via_table=False)
    wait_for_next_version(page, version)
    page.wait_for_selector(".hint-panel", state="detached")
