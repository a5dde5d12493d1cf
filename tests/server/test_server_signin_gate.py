"""Sign-in cannot be made slow: argon2's work waits its turn (``web.signin_gate``), a
browser known to the account first; strangers wait in a bounded queue, a few places per
network; an IPv6 client's addresses count as its /64 for the per-address limits."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pytest
from fastapi.testclient import TestClient
from playerkit import PASSWORD, register
from tablekit import from_address

from cardtable.server.core.errors import Refused
from cardtable.server.web.signin_gate import Gate


def test_a_known_device_goes_before_every_stranger_waiting() -> None:
    order: list[str] = []
    release = threading.Event()

    def work(name: str) -> str:
        if name == "first":
            release.wait(20)
        order.append(name)
        return name

    async def scene() -> None:
        with ThreadPoolExecutor(1) as executor:
            gate = Gate(executor, slots=1)
            running = asyncio.create_task(gate.run(work, "first", known=False, network="a"))
            await asyncio.sleep(0)
            strangers = [asyncio.create_task(gate.run(work, f"stranger {n}", known=False,
                                                      network=f"n{n}")) for n in range(3)]
            await asyncio.sleep(0)
            owner = asyncio.create_task(gate.run(work, "owner", known=True))
            await asyncio.sleep(0)
            assert gate.waiting == 4
            release.set()
            await asyncio.gather(running, owner, *strangers)

    asyncio.run(scene())
    assert order == ["first", "owner", "stranger 0", "stranger 1", "stranger 2"]


def test_strangers_wait_a_bounded_queue_with_a_few_places_a_network() -> None:
    release = threading.Event()

    def work() -> None:
        release.wait(20)

    async def scene() -> list[str]:
        refused: list[str] = []
        with ThreadPoolExecutor(1) as executor:
            gate = Gate(executor, slots=1, most_waiting=6, per_network=2)
            tasks = []
            # the first runs at once; then "a" waits twice and its third is refused
            for network in ("a", "a", "a", "a", "b", "c", "d", "e", "f"):
                try:
                    task = asyncio.create_task(gate.run(work, known=False, network=network))
                    tasks.append(task)
                    await asyncio.sleep(0)
                    if task.done():
                        task.result()
                except Refused as error:
                    assert error.status == 429 and error.code == "sign_in_throttled"
                    refused.append(network)
            # the owner is never refused, however long the strangers' queue
            owner = asyncio.create_task(gate.run(work, known=True))
            release.set()
            await asyncio.gather(owner, *(t for t in tasks if not t.done()),
                                 return_exceptions=True)
        return refused

    # "a" holds two places of the queue; six strangers wait in all, the seventh refused
    assert asyncio.run(scene()) == ["a", "f"]


def test_a_cancelled_waiter_gives_its_place_to_the_next() -> None:
    release = threading.Event()
    ran: list[str] = []

    def work(name: str) -> None:
        if name == "first":
            release.wait(20)
        ran.append(name)

    async def scene() -> None:
        with ThreadPoolExecutor(1) as executor:
            gate = Gate(executor, slots=1)
            first = asyncio.create_task(gate.run(work, "first"))
            await asyncio.sleep(0)
            gone = asyncio.create_task(gate.run(work, "gone"))
            after = asyncio.create_task(gate.run(work, "after"))
            await asyncio.sleep(0)
            gone.cancel()
            release.set()
            await asyncio.gather(first, after)
            assert gate.running == 0 and gate.waiting == 0

    asyncio.run(scene())
    assert ran == ["first", "after"]


@pytest.fixture
def strict_client(make_client: Callable[..., TestClient]) -> TestClient:
    return make_client(login_per_address="3/minute", login_per_account_address="100/minute")


def test_an_ipv6_client_is_one_address_per_64_for_the_sign_in_limit(
        strict_client: TestClient) -> None:
    register(strict_client, "darya")
    wrong = {"username": "darya", "password": "not it"}
    same_64 = [from_address(strict_client, f"2001:db8:5:6::{n:x}") for n in range(1, 5)]
    answers = [client.post("/api/account/login", json=wrong).status_code for client in same_64]
    assert answers == [401, 401, 401, 429]
    elsewhere = from_address(strict_client, "2001:db8:5:7::1")   # another /64
    assert elsewhere.post("/api/account/login", json=wrong).status_code == 401
    assert elsewhere.post("/api/account/login", json={
        "username": "darya", "password": PASSWORD}).status_code == 200
