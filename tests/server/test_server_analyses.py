"""Analyses live in the database: every process serves every analysis,
and one game is analysed once however many processes are asked."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from playerkit import register
from tablekit import Player, connect, create, from_address, play_together


def _quick(client: TestClient) -> None:
    client.app.state.analyses.iterations = 20   # type: ignore[attr-defined]
    client.app.state.analyses.hindsight = False  # type: ignore[attr-defined]


def _finished_game(client: TestClient) -> str:
    seated = create(client, game="durak", seats=["human", "bot:random"])
    with connect(client, seated["table"], seated["token"]) as ws:
        play_together({seated["seat"]: Player(ws)}, [], random.Random(5))
    return str(seated["table"])


def test_an_analysis_made_by_one_process_is_served_by_another_and_made_once(
        make_client: Callable[..., TestClient], database_url: str, tmp_path: Path) -> None:
    one = make_client(database_url=database_url, data_dir=tmp_path / "one")
    other = make_client(database_url=database_url, data_dir=tmp_path / "other")
    _quick(one)
    _quick(other)
    table = _finished_game(one)
    assert other.get(f"/api/tables/{table}/analysis").json()["code"] == "no_analysis"
    assert one.post(f"/api/tables/{table}/analysis").json()["status"] == "running"
    # the other process is asked too: it sees the analysis under way and starts none
    asked = other.post(f"/api/tables/{table}/analysis").json()["status"]
    assert asked in ("running", "done")
    assert not other.app.state.analyses.running  # type: ignore[attr-defined]
    deadline = time.monotonic() + 120  # a bound on the wait, not a timing
    while (answer := other.get(f"/api/tables/{table}/analysis").json())["status"] != "done":
        assert answer["status"] == "running", answer
        assert time.monotonic() < deadline, "the analysis never finished"
        time.sleep(0.2)
    record = one.get(f"/api/tables/{table}/record").json()
    assert [m["move"] for m in answer["analysis"]["moves"]] == record["moves"]
    assert one.get(f"/api/tables/{table}/analysis").json() == answer
    assert other.post(f"/api/tables/{table}/analysis").json()["status"] == "done"


def test_a_lease_held_is_not_taken_and_a_lease_run_out_is(client: TestClient) -> None:
    store = client.app.state.analyses.store  # type: ignore[attr-defined]
    assert store.claim("t9", "process-a", 600) == "mine"
    assert store.claim("t9", "process-b", 600) == "running"
    store.progress("t9", "process-b", 3, 10, 600)   # not b's: changes nothing
    assert store.find("t9").judged == 0
    assert store.claim("t8", "process-a", 0) == "mine"   # a lease that has run out ...
    assert store.claim("t8", "process-b", 600) == "mine"  # ... is taken by the next asker
    assert store.find("t8").owner == "process-b"


def test_a_failed_analysis_is_told_by_every_process_and_can_be_asked_again(
        client: TestClient) -> None:
    store = client.app.state.analyses.store  # type: ignore[attr-defined]
    assert store.claim("t7", "process-a", 600) == "mine"
    store.fail("t7", "process-a", "the bot process died")
    answer = client.get("/api/tables/t7/analysis")
    assert answer.status_code == 500 and answer.json()["code"] == "analysis_failed"
    assert "the bot process died" in answer.json()["detail"]
    assert store.claim("t7", "process-b", 600) == "mine"


def test_analysis_files_of_an_earlier_version_are_read_into_the_database(
        make_client: Callable[..., TestClient], tmp_path: Path) -> None:
    folder = tmp_path / "data" / "analysis"
    folder.mkdir(parents=True)
    kept = {"game": "durak", "unit": "chance of being the durak", "moves": []}
    (folder / "old1.json").write_text(json.dumps(kept))
    (folder / "old1.puzzles.json").write_text("[]")
    (folder / "broken.json").write_text("{not json")
    client = make_client(data_dir=tmp_path / "data")
    answer = client.get("/api/tables/old1/analysis").json()
    assert answer == {"status": "done", "analysis": kept}
    assert client.get("/api/tables/broken/analysis").json()["code"] == "no_analysis"


def _resigned_games(client: TestClient, count: int) -> list[str]:
    """Finished games (resigned against a bot at once): something to analyse."""
    made = []
    for _ in range(count):
        seated = create(client, game="durak", seats=["human", "bot:random"])
        client.post(f"/api/tables/{seated['table']}/resign", json={"token": seated["token"]})
        made.append(str(seated["table"]))
    return made


def _never_ending(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Analyses that stay under way (the quotas count them) and judge nothing."""
    async def waits(*args: object) -> None:
        await asyncio.Event().wait()

    monkeypatch.setattr(client.app.state.analyses, "_analyse", waits)


def test_one_address_has_one_analysis_under_way(client: TestClient,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    _never_ending(client, monkeypatch)
    first, second = _resigned_games(client, 2)
    assert client.post(f"/api/tables/{first}/analysis").status_code == 202
    refused = client.post(f"/api/tables/{second}/analysis")
    assert refused.status_code == 429 and refused.json()["code"] == "analysis_quota"
    assert client.post(f"/api/tables/{first}/analysis").json()["status"] == "running"


def test_five_anonymous_requests_leave_the_queue_to_accounts(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """five addresses, not signed in, ask for five analyses."""
    _never_ending(client, monkeypatch)
    *games, theirs = _resigned_games(client, 6)
    answers = [from_address(client, f"10.0.1.{n}").post(f"/api/tables/{table}/analysis")
               for n, table in enumerate(games)]
    assert [a.status_code for a in answers] == [202, 202, 429, 429, 429]
    assert {a.json()["code"] for a in answers[2:]} == {"analysis_busy"}
    darya = from_address(client, "10.0.2.1")
    assert register(darya, "darya").status_code == 201
    assert darya.post(f"/api/tables/{theirs}/analysis").status_code == 202
