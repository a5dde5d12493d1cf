"""Sign-in throttling: counted per address and per (account, address), never per account
alone, so an attacker cannot lock the owner out; a known device and a signed-in session
are counted apart.  Each test on SQLite and on PostgreSQL, with the default rates
(``PlayerLimits``: 20 a minute per address, 10 a minute per account and address)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from fastapi.testclient import TestClient
from playerkit import app_client, fresh, login, register

from cardtable.server.web import accounts
from cardtable.server.web.accounts import DEVICE

__all__ = ["app_client"]   # the fixture

ATTACKER, OWNER = "10.0.0.66", "10.0.0.7"


def attack(client: TestClient, username: str, tries: int, host: str = ATTACKER) -> list[int]:
    """Bad tries at an account's password, each from a new browser at ``host``."""
    return [login(fresh(client, host), username, f"guess number {n}").status_code
            for n in range(tries)]


def from_with_device(client: TestClient, host: str, owner: TestClient) -> TestClient:
    """A new browser at ``host`` carrying the owner's known-device cookie (and nothing
    else: no session)."""
    browser = fresh(client, host)
    browser.cookies.set(DEVICE, owner.cookies[DEVICE])
    return browser


def test_an_attackers_bad_tries_do_not_stop_the_owner_at_another_address(
        app_client: TestClient) -> None:
    register(fresh(app_client), "darya")
    assert attack(app_client, "darya", 20) == [401] * 10 + [429] * 10
    signed_in = login(fresh(app_client, OWNER), "darya")   # a new browser: no device cookie
    assert signed_in.status_code == 200 and signed_in.json()["username"] == "darya"


def test_past_the_rate_for_the_account_the_attackers_address_is_told_to_wait(
        app_client: TestClient) -> None:
    register(fresh(app_client), "darya")
    register(fresh(app_client), "anna_k")
    attack(app_client, "darya", 10)
    slowed = login(fresh(app_client, ATTACKER), "darya")   # even the right password
    assert slowed.status_code == 429
    assert slowed.json()["code"] == "sign_in_throttled"
    wait = int(slowed.headers["Retry-After"])
    assert wait >= 1 and slowed.json()["retry_after"] == wait
    # that pair alone: the same address may still try another account
    assert login(fresh(app_client, ATTACKER), "anna_k").status_code == 200


def test_past_the_rate_for_the_address_it_is_told_to_wait_for_every_account(
        app_client: TestClient) -> None:
    tables = app_client.app.state.tables
    tables.settings = tables.settings.model_copy(update={"login_per_address": "5/minute"})
    register(fresh(app_client), "darya")
    for n in range(5):
        assert attack(app_client, f"anna_{n}", 1) == [401]
    stopped = login(fresh(app_client, ATTACKER), "darya")
    assert stopped.status_code == 429 and stopped.json()["code"] == "sign_in_throttled"
    assert login(fresh(app_client, OWNER), "darya").status_code == 200


def test_a_sign_in_leaves_a_known_device_cookie_for_the_sign_in_endpoint_alone(
        app_client: TestClient) -> None:
    register(fresh(app_client), "darya")
    owner = fresh(app_client, OWNER)
    cookies = login(owner, "darya").headers.get_list("set-cookie")
    device = next(cookie for cookie in cookies if cookie.startswith(f"{DEVICE}="))
    assert "HttpOnly" in device and "Path=/api/account/login" in device
    assert "samesite=strict" in device.lower()


def test_the_known_device_cookie_lets_the_owner_in_even_from_the_attackers_address(
        app_client: TestClient) -> None:
    register(fresh(app_client), "darya")
    owner = fresh(app_client, OWNER)
    assert login(owner, "darya").status_code == 200
    attack(app_client, "darya", 20)   # the pair and the address are both past their rates
    assert login(fresh(app_client, ATTACKER), "darya").status_code == 429
    known = login(from_with_device(app_client, ATTACKER, owner), "darya")
    assert known.status_code == 200 and known.json()["username"] == "darya"


def test_a_known_device_is_known_to_its_own_account_alone(app_client: TestClient) -> None:
    register(fresh(app_client), "darya")
    register(fresh(app_client), "anna_k")
    owner = fresh(app_client, OWNER)
    login(owner, "anna_k")   # this browser is anna_k's known device, not darya's
    attack(app_client, "darya", 10)
    other = login(from_with_device(app_client, ATTACKER, owner), "darya")
    assert other.status_code == 429 and other.json()["code"] == "sign_in_throttled"


def test_a_made_up_device_cookie_is_no_known_device(app_client: TestClient) -> None:
    register(fresh(app_client), "darya")
    attack(app_client, "darya", 10)
    forger = fresh(app_client, ATTACKER)
    forger.cookies.set(DEVICE, '"darya".AAAAAA.AAAAAAAAAAAAAAAAAAAAAAAAAAA')
    assert login(forger, "darya").status_code == 429


def test_known_devices_have_a_generous_rate_of_their_own(app_client: TestClient) -> None:
    tables = app_client.app.state.tables
    tables.settings = tables.settings.model_copy(update={"login_known_device": "3/minute"})
    register(fresh(app_client), "darya")
    owner = fresh(app_client, OWNER)
    login(owner, "darya")
    answers = [login(from_with_device(app_client, ATTACKER, owner), "darya").status_code
               for _ in range(3)]   # the first three, and no more
    assert answers == [200] * 3
    stopped = login(from_with_device(app_client, ATTACKER, owner), "darya")
    assert stopped.status_code == 429 and stopped.json()["code"] == "sign_in_throttled"


def test_a_signed_in_session_is_never_stopped_by_the_attack(app_client: TestClient) -> None:
    register(fresh(app_client), "darya")
    owner = fresh(app_client, ATTACKER)   # the owner behind the attacker's address
    assert login(owner, "darya").status_code == 200
    owner.cookies.delete(DEVICE)          # the session alone
    attack(app_client, "darya", 20)
    assert owner.get("/api/me").json()["username"] == "darya"
    made = owner.post("/api/tables", json={"game": "durak", "seats": ["human", "bot:random"]})
    assert made.status_code == 201
    again = login(owner, "darya")         # signing in again from the session
    assert again.status_code == 200 and again.json()["username"] == "darya"


def test_passwords_are_hashed_and_checked_in_threads_of_their_own_never_the_storages(
        app_client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A flood of wrong passwords queues behind argon2, not behind the database: every
    hash and check runs in the passwords' threads, so the storage's stay free."""
    threads: list[str] = []
    real = accounts._hasher

    class Noting:   # the hasher, noting the thread of each hash and check
        def hash(self, *args: Any) -> Any:
            threads.append(threading.current_thread().name)
            return real.hash(*args)

        def verify(self, *args: Any) -> Any:
            threads.append(threading.current_thread().name)
            return real.verify(*args)

        def check_needs_rehash(self, *args: Any) -> Any:
            return real.check_needs_rehash(*args)

    monkeypatch.setattr(accounts, "_hasher", Noting())
    assert register(fresh(app_client), "shirin").status_code == 201
    assert attack(app_client, "shirin", 3) == [401] * 3
    assert login(fresh(app_client, OWNER), "shirin").status_code == 200
    assert len(threads) == 5   # the hash at registering, then four checks
    assert all(name.startswith("cardtable-passwords") for name in threads), threads
