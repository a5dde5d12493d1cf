"""Every answer through a Redis outage, a PostgreSQL outage and a full disk, counted.

Real server processes play under a steady stream of real requests while a fault is
injected, held and taken away, and every answer is sorted by what asked and what came
back, before, during and after the fault:

- ``redis``: two processes on PostgreSQL joined by a Redis of this run's own (which is
  also their rate limits' store), each table's two players split between the processes,
  so that every move is relayed; the Redis is killed (SIGKILL: it restarts empty, as
  after a crash) and started again;
- ``postgresql``: the same two processes, whose database (a fresh one beside
  ``--database-url``) is reached through a TCP proxy that is cut (every connection
  dropped, new ones refused) and mended (the shared PostgreSQL is never stopped);
- ``disk``: one process on SQLite on a small tmpfs that is filled to the last byte and
  freed again (root only: skipped otherwise).

The stream: ``--tables`` tables of two guests playing over WebSockets (a move every
``--pace`` seconds each; a socket closed is opened again after half a second, as the page
does; a finished game is followed by a new table), and HTTP requests in turn: a new table
against a bot, a table read, a first visit, a sign-in and the readiness probe, each
every half second.

What must hold, and is printed per episode:

- no 500: no HTTP answer of 500 or more but 503, no 503 without a stable ``code`` (the
  readiness probe says ``status`` and what is failing instead), no socket closed 1011 (a
  server failure), no request left without an answer;
- every move acknowledged (the mover shown the state after it), before, during or after
  the fault, is in the database at its place afterwards, once (read straight from the
  database at the end);
- service resumes: seconds from the fault's end to the first move acknowledged and the
  first new table made.

    python benchmarks/outages.py --database-url postgresql+psycopg://postgres@127.0.0.1:5432/postgres
    python benchmarks/outages.py --episodes disk --json out.json
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from load import drop_database, free_port, fresh_database, start_server
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from cardtable.server.core.wire import seat_protocols

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "server"))
from clusterkit import OwnRedis  # noqa: E402  (the suite's own Redis and proxy)
from tablekit import Proxy  # noqa: E402

PASSWORD = "Plenty of words 19 kept"
PHASES = ("before", "during", "after")


@dataclass
class Episode:
    """What one fault's run counted."""

    name: str
    phase: str = "before"
    answers: Counter[tuple[str, str, str]] = field(default_factory=Counter)
    """(phase, what asked, what came back) -> how many."""
    failures: Counter[str] = field(default_factory=Counter)
    acknowledged: dict[tuple[str, int], str] = field(default_factory=dict)
    """(table, move index) -> the move, for every move its mover was shown done."""
    ended_at: float | None = None
    first_move_after: float | None = None
    first_table_after: float | None = None
    lost: int = 0
    """Acknowledged moves not in the database at their place afterwards."""
    twice: int = 0
    """Places in the database held by more than one move."""
    stop: bool = False

    def count(self, asked: str, answer: str, failure: str | None = None) -> None:
        self.answers[(self.phase, asked, answer)] += 1
        if failure is not None:
            self.failures[f"{self.phase} {asked}: {failure}"] += 1

    def http(self, asked: str, response: httpx.Response) -> None:
        status = response.status_code
        if status < 500:
            self.count(asked, str(status))
            return
        try:
            body = response.json()
        except ValueError:
            body = {}
        if status == 503 and isinstance(body, dict) and body.get("code"):
            self.count(asked, f"503 {body['code']}")
        elif status == 503 and asked == "ready" and isinstance(body, dict) and body.get("status"):
            failing = [k for k in ("storage", "redis", "database") if body.get(k) not in
                       (None, "ok")]
            self.count(asked, f"503 {body['status']} ({', '.join(failing) or '?'})")
        else:
            self.count(asked, str(status), f"{status} {response.text[:80]!r}")


class Player:
    """One seat's socket, opened again whenever it closes."""

    def __init__(self, base: str, table: str, token: str, run: Episode) -> None:
        self.url = f"{base.replace('http', 'ws', 1)}/ws/tables/{table}"
        self.token, self.run = token, run
        self.ws: ClientConnection | None = None
        self.state: dict[str, Any] | None = None
        self.inbox: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.reader: asyncio.Task[None] | None = None

    async def open(self) -> bool:
        try:
            self.ws = await asyncio.wait_for(connect(
                self.url, subprotocols=seat_protocols(self.token), max_size=2**22), 10)
        except InvalidStatus as refused:
            status = refused.response.status_code
            self.run.count("socket open", f"HTTP {status}",
                           None if status < 500 or status == 503 else str(status))
            return False
        except (OSError, TimeoutError, ConnectionClosed) as error:
            self.run.count("socket open", "no answer", type(error).__name__)
            return False
        self.inbox = asyncio.Queue()
        self.reader = asyncio.create_task(self._read(self.ws))
        return True

    async def _read(self, ws: ClientConnection) -> None:
        try:
            async for text in ws:
                self.inbox.put_nowait(json.loads(text))
        except ConnectionClosed:
            pass
        code = ws.close_code
        self.run.count("socket", f"closed {code}", "closed 1011" if code == 1011 else None)
        self.inbox.put_nowait(None)

    async def next(self, timeout: float = 10.0) -> dict[str, Any] | None:
        """The next message (``None``: the socket closed, or nothing came)."""
        try:
            message = await asyncio.wait_for(self.inbox.get(), timeout)
        except TimeoutError:
            self.run.count("socket", "silent 10 s", "no message within 10 s")
            await self.close()
            return None
        if message is not None and message.get("type") == "state":
            self.state = message
        return message

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
        if self.reader is not None:
            self.reader.cancel()
        self.ws = self.reader = None


async def new_table(http: httpx.AsyncClient, bases: list[str], run: Episode
                    ) -> list[Player] | None:
    """A table of two guests, the second seat taken on the next process."""
    try:
        made = await http.post(f"{bases[0]}/api/tables", json={
            "game": "durak", "players": 2, "seats": ["human", "human"]})
        run.http("new table", made)
        if made.status_code != 201:
            return None
        table = made.json()
        joined = await http.post(f"{bases[-1]}/api/tables/{table['table']}/join", json={})
        run.http("join", joined)
        if joined.status_code != 200:
            return None
    except httpx.HTTPError as error:
        run.count("new table", "no answer", type(error).__name__)
        return None
    return [Player(bases[0], table["table"], table["token"], run),
            Player(bases[-1], table["table"], joined.json()["token"], run)]


async def play(bases: list[str], run: Episode, pace: float, rng: random.Random) -> None:
    """Tables one after another, each seat's socket opened again when it closes."""
    async with httpx.AsyncClient(timeout=30, limits=httpx.Limits(keepalive_expiry=1)) as http:
        while not run.stop:
            players = await new_table(http, bases, run)
            if players is None:
                await asyncio.sleep(0.5)
                continue
            try:
                await play_table(players, run, pace, rng)
            finally:
                for player in players:
                    await player.close()


async def play_table(players: list[Player], run: Episode, pace: float,
                     rng: random.Random) -> None:
    while not run.stop:
        for player in players:
            while player.ws is None and not run.stop:
                if not await player.open():
                    await asyncio.sleep(0.5)
            while player.state is None and player.ws is not None:
                if await player.next() is None:
                    await player.close()
        if run.stop:
            return
        newest = max((p.state for p in players if p.state), key=lambda s: s["version"])
        if newest["over"]:
            return
        mover = players[newest["to_move"]]
        assert mover.state is not None
        if mover.state["version"] < newest["version"] and mover.ws is not None:
            if await mover.next() is None:
                await mover.close()
            continue
        await asyncio.sleep(pace)
        version = mover.state["version"]
        move = rng.choice(mover.state["legal_moves"])
        assert mover.ws is not None
        try:
            await mover.ws.send(json.dumps({"type": "move", "version": version, "move": move}))
        except ConnectionClosed:
            await mover.close()
            continue
        while True:
            message = await mover.next()
            if message is None:
                await mover.close()
                break
            if message["type"] == "error":
                code = message.get("code")
                run.count("move", f"error {code}", None if code else "an error without a code")
                break
            if message["type"] == "state" and message["version"] > version:
                run.count("move", "acknowledged")
                run.acknowledged[(message["table"], version)] = move
                if run.ended_at is not None and run.first_move_after is None:
                    run.first_move_after = time.monotonic() - run.ended_at
                break
        # the other seat's socket keeps only the newest state
        other = players[1 - newest["to_move"]]
        while other.ws is not None and not other.inbox.empty():
            if await other.next() is None:
                await other.close()


async def requests(kind: str, bases: list[str], run: Episode, table_hint: list[str]) -> None:
    """One kind of HTTP request, one every 0.5 s (each kind in a loop of its own, so that a
    slow one, a sign-in's password hash, holds up no other), to each process in turn."""
    turn = 0
    # a kept-alive connection is let go before uvicorn's 5 s would close it under a request
    # (on a loaded machine an answer and the pause after it can take that long): such a
    # request would fail in the client, not the server
    async with httpx.AsyncClient(timeout=30, limits=httpx.Limits(keepalive_expiry=1)) as http:
        while not run.stop:
            base = bases[turn % len(bases)]
            turn += 1
            try:
                if kind == "new bot table":
                    answer = await http.post(f"{base}/api/tables", json={
                        "game": "durak", "seats": ["human", "bot:random"]})
                    if answer.status_code == 201:
                        table_hint[:] = [answer.json()["table"]]
                        if run.ended_at is not None and run.first_table_after is None:
                            run.first_table_after = time.monotonic() - run.ended_at
                elif kind == "read table":
                    answer = await http.get(f"{base}/api/tables/{table_hint[0]}")
                elif kind == "first visit":
                    async with httpx.AsyncClient(timeout=30) as fresh:
                        answer = await fresh.get(f"{base}/api/me")
                elif kind == "sign-in":
                    async with httpx.AsyncClient(timeout=30) as fresh:
                        answer = await fresh.post(f"{base}/api/account/login", json={
                            "username": "darya", "password": PASSWORD})
                else:
                    answer = await http.get(f"{base}/api/health/ready")
                run.http(kind, answer)
            except httpx.HTTPError as error:
                run.count(kind, "no answer", type(error).__name__)
            await asyncio.sleep(0.5)


KINDS = ("new bot table", "read table", "first visit", "sign-in", "ready")


async def episode(name: str, bases: list[str], fault: Any, mend: Any, args: argparse.Namespace,
                  check: Any) -> Episode:
    """Play until moves are acknowledged and ``args.before`` s more, hold the fault
    ``args.during`` s, play ``args.after`` s."""
    run = Episode(name)
    async with httpx.AsyncClient(timeout=30) as http:
        await http.post(f"{bases[0]}/api/account/register", json={
            "username": "darya", "password": PASSWORD})
        first = (await http.post(f"{bases[0]}/api/tables", json={
            "game": "durak", "seats": ["human", "bot:random"]})).json()["table"]
    rng = random.Random(args.seed)
    tasks = [asyncio.create_task(play(bases, run, args.pace, random.Random(rng.random())))
             for _ in range(args.tables)]
    hint = [first]
    tasks += [asyncio.create_task(requests(kind, bases, run, hint)) for kind in KINDS]
    # the fault comes once play is under way (every table a move, about; a loaded machine
    # seats them slowly), and ``args.before`` seconds of it
    settle = time.monotonic() + 120
    while len(run.acknowledged) < args.tables and time.monotonic() < settle:
        await asyncio.sleep(0.2)
    await asyncio.sleep(args.before)
    run.phase = "during"
    await asyncio.to_thread(fault)
    await asyncio.sleep(args.during)
    run.phase = "after"
    await asyncio.to_thread(mend)
    run.ended_at = time.monotonic()
    await asyncio.sleep(args.after)
    run.stop = True
    await asyncio.wait(tasks, timeout=30)
    for task in tasks:
        task.cancel()
    run.lost, run.twice = await asyncio.to_thread(check, run.acknowledged)
    if run.lost:
        run.failures["acknowledged moves not stored"] += run.lost
    if run.twice:
        run.failures["moves stored more than once"] += run.twice
    return run


def stored_moves(rows: list[tuple[str, int, str]], acknowledged: dict[tuple[str, int], str]
                 ) -> tuple[int, int]:
    """(acknowledged moves not at their place, places held twice) among ``rows``."""
    held = Counter((table, index) for table, index, _ in rows)
    moves = {(table, index): move for table, index, move in rows}
    lost = sum(1 for place, move in acknowledged.items() if moves.get(place) != move)
    return lost, sum(1 for n in held.values() if n > 1)


def postgres_check(url: str) -> Any:
    def check(acknowledged: dict[tuple[str, int], str]) -> tuple[int, int]:
        import psycopg
        from sqlalchemy.engine import make_url

        plain = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
        with psycopg.connect(plain) as db:
            rows = db.execute('SELECT table_id, "index", move FROM moves').fetchall()
        return stored_moves(rows, acknowledged)
    return check


def sqlite_check(path: Path) -> Any:
    def check(acknowledged: dict[tuple[str, int], str]) -> tuple[int, int]:
        with contextlib.closing(sqlite3.connect(path)) as db:
            rows = db.execute('SELECT table_id, "index", move FROM moves').fetchall()
        return stored_moves(rows, acknowledged)
    return check


def server_args(args: argparse.Namespace) -> argparse.Namespace:
    """What ``load.start_server`` reads."""
    return argparse.Namespace(database_url=None, run_database_url=None, redis_url=None,
                              proxy=False, commit_window=None, profile=None)


async def wait_ready(base: str, process: subprocess.Popen[bytes], log: Path) -> None:
    """Until the server answers its health probe (a loaded machine starts it slowly)."""
    async with httpx.AsyncClient() as client:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise SystemExit("the server did not start:\n" + log.read_text(errors="replace"))
            with contextlib.suppress(httpx.HTTPError):
                if (await client.get(f"{base}/api/health", timeout=5)).status_code == 200:
                    return
            await asyncio.sleep(0.2)
    raise SystemExit("the server did not answer within 300 s")


LIMITS = ("--login-per-address", "1000/minute", "--guests-per-address", "100000/hour",
          "--bot-tables-per-address", "100000", "--bot-tables", "100000",
          "--storage-retry-max", "1")


async def cluster_episodes(args: argparse.Namespace, folder: Path) -> list[Episode]:
    """The Redis and the PostgreSQL episodes, on two processes."""
    url, name = fresh_database(args.database_url)
    redis = OwnRedis(folder / "redis")
    redis.start()
    processes = []
    try:
        with Proxy(5432) as proxy:
            proxied = url.replace("@127.0.0.1:5432/", f"@127.0.0.1:{proxy.port}/")
            settings = server_args(args)
            settings.run_database_url = settings.database_url = proxied
            bases = []
            for n in range(2):
                port = free_port()
                log = folder / f"cluster-{n}.log"
                extra = ("--redis-url", redis.url, *LIMITS)
                processes.append((start_server(port, folder / "data", settings, log, extra),
                                  log))
                bases.append(f"http://127.0.0.1:{port}")
                await wait_ready(bases[-1], *processes[-1])
            check = postgres_check(url)
            found = []
            if "redis" in args.episodes:
                found.append(await episode("redis", bases, redis.stop, redis.start, args, check))
            if "postgresql" in args.episodes:
                found.append(await episode("postgresql", bases, proxy.cut, proxy.mend, args,
                                           check))
            for _, log in processes:
                text = log.read_text(errors="replace")
                if "Traceback" in text:
                    found[-1].failures[f"Traceback in {log.name}"] += text.count("Traceback")
            return found
    finally:
        for process, _ in processes:
            process.kill()
            process.wait(10)
        redis.stop()
        drop_database(args.database_url, name)


async def disk_episode(args: argparse.Namespace, folder: Path) -> list[Episode]:
    disk = folder / "disk" / "data"
    disk.mkdir(parents=True)
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16M", "tmpfs", str(disk)],
                             capture_output=True)
    if mounted.returncode != 0:
        print(f"disk: skipped, no tmpfs: {mounted.stderr.decode().strip()}", file=sys.stderr)
        return []
    process = None
    try:
        port = free_port()
        log = folder / "disk.log"
        process = start_server(port, disk, server_args(args), log, LIMITS)
        base = f"http://127.0.0.1:{port}"
        await wait_ready(base, process, log)
        filler = disk / "filler"

        def fill() -> None:
            with filler.open("wb", buffering=0) as out:
                for size in (1 << 16, 1 << 12, 1):
                    with contextlib.suppress(OSError):
                        while True:
                            out.write(b"\0" * size)

        found = await episode("disk", [base], fill, filler.unlink, args,
                              sqlite_check(disk / "cardtable.sqlite3"))
        if "Traceback" in log.read_text(errors="replace"):
            found.failures["Traceback in the server's log"] += 1
        return [found]
    finally:
        if process is not None:
            process.kill()
            process.wait(10)
        subprocess.run(["umount", "-l", str(disk)], check=False)


def table(runs: list[Episode]) -> str:
    """The answers, one line per (episode, what asked, what came back), by phase."""
    lines = [f"{'episode':<11}{'asked':<15}{'answer':<34}" + "".join(f"{p:>8}" for p in PHASES)]
    for run in runs:
        keys = sorted({(asked, answer) for _, asked, answer in run.answers})
        for asked, answer in keys:
            counts = [run.answers[(phase, asked, answer)] for phase in PHASES]
            lines.append(f"{run.name:<11}{asked:<15}{answer:<34}"
                         + "".join(f"{n:>8}" for n in counts))
    for run in runs:
        resumed = [f"first move {run.first_move_after:.1f} s" if run.first_move_after
                   is not None else "no move after", f"first table {run.first_table_after:.1f} s"
                   if run.first_table_after is not None else "no table after"]
        lines.append(f"{run.name}: {len(run.acknowledged)} moves acknowledged, "
                     f"{run.lost} not stored, {run.twice} stored twice; "
                     f"after the fault: {', '.join(resumed)}; failures: "
                     f"{sum(run.failures.values())} {dict(+run.failures) or ''}")
    return "\n".join(lines)


async def main_async(args: argparse.Namespace) -> list[Episode]:
    folder = Path(tempfile.mkdtemp(prefix="cardtable-outages-"))
    try:
        runs = []
        if {"redis", "postgresql"} & set(args.episodes):
            runs += await cluster_episodes(args, folder)
        if "disk" in args.episodes:
            runs += await disk_episode(args, folder / "sqlite")
        return runs
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)
        else:
            print(f"logs kept in {folder}", file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url",
                        default="postgresql+psycopg://postgres@127.0.0.1:5432/postgres",
                        help="the PostgreSQL beside which a fresh database is made")
    parser.add_argument("--episodes", nargs="+", default=["redis", "postgresql", "disk"],
                        choices=["redis", "postgresql", "disk"])
    parser.add_argument("--tables", type=int, default=10, help="tables played at once")
    parser.add_argument("--pace", type=float, default=0.1, help="seconds before each move")
    parser.add_argument("--before", type=float, default=8.0, help="seconds before the fault")
    parser.add_argument("--during", type=float, default=10.0, help="seconds the fault lasts")
    parser.add_argument("--after", type=float, default=15.0, help="seconds after it")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", action="store_true", help="keep the servers' logs")
    parser.add_argument("--json", default=None, help="also write the counts to this file")
    args = parser.parse_args()
    runs = asyncio.run(main_async(args))
    print(table(runs))
    if args.json:
        Path(args.json).write_text(json.dumps([{
            "episode": run.name, "failures": dict(run.failures),
            "acknowledged": len(run.acknowledged), "lost": run.lost, "twice": run.twice,
            "first_move_after_s": run.first_move_after,
            "first_table_after_s": run.first_table_after,
            "answers": [[*key, n] for key, n in sorted(run.answers.items())]} for run in runs],
            indent=1) + "\n")
    if any(run.failures for run in runs):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
