"""Two server processes on one database, joined through Redis.

A table is played by the process that owns it; a player connected to the other process
is relayed.  When the owner is killed, the other process adopts its tables and play goes
on from the stored moves, every move stored once.  CI starts Redis, so there an unreachable
Redis fails the test.
"""

from __future__ import annotations

import json
import random
import secrets
import time
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest
from clusterkit import Seat, check_every_move_once, health, wait_for
from playerkit import PASSWORD
from tablekit import next_state, play_until_seat_moves, server, socket_for
from websockets.exceptions import ConnectionClosed

pytestmark = pytest.mark.services



def cluster_flags(redis_url: str) -> tuple[str, ...]:
    """The server flags of one test's processes: its Redis, under a prefix of its own."""
    return ("--redis-url", redis_url, "--redis-prefix", f"cardtable-test-{secrets.token_hex(4)}")


def move(ws: object, state: dict, text: str) -> None:
    ws.send(json.dumps({"type": "move", "version": state["version"], "move": text}))


def test_a_player_on_another_process_is_relayed_and_a_dead_owner_is_replaced(
        tmp_path: Path, redis_url: str) -> None:
    data = tmp_path / "data"
    flags = ("--redis-url", redis_url, "--redis-prefix", f"cardtable-test-{secrets.token_hex(4)}",
             "--lease", "3")
    rng = random.Random(31)
    with server(data, *flags) as (first, a), server(data, *flags) as (_, b), \
            ExitStack() as sockets:
        process_a = httpx.get(f"{a}/api/health").json()["process"]
        process_b = httpx.get(f"{b}/api/health").json()["process"]
        assert process_a and process_b and process_a != process_b
        # made on A, joined through B
        friends = httpx.post(f"{a}/api/tables", json={
            "game": "durak", "seats": ["human", "human"]}).json()
        joined = httpx.post(f"{b}/api/tables/{friends['table']}/join").json()
        assert joined["seat"] == 1
        table = friends["table"]
        assert httpx.get(f"{b}/api/tables/{table}").json()["status"] == "playing"
        ws = {0: sockets.enter_context(socket_for(a, table, friends["token"])),
              1: sockets.enter_context(socket_for(b, table, joined["token"]))}
        watcher = sockets.enter_context(socket_for(b, table, None))
        latest = {seat: next_state(w) for seat, w in ws.items()}
        for seat, w in ws.items():   # a relayed seat may first see the table as it was
            while latest[seat]["status"] != "playing":
                latest[seat] = next_state(w)
        assert latest[1]["seat"] == 1 and latest[1]["view"]["hand"]
        for _ in range(6):
            version, mover = latest[0]["version"], latest[0]["to_move"]
            assert latest[1]["version"] == version and latest[mover]["legal_moves"], latest
            move(ws[mover], latest[mover], rng.choice(latest[mover]["legal_moves"]))
            latest = {seat: next_state(w, version + 1) for seat, w in ws.items()}
            assert next_state(watcher, version + 1)["legal_moves"] == []
        assert latest[1]["version"] == 6
        # a mistake made through the relay is refused like any other
        ws[1].send(json.dumps({"type": "move", "version": 0, "move": "take"}))
        while (reply := json.loads(ws[1].recv(timeout=20)))["type"] != "error":
            pass
        assert "version" in reply["reason"]
        # a human and a bot on A
        solo = httpx.post(f"{a}/api/tables", json={
            "game": "durak", "seats": ["human", "bot:random"]}).json()
        with socket_for(a, solo["table"], solo["token"]) as alone:
            state = next_state(alone)
            while not state["legal_moves"]:
                state = next_state(alone)
        solo_before = state
        assert httpx.get(f"{b}/api/health").json()["live"] == 0, "B plays nothing of A's"

        first.kill()  # SIGKILL: A's leases run out and B adopts its tables
        first.wait(10)
        deadline = time.monotonic() + 30
        while httpx.get(f"{b}/api/health").json()["live"] < 2:
            assert time.monotonic() < deadline, "B did not adopt A's tables"
            time.sleep(0.2)
        # the relayed player is told to reconnect
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                last = json.loads(ws[1].recv(timeout=20))
        assert closed.value.rcvd.code == 1012
        assert last["type"] == "error" and "moved" in last["reason"]

        with socket_for(b, table, friends["token"]) as again0, \
                socket_for(b, table, joined["token"]) as again1:
            now = {0: next_state(again0), 1: next_state(again1)}
            for seat in (0, 1):
                assert now[seat]["version"] == 6
                assert now[seat]["view"] == latest[seat]["view"]
            mover = now[0]["to_move"]
            move((again0, again1)[mover], now[mover], now[mover]["legal_moves"][0])
            assert next_state(again1, 7)["version"] == 7
        with socket_for(b, solo["table"], solo["token"]) as alone:
            state = next_state(alone)
            assert state["version"] == solo_before["version"]
            assert state["view"] == solo_before["view"]
            answered = play_until_seat_moves(alone, state, 1)
            assert answered["last_move"]["seat"] == 1 and answered["version"] > state["version"]


def test_one_of_two_processes_killed_mid_game_every_game_ends_with_every_move_once(
        tmp_path: Path, redis_url: str) -> None:
    data = tmp_path / "data"
    flags = ("--redis-url", redis_url, "--redis-prefix", f"cardtable-test-{secrets.token_hex(4)}",
             "--lease", "2")
    with server(data, *flags) as (first, a), server(data, *flags) as (_, b):
        # tables made on either process, their players on either (relayed or not), and
        # two people at one table, one on each process
        seats: list[Seat] = []
        for number, (made_on, played_on) in enumerate([(a, a), (a, b), (b, a), (b, b)] * 2):
            table = httpx.post(f"{made_on}/api/tables", json={
                "game": "durak", "seats": ["human", "bot:random"]}).json()
            seats.append(Seat([played_on, b], table["table"], table["token"], seed=number,
                              pause_at=4))
        friends = httpx.post(f"{a}/api/tables", json={
            "game": "durak", "seats": ["human", "human"]}).json()
        joined = httpx.post(f"{b}/api/tables/{friends['table']}/join").json()
        seats.append(Seat([a, b], friends["table"], friends["token"], seed=20, pause_at=4))
        seats.append(Seat([b], friends["table"], joined["token"], seed=21, pause_at=4))
        for seat in seats:
            seat.start()
        wait_for(lambda: all(seat.paused.is_set() for seat in seats), "the games did not start")

        first.kill()  # SIGKILL, every game under way: B adopts A's tables once their
        first.wait(10)  # leases run out, and everyone reconnects to B
        for seat in seats:
            seat.resume()
        for seat in seats:
            seat.check()
        assert health(b).json()["live"] == 0
        moves = check_every_move_once(data, seats)
        assert moves >= 10 * len(seats) // 2
        for seat in seats:  # no close but the killed process's and "connect again"
            assert all(code in (None, 1012) for code, _ in seat.closes), seat.closes


def test_a_new_name_given_through_one_process_is_shown_at_a_table_another_plays(
        tmp_path: Path, redis_url: str) -> None:
    data = tmp_path / "data"
    flags = cluster_flags(redis_url)
    with server(data, *flags) as (_, a), server(data, *flags) as (_, b), \
            httpx.Client(base_url=b) as zhenya:
        made = httpx.post(f"{a}/api/tables", json={
            "game": "durak", "seats": ["human", "human"]}).json()   # played by A
        zhenya.get("/api/me")
        joined = zhenya.post(f"/api/tables/{made['table']}/join").json()
        with socket_for(a, made["table"], made["token"]) as ws:
            assert next_state(ws)["seats"][1]["name"] != "Zhenya"
            renamed = zhenya.post("/api/me/name", json={"name": "Zhenya"},
                                  headers={"Origin": b})
            assert renamed.status_code == 200 and joined["seat"] == 1
            while next_state(ws)["seats"][1]["name"] != "Zhenya":   # A shows it
                pass


def test_signing_out_everywhere_closes_a_spectators_socket_another_process_relays(
        tmp_path: Path, redis_url: str) -> None:
    """An account watches a table process A plays, through process B (which relays the
    socket to A), and signs out everywhere through B: every process is told, and A closes
    the relayed socket; the players' sockets stay open."""
    data = tmp_path / "data"
    flags = cluster_flags(redis_url)
    with server(data, *flags) as (_, a), server(data, *flags) as (_, b), \
            httpx.Client(base_url=b, headers={"Origin": b}) as darya:
        made = httpx.post(f"{a}/api/tables", json={
            "game": "durak", "seats": ["human", "human"]}).json()   # played by A
        assert darya.post("/api/account/register", json={
            "username": "darya_watching", "password": PASSWORD}).is_success
        with socket_for(b, made["table"], None, dict(darya.cookies)) as watching, \
                socket_for(a, made["table"], made["token"]) as seated:
            next_state(watching)
            next_state(seated)
            assert darya.post("/api/account/sign-out-everywhere").status_code == 200
            with pytest.raises(ConnectionClosed):
                while True:   # until closed; a socket left open times out instead
                    watching.recv(timeout=20)
            seated.send(json.dumps({"type": "ping"}))
            while json.loads(seated.recv(timeout=20))["type"] != "pong":
                pass


def test_an_admin_closes_a_table_another_process_plays(tmp_path: Path, redis_url: str) -> None:
    """The close reaches the owning process over Redis: the table ends closed there, its
    players' sockets close, and the admin's answer waits until the database shows it."""
    from typer.testing import CliRunner

    from cardtable.cli import app as cli

    data = tmp_path / "data"
    flags = cluster_flags(redis_url)
    with server(data, *flags) as (_, a), server(data, *flags) as (_, b), \
            httpx.Client(base_url=b, headers={"Origin": b}) as admin:
        assert admin.post("/api/account/register", json={
            "username": "root_of_b", "password": PASSWORD}).is_success
        granted = CliRunner().invoke(cli, ["admin", "grant", "root_of_b", "--data-dir", str(data)])
        assert granted.exit_code == 0, granted.output
        made = httpx.post(f"{a}/api/tables", json={
            "game": "durak", "seats": ["human", "bot:random"]}).json()   # played by A
        with socket_for(a, made["table"], made["token"]) as seated:
            next_state(seated)
            closed = admin.post(f"/api/tables/{made['table']}/close",
                                json={"reason": "offensive table"})
            assert closed.status_code == 200, closed.text
            with pytest.raises(ConnectionClosed):
                while True:
                    seated.recv(timeout=20)
        for base in (a, b):
            info = httpx.get(f"{base}/api/tables/{made['table']}")
            assert (info.status_code, info.json()["code"]) == (410, "table_closed")
        again = admin.post(f"/api/tables/{made['table']}/close", json={})
        assert (again.status_code, again.json()["code"]) == (409, "conflict")


def test_a_deleted_accounts_name_leaves_a_finished_table_another_process_holds(
        tmp_path: Path, redis_url: str) -> None:
    """Deleted through process B, the account's seat at a finished table process A still
    holds in memory shows the anonymous name there too (told over Redis)."""
    data = tmp_path / "data"
    flags = cluster_flags(redis_url)
    password = PASSWORD
    with server(data, *flags) as (_, a), server(data, *flags) as (_, b), \
            httpx.Client(base_url=b, headers={"Origin": b}) as darya:
        assert darya.post("/api/account/register", json={
            "username": "darya_leaving", "password": password}).is_success
        signed_in = {"cookies": dict(darya.cookies), "headers": {"Origin": a}}
        made = httpx.post(f"{a}/api/tables", json={   # played by A
            "game": "durak", "seats": ["human", "bot:random"]}, **signed_in).json()

        def shown() -> str:
            info = httpx.get(f"{a}/api/tables/{made['table']}").json()
            return str(info["seats"][made["seat"]]["name"])

        assert shown() == "darya_leaving"
        assert httpx.post(f"{a}/api/tables/{made['table']}/resign",
                          json={"token": made["token"]}, **signed_in).status_code == 200
        deleted = darya.post("/api/account/delete", json={"password": password})
        assert deleted.status_code == 200, deleted.text
        anonymous = deleted.json()["name"]
        assert anonymous != "darya_leaving"
        wait_for(lambda: shown() == anonymous, "A shows the anonymous name", 10, shown)
