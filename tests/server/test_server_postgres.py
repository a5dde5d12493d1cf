"""The web table on PostgreSQL: the same API, and tables that survive a restart.

CI starts PostgreSQL, so there an unreachable server fails the test; elsewhere it skips
(the ``database_url`` fixture, in conftest.py, makes a fresh database for each test).
"""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient
from tablekit import MACHINE_SPEED, Player, connect, create, play_out

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
