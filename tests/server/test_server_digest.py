"""The inbox's e-mail digest: off by default, at most one mail a day, only the kinds the
player routes to e-mail, and a one-click unsubscribe; sent to an SMTP server the test
starts (aiosmtpd, on loopback), the days moved by the fake clock."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from email.message import Message
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from fastapi.testclient import TestClient
from playerkit import fresh, register
from tablekit import free_port, wait_until

from cardtable.server.core.clock import FakeClock

SITE = "https://cards.example"
HOUR = 3600


class Mailbox:
    def __init__(self) -> None:
        self.mails: list[Message] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        from email import message_from_bytes

        self.mails.append(message_from_bytes(envelope.content))
        return "250 OK"


@pytest.fixture
def mailbox() -> Iterator[tuple[Mailbox, int]]:
    from aiosmtpd.controller import Controller

    box, port = Mailbox(), free_port()
    server = Controller(box, hostname="127.0.0.1", port=port)
    server.start()
    try:
        yield box, port
    finally:
        server.stop()


@pytest.fixture
def site(make_client: Callable[..., TestClient],
         mailbox: tuple[Mailbox, int]) -> tuple[TestClient, dict[str, TestClient]]:
    client = make_client(smtp_host="127.0.0.1", smtp_port=mailbox[1], smtp_tls="none",
                         smtp_from="cardtable@cards.example", public_url=SITE)
    people = {}
    for i, name in enumerate(("anahita", "bahram"), start=1):
        browser = fresh(client, f"10.0.2.{i}")
        assert register(browser, name).status_code == 201
        people[name] = browser
    assert people["bahram"].post("/api/account/email",
                                 json={"email": "bahram@mail.example",
                                       "password": "correct horse battery"}).status_code == 200
    return client, people


def challenge(browser: TestClient) -> None:
    answer = browser.post("/api/challenges", json={"to": "bahram", "game": "durak"})
    assert answer.status_code == 201, answer.text


def test_no_digest_unless_the_player_asks_for_one(
        site: tuple[TestClient, dict[str, TestClient]], mailbox: tuple[Mailbox, int],
        clock: FakeClock) -> None:
    client, people = site
    challenge(people["anahita"])
    clock.move(2 * HOUR)
    sent = client.portal.call(client.app.state.services.digests.send_due)
    assert sent == 0 and mailbox[0].mails == []


def test_a_daily_digest_of_the_kinds_chosen_with_a_one_click_unsubscribe(
        site: tuple[TestClient, dict[str, TestClient]], mailbox: tuple[Mailbox, int],
        clock: FakeClock) -> None:
    client, people = site
    box = mailbox[0]
    b = people["bahram"]
    assert b.post("/api/social/settings", json={"routes": {
        "challenge": ["inbox", "email"]}}).json()["routes"]["challenge"] == ["email", "inbox"]
    challenge(people["anahita"])
    clock.move(HOUR)   # the sweep's hour
    wait_until(lambda: len(box.mails) == 1, "the first digest")
    mail = box.mails[0]
    assert mail["To"] == "bahram@mail.example"
    body = mail.get_payload(decode=True).decode()
    assert "anahita challenges you to durak" in body and f"{SITE}/#challenge/" in body
    link = mail["List-Unsubscribe"].strip("<>")
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    token = parse_qs(urlsplit(link).query)["token"][0]
    assert f"{SITE}/#unsubscribe={token}" in body   # the text's link: a page that asks
    # a second challenge the same day waits for tomorrow's mail
    challenge(people["anahita"])
    clock.move(HOUR)
    assert client.portal.call(client.app.state.services.digests.send_due) == 0
    clock.move(23 * HOUR)
    wait_until(lambda: len(box.mails) == 2, "the next day's digest")
    again = box.mails[1].get_payload(decode=True).decode()
    assert again.count("challenges you") == 1   # the first one is not mailed again
    # the header's address opened (a mail scanner follows links): nothing changes, it
    # leads to the page that asks
    parts = urlsplit(link)
    opened = b.get(f"{parts.path}?{parts.query}", follow_redirects=False)
    assert (opened.status_code, opened.headers["location"]) == (303, f"/#unsubscribe={token}")
    assert b.get("/api/social/settings").json()["routes"]["challenge"] == ["email", "inbox"]
    # the mail reader's one-click button (RFC 8058): a POST with its form body, no cookie
    reader = fresh(client, "10.0.2.9")
    clicked = reader.post(f"{parts.path}?{parts.query}",
                          content="List-Unsubscribe=One-Click",
                          headers={"content-type": "application/x-www-form-urlencoded"})
    assert clicked.json() == {"unsubscribed": True}
    assert b.get("/api/social/settings").json()["routes"]["challenge"] == ["inbox"]
    challenge(people["anahita"])
    clock.move(25 * HOUR)
    assert client.portal.call(client.app.state.services.digests.send_due) == 0
    assert len(box.mails) == 2
    forged = b.post("/api/social/unsubscribe?token=not-ours")
    assert (forged.status_code, forged.json()["code"]) == (404, "bad_link")
