"""Hint and undo: at a table where every other seat is a bot, and never at a table with
another person (refused there with a code)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from fastapi.testclient import TestClient
from tablekit import Player, connect, create


def moves_stored(tmp_path: Path, table: str) -> int:
    with sqlite3.connect(tmp_path / "data" / "cardtable.sqlite3") as db:
        return db.execute("select count(*) from moves where table_id = ?",
                          (table,)).fetchone()[0]


def my_turn(player: Player) -> dict:
    state = player.state()
    while not state["legal_moves"]:
        state = player.state()
    return state


def test_a_hint_is_one_of_my_legal_moves_at_a_table_of_bots(client: TestClient) -> None:
    seated = create(client, game="durak", seats=["human", "bot:random"])
    with connect(client, seated["table"], seated["token"]) as ws:
        player = Player(ws)
        state = my_turn(player)
        player.send({"type": "hint"})
        hint = player.next_of("hint")
        assert hint["move"] in state["legal_moves"]
        assert hint["version"] == state["version"]


def test_undo_goes_back_to_my_last_decision_and_forgets_the_stored_moves(
        client: TestClient, tmp_path: Path) -> None:
    seated = create(client, game="pasur", seats=["human", "bot:random"])
    table = seated["table"]
    with connect(client, table, seated["token"]) as ws:
        player = Player(ws)
        before = my_turn(player)
        player.move(before, before["legal_moves"][0])
        after = my_turn(player)   # the bot has answered: my turn again, two moves on
        assert after["version"] == before["version"] + 2
        assert moves_stored(tmp_path, table) == after["version"]
        player.send({"type": "undo"})
        back = player.state()
        while back["version"] != before["version"]:
            back = player.state()
        assert back["view"]["hand"] == before["view"]["hand"]
        assert back["view"]["table"] == before["view"]["table"]
        assert back["legal_moves"] == before["legal_moves"]
        assert moves_stored(tmp_path, table) == before["version"]
        # the game plays on from there
        player.move(back, back["legal_moves"][-1])
        assert my_turn(player)["version"] == before["version"] + 2


def test_nothing_to_undo_before_my_first_move(client: TestClient) -> None:
    for _ in range(20):   # until a deal where this seat leads (the bot has not moved)
        seated = create(client, game="durak", seats=["human", "bot:random"])
        with connect(client, seated["table"], seated["token"]) as ws:
            player = Player(ws)
            state = player.state()
            if state["to_move"] != 0 or state["version"]:
                continue
            player.send({"type": "undo"})
            assert player.next_of("error")["code"] == "nothing_to_undo"
            return
    raise AssertionError("the person never led in 20 deals")


def test_no_hint_and_no_undo_at_a_table_with_another_person(client: TestClient,
                                                            tmp_path: Path) -> None:
    seated = create(client, game="durak", seats=["human", "human"])
    table = seated["table"]
    joined = client.post(f"/api/tables/{table}/join").json()
    tokens = {seated["seat"]: seated["token"], joined["seat"]: joined["token"]}
    with connect(client, table, tokens[0]) as ws0, connect(client, table, tokens[1]) as ws1:
        players = {0: Player(ws0), 1: Player(ws1)}
        state = players[0].state()
        while state["status"] != "playing":
            state = players[0].state()
        me = players[state["to_move"]]
        good = my_turn(me)
        me.move(good, good["legal_moves"][0])
        me.state(good["version"] + 1)
        for kind in ("hint", "undo"):
            me.send({"type": kind})
            error = me.next_of("error")
            assert error["code"] == "not_against_bots", error
        assert moves_stored(tmp_path, table) == good["version"] + 1
        assert not any(m["type"] == "hint" for m in me.messages)


def test_a_watcher_gets_no_hint(client: TestClient) -> None:
    seated = create(client, game="durak", seats=["human", "bot:random"])
    with connect(client, seated["table"]) as ws:
        watcher = Player(ws)
        watcher.state()
        watcher.send({"type": "hint"})
        assert watcher.next_of("error")["code"] == "watching"
