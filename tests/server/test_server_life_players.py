"""Table life with players (on SQLite and PostgreSQL): quick play seats the players who
asked, two accounts meet at a rated table with a clock, leaving it is refused, and a
resignation is counted by the ratings; a guest plays unrated."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient
from playerkit import app_client, fresh, register
from tablekit import Player, connect, each_moves_once

__all__ = ["app_client"]   # the fixture


def matched(client: TestClient, ticket: str, timeout: float = 20) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        answer = client.get(f"/api/quick-play/{ticket}").json()
        if answer["status"] == "matched":
            return answer
        assert answer["status"] == "waiting", answer
        assert time.monotonic() < deadline, "the ticket was never matched"
        time.sleep(0.1)


def test_two_accounts_meet_through_the_queue_at_a_rated_table(app_client: Any) -> None:
    ana, bo = fresh(app_client, "10.0.0.1"), fresh(app_client, "10.0.0.2")
    assert register(ana, "ana_q").status_code in (200, 201)
    assert register(bo, "bo_q").status_code in (200, 201)
    body = {"game": "durak", "players": 2, "bots_after": None}
    one = ana.post("/api/quick-play", json=body).json()
    two = bo.post("/api/quick-play", json=body).json()
    first, second = matched(ana, one["ticket"]), matched(bo, two["ticket"])
    assert first["table"] == second["table"]
    table = first["table"]
    described = ana.get(f"/api/tables/{table}").json()
    assert described["rated"] is True
    kinds = {seat["name"]: seat["player_kind"] for seat in described["seats"]}
    assert kinds == {"ana_q": "account", "bo_q": "account"}
    assert described["clock"] == {"move": 20, "bank": 60}
    lobby = ana.get("/api/lobby").json()
    assert [(g["id"], g["ratings"]) for g in lobby["live"]] == [(table, {"0": 1500,
                                                                        "1": 1500})]
    with connect(ana, table, first["token"]) as ws:
        state = ws.receive_json()
        while state.get("ratings") != {"0": 1500, "1": 1500}:
            state = ws.receive_json()
        assert state["rated"] is True
        with connect(bo, table, second["token"]) as ws1:
            each_moves_once({first["seat"]: Player(ws), second["seat"]: Player(ws1)})
    refused = ana.post(f"/api/tables/{table}/leave", json={"token": first["token"]})
    assert refused.status_code == 409 and refused.json()["code"] == "rated_table"
    resigned = bo.post(f"/api/tables/{table}/resign", json={"token": second["token"]})
    assert resigned.status_code == 200
    deadline = time.monotonic() + 20
    while "ratings" not in (summary := ana.get(f"/api/tables/{table}").json()["summary"]):
        assert time.monotonic() < deadline, "the ratings never changed"
        time.sleep(0.1)
    changes = summary["ratings"]
    assert changes[str(first["seat"])]["change"] > 0 > changes[str(second["seat"])]["change"]


def test_a_guest_in_quick_play_gets_the_seat_as_a_guest_and_may_leave(
        app_client: Any) -> None:
    guest = fresh(app_client, "10.0.0.3")
    guest.get("/api/me")
    ticket = guest.post("/api/quick-play", json={"game": "durak", "players": 2,
                                                 "bots_after": 0}).json()
    answer = matched(guest, ticket["ticket"])
    seat = guest.get(f"/api/tables/{answer['table']}").json()["seats"][answer["seat"]]
    assert seat["player_kind"] in ("guest", None)
    left = guest.post(f"/api/tables/{answer['table']}/leave", json={"token": answer["token"]})
    assert left.status_code == 200
