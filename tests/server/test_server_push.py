"""Web Push: a browser subscribed (its keys made here as a browser makes them), a kind of
notice routed to ``push``, sent to a push service the test runs on loopback, encrypted to
the browser (decrypted here with its private key) and signed with the server's VAPID key;
a subscription the service says is gone is forgotten; an address off the allowed push
services is refused; a server without VAPID keys says so."""

from __future__ import annotations

import base64
import json
import secrets
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from playerkit import fresh, register
from tablekit import wait_until

pytest.importorskip("pywebpush")


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class PushService:
    """A push service on loopback: keeps each push (its headers and body) and answers
    ``status``."""

    def __init__(self) -> None:
        self.pushes: list[tuple[dict[str, str], bytes]] = []
        self.status = 201
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                service.pushes.append(({k.lower(): v for k, v in self.headers.items()}, body))
                self.send_response(service.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture
def service() -> Iterator[PushService]:
    found = PushService()
    yield found
    found.server.shutdown()


def browser_keys() -> tuple[Any, str, bytes]:
    """A browser's subscription keys: its P-256 key (p256dh) and its auth secret."""
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return key, b64(public), secrets.token_bytes(16)


@pytest.fixture
def pushing(make_client: Callable[..., TestClient], service: PushService,
            tmp_path: Path) -> tuple[TestClient, str]:
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
    from py_vapid import Vapid02

    vapid = Vapid02()
    vapid.generate_keys()
    pem = tmp_path / "vapid.pem"
    pem.write_bytes(vapid.private_pem())
    public = b64(vapid.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint))
    client = make_client(vapid_private_key=str(pem), vapid_public_key=public,
                         vapid_subject="mailto:ops@cards.example",
                         push_services=service.base)
    return client, public


def account(client: TestClient, name: str, host: str) -> TestClient:
    browser = fresh(client, host)
    assert register(browser, name).status_code == 201
    return browser


def test_a_notice_routed_to_push_reaches_the_browser_encrypted_and_signed(
        pushing: tuple[TestClient, str], service: PushService) -> None:
    import http_ece

    client, public = pushing
    a, b = account(client, "anahita", "10.0.3.1"), account(client, "bahram", "10.0.3.2")
    assert b.get("/api/push/key").json() == {"key": public, "reason": None}
    key, p256dh, auth = browser_keys()
    endpoint = f"{service.base}push/{secrets.token_hex(4)}"
    subscribed = b.post("/api/push/subscriptions", json={
        "endpoint": endpoint, "expirationTime": None, "keys": {"p256dh": p256dh,
                                                              "auth": b64(auth)}})
    assert subscribed.status_code == 201, subscribed.text
    assert b.post("/api/social/settings", json={"routes": {
        "challenge": ["inbox", "push"]}}).status_code == 200
    sent = a.post("/api/challenges", json={"to": "bahram", "game": "durak"}).json()
    wait_until(lambda: len(service.pushes) == 1, "the push")
    headers, body = service.pushes[0]
    assert headers["content-encoding"] == "aes128gcm" and int(headers["ttl"]) > 0
    assert headers["authorization"].startswith("vapid t=") and f"k={public}" in headers[
        "authorization"]
    shown = json.loads(http_ece.decrypt(body, private_key=key, auth_secret=auth,
                                        version="aes128gcm"))
    assert shown["body"] == "anahita challenges you to durak"
    assert shown["url"] == f"/#challenge/{sent['id']}"
    # the browser unsubscribed: the service answers 410, and the subscription is forgotten
    service.status = 410
    a.post("/api/challenges", json={"to": "bahram", "game": "pasur"})
    wait_until(lambda: len(service.pushes) == 2, "the second push")
    social = client.app.state.services.social
    wait_until(lambda: social.pushes_of(b.get("/api/me").json()["id"]) == [],
               "the gone subscription forgotten")


def test_a_subscription_must_name_an_allowed_push_service(
        pushing: tuple[TestClient, str]) -> None:
    client, _ = pushing
    b = account(client, "bahram", "10.0.3.2")
    _, p256dh, auth = browser_keys()
    for endpoint in ("http://10.0.0.9/push/1", "https://evil.example/push",
                     "https://fcm.googleapis.com.evil.example/x"):
        refused = b.post("/api/push/subscriptions", json={
            "endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": b64(auth)}})
        assert (refused.status_code, refused.json()["code"]) == (422, "push_not_allowed")
    guest = fresh(client, "10.0.3.9")
    assert guest.post("/api/push/subscriptions", json={
        "endpoint": "https://fcm.googleapis.com/x",
        "keys": {"p256dh": p256dh, "auth": b64(auth)}}).status_code == 401


def test_a_server_without_vapid_keys_sends_no_push(client: TestClient) -> None:
    b = account(client, "bahram", "10.0.3.2")
    said = b.get("/api/push/key").json()
    assert said["key"] is None and "vapid_private_key" in said["reason"]
    _, p256dh, auth = browser_keys()
    refused = b.post("/api/push/subscriptions", json={
        "endpoint": "https://fcm.googleapis.com/fcm/send/x",
        "keys": {"p256dh": p256dh, "auth": b64(auth)}})
    assert (refused.status_code, refused.json()["code"]) == (409, "push_off")
    assert "vapid_private_key" in refused.json()["detail"]


def test_the_default_push_services_are_the_browsers_own_by_host_and_https() -> None:
    from cardtable.server.core.account_settings import AccountSettings
    from cardtable.server.people.push import allowed_endpoint

    services = AccountSettings().push_services
    taken = ["https://fcm.googleapis.com/fcm/send/abc", "https://web.push.apple.com/QG9",
             "https://updates.push.services.mozilla.com/wpush/v2/gAAA",
             "https://wns2-db5p.notify.windows.com/w/?token=x"]
    refused = ["http://fcm.googleapis.com/fcm/send/abc", "https://fcm.googleapis.com.evil.example/",
               "https://evilfcm.googleapis.com/x", "https://127.0.0.1/x", "file:///etc/passwd",
               "https://notify.windows.com@evil.example/"]
    assert [allowed_endpoint(e, services) for e in taken] == [True] * len(taken)
    assert [allowed_endpoint(e, services) for e in refused] == [False] * len(refused)


def test_a_key_pair_from_push_keys_is_all_it_takes_its_public_half_worked_out(
        make_client: Callable[..., TestClient], service: PushService) -> None:
    import http_ece

    from cardtable.server.core.vapid import new_keys

    private, public = new_keys()   # what `cardtable push-keys` prints
    client = make_client(vapid_private_key=private, vapid_subject="mailto:ops@cards.example",
                         push_services=service.base)
    a, b = account(client, "anahita", "10.0.3.1"), account(client, "bahram", "10.0.3.2")
    assert b.get("/api/push/key").json() == {"key": public, "reason": None}
    key, p256dh, auth = browser_keys()
    assert b.post("/api/push/subscriptions", json={
        "endpoint": f"{service.base}push/b", "keys": {"p256dh": p256dh, "auth": b64(auth)}
    }).status_code == 201
    assert b.post("/api/social/settings", json={"routes": {
        "challenge": ["push"]}}).status_code == 200
    a.post("/api/challenges", json={"to": "bahram", "game": "durak"})
    wait_until(lambda: len(service.pushes) == 1, "the push")
    headers, body = service.pushes[0]
    assert f"k={public}" in headers["authorization"]
    shown = json.loads(http_ece.decrypt(body, private_key=key, auth_secret=auth,
                                        version="aes128gcm"))
    assert shown["kind"] == "challenge"
    # what the notice says, for the service worker to word in the page's language
    assert shown["data"]["from"] == "anahita" and shown["data"]["game"] == "durak"


def test_keys_that_do_not_match_are_refused_at_start() -> None:
    from pydantic import ValidationError

    from cardtable.server.core.settings import ServerSettings
    from cardtable.server.core.vapid import new_keys

    private, _ = new_keys()
    _, other = new_keys()
    with pytest.raises(ValidationError, match="vapid_public_key is not the public half"):
        ServerSettings(vapid_private_key=private, vapid_public_key=other)
    with pytest.raises(ValidationError, match="vapid_private_key"):
        ServerSettings(vapid_private_key="not-a-key")


def test_subscription_keys_that_cannot_encrypt_are_refused(
        pushing: tuple[TestClient, str], service: PushService) -> None:
    client, _ = pushing
    b = account(client, "bahram", "10.0.3.2")
    _, p256dh, auth = browser_keys()
    for keys in ({"p256dh": "B" * 87, "auth": b64(auth)},        # 65 bytes, not on the curve
                 {"p256dh": p256dh, "auth": b64(auth[:10])},     # a secret of 10 bytes
                 {"p256dh": "AAAA", "auth": b64(auth)}):
        refused = b.post("/api/push/subscriptions", json={
            "endpoint": f"{service.base}push/b", "keys": keys})
        assert (refused.status_code, refused.json()["code"]) == (422, "bad_push_keys")
    social = client.app.state.services.social
    assert social.pushes_of(b.get("/api/me").json()["id"]) == []


def test_pushes_under_way_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncio

    from cardtable.server.core.account_settings import AccountSettings
    from cardtable.server.core.vapid import new_keys
    from cardtable.server.people import push

    monkeypatch.setattr(push, "PENDING", 2)
    pushes = push.Pushes(AccountSettings(), new_keys()[0], store=None)  # type: ignore[arg-type]
    held = asyncio.Event()

    async def slow(player_id: str, kind: str, data: object) -> int:
        await held.wait()   # a push service that does not answer
        return 0

    async def burst() -> tuple[int, int]:
        pushes.push = slow  # type: ignore[method-assign]
        for _ in range(5):
            pushes.start_push("p", "challenge", {})
        under_way = len(pushes.tasks)
        held.set()
        await asyncio.gather(*pushes.tasks)
        return under_way, pushes.dropped

    assert asyncio.run(burst()) == (2, 3)


def test_an_account_exports_its_push_services_and_deleting_it_forgets_its_devices(
        pushing: tuple[TestClient, str], service: PushService) -> None:
    from playerkit import PASSWORD

    client, _ = pushing
    b = account(client, "bahram", "10.0.3.2")
    player_id = b.get("/api/me").json()["id"]
    _, p256dh, auth = browser_keys()
    assert b.post("/api/push/subscriptions", json={
        "endpoint": f"{service.base}push/secret-path",
        "keys": {"p256dh": p256dh, "auth": b64(auth)}}).status_code == 201
    exported = b.get("/api/account/export").json()
    assert [device["service"] for device in exported["push_devices"]] == ["127.0.0.1"]
    assert "secret-path" not in json.dumps(exported)   # the address is the browser's key
    assert b.post("/api/account/delete", json={"password": PASSWORD}).status_code == 200
    assert client.app.state.services.social.pushes_of(player_id) == []
