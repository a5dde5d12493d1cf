"""Password reset by e-mail, against an SMTP
server the test starts (aiosmtpd, on loopback): the link works once, for a while, names the
site's public address and never a request's Host; the answer is the same for an account
with an address, one without and no account; the SMTP password is never shown or logged."""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Iterator
from email import message_from_bytes
from email.message import Message
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword
from fastapi.testclient import TestClient
from itsdangerous import TimestampSigner
from playerkit import PASSWORD, fresh, login, register
from tablekit import free_port, wait_until

from cardtable.server.core.settings import ServerSettings

SMTP_PASSWORD = "smtp-secret-hunter2"
NEW = "a new and better secret"
SITE = "https://cards.example"


class Mailbox:
    """What the test's SMTP server received, and who signed in to it."""

    def __init__(self) -> None:
        self.mails: list[Message] = []
        self.logins: list[tuple[bytes, bytes]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.mails.append(message_from_bytes(envelope.content))
        return "250 OK"

    def authenticate(self, server: Any, session: Any, envelope: Any, mechanism: str,
                     data: Any) -> AuthResult:
        if isinstance(data, LoginPassword):
            self.logins.append((data.login, data.password))
            return AuthResult(success=data.password == SMTP_PASSWORD.encode())
        return AuthResult(success=False)


@pytest.fixture
def mailbox() -> Iterator[tuple[Mailbox, int]]:
    box, port = Mailbox(), free_port()
    server = Controller(box, hostname="127.0.0.1", port=port, authenticator=box.authenticate,
                        auth_require_tls=False)
    server.start()
    try:
        yield box, port
    finally:
        server.stop()


@pytest.fixture
def mail_client(make_client: Callable[..., TestClient],
                mailbox: tuple[Mailbox, int]) -> TestClient:
    _, port = mailbox
    return make_client(smtp_host="127.0.0.1", smtp_port=port, smtp_tls="none",
                       smtp_from="cardtable@cards.example", smtp_user="cardtable",
                       smtp_password=SMTP_PASSWORD, public_url=SITE)


def link_in(mail: Message) -> str:
    body = mail.get_payload(decode=True)
    assert isinstance(body, bytes)
    [line] = [line for line in body.decode().splitlines() if line.startswith(SITE)]
    return line


def token_of(link: str) -> str:
    assert link.startswith(f"{SITE}/#reset=")
    return link.removeprefix(f"{SITE}/#reset=")


def with_email(client: TestClient, name: str, email: str) -> None:
    register(client, name)
    given = client.post("/api/account/email", json={"email": email, "password": PASSWORD})
    assert given.status_code == 200 and given.json() == {"email": email}


def test_a_link_by_mail_sets_a_new_password_once_and_ends_every_session(
        mail_client: TestClient, mailbox: tuple[Mailbox, int]) -> None:
    box, _ = mailbox
    with_email(mail_client, "darya", "Darya@Example.org")
    forgot = fresh(mail_client)
    asked = forgot.post("/api/account/reset", json={"name": "darya@example.org"},
                        headers={"Host": "evil.example"})
    assert asked.status_code == 202 and asked.json() == {"reset": True}
    wait_until(lambda: box.mails, "the mail")
    [mail] = box.mails
    assert mail["To"] == "Darya@Example.org" and mail["From"] == "cardtable@cards.example"
    assert box.logins == [(b"cardtable", SMTP_PASSWORD.encode())]
    link = link_in(mail)
    assert "evil.example" not in link   # the site's own address, never the request's Host
    token = token_of(link)
    weak = forgot.post("/api/account/reset/confirm", json={"token": token,
                                                           "password": "12345678"})
    assert weak.json()["code"] == "password_common"
    named = forgot.post("/api/account/reset/confirm", json={"token": token,
                                                            "password": "velvet DARYA anchor"})
    assert named.json()["code"] == "password_common"   # it holds the link's username
    done = forgot.post("/api/account/reset/confirm", json={"token": token, "password": NEW})
    assert done.status_code == 200 and done.json() == {"reset": True}
    assert mail_client.get("/api/me").json()["kind"] == "guest"   # every session ended
    assert login(fresh(mail_client), "darya").status_code == 401
    assert login(fresh(mail_client), "darya", NEW).status_code == 200
    again = forgot.post("/api/account/reset/confirm", json={"token": token,
                                                            "password": "yet another one!"})
    assert (again.status_code, again.json()["code"]) == (403, "reset_link_bad")
    assert login(fresh(mail_client), "darya", NEW).status_code == 200


def test_the_answer_is_the_same_whoever_is_named_and_only_an_address_gets_mail(
        mail_client: TestClient, mailbox: tuple[Mailbox, int]) -> None:
    box, _ = mailbox
    register(mail_client, "no_address")
    with_email(fresh(mail_client), "anna_k", "anna@example.org")
    asker = fresh(mail_client, "10.1.1.1")
    answers = [asker.post("/api/account/reset", json={"name": name})
               for name in ("nobody_at_all", "no_address", "anna_k")]
    assert {(a.status_code, a.text) for a in answers} == {(202, '{"reset":true}')}
    wait_until(lambda: box.mails, "the mail")
    assert [mail["To"] for mail in box.mails] == ["anna@example.org"]


def test_an_old_or_forged_link_is_refused(mail_client: TestClient,
                                          mailbox: tuple[Mailbox, int],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    box, _ = mailbox
    with_email(mail_client, "darya", "darya@example.org")
    mail_client.post("/api/account/reset", json={"name": "darya"})
    wait_until(lambda: box.mails, "the mail")
    token = token_of(link_in(box.mails[0]))
    later = int(time.time()) + 31 * 60   # reset_minutes is 30
    monkeypatch.setattr(TimestampSigner, "get_timestamp", lambda self: later)
    old = fresh(mail_client).post("/api/account/reset/confirm",
                                  json={"token": token, "password": NEW})
    monkeypatch.undo()
    assert (old.status_code, old.json()["code"]) == (403, "reset_link_bad")
    forged = fresh(mail_client).post("/api/account/reset/confirm",
                                     json={"token": token[:-2] + "xx", "password": NEW})
    assert forged.json()["code"] == "reset_link_bad"
    assert login(fresh(mail_client), "darya").status_code == 200   # nothing changed


def test_a_new_password_kills_an_older_link(mail_client: TestClient,
                                            mailbox: tuple[Mailbox, int]) -> None:
    box, _ = mailbox
    with_email(mail_client, "darya", "darya@example.org")
    mail_client.post("/api/account/reset", json={"name": "darya"})
    wait_until(lambda: box.mails, "the mail")
    mail_client.post("/api/account/password", json={"password": PASSWORD,
                                                     "new_password": NEW})
    used = fresh(mail_client).post("/api/account/reset/confirm", json={
        "token": token_of(link_in(box.mails[0])), "password": "the attacker's own"})
    assert used.json()["code"] == "reset_link_bad"


def test_an_address_that_could_add_a_header_is_refused(client: TestClient) -> None:
    register(client, "darya")
    for email in ("darya@example.org\r\nBcc: all@example.org", "no at sign", "a@b"):
        refused = client.post("/api/account/email", json={"email": email,
                                                          "password": PASSWORD})
        assert (refused.status_code, refused.json()["code"]) == (422, "invalid_email")
    wrong = client.post("/api/account/email", json={"email": "d@example.org",
                                                    "password": "not it at all"})
    assert wrong.json()["code"] == "bad_credentials"
    with_email(fresh(client), "anna_k", "anna@example.org")
    taken = client.post("/api/account/email", json={"email": "ANNA@example.org",
                                                    "password": PASSWORD})
    assert (taken.status_code, taken.json()["code"]) == (409, "email_taken")


def test_without_mail_settings_there_is_no_reset(client: TestClient) -> None:
    refused = client.post("/api/account/reset", json={"name": "darya"})
    assert (refused.status_code, refused.json()["code"]) == (404, "reset_off")


def test_the_smtp_password_is_never_shown_or_logged(
        make_client: Callable[..., TestClient], mailbox: tuple[Mailbox, int],
        caplog: pytest.LogCaptureFixture) -> None:
    box, port = mailbox
    wrong = make_client(smtp_host="127.0.0.1", smtp_port=port, smtp_tls="none",
                        smtp_from="cardtable@cards.example", smtp_user="cardtable",
                        smtp_password="a wrong smtp password", public_url=SITE)
    with_email(wrong, "darya", "darya@example.org")
    caplog.set_level(logging.DEBUG, logger="cardtable")
    wrong.post("/api/account/reset", json={"name": "darya"})
    wait_until(lambda: "could not be sent" in caplog.text, "the failure logged")
    assert box.mails == [] and set(box.logins) == {(b"cardtable", b"a wrong smtp password")}
    # the kind of failure (the server refused the sign-in, then hung up), and nothing more
    assert re.search(r"could not be sent: SMTP\w+(Error|Disconnected)\n", caplog.text)
    assert "a wrong smtp password" not in caplog.text and "darya@" not in caplog.text
    settings = ServerSettings(smtp_password=SMTP_PASSWORD)
    assert SMTP_PASSWORD not in repr(settings) and SMTP_PASSWORD not in str(
        settings.model_dump())


def test_a_reset_revokes_every_api_token(mail_client: TestClient,
                                         mailbox: tuple[Mailbox, int]) -> None:
    box, _ = mailbox
    with_email(mail_client, "robot_1", "robot@example.org")
    minted = mail_client.post("/api/account/tokens", json={"password": PASSWORD})
    program = fresh(mail_client)
    program.headers["Authorization"] = f"Bearer {minted.json()['token']}"
    assert program.get("/api/me").json()["kind"] == "bot"
    fresh(mail_client).post("/api/account/reset", json={"name": "robot_1"})
    wait_until(lambda: box.mails, "the mail")
    token = token_of(link_in(box.mails[0]))
    done = fresh(mail_client).post("/api/account/reset/confirm",
                                   json={"token": token, "password": NEW})
    assert done.status_code == 200, done.text
    assert program.get("/api/me").json()["kind"] == "guest"   # the token is dead
    assert program.get("/api/account/export").json()["code"] == "not_signed_in"
