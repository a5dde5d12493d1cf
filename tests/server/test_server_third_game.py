"""The web table plays a game it was never told about: High Card (``tests/highcard.py``),
registered by a fixture, through the HTTP API and the WebSocket, with no other change."""

from __future__ import annotations

import random

from fastapi.testclient import TestClient
from tablekit import Player, cards_in, connect, create, play_out

from cardtable import records


def test_the_lobby_offers_it_with_its_presets(highcard, client: TestClient) -> None:
    listed = {g["name"]: g for g in client.get("/api/games").json()}
    assert listed["highcard"]["title"] == "High Card"
    assert set(listed["highcard"]["presets"]) >= {"plain", "quick"}


def test_a_table_of_it_is_played_to_the_end_over_the_websocket(
        highcard, client: TestClient) -> None:
    seated = create(client, game="highcard", players=2, seats=["human", "bot:random"])
    with connect(client, seated["table"], seated["token"]) as ws:
        player = Player(ws)
        final = play_out(player, random.Random(3))
    assert final["over"] and final["status"] == "over"
    assert final["summary"]["over"] is True and sum(final["summary"]["tricks"]) == 3
    record = records.loads(client.get(f"/api/tables/{seated['table']}/record").text)
    assert record.game == "highcard" and record.replay(check=True).is_over()
    # seat 0 was told of its own cards and of the cards played, never of another hand
    dealt_to_seat_0 = set(player.states[0]["view"]["hand"])
    named = set().union(*(cards_in(text) for text in player.texts))
    assert named <= dealt_to_seat_0 | set(record.moves)
    assert set(record.decks[0]) - dealt_to_seat_0 - set(record.moves)   # hidden cards exist


def test_a_wrong_move_at_its_table_is_refused_and_changes_nothing(
        highcard, client: TestClient) -> None:
    seated = create(client, game="highcard", players=2, seats=["human", "bot:random"])
    with connect(client, seated["table"], seated["token"]) as ws:
        player = Player(ws)
        state = player.state()
        player.move(state, "not a card")
        error = player.next_of("error")
        assert "not a card" in error["reason"]
        player.move(state, state["legal_moves"][0])
        after = player.state(state["version"] + 1)
        assert after["version"] == state["version"] + 1
