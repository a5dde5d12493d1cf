"""Helpers for the cluster's fault tests: a Redis of the test's own, and players that play
a whole game through sockets that reconnect, as the page does."""

from __future__ import annotations

import json
import random
import shutil
import signal
import sqlite3
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from tablekit import free_port, socket_for
from websockets.exceptions import ConnectionClosed, InvalidHandshake


class OwnRedis:
    """A redis-server on a free port that the test may stop and start again (never the
    shared one); nothing is saved, so a restart forgets every key, as a crash would."""

    def __init__(self, directory: Path) -> None:
        if shutil.which("redis-server") is None:
            pytest.skip("redis-server is not installed")
        self.directory = directory
        self.directory.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with (self.directory / "redis.log").open("ab") as log:
            self.process = subprocess.Popen(
                ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
                 "--save", "", "--appendonly", "no", "--dir", str(self.directory)],
                stdout=log, stderr=subprocess.STDOUT)
        import redis

        deadline = time.monotonic() + 20
        while True:
            try:
                redis.Redis(port=self.port, socket_connect_timeout=1).ping()
                return
            except redis.RedisError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise RuntimeError("the test's redis-server did not start") from None
                time.sleep(0.05)

    def stop(self) -> None:
        """SIGKILL: the server processes' connections drop at once."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)
        self.process = None

    def pause(self) -> None:
        """SIGSTOP: Redis answers nothing but keeps every connection and key (as behind a
        network that drops packets); ``resume`` lets it go on."""
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGCONT)

    def clients(self) -> int:
        """How many connections Redis has open now (the caller's own included)."""
        import redis

        return int(redis.Redis(port=self.port).info("clients")["connected_clients"])


def health(base: str) -> httpx.Response:
    return httpx.get(f"{base}/api/health", timeout=10)


def wait_for(condition: Any, what: str, timeout: float = 30,
             report: Any = None) -> None:
    """Until ``condition()`` holds; past ``timeout`` fail, with ``report()`` if given."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, what + (f": {report()}" if report else "")
        time.sleep(0.1)


class Seat(threading.Thread):
    """One seat of a table played to the end with random legal moves (bots play the rest).

    Like the page, the seat pings a quiet socket and drops one that stays silent, and it
    connects again (to the next of ``bases``, after a short backoff) whenever the socket
    closes with a code other than 4xxx or a process is gone.  It keeps the ``last_move``
    of every state by its index, so a test can check the stored game against every move
    any player was told of, and every close (``None``: no close frame) and silence.
    """

    QUIET = 1.0
    """Seconds without a message before a ping; five such in a row drop the socket."""

    def __init__(self, bases: list[str], table: str, token: str | None, seed: int, *,
                 pause_at: int | None = None, pace: float = 0.0,
                 until: threading.Event | None = None) -> None:
        super().__init__(daemon=True)
        self.bases = list(bases)
        self.table = table
        self.token = token
        self.rng = random.Random(seed)
        self.seen: dict[int, tuple[int, str]] = {}
        self.closes: list[tuple[int | None, str]] = []
        self.errors: list[str] = []
        self.silences = 0
        self.states = 0
        self.version = -1
        self.final: dict | None = None
        self.failure: BaseException | None = None
        self.paused = threading.Event()
        """While set, the seat reads states but makes no move."""
        self.pause_at = pause_at
        """The seat sets ``paused`` itself once the table reaches this version."""
        self.pace = pace
        """Seconds at least between two of the seat's moves (0: at once)."""
        self.until = until
        """Once set, the seat stops where the game is (a run of a set length)."""
        self.moves_sent = 0
        self.connects = 0
        """Sockets opened (the first and every reconnect)."""
        self.deadline = time.monotonic() + 120

    def resume(self) -> None:
        self.pause_at = None
        self.paused.clear()

    def run(self) -> None:
        try:
            self._play()
        except BaseException as error:  # the test reports it
            self.failure = error

    @property
    def stopped(self) -> bool:
        return self.final is not None or (self.until is not None and self.until.is_set())

    def check(self) -> None:
        """Wait for the game to end (or the run); raise what went wrong in the thread."""
        self.join(max(1.0, self.deadline - time.monotonic() + 5))
        if self.failure is not None:
            raise self.failure
        assert self.stopped and not self.is_alive(), f"table {self.table}: the game did not end"

    def _play(self) -> None:
        attempt = 0
        while not self.stopped:
            assert time.monotonic() < self.deadline, f"table {self.table} did not end"
            base = self.bases[attempt % len(self.bases)]
            try:
                with socket_for(base, self.table, self.token) as ws:
                    self.connects += 1
                    attempt = 0
                    self._converse(ws)
            except ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd is not None else None
                reason = closed.rcvd.reason if closed.rcvd is not None else ""
                self.closes.append((code, reason))
                assert code is None or not 4000 <= code < 5000, f"closed: {code} {reason}"
            except (OSError, InvalidHandshake, TimeoutError):
                pass  # a process that is gone (or not up yet): try the next one
            if not self.stopped:
                attempt += 1
                time.sleep(min(1.0, 0.05 * 2 ** min(attempt, 5)))

    def _converse(self, ws: Any) -> None:
        latest: dict | None = None
        sent_at, last_sent = -1, 0.0
        quiet = 0
        while not self.stopped:
            wait = self.QUIET
            if (latest is not None and latest["legal_moves"] and sent_at != latest["version"]
                    and not self.paused.is_set()):
                wait = last_sent + self.pace - time.monotonic()
                if wait <= 0:
                    ws.send(json.dumps({"type": "move", "version": latest["version"],
                                        "move": self.rng.choice(latest["legal_moves"])}))
                    sent_at, last_sent = latest["version"], time.monotonic()
                    self.moves_sent += 1
                    wait = self.QUIET
            try:
                message = json.loads(ws.recv(timeout=min(wait, self.QUIET)))
            except TimeoutError:
                if wait < self.QUIET:
                    continue  # time for the next move, not a silence
                quiet += 1
                if quiet >= 5:
                    self.silences += 1
                    return  # a dead socket: connect again
                ws.send(json.dumps({"type": "ping"}))
                continue
            quiet = 0
            if message["type"] == "error":
                self.errors.append(message["reason"])
            if message["type"] != "state":
                continue
            latest = message
            self.states += 1
            self.version = message["version"]
            if self.pause_at is not None and self.version >= self.pause_at:
                self.paused.set()
            last = message["last_move"]
            if last is not None:
                self.seen[last["index"]] = (last["seat"], last["move"])
            if message["over"]:
                self.final = message
                return


def stored_moves(data_dir: Path, table: str) -> list[tuple[int, int, str]]:
    """The moves of a table as the database holds them: (index, seat, move), in order."""
    with sqlite3.connect(data_dir / "cardtable.sqlite3") as db:
        return list(db.execute('SELECT "index", seat, move FROM moves WHERE table_id = ? '
                               'ORDER BY "index"', (table,)))


def check_every_move_once(data_dir: Path, seats: list[Seat], *, over: bool = True) -> int:
    """Each game is stored move by move, numbered 0..N-1 with nothing missing or doubled,
    and every move any player was told of is stored as told; with ``over``, each game has
    ended at move N.  Returns the number of moves stored."""
    total = 0
    for table in sorted({seat.table for seat in seats}):
        at_table = [seat for seat in seats if seat.table == table]
        moves = stored_moves(data_dir, table)
        assert [index for index, _, _ in moves] == list(range(len(moves)))
        for seat in at_table:
            if over:
                assert seat.final is not None and seat.final["over"]
                assert seat.final["version"] == len(moves)
            for index, told in seat.seen.items():
                assert moves[index][1:] == told, f"table {table} move {index}"
        total += len(moves)
    return total
