"""Ratings that cannot be farmed, on SQLite and on PostgreSQL: rated or
casual is the creator's choice and shown as it is; a rated game resigned or left before a
seat's first move is aborted, unrated; repeated results between the same two accounts stop
counting after ``REPEATS_A_DAY`` a day; a rating met against one opponent stays
provisional, and the leaderboard ranks established ratings only."""

from __future__ import annotations

import datetime as _dt
import threading
from typing import Any

from fastapi.testclient import TestClient
from playerkit import app_client, fresh, login, register
from sqlalchemy import event
from tablekit import Player, connect, each_moves_once

from cardtable.server.store.players import OriginRow, PlayerGameRow, PlayerRow, origin_of
from cardtable.server.store.ratings import (
    PROVISIONAL_OPPONENTS,
    REPEATS_A_DAY,
    VOUCHERS,
    SeatResult,
    Tally,
    counted_opponents,
)
from cardtable.server.store.sanctions import SanctionStore

__all__ = ["app_client"]   # the fixture

PAIR = {"game": "durak", "seats": ["human", "human"]}


def two_accounts(client: TestClient) -> TestClient:
    """darya signs in on ``client``; anna_k on the browser answered."""
    anna = fresh(client, "10.0.0.2")
    assert register(client, "darya").status_code == 201
    assert register(anna, "anna_k").status_code == 201
    return anna


def rated_table(darya: TestClient, anna: TestClient, **body: Any) -> tuple[dict, dict]:
    made = darya.post("/api/tables", json={**PAIR, "rated": True, **body})
    assert made.status_code == 201, made.text
    joined = anna.post(f"/api/tables/{made.json()['table']}/join")
    assert joined.status_code == 200, joined.text
    return made.json(), joined.json()


def ratings_of(client: TestClient, name: str) -> list[dict]:
    return client.get(f"/api/players/{name}").json()["ratings"]


def test_rated_or_casual_is_the_creators_choice_and_the_lobby_says_which(
        app_client: TestClient) -> None:
    anna = two_accounts(app_client)
    rated, _ = rated_table(app_client, anna)
    casual = app_client.post("/api/tables", json=PAIR).json()
    listed = {t["id"]: t["rated"] for t in app_client.get("/api/tables").json()}
    assert listed[rated["table"]] is True and listed[casual["table"]] is False
    assert app_client.get(f"/api/tables/{rated['table']}").json()["rated"] is True
    assert app_client.get(f"/api/tables/{casual['table']}").json()["rated"] is False


def test_a_casual_game_between_two_accounts_changes_no_rating(app_client: TestClient) -> None:
    anna = two_accounts(app_client)
    made = app_client.post("/api/tables", json=PAIR).json()
    joined = anna.post(f"/api/tables/{made['table']}/join").json()
    with connect(app_client, made["table"], made["token"]) as ws0, \
            connect(anna, made["table"], joined["token"]) as ws1:
        each_moves_once({0: Player(ws0), 1: Player(ws1)})
    ended = anna.post(f"/api/tables/{made['table']}/resign", json={"token": joined["token"]})
    summary = ended.json()["summary"]
    assert summary["ended"] == "resigned" and "ratings" not in summary
    assert ratings_of(app_client, "darya") == [] and ratings_of(app_client, "anna_k") == []
    recent = app_client.get("/api/players/darya").json()["recent"]
    assert [(g["result"], g["rated"]) for g in recent] == [("win", False)]


def test_only_accounts_sit_at_a_rated_table_and_no_bot(app_client: TestClient) -> None:
    guest = fresh(app_client, "10.0.0.9")
    refused = guest.post("/api/tables", json={**PAIR, "rated": True})
    assert refused.status_code == 409 and refused.json()["code"] == "rated_accounts_only"
    anna = two_accounts(app_client)
    with_bot = app_client.post("/api/tables", json={"game": "durak", "rated": True,
                                                    "seats": ["human", "bot:random"]})
    assert with_bot.status_code == 422 and with_bot.json()["code"] == "rated_accounts_only"
    made = app_client.post("/api/tables", json={**PAIR, "rated": True}).json()
    joined = guest.post(f"/api/tables/{made['table']}/join")
    assert joined.status_code == 409 and joined.json()["code"] == "rated_accounts_only"
    assert app_client.get(f"/api/tables/{made['table']}").json()["free_seats"] == 1
    assert anna.post(f"/api/tables/{made['table']}/join").status_code == 200


def test_twelve_resignations_at_move_0_are_aborted_and_rate_nobody(
        app_client: TestClient) -> None:
    """The farming attack: one account resigns at once, 12 times."""
    anna = two_accounts(app_client)
    for _ in range(12):
        made, joined = rated_table(app_client, anna)
        ended = anna.post(f"/api/tables/{made['table']}/resign",
                          json={"token": joined["token"]})
        assert ended.status_code == 200, ended.text
        summary = ended.json()["summary"]
        assert summary["ended"] == "aborted" and summary["aborted_by"] == joined["seat"]
        assert summary["rated"] is False and "ratings" not in summary
    assert ratings_of(app_client, "darya") == [] and ratings_of(app_client, "anna_k") == []
    assert app_client.get("/api/leaderboard").json()["entries"] == []
    assert app_client.get("/api/players/darya").json()["games"]["played"] == 0


def test_leaving_a_rated_game_before_your_first_move_aborts_it(
        app_client: TestClient) -> None:
    anna = two_accounts(app_client)
    made, joined = rated_table(app_client, anna)
    left = anna.post(f"/api/tables/{made['table']}/leave", json={"token": joined["token"]})
    assert left.status_code == 200, left.text
    summary = app_client.get(f"/api/tables/{made['table']}").json()["summary"]
    assert summary["ended"] == "aborted" and summary["rated"] is False
    made, joined = rated_table(app_client, anna)
    with connect(app_client, made["table"], made["token"]) as ws0, \
            connect(anna, made["table"], joined["token"]) as ws1:
        each_moves_once({0: Player(ws0), 1: Player(ws1)})
    refused = anna.post(f"/api/tables/{made['table']}/leave", json={"token": joined["token"]})
    assert refused.status_code == 409 and refused.json()["code"] == "rated_table"


def test_twelve_resignations_after_a_move_each_count_three_times_and_stay_provisional(
        app_client: TestClient) -> None:
    """The attack past the abort window: each moves once, then anna resigns, 12 times."""
    anna = two_accounts(app_client)
    endings = []
    for _ in range(12):
        made, joined = rated_table(app_client, anna)
        with connect(app_client, made["table"], made["token"]) as ws0, \
                connect(anna, made["table"], joined["token"]) as ws1:
            each_moves_once({0: Player(ws0), 1: Player(ws1)})
        ended = anna.post(f"/api/tables/{made['table']}/resign",
                          json={"token": joined["token"]}).json()["summary"]
        endings.append((ended["ended"], ended.get("unrated"), "ratings" in ended))
    assert endings == ([("resigned", None, True)] * REPEATS_A_DAY
                       + [("resigned", "repeated", False)] * (12 - REPEATS_A_DAY))
    [darya] = ratings_of(app_client, "darya")
    [anna_k] = ratings_of(app_client, "anna_k")
    assert darya["games"] == anna_k["games"] == REPEATS_A_DAY
    # anna_k has met nobody but darya, so she does not vouch for her: no opponent counts
    assert darya["opponents"] == 0 and darya["provisional"] is True
    assert darya["rating"] < 1650 and anna_k["rating"] > 1350   # not 1753
    assert app_client.get("/api/leaderboard").json()["entries"] == []   # both provisional
    played = app_client.get("/api/players/darya").json()["games"]["played"]
    assert played == 12   # every game is in their games, casual past the third


def test_repeated_results_count_again_the_next_day(app_client: TestClient) -> None:
    """``Tally`` on the storage itself, at times a test chooses."""
    storage = app_client.app.state.tables.storage
    start = _dt.datetime(2026, 12, 6, 12, tzinfo=_dt.UTC)
    with storage.writing() as session:
        for player in ("p-a", "p-b"):
            session.add(PlayerRow(id=player, kind="account", name=player, created=start))

    def count(table: str, at: _dt.datetime) -> dict[str, Any]:
        tally = Tally(table, "durak", "durak/transfer/2p", chosen=True, results=[
            SeatResult(0, "human", "p-a", "account", None, 1.0, "win"),
            SeatResult(1, "human", "p-b", "account", None, 0.0, "loss")])
        with storage.writing() as session:
            return tally(session, at)

    hour = _dt.timedelta(hours=1)
    counted = [count(f"t{i}", start + i * hour) for i in range(REPEATS_A_DAY + 1)]
    assert ["ratings" in c for c in counted] == [True] * REPEATS_A_DAY + [False]
    assert counted[-1] == {"rated": False, "unrated": "repeated"}
    assert "ratings" in count("next-day", start + _dt.timedelta(days=1, minutes=1))
    with storage.sessions() as session:
        rated = session.query(PlayerGameRow).filter_by(player_id="p-a", rated=1).count()
    assert rated == REPEATS_A_DAY + 1


def test_an_aborted_game_can_be_replayed(app_client: TestClient) -> None:
    anna = two_accounts(app_client)
    made, joined = rated_table(app_client, anna)
    anna.post(f"/api/tables/{made['table']}/resign", json={"token": joined["token"]})
    replay = app_client.get(f"/api/tables/{made['table']}/replay")
    assert replay.status_code == 200, replay.text
    assert replay.json()["steps"][-1]["result"]["ended"] == "aborted"


def _resigned_after_a_move(winner: TestClient, loser: TestClient) -> dict[str, Any]:
    made, joined = rated_table(winner, loser)
    with connect(winner, made["table"], made["token"]) as ws0, \
            connect(loser, made["table"], joined["token"]) as ws1:
        each_moves_once({0: Player(ws0), 1: Player(ws1)})
    return loser.post(f"/api/tables/{made['table']}/resign",
                      json={"token": joined["token"]}).json()["summary"]


def test_puppets_from_the_farmers_network_or_browser_buy_no_rating(
        app_client: TestClient) -> None:
    """The farm: accounts made on the farmer's network lose to it after one move each.
    Games between accounts that signed in from one network (an IPv6 /64) or one browser
    are not rated (``related``); an opponent from elsewhere rates as before; an admin
    sees the farm."""
    farmer = fresh(app_client, "203.0.113.9")
    assert register(farmer, "farmer").status_code == 201
    puppets = [fresh(app_client, "203.0.113.9") for _ in range(3)]
    for number, puppet in enumerate(puppets):
        assert register(puppet, f"puppet{number}").status_code == 201
    # one more, made elsewhere, then signed in to from the farmer's own browser, taken
    # to another network (its known-device cookie with it)
    browser_puppet = fresh(app_client, "2001:db8:9:9::5")
    assert register(browser_puppet, "puppet_far").status_code == 201
    travelling = fresh(app_client, "2001:db8:7:7::1")
    travelling.cookies.set("cardtable_device", farmer.cookies["cardtable_device"])
    assert login(travelling, "puppet_far").status_code == 200
    endings = [_resigned_after_a_move(farmer, puppet)
               for puppet in (*puppets, browser_puppet)]
    assert [(e["ended"], e.get("unrated"), "ratings" in e) for e in endings] == [
        ("resigned", "related", False)] * 4
    assert ratings_of(app_client, "farmer") == []   # no rated game at all
    stranger = fresh(app_client, "198.51.100.7")
    assert register(stranger, "stranger").status_code == 201
    fair = _resigned_after_a_move(farmer, stranger)
    assert fair.get("unrated") is None and "ratings" in fair
    admin = fresh(app_client, "192.0.2.1")
    assert register(admin, "root_admin").status_code == 201
    SanctionStore(app_client.app.state.storage).grant("root_admin", "admin", "the test")  # type: ignore[attr-defined]
    assert fresh(app_client, "192.0.2.2").get("/api/admin/farms").status_code == 403
    farms = admin.get("/api/admin/farms").json()
    network = next(f for f in farms if f["kind"] == "network" and len(f["accounts"]) == 4)
    assert sorted(a["username"] for a in network["accounts"]) == [
        "farmer", "puppet0", "puppet1", "puppet2"]
    assert network["games_together"] == 3
    browser = [sorted(a["username"] for a in f["accounts"]) for f in farms
               if f["kind"] == "browser"]
    assert ["farmer", "puppet_far"] in browser
    assert all("stranger" not in str(f) for f in farms)


def test_the_leaderboard_ranks_established_ratings_only(app_client: TestClient) -> None:
    """Results told to ``Tally`` one by one, at times the test chooses: ``star`` and
    ``steady`` each meet six accounts twice, accounts that also play each other
    (established); ``farm`` beats four puppets three times a day for two days (the highest
    rating, met too few accounts); ``quick`` beats five accounts once each (too few
    games).  Only the first two are ranked."""
    storage = app_client.app.state.tables.storage
    start = _dt.datetime(2026, 12, 6, 12, tzinfo=_dt.UTC)
    regulars = [f"p-o{i}" for i in range(PROVISIONAL_OPPONENTS + 1)]
    puppets = [f"p-pup{i}" for i in range(PROVISIONAL_OPPONENTS - 1)]
    newcomers = [f"p-q{i}" for i in range(PROVISIONAL_OPPONENTS)]
    everyone = ["p-star", "p-steady", "p-farm", "p-quick", *regulars, *puppets, *newcomers]
    with storage.writing() as session:
        for player in everyone:
            session.add(PlayerRow(id=player, kind="account", name=player.removeprefix("p-"),
                                  created=start))
    played = 0

    def beats(winner: str, loser: str, day: int = 0) -> None:
        nonlocal played
        played += 1
        tally = Tally(f"t{played}", "durak", "durak/transfer/2p", chosen=True, results=[
            SeatResult(0, "human", winner, "account", None, 1.0, "win"),
            SeatResult(1, "human", loser, "account", None, 0.0, "loss")])
        with storage.writing() as session:
            counted = tally(session, start + _dt.timedelta(days=day, minutes=played))
        assert "ratings" in counted, counted

    for regular in regulars:
        beats("p-star", regular)
        beats("p-star", regular)
        beats("p-steady", regular)
        beats(regular, "p-steady")
    for i, first in enumerate(regulars):   # the regulars play each other: they vouch
        for second in regulars[i + 1:]:
            beats(first, second)
    for day in (0, 1):
        for puppet in puppets:
            for _ in range(REPEATS_A_DAY):
                beats("p-farm", puppet, day)
    for newcomer in newcomers:
        beats("p-quick", newcomer)

    def rating(name: str) -> dict[str, Any]:
        [pool] = app_client.get(f"/api/players/p-{name}").json()["ratings"]
        return pool

    star, steady, farm, quick = map(rating, ("star", "steady", "farm", "quick"))
    assert star["provisional"] is steady["provisional"] is False
    assert farm["provisional"] is quick["provisional"] is True
    assert farm["rating"] > star["rating"] > quick["rating"] > steady["rating"]
    board = app_client.get("/api/leaderboard").json()
    ranked = [(e["rank"], e["id"], e["provisional"]) for e in board["entries"]]
    # star, steady and the regulars (who played each other), by rating; farm and quick not
    expected = sorted(["p-star", "p-steady", *regulars],
                      key=lambda name: -rating(name.removeprefix("p-"))["rating"])
    assert ranked == [(rank, name, False) for rank, name in enumerate(expected, start=1)]
    assert ranked[0][1] == "p-star" and "p-farm" not in str(ranked) and "p-quick" not in str(ranked)
    later = app_client.get("/api/leaderboard?offset=1&limit=2").json()["entries"]
    assert [(e["rank"], e["id"]) for e in later] == [(2, expected[1]), (3, expected[2])]
    assert board["pools"] == ["durak/transfer/2p"]


FARM_DAYS = 5
"""Days of the farm: enough for a rating far above everyone's (the farm's 90 wins)."""


def test_sock_puppets_do_not_vouch_for_a_rating(app_client: TestClient) -> None:
    """A puppet farm, results told to ``Tally`` at times the test chooses, over five days:
    ``farmer`` beats six puppets made on one network (which may not play each other
    rated) three times a day, and so do two more farm accounts that share the farmer's
    browser (related to it, unrelated to the puppets): six opponents and a sure rating,
    which the rule of any five accounts called established.  No puppet has met three
    accounts besides the farmer that are not the farmer's own, so none vouches: the farmer
    stays provisional and off the leaderboard.  ``regular`` meets six accounts that play
    each other and is ranked; the puppets, once each has played three of the regulars,
    vouch for the farmer too (what a farm costs: three unrelated accounts a puppet)."""
    storage = app_client.app.state.tables.storage
    start = _dt.datetime(2026, 12, 6, 12, tzinfo=_dt.UTC)
    farm = ["p-farmer", "p-farm2", "p-farm3"]
    puppets = [f"p-pup{i}" for i in range(PROVISIONAL_OPPONENTS + 1)]
    regulars = [f"p-o{i}" for i in range(PROVISIONAL_OPPONENTS + 1)]
    with storage.writing() as session:
        for player in [*farm, *puppets, *regulars, "p-regular"]:
            session.add(PlayerRow(id=player, kind="account", name=player.removeprefix("p-"),
                                  created=start))
        session.flush()
        for player in farm:   # the farm's accounts share a browser
            session.add(OriginRow(player_id=player, origin=origin_of("browser", "farm"),
                                  kind="browser", first=start, last=start))
        for player in puppets:   # the puppets share a network
            session.add(OriginRow(player_id=player, origin=origin_of("network", "puppets"),
                                  kind="network", first=start, last=start))
    played = 0

    def beats(winner: str, loser: str, day: int = 0) -> dict[str, Any]:
        nonlocal played
        played += 1
        tally = Tally(f"t{played}", "durak", "durak/transfer/2p", chosen=True, results=[
            SeatResult(0, "human", winner, "account", None, 1.0, "win"),
            SeatResult(1, "human", loser, "account", None, 0.0, "loss")])
        with storage.writing() as session:
            return tally(session, start + _dt.timedelta(days=day, minutes=played))

    assert beats("p-pup0", "p-pup1").get("unrated") == "related"
    assert beats("p-farmer", "p-farm2").get("unrated") == "related"
    for day in range(FARM_DAYS):
        for account in farm:
            for puppet in puppets:
                for _ in range(REPEATS_A_DAY):
                    assert "ratings" in beats(account, puppet, day)
    for regular in regulars:
        beats("p-regular", regular)
        beats(regular, "p-regular")
    for i, first in enumerate(regulars):
        for second in regulars[i + 1:]:
            beats(first, second)

    def rating(name: str) -> dict[str, Any]:
        [pool] = app_client.get(f"/api/players/{name}").json()["ratings"]
        return pool

    farmer, regular = rating("p-farmer"), rating("p-regular")
    assert farmer["games"] == FARM_DAYS * REPEATS_A_DAY * len(puppets) and farmer["rating"] > 1900
    assert (farmer["provisional"], farmer["opponents"]) == (True, 0)
    assert (regular["provisional"], regular["opponents"]) == (False, len(regulars))
    board = app_client.get("/api/leaderboard").json()["entries"]
    assert "p-farmer" not in [e["id"] for e in board] and "p-regular" in [e["id"] for e in board]
    with storage.writing() as session:   # the rule of any five accounts: established
        met = session.query(PlayerGameRow.table_id).filter(
            PlayerGameRow.player_id == "p-farmer", PlayerGameRow.rated == 1).subquery()
        others = {row.player_id for row in session.query(PlayerGameRow).filter(
            PlayerGameRow.table_id.in_(session.query(met.c.table_id)),
            PlayerGameRow.player_id != "p-farmer")}
    assert len(others) >= PROVISIONAL_OPPONENTS

    # each puppet plays VOUCHERS regulars: now each has met that many accounts besides the
    # farm, and the farmer's rating is established
    for number, puppet in enumerate(puppets):
        for k in range(VOUCHERS):
            beats(regulars[(number + k) % len(regulars)], puppet, 20)
    farmer = rating("p-farmer")
    assert (farmer["provisional"], farmer["opponents"]) == (False, len(puppets))
    assert "p-farmer" in [e["id"] for e in app_client.get("/api/leaderboard").json()["entries"]]


def test_the_leaderboard_and_a_profile_read_in_a_constant_number_of_statements(
        app_client: TestClient) -> None:
    """Two pools: in the first six accounts each meet the others twice, in the second
    twelve do. The leaderboard, a profile and the ratings a table shows are each read in as
    many statements for the twelve as for the six, and the statements give the same
    answers as the rule read account by account (``counted_opponents``)."""
    storage = app_client.app.state.tables.storage
    ratings = app_client.app.state.services.ratings
    start = _dt.datetime(2026, 12, 6, 12, tzinfo=_dt.UTC)
    small = [f"p-s{i}" for i in range(PROVISIONAL_OPPONENTS + 1)]
    large = [f"p-l{i}" for i in range(2 * (PROVISIONAL_OPPONENTS + 1))]
    with storage.writing() as session:
        for player in [*small, *large]:
            session.add(PlayerRow(id=player, kind="account", name=player.removeprefix("p-"),
                                  created=start))
    played = 0
    for pool, field in (("durak/transfer/2p", small), ("pasur/classic/2p", large)):
        for _ in range(2):
            for i, first in enumerate(field):
                for second in field[i + 1:]:
                    played += 1
                    tally = Tally(f"t{played}", pool.split("/")[0], pool, chosen=True,
                                  results=[SeatResult(0, "human", first, "account", None,
                                                      1.0, "win"),
                                           SeatResult(1, "human", second, "account", None,
                                                      0.0, "loss")])
                    with storage.writing() as session:
                        tally(session, start + _dt.timedelta(minutes=played))
    statements: list[int] = []

    def counted(*_: object) -> None:   # this thread's: the app's own work runs beside
        if threading.get_ident() == reader:
            statements.append(reader)

    reader = threading.get_ident()

    def count(read: Any) -> tuple[int, Any]:
        read()   # a first call may open a connection (its own statements)
        statements.clear()
        event.listen(storage.engine, "before_cursor_execute", counted)
        try:
            answer = read()
        finally:
            event.remove(storage.engine, "before_cursor_execute", counted)
        return len(statements), answer

    few, board_small = count(lambda: ratings.leaderboard("durak/transfer/2p", 50, 0))
    many, board_large = count(lambda: ratings.leaderboard("pasur/classic/2p", 50, 0))
    assert few == many == 2   # the pools, and the page of entries
    assert sorted(e["id"] for e in board_small["entries"]) == sorted(small)
    assert sorted(e["id"] for e in board_large["entries"]) == sorted(large)
    few, small_ratings = count(lambda: ratings.ratings_of(small, "durak/transfer/2p"))
    many, large_ratings = count(lambda: ratings.ratings_of(large, "pasur/classic/2p"))
    assert few == many == 1
    assert all(r["provisional"] is False for r in [*small_ratings.values(),
                                                    *large_ratings.values()])
    few, profile_small = count(lambda: ratings.profile("p-s0"))
    many, profile_large = count(lambda: ratings.profile("p-l0"))
    assert few == many == 7   # looked up by id after the username: 6 by a username
    with storage.sessions() as session:
        assert [r["opponents"] for r in profile_small["ratings"]] == [
            counted_opponents(session, "p-s0", "durak/transfer/2p")] == [len(small) - 1]
        assert [r["opponents"] for r in profile_large["ratings"]] == [
            counted_opponents(session, "p-l0", "pasur/classic/2p")] == [len(large) - 1]
    assert len(profile_large["ratings"][0]["history"]) == 2 * (len(large) - 1)
