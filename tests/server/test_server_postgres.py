"""The web table on PostgreSQL: the same API, and tables that survive a restart.

CI starts PostgreSQL, so there an unreachable server fails the test; elsewhere it skips
(the ``database_url`` fixture, in conftest.py, makes a fresh database for each test).
"""

from __future__ import annotations

import contextlib
import random
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from tablekit import MACHINE_SPEED, ROOT, Player, connect, create, free_port, play_out

from cardtable import records
from cardtable.server import create_app

pytestmark = pytest.mark.services


def test_the_api_works_on_postgresql_and_tables_survive_a_restart(
        database_url: str, tmp_path: object) -> None:
    settings = {"database_url": database_url, "bot_delay": 0, "static_dir": tmp_path,
                **MACHINE_SPEED}
    with TestClient(create_app(**settings)) as client:
        assert client.get("/api/health").json()["tables"] == 0
        waiting = create(client, game="durak", seats=["human", "human"])
        assert client.post(f"/api/tables/{waiting['table']}/join").json()["seat"] == 1
        assert client.post(f"/api/tables/{waiting['table']}/join").status_code == 409
        assert client.post("/api/tables", json={"game": "durak", "players": 7}).status_code \
            == 422
        finished = create(client, game="durak", seats=["human", "bot:random"])
        with connect(client, finished["table"], finished["token"]) as ws:
            final = play_out(Player(ws), random.Random(2))
        record = records.loads(client.get(f"/api/tables/{finished['table']}/record").text)
        assert len(record.moves) == final["version"]
        record.replay()
        unfinished = create(client, game="durak", seats=["human", "bot:random"])
        with connect(client, unfinished["table"], unfinished["token"]) as ws:
            player = Player(ws)
            state = player.state()
            while not state["legal_moves"]:
                state = player.state()
            player.move(state, state["legal_moves"][0])
            state = player.state(state["version"] + 1)
            while not state["legal_moves"] and not state["over"]:
                state = player.state()
        assert client.get("/api/health").json()["tables"] == 3
    with TestClient(create_app(**settings)) as client:
        listed = {t["id"] for t in client.get("/api/tables").json()}
        assert listed == {waiting["table"], unfinished["table"]}
        assert [h["id"] for h in client.get("/api/history").json()] == [finished["table"]]
        with connect(client, unfinished["table"], unfinished["token"]) as ws:
            again = Player(ws).state()
        assert again["version"] == state["version"] and again["view"] == state["view"]


def test_two_processes_started_at_once_on_an_empty_database_both_come_up(
        database_url: str, tmp_path: Path) -> None:
    """The migrations run under an advisory lock: the second process waits for the first
    to make the schema, then finds it made (without the lock one died on it)."""
    ports = [free_port(), free_port()]
    processes = [subprocess.Popen(
        [sys.executable, "-m", "cardtable.server", "--port", str(port), "--data-dir",
         str(tmp_path / f"data{port}"), "--database-url", database_url,
         "--log-level", "warning"], cwd=ROOT, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT) for port in ports]
    try:
        up: set[int] = set()
        deadline = time.monotonic() + 90
        while len(up) < 2 and time.monotonic() < deadline:
            for port, process in zip(ports, processes, strict=True):
                assert process.poll() is None, process.communicate()[0].decode()[-3000:]
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(f"http://127.0.0.1:{port}/api/health",
                                 timeout=2).status_code == 200:
                        up.add(port)
            time.sleep(0.1)
        assert up == set(ports)
    finally:
        for process in processes:
            process.kill()
            process.wait(10)
