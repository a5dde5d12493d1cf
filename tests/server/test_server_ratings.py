"""Results and ratings: rated only between accounts, counted once, resignations and
forfeits lose, records against bot levels, the profile and the leaderboard; on SQLite and
on PostgreSQL."""

from __future__ import annotations

import random
import time
from types import SimpleNamespace
from typing import Any

from fastapi.testclient import TestClient
from playerkit import app_client, fresh, register
from tablekit import Player, connect, play_out, play_together, run_async

from cardtable.game import Outcome
from cardtable.server.play.results import results_of
from cardtable.server.store.ratings import SeatResult, display, pool_of, rated

__all__ = ["app_client"]   # the fixture


def two_accounts_play(client: TestClient, game: str = "durak", seed: int = 3) -> tuple:
    """darya (seat 0) and anna_k (seat 1) play a whole game of random moves."""
    anna = fresh(client)
    register(client, "darya")
    register(anna, "anna_k")
    made = client.post("/api/tables", json={"game": game, "seats": ["human", "human"],
                                            "rated": True}).json()
    joined = anna.post(f"/api/tables/{made['table']}/join").json()
    with connect(client, made["table"], made["token"]) as ws0, \
            connect(anna, made["table"], joined["token"]) as ws1:
        first = Player(ws0)
        final = play_together({0: first, 1: Player(ws1)}, [], random.Random(seed))
        while "ratings" not in final["summary"]:   # the rating change comes after
            final = first.next_of("state")
    return made["table"], final


async def _ratings_of(client: TestClient, ids: list[str]) -> dict:
    return client.app.state.services.ratings.ratings_of(ids, "durak/transfer/2p")


def played(client: TestClient, name: str, games: int) -> dict:
    """The profile once it counts ``games`` games (they are counted as the game ends,
    after its last state is sent)."""
    for _ in range(300):   # patiently: the machine is shared
        profile = client.get(f"/api/players/{name}").json()
        if profile["games"]["played"] >= games:
            return profile
        time.sleep(0.1)
    raise AssertionError(f"{name} has not played {games} games")


def test_a_game_between_two_accounts_is_rated_and_the_change_is_in_its_summary(
        app_client: TestClient) -> None:
    table, final = two_accounts_play(app_client)
    winners = final["summary"].get("winners") or (
        [] if final["summary"].get("draw") else
        [s for s in (0, 1) if s != final["summary"]["loser"]])
    summary = app_client.get(f"/api/tables/{table}").json()["summary"]
    changes = summary["ratings"]
    assert set(changes) == {"0", "1"}
    for seat, change in changes.items():
        assert change["pool"] == "durak/transfer/2p" and change["before"] == 1500
        assert change["provisional"] is True
        if winners:
            assert (change["change"] > 0) == (int(seat) in winners)
    darya = app_client.get("/api/players/DARYA").json()
    anna = app_client.get("/api/players/anna_k").json()
    shown = run_async(_ratings_of(app_client, [darya["id"], anna["id"], "p-unrated"]))
    assert shown == {darya["id"]: {"rating": changes["0"]["after"], "provisional": True},
                     anna["id"]: {"rating": changes["1"]["after"], "provisional": True}}
    [rating] = darya["ratings"]
    assert rating["rating"] == changes["0"]["after"] and rating["games"] == 1
    assert [point["table"] for point in rating["history"]] == [table]
    assert darya["games"]["played"] == 1
    assert darya["recent"][0]["rated"] is True
    assert darya["recent"][0]["replay"] == f"/api/tables/{table}/replay"
    board = app_client.get("/api/leaderboard").json()
    assert board["pool"] == "durak/transfer/2p"
    assert board["entries"] == []   # a first game's ratings are provisional: not ranked


def test_a_game_with_a_guest_is_unrated_but_in_their_games(app_client: TestClient) -> None:
    register(app_client, "darya")
    guest = fresh(app_client)
    guest_id = guest.get("/api/me").json()["id"]
    made = app_client.post("/api/tables", json={"game": "durak",
                                                "seats": ["human", "human"]}).json()
    joined = guest.post(f"/api/tables/{made['table']}/join").json()
    with connect(app_client, made["table"], made["token"]) as ws0, \
            connect(guest, made["table"], joined["token"]) as ws1:
        play_together({0: Player(ws0), 1: Player(ws1)}, [], random.Random(5))
    assert "ratings" not in app_client.get(f"/api/tables/{made['table']}").json()["summary"]
    darya = played(app_client, "darya", 1)
    assert darya["ratings"] == [] and darya["games"]["played"] == 1
    assert darya["recent"][0]["rated"] is False
    assert played(app_client, guest_id, 1)["games"]["played"] == 1


def test_games_against_bots_count_in_the_record_against_each_level(
        app_client: TestClient) -> None:
    register(app_client, "darya")
    for seed in (1, 2):
        made = app_client.post("/api/tables", json={"game": "durak",
                                                    "seats": ["human", "bot:random"]}).json()
        with connect(app_client, made["table"], made["token"]) as ws:
            final = play_out(Player(ws), random.Random(seed))
        assert "ratings" not in final["summary"]
    [record] = played(app_client, "darya", 2)["bots"]
    assert record["bot"] == "random"
    assert record["wins"] + record["losses"] + record["draws"] == 2


def fake_table(outcome: Outcome | None, summary: dict[str, Any],
               kinds: tuple[str, ...] = ("account", "account", "account")) -> Any:
    seats = [SimpleNamespace(index=i, kind="human", player_id=f"p{i}", player_kind=kind,
                             bot_spec=None) for i, kind in enumerate(kinds)]
    return SimpleNamespace(summary=summary, state=SimpleNamespace(outcome=lambda: outcome),
                           seats=seats)


def test_the_outcome_gives_each_seat_its_result() -> None:
    outcome = Outcome(returns=(0.5, 0.5, -1.0), winners=(0, 1), reason="seat 2 is the durak")
    results = results_of(fake_table(outcome, {}))
    assert [r.result for r in results] == ["win", "win", "loss"]
    assert rated(results)


def test_a_seat_that_resigned_or_forfeited_has_lost_whatever_the_cards_said() -> None:
    outcome = Outcome(returns=(0.5, 0.5, -1.0), winners=(0, 1), reason="seat 2 is the durak")
    resigned = results_of(fake_table(outcome, {"resigned": 0}))
    assert [r.result for r in resigned] == ["loss", "win", "loss"]
    assert resigned[0].score < resigned[2].score   # the one who resigned is last
    forfeits = results_of(fake_table(None, {"forfeits": [1]}))
    assert [r.result for r in forfeits] == ["win", "loss", "win"]


def test_an_abandoned_table_has_no_results() -> None:
    outcome = Outcome(returns=(0.0, 0.0, 0.0), winners=(), reason="draw")
    assert results_of(fake_table(outcome, {"abandoned": True})) == []
    assert [r.result for r in results_of(fake_table(outcome, {}))] == ["draw"] * 3


def test_only_accounts_are_rated() -> None:
    outcome = Outcome(returns=(1.0, -1.0), winners=(0,), reason="")
    for kinds in (("account", "guest"), ("account", "bot"), ("account", None)):
        assert not rated(results_of(fake_table(outcome, {}, kinds)))
    assert rated(results_of(fake_table(outcome, {}, ("account", "account"))))


def test_pools_put_two_players_apart_and_more_together() -> None:
    assert pool_of("durak", "transfer", 3) == pool_of("durak", "transfer", 6)
    assert pool_of("durak", "transfer", 2) != pool_of("durak", "transfer", 3)
    assert display(25.0) == 1500


def test_a_table_is_counted_once(app_client: TestClient) -> None:
    table, _ = two_accounts_play(app_client, seed=8)
    store = app_client.app.state.services.ratings
    ids = [app_client.get(f"/api/players/{n}").json()["id"] for n in ("darya", "anna_k")]
    results = [SeatResult(seat=i, kind="human", player_id=pid, player_kind="account",
                          bot=None, score=float(i), result="win" if i else "loss")
               for i, pid in enumerate(ids)]

    async def again() -> Any:
        return store.count(table, "durak", "durak/transfer/2p", results, True)

    assert run_async(again()) is None
    assert app_client.get("/api/players/darya").json()["ratings"][0]["games"] == 1


def test_an_unknown_player_is_404_with_a_code(app_client: TestClient) -> None:
    for name in ("nobody", "x" * 300, "<script>"):
        answer = app_client.get(f"/api/players/{name}")
        assert answer.status_code == 404 and answer.json()["code"] == "not_found"
    assert app_client.get("/api/leaderboard").json() == {"pools": [], "pool": None,
                                                         "entries": []}
    assert app_client.get("/api/leaderboard?limit=0").status_code == 422
