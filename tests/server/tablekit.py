"""Helpers for the web table's tests: WebSocket players that keep every message, real
server processes, and a TCP proxy that makes a database unreachable on demand."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import random
import re
import socket
import struct
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx
from fastapi.testclient import TestClient
from forkstart import start_server
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as ws_connect

from cardtable.server.core.bounds import OFFERED_BOTS
from cardtable.server.core.wire import seat_protocols

MACHINE_SPEED: dict[str, Any] = {"ws_messages_per_second": 0, "tables_per_address": "",
                                 "bot_tables_per_address": 1000, "bot_tables": 1000}
"""Settings of the tests' apps (``create_app(**MACHINE_SPEED)``): the tests play at machine
speed and make many tables from one address, with no quotas on that (the tests of the
limits set their own)."""


def with_bots(*names: str) -> dict[str, Any]:
    """``MACHINE_SPEED``, the server offering these bots (a test's own) too."""
    return {**MACHINE_SPEED, "bots": (*OFFERED_BOTS, *names)}


def wait_until(predicate: Callable[[], object], what: str, timeout: float = 30) -> None:
    """Wait for something the server does in its own thread (a socket's close handled),
    failing with ``what`` if it never happens."""
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"waited in vain for {what}"
        time.sleep(0.01)


class Stuck:
    """A game whose legal moves never come: a bot asked to choose in it never answers (it
    is pickled into bot processes, which import it from here)."""

    to_move = 0

    def legal_moves(self) -> list:
        time.sleep(3600)
        return []


@dataclasses.dataclass(frozen=True)
class Gate:
    """A bot process's job (``BotWorkers.run`` or ``background``) that says it started
    (``gate + ".started"``), waits until the file ``gate`` exists (an hour at most), then
    answers with its process id and whether ``look`` existed when the gate opened."""

    gate: str
    look: str = ""

    def run(self, own: dict[str, Any]) -> dict[str, Any]:
        import os

        Path(self.gate + ".started").touch()
        for _ in range(360_000):
            if Path(self.gate).exists():
                break
            time.sleep(0.01)
        return {"pid": os.getpid(), "saw": bool(self.look) and Path(self.look).exists()}


@dataclasses.dataclass(frozen=True)
class GatedHint:
    """A hint job (``bot_workers.HintJob``'s fields) that waits, before thinking, until
    the file named by ``$CARDTABLE_TEST_GATE`` exists (the workers inherit it)."""

    state: Any
    level: str
    lang: str
    top: int
    seed: int

    def run(self, own: dict[str, Any]) -> Any:
        import os

        from cardtable.server.play.bot_workers import HintJob

        Gate(os.environ["CARDTABLE_TEST_GATE"]).run(own)
        return HintJob(self.state, self.level, self.lang, self.top, self.seed).run(own)


@contextmanager
def ticking(clock: Any, step: float) -> Iterator[None]:
    """The test's fake clock runs by itself inside the block: ``step`` seconds of it for
    each hundredth of a real second, so a grace, a clock or a retry of the server ends as
    soon as the server can get to it, however long it is."""
    stop = threading.Event()

    def run() -> None:
        while not stop.wait(0.01):
            clock.move(step)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


def wait_for_file(path: Path, timeout: float = 120) -> None:
    """Until ``path`` exists (a bound on the wait, not a timing)."""
    for _ in range(int(timeout * 20)):
        if path.exists():
            return
        time.sleep(0.05)
    raise AssertionError(f"{path} never appeared in {timeout} s")


def from_address(client: TestClient, host: str) -> TestClient:
    """A client of the same running app (the same event loop) from another address."""
    other = TestClient(client.app, client=(host, 50000))
    other.portal = client.portal
    return other


CARD_TEXT = re.compile(r"(?<![0-9A-Za-z])(10|[2-9AJQK])([♣♦♥♠])")


def cards_in(text: str) -> set[str]:
    """Every card named in a text, in its canonical form (such as 10♦)."""
    return {rank + suit for rank, suit in CARD_TEXT.findall(text)}


class Player:
    """One WebSocket at a table, as a test drives it; keeps every text it received."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.texts: list[str] = []
        self.messages: list[dict] = []

    def receive(self, timeout: float = 20) -> dict:
        async def get() -> dict:
            with anyio.fail_after(timeout):
                return await self.ws._send_rx.receive()

        message = self.ws.portal.call(get)
        if message["type"] == "websocket.close":
            raise ConnectionError(f"closed: {message.get('code')} {message.get('reason')}")
        text = message["text"]
        self.texts.append(text)
        data = json.loads(text)
        self.messages.append(data)
        return data

    def state(self, at_least: int = -1, timeout: float = 20) -> dict:
        """The next state message whose version is at least ``at_least``."""
        while True:
            message = self.receive(timeout)
            if message["type"] == "state" and message["version"] >= at_least:
                return message

    def catch_up(self, version: int, timeout: float = 20) -> dict:
        """The newest state at or after ``version``, reading only if this connection has not
        received one yet.  A connection that joined later was sent fewer states, so a
        plain read per move would wait for a message that never comes."""
        states = self.states
        if states and states[-1]["version"] >= version:
            return states[-1]
        return self.state(version, timeout)

    def next_of(self, kind: str, timeout: float = 20) -> dict:
        while True:
            message = self.receive(timeout)
            if message["type"] == kind:
                return message

    def send(self, message: dict | str) -> None:
        if isinstance(message, str):
            self.ws.send_text(message)
        else:
            self.ws.send_json(message)

    def move(self, state: dict, text: str) -> None:
        self.send({"type": "move", "version": state["version"], "move": text})

    @property
    def states(self) -> list[dict]:
        return [m for m in self.messages if m["type"] == "state"]


def play_out(player: Player, rng: random.Random, first: dict | None = None,
             limit: int = 5000) -> dict:
    """Play random legal moves for one seat (bots play the rest) until the game is over."""
    state = first or player.state()
    for _ in range(limit):
        if state["over"]:
            return state
        if state["legal_moves"]:
            player.move(state, rng.choice(state["legal_moves"]))
            state = player.state(state["version"] + 1)
        else:
            state = player.state()
    raise AssertionError("the game did not end")


def play_together(players: dict[int, Player], watchers: list[Player], rng: random.Random,
                  limit: int = 5000) -> dict:
    """Several seats at one table, each choosing random legal moves (bots play the other
    seats), until it is over.

    After every move every connection reads up to the new version, so each keeps every
    state it was sent.
    """
    latest = {seat: p.state() for seat, p in players.items()}
    for watcher in watchers:
        watcher.state()
    for _ in range(limit):
        some = next(iter(latest.values()))
        if some["over"]:
            return some
        version = some["version"]
        mover = some["to_move"]
        if mover in players:
            state = latest[mover]
            assert state["legal_moves"], "the seat to move was sent no legal moves"
            players[mover].move(state, rng.choice(state["legal_moves"]))
        for seat, player in players.items():
            latest[seat] = player.catch_up(version + 1)
        # Bots may have moved on meanwhile: every seat reads up to the newest version seen,
        # so the next mover chooses from the table as it is.
        newest = max(state["version"] for state in latest.values())
        for seat, player in players.items():
            latest[seat] = player.catch_up(newest)
        for watcher in watchers:
            watcher.catch_up(newest)
    raise AssertionError("the game did not end")


def each_moves_once(players: dict[int, Player]) -> dict[int, dict]:
    """Every seat makes its first move (its first legal one): a rated game past its abort
    window.  The newest state of each seat after it."""
    latest = {seat: p.state() for seat, p in players.items()}
    moved: set[int] = set()
    while moved != set(players):
        some = next(iter(latest.values()))
        mover = some["to_move"]
        players[mover].move(latest[mover], latest[mover]["legal_moves"][0])
        moved.add(mover)
        latest = {seat: p.state(some["version"] + 1) for seat, p in players.items()}
    return latest


def create(client: TestClient, **body: Any) -> dict:
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def two_people(client: TestClient, game: str = "durak", **body: Any) -> tuple[dict, dict]:
    """A table of two people: its creator's seat and the one who joined it."""
    first = create(client, game=game, seats=["human", "human"], **body)
    second = client.post(f"/api/tables/{first['table']}/join").json()
    return first, second


def connect(client: TestClient, table: str, token: str | None = None) -> Any:
    return client.websocket_connect(f"/ws/tables/{table}", subprotocols=seat_protocols(token))


# -- real server processes ------------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def server(data_dir: Path, *extra: str,
           port: int | None = None) -> Iterator[tuple[subprocess.Popen, str]]:
    """``python -m cardtable.server`` on ``port`` (a free one if not given); killed
    (SIGKILL) on the way out unless it stopped before."""
    port = port or free_port()
    log = data_dir.parent / f"server-{port}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    # a restart on the same port adds to its log; forked from a process that has
    # imported the server already (forkstart.py: the same main, a process of its own)
    process = start_server(
        ["--port", str(port), "--data-dir", str(data_dir), "--bot-delay", "0",
         "--log-level", "warning",
         # machine speed, many tables from one address: no quotas on that
         "--ws-messages-per-second", "0", "--tables-per-address", "",
         "--bot-tables-per-address", "1000", "--bot-tables", "1000", *extra],
        cwd=ROOT, log=log)
    process.log_path = log  # type: ignore[attr-defined]
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{base}/api/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if process.poll() is not None:
                raise RuntimeError("the server did not start:\n"
                                   + log.read_text(errors="replace"))
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not answer within 60 s")
            time.sleep(0.1)
        yield process, base
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(10)


def socket_for(base: str, table: str, token: str | None,
               cookies: dict[str, str] | None = None) -> ClientConnection:
    """A table's socket; ``cookies`` (a signed-in session) go with it: an account's seat
    key plays only with that account signed in."""
    url = base.replace("http", "ws", 1) + f"/ws/tables/{table}"
    headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())} if cookies else None
    return ws_connect(url, open_timeout=10, additional_headers=headers,
                      subprotocols=seat_protocols(token))  # type: ignore[arg-type]


def next_state(ws: ClientConnection, at_least: int = -1) -> dict:
    while True:
        message = json.loads(ws.recv(timeout=20))
        if message["type"] == "state" and message["version"] >= at_least:
            return message


def play_until_seat_moves(ws: ClientConnection, state: dict, seat: int) -> dict:
    """Play the first legal move whenever it is our turn, until ``seat`` has moved."""
    start = state["version"]
    while True:
        if state["legal_moves"]:
            ws.send(json.dumps({"type": "move", "version": state["version"],
                                "move": state["legal_moves"][0]}))
            state = next_state(ws, state["version"] + 1)
        else:
            state = next_state(ws)
        move = state["last_move"]
        if state["over"] or (state["version"] > start and move is not None
                             and move["seat"] == seat):
            return state


class Proxy:
    """A TCP proxy in the test process, between a server and its database: ``cut()`` drops
    every connection through it and refuses new ones (the database is unreachable), and
    ``mend()`` lets them through again, on the same port.  Use it as a context manager."""

    def __init__(self, target_port: int, host: str = "127.0.0.1") -> None:
        self.target = (host, target_port)
        self.port = free_port()
        self._listener: socket.socket | None = None
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()

    def __enter__(self) -> Proxy:
        self.mend()
        return self

    def __exit__(self, *exc: object) -> None:
        self.cut()

    def mend(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def cut(self) -> None:
        listener, self._listener = self._listener, None
        if listener is not None:
            with contextlib.suppress(OSError):
                listener.shutdown(socket.SHUT_RDWR)  # wakes the thread blocked in accept
            listener.close()
        with self._lock:
            sockets, self._open = self._open, set()
        for sock in sockets:
            _drop(sock)

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                _drop(client)
                continue
            upstream.settimeout(None)
            with self._lock:
                if self._listener is not listener:  # cut meanwhile
                    _drop(client)
                    _drop(upstream)
                    return
                self._open |= {client, upstream}
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (source, sink):
                _drop(sock)
            with self._lock:
                self._open -= {source, sink}


def _drop(sock: socket.socket) -> None:
    """Close a socket at once, with a reset (SO_LINGER 0): the other end sees it fail, and
    a thread reading it wakes up."""
    with contextlib.suppress(OSError):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    with contextlib.suppress(OSError):
        sock.close()


def run_async(main: Any) -> Any:
    """``asyncio.run(main)`` in a thread of its own: Playwright's sync API (the browser
    tests, earlier in a whole run) leaves an event loop running in the main thread, where
    ``asyncio.run`` refuses to start."""
    import concurrent.futures

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, main).result()
