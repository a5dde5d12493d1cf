"""Tournaments over HTTP and their director: made, refused, joined, started, seated at
real tables (shown in ``/api/me``), scored as the games end, kept across a director that
died between writing a table down and making it, closed by an admin, left by a banned
player."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import secrets
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from playerkit import app_client, fresh, register
from sqlalchemy import event, update
from tablekit import next_state, server, wait_until
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from cardtable.server.store.sanctions import SanctionStore
from cardtable.server.store.stamps import stamp
from cardtable.server.store.tournaments import GameRow, TournamentRow, TournamentStore
from cardtable.server.web import tournaments_api

__all__ = ["app_client"]   # the fixture: SQLite and PostgreSQL

ARENA = {"game": "durak", "kind": "arena", "minutes": 30, "players": 2, "rated": False}


def account(client: TestClient, name: str, host: str) -> TestClient:
    browser = fresh(client, host)
    assert register(browser, name).status_code in (200, 201)
    return browser


def made(browser: TestClient, **body: Any) -> dict:
    answer = browser.post("/api/tournaments", json={**ARENA, **body})
    assert answer.status_code == 201, answer.text
    return answer.json()


def test_a_guest_cannot_make_or_join_a_tournament(client: TestClient) -> None:
    answer = client.post("/api/tournaments", json=ARENA)
    assert (answer.status_code, answer.json()["code"]) == (409, "account_only")
    organiser = account(client, "orga", "10.0.0.1")
    t = made(organiser)
    assert client.post(f"/api/tournaments/{t['id']}/join").json()["code"] == "account_only"


def test_settings_that_cannot_be_played_are_refused_and_nothing_is_made(
        client: TestClient) -> None:
    organiser = account(client, "orga", "10.0.0.1")
    for body, code in [({"minutes": None}, "invalid_request"),
                       ({"kind": "swiss", "minutes": None}, "invalid_request"),
                       ({"kind": "swiss", "rounds": 3, "bots": True}, "invalid_request"),
                       ({"game": "chess"}, "invalid_request"),
                       ({"players": 9}, "invalid_request"),
                       ({"minutes": 10**9}, "invalid_request"),
                       ({"surprise": 1}, "invalid_request"),
                       ({"starts": "2020-01-01T00:00:00Z"}, "invalid_request")]:
        answer = organiser.post("/api/tournaments", json={**ARENA, **body})
        assert (answer.status_code, answer.json()["code"]) == (422, code), body
    listed = organiser.get("/api/tournaments").json()
    assert listed == {"upcoming": [], "running": [], "finished": []}


def test_an_account_has_at_most_three_tournaments_not_finished(client: TestClient) -> None:
    organiser = account(client, "orga", "10.0.0.1")
    for _ in range(3):
        made(organiser)
    answer = organiser.post("/api/tournaments", json=ARENA)
    assert (answer.status_code, answer.json()["code"], answer.json()["limit"]) == (
        429, "tournament_limit", 3)


def test_joining_pausing_and_withdrawing_show_in_the_standings(client: TestClient) -> None:
    organiser = account(client, "orga", "10.0.0.1")
    t = made(organiser)
    ann = account(client, "ann", "10.0.0.2")
    assert ann.post(f"/api/tournaments/{t['id']}/pause").json()["code"] == "not_entered"
    ann.post(f"/api/tournaments/{t['id']}/join")
    ann.post(f"/api/tournaments/{t['id']}/join")   # twice: still one line
    organiser.post(f"/api/tournaments/{t['id']}/join")
    info = client.get(f"/api/tournaments/{t['id']}").json()
    assert info["status"] == "upcoming"
    assert sorted(line["name"] for line in info["standings"]) == ["ann", "orga"]
    ann.post(f"/api/tournaments/{t['id']}/pause")
    organiser.post(f"/api/tournaments/{t['id']}/withdraw")
    lines = {line["name"]: line for line in client.get(
        f"/api/tournaments/{t['id']}").json()["standings"]}
    assert (lines["ann"]["paused"], lines["orga"]["withdrawn"]) == (True, True)
    assert client.get(f"/api/tournaments/{t['id']}").json()["entrants"] == 1
    assert client.get("/api/tournaments/nope").json()["code"] == "not_found"


def test_only_the_organiser_starts_it_and_only_once(client: TestClient) -> None:
    organiser = account(client, "orga", "10.0.0.1")
    t = made(organiser)
    ann = account(client, "ann", "10.0.0.2")
    assert ann.post(f"/api/tournaments/{t['id']}/start").json()["code"] == "not_organiser"
    assert organiser.post(f"/api/tournaments/{t['id']}/start").json()["status"] == "running"
    again = organiser.post(f"/api/tournaments/{t['id']}/start").json()
    assert again["code"] == "tournament_started"


def seat_of(browser: TestClient, table: str) -> int:
    seats = [s for s in browser.get("/api/me").json()["seats"] if s["table"] == table]
    assert len(seats) == 1, seats
    return int(seats[0]["seat"])


def test_an_arena_seats_its_players_scores_a_game_and_seats_them_again(
        app_client: TestClient) -> None:
    client = app_client
    organiser = account(client, "orga", "10.0.0.1")
    t = made(organiser)
    ann = account(client, "ann", "10.0.0.2")
    for browser in (ann, organiser):
        browser.post(f"/api/tournaments/{t['id']}/join")
    info = organiser.post(f"/api/tournaments/{t['id']}/start").json()
    assert len(info["pairings"]) == 1
    table = info["pairings"][0]["table"]
    assert sorted(info["pairings"][0]["players"]) == ["ann", "orga"]
    # the seat shows in each player's /api/me, and its player plays it by number
    seat = seat_of(ann, table)
    told = [n["data"] for n in ann.get("/api/inbox").json()["notices"]
            if n["kind"] == "tournament"]
    assert [(d["event"], d.get("table"), d.get("seat")) for d in told] == [
        ("paired", table, seat), ("started", None, None)]
    with ann.websocket_connect(f"/ws/tables/{table}?seat={seat}") as ws:
        ws.send_json({"type": "resign"})

        def scored() -> bool:
            games = client.get(f"/api/tournaments/{t['id']}").json()["games"]
            return any(g["table"] == table and g["status"] == "scored" for g in games)

        wait_until(scored, "the resigned game scored")
    info = client.get(f"/api/tournaments/{t['id']}").json()
    lines = {line["name"]: line for line in info["standings"]}
    assert (lines["orga"]["points"], lines["orga"]["wins"], lines["orga"]["streak"]) == (
        2, 1, 1)
    assert (lines["ann"]["points"], lines["ann"]["games"]) == (0, 1)
    assert [line["name"] for line in info["standings"]] == ["orga", "ann"]
    # nobody else can come: the two are seated together again at once
    wait_until(lambda: len(client.get(f"/api/tournaments/{t['id']}").json()["pairings"])
               == 1, "a second table")
    second = client.get(f"/api/tournaments/{t['id']}").json()["pairings"][0]["table"]
    assert second != table
    seat_of(organiser, second)


def test_a_table_written_down_but_not_made_is_made_under_its_id(app_client: TestClient) -> None:
    """A director killed between writing a table and making it: the next step makes it."""
    client = app_client
    organiser = account(client, "orga", "10.0.0.1")
    t = made(organiser, starts=None)
    ann = account(client, "ann", "10.0.0.2")
    for browser in (ann, organiser):   # paused: the running director seats neither
        browser.post(f"/api/tournaments/{t['id']}/join")
        browser.post(f"/api/tournaments/{t['id']}/pause")
    director = client.app.state.director
    store: TournamentStore = director.store
    players = [line["player"] for line in client.get(
        f"/api/tournaments/{t['id']}").json()["standings"]]
    # the running director's loop must not step this tournament between the writing and
    # the check (it would make the table, as it should): hold its lock for the tournament,
    # as a director killed mid-step would leave it, until the step the test asks for
    lock = director._locks.setdefault(t["id"], asyncio.Lock())
    client.portal.call(lock.acquire)
    try:
        assert store.start(t["id"], stamp(), by=None)
        assert store.open_games(t["id"], 0, [("writtenA1", players)])
        assert client.get("/api/tables/writtenA1").status_code == 404
    finally:
        client.portal.call(lock.release)
    client.portal.call(director.direct_if_owned, t["id"])
    assert client.get("/api/tables/writtenA1").status_code == 200
    assert seat_of(ann, "writtenA1") in (0, 1)
    info = client.get(f"/api/tournaments/{t['id']}").json()
    assert [g["table"] for g in info["pairings"]] == ["writtenA1"]


def test_a_game_is_scored_once_whoever_scores_it(app_client: TestClient) -> None:
    client = app_client
    organiser = account(client, "orga", "10.0.0.1")
    t = made(organiser)
    ann = account(client, "ann", "10.0.0.2")
    for browser in (ann, organiser):
        browser.post(f"/api/tournaments/{t['id']}/join")
    table = organiser.post(f"/api/tournaments/{t['id']}/start").json()["pairings"][0]["table"]
    store: TournamentStore = client.app.state.director.store
    with ann.websocket_connect(f"/ws/tables/{table}?seat={seat_of(ann, table)}") as ws:
        ws.send_json({"type": "resign"})
        wait_until(lambda: any(g["table"] == table and g["status"] != "playing"
                               for g in client.get(f"/api/tournaments/{t['id']}")
                               .json()["games"]), "the game scored")
    assert store.score_game(table, "arena") is None
    points = sum(line["points"] for line in client.get(
        f"/api/tournaments/{t['id']}").json()["standings"])
    assert points == 2


def test_an_admin_closes_a_tournament_and_a_banned_player_leaves_it(
        client: TestClient) -> None:
    organiser = account(client, "orga", "10.0.0.1")
    t = made(organiser)
    ann = account(client, "ann", "10.0.0.2")
    for browser in (ann, organiser):
        browser.post(f"/api/tournaments/{t['id']}/join")
    table = organiser.post(f"/api/tournaments/{t['id']}/start").json()["pairings"][0]["table"]
    admin = account(client, "root_admin", "10.9.9.9")
    SanctionStore(client.app.state.storage).grant("root_admin", "admin", "the test")
    assert organiser.post(f"/api/tournaments/{t['id']}/close", json={}).json()[
        "code"] == "not_admin"
    assert admin.post("/api/admin/ban", json={"player": "ann"}).status_code == 200
    lines = {line["name"]: line for line in client.get(
        f"/api/tournaments/{t['id']}").json()["standings"]}
    assert lines["ann"]["withdrawn"] is True
    closed = admin.post(f"/api/tournaments/{t['id']}/close", json={"reason": "spam"}).json()
    assert (closed["status"], closed["closed"]) == ("finished", "closed by an admin: spam")
    assert client.get(f"/api/tables/{table}").json()["code"] == "table_closed"
    assert admin.post(f"/api/tournaments/{t['id']}/close", json={}).json()[
        "code"] == "tournament_over"


def resign_everywhere(browsers: list[TestClient], tables: list[str]) -> None:
    """Each table's first seated player among ``browsers`` resigns."""
    for table in tables:
        for browser in browsers:
            mine = [s for s in browser.get("/api/me").json()["seats"] if s["table"] == table]
            if mine:
                with browser.websocket_connect(
                        f"/ws/tables/{table}?seat={mine[0]['seat']}") as ws:
                    ws.send_json({"type": "resign"})
                    wait_until(lambda b=browser, t=table: b.get(f"/api/tables/{t}").json()[
                        "status"] == "over", "the table over")
                break


def test_a_swiss_plays_its_rounds_without_repeating_a_pair_then_finishes(
        client: TestClient) -> None:
    organiser = account(client, "orga", "10.0.0.1")
    t = made(organiser, kind="swiss", minutes=None, rounds=3)
    browsers = [organiser] + [account(client, name, f"10.0.1.{i}")
                              for i, name in enumerate(["ann", "bob", "cyd"])]
    for browser in browsers:
        browser.post(f"/api/tournaments/{t['id']}/join")
    late = account(client, "dee", "10.0.2.1")
    info = organiser.post(f"/api/tournaments/{t['id']}/start").json()
    assert late.post(f"/api/tournaments/{t['id']}/join").json()["code"] == \
        "tournament_started"
    pairs: list[frozenset[str]] = []
    for round_ in (1, 2, 3):
        wait_until(lambda r=round_: (i := client.get(f"/api/tournaments/{t['id']}").json())[
            "round"] == r and len(i["pairings"]) == 2, f"round {round_} seated")
        info = client.get(f"/api/tournaments/{t['id']}").json()
        pairs += [frozenset(g["players"]) for g in info["pairings"]]
        resign_everywhere(browsers, [g["table"] for g in info["pairings"]])
    wait_until(lambda: client.get(f"/api/tournaments/{t['id']}").json()["status"] ==
               "finished", "the swiss finished")
    # four players, three rounds of two tables: everyone met everyone once
    assert len(pairs) == len(set(pairs)) == 6
    info = client.get(f"/api/tournaments/{t['id']}").json()
    assert sum(line["games"] for line in info["standings"]) == 12
    assert sum(line["points"] for line in info["standings"]) == 12   # a win a game
    assert [line["rank"] for line in info["standings"]] == sorted(
        line["rank"] for line in info["standings"])


def test_the_process_directing_a_tournament_killed_the_other_carries_on_losing_nothing(
        tmp_path: Path, redis_url: str, migrated_database_url: str) -> None:
    """Two server processes on PostgreSQL and Redis, and two tournaments of the same two
    players, each started through one of them (which claims it at once, and so directs
    it): the first process is killed between two games; the other takes its lease, plays
    on from the database, and the standings of both hold every result once, as a run
    without the kill gives them."""
    flags = ("--database-url", migrated_database_url, "--redis-url", redis_url,
             "--redis-prefix", f"tourney-{secrets.token_hex(4)}", "--lease", "2")
    data = tmp_path / "data"

    def resign(base: str, client: httpx.Client, table: str) -> None:
        seats = [s for s in client.get("/api/me").json()["seats"] if s["table"] == table]
        assert seats, (table, client.get(f"/api/tables/{table}").json(),
                       client.get("/api/me").json())
        cookie = "; ".join(f"{k}={v}" for k, v in client.cookies.items())
        url = base.replace("http", "ws", 1) + f"/ws/tables/{table}?seat={seats[0]['seat']}"
        deadline = time.monotonic() + 60
        while client.get(f"/api/tables/{table}").json().get("status") != "over":
            # a table whose process was killed is adopted once its lease ends: until then
            # its socket may close ("connect again"), as the page's would
            assert time.monotonic() < deadline, "the table never ended"
            with contextlib.suppress(ConnectionClosed, TimeoutError), connect(
                    url, additional_headers={"Cookie": cookie}) as ws:
                next_state(ws)
                ws.send('{"type": "resign"}')
                while not next_state(ws)["over"]:
                    pass

    def table_of(client: httpx.Client, tournament: str, but: set[str]) -> str:
        found: list[str] = []

        def new() -> bool:
            found[:] = [g["table"] for g in client.get(
                f"/api/tournaments/{tournament}").json()["pairings"]
                if g["table"] not in but and g["status"] == "playing"]   # made, not opening
            return bool(found)

        wait_until(new, "a new table", timeout=60)
        return found[0]

    with server(data, *flags) as (first, a):
        people = {}
        for name in ("orga", "ann"):
            client = httpx.Client(base_url=a, headers={"Origin": a}, timeout=20)
            assert client.post("/api/account/register", json={
                "username": f"{name}_{secrets.token_hex(2)}",
                "password": "correct horse battery"}).status_code == 201
            people[name] = client
        made = people["orga"].post("/api/tournaments", json=ARENA).json()
        tournament = made["id"]
        for client in people.values():
            client.post(f"/api/tournaments/{tournament}/join")
        people["orga"].post(f"/api/tournaments/{tournament}/start")
        seen: set[str] = set()
        with server(data, *flags) as (_, b):
            on_b = {"Origin": b}   # the second tournament, started on B: B directs it
            other = people["orga"].post(f"{b}/api/tournaments", json=ARENA,
                                        headers=on_b).json()["id"]
            for client in people.values():
                client.post(f"{b}/api/tournaments/{other}/join", headers=on_b)
            people["orga"].post(f"{b}/api/tournaments/{other}/start", headers=on_b)
            elsewhere = table_of(people["ann"], other, set())
            table = table_of(people["ann"], tournament, seen)
            seen.add(table)
            resign(b, people["ann"], elsewhere)
            resign(a, people["ann"], table)
            second = table_of(people["ann"], tournament, seen)   # A paired them again
            seen.add(second)
            later = table_of(people["ann"], other, {elsewhere})   # and B in its own
            first.kill()   # SIGKILL: A's leases run out; B directs the tournament now
            first.wait(10)
            for client in people.values():
                client.base_url = httpx.URL(b)
                client.headers["Origin"] = b
            resign(b, people["ann"], second)
            third = table_of(people["ann"], tournament, seen)    # and B seats them again
            resign(b, people["ann"], later)
            last = table_of(people["ann"], other, {elsewhere, later})
            info = people["orga"].get(f"/api/tournaments/{tournament}").json()
            info_b = people["orga"].get(f"/api/tournaments/{other}").json()
        for client in people.values():
            client.close()
    for shown, played, now in ((info, {table, second}, third),
                               (info_b, {elsewhere, later}, last)):
        scored = [g for g in shown["games"] if g["status"] == "scored"]
        assert {g["table"] for g in scored} == played
        assert [g["table"] for g in shown["pairings"]] == [now]
        lines = {line["name"].split("_")[0]: line for line in shown["standings"]}
        assert (lines["orga"]["points"], lines["orga"]["wins"], lines["ann"]["points"]) == (
            4, 2, 0)
        assert lines["orga"]["games"] == lines["ann"]["games"] == 2


def test_a_block_keeps_two_entrants_apart_while_the_others_play(client: TestClient) -> None:
    organiser = account(client, "orga", "10.0.0.1")
    t = made(organiser)
    ann, bob = account(client, "ann", "10.0.0.2"), account(client, "bob", "10.0.0.3")
    assert ann.post("/api/players/bob/block").status_code == 200
    for browser in (ann, bob):
        browser.post(f"/api/tournaments/{t['id']}/join")
    info = organiser.post(f"/api/tournaments/{t['id']}/start").json()
    assert info["pairings"] == []   # the only two waiting block each other: they wait
    organiser.post(f"/api/tournaments/{t['id']}/join")
    wait_until(lambda: client.get(f"/api/tournaments/{t['id']}").json()["pairings"],
               "a table with the organiser")
    pairings = client.get(f"/api/tournaments/{t['id']}").json()["pairings"]
    assert len(pairings) == 1 and "orga" in pairings[0]["players"]
    assert sorted(pairings[0]["players"]) != ["ann", "bob"]


def test_a_lone_player_gets_a_bot_only_where_the_organiser_allows_it(
        client: TestClient) -> None:
    client.app.state.director.bot_wait = 0   # no wait for a person who could come
    organiser = account(client, "orga", "10.0.0.1")
    plain, with_bots = made(organiser), made(organiser, bots=True)
    for t in (plain, with_bots):
        organiser.post(f"/api/tournaments/{t['id']}/join")
        organiser.post(f"/api/tournaments/{t['id']}/start")
    wait_until(lambda: client.get(f"/api/tournaments/{with_bots['id']}").json()["pairings"],
               "a table with a bot")
    table = client.get(f"/api/tournaments/{with_bots['id']}").json()["pairings"][0]
    assert table["players"].count(None) == 1 and "orga" in table["players"]
    info = client.get(f"/api/tables/{table['table']}").json()
    assert [seat["kind"] for seat in info["seats"]].count("bot") == 1
    assert client.get(f"/api/tournaments/{plain['id']}").json()["pairings"] == []


def test_a_paused_player_is_not_seated_until_they_come_back(client: TestClient) -> None:
    organiser = account(client, "orga", "10.0.0.1")
    t = made(organiser)
    ann = account(client, "ann", "10.0.0.2")
    for browser in (ann, organiser):
        browser.post(f"/api/tournaments/{t['id']}/join")
    ann.post(f"/api/tournaments/{t['id']}/pause")
    assert organiser.post(f"/api/tournaments/{t['id']}/start").json()["pairings"] == []
    ann.post(f"/api/tournaments/{t['id']}/join")   # back
    wait_until(lambda: client.get(f"/api/tournaments/{t['id']}").json()["pairings"],
               "a table once ann is back")


def test_an_arena_whose_time_is_up_finishes_and_a_game_in_play_does_not_count(
        client: TestClient) -> None:
    organiser = account(client, "orga", "10.0.0.1")
    t = made(organiser)
    ann = account(client, "ann", "10.0.0.2")
    for browser in (ann, organiser):
        browser.post(f"/api/tournaments/{t['id']}/join")
    table = organiser.post(f"/api/tournaments/{t['id']}/start").json()["pairings"][0]["table"]
    store: TournamentStore = client.app.state.director.store
    with store.storage.writing() as session:   # its 30 minutes are over
        session.execute(update(TournamentRow).where(TournamentRow.id == t["id"]).values(
            ends=stamp()))
    wait_until(lambda: client.get(f"/api/tournaments/{t['id']}").json()["status"] ==
               "finished", "the arena finished")
    with ann.websocket_connect(f"/ws/tables/{table}?seat={seat_of(ann, table)}") as ws:
        ws.send_json({"type": "resign"})
        wait_until(lambda: client.get(f"/api/tables/{table}").json()["status"] == "over",
                   "the last game over")
    time.sleep(1)   # steps of the director, had it still been directing
    info = client.get(f"/api/tournaments/{t['id']}").json()
    assert sum(line["points"] for line in info["standings"]) == 0
    assert [g["status"] for g in info["games"]] == ["playing"]


def test_a_tournament_s_page_is_read_from_the_database_once_a_change_not_once_a_reader(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ten readers of an upcoming arena's page (as every entrant's page polls it) read its
    entrants from the database once; a player joining or pausing through this process
    shows on the next reading all the same, and a page that is not there is not kept."""
    monkeypatch.setattr(tournaments_api, "FRESH_FOR", 3600.0,   # only a change renews it
                        raising=False)
    organiser = account(client, "orga", "10.0.0.1")
    t = made(organiser)
    organiser.post(f"/api/tournaments/{t['id']}/join")
    readers = [fresh(client, f"10.0.3.{i}") for i in range(10)]
    sent: list[str] = []

    def count(*args: Any) -> None:
        if "tournament_entrants" in args[2]:
            sent.append(args[2])

    engine = client.app.state.storage.engine
    event.listen(engine, "before_cursor_execute", count)
    try:
        pages = [reader.get(f"/api/tournaments/{t['id']}").json() for reader in readers]
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert len(sent) == 1
    assert all(page == pages[0] for page in pages)
    assert [line["name"] for line in pages[0]["standings"]] == ["orga"]
    ann = account(client, "ann", "10.0.0.2")
    ann.post(f"/api/tournaments/{t['id']}/join")
    lines = client.get(f"/api/tournaments/{t['id']}").json()["standings"]
    assert sorted(line["name"] for line in lines) == ["ann", "orga"]
    ann.post(f"/api/tournaments/{t['id']}/pause")
    lines = client.get(f"/api/tournaments/{t['id']}").json()["standings"]
    assert [line["paused"] for line in lines if line["name"] == "ann"] == [True]
    for _ in range(2):
        assert client.get("/api/tournaments/tnothere").status_code == 404


def test_an_arena_s_page_reads_only_the_games_it_shows(
        app_client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A long arena's page lists its newest games and reads no older ones from the
    database (its standings need none of them): twenty games scored, three shown, three
    read."""
    client = app_client
    monkeypatch.setattr(tournaments_api, "SHOWN_GAMES", 3)
    organiser = account(client, "orga", "10.0.0.1")
    t = made(organiser)
    organiser.post(f"/api/tournaments/{t['id']}/join")
    me = organiser.get("/api/me").json()["id"]
    at = stamp()
    with client.app.state.storage.writing() as session:
        session.add_all(GameRow(table_id=f"old{i:02}", tournament_id=t["id"], round=0,
                                players=[me, None], status="scored", results={},
                                created=at + dt.timedelta(seconds=i)) for i in range(20))
    loaded: list[str] = []

    def load(target: GameRow, _: Any) -> None:
        loaded.append(target.table_id)

    event.listen(GameRow, "load", load)
    try:
        page = client.get(f"/api/tournaments/{t['id']}").json()
    finally:
        event.remove(GameRow, "load", load)
    assert [g["table"] for g in page["games"]] == ["old17", "old18", "old19"]
    assert sorted(loaded) == ["old17", "old18", "old19"]
