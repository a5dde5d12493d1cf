"""The move log a page rebuilds from (GET /api/tables/{id}/log): every move so far, with
the public table after it, the same as the states the table's sockets were sent, and no
card a watcher could not see."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tablekit import Player, connect, create, ticking


def _seats_and_play(client: TestClient, game: str, moves: int,
                    watch: bool = False) -> tuple[str, list[dict]]:
    """A table of one person and a bot, played ``moves`` of the person's moves; the states
    the person's socket was sent (or, with ``watch``, a watcher's)."""
    made = create(client, game=game, seats=["human", "bot:random"])
    rng = random.Random(4)
    with connect(client, made["table"], made["token"]) as ws, \
            connect(client, made["table"]) as watching:
        player, watcher = Player(ws), Player(watching)
        state = player.state()
        played = 0
        while played < moves and not state["over"]:
            if state["legal_moves"]:
                player.move(state, rng.choice(state["legal_moves"]))
                played += 1
                state = player.state(state["version"] + 1)
            else:
                state = player.state()
        # the bot's answer to the last move, if it is the bot's turn
        while not state["over"] and state["to_move"] != made["seat"]:
            state = player.state()
        watcher.catch_up(state["version"])
    return made["table"], watcher.states if watch else player.states


@pytest.mark.parametrize("game", ["pasur", "durak"])
def test_the_log_holds_every_move_as_the_sockets_were_told_it(client: TestClient,
                                                               game: str) -> None:
    table, states = _seats_and_play(client, game, 12, watch=True)
    answer = client.get(f"/api/tables/{table}/log")
    assert answer.status_code == 200, answer.text
    log = answer.json()
    assert log["version"] == states[-1]["version"] == len(log["steps"])
    assert [step["index"] for step in log["steps"]] == list(range(log["version"]))
    told = {s["last_move"]["index"]: s["last_move"] for s in states if s["last_move"]}
    for step in log["steps"]:
        if step["index"] in told:   # a socket is sent every state after it connects
            assert {k: step[k] for k in ("index", "seat", "move")} == told[step["index"]]
    # what the watcher was sent after each move
    views = {s["version"]: s["view"] for s in states}
    compared = [step for step in log["steps"] if step["index"] + 1 in views]
    assert len(compared) >= 12
    for step in compared:
        assert step["view"] == views[step["index"] + 1], step["index"]


def test_the_log_shows_no_hand_and_no_stock(client: TestClient) -> None:
    table, _ = _seats_and_play(client, "durak", 6)
    log = client.get(f"/api/tables/{table}/log").json()
    for view in [step["view"] for step in log["steps"]] + [log["deal"]]:
        assert view["hand"] is None
        assert isinstance(view["stock"], int)   # how many cards, not which
    assert "seed" not in str(log) and "deck" not in str(log)


def test_moves_taken_back_leave_the_log(client: TestClient) -> None:
    made = create(client, game="pasur", seats=["human", "bot:random"])
    with connect(client, made["table"], made["token"]) as ws:
        player = Player(ws)
        state = player.state()
        for _ in range(3):
            while state["to_move"] != made["seat"]:
                state = player.state()
            player.move(state, state["legal_moves"][0])
            state = player.state(state["version"] + 1)
        before = client.get(f"/api/tables/{made['table']}/log").json()
        while state["to_move"] != made["seat"]:
            state = player.state()
        player.send({"type": "undo"})
        undone = player.state()
        after = client.get(f"/api/tables/{made['table']}/log").json()
    assert undone["version"] < state["version"]
    assert after["version"] == undone["version"] == len(after["steps"])
    assert after["steps"] == before["steps"][:after["version"]]


def test_a_table_nobody_has_moved_at_has_an_empty_log(client: TestClient) -> None:
    made = create(client, game="durak", seats=["human", "human"])
    log = client.get(f"/api/tables/{made['table']}/log").json()
    assert (log["version"], log["steps"]) == (0, [])
    assert log["deal"]["table"] == []


def test_the_log_of_no_table_is_a_clear_404(client: TestClient) -> None:
    answer = client.get("/api/tables/nosuchtable/log")
    assert answer.status_code == 404
    assert answer.json()["code"] == "not_found"


def _my_turn(player: Player, state: dict, seat: int) -> dict:
    """The first state from ``state`` on in which ``seat`` has a move to make."""
    while state["to_move"] != seat or not state["legal_moves"]:
        assert not state["over"]
        state = player.state()
    return state


def test_a_timed_out_seats_bot_moves_are_marked_in_the_log_and_after_a_restart(
        make_client: Any, clock: Any) -> None:
    """a move the takeover bot made for a person whose time ran out
    comes back from the log marked ``takeover`` (the page says "Bot for NAME"), the
    person's own move and the bot seat's moves unmarked, and so after a restart too."""
    client = make_client()
    made = create(client, game="durak", seats=["human", "bot:random"],
                  takeover="bot:random", clock={"move": 1, "bank": 0})
    table, seat = made["table"], made["seat"]
    with connect(client, table, made["token"]) as ws:
        me = Player(ws)
        state = _my_turn(me, me.state(), seat)
        me.move(state, state["legal_moves"][0])   # in time: the fake clock stands still
        own = state["version"]
        state = _my_turn(me, me.state(own + 1), seat)
        timed_out = state["version"]
        with ticking(clock, 0.5):   # the seat's second runs out: the bot moves for it
            while state["version"] <= timed_out:
                state = me.state()
    steps = client.get(f"/api/tables/{table}/log").json()["steps"]
    assert (steps[own]["seat"], steps[own]["takeover"]) == (seat, False)
    assert (steps[timed_out]["seat"], steps[timed_out]["takeover"]) == (seat, True)
    marked = [step["index"] for step in steps if step["takeover"]]
    assert timed_out in marked and own not in marked
    assert all(steps[index]["seat"] == seat for index in marked)   # never the bot's seat
    stored = client.app.state.storage.load(table).moves
    assert [move.index for move in stored if move.takeover] == marked
    client.__exit__(None, None, None)
    again = make_client()   # a restart: the table is rebuilt from the stored moves
    assert [step["takeover"] for step in again.get(f"/api/tables/{table}/log").json()[
        "steps"]][:len(steps)] == [step["takeover"] for step in steps]
