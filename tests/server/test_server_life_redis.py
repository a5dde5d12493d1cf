"""A table's life across two server processes joined by a Redis of the test's own: the
quick-play queue is shared, a relayed player counts as connected, and a resign sent on a
relayed socket ends the game at the owner."""

from __future__ import annotations

import json
import secrets
import time
from pathlib import Path

import httpx
from clusterkit import OwnRedis, wait_for
from tablekit import next_state, server, socket_for


def flags(redis: OwnRedis) -> tuple[str, ...]:
    return ("--redis-url", redis.url, "--redis-prefix", f"life-{secrets.token_hex(4)}")


def test_two_processes_share_the_quick_play_queue(tmp_path: Path, own_redis: OwnRedis) -> None:
    data = tmp_path / "data"
    shared = flags(own_redis)
    with server(data, *shared) as (_, a), server(data, *shared) as (_, b):
        body = {"game": "durak", "players": 2, "bots_after": None}
        one = httpx.post(f"{a}/api/quick-play", json=body, timeout=10).json()
        two = httpx.post(f"{b}/api/quick-play", json=body, timeout=10).json()
        answers: dict[str, dict] = {}

        def both_matched() -> bool:
            answers["one"] = httpx.get(f"{a}/api/quick-play/{one['ticket']}", timeout=10).json()
            answers["two"] = httpx.get(f"{b}/api/quick-play/{two['ticket']}", timeout=10).json()
            return all(x["status"] == "matched" for x in answers.values())

        wait_for(both_matched, "both tickets matched")
        assert answers["one"]["table"] == answers["two"]["table"]
        assert {answers["one"]["seat"], answers["two"]["seat"]} == {0, 1}
        table = answers["one"]["table"]
        # each plays from the process it asked: one of them is relayed to the owner
        with socket_for(a, table, answers["one"]["token"]) as ws_one, \
                socket_for(b, table, answers["two"]["token"]) as ws_two:
            state = next_state(ws_one)
            deadline = time.monotonic() + 20
            while not all(s["connected"] for s in state["seats"]):
                assert time.monotonic() < deadline, "the relayed player never showed"
                state = next_state(ws_one)
            ws_two.send(json.dumps({"type": "resign"}))
            while not state["over"]:
                state = next_state(ws_one)
        assert state["summary"]["resigned"] == answers["two"]["seat"]


def test_a_ticket_unpolled_on_every_process_is_cancelled(tmp_path: Path,
                                                           own_redis: OwnRedis) -> None:
    import redis

    data = tmp_path / "data"
    shared = flags(own_redis)
    prefix = shared[-1]
    with server(data, *shared, "--quick-play-poll", "1") as (_, a), \
            server(data, *shared, "--quick-play-poll", "1") as (_, b):
        one = httpx.post(f"{a}/api/quick-play", json={"game": "durak", "players": 3,
                                                      "bots_after": None}, timeout=10).json()
        assert httpx.get(f"{b}/api/quick-play/{one['ticket']}", timeout=10).json()[
            "status"] == "waiting"

        # read the shared queue itself: asking a process would count as a poll
        def status() -> str:
            text = redis.Redis.from_url(own_redis.url).hget(f"{prefix}:quickplay:tickets",
                                                              one["ticket"])
            return json.loads(text)["status"]

        wait_for(lambda: status() == "cancelled", what="the unpolled ticket to be cancelled")
        assert httpx.get(f"{b}/api/quick-play/{one['ticket']}", timeout=10).json()[
            "status"] == "cancelled"


def test_resign_and_leave_over_http_reach_the_process_that_plays_the_table(
        tmp_path: Path, own_redis: OwnRedis) -> None:
    data = tmp_path / "data"
    shared = flags(own_redis)
    with server(data, *shared) as (_, a), server(data, *shared) as (_, b):
        def made() -> dict:
            return httpx.post(f"{a}/api/tables", json={
                "game": "durak", "seats": ["human", "bot:random"], "takeover": "bot:random"},
                timeout=10).json()

        resigning, leaving = made(), made()
        answer = httpx.post(f"{b}/api/tables/{resigning['table']}/resign",
                            json={"token": resigning["token"]}, timeout=20)
        assert answer.status_code == 200, answer.text
        assert answer.json()["summary"]["resigned"] == 0
        assert httpx.get(f"{a}/api/tables/{resigning['table']}").json()["over"] is True
        again = httpx.post(f"{b}/api/tables/{resigning['table']}/resign",
                           json={"token": resigning["token"]}, timeout=20)
        assert again.status_code == 409 and again.json()["code"] == "game_over"
        left = httpx.post(f"{b}/api/tables/{leaving['table']}/leave",
                          json={"token": leaving["token"]}, timeout=20)
        assert left.status_code == 200, left.text
        wait_for(lambda: httpx.get(f"{a}/api/tables/{leaving['table']}").json()["over"],
                 "the bot played the seat that left to the end", timeout=60)
        summary = httpx.get(f"{a}/api/tables/{leaving['table']}").json()["summary"]
        assert summary["left"] == [0]
        wrong = httpx.post(f"{b}/api/tables/{leaving['table']}/resign",
                           json={"token": "not-a-token"}, timeout=20)
        assert wrong.status_code == 403 and wrong.json()["code"] == "no_seat"
