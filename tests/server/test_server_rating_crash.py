"""A rated result survives a crash between a game's end and its count: the end and the
count are one transaction, and a table left over and uncounted (the count failed, or an
older version died between the two) is counted once by a restart or a sweep, on SQLite
and on PostgreSQL, however many processes sweep."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from playerkit import fresh, register
from tablekit import MACHINE_SPEED, Player, connect, each_moves_once, play_together

from cardtable.server import create_app
from cardtable.server.store import ratings


def _app(tmp_path: Path, url: str | None) -> TestClient:
    settings: dict[str, Any] = {"bot_delay": 0, "static_dir": tmp_path / "static",
                                **MACHINE_SPEED, "data_dir": tmp_path / "data"}
    if url:
        settings["database_url"] = url
    return TestClient(create_app(**settings))


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest) -> str | None:
    return request.getfixturevalue("database_url") if request.param == "postgresql" else None


def _play(client: TestClient) -> str:
    anna = fresh(client)
    register(client, "darya")
    register(anna, "anna_k")
    made = client.post("/api/tables", json={"game": "durak", "seats": ["human", "human"],
                                            "rated": True}).json()
    joined = anna.post(f"/api/tables/{made['table']}/join").json()
    with connect(client, made["table"], made["token"]) as ws0, \
            connect(anna, made["table"], joined["token"]) as ws1:
        play_together({0: Player(ws0), 1: Player(ws1)}, [], random.Random(3))
    return made["table"]


def _games(client: TestClient) -> int:
    found = client.get("/api/players/darya").json()["ratings"]
    return found[0]["games"] if found else 0


def test_a_count_that_fails_with_the_end_is_counted_once_by_the_next_start(
        tmp_path: Path, url: str | None, monkeypatch: pytest.MonkeyPatch) -> None:
    def dies(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the process died here")

    monkeypatch.setattr(ratings, "count_in", dies)
    with _app(tmp_path, url) as client:
        table = _play(client)
        summary = client.get(f"/api/tables/{table}").json()
        assert summary["status"] == "over" and "ratings" not in summary["summary"]
        assert _games(client) == 0   # the end is stored, the rating not
    monkeypatch.undo()
    for _ in range(2):   # restarted twice: counted once
        with _app(tmp_path, url) as client:
            assert _games(client) == 1
            assert set(client.get(f"/api/tables/{table}").json()["summary"]["ratings"]) \
                == {"0", "1"}


def test_two_processes_sweeping_count_a_table_once(
        tmp_path: Path, database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    def dies(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the process died here")

    with _app(tmp_path, database_url) as one, _app(tmp_path, database_url) as two:
        monkeypatch.setattr(ratings, "count_in", dies)
        _play(one)
        monkeypatch.undo()
        assert _games(one) == 0
        # the sweep of each process, on its own event loop
        counted = [client.portal.call(client.app.state.tables.count_left)
                   for client in (one, two, one)]
        assert counted == [1, 0, 0]
        assert _games(two) == 1


def _kill_right_after_the_last_move(tmp_path: Path, extra: tuple[str, ...]
                                    ) -> tuple[list[int], set[str]]:
    """A rated game played to its end, the server killed, a new one started: the games
    darya's profile counts, and the seats the table's summary rated."""
    import json

    import httpx
    from tablekit import next_state, server, socket_for

    data = tmp_path / "data"
    with server(data, *extra) as (process, base):
        darya, anna = httpx.Client(base_url=base), httpx.Client(base_url=base)
        for client, name in ((darya, "darya"), (anna, "anna_k")):
            answer = client.post("/api/account/register",
                                 json={"username": name, "password": "correct horse battery"})
            assert answer.status_code < 300, answer.text
        made = darya.post("/api/tables", json={"game": "durak", "rated": True,
                                               "seats": ["human", "human"]}).json()
        joined = anna.post(f"/api/tables/{made['table']}/join").json()
        rng = random.Random(4)
        with socket_for(base, made["table"], made["token"], dict(darya.cookies.items())) as ws0, \
                socket_for(base, made["table"], joined["token"], dict(anna.cookies.items())) as ws1:
            sockets = {0: ws0, 1: ws1}
            latest = {seat: next_state(ws) for seat, ws in sockets.items()}
            while not latest[0]["over"]:
                version, mover = latest[0]["version"], latest[0]["to_move"]
                sockets[mover].send(json.dumps({"type": "move", "version": version,
                                                "move": rng.choice(
                                                    latest[mover]["legal_moves"])}))
                latest = {seat: next_state(ws, version + 1) for seat, ws in sockets.items()}
            process.kill()   # SIGKILL as soon as the last move is told: no shutdown runs
            process.wait(10)
    with server(data, *extra) as (_, base):
        profile = httpx.get(f"{base}/api/players/darya").json()
        summary = httpx.get(f"{base}/api/tables/{made['table']}").json()["summary"]
    return [r["games"] for r in profile["ratings"]], set(summary["ratings"])


def test_a_kill_right_after_the_last_move_loses_no_rating_sqlite(tmp_path: Path) -> None:
    games, rated = _kill_right_after_the_last_move(tmp_path, ())
    assert games == [1] and rated == {"0", "1"}


def test_a_kill_right_after_the_last_move_loses_no_rating_postgres(
        tmp_path: Path, database_url: str) -> None:
    games, rated = _kill_right_after_the_last_move(tmp_path, ("--database-url", database_url))
    assert games == [1] and rated == {"0", "1"}


def test_a_resignation_is_rated_with_its_end_or_by_the_next_start(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def dies(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the process died here")

    with _app(tmp_path, None) as client:
        anna = fresh(client)
        register(client, "darya")
        register(anna, "anna_k")
        tables = []
        for _ in range(2):
            made = client.post("/api/tables", json={"game": "durak", "rated": True,
                                                    "seats": ["human", "human"]}).json()
            joined = anna.post(f"/api/tables/{made['table']}/join").json()
            with connect(client, made["table"], made["token"]) as ws0, \
                    connect(anna, made["table"], joined["token"]) as ws1:
                each_moves_once({0: Player(ws0), 1: Player(ws1)})   # past the abort window
            tables.append((made["table"], made["token"]))
        first = client.post(f"/api/tables/{tables[0][0]}/resign",
                            json={"token": tables[0][1]}).json()
        assert first["summary"]["ratings"]["0"]["change"] < 0   # counted with the end
        monkeypatch.setattr(ratings, "count_in", dies)
        second = client.post(f"/api/tables/{tables[1][0]}/resign",
                             json={"token": tables[1][1]}).json()
        assert second["summary"]["resigned"] == 0 and "ratings" not in second["summary"]
        monkeypatch.undo()
        assert _games(client) == 1
    with _app(tmp_path, None) as client:
        assert _games(client) == 2
