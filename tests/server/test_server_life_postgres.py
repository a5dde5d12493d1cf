"""A table's life on PostgreSQL: resign, the clock's bank across a restart, abandonment
and quick play, as on SQLite (test_server_life)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from tablekit import MACHINE_SPEED, Player, connect, create, ticking

from cardtable.server import create_app
from cardtable.server.core.clock import FakeClock

pytestmark = pytest.mark.services


def wait_until_over(client: TestClient, table: str, timeout: float = 30) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        described = client.get(f"/api/tables/{table}").json()
        if described["over"]:
            return described
        assert time.monotonic() < deadline, "the table never ended"
        time.sleep(0.05)


def test_the_life_of_tables_on_postgresql(database_url: str, tmp_path: Path) -> None:
    clock = FakeClock()
    settings = {"database_url": database_url, "bot_delay": 0, "static_dir": tmp_path,
                **MACHINE_SPEED, "grace": 600, "clock": clock}
    with TestClient(create_app(**settings, abandon_after=300)) as client:
        resigned = create(client, game="durak", seats=["human", "bot:random"])
        answer = client.post(f"/api/tables/{resigned['table']}/resign",
                             json={"token": resigned["token"]})
        assert answer.status_code == 200 and answer.json()["summary"]["loser"] == 0
        abandoned = create(client, game="durak", seats=["human", "bot:random"])
        with ticking(clock, 10):
            assert wait_until_over(client, abandoned["table"])["summary"]["abandoned"] is True
        ticket = client.post("/api/quick-play", json={"game": "durak", "players": 2,
                                                      "bots_after": 0}).json()
        assert client.get(f"/api/quick-play/{ticket['ticket']}").json()["status"] == "matched"
    with TestClient(create_app(**settings)) as client:
        clocked = create(client, game="durak", seats=["human", "bot:random"],
                         clock={"move": 1, "bank": 30})
        with connect(client, clocked["table"], clocked["token"]) as ws:
            me = Player(ws)
            state = me.state()
            while not state["legal_moves"]:
                state = me.state()
            clock.move(1.5)   # past the move's second: the bank pays the rest
            me.move(state, state["legal_moves"][0])
            me.state(state["version"] + 1)
        bank = client.app.state.storage.load(clocked["table"]).row.life["banks"][0]
        assert bank == 29.5
    with TestClient(create_app(**settings)) as client:
        assert client.app.state.tables.live[clocked["table"]].life.banks[0] == bank
        assert client.get(f"/api/tables/{resigned['table']}").json()["summary"][
            "resigned"] == 0
