"""Challenges on the page: one account challenges another by name from the inbox; the
challenged one, on another page of the site, sees the challenge at once, accepts it from
the panel and lands at the table, seated; both inboxes and a profile's follow and
challenge buttons pass axe; the lobby leads to the inbox; the inbox is in all four
languages; the digest's unsubscribe link asks before it stops the mails."""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from accesskit import grave_findings

pytestmark = pytest.mark.browser

PASSWORD = "correct horse battery"


def registered(page: Any, prefix: str) -> str:
    """Register through the account screen's form; signed in at once."""
    name = f"{prefix}_{secrets.token_hex(3)}"
    page.goto(page.url.split("#")[0] + "#account")
    page.fill("#register input[name=username]", name)
    page.fill("#register input[name=password]", PASSWORD)
    page.click("#register button[type=submit]")
    page.locator("#sign-out").wait_for()
    return name


def test_a_challenge_by_name_is_seen_at_once_and_accepted_into_a_seat(
        open_page: Any) -> None:
    alice, bob = open_page("/"), open_page("/")
    alice_name = registered(alice, "alice")
    bob_name = registered(bob, "bob")
    bob.goto(bob.url.split("#")[0] + "#leaderboard")   # somewhere else on the site
    bob.locator("#inbox-link").wait_for()
    alice.goto(alice.url.split("#")[0] + "#inbox")
    alice.fill("#challenge-to", bob_name)
    alice.select_option("#challenge-clock", "3")
    alice.click("#challenge-send")
    alice.locator(".challenge-list li[data-direction=out]").wait_for()
    assert grave_findings(alice) == []
    # bob's page was asking for notices all along: the challenge comes to him there
    panel = bob.locator("#toasts .notice[data-kind=challenge]")
    panel.wait_for(timeout=40_000)
    assert alice_name in panel.inner_text()
    assert grave_findings(bob) == []
    panel.locator("button.accept").click()
    bob.wait_for_url("**/table/*")
    table = bob.url.rsplit("/", 1)[1]
    seats = bob.request.get(bob.url.split("/table/")[0] + "/api/me").json()["seats"]
    assert [(s["table"], s["seat"]) for s in seats] == [(table, 1)]
    # alice hears of it too: her notice leads to the table
    alice.locator("#toasts .notice[data-kind=challenge_answer]").wait_for(timeout=40_000)


def test_a_profile_offers_follow_and_challenge_and_the_inbox_lists_the_friend(
        open_page: Any) -> None:
    alice, bob = open_page("/"), open_page("/")
    registered(alice, "alice")
    bob_name = registered(bob, "bob")
    alice.goto(alice.url.split("#")[0] + f"#players/{bob_name}")
    alice.click("#follow")
    alice.locator("#toasts", has_text="You follow this player now.").wait_for()
    assert grave_findings(alice) == []
    alice.click("#challenge")
    alice.locator("#challenge-to").wait_for()
    assert alice.input_value("#challenge-to") == bob_name
    alice.locator(f".friend-list li[data-friend={bob_name}]").wait_for()


def test_the_lobby_leads_to_the_inbox(open_page: Any) -> None:
    page = open_page("/")
    page.click("#lobby-inbox")
    page.locator("#inbox-title").wait_for()
    assert page.url.endswith("/#inbox")


@pytest.mark.parametrize("locale,title", [("pt-PT", "Caixa de entrada"),
                                          ("fa-IR", "صندوق پیام"), ("ru-RU", "Входящие")])
def test_the_inbox_speaks_each_language(open_page: Any, locale: str, title: str) -> None:
    page = open_page("/#inbox", locale=locale)
    page.locator("#inbox-title", has_text=title).wait_for()
    assert grave_findings(page) == []


@pytest.mark.parametrize("locale,title", [("en-GB", "Stop the daily e-mail"),
                                          ("pt-PT", "Parar o e-mail diário"),
                                          ("fa-IR", "توقف نامهٔ روزانه"),
                                          ("ru-RU", "Отключить ежедневное письмо")])
def test_the_digests_link_asks_before_it_stops_the_mails(open_page: Any, locale: str,
                                                           title: str) -> None:
    page = open_page("/#unsubscribe=not-one-of-ours", locale=locale)
    page.locator("#unsubscribe-title", has_text=title).wait_for()
    assert page.url.endswith("/#unsubscribe")   # the token out of the address bar
    assert grave_findings(page) == []
    page.click("#unsubscribe-confirm")   # the POST: a token the site did not sign
    page.locator(".unsubscribe p.error").wait_for()
