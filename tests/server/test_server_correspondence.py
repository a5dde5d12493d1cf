"""Games that wait: a correspondence clock (days a move) counts only while a server plays
the table, hands nobody's seat to a bot for being away, and tells the player whose move
it is; driven by the fake clock, across a restart."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from playerkit import fresh, register
from tablekit import MACHINE_SPEED, Player, wait_until

from cardtable.server import create_app
from cardtable.server.core.clock import FakeClock

HOUR = 3600
DAY = 24 * HOUR


@pytest.fixture
def settings(tmp_path: Path, clock: FakeClock) -> dict[str, Any]:
    return {"clock": clock, "bot_delay": 0, "data_dir": tmp_path / "data",
            "static_dir": tmp_path / "static", "grace": 60, "abandon_after": 600,
            **MACHINE_SPEED}


def account(client: TestClient, name: str, host: str) -> TestClient:
    browser = fresh(client, host)
    assert register(browser, name).status_code == 201
    return browser


def sign_in(client: TestClient, name: str, host: str) -> TestClient:
    browser = fresh(client, host)
    answer = browser.post("/api/account/login",
                          json={"username": name, "password": "correct horse battery"})
    assert answer.status_code == 200, answer.text
    return browser


def clock_now(client: TestClient, table: str) -> dict[str, Any]:
    """The table's clock as a watcher is sent it."""
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        return Player(ws).state()["clock"]


@pytest.fixture
def started(settings: dict[str, Any]) -> Iterator[tuple[TestClient, dict[str, TestClient],
                                                        str]]:
    """A 1-day table from a challenge: (the app, the two players, the table)."""
    with TestClient(create_app(**settings)) as client:
        a, b = account(client, "anahita", "10.0.0.1"), account(client, "bahram", "10.0.0.2")
        sent = a.post("/api/challenges", json={"to": "bahram", "game": "durak",
                                               "clock": {"days": 1}}).json()
        table = b.post(f"/api/challenges/{sent['id']}/accept").json()["table"]
        yield client, {"anahita": a, "bahram": b}, table


def test_a_days_clock_gives_each_move_that_many_days(
        started: tuple[TestClient, dict[str, TestClient], str]) -> None:
    client, _, table = started
    assert client.get(f"/api/tables/{table}").json()["clock"] == {"days": 1}
    shown = clock_now(client, table)
    assert (shown["days"], shown["move"], shown["move_left"], shown["bank"]) == (
        1, DAY, DAY, 0)


def test_nobody_is_replaced_or_abandoned_for_being_away_for_hours(
        started: tuple[TestClient, dict[str, TestClient], str], clock: FakeClock) -> None:
    client, players, table = started
    with players["anahita"].websocket_connect(f"/ws/tables/{table}?seat=0") as ws:
        Player(ws).state()
    clock.move(5 * HOUR)   # far past the grace (60 s) and the abandonment (600 s)
    info = client.get(f"/api/tables/{table}").json()
    assert info["status"] == "playing" and info["gone"] == []
    assert not any(seat["bot_playing"] for seat in info["seats"])
    assert clock_now(client, table)["move_left"] == DAY - 5 * HOUR


def test_the_player_to_move_is_told_in_the_inbox(
        started: tuple[TestClient, dict[str, TestClient], str]) -> None:
    client, players, table = started
    to_move = client.get(f"/api/tables/{table}").json()["to_move"]
    mover = players[("anahita", "bahram")[to_move]]
    other = players[("anahita", "bahram")[1 - to_move]]
    wait_until(lambda: any(n["kind"] == "your_move"
                           for n in mover.get("/api/inbox").json()["notices"]),
               "the your-move notice")
    [notice] = [n for n in mover.get("/api/inbox").json()["notices"]
                if n["kind"] == "your_move"]
    assert (notice["data"]["table"], notice["data"]["seat"], notice["data"]["days"]) == (
        table, to_move, 1)
    assert not any(n["kind"] == "your_move" for n in other.get("/api/inbox").json()["notices"])
    listed = mover.get("/api/your-move").json()
    assert [(g["table"], g["seat"]) for g in listed] == [(table, to_move)]
    assert other.get("/api/your-move").json() == []


def test_a_one_day_clock_loses_no_time_while_the_server_is_down(
        settings: dict[str, Any], clock: FakeClock) -> None:
    with TestClient(create_app(**settings)) as client:
        a, b = account(client, "anahita", "10.0.0.1"), account(client, "bahram", "10.0.0.2")
        sent = a.post("/api/challenges", json={"to": "bahram", "game": "durak",
                                               "clock": {"days": 1}}).json()
        table = b.post(f"/api/challenges/{sent['id']}/accept").json()["table"]
        version = client.get(f"/api/tables/{table}").json()["version"]
        clock.move(20 * HOUR)
        assert clock_now(client, table)["move_left"] == 4 * HOUR
    clock.move(5 * DAY)   # the server is down for five days
    with TestClient(create_app(**settings)) as client:
        shown = clock_now(client, table)
        assert shown["move_left"] == 4 * HOUR   # as it was when the server stopped
        assert client.get(f"/api/tables/{table}").json()["version"] == version
        clock.move(4 * HOUR - 60)
        assert client.get(f"/api/tables/{table}").json()["version"] == version
        clock.move(61)   # now the day is spent: the takeover bot plays that move
        wait_until(lambda: client.get(f"/api/tables/{table}").json()["version"] > version,
                   "the timed-out move")
        log = client.get(f"/api/tables/{table}/log").json()["steps"]
        assert log[0]["takeover"] is True


def test_days_a_move_are_one_of_the_offered_counts(
        started: tuple[TestClient, dict[str, TestClient], str]) -> None:
    client, players, _ = started
    for days in (0, 4, 30, "1", 1.5):
        answer = players["anahita"].post("/api/tables", json={
            "game": "durak", "seats": ["human", "human"], "clock": {"days": days}})
        assert answer.status_code == 422, days
    made = players["anahita"].post("/api/tables", json={
        "game": "durak", "seats": ["human", "human"], "clock": {"days": 14}})
    assert made.status_code == 201
    assert client.get(f"/api/tables/{made.json()['table']}").json()["clock"] == {"days": 14}


def test_quick_play_has_a_correspondence_pool_of_its_own(
        started: tuple[TestClient, dict[str, TestClient], str]) -> None:
    client, players, _ = started
    c = account(client, "cyrus", "10.0.0.3")
    wait = {"game": "durak", "players": 2, "bots_after": None}
    quick = players["anahita"].post("/api/quick-play", json=wait).json()
    slow = c.post("/api/quick-play", json={**wait, "days": 3}).json()
    assert (quick["status"], slow["status"]) == ("waiting", "waiting")
    other = players["bahram"].post("/api/quick-play", json={**wait, "days": 3}).json()
    assert other["status"] == "matched"
    assert client.get(f"/api/tables/{other['table']}").json()["clock"] == {"days": 3}
    assert players["anahita"].get(f"/api/quick-play/{quick['ticket']}").json()[
        "status"] == "waiting"
