"""Bots at the web table are bounded: a table made over the API seats
only the bots the server offers, with options inside its bounds; bots think where the
server can stop them at the time limit; and however long they think, the database calls
(and so ``/api/health`` and every other table) go on."""

from __future__ import annotations

import concurrent.futures
import logging
import threading
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tablekit import Player, Stuck, connect, create, run_async, with_bots

from cardtable import bots, games
from cardtable.server.core.bounds import Limits
from cardtable.server.play.bot_workers import BotWorkers


def table_count(client: TestClient) -> int:
    return client.get("/api/health").json()["tables"]


def answered(call: Callable[[], Any], timeout: float = 30) -> Any:
    """What ``call`` returns, or a failure if it has not answered within ``timeout``
    seconds (a bound on the wait, not a timing: a starved server never answers)."""
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    try:
        return pool.submit(call).result(timeout=timeout)
    except concurrent.futures.TimeoutError:
        raise AssertionError(f"no answer within {timeout} s") from None
    finally:
        pool.shutdown(wait=False)


# -- what a table may seat ------------------------------------------------------------------

BEYOND = [
    ("bot:ismcts:iterations=1000000000,seconds=100000", "bot_option_out_of_bounds",
     "iterations=1000000000"),
    ("bot:ismcts:seconds=100000", "bot_option_out_of_bounds", "seconds=100000"),
    ("bot:expert:solver_nodes=100000000", "bot_option_out_of_bounds", "solver_nodes"),
    ("bot:hard:c=1000", "bot_option_out_of_bounds", "c=1000"),
    ("bot:ismcts:width=3", "bot_option_out_of_bounds", "width"),
    ("bot:openspiel-ismcts", "bot_not_offered", "openspiel-ismcts"),
    ("bot:ismcts:c=nan", "invalid_request", "c=nan is not a finite number"),
    ("bot:ismcts:c=inf", "invalid_request", "c=inf is not a finite number"),
    ("bot:ismcts:c=-1", "invalid_request", "exploration constant"),
    ("bot:medium:iterations=0", "invalid_request", "iterations"),
]


@pytest.mark.parametrize(("seat", "code", "said"), BEYOND, ids=[b[0] for b in BEYOND])
def test_a_bot_past_the_servers_offer_or_bounds_is_refused_and_nothing_is_made(
        client: TestClient, seat: str, code: str, said: str) -> None:
    for body in ({"game": "durak", "seats": ["human", seat]},
                 {"game": "durak", "seats": ["human", "bot:random"], "takeover": seat}):
        response = client.post("/api/tables", json=body)
        assert response.status_code == 422, response.text
        assert response.json()["code"] == code
        assert said in response.json()["detail"]
    assert table_count(client) == 0


def test_every_bot_the_lobby_lists_is_accepted_and_so_are_options_in_bounds(
        make_client: Callable[..., TestClient]) -> None:
    client = make_client(bot_delay=600)   # seated, not thinking
    listed = client.get("/api/games").json()[0]["bots"]
    assert set(bots.LEVELS) <= set(listed)
    for name in listed:
        create(client, game="durak", seats=["human", f"bot:{name}"])
    create(client, game="durak", seats=["human", "bot:ismcts:iterations=500,c=0.7,infer=true"],
           takeover="bot:medium:seconds=2")
    assert table_count(client) == len(listed) + 1


# -- bots think where the server can stop them ---------------------------------------------

@pytest.mark.slow   # a load run (60 s here): with -m slow, beside the benchmarks
def test_health_and_other_tables_answer_while_every_bot_thinks_long(
        make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch) -> None:
    """The defect: bots thought in the threads the database calls use, so eight long
    thinkers left no thread for storage, and nothing answered, health included."""
    release = threading.Event()
    lock = threading.Lock()
    thinking = [0]

    class Slow:
        """Thinks until the test lets it go (waiting, so it holds a thread, not a core)."""

        name = "slow"

        def __init__(self, *, seed: object = None) -> None:
            pass

        def choose(self, state: Any) -> Any:
            with lock:
                thinking[0] += 1
            release.wait(60)
            return state.legal_moves()[0]

    monkeypatch.setitem(bots._FACTORIES, "slow", Slow)
    client = make_client(**with_bots("slow"), bot_time_limit=600)
    try:
        for _ in range(8):
            answered(lambda: create(client, game="durak", seats=["bot:slow", "bot:slow"]))
        while thinking[0] < client.app.state.tables.settings.bot_threads:
            release.wait(0.05)
        health = answered(lambda: client.get("/api/health"))
        assert health.status_code == 200 and health.json()["tables"] == 8
        # a table of two people plays on
        ana = answered(lambda: create(client, game="durak", seats=["human", "human"]))
        bo = answered(lambda: client.post(f"/api/tables/{ana['table']}/join").json())
        with connect(client, ana["table"], ana["token"]) as ws0, \
                connect(client, ana["table"], bo["token"]) as ws1:
            players = {0: Player(ws0), 1: Player(ws1)}
            first = {seat: player.state() for seat, player in players.items()}
            mover = first[0]["to_move"]
            players[mover].move(first[mover], first[mover]["legal_moves"][0])
            assert players[1 - mover].state(1, timeout=30)["version"] == 1
    finally:
        release.set()


def test_a_search_at_a_table_stops_itself_at_the_time_limit_and_plays_its_own_move(
        make_client: Callable[..., TestClient], caplog: pytest.LogCaptureFixture) -> None:
    limits = {**with_bots(), "bot_bounds": {**Limits().bot_bounds, "iterations": 10**9}}
    client = make_client(**limits, bot_time_limit=0.3)
    seated = create(client, game="durak",
                    seats=["bot:ismcts:iterations=1000000000", "bot:random"])
    with caplog.at_level("WARNING", logger="cardtable.server"), \
            connect(client, seated["table"]) as ws:
        watcher = Player(ws)
        state = watcher.state()
        while state["version"] < 6 and not state["over"]:
            state = watcher.state(timeout=60)
    searched = [s for s in watcher.states if s["last_move"] and s["last_move"]["seat"] == 0]
    assert searched, "the searching bot never moved"
    assert not [r for r in caplog.records if "random move" in r.getMessage()], (
        "the search ran past its limit and a random move was played for it")


def test_a_bot_process_still_thinking_at_the_limit_is_killed_and_replaced() -> None:
    durak = games.get("durak")
    state = durak.start(durak.presets["transfer"], players=2, seed=3)

    async def run() -> None:
        workers = BotWorkers(1, grace=0.2)
        try:
            assert await workers.choose("random", state, 30) in map(str, state.legal_moves())
            (first,) = workers.pids()
            with pytest.raises(TimeoutError):
                await workers.choose("random", Stuck(), 0.5)   # never answers: killed
            assert workers.killed == 1 and first not in workers.pids()
            assert await workers.choose("greedy", state, 30) in map(str, state.legal_moves())
            (second,) = workers.pids()
            assert second != first
        finally:
            workers.close()

    run_async(run())


def test_a_search_in_a_bot_process_stops_itself_at_the_limit(
        make_client: Callable[..., TestClient], caplog: pytest.LogCaptureFixture) -> None:
    limits = {**with_bots(), "bot_bounds": {**Limits().bot_bounds, "iterations": 10**9}}
    client = make_client(**limits, bot_time_limit=0.3, bot_processes=1)
    seated = create(client, game="durak",
                    seats=["bot:ismcts:iterations=1000000000", "bot:random"])
    with caplog.at_level(logging.WARNING, logger="cardtable.server"), \
            connect(client, seated["table"]) as ws:
        watcher = Player(ws)
        state = watcher.state()
        while state["version"] < 4 and not state["over"]:
            state = watcher.state(timeout=60)
    assert client.app.state.tables.runner.workers.killed == 0
    assert not [r for r in caplog.records if "random move" in r.getMessage()]


@pytest.mark.parametrize("game", ["pasur", "durak"])
def test_bots_in_processes_think_for_every_game(
        make_client: Callable[..., TestClient], caplog: pytest.LogCaptureFixture,
        game: str) -> None:
    """Each move's game is pickled to the bot process (a Pasur hand once could not be)."""
    client = make_client(bot_processes=1)
    seated = create(client, game=game, seats=["bot:greedy", "bot:greedy"])
    with caplog.at_level(logging.WARNING, logger="cardtable.server"), \
            connect(client, seated["table"]) as ws:
        watcher = Player(ws)
        state = watcher.state()
        while state["version"] < 8 and not state["over"]:
            state = watcher.state(timeout=60)
    assert not [r for r in caplog.records if "random move" in r.getMessage()], (
        "a bot process failed and a random move was played instead")
