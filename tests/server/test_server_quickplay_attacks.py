"""Quick play under attack: through a Redis outage (against a Redis of
the test's own) 503 during it and after it, never 500; a refused request leaves no ticket
behind; a ticket is matched only while its player polls it; a ticket a restart forgot is
put back by the process that entered it, or its player is told to queue again; the rounds
say the outage in one log line, not a traceback each.  A flood is refused without reading
the queue."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest
from clusterkit import OwnRedis
from fastapi.testclient import TestClient
from tablekit import from_address, ticking, wait_until

from cardtable.server.core.errors import ClusterUnavailable

WAIT = {"game": "durak", "players": 2, "bots_after": None}


def queue_of(client: TestClient) -> Any:
    return client.app.state.quickplay


def tickets(client: TestClient) -> list[str]:
    async def read() -> list[str]:
        return sorted(e.ticket for e in await queue_of(client).store.all())
    return client.portal.call(read)


def test_an_outage_answers_503_and_a_forgotten_ticket_is_told_to_queue_again(
        own_redis: OwnRedis, make_client: Callable[..., TestClient]) -> None:
    client = make_client(redis_url=own_redis.url)
    waiting = client.post("/api/quick-play", json=WAIT)
    assert waiting.status_code == 201, waiting.text
    ticket = waiting.json()["ticket"]
    own_redis.stop()
    other = from_address(client, "10.0.0.7")
    during = [other.post("/api/quick-play", json=WAIT), client.get(f"/api/quick-play/{ticket}"),
              client.delete(f"/api/quick-play/{ticket}")]
    assert [(a.status_code, a.json()["code"]) for a in during] == [
        (503, "cluster_unavailable")] * 3
    own_redis.start()   # empty: a restart without persistence forgets every ticket
    queue_of(client).entered.clear()   # as if another process had entered it
    after = [client.get(f"/api/quick-play/{ticket}") for _ in range(3)]
    assert all(a.status_code in (404, 503) for a in after), [a.text for a in after]
    assert (after[-1].status_code, after[-1].json()["code"]) == (404, "ticket_gone")
    again = [other.post("/api/quick-play", json=WAIT) for _ in range(2)]
    assert [a.status_code for a in again][-1] == 201 and 500 not in [
        a.status_code for a in again]
    assert again[-1].json()["ticket"] in tickets(client) and ticket not in tickets(client)


def test_a_waiting_ticket_a_redis_restart_forgot_is_put_back_when_polled(
        own_redis: OwnRedis, make_client: Callable[..., TestClient]) -> None:
    client = make_client(redis_url=own_redis.url)
    ticket = client.post("/api/quick-play", json=WAIT).json()["ticket"]
    own_redis.stop()
    own_redis.start()   # empty
    polled = [client.get(f"/api/quick-play/{ticket}") for _ in range(3)]
    assert all(a.status_code in (200, 503) for a in polled), [a.text for a in polled]
    assert polled[-1].json()["status"] == "waiting"
    assert tickets(client) == [ticket]


def test_a_refused_request_leaves_no_ticket_that_seats_its_player_later(
        own_redis: OwnRedis, make_client: Callable[..., TestClient],
        monkeypatch: pytest.MonkeyPatch) -> None:
    client = make_client(redis_url=own_redis.url)
    queue = queue_of(client)
    rounds = queue.round

    async def fails() -> None:
        raise ClusterUnavailable("Redis went away mid-request")

    monkeypatch.setattr(queue, "round", fails)
    refused = client.post("/api/quick-play", json=WAIT)
    assert refused.status_code == 503 and refused.json()["code"] == "cluster_unavailable"
    assert tickets(client) == []
    monkeypatch.setattr(queue, "round", rounds)
    other = from_address(client, "10.0.0.8").post("/api/quick-play", json=WAIT).json()
    assert other["status"] == "waiting"   # nobody left in the queue to be seated with


def test_a_ticket_is_matched_only_while_its_player_polls(
        own_redis: OwnRedis, make_client: Callable[..., TestClient], clock: Any) -> None:
    client = make_client(redis_url=own_redis.url)
    gone = client.post("/api/quick-play", json=WAIT).json()   # and never polled again
    clock.move(4)
    other = from_address(client, "10.0.0.9")
    here = other.post("/api/quick-play", json=WAIT).json()
    assert here["status"] == "waiting"   # not seated with a page that is not polling
    assert other.get(f"/api/quick-play/{here['ticket']}").json()["status"] == "waiting"
    back = client.get(f"/api/quick-play/{gone['ticket']}").json()
    assert back["status"] == "matched"   # polling again: matched with the one waiting
    assert other.get(f"/api/quick-play/{here['ticket']}").json()["table"] == back["table"]


def test_failing_rounds_log_one_line_not_a_traceback_each(
        own_redis: OwnRedis, make_client: Callable[..., TestClient], clock: Any,
        caplog: pytest.LogCaptureFixture) -> None:
    client = make_client(redis_url=own_redis.url)
    queue = queue_of(client)
    counted = [0]
    rounds = queue.round

    async def counting() -> None:
        counted[0] += 1
        await rounds()

    queue.round = counting
    own_redis.stop()
    with caplog.at_level(logging.INFO, logger="cardtable.server"), ticking(clock, 0.05):
        wait_until(lambda: counted[0] >= 12, "twelve rounds of matching")
    told = [r for r in caplog.records if "quick-play" in r.getMessage()]
    assert len(told) == 1 and told[0].exc_info is None, [r.getMessage() for r in told]
    assert "\n" not in told[0].getMessage()


def test_a_full_queue_refuses_a_flood_without_reading_the_queue(
        make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch) -> None:
    """each refusal of a flood costs no read of every ticket."""
    client = make_client()
    queue = queue_of(client)
    queue.max_tickets = 5
    for players in (2, 3, 4, 5, 6):   # a pool each: nobody is matched, all five wait
        answer = from_address(client, f"10.0.4.{players}").post(
            "/api/quick-play", json={**WAIT, "players": players})
        assert answer.json()["status"] == "waiting"
    reads = [0]
    everything = queue.store.all

    async def counted() -> Any:
        reads[0] += 1
        return await everything()

    monkeypatch.setattr(queue.store, "all", counted)
    refused = [from_address(client, f"10.0.5.{n}").post("/api/quick-play", json=WAIT)
               for n in range(20)]
    assert {(a.status_code, a.json()["code"]) for a in refused} == {(429, "queue_full")}
    assert reads == [0]


def test_a_ticket_waiting_long_is_put_back_after_a_ten_second_outage(
        own_redis: OwnRedis, make_client: Callable[..., TestClient], clock: Any) -> None:
    """The copy a process keeps of a ticket it entered is as fresh as its player's last
    poll (a poll during the outage counts: the player is there), so a ticket that has
    waited longer than ``poll_timeout`` and lived through an outage is put back."""
    client = make_client(redis_url=own_redis.url)
    ticket = client.post("/api/quick-play", json=WAIT).json()["ticket"]
    for _ in range(6):   # 18 s of waiting, polled every 3 s (the timeout is 8 s)
        clock.move(3)
        assert client.get(f"/api/quick-play/{ticket}").json()["status"] == "waiting"
    own_redis.stop()
    for _ in range(5):   # 10 s of outage, the page still polling
        clock.move(2)
        assert client.get(f"/api/quick-play/{ticket}").status_code == 503
    own_redis.start()   # empty: every ticket forgotten
    polled = [client.get(f"/api/quick-play/{ticket}") for _ in range(3)]
    assert all(a.status_code in (200, 503) for a in polled), [a.text for a in polled]
    assert polled[-1].json()["status"] == "waiting", polled[-1].text
    assert tickets(client) == [ticket]


def test_an_idle_queue_is_asked_only_whether_it_is_empty(
        own_redis: OwnRedis, make_client: Callable[..., TestClient]) -> None:
    """Every process runs a round every half second: with no ticket anywhere a round asks
    Redis one question (is there any ticket?), and takes no lock and reads no ticket;
    once a ticket waits, the round reads the queue again."""
    import redis

    client = make_client(redis_url=own_redis.url)
    stats = redis.Redis.from_url(own_redis.url)

    def calls_during(act: Callable[[], object]) -> dict[str, int]:
        before = stats.info("commandstats")
        act()
        after = stats.info("commandstats")
        return {name: after[f"cmdstat_{name}"]["calls"]
                - before.get(f"cmdstat_{name}", {"calls": 0})["calls"]
                for name in ("exists", "hgetall", "del") if f"cmdstat_{name}" in after}

    def rounds() -> None:
        for _ in range(5):
            client.portal.call(queue_of(client).round)

    idle = calls_during(rounds)
    assert idle.get("hgetall", 0) == 0 and idle.get("del", 0) == 0, idle
    assert idle["exists"] >= 5, idle
    assert client.post("/api/quick-play", json=WAIT).status_code == 201
    queue_of(client).entered.clear()   # entered on another process: this one reads Redis
    waiting = calls_during(rounds)
    assert waiting["hgetall"] >= 10, waiting
