"""A move is sent once: the controls lock from the click until the server answers."""

from __future__ import annotations

import pytest
from browserkit import (
    create_table,
    legal_moves,
    sent_moves,
    table_root,
    wait_for_next_version,
    wait_for_turn_or_end,
)

pytestmark = pytest.mark.browser


def test_a_double_click_on_a_durak_button_sends_one_move(open_page) -> None:
    page = open_page("/", reduced_motion=True)
    moves = sent_moves(page)
    create_table(page, "durak", seats=["human", "bot:random"])
    page.click(".created .open-table")
    assert wait_for_turn_or_end(page)
    legal = legal_moves(page)
    version = table_root(page).get_attribute("data-version")
    if "take" in legal:
        page.dblclick('.actions button[data-action="take"]')
    else:
        attack = next(m for m in legal if m.startswith("attack ") and len(m.split()) == 2)
        page.click(f'.hand-cards button.card[data-card="{attack.split()[1]}"]')
        page.dblclick('.actions button[data-action="attack"]:not([disabled])')
    wait_for_next_version(page, version)
    page.wait_for_timeout(300)   # a second message, had one gone, is answered by now
    # (a lone pass the page plays by itself later is another version's move)
    assert [m for m in moves if m["version"] == int(version)] == moves[:1], moves
    assert page.locator(".toast.error").count() == 0


def test_two_clicks_from_the_keyboard_send_one_move(open_page) -> None:
    """The lock is in the page's code too, not only in the pointer's way: two clicks
    made at once by a script (as Enter pressed twice would) send one move."""
    page = open_page("/", reduced_motion=True)
    moves = sent_moves(page)
    create_table(page, "durak", seats=["human", "bot:random"])
    page.click(".created .open-table")
    assert wait_for_turn_or_end(page)
    legal = legal_moves(page)
    version = table_root(page).get_attribute("data-version")
    if "take" in legal:
        button = page.locator('.actions button[data-action="take"]')
    else:
        attack = next(m for m in legal if m.startswith("attack ") and len(m.split()) == 2)
        page.click(f'.hand-cards button.card[data-card="{attack.split()[1]}"]')
        button = page.locator('.actions button[data-action="attack"]:not([disabled])')
    button.evaluate("b => { b.click(); b.click(); }")
    wait_for_next_version(page, version)
    page.wait_for_timeout(300)
    assert [m for m in moves if m["version"] == int(version)] == moves[:1], moves
    assert page.locator(".toast.error").count() == 0
