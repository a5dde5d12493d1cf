"""Every limit is a setting with a sane default, and a client past one is refused with a
reason and a code, changing nothing: the message rate of a socket,
the sockets and new tables of an address, the tables of bots only, the rule options of
a new table, the size of a WebSocket frame."""

from __future__ import annotations

import argparse
import base64
import json
import os
import socket
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect
from tablekit import (
    MACHINE_SPEED,
    Player,
    connect,
    create,
    from_address,
    next_state,
    run_async,
    server,
    socket_for,
    wait_until,
)
from websockets.exceptions import ConnectionClosed, InvalidStatus

from cardtable.server.core.bounds import Limits
from cardtable.server.core.errors import Refused
from cardtable.server.core.settings import add_flags, from_flags
from cardtable.server.play import bot_runner, steps
from cardtable.server.play.guard import Guard, MessageRate

ROOT = Path(__file__).resolve().parents[2]


def limited(**changes: object) -> dict[str, Any]:
    return {**MACHINE_SPEED, **changes}


def table_count(client: TestClient) -> int:
    return client.get("/api/health").json()["tables"]


def drain(player: Player) -> tuple[list[dict], int | None]:
    """Every message until the server closes the socket, and the close code."""
    messages = []
    while True:
        try:
            messages.append(player.receive(timeout=30))
        except ConnectionError as closed:
            return messages, int(str(closed).split()[1])


# -- the message rate of a socket ----------------------------------------------------------

def test_a_token_bucket_lets_a_burst_through_then_warns_then_closes() -> None:
    now = [0.0]
    rate = MessageRate(per_second=2, burst=3, clock=lambda: now[0])
    assert [rate.admit() for _ in range(3)] == ["ok"] * 3
    assert [rate.admit() for _ in range(4)] == ["warn", "drop", "drop", "close"]
    now[0] += 0.5   # one message's worth of time
    fresh = MessageRate(per_second=2, burst=3, clock=lambda: now[0])
    assert [fresh.admit() for _ in range(4)] == ["ok", "ok", "ok", "warn"]
    now[0] += 2.0   # the bucket fills again: a client that slowed down starts afresh
    assert [fresh.admit() for _ in range(4)] == ["ok", "ok", "ok", "warn"]
    assert all(MessageRate(0, 1).admit() == "ok" for _ in range(100))   # 0: no limit


@pytest.mark.parametrize("limits", [limited(ws_messages_per_second=5, ws_message_burst=10),
                                    dict(Limits())], ids=["small", "default"])
def test_a_flooding_socket_is_warned_then_closed_and_the_table_plays_on(
        make_client: Callable[..., TestClient], limits: dict[str, Any]) -> None:
    client = make_client(**limits)
    ana = create(client, game="durak", seats=["human", "human"])
    bo = client.post(f"/api/tables/{ana['table']}/join").json()
    with connect(client, ana["table"], ana["token"]) as ws0, \
            connect(client, ana["table"], bo["token"]) as ws1, \
            connect(client, ana["table"]) as flooding:
        players = {0: Player(ws0), 1: Player(ws1)}
        first = {seat: player.state() for seat, player in players.items()}
        flood = Player(flooding)
        assert flood.state()["version"] == 0
        for _ in range(3 * limits["ws_message_burst"] + 50):
            flood.send({"type": "move", "version": 0, "move": "take"})
        messages, code = drain(flood)
        codes = [m.get("code") for m in messages if m["type"] == "error"]
        assert "rate_limited" in codes and codes[-1] == "message_flood"
        assert code == 1008
        # the players were not flooded, and play on
        mover = first[0]["to_move"]
        players[mover].move(first[mover], first[mover]["legal_moves"][0])
        assert players[1 - mover].state(1)["version"] == 1
    assert client.get(f"/api/tables/{ana['table']}").json()["version"] == 1


# -- watchers ----------------------------------------------------------------------------

def test_a_table_takes_so_many_watchers_and_refuses_one_more_in_words(
        make_client: Callable[..., TestClient]) -> None:
    client = make_client(**limited(watchers_per_table=2))
    seated = create(client, game="durak", seats=["human", "bot"])
    table = seated["table"]
    with connect(client, table, seated["token"]) as player, connect(client, table) as one, \
            connect(from_address(client, "10.0.0.2"), table) as two:
        for ws in (player, one, two):
            Player(ws).state()
        with connect(from_address(client, "10.0.0.3"), table) as three:
            refusal = json.loads(three.receive_text())
            assert refusal["code"] == "too_many_watchers" and refusal["limit"] == 2
            with pytest.raises(WebSocketDisconnect) as closed:
                three.receive_text()
            assert closed.value.code == 4429
    live = client.app.state.tables.live[table]   # type: ignore[attr-defined]
    wait_until(lambda: not live.connections, "every socket of the table closed")
    with connect(client, table) as again:   # the watchers left: room again
        assert Player(again).state()["seat"] is None


def test_a_new_watcher_is_sent_one_state_and_nobody_else_hears_of_it(
        client: TestClient) -> None:
    seated = create(client, game="durak", seats=["human", "human"])   # waits: nobody moves
    with connect(client, seated["table"], seated["token"]) as ws:
        player = Player(ws)
        version = player.state()["version"]
        with connect(client, seated["table"]) as watching:
            assert Player(watching).state()["version"] == version
            ws.send_text(json.dumps({"type": "ping"}))
            # a state sent for the watcher would have come before the answer to the ping
            assert json.loads(ws.receive_text()) == {"type": "pong"}


# -- bot thinking per address ------------------------------------------------------------

def test_the_bots_of_one_address_think_on_its_budget_and_others_do_not_wait_for_them(
        make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch) -> None:
    entered = threading.Semaphore(0)
    release = threading.Event()
    choose = bot_runner.bots.choose_within

    def held(bot: Any, state: Any, deadline: float) -> Any:
        entered.release()
        release.wait(20)
        return choose(bot, state, deadline)

    monkeypatch.setattr(bot_runner.bots, "choose_within", held)
    client = make_client(**limited(bots_thinking_per_address=1), bot_threads=4)
    other = from_address(client, "10.0.0.2")
    runner = client.app.state.tables.runner
    try:
        for maker in (client, client, other):   # two tables of one address, one of another
            create(maker, game="durak", seats=["bot:random", "bot:random"])
        assert entered.acquire(timeout=20) and entered.acquire(timeout=20)
        # one of the first address's bots thinks and one waits; the other's thinks
        def budgets() -> list[tuple[int, int]]:
            return [runner.thinking("address:testclient"), runner.thinking("address:10.0.0.2")]
        deadline = time.monotonic() + 20
        while client.portal.call(budgets) != [(1, 1), (1, 0)]:
            assert time.monotonic() < deadline, client.portal.call(budgets)
        assert not entered.acquire(blocking=False), "a second bot of one address thinks"
    finally:
        release.set()


def test_bots_wait_while_every_person_at_the_table_is_away() -> None:
    from test_server_dealer import table_of

    table = table_of("durak", 4)
    assert steps.unattended(table)   # its person has not come
    table.seats[0].connections = 1
    assert not steps.unattended(table)
    bots_only = table_of("durak", 4)
    bots_only.seats[0].kind = "bot"
    assert not steps.unattended(bots_only)
    left = table_of("durak", 4)   # its person left for good: the bots play it out
    assert left.life is not None
    left.life.left.append(0)
    assert not steps.unattended(left)


# -- sockets and new tables per address ---------------------------------------------------

def test_an_address_past_its_sockets_is_refused_with_429_and_others_are_not(
        make_client: Callable[..., TestClient]) -> None:
    client = make_client(**limited(connections_per_address=2))
    table = create(client, game="durak", seats=["human", "human"])["table"]
    with connect(client, table) as one, connect(client, table) as two:
        Player(one).state()
        Player(two).state()
        with pytest.raises(WebSocketDenialResponse) as refused, connect(client, table):
            pass
        assert refused.value.status_code == 429
        assert refused.value.json()["code"] == "too_many_connections"
        with connect(from_address(client, "10.0.0.2"), table) as elsewhere:
            assert Player(elsewhere).state()["version"] == 0
    with connect(client, table) as again:   # the two closed: room again
        assert Player(again).state()["version"] == 0


def test_an_address_past_its_new_tables_gets_429_and_nothing_is_made(
        make_client: Callable[..., TestClient]) -> None:
    client = make_client(**limited(tables_per_address="3/minute"))
    for _ in range(3):
        create(client, game="durak", seats=["human", "human"])
    refused = client.post("/api/tables", json={"game": "durak", "seats": ["human", "human"]})
    assert refused.status_code == 429
    assert refused.json()["code"] == "rate_limited" and "3 per 1 minute" in refused.json()[
        "detail"]
    assert int(refused.headers["Retry-After"]) >= 1
    assert table_count(client) == 3
    create(from_address(client, "10.0.0.2"), game="durak", seats=["human", "human"])
    assert table_count(client) == 4


@pytest.mark.services
def test_two_processes_counting_in_redis_share_an_address_quota() -> None:
    limits = Limits(**limited(tables_per_address="2/minute",
                            rate_limit_storage="redis://127.0.0.1:6379/15"))
    one, two = Guard(limits), Guard(limits)   # as two server processes would
    address = f"test-{uuid.uuid4()}"

    async def run() -> None:
        await one.check_table_rate(address)
        await one.count_table(address)
        await two.check_table_rate(address)
        await two.count_table(address)
        with pytest.raises(Refused) as refused:
            await one.check_table_rate(address)
        assert refused.value.status == 429 and refused.value.code == "rate_limited"

    run_async(run())


def test_tables_of_bots_only_are_limited_per_address_and_in_all(
        make_client: Callable[..., TestClient]) -> None:
    client = make_client(bot_delay=600, **limited(bot_tables_per_address=1, bot_tables=2))
    bots_only = {"game": "durak", "seats": ["bot:random", "bot:random"]}
    create(client, **bots_only)
    again = client.post("/api/tables", json=bots_only)
    assert again.status_code == 429 and again.json()["code"] == "too_many_bot_tables"
    assert "at most 1" in again.json()["detail"]
    create(from_address(client, "10.0.0.2"), **bots_only)
    third = from_address(client, "10.0.0.3").post("/api/tables", json=bots_only)
    assert third.status_code == 429 and "at most 2" in third.json()["detail"]
    assert table_count(client) == 2
    create(client, game="durak", seats=["human", "bot:random"])   # a person's table: fine


# -- the rules of a new table ---------------------------------------------------------------

@pytest.mark.parametrize(("options", "said"), [
    ({"target": 10**15}, "'target' is at most 1000"),
    ({"target": 1001}, "'target' is at most 1000"),
    ({"fixed_hands": 51}, "'fixed_hands' is at most 50"),
])
def test_a_rule_option_past_the_servers_bound_is_refused(
        client: TestClient, options: dict, said: str) -> None:
    response = client.post("/api/tables", json={
        "game": "pasur", "seats": ["bot:random", "bot:random"], "options": options})
    assert response.status_code == 422
    assert response.json()["code"] == "rule_option_out_of_bounds"
    assert said in response.json()["detail"]
    assert table_count(client) == 0


def test_rule_options_at_their_bound_are_accepted_and_the_lobby_shows_the_bound(
        make_client: Callable[..., TestClient]) -> None:
    client = make_client(bot_delay=600)
    create(client, game="pasur", seats=["human", "bot:random"], options={"target": 1000})
    create(client, game="pasur", seats=["human", "bot:random"], options={"fixed_hands": 50})
    pasur = next(g for g in client.get("/api/games").json() if g["name"] == "pasur")
    shown = {o["name"]: o["maximum"] for o in pasur["options"]}
    assert shown["target"] == 1000 and shown["fixed_hands"] == 50
    assert shown["jack_points"] == 100 and shown["jack"] is None


def test_the_bounds_name_options_not_games(make_client: Callable[..., TestClient],
                                           highcard: object) -> None:
    """A bound applies to every game's option of that name (here the test game's)."""
    client = make_client(**limited(rule_bounds={"hand_size": 2}))
    listed = next(g for g in client.get("/api/games").json() if g["name"] == "highcard")
    option = next(o for o in listed["options"] if o["name"] == "hand_size")
    assert option["maximum"] == 2
    refused = client.post("/api/tables", json={"game": "highcard", "players": 2,
                                               "seats": ["human", "bot:random"],
                                               "options": {"hand_size": 3}})
    assert refused.status_code == 422 and refused.json()["code"] == \
        "rule_option_out_of_bounds"


# -- settings ---------------------------------------------------------------------------------

def test_every_limit_is_a_flag_and_a_line_of_the_docs() -> None:
    parser = argparse.ArgumentParser()
    add_flags(parser)
    args = parser.parse_args(["--ws-messages-per-second", "3", "--rule-bounds",
                              "target=500,fixed_hands=9", "--bots", "random,easy",
                              "--tables-per-address", "5/minute"])
    limits = from_flags(parser, args)
    assert limits.ws_messages_per_second == 3 and limits.bots == ("random", "easy")
    assert limits.rule_bounds == {"target": 500, "fixed_hands": 9}
    assert limits.tables_per_address == "5/minute"
    defaults = from_flags(parser, parser.parse_args([]))
    assert {name: getattr(defaults, name) for name in Limits.model_fields} == dict(Limits())
    docs = (ROOT / "docs" / "server.md").read_text()
    for name in Limits.model_fields:
        assert f"`--{name.replace('_', '-')}`" in docs, f"{name} is not documented"


def test_a_limit_that_cannot_be_read_is_refused_before_the_server_starts() -> None:
    parser = argparse.ArgumentParser()
    add_flags(parser)
    for flag, text in [("--rule-bounds", "target"), ("--bot-bounds", "seconds=soon"),
                       ("--tables-per-address", "many"), ("--chat-per-window", "often")]:
        with pytest.raises(SystemExit):
            from_flags(parser, parser.parse_args([flag, text]))


# -- what a real server reads --------------------------------------------------------------

def test_a_real_server_closes_big_frames_answers_long_urls_and_refuses_extra_sockets(
        tmp_path: Path) -> None:
    with server(tmp_path / "data", "--connections-per-address", "3") as (process, base):
        table = httpx.post(f"{base}/api/tables", json={
            "game": "durak", "seats": ["human", "human"]}).json()["table"]
        with socket_for(base, table, None) as ws:
            next_state(ws)
            ws.send("x" * 5000)   # past the message limit, within the frame limit
            error = json.loads(ws.recv(timeout=20))
            assert error["type"] == "error" and error["code"] == "bad_message"
            assert "too long" in error["reason"]
            next_state(ws)
            ws.send("x" * (Limits().ws_max_bytes + 1))
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    ws.recv(timeout=20)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
        port = int(base.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=20) as raw:
            key = base64.b64encode(os.urandom(16)).decode()
            raw.sendall((f"GET /ws/tables/{table}?seat={'x' * 9000} HTTP/1.1\r\n"
                         f"Host: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                         f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n")
                        .encode())
            answer = raw.recv(4096)
        assert answer.startswith(b"HTTP/1.1 414"), answer[:80]
        with socket_for(base, table, None) as one, socket_for(base, table, None) as two, \
                socket_for(base, table, None) as three:
            for ws in (one, two, three):
                next_state(ws)
            with pytest.raises(InvalidStatus) as refused:
                socket_for(base, table, None)
            assert refused.value.response.status_code == 429
            assert json.loads(refused.value.response.body)["code"] == "too_many_connections"
        assert httpx.get(f"{base}/api/health").status_code == 200
    log = process.log_path.read_text()   # type: ignore[attr-defined]
    assert "Traceback" not in log and "ASGI callable" not in log, log[-2000:]
