"""The rules in words: the lobby's options, explanations and presets in the player's
language, developer bots under "advanced", options shown only where they apply, and a
rules card at the table."""

from __future__ import annotations

import re

import pytest
from browserkit import PHONE, create_table, screenshot

pytestmark = pytest.mark.browser

CYRILLIC = re.compile(r"[А-Яа-яЁё]")


def test_the_lobby_speaks_russian_without_programmer_notation(open_page) -> None:
    page = open_page("/", locale="ru-RU")
    page.click("#game-pasur")
    page.click("details.options summary")
    labels = page.locator(".option-row label").all_inner_texts()
    docs = page.locator(".option-row .doc").all_inner_texts()
    assert labels and docs
    for text in labels + docs:
        assert CYRILLIC.search(text), text
        assert not re.search(r"\w_\w|%|\bNone\b", text), text
    presets = page.locator("#preset option").all_inner_texts()
    assert all(CYRILLIC.search(p) for p in presets), presets
    jack = page.locator("#opt-jack option").all_inner_texts()
    assert all(CYRILLIC.search(j) for j in jack), jack
    screenshot(page, "lobby-ru-desktop-options")


def test_the_rule_options_are_made_when_first_opened(open_page) -> None:
    """The rows of the rule options (a control and a sentence each, most of the lobby's
    form) are made when the reader first opens them, not with the lobby; opened from the
    keyboard they are all there at once, and a game chosen again keeps them open."""
    page = open_page("/")
    page.wait_for_selector("details.options summary")
    assert page.locator(".option-row").count() == 0
    page.focus("details.options summary")
    page.keyboard.press("Enter")
    assert page.locator(".option-row").count() > 3   # asked at once: no wait
    assert page.locator("#opt-jack").is_visible()
    page.click("#game-durak")
    assert page.locator("details.options[open] .option-row").count() > 3


def test_developer_bots_sit_under_advanced(open_page) -> None:
    page = open_page("/")
    page.click("#game-durak")
    group = page.locator("#seat-1 optgroup")
    assert group.count() == 1
    inside = group.locator("option").evaluate_all("os => os.map(o => o.value)")
    assert "bot:random" in inside and "bot:ismcts" in inside and "bot:basic" in inside
    outside = page.locator("#seat-1 > option").evaluate_all("os => os.map(o => o.value)")
    assert "bot:medium" in outside and "bot:random" not in outside


def test_teams_of_four_shows_only_where_four_can_play(open_page) -> None:
    page = open_page("/")
    page.click("#game-pasur")
    page.select_option("#preset", "standard")   # two players only
    page.click("details.options summary")
    assert page.locator("#opt-teams_of_four").count() == 0
    page.select_option("#preset", "wikipedia")  # two to four
    assert page.locator("#opt-teams_of_four").count() == 1


def test_the_table_has_a_rules_card_in_the_players_language(open_page) -> None:
    page = open_page("/", locale="fa-IR", viewport=PHONE)
    create_table(page, "durak", seats=["human", "bot:random"])
    page.click(".created .open-table")
    card = page.locator(".rules-card")
    card.wait_for()
    card.locator("summary").click()
    lines = card.locator("li").all_inner_texts()
    assert len(lines) >= 4
    assert not any(re.search(r"[A-Za-z]", line) for line in lines), lines
    assert any("۳۶" in line for line in lines)   # the pack, in Persian digits
    card.scroll_into_view_if_needed()
    screenshot(page, "durak-fa-phone-rules-card")


def test_the_russian_seat_list_is_separated(open_page) -> None:
    page = open_page("/", locale="ru-RU")
    joined = page.evaluate(
        "() => window.cardtableModules.get('/js/i18n.js').joinList(['Вы', 'Место 2'])")
    assert joined == "Вы, Место 2"
