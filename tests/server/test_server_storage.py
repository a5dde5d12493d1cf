"""Storage faults: a join half written, a restart that repairs, a seat nobody claims, and a
database that stops answering for a while (in this process; see test_server_outage.py for
a real server and PostgreSQL)."""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, delete, event, update
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import sessionmaker
from tablekit import MACHINE_SPEED, Player, connect, create, play_out, play_together, ticking

from cardtable.server import create_app
from cardtable.server.store.storage import (
    SeatRow,
    Storage,
    StorageUnavailable,
    TableRow,
    hash_token,
    sqlite_url,
)


@pytest.fixture
def settings(tmp_path: Path) -> dict[str, Any]:
    return {"data_dir": tmp_path / "data", "bot_delay": 0, "static_dir": tmp_path / "static",
            **MACHINE_SPEED}   # the tests play at machine speed


def stored_row(settings: dict[str, Any], table_id: str) -> TableRow:
    storage = Storage(sqlite_url(settings["data_dir"]))
    try:
        stored = storage.load(table_id)
        assert stored is not None
        return stored.row
    finally:
        storage.close()


def change_rows(settings: dict[str, Any], *statements: Any) -> None:
    """Write to the database behind the server's back (as a crash would have left it)."""
    storage = Storage(sqlite_url(settings["data_dir"]))
    try:
        with storage.sessions.begin() as session:
            for statement in statements:
                session.execute(statement)
    finally:
        storage.close()


def closed_with(client: TestClient, table: str, token: str | None = None) -> str:
    """How the server closes a socket to that table (``closed: CODE REASON``)."""
    with connect(client, table, token) as ws:
        player = Player(ws)
        while True:
            try:
                player.receive()
            except ConnectionError as closed:
                return str(closed)


def first_moves(client: TestClient, made: dict, count: int) -> None:
    """Play ``count`` moves of seat 0 at a table against a bot."""
    rng = random.Random(5)
    with connect(client, made["table"], made["token"]) as ws:
        player = Player(ws)
        state = player.state()
        played = 0
        while played < count and not state["over"]:
            if state["legal_moves"]:
                player.move(state, rng.choice(state["legal_moves"]))
                state = player.state(state["version"] + 1)
                played += 1
            else:
                state = player.state()


# -- a join is one transaction, and a restart repairs tables left half-joined -----

def test_taking_the_last_seat_starts_the_game_in_the_same_write(
        settings: dict[str, Any]) -> None:
    with TestClient(create_app(**settings)) as client:
        made = create(client, game="durak", seats=["human", "human"])
        # the storage call of a join, and nothing after it: the process is killed here
        storage = client.app.state.storage
        assert storage.take_seat(made["table"], 1, hash_token("never-answered"), None)
        assert stored_row(settings, made["table"]).status == "playing"


def test_a_table_left_waiting_with_every_seat_taken_plays_after_a_restart(
        settings: dict[str, Any]) -> None:
    with TestClient(create_app(**settings)) as client:
        made = create(client, game="durak", seats=["human", "human"])
    # what a kill between the seat's write and the status's write left (before the fix)
    token = "the-joiner-got-this-token"
    change_rows(settings, update(SeatRow).where(SeatRow.table_id == made["table"],
                                                SeatRow.seat == 1)
                .values(token_hash=hash_token(token)))
    assert stored_row(settings, made["table"]).status == "waiting"
    with TestClient(create_app(**settings)) as client:
        info = client.get(f"/api/tables/{made['table']}").json()
        assert info["status"] == "playing" and info["free_seats"] == 0
        with connect(client, made["table"], made["token"]) as ws0, \
                connect(client, made["table"], token) as ws1:
            final = play_together({0: Player(ws0), 1: Player(ws1)}, [], random.Random(3))
        assert final["over"]
    assert stored_row(settings, made["table"]).status == "over"


def test_a_table_with_moves_but_still_waiting_plays_on_after_a_restart(
        settings: dict[str, Any]) -> None:
    with TestClient(create_app(**settings)) as client:
        made = create(client, game="durak", seats=["human", "bot:random"])
        first_moves(client, made, 2)
    change_rows(settings, update(TableRow).where(TableRow.id == made["table"])
                .values(status="waiting"))
    storage = Storage(sqlite_url(settings["data_dir"]))
    played = storage.move_count(made["table"])
    storage.close()
    assert played >= 2
    with TestClient(create_app(**settings)) as client:
        assert client.get(f"/api/tables/{made['table']}").json()["status"] == "playing"
        with connect(client, made["table"], made["token"]) as ws:
            player = Player(ws)
            again = player.state()
            assert again["version"] >= played  # the bot may have answered already
            assert play_out(player, random.Random(8), again)["over"]


def test_a_game_whose_moves_ended_it_is_marked_over_after_a_restart(
        settings: dict[str, Any]) -> None:
    with TestClient(create_app(**settings)) as client:
        made = create(client, game="durak", seats=["human", "bot:random"])
        with connect(client, made["table"], made["token"]) as ws:
            final = play_out(Player(ws), random.Random(6))
    change_rows(settings, update(TableRow).where(TableRow.id == made["table"])
                .values(status="playing", finished=None, summary=None))
    with TestClient(create_app(**settings)) as client:
        assert made["table"] not in {t["id"] for t in client.get("/api/tables").json()}
        history = client.get("/api/history").json()
        assert [h["id"] for h in history] == [made["table"]]
        assert history[0]["summary"] == final["summary"]
    row = stored_row(settings, made["table"])
    assert row.status == "over" and row.finished is not None


@pytest.mark.parametrize(("damage", "reason"), [
    ("no seats", "seats"),
    ("unknown status", "status"),
])
def test_a_table_that_cannot_be_made_consistent_is_closed_with_a_reason(
        settings: dict[str, Any], damage: str, reason: str) -> None:
    with TestClient(create_app(**settings)) as client:
        made = create(client, game="durak", seats=["human", "human"])
        sound = create(client, game="durak", seats=["human", "bot:random"])
    if damage == "no seats":
        change_rows(settings, delete(SeatRow).where(SeatRow.table_id == made["table"]))
    else:
        change_rows(settings, update(TableRow).where(TableRow.id == made["table"])
                    .values(status="paused"))
    with TestClient(create_app(**settings)) as client:
        answer = client.get(f"/api/tables/{made['table']}")
        assert answer.status_code == 410
        assert answer.json()["code"] == "table_closed" and reason in answer.json()["detail"]
        assert {t["id"] for t in client.get("/api/tables").json()} == {sound["table"]}
        assert client.post(f"/api/tables/{made['table']}/join").status_code == 410
        assert "4410" in closed_with(client, made["table"])
        health = client.get("/api/health").json()
        assert health["status"] == "ok" and health["broken"] == []
        with connect(client, sound["table"], sound["token"]) as ws:
            assert play_out(Player(ws), random.Random(1))["over"]
    row = stored_row(settings, made["table"])
    assert row.status == "closed" and reason in row.summary["closed"]


# -- a seat taken but never connected to is freed again ---------------------------

def wait_for(predicate: Callable[[], Any], timeout: float = 20) -> Any:
    deadline = time.monotonic() + timeout
    while not (value := predicate()):
        assert time.monotonic() < deadline, "waited in vain"
        time.sleep(0.05)
    return value


def test_a_seat_whose_token_never_connected_is_freed_after_the_claim_grace(
        make_client: Callable[..., TestClient], clock: Any) -> None:
    client = make_client(claim_grace=120)
    made = create(client, game="durak", seats=["human", "human"])
    table = made["table"]
    with connect(client, table, made["token"]) as ws0:
        creator = Player(ws0)
        creator.state()
        lost = client.post(f"/api/tables/{table}/join").json()  # its answer never arrives
        assert lost["seat"] == 1
        state = creator.state()
        with ticking(clock, 10):
            while state["seats"][1]["taken"]:
                state = creator.state()
        info = client.get(f"/api/tables/{table}").json()
        assert info["free_seats"] == 1
        assert "4403" in closed_with(client, table, lost["token"])
        again = client.post(f"/api/tables/{table}/join").json()
        assert again["seat"] == 1
        with connect(client, table, again["token"]) as ws1:
            final = play_together({0: creator, 1: Player(ws1)}, [], random.Random(2))
    assert final["over"]


def test_a_seat_that_connected_once_is_kept_past_the_claim_grace(
        make_client: Callable[..., TestClient], clock: Any) -> None:
    client = make_client(claim_grace=120)
    made = create(client, game="durak", seats=["human", "human"])
    table = made["table"]
    with connect(client, table, made["token"]) as ws0:
        Player(ws0).state()
    joined = client.post(f"/api/tables/{table}/join").json()
    with connect(client, table, joined["token"]) as ws1:
        Player(ws1).state()
    # both seats were connected to: no hold waits to free one, and three graces later
    # both are still taken
    assert all(seat.claim_task is None for seat in client.app.state.tables.live[table].seats)
    clock.move(360)
    assert client.get(f"/api/tables/{table}").json()["free_seats"] == 0
    with connect(client, table, joined["token"]) as ws1:
        assert Player(ws1).state()["seat"] == 1


def test_an_unclaimed_seat_is_freed_after_a_restart_too(settings: dict[str, Any]) -> None:
    with TestClient(create_app(**settings)) as client:
        made = create(client, game="durak", seats=["human", "human", "human"])
        with connect(client, made["table"], made["token"]) as ws:
            Player(ws).state()
        client.post(f"/api/tables/{made['table']}/join").json()  # the answer is lost
    with TestClient(create_app(**settings, claim_grace=0.3)) as client:
        info = wait_for(lambda: (lambda i: i if i["free_seats"] == 2 else None)(
            client.get(f"/api/tables/{made['table']}").json()))
        assert [s["taken"] for s in info["seats"]] == [True, False, False]
        assert info["status"] == "waiting"


def test_a_database_from_before_the_claim_column_keeps_its_seats(
        settings: dict[str, Any]) -> None:
    """Seats taken before the server remembered connections count as connected."""
    from alembic import command
    from alembic.config import Config

    storage = Storage(sqlite_url(settings["data_dir"]))
    here = Path(__file__).resolve().parents[2] / "cardtable" / "server" / "store"
    config = Config(str(here / "alembic.ini"))
    config.set_main_option("script_location", str(here / "migrations"))
    with storage.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
        connection.exec_driver_sql(
            "INSERT INTO tables (id, game, preset, rules, players, status, created) VALUES "
            "('old', 'durak', NULL, '{}', 2, 'waiting', '2026-01-01T00:00:00.000+00:00')")
        connection.exec_driver_sql(
            "INSERT INTO seats (table_id, seat, kind, token_hash) VALUES "
            f"('old', 0, 'human', '{hash_token('x')}'), ('old', 1, 'human', NULL)")
    storage.migrate()
    seats = storage.seats_of("old")
    storage.close()
    assert seats[0].seen is not None and seats[1].seen is None


# -- the database unreachable for a while (in this process) -------------------------

@pytest.fixture
def outage(make_client: Callable[..., TestClient]) -> Iterator[Callable[..., Any]]:
    """``cut(client)`` points the app's storage at a database nobody answers (a closed
    port) and breaks the connections it holds (the move writer keeps one), ``cut(client,
    False)`` gives it back its own; the number of attempts made on the dead database (new
    connections and statements on the broken ones) is in ``cut.attempts``."""
    dead = create_engine("postgresql+psycopg://postgres@127.0.0.1:9/none",
                         connect_args={"connect_timeout": 2})
    attempts = []
    event.listen(dead, "do_connect", lambda *args: attempts.append(1))
    saved: dict[int, Any] = {}

    def broken(*args: Any) -> None:
        attempts.append(1)
        raise OperationalError("a statement", None, ConnectionResetError("the line dropped"))

    def cut(client: TestClient, down: bool = True) -> None:
        storage = client.app.state.storage
        if down:
            saved[id(storage)] = storage.sessions
            storage.sessions = sessionmaker(dead, expire_on_commit=False)
            event.listen(storage.engine, "before_cursor_execute", broken)
        else:
            storage.sessions = saved.pop(id(storage))
            event.remove(storage.engine, "before_cursor_execute", broken)

    cut.attempts = attempts  # type: ignore[attr-defined]
    yield cut
    dead.dispose()


def test_an_outage_is_answered_503_logged_once_and_ends_by_itself(
        make_client: Callable[..., TestClient], outage: Any,
        caplog: pytest.LogCaptureFixture, clock: Any) -> None:
    client = make_client(bot_delay=0.01)
    bots_only = create(client, game="pasur", seats=["bot:random", "bot:random"])
    made = create(client, game="durak", seats=["human", "human"])
    joined = client.post(f"/api/tables/{made['table']}/join").json()
    caplog.set_level(logging.INFO, logger="cardtable")
    with connect(client, made["table"], made["token"]) as ws0, \
            connect(client, made["table"], joined["token"]) as ws1:
        players = {0: Player(ws0), 1: Player(ws1)}
        state = {seat: p.state() for seat, p in players.items()}
        mover = state[0]["to_move"]
        outage(client)
        start = len(caplog.records)
        refused = client.post("/api/tables", json={"game": "durak"})
        assert refused.status_code == 503
        assert refused.json()["code"] == "storage_unavailable" and refused.json()["detail"]
        health = client.get("/api/health")
        assert health.status_code == 503 and health.json()["database"] == "down"
        players[mover].move(state[mover], state[mover]["legal_moves"][0])
        error = players[mover].next_of("error")
        assert error["code"] == "storage_unavailable"
        assert players[mover].state()["version"] == state[mover]["version"]
        with ticking(clock, 0.5):   # the bots at the other table keep trying meanwhile
            wait_for(lambda: client.app.state.storage.outage.since is not None)
            outage(client, False)
            wait_for(lambda: client.get("/api/health").status_code == 200)
        # the table moves again
        players[mover].move(state[mover], state[mover]["legal_moves"][0])
        assert players[mover].state(state[mover]["version"] + 1)["last_move"]["seat"] == mover
    assert client.post("/api/tables", json={"game": "durak"}).status_code == 201
    # the bots' table plays on by itself
    mended = client.get(f"/api/tables/{bots_only['table']}").json()["version"]
    with connect(client, bots_only["table"]) as ws, ticking(clock, 0.5):
        watcher = Player(ws)
        state = watcher.state()
        while state["version"] <= mended and not state["over"]:
            state = watcher.state()
    lines = [r for r in caplog.records[start:] if "database" in r.getMessage()]
    assert len([r for r in lines if "is unreachable" in r.getMessage()]) == 1, lines
    assert len([r for r in lines if "is back after" in r.getMessage()]) == 1, lines
    assert all(r.exc_info is None for r in caplog.records[start:]), "a traceback was logged"
    assert len(outage.attempts) < 60, f"{len(outage.attempts)} tries in about a second"


def test_a_move_stored_although_its_write_seemed_to_fail_is_kept_once(
        make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch) -> None:
    """The line drops after the database committed the move: the player is told it could
    not be stored, and the table reads the database again before its next move, so the
    move is kept (once) rather than lost or written twice."""
    client = make_client()
    made = create(client, game="durak", seats=["human", "human"])
    joined = client.post(f"/api/tables/{made['table']}/join").json()
    storage = client.app.state.storage
    real = storage.append_moves   # what the group writer calls (writer.MoveWriter)

    def stored_then_lost(*args: Any, **kwargs: Any) -> str:
        real(*args, **kwargs)
        monkeypatch.setattr(storage, "append_moves", real)
        raise StorageUnavailable()

    with connect(client, made["table"], made["token"]) as ws0, \
            connect(client, made["table"], joined["token"]) as ws1:
        players = {0: Player(ws0), 1: Player(ws1)}
        states = {seat: p.state() for seat, p in players.items()}
        seat = states[0]["to_move"]
        mover, state = players[seat], states[seat]
        monkeypatch.setattr(storage, "append_moves", stored_then_lost)
        move = state["legal_moves"][0]
        mover.move(state, move)
        assert mover.next_of("error")["code"] == "storage_unavailable"
        mover.move(state, move)  # sent again: the table has it already
        assert "version" in mover.next_of("error")["reason"]
        after = mover.state(state["version"] + 1)
        assert after["version"] == state["version"] + 1
        assert after["last_move"] == {"index": state["version"], "seat": seat, "move": move}
    with connect(client, made["table"], made["token"]) as ws0, \
            connect(client, made["table"], joined["token"]) as ws1:
        final = play_together({0: Player(ws0), 1: Player(ws1)}, [], random.Random(7))
    assert final["over"]
    assert storage.move_count(made["table"]) == final["version"]
