"""Scores that explain themselves: the Pasur sheet between hands has a named column for
each part of the points; the end-of-match dialog keeps Rematch and Lobby in view on a
desktop and on a phone, every number too; Durak ends with the order of finishing."""

from __future__ import annotations

import random
from typing import Any

import pytest
from browserkit import (
    DESKTOP,
    PHONE,
    click_pasur_move,
    create_table,
    legal_moves,
    play_to_the_end,
    screenshot,
    table_root,
    wait_for_next_version,
    wait_for_turn_or_end,
)

pytestmark = pytest.mark.browser

IN_VIEW = """el => { const r = el.getBoundingClientRect();
  return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 0.5
         && r.right <= innerWidth + 0.5; }"""
COLUMNS = ["Side", "Cards", "Clubs", "2♣", "10♦", "Aces", "Jacks", "Surs", "Bonus", "Points",
           "Total"]


def in_view(locator: Any) -> bool:
    return bool(locator.evaluate(IN_VIEW))


def test_the_pasur_sheet_between_hands_names_each_part(open_page) -> None:
    page = open_page("/", reduced_motion=True)
    create_table(page, "pasur", seats=["human", "bot:random"], options={"fixed_hands": "2"})
    page.click(".created .open-table")
    rng = random.Random(2)
    for _ in range(24):
        assert wait_for_turn_or_end(page)
        version = table_root(page).get_attribute("data-version")
        click_pasur_move(page, rng.choice(legal_moves(page)), via_table=False)
        wait_for_next_version(page, version)
    panel = page.locator(".felt .hand-summary")
    panel.wait_for()
    headings = panel.locator("thead th").all_inner_texts()
    assert [h.strip() for h in headings] == COLUMNS
    titles = panel.locator("thead abbr").evaluate_all("as => as.map(a => a.title)")
    assert "The 10 of diamonds" in titles and all(titles)
    rows = panel.locator("tbody tr")
    assert rows.count() == 2
    # the cards column adds up to the pack: every card was taken by someone
    cards = [int(text) for text in panel.locator('td[data-part="cards"]').all_inner_texts()]
    assert sum(cards) == 52
    points = [int(text) for text in panel.locator("td.points").all_inner_texts()]
    totals = [int(text) for text in panel.locator("td.total").all_inner_texts()]
    assert points == totals   # the first hand's points are the match so far
    screenshot(page, "pasur-en-desktop-hand-sheet")


@pytest.mark.parametrize(("viewport", "device"), [(DESKTOP, "desktop"), (PHONE, "phone")])
def test_the_end_of_a_match_keeps_its_buttons_and_numbers_in_view(open_page, viewport,
                                                                    device) -> None:
    page = open_page("/", viewport=viewport, reduced_motion=True)
    create_table(page, "pasur", seats=["human", "bot:random"], options={"target": "1"})
    page.click(".created .open-table")
    play_to_the_end(page, "pasur", seed=9)
    dialog = page.locator(".summary.final")
    dialog.wait_for()
    page.wait_for_timeout(400)
    assert in_view(dialog)
    assert in_view(dialog.locator("button.rematch"))
    links = dialog.locator(".summary-buttons a.button").all()   # analyse, replay, the lobby
    assert len(links) == 3 and all(in_view(link) for link in links)
    for cell in dialog.locator(".sheet.totals td").all():
        assert in_view(cell)
    # the last hand's sheet: every column (or, turned on a phone, every side) in view
    sheet = dialog.locator(".sheet.hand").first
    box = sheet.evaluate("t => t.getBoundingClientRect().right")
    assert box <= viewport["width"] + 0.5
    screenshot(page, f"pasur-en-{device}-final")


def test_durak_ends_with_the_order_of_finishing(open_page, server_url) -> None:
    page = open_page("/", viewport=PHONE, reduced_motion=True)
    table = create_table(page, "durak", seats=["human", "bot:random"])
    page.click(".created .open-table")
    play_to_the_end(page, "durak", seed=17)
    dialog = page.locator(".summary.final")
    dialog.wait_for()
    summary = page.request.get(f"{server_url}/api/tables/{table}").json()["summary"]
    order = dialog.locator(".finishing-order li")
    assert order.count() == 2
    seats = [int(s) for s in order.evaluate_all("ls => ls.map(l => l.dataset.seat)")]
    assert sorted(seats) == [0, 1]
    if summary["loser"] is not None:
        assert seats[-1] == summary["loser"]
        assert "still holding" in order.last.inner_text()
    assert in_view(dialog.locator("button.rematch"))
    screenshot(page, "durak-en-phone-final")
