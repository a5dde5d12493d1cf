"""The web table's HTTP API: lobby, tables, seats, records, history, health."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from tablekit import Player, connect, create, play_out

from cardtable import bots, games, records
from cardtable.game import rule_options
from cardtable.server.store.storage import hash_token

GAMES = ["pasur", "durak"]


def table_count(client: TestClient) -> int:
    return client.get("/api/health").json()["tables"]


def test_health_answers_and_counts_tables(client: TestClient) -> None:
    before = client.get("/api/health").json()
    assert before["status"] == "ok" and before["tables"] == 0
    create(client, game="durak", seats=["human", "bot:random"])
    after = client.get("/api/health").json()
    assert after["tables"] == 1 and after["live"] == 1


def test_openapi_describes_every_endpoint(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    paths = schema["paths"]
    for path, method in [("/api/tables", "post"), ("/api/tables", "get"),
                         ("/api/tables/{table_id}", "get"),
                         ("/api/tables/{table_id}/join", "post"),
                         ("/api/tables/{table_id}/record", "get"),
                         ("/api/tables/{table_id}/replay", "get"), ("/api/games", "get"),
                         ("/api/history", "get"), ("/api/health", "get")]:
        assert method in paths[path], f"{method.upper()} {path} is missing"
    create_body = schema["components"]["schemas"]["CreateTable"]["properties"]
    assert {"game", "preset", "options", "players", "seats", "takeover"} <= set(create_body)


def test_games_list_presets_player_counts_and_every_rule_option_with_its_doc(
        client: TestClient) -> None:
    listed = {game["name"]: game for game in client.get("/api/games").json()}
    assert sorted(listed) == sorted(GAMES)
    for name, game in listed.items():
        spec = games.get(name)
        assert game["default_preset"] == spec.default_preset
        assert set(game["presets"]) == set(spec.presets)
        assert game["player_counts"] == list(spec.player_counts)
        options = {option["name"]: option for option in game["options"]}
        assert list(options) == [o.name for o in rule_options(spec.rules_type)]
        assert all(option["doc"] for option in options.values()), "an option has no doc"
        # the bots a table here may seat: the engine's kinds and every named level
        assert set(bots.LEVELS) | {"random", "basic", "greedy", "ismcts"} == set(game["bots"])


def test_the_creator_takes_the_first_human_seat(client: TestClient) -> None:
    seated = create(client, game="durak", seats=["bot:random", "human", "human"])
    assert seated["seat"] == 1
    assert len(seated["token"]) >= 32
    assert seated["invite"] == f"/table/{seated['table']}"
    info = client.get(f"/api/tables/{seated['table']}").json()
    assert info["status"] == "waiting"
    assert [s["taken"] for s in info["seats"]] == [True, True, False]
    assert info["free_seats"] == 1


def test_joining_takes_the_next_free_seat_and_a_full_table_refuses_with_a_reason(
        client: TestClient) -> None:
    seated = create(client, game="durak", seats=["human", "human", "bot:random"], name="Ana")
    joined = client.post(f"/api/tables/{seated['table']}/join", json={"name": "Bo"})
    assert joined.status_code == 200, joined.text
    assert joined.json()["seat"] == 1
    assert joined.json()["token"] != seated["token"]
    info = client.get(f"/api/tables/{seated['table']}").json()
    assert info["status"] == "playing"
    assert [s["name"] for s in info["seats"]] == ["Ana", "Bo", None]
    full = client.post(f"/api/tables/{seated['table']}/join")
    assert full.status_code == 409
    assert "taken" in full.json()["detail"]


def test_joining_a_table_that_does_not_exist_is_404(client: TestClient) -> None:
    response = client.post("/api/tables/nosuchtable/join")
    assert response.status_code == 404
    assert "no table" in response.json()["detail"]
    assert client.get("/api/tables/nosuchtable").status_code == 404
    assert client.get("/api/tables/nosuchtable/record").status_code == 404


def test_a_table_of_bots_only_is_for_watching_and_plays_itself(client: TestClient) -> None:
    seated = create(client, game="durak", seats=["bot:random", "bot:random"])
    assert seated["seat"] is None and seated["token"] is None
    with connect(client, seated["table"]) as ws:
        watcher = Player(ws)
        state = watcher.state()
        while not state["over"]:
            assert state["legal_moves"] == []
            state = watcher.state()
    assert client.get(f"/api/tables/{seated['table']}").json()["status"] == "over"


def test_open_tables_are_listed_with_seats_and_invite_but_never_tokens(
        client: TestClient, tmp_path: Path) -> None:
    waiting = create(client, game="durak", seats=["human", "human"])
    playing = create(client, game="durak", seats=["human", "bot:random"])
    listing = client.get("/api/tables")
    assert listing.status_code == 200
    by_id = {table["id"]: table for table in listing.json()}
    assert set(by_id) == {waiting["table"], playing["table"]}
    assert by_id[waiting["table"]]["status"] == "waiting"
    assert by_id[waiting["table"]]["free_seats"] == 1
    assert by_id[waiting["table"]]["taken"] == 1
    assert by_id[waiting["table"]]["invite"] == f"/table/{waiting['table']}"
    assert by_id[playing["table"]]["status"] == "playing"
    texts = [listing.text, client.get(f"/api/tables/{waiting['table']}").text,
             client.get(f"/api/tables/{playing['table']}").text]
    for token in (waiting["token"], playing["token"]):
        for text in texts:
            assert token not in text and hash_token(token) not in text
    # only the hash is stored
    with sqlite3.connect(tmp_path / "data" / "cardtable.sqlite3") as db:
        stored = [row[0] for row in db.execute("select token_hash from seats")]
    assert waiting["token"] not in stored and hash_token(waiting["token"]) in stored


def test_the_record_is_refused_before_the_end_and_replays_after_it(client: TestClient) -> None:
    seated = create(client, game="durak", seats=["human", "bot:random"])
    early = client.get(f"/api/tables/{seated['table']}/record")
    assert early.status_code == 409
    assert "not over" in early.json()["detail"]
    with connect(client, seated["table"], seated["token"]) as ws:
        final = play_out(Player(ws), random.Random(1))
    response = client.get(f"/api/tables/{seated['table']}/record")
    assert response.status_code == 200
    record = records.loads(response.text)
    assert record.game == "durak" and record.players == 2
    assert [seat["kind"] for seat in record.seats] == ["human", "bot"]
    assert len(record.moves) == final["version"]
    state = record.replay()  # checks the stored result too
    assert state.is_over()
    assert record.result == final["summary"]


def test_history_lists_finished_games_with_their_record(client: TestClient) -> None:
    seated = create(client, game="durak", seats=["bot:random", "bot:random"])
    unfinished = create(client, game="durak", seats=["human", "human"])
    with connect(client, seated["table"]) as ws:
        watcher = Player(ws)
        while not watcher.state()["over"]:
            pass
    history = client.get("/api/history").json()
    assert [entry["id"] for entry in history] == [seated["table"]]
    assert history[0]["record"] == f"/api/tables/{seated['table']}/record"
    assert history[0]["summary"]["over"] is True
    assert unfinished["table"] not in {t["id"] for t in history}
    assert seated["table"] not in {t["id"] for t in client.get("/api/tables").json()}


MALFORMED = [
    ({"game": "chess"}, "no game"),
    ({"game": "durak", "preset": "nonsense"}, "no preset"),
    ({"game": "durak", "options": {"no_such_option": True}}, "unknown rule option"),
    ({"game": "durak", "players": 9}, "players"),
    ({"game": "pasur", "preset": "standard", "players": 4}, "the standard rules are for 2"),
    ({"game": "durak", "players": "two"}, "players"),
    ({"game": "durak", "players": 2, "seats": ["human"]}, "seats"),
    ({"game": "durak", "players": 2, "seats": ["human", "bot:no_such_bot"]}, "no bot"),
    ({"game": "durak", "seats": ["human", "robot"]}, "human"),
    ({"game": "durak", "seats": ["human", 7]}, "seats"),
    ({"game": "durak", "takeover": "human"}, "takeover"),
    ({"game": "durak", "takeover": "bot:no_such_bot"}, "no bot"),
    ({"game": "durak", "colour": "red"}, "colour"),
    ({"preset": "transfer"}, "game"),
    ({"game": "durak", "name": "x" * 100}, "name"),
]


@pytest.mark.parametrize(("body", "said"), MALFORMED,
                         ids=[f"{i}-{said}" for i, (_, said) in enumerate(MALFORMED)])
def test_a_malformed_new_table_is_refused_with_a_reason_and_creates_nothing(
        client: TestClient, body: dict, said: str) -> None:
    response = client.post("/api/tables", json=body)
    assert response.status_code in (400, 422), response.text
    detail = response.json()["detail"]
    assert isinstance(detail, str) and said in detail, detail
    assert table_count(client) == 0
    assert client.get("/api/tables").json() == []


def test_a_bad_option_value_is_refused_with_the_option_named(client: TestClient) -> None:
    option = next(o for o in rule_options(games.get("durak").rules_type)
                  if isinstance(o.default, bool))
    response = client.post("/api/tables", json={"game": "durak",
                                                "options": {option.name: "maybe"}})
    assert response.status_code == 422
    assert option.name in response.json()["detail"]
    assert table_count(client) == 0


def test_a_body_that_is_not_json_is_refused(client: TestClient) -> None:
    response = client.post("/api/tables", content=b"{not json",
                           headers={"content-type": "application/json"})
    assert response.status_code == 422
    assert isinstance(response.json()["detail"], str)
    assert table_count(client) == 0
