"""Hint and undo: at a table where every other seat is a bot, and never at a table with
another person (refused there with a code).  A hint explains its move in the asker's
language, with the best moves and their values, and is thought in a bot process."""

from __future__ import annotations

import os
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from tablekit import GatedHint, Player, connect, create, wait_for_file

import cardtable.analysis.hints
from cardtable.server.play import assist


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


def my_turn_with_a_choice(player: Player) -> dict:
    """My turn with two legal moves or more (forced moves played)."""
    state = my_turn(player)
    while len(state["legal_moves"]) < 2:
        player.move(state, state["legal_moves"][0])
        state = player.state(state["version"] + 1)
        state = state if state["legal_moves"] else my_turn(player)
    return state


# words every explanation of the game has, in each language: Pasur's next player's reply,
# Durak's trumps kept
EXPLAINED = [("pasur", "en", "the next player's best reply"),
             ("pasur", "fa", "بهترین پاسخ بازیکن بعدی"),
             ("durak", "ru", "остаётся козырей"),
             ("durak", "pt", "trunfo")]   # "1 trunfo" or "N trunfos"


@pytest.mark.parametrize(("game", "lang", "words"), EXPLAINED,
                         ids=[f"{g}-{lang}" for g, lang, _ in EXPLAINED])
def test_a_hint_explains_its_move_with_the_best_moves_and_their_values_in_my_language(
        client: TestClient, monkeypatch: pytest.MonkeyPatch, game: str, lang: str,
        words: str) -> None:
    def not_here(*args: object, **kwargs: object) -> None:
        raise AssertionError("a hint was thought in the server's own process")

    monkeypatch.setattr(cardtable.analysis.hints, "hint", not_here)
    seated = create(client, game=game, seats=["human", "bot:random"])
    with connect(client, seated["table"], seated["token"]) as ws:
        player = Player(ws)
        state = my_turn_with_a_choice(player)
        player.send({"type": "hint", "lang": lang})
        hint = player.next_of("hint", timeout=120)
    legal = state["legal_moves"]
    assert hint["version"] == state["version"] and hint["move"] in legal
    assert hint["lang"] == lang and hint["level"] == assist.HINT_BOT
    assert words in hint["text"]
    assert hint["unit"] == ("points" if game == "pasur" else "chance of being the durak")
    choices = hint["choices"]
    assert 2 <= len(choices) <= 3
    assert len({c["move"] for c in choices}) == len(choices)
    assert all(c["move"] in legal and isinstance(c["value"], float) and words in c["text"]
               for c in choices)
    chosen = next(c for c in choices if c["move"] == hint["move"])
    assert chosen["text"] == hint["text"]
    # why the judge ranks it first, in my language, and whether it is sure of it
    sentences = {key: re.compile(re.escape(text).replace(r"\{n\}", r"\d+")
                                 .replace(r"\{deals\}", r"\d+"))
                 for key, text in cardtable.analysis.hints._WHY[lang].items()}
    said = next(key for key, sentence in sentences.items() if sentence.fullmatch(hint["why"]))
    assert hint["sure"] is (said != "close")
    # thought in a bot process, not the server's (whose hint function would have failed)
    workers = client.app.state.tables.runner.workers
    assert workers.pids() and os.getpid() not in workers.pids()


def test_a_hint_in_a_language_the_page_does_not_speak_is_refused(client: TestClient) -> None:
    seated = create(client, game="durak", seats=["human", "bot:random"])
    with connect(client, seated["table"], seated["token"]) as ws:
        player = Player(ws)
        my_turn(player)
        for lang in ("de", "", ["en"]):
            player.send({"type": "hint", "lang": lang})
            assert player.next_of("error")["code"] == "bad_message"
        assert not any(m["type"] == "hint" for m in player.messages)


def test_one_hint_at_a_time_for_a_seat(make_client: Callable[..., TestClient],
                                       monkeypatch: pytest.MonkeyPatch,
                                       tmp_path: Path) -> None:
    gate = tmp_path / "gate"
    monkeypatch.setenv("CARDTABLE_TEST_GATE", str(gate))   # the bot processes inherit it
    monkeypatch.setattr(assist, "HintJob", GatedHint)
    client = make_client()
    seated = create(client, game="durak", seats=["human", "bot:random"])
    with connect(client, seated["table"], seated["token"]) as ws:
        player = Player(ws)
        state = my_turn(player)
        player.send({"type": "hint"})
        wait_for_file(Path(str(gate) + ".started"))   # the first is being thought
        player.send({"type": "hint"})
        assert player.next_of("error")["code"] == "hint_thinking"
        gate.touch()
        hint = player.next_of("hint", timeout=120)
        assert hint["move"] in state["legal_moves"]
        player.send({"type": "hint"})   # that one answered: the seat may ask again
        assert player.next_of("hint", timeout=120)["move"] in state["legal_moves"]


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
