"""Reporting from the page: a signed-in account reports a chat line said from
another seat and a player from the profile, with a reason, and the admins' list of reports
holds both; a guest gets no report control and is told to sign in."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from browserkit import screenshot, serving

from cardtable.server import create_app
from cardtable.server.store.sanctions import SanctionStore

pytestmark = pytest.mark.browser

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    """A server of this module's own, whose store the test reaches to make an admin."""
    app = create_app(data_dir=Path(tmp_path_factory.mktemp("report-data")), bot_delay=0,
                     grace=600)
    with serving(app) as url:
        yield url, app


@pytest.fixture(scope="module")
def server_url(site: tuple[str, Any]) -> str:
    return site[0]


def registered(page: Any, prefix: str) -> str:
    """Register through the account screen's form; signed in at once."""
    name = f"{prefix}_{secrets.token_hex(3)}"
    page.goto(page.url.split("#")[0] + "#account")
    page.fill("#register input[name=username]", name)
    page.fill("#register input[name=password]", PASSWORD)
    page.click("#register button[type=submit]")
    page.locator("#sign-out").wait_for()
    return name


def seated(page: Any, url: str, table: str, seat: int, token: str) -> None:
    page.evaluate("([id, seat, token]) => localStorage.setItem(`cardtable.seat.${id}`, "
                  "JSON.stringify({seat, token}))", [table, seat, token])
    page.goto(f"{url}/table/{table}")
    page.locator("#chat h2", has_text="Players' chat").wait_for()


def reports_of_admin(site: tuple[str, Any]) -> list[dict[str, Any]]:
    url, app = site
    with httpx.Client(base_url=url) as admin:
        name = f"keeper_{secrets.token_hex(3)}"
        assert admin.post("/api/account/register",
                          json={"username": name, "password": PASSWORD}).status_code == 201
        SanctionStore(app.state.storage).grant(name, "admin", "the test")
        listed = admin.get("/api/admin/reports")
        assert listed.status_code == 200
        return listed.json()


def test_an_account_reports_a_chat_line_and_a_player(open_page: Any,
                                                     site: tuple[str, Any]) -> None:
    url = site[0]
    rude, victim = open_page("/"), open_page("/")
    rude_name = registered(rude, "rude")
    registered(victim, "victim")
    # the accounts sit at the table: the chat line is said from the rude one's seat
    made = rude.request.post(f"{url}/api/tables", data={"game": "durak",
                                                        "seats": ["human", "human"]}).json()
    joined = victim.request.post(f"{url}/api/tables/{made['table']}/join").json()
    seated(rude, url, made["table"], 0, made["token"])
    seated(victim, url, made["table"], 1, joined["token"])
    rude.fill("#chat-input", "you play like a potato")
    rude.press("#chat-input", "Enter")
    victim.locator("#chat .chat-text", has_text="potato").wait_for()
    rude.locator("#chat .chat-text", has_text="potato").wait_for()
    assert rude.locator("#chat .chat-report").count() == 0   # not one's own line
    report = victim.get_by_role("button", name=f"Report {rude_name}'s line")
    report.focus()
    victim.keyboard.press("Enter")   # reachable by the keyboard
    assert victim.locator("#chat-report form p").inner_text() == (
        f"Report {rude_name}'s line: “you play like a potato”")
    victim.keyboard.type("insults")   # the reason's field has the focus
    victim.click("#chat-report .report-send")
    assert victim.locator("#chat-report .report-status.done").inner_text() == \
        "Thank you: the report was sent to the admins."
    screenshot(victim, "report-chat")
    victim.goto(f"{url}/#players/{rude_name}")
    victim.click("#report-player")
    victim.fill("#profile-report .report-reason", "rude   name")
    victim.click("#profile-report .report-send")
    assert victim.locator("#profile-report .report-status.done").inner_text() == \
        "Thank you: the report was sent to the admins."
    victim.click("#report-player")   # a reason too long for the server: its refusal in words
    victim.locator("#profile-report .report-reason").evaluate(
        "(el) => { el.removeAttribute('maxlength'); el.value = 'x'.repeat(501); }")
    victim.click("#profile-report .report-send")
    assert victim.locator("#profile-report .report-status.error").inner_text() == (
        "The report was not sent: The server could not read that request.")
    rude_id = rude.evaluate("() => fetch('/api/me').then((r) => r.json())")["id"]
    listed = reports_of_admin(site)
    assert [(r["player"], r["quoted"], r["reason"]) for r in listed] == [
        (rude_id, None, "rude name"), (rude_id, "you play like a potato", "insults")]


def test_a_guest_is_told_to_sign_in_and_sees_no_report_control(
        open_page: Any, site: tuple[str, Any]) -> None:
    url = site[0]
    made = httpx.post(f"{url}/api/tables", json={"game": "durak",
                                                 "seats": ["human", "human"]}).json()
    joined = httpx.post(f"{url}/api/tables/{made['table']}/join").json()
    talker = open_page("/")
    name = registered(talker, "talker")
    seated(talker, url, made["table"], 0, made["token"])
    guest = open_page("/")
    seated(guest, url, made["table"], 1, joined["token"])
    talker.fill("#chat-input", "hello there")
    talker.press("#chat-input", "Enter")
    guest.locator("#chat .chat-text", has_text="hello there").wait_for()
    assert guest.locator("#chat .chat-report").count() == 0
    guest.goto(f"{url}/#players/{name}")
    assert guest.locator(".report-sign-in").inner_text() == "Sign in to report this player."
    assert guest.locator("#report-player").count() == 0
