"""A real server process killed with SIGKILL resumes every table where it was: killed
during moves, during joins and while bots think, on SQLite and on PostgreSQL."""

from __future__ import annotations

import collections
import json
import os
import random
import subprocess
import sys
import threading
import time
from collections.abc import Iterable
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from tablekit import ROOT, next_state, play_until_seat_moves, server, socket_for
from websockets.sync.client import ClientConnection

from cardtable import games
from cardtable.cards import Card
from cardtable.records import rules_from_dict
from cardtable.server.store.storage import Storage, sqlite_url


def test_a_killed_server_resumes_every_table_at_the_same_version_with_the_same_hands(
        tmp_path: Path) -> None:
    data = tmp_path / "data"
    rng = random.Random(21)
    with server(data) as (process, base), ExitStack() as open_sockets:
        # a Durak table of two people, and a Pasur match against a bot
        durak = httpx.post(f"{base}/api/tables", json={
            "game": "durak", "seats": ["human", "human"]}).json()
        joined = httpx.post(f"{base}/api/tables/{durak['table']}/join").json()
        pasur = httpx.post(f"{base}/api/tables", json={
            "game": "pasur", "seats": ["human", "bot:random"]}).json()
        tokens = {0: durak["token"], 1: joined["token"]}
        sockets = {seat: open_sockets.enter_context(socket_for(base, durak["table"], token))
                   for seat, token in tokens.items()}
        latest = {seat: next_state(ws) for seat, ws in sockets.items()}
        for _ in range(8):
            version = latest[0]["version"]
            mover = latest[0]["to_move"]
            move = rng.choice(latest[mover]["legal_moves"])
            sockets[mover].send(json.dumps({"type": "move", "version": version, "move": move}))
            latest = {seat: next_state(ws, version + 1) for seat, ws in sockets.items()}
        # the Pasur match plays into its second hand, so a second deck has been dealt
        with socket_for(base, pasur["table"], pasur["token"]) as ws:
            state = next_state(ws)
            while state["view"]["match"]["hand_number"] < 2:
                if state["legal_moves"]:
                    ws.send(json.dumps({"type": "move", "version": state["version"],
                                        "move": rng.choice(state["legal_moves"])}))
                    state = next_state(ws, state["version"] + 1)
                else:
                    state = next_state(ws)
            while not state["legal_moves"]:
                state = next_state(ws)
            pasur_before = state
        process.kill()  # SIGKILL: no shutdown code runs
        process.wait(10)

    with server(data, "--log-level", "info") as (again_process, base):
        assert httpx.get(f"{base}/api/health").json()["broken"] == []
        for seat, token in tokens.items():
            with socket_for(base, durak["table"], token) as ws:
                again = next_state(ws)
            assert again["version"] == latest[seat]["version"] == 8
            assert again["view"] == latest[seat]["view"], "the hand changed in the restart"
            assert again["legal_moves"] == latest[seat]["legal_moves"]
        with socket_for(base, pasur["table"], pasur["token"]) as ws:
            again = next_state(ws)
            assert again["version"] == pasur_before["version"]
            assert again["view"] == pasur_before["view"]
            # and the match goes on: the bot answers a move after the restart
            after = play_until_seat_moves(ws, again, 1)
            assert after["last_move"]["seat"] == 1 and after["version"] > again["version"]
        info = httpx.get(f"{base}/api/tables/{pasur['table']}").json()
        assert info["status"] == "playing"
    # the log tells of the connections, but not of their seat keys (never in a URL)
    log = again_process.log_path.read_text()
    assert "WebSocket /ws/tables/" in log
    assert all(token not in log for token in (*tokens.values(), pasur["token"]))


@pytest.mark.parametrize("argv", [["--help"]])
def test_the_module_runs_as_a_command(argv: list[str]) -> None:
    result = subprocess.run([sys.executable, "-m", "cardtable.server", *argv], cwd=ROOT,
                            capture_output=True, text=True, timeout=60,
                            env={**os.environ, "COLUMNS": "100"})
    assert result.returncode == 0
    assert "--database-url" in result.stdout and "--data-dir" in result.stdout


def children_of(pid: int) -> set[int]:
    found = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        found |= {int(child) for child in text}
    return found


def running(pid: int) -> bool:
    """Whether a process is there and not a zombie waiting to be reaped."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_bot_processes_end_when_the_server_is_killed(tmp_path: Path) -> None:
    with server(tmp_path / "data", "--bot-processes", "1") as (process, base):
        seated = httpx.post(f"{base}/api/tables", json={
            "game": "durak", "seats": ["human", "bot:random"]}).json()
        with socket_for(base, seated["table"], seated["token"]) as ws:
            state = next_state(ws)
            while not state["legal_moves"]:
                state = next_state(ws)
            answered = play_until_seat_moves(ws, state, 1)
            assert answered["last_move"]["seat"] == 1  # the bot answered from its process
        children = children_of(process.pid)
        assert children, "no bot process was started"
        process.kill()
        process.wait(10)
    deadline = time.monotonic() + 20
    while any(running(child) for child in children):
        assert time.monotonic() < deadline, "bot processes outlived the server: " + "; ".join(
            Path(f"/proc/{child}/cmdline").read_text().replace("\0", " ")[:120]
            for child in children if running(child))
        time.sleep(0.2)


# -- kill -9 during moves, during joins and during bot thinking (SQLite and PostgreSQL) -----
#
# Each test drives a real server process from several threads, kills it with SIGKILL in the
# middle, starts it again on the same database and plays every table to its end.  Then the
# database is read directly: every move any client was told of (acknowledged) is stored at
# its index, once, by the seat that made it, and every game replays to its end.

BOT = "bot:ismcts:iterations=40"


@dataclass(frozen=True)
class Store:
    args: tuple[str, ...]
    url: str


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.services)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    if request.param == "sqlite":
        return Store(args=(), url=sqlite_url(tmp_path / "data"))
    url = request.getfixturevalue("database_url")
    return Store(args=("--database-url", url), url=url)


class Seen:
    """Every move a client was told of, by table and index (what the server acknowledged),
    and the faults the client threads met before the kill."""

    def __init__(self) -> None:
        self.moves: dict[str, dict[int, tuple[int, str]]] = collections.defaultdict(dict)
        self.faults: list[str] = []
        self.killed = threading.Event()
        self.lock = threading.Lock()

    def state(self, ws: ClientConnection, at_least: int = -1) -> dict:
        """The next state at or past ``at_least``; every move seen on the way is noted."""
        while True:
            message = json.loads(ws.recv(timeout=30))
            if message["type"] != "state":
                continue
            move = message["last_move"]
            if move is not None:
                with self.lock:
                    told = self.moves[message["table"]].setdefault(
                        move["index"], (move["seat"], move["move"]))
                    if told != (move["seat"], move["move"]):
                        self.faults.append(f"{message['table']} move {move['index']}: told "
                                           f"{told} and then {move}")
            if message["version"] >= at_least:
                return message

    def count(self, table: str | None = None) -> int:
        with self.lock:
            if table is not None:
                return len(self.moves[table])
            return sum(len(moves) for moves in self.moves.values())

    def run(self, target: Any, *args: Any) -> threading.Thread:
        """``target(*args)`` in a thread; a fault before the kill is kept for the test."""

        def guarded() -> None:
            try:
                target(*args)
            except Exception as error:
                if not self.killed.is_set():
                    with self.lock:
                        self.faults.append(f"{type(error).__name__}: {error}")

        thread = threading.Thread(target=guarded, daemon=True)
        thread.start()
        return thread


def play_seats(seen: Seen, sockets: dict[int, ClientConnection], rng: random.Random) -> dict:
    """Play random legal moves for the seats held (bots play the others) until the end."""
    latest = {seat: seen.state(ws) for seat, ws in sockets.items()}
    for _ in range(5000):
        version = max(state["version"] for state in latest.values())
        for seat, ws in sockets.items():
            if latest[seat]["version"] < version:
                latest[seat] = seen.state(ws, version)
        state = next(iter(latest.values()))
        if state["over"]:
            return state
        mover = state["to_move"]
        if mover in sockets and latest[mover]["legal_moves"]:
            sockets[mover].send(json.dumps({"type": "move", "version": version,
                                            "move": rng.choice(latest[mover]["legal_moves"])}))
            latest[mover] = seen.state(sockets[mover], version + 1)
        else:  # a bot is to move
            seat, ws = next(iter(sockets.items()))
            latest[seat] = seen.state(ws, version + 1)
    raise AssertionError("the game did not end")


def play_table(seen: Seen, base: str, table: str, tokens: dict[int, str | None],
               seed: int) -> dict:
    with ExitStack() as stack:
        sockets = {}
        for seat, token in tokens.items():
            try:
                sockets[seat] = stack.enter_context(socket_for(base, table, token))
            except Exception as error:   # say which seat: a refusal is otherwise anonymous
                raise AssertionError(f"table {table}, seat {seat}: {error!r}") from error
        return play_seats(seen, sockets, random.Random(seed))


def watch_table(seen: Seen, base: str, table: str) -> dict:
    with socket_for(base, table, None) as ws:
        state = seen.state(ws)
        while not state["over"]:
            state = seen.state(ws)
        return state


def wait_until(predicate: Any, what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"waited in vain for {what}"
        time.sleep(0.02)


def kill(process: subprocess.Popen, seen: Seen) -> None:
    assert not seen.faults, seen.faults
    seen.killed.set()
    process.kill()  # SIGKILL: no shutdown code runs
    process.wait(10)


def finish_all(seen: Seen, base: str, tables: dict[str, dict[int, str | None]]) -> None:
    """Play every table to its end at once (a table of bots only is watched)."""
    seen.killed.clear()
    finals: dict[str, dict] = {}

    def one(table: str, tokens: dict[int, str | None], seed: int) -> None:
        finals[table] = (play_table(seen, base, table, tokens, seed) if tokens
                         else watch_table(seen, base, table))

    threads = [seen.run(one, table, tokens, seed)
               for seed, (table, tokens) in enumerate(tables.items())]
    for thread in threads:
        thread.join(120)
    assert not seen.faults, seen.faults
    assert all(finals[table]["over"] for table in tables), "a table did not finish"


def check_stored(url: str, seen: Seen, tables: Iterable[str]) -> None:
    """Read the database itself: each game over, its moves numbered 0, 1, ... each made by
    the seat that was to move, replaying to the end over the stored decks, and every move a
    client was told of stored at its index."""
    storage = Storage(url)
    try:
        for table in tables:
            stored = storage.load(table)
            assert stored is not None
            assert stored.row.status == "over", table
            spec = games.get(stored.row.game)
            decks = [[Card.parse(text) for text in deck] for deck in stored.decks]
            state = spec.start(rules_from_dict(spec, stored.row.rules),
                               players=stored.row.players, seed=random.Random(0), decks=decks)
            for index, move in enumerate(stored.moves):
                assert move.index == index
                assert move.seat == state.to_move, f"{table} move {index} by the wrong seat"
                state.push(state.parse_move(move.move))
            assert state.is_over()
            assert [[c.text for c in deck] for deck in spec.deals(state)] == stored.decks
            for index, told in seen.moves[table].items():
                assert (stored.moves[index].seat, stored.moves[index].move) == told, (
                    f"{table}: move {index} was acknowledged as {told}")
    finally:
        storage.close()


def test_a_kill_during_moves_loses_no_acknowledged_move(store: Store, tmp_path: Path) -> None:
    data, seen = tmp_path / "data", Seen()
    tables: dict[str, dict[int, str | None]] = {}
    with server(data, *store.args) as (process, base):
        for _ in range(6):
            made = httpx.post(f"{base}/api/tables", json={
                "game": "durak", "seats": ["human", "human"]}).json()
            joined = httpx.post(f"{base}/api/tables/{made['table']}/join").json()
            tables[made["table"]] = {0: made["token"], 1: joined["token"]}
        for seed, (table, tokens) in enumerate(tables.items()):
            seen.run(play_table, seen, base, table, tokens, seed)
        wait_until(lambda: seen.count() >= 30 or seen.faults, "moves")
        kill(process, seen)
    with server(data, *store.args) as (process, base):
        for table, tokens in tables.items():
            told = max(seen.moves[table], default=-1)
            with socket_for(base, table, tokens[0]) as ws:
                assert seen.state(ws)["version"] > told, "an acknowledged move was lost"
        finish_all(seen, base, tables)
    check_stored(store.url, seen, tables)


def test_a_kill_during_joins_leaves_every_table_playable(store: Store, tmp_path: Path) -> None:
    data, seen = tmp_path / "data", Seen()
    sizes: dict[str, int] = {}
    held: dict[str, dict[int, str | None]] = {}
    with server(data, *store.args) as (process, base):
        for number in range(10):
            players = 2 + number % 2
            made = httpx.post(f"{base}/api/tables", json={
                "game": "durak", "seats": ["human"] * players}).json()
            sizes[made["table"]] = players
            held[made["table"]] = {0: made["token"]}

        def join_all(order: list[str]) -> None:
            with httpx.Client(base_url=base, timeout=30) as http:
                for table in order:
                    while True:
                        answer = http.post(f"/api/tables/{table}/join")
                        if answer.status_code != 200:
                            assert answer.status_code == 409, answer.text
                            break
                        joined = answer.json()
                        with seen.lock:
                            held[table][joined["seat"]] = joined["token"]

        tables = list(sizes)
        for shift in range(4):  # four clients join at once, each going round the tables
            seen.run(join_all, tables[shift * 3:] + tables[:shift * 3])
        wait_until(lambda: sum(map(len, held.values())) >= len(sizes) + 8 or seen.faults,
                   "joins")
        kill(process, seen)
    # every acknowledged seat is there, with its token, however long connecting them all
    # takes (a grace that runs out first frees a seat nobody has connected to yet: a
    # loaded machine's 4403 "token holds no seat"); connected, each is claimed for good
    with server(data, *store.args, "--claim-grace", "3600") as (process, base), \
            ExitStack() as stack:
        assert httpx.get(f"{base}/api/health").json()["broken"] == []
        for table in sizes:
            info = httpx.get(f"{base}/api/tables/{table}").json()
            if info["free_seats"] == 0:
                assert info["status"] == "playing", f"{table}: every seat taken, not started"
        for table, tokens in held.items():
            for seat, token in tokens.items():
                ws = stack.enter_context(socket_for(base, table, token))
                assert seen.state(ws)["seat"] == seat
                stack.callback(ws.close)
        stack.close()
        process.kill()
        process.wait(10)
    # a seat whose join was never answered is freed once the grace is over (the seats
    # connected to stay, however long it takes)
    with server(data, *store.args, "--claim-grace", "0.5") as (process, base):
        for table, tokens in held.items():
            wait_until(lambda table=table, tokens=tokens: httpx.get(
                f"{base}/api/tables/{table}").json()["free_seats"]
                == sizes[table] - len(tokens), f"the unclaimed seats of {table}")
        process.kill()
        process.wait(10)
    # others take the freed seats, and every table plays to its end (a grace long enough
    # for their players to connect, however busy the machine)
    with server(data, *store.args, "--claim-grace", "3600") as (process, base):
        for table, tokens in held.items():
            assert httpx.get(f"{base}/api/tables/{table}").json()["free_seats"] == (
                sizes[table] - len(tokens))
            while len(tokens) < sizes[table]:
                joined = httpx.post(f"{base}/api/tables/{table}/join").json()
                tokens[joined["seat"]] = joined["token"]
        finish_all(seen, base, held)
    check_stored(store.url, seen, held)


def test_a_kill_while_bots_think_loses_nothing(store: Store, tmp_path: Path) -> None:
    data, seen = tmp_path / "data", Seen()
    tables: dict[str, dict[int, str | None]] = {}
    with server(data, *store.args) as (process, base):
        for _ in range(2):  # bots only: watched
            made = httpx.post(f"{base}/api/tables", json={
                "game": "durak", "seats": [BOT, BOT]}).json()
            tables[made["table"]] = {}
        for _ in range(2):  # a person against a bot
            made = httpx.post(f"{base}/api/tables", json={
                "game": "durak", "seats": ["human", BOT]}).json()
            tables[made["table"]] = {0: made["token"]}
        for seed, (table, tokens) in enumerate(tables.items()):
            if tokens:
                seen.run(play_table, seen, base, table, tokens, seed)
            else:
                seen.run(watch_table, seen, base, table)
        wait_until(lambda: all(seen.count(table) >= 4 for table in tables) or seen.faults,
                   "bot moves")
        kill(process, seen)
    with server(data, *store.args) as (process, base):
        finish_all(seen, base, tables)
    check_stored(store.url, seen, tables)


def test_a_server_stopped_with_sigterm_closes_sockets_with_1012_and_resumes_every_move(
        tmp_path: Path) -> None:
    """A deploy's stop: the players are told to connect again (1012, not a dropped
    connection), and the next start has every move it acknowledged."""
    import signal

    from websockets.exceptions import ConnectionClosed

    data = tmp_path / "data"
    with server(data) as (process, base):
        made = httpx.post(f"{base}/api/tables", json={
            "game": "durak", "seats": ["human", "bot:random"]}).json()
        with socket_for(base, made["table"], made["token"]) as ws:
            state = play_until_seat_moves(ws, next_state(ws), 1)
            reached = state["version"]
            assert httpx.get(f"{base}/api/health/ready").status_code == 200
            process.send_signal(signal.SIGTERM)
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    ws.recv(timeout=30)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
        assert "restarting" in closed.value.rcvd.reason
        assert process.wait(30) == -signal.SIGTERM
    with server(data) as (_, base), socket_for(base, made["table"], made["token"]) as ws:
        assert next_state(ws)["version"] >= reached


@pytest.mark.parametrize("kind", ["move", "resign", "leave", "resign_http"])
def test_what_a_player_is_told_survives_a_kill_the_moment_they_are_told_it(
        kind: str, tmp_path: Path) -> None:
    """One try of ``benchmarks/kill_after_ack.py`` (its aim: 20 of 20 for each kind): an
    act acknowledged to the player, SIGKILL at once, and the next start shows it."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from kill_after_ack import found, one_try

    data = tmp_path / "data"
    with server(data) as (process, base):
        table, expect, _ = one_try(base, kind, process)
    with server(data) as (_, base):
        assert found(base, kind, table, expect), httpx.get(f"{base}/api/tables/{table}").text
