"""A table's life: presence, resign and leave, clocks and forfeits, abandonment, the
lobby, and quick play (in one process; across two with Redis in test_server_life_redis)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tablekit import Player, connect, create, ticking, two_people

from cardtable.server.play.quickplay import Entry, match


def wait_for(condition: Any, timeout: float = 20.0) -> Any:
    """Poll ``condition`` until it is true (its value is returned) or fail."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError("the condition did not come true in time")
        time.sleep(0.05)


def info(client: TestClient, table: str) -> dict:
    return client.get(f"/api/tables/{table}").json()


# -- presence -----------------------------------------------------------------------------

def test_each_seat_shows_live_whether_its_player_is_connected(client: TestClient) -> None:
    first, second = two_people(client)
    with connect(client, first["table"], first["token"]) as ws:
        me = Player(ws)
        state = me.state()
        assert [s["connected"] for s in state["seats"]] == [True, False]
        with connect(client, second["table"], second["token"]):
            state = me.state(state["version"])
            while not state["seats"][1]["connected"]:
                state = me.state()
        state = me.state()
        while state["seats"][1]["connected"]:
            state = me.state()
        assert [s["connected"] for s in state["seats"]] == [True, False]


# -- resign ---------------------------------------------------------------------------------

def test_a_durak_player_who_resigns_is_the_durak_and_the_game_ends(client: TestClient) -> None:
    first, second = two_people(client)
    with connect(client, first["table"], first["token"]) as ws:
        watcher = Player(ws)
        watcher.state()
        answer = client.post(f"/api/tables/{first['table']}/resign",
                             json={"token": second["token"]})
        assert answer.status_code == 200, answer.text
        final = watcher.state()
        while not final["over"]:
            final = watcher.state()
    summary = final["summary"]
    assert summary["resigned"] == 1 and summary["loser"] == 1
    assert summary["losers"] == [1] and summary["winners"] == [0]
    assert summary["ended"] == "resigned"
    stored = client.app.state.storage.load(first["table"]).row
    assert stored.status == "over" and stored.summary["resigned"] == 1


def test_a_pasur_player_who_resigns_loses_the_match_for_the_team(client: TestClient) -> None:
    seated = create(client, game="pasur", players=4, preset="wikipedia",
                    options={"teams_of_four": True},
                    seats=["human", "bot:random", "bot:random", "bot:random"])
    answer = client.post(f"/api/tables/{seated['table']}/resign",
                         json={"token": seated["token"]})
    assert answer.status_code == 200, answer.text
    summary = answer.json()["summary"]
    assert summary["losers"] == [0, 2] and summary["winners"] == [1, 3]
    assert summary["winner"] == 1, "the other team (side 1) wins the match"
    assert info(client, seated["table"])["over"] is True


def test_resign_on_the_socket_ends_the_game(client: TestClient) -> None:
    seated = create(client, game="durak", seats=["human", "bot:random"])
    with connect(client, seated["table"], seated["token"]) as ws:
        me = Player(ws)
        me.state()
        me.send({"type": "resign"})
        final = me.state()
        while not final["over"]:
            final = me.state()
    assert final["summary"]["resigned"] == 0


@pytest.mark.parametrize(("token", "status", "code"), [
    ("not-a-token", 403, "no_seat"), ("", 422, "invalid_request"),
    ("x" * 65, 422, "invalid_request")])
def test_resign_with_a_token_that_holds_no_seat_is_refused_and_changes_nothing(
        client: TestClient, token: str, status: int, code: str) -> None:
    seated = create(client, game="durak", seats=["human", "bot:random"])
    answer = client.post(f"/api/tables/{seated['table']}/resign", json={"token": token})
    assert answer.status_code == status and answer.json()["code"] == code
    assert info(client, seated["table"])["over"] is False


def test_resign_is_refused_before_the_game_starts_and_after_it_ends(
        client: TestClient) -> None:
    waiting = create(client, game="durak", seats=["human", "human"])
    answer = client.post(f"/api/tables/{waiting['table']}/resign",
                         json={"token": waiting["token"]})
    assert answer.status_code == 409 and answer.json()["code"] == "not_started"
    playing = create(client, game="durak", seats=["human", "bot:random"])
    url = f"/api/tables/{playing['table']}/resign"
    assert client.post(url, json={"token": playing["token"]}).status_code == 200
    again = client.post(url, json={"token": playing["token"]})
    assert again.status_code == 409 and again.json()["code"] == "game_over"
    missing = client.post("/api/tables/nosuchtable/resign", json={"token": "abc"})
    assert missing.status_code == 404


# -- leave ------------------------------------------------------------------------------------

def test_a_player_who_leaves_an_unrated_table_is_replaced_by_the_bot_for_good(
        client: TestClient) -> None:
    seated = create(client, game="durak", seats=["human", "bot:random"],
                    takeover="bot:random")
    answer = client.post(f"/api/tables/{seated['table']}/leave",
                         json={"token": seated["token"]})
    assert answer.status_code == 200, answer.text
    final = wait_for(lambda: info(client, seated["table"])["over"]
                     and info(client, seated["table"]))
    assert final["summary"]["left"] == [0]
    assert final["gone"] == [0]
    again = client.post(f"/api/tables/{seated['table']}/leave",
                        json={"token": seated["token"]})
    assert again.status_code == 409


def test_a_player_who_left_and_connects_again_does_not_get_the_seat_back(
        client: TestClient) -> None:
    first, _ = two_people(client, takeover="bot:random")
    client.post(f"/api/tables/{first['table']}/leave", json={"token": first["token"]})
    with connect(client, first["table"], first["token"]) as ws:
        state = Player(ws).state()
    assert state["seats"][0]["bot_playing"] is True
    assert state["seats"][0]["gone"] == "left"
    assert state["seats"][1].get("gone") is None
    assert state["legal_moves"] == []


# Leaving a rated table (accounts only) is refused past the seat's first move, and aborts
# the game before it: test_server_fair.py.


# -- clocks -----------------------------------------------------------------------------------

def test_a_table_made_with_a_clock_shows_it_and_gets_an_easy_takeover_bot(
        client: TestClient) -> None:
    seated = create(client, game="durak", seats=["human", "bot:random"],
                    clock={"move": 30, "bank": 90})
    described = info(client, seated["table"])
    assert described["clock"] == {"move": 30, "bank": 90}
    assert described["takeover"] == "easy"
    with connect(client, seated["table"], seated["token"]) as ws:
        me = Player(ws)
        state = me.state()
        while state["to_move"] != 0:
            state = me.state()
    clock = state["clock"]
    assert clock["seat"] == 0 and clock["banks"] == [90, 90]
    assert 0 < clock["move_left"] <= 30 and clock["bank_left"] == 90


# (not named "clock": that is the fixture of the app's fake clock, which it would replace)
@pytest.mark.parametrize("control", [{"move": 0, "bank": 5}, {"move": 5, "bank": -1},
                                     {"move": "5", "bank": 5}, {"move": 5, "extra": 1}])
def test_a_clock_that_cannot_run_is_refused(client: TestClient, control: dict) -> None:
    answer = client.post("/api/tables", json={"game": "durak", "clock": control})
    assert answer.status_code == 422 and answer.json()["code"] == "invalid_request"


def test_when_time_runs_out_the_takeover_bot_plays_and_three_in_a_row_forfeit(
        client: TestClient, clock: Any) -> None:
    seated = create(client, game="durak", seats=["human", "bot:random"],
                    takeover="bot:random", clock={"move": 1, "bank": 0})
    table = seated["table"]
    with connect(client, table, seated["token"]) as ws:
        me = Player(ws)
        state = me.state()
        # the player never moves: each of their turns times out
        final = state
        with ticking(clock, 0.5):
            while not final["over"] and 0 not in info(client, table)["gone"]:
                final = me.state(timeout=30)
        # every move the bot made for the player says so, and the seat is shown gone
        mine = [s["last_move"] for s in me.states if s["last_move"]
                and s["last_move"]["seat"] == 0]
        assert mine and all(last.get("takeover") is True for last in mine)
        # the states sent before the forfeit may still be queued: read on to the one after
        while not any(s["seats"][0].get("gone") for s in me.states) and not final["over"]:
            final = me.state(timeout=30)
        gone = [s["seats"][0]["gone"] for s in me.states if s["seats"][0].get("gone")]
        assert gone and gone[0] == "forfeited"
        assert all(s["last_move"].get("takeover") is None for s in me.states
                   if s["last_move"] and s["last_move"]["seat"] == 1)   # a bot's own seat
    described = wait_for(lambda: info(client, table)["over"] and info(client, table),
                         timeout=120)
    assert described["summary"]["forfeits"] == [0]
    stored = client.app.state.storage.load(table)
    assert stored.row.life["forfeits"] == [0]
    assert any(move.seat == 0 for move in stored.moves), "the bot played the seat's moves"


def test_a_move_in_time_ends_the_run_of_timeouts(client: TestClient) -> None:
    from cardtable.server.play.lifecycle import Life

    life = Life(players=2, move=5, bank=10)
    life.timeouts[0] = 2
    assert life.to_dict()["timeouts"] == [2, 0]
    again = Life.from_dict(life.to_dict(), 2)
    assert again.timeouts == [2, 0] and again.banks == [10, 10] and again.clocked


def test_the_bank_left_is_stored_with_the_move_and_survives_a_restart(
        make_client: Any, clock: Any) -> None:
    client = make_client()
    seated = create(client, game="durak", seats=["human", "bot:random"],
                    clock={"move": 1, "bank": 30})
    table = seated["table"]
    with connect(client, table, seated["token"]) as ws:
        me = Player(ws)
        state = me.state()
        while not state["legal_moves"]:
            state = me.state()
        clock.move(1.6)   # past the move's second: the bank pays the rest
        me.move(state, state["legal_moves"][0])
        me.state(state["version"] + 1)
    stored = client.app.state.storage.load(table).row.life
    assert stored["banks"] == [29.4, 30]
    client.__exit__(None, None, None)
    again = make_client()
    described = info(again, table)
    assert described["clock"] == {"move": 1, "bank": 30}
    assert again.app.state.tables.live[table].life.banks[0] == stored["banks"][0]


# -- abandonment and the lobby ----------------------------------------------------------------

def test_a_table_nobody_comes_back_to_ends_as_abandoned_and_leaves_the_lobby(
        make_client: Any, clock: Any) -> None:
    client = make_client(abandon_after=300)
    seated = create(client, game="durak", seats=["human", "bot:random"])
    table = seated["table"]
    with ticking(clock, 10):
        described = wait_for(lambda: info(client, table)["over"] and info(client, table))
    assert described["summary"]["abandoned"] is True
    assert described["summary"]["rated"] is False
    lobby = client.get("/api/lobby").json()
    assert table not in {t["id"] for t in lobby["open"] + lobby["live"]}
    assert table not in {t["id"] for t in client.get("/api/tables").json()}


def test_a_connected_player_keeps_the_table_alive(make_client: Any, clock: Any) -> None:
    client = make_client(abandon_after=300)
    seated = create(client, game="durak", seats=["human", "human"])
    table = seated["table"]
    with connect(client, table, seated["token"]) as ws:
        Player(ws).state()
        # connected, the table has no abandonment watch to run out: none is waiting
        assert client.app.state.tables.live[table].life.abandon is None
        clock.move(900)
        assert info(client, table)["over"] is False


def test_the_lobby_lists_free_seats_apart_from_live_games(client: TestClient) -> None:
    waiting = create(client, game="durak", seats=["human", "human"], name="Ana")
    full, _ = two_people(client)
    lobby = client.get("/api/lobby").json()
    assert [t["id"] for t in lobby["open"]] == [waiting["table"]]
    assert [t["id"] for t in lobby["live"]] == [full["table"]]
    assert lobby["open"][0]["seats"][0]["name"] == "Ana"
    assert lobby["open"][0]["age"] >= 0


# -- quick play -------------------------------------------------------------------------------

def test_quick_play_with_bots_after_zero_seats_the_player_with_bots_at_once(
        client: TestClient) -> None:
    ticket = client.post("/api/quick-play", json={"game": "durak", "preset": None,
                                                  "players": 3, "bots_after": 0})
    assert ticket.status_code == 201, ticket.text
    answer = wait_for(lambda: (a := client.get(f"/api/quick-play/{ticket.json()['ticket']}")
                               .json())["status"] == "matched" and a)
    described = info(client, answer["table"])
    assert [s["kind"] for s in described["seats"]] == ["human", "bot", "bot"]
    assert described["clock"] == {"move": 20, "bank": 60}
    assert described["takeover"] == "easy"
    with connect(client, answer["table"], answer["token"]) as ws:
        assert Player(ws).state()["seat"] == answer["seat"]


def test_two_players_waiting_for_people_are_seated_together(client: TestClient) -> None:
    body = {"game": "durak", "preset": "transfer", "players": 2, "bots_after": None}
    one = client.post("/api/quick-play", json=body).json()
    assert client.get(f"/api/quick-play/{one['ticket']}").json()["status"] == "waiting"
    two = client.post("/api/quick-play", json=body).json()
    first = wait_for(lambda: (a := client.get(f"/api/quick-play/{one['ticket']}").json())
                     ["status"] == "matched" and a)
    second = client.get(f"/api/quick-play/{two['ticket']}").json()
    assert first["table"] == second["table"]
    assert {first["seat"], second["seat"]} == {0, 1}
    assert [s["kind"] for s in info(client, first["table"])["seats"]] == ["human", "human"]


def test_different_pools_are_not_seated_together(client: TestClient, clock: Any) -> None:
    one = client.post("/api/quick-play", json={"game": "durak", "players": 2,
                                               "bots_after": None}).json()
    two = client.post("/api/quick-play", json={"game": "durak", "players": 3,
                                               "bots_after": None}).json()
    clock.move(0.7)   # a round of matching runs; each poll below runs one too
    for ticket in (one, two):
        assert client.get(f"/api/quick-play/{ticket['ticket']}").json()["status"] == "waiting"


def test_a_ticket_can_be_cancelled_and_an_unpolled_one_is(make_client: Any,
                                                           clock: Any) -> None:
    client = make_client(quick_play_poll=8)
    body = {"game": "durak", "players": 2, "bots_after": None}
    one = client.post("/api/quick-play", json=body).json()
    cancelled = client.delete(f"/api/quick-play/{one['ticket']}").json()
    assert cancelled["status"] == "cancelled"
    two = client.post("/api/quick-play", json=body).json()
    assert client.get(f"/api/quick-play/{two['ticket']}").json()["status"] == "waiting"
    clock.move(9)   # no poll for longer than a ticket lives: the next round cancels it
    store = client.app.state.quickplay.store
    wait_for(lambda: store.entries[two["ticket"]].status == "cancelled")
    assert client.get(f"/api/quick-play/{two['ticket']}").json()["status"] == "cancelled"


@pytest.mark.parametrize(("body", "status"), [
    ({"game": "chess", "players": 2}, 422), ({"game": "durak", "players": 1}, 422),
    ({"game": "durak", "players": 2, "bots_after": -1}, 422),
    ({"game": "durak", "preset": "nosuch"}, 422), ({"game": "durak", "extra": 1}, 422)])
def test_quick_play_refuses_what_cannot_be_played(client: TestClient, body: dict,
                                                  status: int) -> None:
    answer = client.post("/api/quick-play", json=body)
    assert answer.status_code == status and "detail" in answer.json()


def test_an_unknown_ticket_is_404(client: TestClient) -> None:
    answer = client.get("/api/quick-play/nosuchticket")
    assert answer.status_code == 404 and answer.json()["code"] == "ticket_gone"
    assert client.delete("/api/quick-play/" + "x" * 200).status_code == 404


def test_a_ticket_is_polled_and_cancelled_with_it_in_the_body(client: TestClient) -> None:
    """The page's way: the ticket never in a URL (a proxy writes URLs down)."""
    body = {"game": "durak", "preset": "transfer", "players": 2, "bots_after": None}
    one = client.post("/api/quick-play", json=body).json()
    polled = client.post("/api/quick-play/poll", json={"ticket": one["ticket"]})
    assert polled.status_code == 200 and polled.json()["status"] == "waiting"
    two = client.post("/api/quick-play", json=body).json()
    matched = wait_for(lambda: (a := client.post("/api/quick-play/poll", json={
        "ticket": one["ticket"]}).json())["status"] == "matched" and a)
    assert matched["token"] and matched["table"]
    three = client.post("/api/quick-play", json=body).json()
    left = client.post("/api/quick-play/cancel", json={"ticket": three["ticket"]})
    assert left.status_code == 200 and left.json()["status"] == "cancelled"
    kept = client.post("/api/quick-play/cancel", json={"ticket": two["ticket"]}).json()
    assert kept["status"] == "matched" and kept["table"] == matched["table"]
    for path in ("poll", "cancel"):
        gone = client.post(f"/api/quick-play/{path}", json={"ticket": "nosuchticket"})
        assert gone.status_code == 404 and gone.json()["code"] == "ticket_gone"
        for bad in ({}, {"ticket": 7}, {"ticket": "x" * 201}, {"ticket": "a", "more": 1}):
            refused = client.post(f"/api/quick-play/{path}", json=bad)
            assert refused.status_code == 422 and refused.json()["code"], (bad, refused.text)


# -- the matching rule ------------------------------------------------------------------------

def entry(name: str, rating: float | None, entered: float = 0, players: int = 2,
          bots_after: float | None = None) -> Entry:
    return Entry(name, "durak", "transfer", players, bots_after, entered=entered, polled=0,
                 rating=rating)


def test_players_of_similar_rating_are_matched_first() -> None:
    tickets = [entry("a", 1500), entry("far", 1900), entry("near", 1550)]
    assert [[e.ticket for e in g] for g, _ in match(tickets, at=1)] == [["a", "near"]]


def test_the_rating_window_widens_as_players_wait() -> None:
    tickets = [entry("a", 1500), entry("b", 1800)]
    assert match(tickets, at=5) == []
    assert [[e.ticket for e in g] for g, _ in match(tickets, at=25)] == [["a", "b"]]


def test_bots_fill_the_seats_only_for_those_who_asked_for_them() -> None:
    tickets = [entry("a", None, players=3, bots_after=10),
               entry("waits", None, entered=1, players=3)]
    assert match(tickets, at=5) == []
    [(group, bots)] = match(tickets, at=10)
    assert [e.ticket for e in group] == ["a"] and bots == 2


def test_staying_away_past_the_grace_period_at_a_clocked_table_forfeits_the_seat(
        make_client: Any, clock: Any) -> None:
    client = make_client(grace=30)
    seated = create(client, game="durak", seats=["human", "bot:random"],
                    takeover="bot:random", clock={"move": 600, "bank": 0})
    with ticking(clock, 5):
        described = wait_for(lambda: info(client, seated["table"])["over"]
                             and info(client, seated["table"]))
    assert described["summary"]["forfeits"] == [0]


def test_staying_away_at_a_table_without_a_clock_does_not_forfeit(make_client: Any,
                                                                 clock: Any) -> None:
    client = make_client(grace=30)
    seated = create(client, game="durak", seats=["human", "bot:random"],
                    takeover="bot:random")
    with ticking(clock, 5):
        described = wait_for(lambda: info(client, seated["table"])["over"]
                             and info(client, seated["table"]))
    assert "forfeits" not in described["summary"]
    assert described["gone"] == []


def test_one_address_may_hold_only_a_few_tickets(client: TestClient) -> None:
    # one ticket in each pool: none is matched, all four wait
    tickets = [client.post("/api/quick-play", json={"game": "durak", "players": players,
                                                    "bots_after": None})
               for players in (2, 3, 4, 5)]
    assert [t.status_code for t in tickets] == [201] * 4
    refused = client.post("/api/quick-play", json={"game": "durak", "players": 6,
                                                   "bots_after": None})
    assert refused.status_code == 429 and refused.json()["code"] == "too_many_tickets"


def test_the_terminal_viewer_shows_the_clock_of_the_seat_to_move(tmp_path: Any) -> None:
    import httpx
    from tablekit import server

    from cardtable.server.viewer import watch

    with server(tmp_path / "data") as (_, base):
        seated = httpx.post(f"{base}/api/tables", json={
            "game": "durak", "seats": ["human", "human"], "name": "Ana",
            "clock": {"move": 30, "bank": 90}}).json()
        httpx.post(f"{base}/api/tables/{seated['table']}/join", json={"name": "Bo"})
        lines: list[str] = []
        state = watch(f"{base}/table/{seated['table']}", seated["token"], once=True,
                      out=lines.append)
    assert state is not None
    to_move = ["Ana", "Bo"][state["to_move"]]
    assert lines[0].startswith(f"#0  {to_move} to move 0:")
    assert " + 1:30" in lines[0] and "*Ana" in lines[0]


def test_a_seat_left_stays_with_the_bot_after_a_restart(make_client: Any) -> None:
    client = make_client()
    first, _ = two_people(client, takeover="bot:random")
    table = first["table"]
    assert client.post(f"/api/tables/{table}/leave",
                       json={"token": first["token"]}).status_code == 200
    client.__exit__(None, None, None)
    again = make_client()
    described = info(again, table)
    assert described["gone"] == [0]
    assert described["seats"][0]["bot_playing"] is True
    refused = again.post(f"/api/tables/{table}/leave", json={"token": first["token"]})
    assert refused.status_code == 409 and refused.json()["code"] == "already_left"
