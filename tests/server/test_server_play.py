"""Live play over the WebSocket: whole games, hidden information, refused messages."""

from __future__ import annotations

import json
import random
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tablekit import (
    Player,
    cards_in,
    connect,
    create,
    play_out,
    play_together,
    ticking,
    two_people,
    with_bots,
)

from cardtable import bots, games, records
from cardtable.cards import pack
from cardtable.server.core.protocol import VIEW_BESIDE
from cardtable.server.core.wire import plain
from cardtable.server.play.tables import Connection, Outbox

GAMES = ["pasur", "durak"]
SHORT = {"pasur": {"target": 11}, "durak": {}}


def moves_stored(tmp_path: Path, table: str) -> int:
    with sqlite3.connect(tmp_path / "data" / "cardtable.sqlite3") as db:
        return db.execute("select count(*) from moves where table_id = ?", (table,)).fetchone()[0]


# -- whole games --------------------------------------------------------------------------

def test_a_durak_game_against_a_bot_is_played_to_the_end(client: TestClient) -> None:
    seated = create(client, game="durak", players=2, seats=["human", "bot:random"])
    with connect(client, seated["table"], seated["token"]) as ws:
        player = Player(ws)
        final = play_out(player, random.Random(7))
    assert final["over"] and final["status"] == "over"
    assert final["to_move"] is None and final["legal_moves"] == []
    assert final["summary"]["over"] is True
    assert final["summary"]["loser"] in (0, 1, None)
    versions = [state["version"] for state in player.states]
    assert versions == sorted(versions), "states arrived out of order"
    assert final["last_move"]["index"] == final["version"] - 1


def test_a_pasur_match_to_a_small_target_is_played_to_the_end(client: TestClient) -> None:
    seated = create(client, game="pasur", options={"target": 11}, seats=["human", "bot:random"])
    info = client.get(f"/api/tables/{seated['table']}").json()
    assert info["rules"]["target"] == 11
    with connect(client, seated["table"], seated["token"]) as ws:
        final = play_out(Player(ws), random.Random(8))
    assert final["over"]
    summary = final["summary"]
    assert max(summary["totals"]) >= 11
    assert summary["winner"] in (0, 1)
    record = records.loads(client.get(f"/api/tables/{seated['table']}/record").text)
    assert len(record.decks) == len(summary["hands"]), "one stored deck per hand played"
    assert record.replay().is_over()


# -- hidden information -------------------------------------------------------------------

def stored_game(client: TestClient, table: str) -> records.Record:
    """The game as the database holds it (the truth the messages are checked against)."""
    stored = client.app.state.storage.load(table)
    return records.Record(game=stored.row.game, rules=stored.row.rules,
                          players=stored.row.players, decks=stored.decks,
                          moves=[row.move for row in stored.moves])


def _views_by_version(record: records.Record, audiences: list[int | None]) -> list[dict]:
    """For each version: every audience's true view, and which deal is being played."""
    spec = record.spec
    out = []
    for _, _, state in record.states():
        out.append({"views": {a: plain(state.view(a)) for a in audiences},
                    "deal": len(spec.deals(state)) - 1})
    return out


def _check_hidden(record: records.Record, texts: dict[int | None, list[str]]) -> int:
    """Every text an audience received names no card hidden from it then; returns how
    many messages were checked.

    Hidden from an audience at a version: the cards another seat sees and it does not,
    and the cards nobody sees (the stock) that it has not seen in this deal, in its view
    or played in a move.  A state's ``last_move`` must be the record's move before it and
    is public whatever it names: at the start of a new hand it is the last move of the hand
    before, whose cards may lie in another hand now (found by a Pasur match that went to
    a second hand: "J♦ x A♦ 6♦ 7♦" with 6♦ dealt again to the other seat).
    """
    seats = list(range(record.players))
    truth = _views_by_version(record, [*seats, None])
    checked = 0
    for audience, received in texts.items():
        seen: set[str] = set()
        deal = 0
        version = 0
        for text in received:
            message = json.loads(text)
            if message["type"] == "state":
                version = message["version"]
                now = truth[version]
                last = message.get("last_move")
                assert (last or {}).get("move") == (record.moves[version - 1] if version
                                                    else None), message
                text = json.dumps({**message, "last_move": None}, ensure_ascii=False)
                true_view = now["views"][audience]
                # the view's facts that a state gives beside it are there, not in it
                assert message["to_move"] == true_view["to_move"]
                assert message["seat"] == true_view["seat"]
                assert message["view"] == {key: value for key, value in true_view.items()
                                           if key not in VIEW_BESIDE}, (
                    f"audience {audience} at version {version} was not sent its own view")
            now = truth[version]
            if now["deal"] != deal:
                deal, seen = now["deal"], set()
            own = cards_in(json.dumps(now["views"][audience], ensure_ascii=False))
            seen |= own
            if version:  # every move of both games is played face up, the last one too
                seen |= cards_in(record.moves[version - 1])
            others = set()
            for other in seats:
                if other != audience:
                    others |= cards_in(json.dumps(now["views"][other], ensure_ascii=False))
            everyone = others | own | cards_in(json.dumps(now["views"][None],
                                                          ensure_ascii=False))
            unseen = set(record.decks[deal]) - everyone - seen
            forbidden = (others - own) | unseen
            leaked = cards_in(text) & forbidden
            assert not leaked, (f"audience {audience} was sent {sorted(leaked)} at version "
                                f"{version}: {text[:300]}")
            checked += 1
    return checked


@pytest.mark.parametrize("game", GAMES)
def test_no_seat_and_no_watcher_is_ever_sent_a_card_hidden_from_it(
        client: TestClient, game: str) -> None:
    seated = create(client, game=game, options=SHORT[game], seats=["human", "bot:random"])
    with connect(client, seated["table"], seated["token"]) as ws_seat, \
            connect(client, seated["table"]) as ws_watch:
        seat, watcher = Player(ws_seat), Player(ws_watch)
        final = play_together({0: seat}, [watcher], random.Random(3))
        assert final["over"]
        for state in watcher.states:
            assert state["legal_moves"] == []
            assert state["view"].get("hand") in (None, [])
        for state in seat.states:
            if state["legal_moves"]:
                assert state["to_move"] == 0
    checked = _check_hidden(stored_game(client, seated["table"]),
                            {0: seat.texts, None: watcher.texts})
    assert checked >= 2 * final["version"]


def test_three_durak_players_each_see_only_their_own_hand(client: TestClient) -> None:
    seated = create(client, game="durak", players=3, seats=["human", "human", "bot:random"])
    joined = client.post(f"/api/tables/{seated['table']}/join").json()
    with connect(client, seated["table"], seated["token"]) as ws0, \
            connect(client, seated["table"], joined["token"]) as ws1, \
            connect(client, seated["table"]) as ws_watch:
        players = {0: Player(ws0), 1: Player(ws1)}
        watcher = Player(ws_watch)
        final = play_together(players, [watcher], random.Random(5))
    assert final["over"]
    _check_hidden(stored_game(client, seated["table"]),
                  {0: players[0].texts, 1: players[1].texts, None: watcher.texts})


def test_the_decks_are_not_shown_before_the_end(client: TestClient) -> None:
    seated = create(client, game="durak", seats=["human", "bot:random"])
    table = seated["table"]
    with connect(client, table, seated["token"]) as ws:
        first = Player(ws).state()
    info = client.get(f"/api/tables/{table}")
    listing = client.get("/api/tables")
    hidden = set()
    with sqlite3.connect(Path(client.app.state.storage.engine.url.database)) as db:
        deck = json.loads(db.execute("select cards from deals where table_id = ?",
                                     (table,)).fetchone()[0])
    hidden = set(deck) - cards_in(json.dumps(first["view"], ensure_ascii=False))
    assert len(hidden) > 20
    for text in (info.text, listing.text):
        assert not cards_in(text) & hidden
    assert client.get(f"/api/tables/{table}/record").status_code == 409


# -- refused messages -----------------------------------------------------------------------

def _refused(player: Player, message: dict | str | bytes) -> tuple[dict, dict]:
    """Send a message that must be refused: the error, then the fresh state after it."""
    if isinstance(message, bytes):
        player.ws.send_bytes(message)
    else:
        player.send(message)
    error = player.next_of("error")
    state = player.receive()
    return error, state


def _settled(players: list[Player]) -> None:
    """Read until each player has been told that every connection is in."""
    for player in players:
        while not player.states or not all(
                s["connected"] for s in player.states[-1]["seats"] if s["kind"] == "human"):
            player.state()


def test_refused_messages_get_a_reason_and_a_fresh_state_and_change_nothing(
        client: TestClient, tmp_path: Path) -> None:
    seated, joined = two_people(client)
    table = seated["table"]
    with connect(client, table, seated["token"]) as ws0, \
            connect(client, table, joined["token"]) as ws1, connect(client, table) as wsw:
        players = {0: Player(ws0), 1: Player(ws1)}
        watcher = Player(wsw)
        _settled([*players.values(), watcher])
        states = {seat: p.states[-1] for seat, p in players.items()}
        mover = states[0]["to_move"]
        other = 1 - mover
        before = states[mover]
        good = before["legal_moves"][0]
        cases = [
            (players[mover], {"type": "move", "version": before["version"] + 3, "move": good},
             "version"),
            (players[mover], {"type": "move", "version": before["version"] - 1, "move": good},
             "version"),
            (players[other], {"type": "move", "version": before["version"], "move": good},
             "not your turn"),
            (players[mover], {"type": "move", "version": before["version"], "move": "xyzzy"},
             "xyzzy"),
            (players[mover], {"type": "move", "version": before["version"],
                              "move": "take"}, "take"),
            (players[mover], "{not json", "not JSON"),
            (players[mover], b"\xff\xfe", "not JSON"),
            (players[mover], "[1, 2]", "type"),
            (players[mover], {"type": "move", "move": good}, "version"),
            (players[mover], {"type": "move", "version": "0", "move": good}, "version"),
            (players[mover], {"type": "move", "version": before["version"]}, "move"),
            (players[mover], {"type": "move", "version": before["version"], "move": 5}, "move"),
            (players[mover], {"type": "dance"}, "unknown message type"),
            (players[mover], {"type": "rematch"}, "over"),
            (watcher, {"type": "move", "version": before["version"], "move": good}, "watching"),
        ]
        for player, message, said in cases:
            error, state = _refused(player, message)
            assert error["type"] == "error" and said in error["reason"], (message, error)
            assert state["type"] == "state"
            assert state["version"] == before["version"]
            if player is players[mover]:
                assert state["view"] == before["view"]
                assert state["legal_moves"] == before["legal_moves"]
        assert moves_stored(tmp_path, table) == 0
        # the table still plays: the right move at the right version goes through
        players[mover].move(before, good)
        assert players[other].state(1)["last_move"]["move"] == good
        assert moves_stored(tmp_path, table) == 1


def test_an_illegal_move_is_refused_with_the_rules_reason(client: TestClient) -> None:
    seated = create(client, game="durak", seats=["human", "bot:random"])
    with connect(client, seated["table"], seated["token"]) as ws:
        player = Player(ws)
        state = player.state()
        while not state["legal_moves"]:
            state = player.state()
        hand = set(state["view"]["hand"])
        stranger = next(card.text for card in pack(36) if card.text not in hand)
        error, after = _refused(player, {"type": "move", "version": state["version"],
                                         "move": f"attack {stranger}"})
        assert error["type"] == "error" and stranger in error["reason"]
        assert after["version"] == state["version"] and after["view"] == state["view"]


# -- persistence before broadcast -------------------------------------------------------------

def test_every_move_is_stored_before_anyone_hears_of_it(client: TestClient,
                                                        tmp_path: Path) -> None:
    seated = create(client, game="durak", seats=["human", "bot:random"])
    table = seated["table"]
    with connect(client, table, seated["token"]) as ws:
        player = Player(ws)
        rng = random.Random(11)
        state = player.state()
        while not state["over"]:
            assert moves_stored(tmp_path, table) >= state["version"]
            if state["legal_moves"]:
                player.move(state, rng.choice(state["legal_moves"]))
                state = player.state(state["version"] + 1)
            else:
                state = player.state()
        assert moves_stored(tmp_path, table) == state["version"]


def test_a_move_that_cannot_be_stored_is_taken_back_and_never_broadcast(
        client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seated, joined = two_people(client)
    table = seated["table"]
    storage = client.app.state.storage
    working = storage.append_move

    def broken(*args: object, **kwargs: object) -> str:
        raise OSError("disk full")

    with connect(client, table, seated["token"]) as ws0, \
            connect(client, table, joined["token"]) as ws1:
        players = {0: Player(ws0), 1: Player(ws1)}
        _settled(list(players.values()))
        mover = players[0].states[-1]["to_move"]
        before = players[mover].states[-1]
        monkeypatch.setattr(storage, "append_move", broken)
        monkeypatch.setattr(storage, "append_moves", broken)   # the group commit
        error, state = _refused(players[mover], {"type": "move", "version": before["version"],
                                                 "move": before["legal_moves"][0]})
        assert "could not be saved" in error["reason"]
        assert state["version"] == before["version"] and state["view"] == before["view"]
        assert moves_stored(tmp_path, table) == 0
        monkeypatch.setattr(storage, "append_move", working)
        monkeypatch.undo()
        players[mover].move(before, before["legal_moves"][0])
        other = players[1 - mover]
        assert other.state(1)["version"] == 1
        versions = [s["version"] for s in other.states]
        assert versions == sorted(versions) and versions.count(1) == 1, (
            "the other seat heard of the move that was not stored")
        assert moves_stored(tmp_path, table) == 1
    assert client.get(f"/api/tables/{table}").json()["version"] == 1


# -- seats: reconnect, takeover, rematch ---------------------------------------------------

def test_a_dropped_player_comes_back_with_the_token_to_the_same_seat_and_hand(
        client: TestClient) -> None:
    seated = create(client, game="durak", seats=["human", "bot:random"])
    with connect(client, seated["table"], seated["token"]) as ws:
        player = Player(ws)
        state = player.state()
        while not state["legal_moves"]:
            state = player.state()
        player.move(state, state["legal_moves"][0])
        state = player.state(state["version"] + 1)
        while not state["legal_moves"] and not state["over"]:
            state = player.state()
    with connect(client, seated["table"], seated["token"]) as ws:
        again = Player(ws).state()
    assert again["seat"] == 0
    assert again["version"] == state["version"]
    assert again["view"] == state["view"]
    assert again["legal_moves"] == state["legal_moves"]


def test_a_takeover_bot_plays_for_a_player_gone_past_the_grace_period(
        make_client: Any, clock: Any) -> None:
    client = make_client(grace=30)
    seated = create(client, game="durak", seats=["human", "human"], takeover="bot:random")
    joined = client.post(f"/api/tables/{seated['table']}/join").json()
    with connect(client, seated["table"], joined["token"]) as ws1:
        Player(ws1).state()
    # seat 1 has left; seat 0 plays on alone and the bot answers for seat 1
    with connect(client, seated["table"], seated["token"]) as ws0:
        player = Player(ws0)
        state = player.state()
        with ticking(clock, 5):
            while not state["seats"][1]["bot_playing"]:
                state = player.state()
        final = play_out(player, random.Random(4), state)
    assert final["over"]
    assert any(s["last_move"] and s["last_move"]["seat"] == 1 for s in player.states)
    assert client.get(f"/api/tables/{seated['table']}").json()["takeover"] == "random"


def test_a_player_back_from_a_takeover_gets_the_seat_back(make_client: Any,
                                                         clock: Any) -> None:
    client = make_client(grace=30)
    seated = create(client, game="durak", seats=["human", "human"], takeover="bot:random")
    joined = client.post(f"/api/tables/{seated['table']}/join").json()
    with connect(client, seated["table"], joined["token"]) as ws1:
        Player(ws1).state()
    with connect(client, seated["table"], seated["token"]) as ws0:
        watcher0 = Player(ws0)
        state = watcher0.state()
        with ticking(clock, 5):
            while not state["seats"][1]["bot_playing"]:
                state = watcher0.state()
        with connect(client, seated["table"], joined["token"]) as ws1:
            back = Player(ws1)
            state = back.state()
            while state["seats"][1]["bot_playing"] or not state["seats"][1]["connected"]:
                state = back.state()
            assert state["seat"] == 1


def test_a_rematch_keeps_the_seats_and_the_tokens(client: TestClient) -> None:
    seated = create(client, game="durak", seats=["human", "bot:random"], name="Ana")
    old = seated["table"]
    with connect(client, old, seated["token"]) as ws:
        player = Player(ws)
        play_out(player, random.Random(9))
        player.send({"type": "rematch"})
        notice = player.next_of("rematch")
        new = notice["table"]
        assert new != old and notice["seat"] == 0
        assert player.state()["rematch"] == new
        player.send({"type": "rematch"})
        assert player.next_of("rematch")["table"] == new, "a second ask gives the same table"
    info = client.get(f"/api/tables/{new}").json()
    assert info["rematch_of"] == old and info["status"] == "playing"
    assert info["rules"] == client.get(f"/api/tables/{old}").json()["rules"]
    assert [(s["kind"], s["bot"], s["name"]) for s in info["seats"]] == [
        ("human", None, "Ana"), ("bot", "random", None)]
    with connect(client, new, seated["token"]) as ws:
        first = Player(ws).state()
    assert first["seat"] == 0 and first["table"] == new and not first["over"]


def test_a_rematch_between_people_is_an_offer_the_other_accepts_or_declines(
        client: TestClient) -> None:
    seated, joined = two_people(client)
    table = seated["table"]
    with connect(client, table, seated["token"]) as ws0, \
            connect(client, table, joined["token"]) as ws1:
        first, second = Player(ws0), Player(ws1)
        first.state(), second.state()
        assert client.post(f"/api/tables/{table}/resign",
                           json={"token": joined["token"]}).status_code == 200
        for player in (first, second):
            while not player.state()["over"]:
                pass
        # an offer moves nobody: both see who offered it
        first.send({"type": "rematch"})
        assert first.state()["rematch_asked"] == [0]
        offered = second.state()
        assert offered["rematch_asked"] == [0] and offered["rematch"] is None
        # declined: withdrawn, and both are told who said no
        second.send({"type": "decline_rematch"})
        assert first.next_of("rematch_declined")["seat"] == 1
        assert second.next_of("rematch_declined")["seat"] == 1
        assert first.state().get("rematch_asked") is None
        assert client.get(f"/api/tables/{table}").json()["rematch"] is None
        # offered again and accepted: the new table, each told their own seat
        first.send({"type": "rematch"})
        while second.state().get("rematch_asked") != [0]:
            pass   # the state the decline sent comes first
        second.send({"type": "rematch"})
        made = [first.next_of("rematch"), second.next_of("rematch")]
    assert made[0]["table"] == made[1]["table"] != table
    assert [m["seat"] for m in made] == [0, 1]
    assert client.get(f"/api/tables/{made[0]['table']}").json()["rematch_of"] == table


def test_declining_before_the_end_or_as_a_watcher_is_refused(client: TestClient) -> None:
    seated = create(client, game="durak", seats=["human", "bot:random"])
    with connect(client, seated["table"], seated["token"]) as ws:
        player = Player(ws)
        player.state()
        player.send({"type": "decline_rematch"})
        assert player.next_of("error")["code"] == "rematch_not_over"


# -- the table keeps going ---------------------------------------------------------------------

def test_a_connection_that_never_reads_does_not_hold_up_the_table(client: TestClient) -> None:
    tables = client.app.state.tables
    for attempt in range(8):
        # the server deals with its own secret seed: play until a game outlasts the queue
        seated = create(client, game="durak", seats=["human", "bot:random"])
        live = client.portal.call(tables.get, seated["table"])
        stuck = Connection(seat=None, outbox=Outbox(tables.settings.queue_limit))
        client.portal.call(tables.connect, live, stuck)
        with connect(client, seated["table"], seated["token"]) as ws:
            final = play_out(Player(ws), random.Random(12 + attempt))
        if final["version"] > tables.settings.queue_limit:
            break
    assert final["version"] > tables.settings.queue_limit, "every game was too short to tell"
    assert len(stuck.outbox.items) <= tables.settings.queue_limit
    newest = json.loads(stuck.outbox.items[-1][1])
    assert newest["version"] == final["version"] and newest["over"]


def test_an_outbox_drops_the_oldest_state_first_and_keeps_other_messages() -> None:
    outbox = Outbox(3)
    outbox.put("error", "e")
    for n in range(5):
        outbox.put("state", f"s{n}")
    assert [text for _, text in outbox.items] == ["e", "s3", "s4"]
    assert outbox.dropped == 3


def test_a_thinking_bot_does_not_block_the_server_and_is_cut_off_at_its_limit(
        make_client: object, monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()
    thinking = threading.Event()

    class Slow:
        """Thinks until the test lets it go."""

        name = "slow"

        def __init__(self, *, seed: object = None) -> None:
            pass

        def choose(self, state: object) -> object:
            thinking.set()
            release.wait(30)
            return state.legal_moves()[0]

    monkeypatch.setitem(bots._FACTORIES, "slow", Slow)
    try:
        client = make_client(bot_time_limit=0.5, **with_bots("slow"))
        seated = create(client, game="durak", seats=["bot:slow", "bot:random"])
        assert thinking.wait(10)
        assert client.get("/api/health").json()["status"] == "ok"  # the loop still answers
        with connect(client, seated["table"]) as ws:
            watcher = Player(ws)
            state = watcher.state()
            while state["version"] < 2:
                state = watcher.state()
        assert state["version"] >= 2, "the table went on after the bot's time ran out"
    finally:
        release.set()


def test_the_registry_names_both_games() -> None:
    assert set(GAMES) <= set(games.names())


# -- connecting -------------------------------------------------------------------------------

def test_connecting_to_a_table_that_does_not_exist_says_so(client: TestClient) -> None:
    with connect(client, "nosuchtable") as ws:
        player = Player(ws)
        error = player.receive()
        assert error["type"] == "error" and "no table" in error["reason"]
        with pytest.raises(ConnectionError, match="4404"):
            player.receive()


def test_a_token_of_another_table_takes_no_seat(client: TestClient) -> None:
    one = create(client, game="durak", seats=["human", "bot:random"])
    other = create(client, game="durak", seats=["human", "bot:random"])
    with connect(client, one["table"], other["token"]) as ws:
        player = Player(ws)
        error = player.receive()
        assert error["type"] == "error" and "no seat" in error["reason"]
        with pytest.raises(ConnectionError, match="4403"):
            player.receive()


def test_a_table_whose_moves_cannot_be_replayed_is_reported_and_the_rest_resume(
        make_client: object, tmp_path: Path) -> None:
    client = make_client()
    good = create(client, game="durak", seats=["human", "human"])
    bad = create(client, game="durak", seats=["human", "human"])
    client.__exit__(None, None, None)
    with sqlite3.connect(tmp_path / "data" / "cardtable.sqlite3") as db:
        db.execute("insert into moves (table_id, \"index\", seat, move, at) "
                   "values (?, 0, 0, 'attack nothing', "
                   "'2026-12-03 15:36:54.026000')", (bad["table"],))   # a time as SQLite keeps it
    client = make_client()
    health = client.get("/api/health").json()
    assert health["broken"] == [bad["table"]]
    response = client.get(f"/api/tables/{bad['table']}")
    assert response.status_code == 503 and "cannot be resumed" in response.json()["detail"]
    assert client.get(f"/api/tables/{good['table']}").json()["status"] == "waiting"


def test_two_copies_of_a_finished_table_asking_for_a_rematch_get_the_same_one(
        client: TestClient) -> None:
    """As when two server processes each hold the finished table: the database decides."""
    seated = create(client, game="durak", seats=["bot:random", "bot:random"])
    with connect(client, seated["table"]) as ws:
        watcher = Player(ws)
        while not watcher.state()["over"]:
            pass
    tables = client.app.state.tables
    stored = tables.storage.load(seated["table"])
    first, second = tables.rebuild(stored), tables.rebuild(stored)
    one = client.portal.call(tables.seating.rematch, first, None)
    two = client.portal.call(tables.seating.rematch, second, None)
    assert one == two
    assert client.get(f"/api/tables/{seated['table']}").json()["rematch"] == one


def test_a_fault_in_the_engine_during_a_move_leaves_the_table_as_stored(
        client: TestClient, tmp_path: Path) -> None:
    seated = create(client, game="durak", seats=["human", "human"])
    joined = client.post(f"/api/tables/{seated['table']}/join").json()
    table = client.portal.call(client.app.state.tables.get, seated["table"])

    class Faulty:
        """The real game, whose push changes the state and then fails."""

        def __init__(self, real: object) -> None:
            self.real = real

        def push(self, move: object) -> None:
            self.real.push(move)
            raise RuntimeError("a bug")

        def __getattr__(self, name: str) -> object:
            return getattr(self.real, name)

    with connect(client, seated["table"], seated["token"]) as ws0, \
            connect(client, seated["table"], joined["token"]) as ws1:
        players = {0: Player(ws0), 1: Player(ws1)}
        _settled(list(players.values()))
        mover = players[0].states[-1]["to_move"]
        before = players[mover].states[-1]
        table.state = Faulty(table.state)
        error, state = _refused(players[mover], {"type": "move", "version": before["version"],
                                                 "move": before["legal_moves"][0]})
        assert "could not play" in error["reason"] and "a bug" in error["reason"]
        assert state["version"] == 0 and state["view"] == before["view"]
        assert state["legal_moves"] == before["legal_moves"]
        assert moves_stored(tmp_path, seated["table"]) == 0
        assert not isinstance(table.state, Faulty)
        players[mover].move(before, before["legal_moves"][0])
        assert players[1 - mover].state(1)["version"] == 1


def test_bots_can_think_in_their_own_processes(make_client: object,
                                               caplog: pytest.LogCaptureFixture) -> None:
    client = make_client(bot_processes=1)
    seated = create(client, game="durak", seats=["human", "bot:greedy"])
    with caplog.at_level("WARNING", logger="cardtable.server"), \
            connect(client, seated["table"], seated["token"]) as ws:
        player = Player(ws)
        final = play_out(player, random.Random(13))
    assert final["over"]
    assert any(s["last_move"] and s["last_move"]["seat"] == 1 for s in player.states)
    assert not [r for r in caplog.records if "random move" in r.getMessage()], (
        "a bot process failed and a random move was played instead")
    assert client.app.state.tables.runner.workers is not None


def test_a_table_asked_for_by_many_while_it_loads_is_loaded_once(client: TestClient) -> None:
    """Sockets that arrive together for a table not in memory (a reconnect wave after a
    restart) share one live table: a first load that fails must not let a later caller load
    a second copy beside the one being loaded, or the players would sit at different
    copies and never see each other's moves."""
    import asyncio
    import time

    from cardtable.server.store.storage import StorageUnavailable

    tables = client.app.state.tables
    made = create(client, game="durak", seats=["human", "human"])
    table_id = made["table"]
    client.portal.call(lambda: tables.leave([table_id]))
    assert table_id not in tables.live
    real_load, calls = tables.storage.load, []

    def load(wanted: str) -> Any:
        calls.append(wanted)
        if len(calls) == 1:
            raise StorageUnavailable("the first load fails")
        time.sleep(0.2)  # a slow database: the late caller arrives meanwhile
        return real_load(wanted)

    async def together() -> list[Any]:
        async def late() -> Any:
            await asyncio.sleep(0.05)
            return await tables.get(table_id)
        return await asyncio.gather(tables.get(table_id), tables.get(table_id),
                                    tables.get(table_id), late(), return_exceptions=True)

    tables.storage.load = load
    try:
        answers = client.portal.call(together)
    finally:
        tables.storage.load = real_load
    assert isinstance(answers[0], StorageUnavailable)
    loaded = answers[1:]
    assert all(table is tables.live[table_id] for table in loaded), answers
    assert calls == [table_id, table_id]
