"""/metrics counts what a process does, each app apart; /api/health/live and /ready say
whether the process runs and whether to send it players."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from clusterkit import OwnRedis
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import create_engine
from tablekit import Player, connect, create, play_out


def figures(client: TestClient) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of /metrics, by name and labels."""
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    out = {}
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            out[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return out


def one(samples: dict, name: str, **labels: str) -> float:
    return samples[(name, tuple(sorted(labels.items())))]


def test_a_game_played_shows_its_moves_latencies_bots_and_refusals(client: TestClient) -> None:
    seated = create(client, game="durak", players=2, seats=["human", "bot:random"])
    with connect(client, seated["table"], seated["token"]) as ws:
        player = Player(ws)
        state = player.state()
        while not state["legal_moves"]:
            state = player.state()
        player.send({"type": "move", "version": state["version"] - 1,
                     "move": state["legal_moves"][0]})   # an old version: refused
        assert player.next_of("error")["code"] == "stale_version"
        during = figures(client)
        assert one(during, "cardtable_live_tables") == 1
        assert one(during, "cardtable_sockets") == 1
        final = play_out(player, random.Random(3))
    assert client.get("/api/tables/nosuchtable").status_code == 404
    after = figures(client)
    people = sum(1 for s in player.states if s["last_move"] and s["last_move"]["seat"] == 0)
    bots = final["version"] - people
    assert one(after, "cardtable_moves_total", by="person") == people
    assert one(after, "cardtable_moves_total", by="bot") == bots
    # one latency per person's move played (not the refused one), one thought per bot move
    assert one(after, "cardtable_move_seconds_count") == people
    assert one(after, "cardtable_bot_thinking_seconds_count") == bots
    assert one(after, "cardtable_queue_wait_seconds_count", queue="bot_turn") == bots
    assert one(after, "cardtable_refusals_total", code="stale_version") == 1
    assert one(after, "cardtable_refusals_total", code="not_found") == 1
    assert one(after, "cardtable_storage_up") == 1
    assert one(after, "cardtable_live_tables") == 0
    assert one(after, "cardtable_draining") == 0
    assert not any(name == "cardtable_redis_up" for name, _ in after), "one process: no Redis"


def test_two_apps_in_one_process_count_apart(make_client: Callable[..., TestClient],
                                             tmp_path) -> None:
    first = make_client()
    second = make_client(data_dir=tmp_path / "other")
    seated = create(first, game="durak", players=2, seats=["human", "bot:random"])
    with connect(first, seated["table"], seated["token"]) as ws:
        play_out(Player(ws), random.Random(5))
    assert one(figures(first), "cardtable_moves_total", by="bot") > 0
    assert one(figures(second), "cardtable_moves_total", by="bot") == 0
    assert one(figures(second), "cardtable_move_seconds_count") == 0


def test_live_answers_and_ready_says_what_is_up(client: TestClient) -> None:
    assert client.get("/api/health/live").json()["status"] == "live"
    ready = client.get("/api/health/ready")
    assert ready.status_code == 200
    assert ready.json() == {"status": "ready", "storage": "ok", "redis": None,
                            "draining": False, "problem": None}


def test_a_draining_process_is_not_ready_but_live(client: TestClient) -> None:
    client.app.state.draining = True   # type: ignore[attr-defined]
    ready = client.get("/api/health/ready")
    assert ready.status_code == 503
    assert ready.json()["status"] == "unready" and ready.json()["draining"] is True
    assert client.get("/api/health/live").status_code == 200
    assert one(figures(client), "cardtable_draining") == 1


def test_a_draining_process_answers_a_handshake_503_saying_so_and_counts_it(
        client: TestClient) -> None:
    """A socket that reaches a stopping process (its tables being handed over) is told
    to connect again (503 ``moved``), never a 500, and the refusal is counted."""
    from starlette.testclient import WebSocketDenialResponse

    made = create(client, game="durak", seats=["human", "bot:random"])
    client.app.state.draining = True   # type: ignore[attr-defined]
    with pytest.raises(WebSocketDenialResponse) as denied, \
            connect(client, made["table"], made["token"]):
        pass
    assert denied.value.status_code == 503
    assert denied.value.json()["code"] == "moved" and "stopping" in denied.value.json()["detail"]
    assert one(figures(client), "cardtable_refusals_total", code="moved") == 1


def test_a_database_that_does_not_answer_makes_the_process_unready(client: TestClient,
                                                                   tmp_path) -> None:
    storage = client.app.state.storage   # type: ignore[attr-defined]
    kept = storage.engine
    storage.engine = create_engine(f"sqlite:///{tmp_path}/no/such/folder/db.sqlite3")
    try:
        ready = client.get("/api/health/ready")
        assert ready.status_code == 503
        assert ready.json()["storage"] == "down"
        assert one(figures(client), "cardtable_storage_up") == 0
    finally:
        storage.engine.dispose()
        storage.engine = kept
    assert client.get("/api/health/ready").status_code == 200


def test_every_answer_carries_a_request_id_and_keeps_a_sane_given_one(
        client: TestClient) -> None:
    made = client.get("/api/health/live").headers["x-request-id"]
    assert len(made) == 16
    assert client.get("/api/health/live", headers={"X-Request-ID": "lb-42.a"}).headers[
        "x-request-id"] == "lb-42.a"
    odd = client.get("/api/health/live", headers={"X-Request-ID": "a b\"<script>"})
    assert odd.headers["x-request-id"] != "a b\"<script>"


def test_with_redis_the_leases_and_redis_are_shown_and_a_lost_redis_is_unready(
        make_client: Callable[..., TestClient], own_redis: OwnRedis) -> None:
    client = make_client(redis_url=own_redis.url)
    create(client, game="durak", players=2, seats=["human", "bot:random"])
    up = figures(client)
    assert one(up, "cardtable_redis_up") == 1
    assert one(up, "cardtable_leases_held") == 1
    assert client.get("/api/health/ready").json()["redis"] == "ok"
    own_redis.stop()
    ready = client.get("/api/health/ready")
    assert ready.status_code == 503
    assert ready.json()["redis"] == "down" and ready.json()["storage"] == "ok"
    assert one(figures(client), "cardtable_redis_up") == 0


def test_two_quick_play_tickets_seated_together_are_two_waits(client: TestClient) -> None:
    first = client.post("/api/quick-play", json={"game": "durak", "players": 2,
                                                 "bots_after": None}).json()
    assert first["status"] == "waiting"
    assert one(figures(client), "cardtable_queue_wait_seconds_count", queue="quick_play") == 0
    second = client.post("/api/quick-play", json={"game": "durak", "players": 2,
                                                  "bots_after": None}).json()
    assert second["status"] == "matched"
    assert one(figures(client), "cardtable_queue_wait_seconds_count", queue="quick_play") == 2
