"""Hint and undo on the page: offered at a table against bots only, never at a table
with another person."""

from __future__ import annotations

import pytest
from browserkit import (
    click_durak_move,
    create_table,
    legal_moves,
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
    move = next((m for m in moves if m != "take"), moves[0])
    click_durak_move(page, move, via_table=False)
    wait_for_next_version(page, version)
    page.click(".actions button.undo")
    page.wait_for_function("v => document.querySelector('#table-root').dataset.version === v",
                           arg=version)
    assert wait_for_turn_or_end(page)
    assert sorted(legal_moves(page)) == sorted(moves)


def test_no_hint_or_undo_at_a_table_with_another_person(open_page, server_url) -> None:
    page = open_page("/", reduced_motion=True)
    table = create_table(page, "durak", seats=["human", "human"])
    friend = open_page(f"/table/{table}", reduced_motion=True)
    friend.click("button.join")
    page.click(".created .open-table")
    page.wait_for_selector('#table-root[data-over="false"]')
    for someone in (page, friend):
        someone.wait_for_selector('#table-root[data-to-move]:not([data-to-move=""])')
        assert someone.locator(".actions button.hint, .actions button.undo").count() == 0
