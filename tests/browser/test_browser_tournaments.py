"""Tournaments in the page: an account organises one from the form, two players join
from its page and see the standings, the organiser starts it and both see their table;
the lobby lists it, the profile shows it, and axe finds nothing grave on its pages."""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from accesskit import grave_findings
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

PASSWORD = "correct horse battery"


def register_in_page(page: Any, name: str) -> None:
    page.fill("#register input[name=username]", name)
    page.fill("#register input[name=password]", PASSWORD)
    page.click("#register button[type=submit]")
    page.locator("#sign-out").wait_for()


def standings_names(page: Any) -> list[str]:
    return [text.split(" (")[0] for text in
            page.locator("table.standings tbody tr td:nth-child(2)").all_inner_texts()]


def test_players_join_a_tournament_from_its_page_and_see_the_standings(
        open_page: Any) -> None:
    orga, ann = f"orga_{secrets.token_hex(3)}", f"ann_{secrets.token_hex(3)}"
    page = open_page("/#account")
    register_in_page(page, orga)
    page.goto(page.url.split("#")[0] + "#tournaments")
    page.locator("#tour-form").wait_for()
    assert grave_findings(page) == []
    page.fill("#tour-new-name", f"Cup {orga}")
    page.select_option("#tour-kind", "arena")
    page.fill("#tour-length", "30")
    page.uncheck("#tour-rated")
    page.click("#tour-create")
    page.locator("#tour-heading").wait_for()
    assert page.inner_text("#tour-heading") == f"Cup {orga}"
    tournament = page.url.split("#tournaments/")[1]
    page.click("#tour-join")
    expect(page.locator("table.standings tbody tr")).to_have_count(1)

    other = open_page("/#account")
    register_in_page(other, ann)
    other.goto(other.url.split("#")[0] + f"#tournaments/{tournament}")
    other.click("#tour-join")
    expect(other.locator("table.standings tbody tr")).to_have_count(2)
    assert sorted(standings_names(other)) == sorted([orga, ann])
    assert other.locator("#tour-start").count() == 0   # only the organiser starts it

    # the organiser's page reads the standings again by itself
    expect(page.locator("table.standings tbody tr")).to_have_count(2)
    page.click("#tour-start")
    for seen in (page, other):   # each is told their table, and its link plays it
        seen.locator(".your-table a").wait_for()
        assert seen.locator(".tour-tables li").count() == 1
    assert grave_findings(other) == []

    # the lobby lists it as running, and ann's profile shows it
    other.goto(other.url.split("#")[0])
    other.locator(f".lobby-tournaments [data-id='{tournament}']").wait_for()
    other.goto(other.url.split("#")[0] + f"#players/{ann}")
    other.locator(".profile-tournaments li").wait_for()
    assert f"Cup {orga}" in other.inner_text(".profile-tournaments")


def test_the_tournaments_page_speaks_the_players_language(open_page: Any) -> None:
    page = open_page("/#tournaments", locale="ru-RU")
    page.locator("#tour-title").wait_for()
    assert page.inner_text("#tour-title") == "Турниры"
    assert grave_findings(page) == []
