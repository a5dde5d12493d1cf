"""Load on the web table: many tables of two people each, played over real WebSockets.

The server runs in processes of its own (``python -m cardtable.server``), with SQLite in a
fresh folder by default, or PostgreSQL (a fresh database made for the run on the server
``--database-url`` names, and dropped after it: tables left by an earlier run would be
restored and played on by the servers, and measured with the new ones); ``--processes 2
--redis-url URL`` runs two behind Redis, each table's players split between the two
(``--together``: both on the process that made the table).  ``--proxy`` puts nginx
with the repository's configuration (``deploy/nginx/cardtable.conf``, through
``benchmarks/proxy.py``) in front of the processes, which then route by table, and every
player goes through it: the way a site runs several processes.
This process plays both seats of every table: at each table the seat to move sends a
legal move every ``--pace`` seconds (0: as fast as the answers come), and a table that
ends is replaced by a new one.  It measures:

- ``moves_per_s``: moves applied (the mover saw its move's state) per second, all tables;
- ``mover_p50_ms``, ``mover_p99_ms``: from sending a move to the mover's new state;
- ``opponent_p99_ms``: from sending a move to the other seat's new state;
- ``errors``: error messages and closed sockets; ``lost``: moves sent whose state never
  came (within 10 s, or by the end);
- ``rss_mb``: the server processes' resident memory at the end (summed);
- ``cpu_ms_per_move``: CPU time spent per counted move, by party: the servers, this load
  generator, the services (PostgreSQL's and Redis's processes on this machine) and, with
  ``--proxy``, nginx (``proxy``), read from ``/proc`` at the start and end of the counted
  time.  CPU time does not depend on what else runs, so it tells how many moves a second
  the machine's cores can carry at most (``cores_bound_moves_per_s``) even on a busy
  machine.  ``postgres`` and ``redis`` split the services' part;
- ``stored_moves``: the moves the servers stored while counting (their ``/metrics``), which
  equals ``moves``: the counting begins once every table's move is answered (each place
  waits a moment, once) and ends once every move sent before the end is answered, before
  any socket closes.  Counted from a moment when each of 100 tables at full speed had a
  move out, the count was about one a table over what the servers did between the two
  readings of the CPU, and closing the sockets at the end was counted as moves' work
  (``closing_servers_cpu_ms`` shows that work apart);
- ``generator_lag_p99_ms``, ``generator_lag_max_ms``: how late this process's own event
  loop woke for a 10 ms timer while counting.  A state is timed when this process reads
  it, so a late loop here is latency the server did not cause: a p99 near the lag's says
  the generator, not the server, set it;
- ``steal_pct``: the share of this machine's CPU time its host took for others while
  counting (``/proc/stat``'s steal): on a shared virtual machine the same run's latency
  and CPU a move grow with it.

This process's garbage collector is kept out of the counted time (collected and frozen
before, disabled during): its full passes over a thousand sockets' objects paused the
reading of every socket for 100 to 150 ms, which was counted as the server's latency.

    python benchmarks/load.py --tables 200 --pace 1 --seconds 30 --json out.json
    python benchmarks/load.py --tables 500 --pace 0 --seconds 30 \\
        --processes 2 --redis-url redis://127.0.0.1:6379/0 --database-url postgresql+psycopg://...
    python benchmarks/load.py --tables 500 --pace 0 --seconds 30 --proxy \\
        --processes 2 --redis-url redis://127.0.0.1:6379/0 --database-url postgresql+psycopg://...

The warm-up begins once every table has both its players connected (``seated_s``: how
long that took): making hundreds of tables at once is work of its own, and counted with
the moves it made a 500-table run at a move a second look like 260 to 390 moves a second
at 2 to 3 ms of the servers' CPU each, where play itself holds the 500 at about 1.1 ms.

Only loopback addresses are used; the run stops by itself after ``--seconds``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from cardtable.server.core.wire import seat_protocols

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 10.0
SEATING = 120.0
"""Seconds the run waits at most for every table to be seated before warming up."""


@dataclass
class Figures:
    """What every table adds to while the run lasts."""

    mover_ms: list[float] = field(default_factory=list)
    opponent_ms: list[float] = field(default_factory=list)
    moves: int = 0
    errors: int = 0
    lost: int = 0
    games: int = 0
    tables_made: int = 0
    first_over: int = 0
    """Places whose first game has ended (with ``--spread``, counting waits for all)."""
    all_first_over: asyncio.Event = field(default_factory=asyncio.Event)
    """Tables made while counting (each replaces one whose game ended)."""
    counting: bool = False
    reasons: Counter[str] = field(default_factory=Counter)
    seated: set[int] = field(default_factory=set)
    """The places whose first table has both players connected."""
    stop: float = float("inf")
    """When the run ends (set when counting begins)."""
    counted_from: float = float("inf")
    """When counting began: a move sent before it is not counted (its work was partly
    done before the CPU was first read), a move sent before ``stop`` is (all of it is
    done before the CPU is last read)."""
    places: int = 0
    pausing: bool = False
    """Set when counting is about to begin: each place stops once its move is answered."""
    paused: int = 0
    all_paused: asyncio.Event = field(default_factory=asyncio.Event)
    resume: asyncio.Event = field(default_factory=asyncio.Event)
    """Set once the CPU has been read at the start: no move was being handled then, so
    every counted move's work falls between the two readings, and no other move's."""
    finished: int = 0
    """The places that have played their last move (``finish``)."""
    all_finished: asyncio.Event = field(default_factory=asyncio.Event)
    release: asyncio.Event = field(default_factory=asyncio.Event)
    """Set once the CPU has been read at the end: the sockets may close.  Closing a
    table's two sockets is work the servers do once a table, not once a move, and was
    counted as the moves' until it was kept out."""

    async def pause(self, place: list[bool]) -> None:
        """Wait, once, while the CPU is read at the start (this place has no move out)."""
        if self.pausing and not place[0]:
            place[0] = True
            self.paused += 1
            if self.paused >= self.places:
                self.all_paused.set()
            await self.resume.wait()

    async def finish(self) -> None:
        """This place has played its last move: wait until the end's CPU is read."""
        self.finished += 1
        if self.finished >= self.places:
            self.all_finished.set()
        await self.release.wait()

    def error(self, reason: str) -> None:
        if self.counting:
            self.errors += 1
            self.reasons[reason[:80]] += 1


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def fresh_database(url: str) -> tuple[str, str]:
    """Make an empty PostgreSQL database beside the one ``url`` names: (its URL, its name)."""
    import psycopg
    from sqlalchemy.engine import make_url

    given = make_url(url)
    name = f"cardtable_load_{os.getpid()}"
    admin = given.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
        connection.execute(f'CREATE DATABASE "{name}"')
    return given.set(database=name).render_as_string(hide_password=False), name


def drop_database(url: str, name: str) -> None:
    import psycopg
    from sqlalchemy.engine import make_url

    admin = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def database_sessions(url: str, name: str) -> int:
    """Connections made so far to the run's PostgreSQL database (this one included): a
    server whose pool opens and closes connections under load pays for each."""
    import psycopg
    from sqlalchemy.engine import make_url

    admin = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(admin, autocommit=True) as connection:
        row = connection.execute("SELECT sessions FROM pg_stat_database WHERE datname = %s",
                                 (name,)).fetchone()
    return int(row[0]) if row else 0


def start_server(port: int, data_dir: Path, args: argparse.Namespace,
                 log: Path, extra: tuple[str, ...] = ()) -> subprocess.Popen[bytes]:
    # --profile: the same server under cProfile, switched on and off by run()'s signals
    runner = ((str(ROOT / "benchmarks" / "profiled_server.py"),) if getattr(args, "profile", None)
              else ("-m", "cardtable.server"))
    command = [sys.executable, *runner, "--port", str(port),
               "--data-dir", str(data_dir), "--bot-delay", "0", "--log-level", "warning",
               # every player of the run comes from one address at machine speed: the
               # per-address quotas and the per-socket message rate are for people
               "--ws-messages-per-second", "0", "--tables-per-address", "",
               "--connections-per-address", "1000000", "--connections-per-peer", "0"]
    if args.database_url:
        command += ["--database-url", args.run_database_url or args.database_url]
    if args.redis_url:
        command += ["--redis-url", args.redis_url, "--redis-prefix", f"load{os.getpid()}"]
    window = getattr(args, "commit_window", None)   # rolling_restart.py's have none
    if window is not None:
        command += ["--commit-window", str(window)]
    if args.proxy:  # nginx sends each table's players here: take such tables over
        command += ["--route-by-table", "true", "--trusted-proxies", "127.0.0.1"]
    command += extra
    env = dict(os.environ)
    if getattr(args, "profile", None):
        env["PROFILE_TO"] = str(Path(args.profile).resolve() / f"server-{port}.prof")
    with log.open("wb") as out:
        return subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
                                env=env)


async def wait_ready(base: str, process: subprocess.Popen[bytes], log: Path) -> None:
    async with httpx.AsyncClient() as client:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise SystemExit("the server did not start:\n" + log.read_text(errors="replace"))
            try:
                if (await client.get(f"{base}/api/health", timeout=2)).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            await asyncio.sleep(0.2)
    raise SystemExit("the server did not answer within 60 s")


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process so far (0 if it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def thread_cpu(pid: int) -> dict[str, float]:
    """CPU seconds so far of each of a process's threads, summed by thread name, and the
    part of it all spent in the kernel (system calls: sockets, epoll).  Python gives the
    system no names for its threads (the move writer's, asyncio's helpers): they are
    shown as the event loop's (the main thread) and the others'."""
    found: dict[str, float] = {}
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return found
    for task in tasks:
        try:
            text = (task / "stat").read_text()
        except OSError:
            continue
        name = text[text.index("(") + 1:text.rindex(")")]
        name = name.rstrip("0123456789_-") or name
        if name == "python":   # Python names no thread for the system: the main one is the loop
            name = "python (event loop)" if task.name == str(pid) else "python (other threads)"
        fields = text.rsplit(")", 1)[1].split()
        user, system = (int(fields[11]) / os.sysconf("SC_CLK_TCK"),
                        int(fields[12]) / os.sysconf("SC_CLK_TCK"))
        found[name] = found.get(name, 0.0) + user + system
        found["(system, all threads)"] = found.get("(system, all threads)", 0.0) + system
    return found


_KINDS: dict[int, str] = {}
"""Each service process seen so far: ``postgres`` or ``redis``."""


def service_pids() -> list[int]:
    """PostgreSQL's and Redis's processes on this machine (by their command names)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            name = (entry / "comm").read_text().strip()
        except OSError:
            continue
        if name.startswith(("postgres", "redis-server")):
            found.append(int(entry.name))
            _KINDS[int(entry.name)] = "redis" if name.startswith("redis") else "postgres"
    return found


def cpu_now(servers: list[int], proxy: list[int] | None = None) -> dict[str, Any]:
    """CPU seconds so far: the servers', this process's, each service process's and (with
    ``--proxy``) nginx's."""
    found = {"servers": sum(cpu_seconds(pid) for pid in servers),
             "generator": time.process_time(),
             "services": {pid: cpu_seconds(pid) for pid in service_pids()}}
    if proxy is not None:
        found["proxy"] = sum(cpu_seconds(pid) for pid in proxy)
    return found


def cpu_between(start: dict[str, Any], end: dict[str, Any],
                seen: dict[int, float] | None = None) -> dict[str, float]:
    """CPU seconds each party spent from ``start`` to ``end``.  A service process that ended
    meanwhile (the PostgreSQL backend of a closed connection) counts up to the last time
    ``watch_services`` saw it in ``seen``; one that started meanwhile counts from zero."""
    last = {**(seen or {}), **end["services"]}
    by_kind = {"postgres": 0.0, "redis": 0.0}
    for pid, seconds in last.items():
        by_kind[_KINDS.get(pid, "postgres")] += seconds - start["services"].get(pid, 0.0)
    spent = {"servers": end["servers"] - start["servers"],
             "generator": end["generator"] - start["generator"],
             "services": sum(by_kind.values())}
    if "proxy" in start:
        spent["proxy"] = end["proxy"] - start["proxy"]
    return {**spent, **by_kind}   # the services' part by service (every such process here)


def cpu_ticks() -> tuple[int, int]:
    """The machine's CPU ticks so far: (all, stolen by the host), from ``/proc/stat``."""
    try:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return 0, 0
    return sum(fields[:8]), (fields[7] if len(fields) > 7 else 0)


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


class Seat:
    """One player's socket: keeps the newest state, and when each version arrived."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.state: dict[str, Any] | None = None
        self.arrived: dict[int, float] = {}
        self.changed = asyncio.Event()
        self.closed = False

    async def read(self, figures: Figures) -> None:
        try:
            async for text in self.ws:
                message = json.loads(text)
                if message.get("type") == "state":
                    self.arrived.setdefault(message["version"], time.perf_counter())
                    if self.state is None or message["version"] >= self.state["version"]:
                        self.state = message
                    self.changed.set()
                elif message.get("type") == "error":
                    figures.error(f"error message: {message.get('reason')}")
        except Exception as error:  # a dropped socket counts as an error, whatever it raised
            figures.error(f"socket: {type(error).__name__}: {error}")
        finally:
            self.closed = True
            self.changed.set()

    async def wait_for(self, version: int, until: float) -> float | None:
        """When ``version`` (or a later one) arrived, waiting until ``until`` at most."""
        while True:
            got = [at for v, at in self.arrived.items() if v >= version]
            if got:
                return min(got)
            if self.closed or time.perf_counter() >= until:
                return None
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), until - time.perf_counter())
            except TimeoutError:
                return None


async def table_loop(bases: list[str], index: int, args: argparse.Namespace,
                     figures: Figures, rng: random.Random) -> None:
    """Play tables one after another at one place until the run's end."""
    # idle connections are dropped before uvicorn's 5 s keep-alive would close them under us
    http = httpx.AsyncClient(timeout=30, limits=httpx.Limits(keepalive_expiry=2))
    finished, paused = [False], [False]
    # --spread: the first table is resigned after a random number of moves, so that when
    # counting begins the places' games are at every age, not all of one
    resign_after = [rng.randrange(args.spread) if args.spread else None]
    first = True
    try:
        while time.perf_counter() < figures.stop:
            base_a = bases[index % len(bases)]
            # split: the second player on the next process, so that every move is relayed;
            # together: both on the table's process, as a proxy routing by table would
            base_b = base_a if args.together else bases[(index + 1) % len(bases)]
            try:
                created = (await http.post(f"{base_a}/api/tables", json={
                    "game": args.game, "players": 2, "seats": ["human", "human"],
                    "options": json.loads(args.options)})).json()
                joined = (await http.post(
                    f"{base_b}/api/tables/{created['table']}/join", json={})).json()
            except (httpx.HTTPError, KeyError, ValueError) as error:
                figures.error(f"create or join: {type(error).__name__}: {error}")
                await asyncio.sleep(1)
                continue
            figures.tables_made += figures.counting
            await play_table(base_a, base_b, created, joined, args, figures, rng, index,
                             finished, paused, resign_after)
            resign_after[0] = None
            if first:
                first = False
                figures.first_over += 1
                if figures.first_over >= figures.places:
                    figures.all_first_over.set()
    finally:
        if not paused[0]:   # failed before counting began: nobody waits for this place
            paused[0] = True
            figures.paused += 1
            if figures.paused >= figures.places:
                figures.all_paused.set()
        if not finished[0]:
            finished[0] = True
            await figures.finish()
        await http.aclose()


async def play_table(base_a: str, base_b: str, created: dict[str, Any],
                     joined: dict[str, Any], args: argparse.Namespace, figures: Figures,
                     rng: random.Random, index: int, finished: list[bool],
                     paused: list[bool], resign_after: list[int | None]) -> None:
    table = created["table"]
    urls = [f"{base.replace('http', 'ws', 1)}/ws/tables/{table}" for base in (base_a, base_b)]
    async with connect(urls[0], max_size=2**22,
                       subprotocols=seat_protocols(created["token"])) as ws0, \
            connect(urls[1], max_size=2**22, subprotocols=seat_protocols(joined["token"])) as ws1:
        seats = {created["seat"]: Seat(ws0), joined["seat"]: Seat(ws1)}
        readers = [asyncio.create_task(seat.read(figures)) for seat in seats.values()]
        try:
            next_move = time.perf_counter()
            figures.seated.add(index)
            played = 0
            while True:
                if time.perf_counter() >= figures.stop:
                    finished[0] = True
                    await figures.finish()   # the sockets close after the CPU is read
                    return
                await figures.pause(paused)
                state = next((s.state for s in seats.values() if s.state), None)
                if state is None:
                    await asyncio.wait([asyncio.ensure_future(s.changed.wait())
                                        for s in seats.values()], timeout=TIMEOUT)
                    if all(s.state is None for s in seats.values()):
                        figures.error("no state within 10 s of connecting")
                        return
                    continue
                newest = max((s.state for s in seats.values() if s.state),
                             key=lambda st: st["version"])
                if newest["over"]:
                    figures.games += figures.counting
                    return
                mover_seat = newest["to_move"]
                mover, other = seats[mover_seat], seats[1 - mover_seat]
                if mover.state is None or mover.state["version"] < newest["version"]:
                    await mover.wait_for(newest["version"], time.perf_counter() + TIMEOUT)
                    continue
                if args.pace > 0:
                    next_move += args.pace
                    delay = next_move - time.perf_counter()
                    if delay > 0:
                        await asyncio.sleep(delay)
                    if time.perf_counter() >= figures.stop:
                        continue   # no move is sent after the end
                state = mover.state
                version = state["version"]
                if resign_after[0] is not None and figures.pausing:
                    resign_after[0] = None   # counting: no game is resigned any more
                if resign_after[0] is not None and played >= resign_after[0]:
                    resign_after[0] = None
                    await mover.ws.send(json.dumps({"type": "resign"}))
                    await mover.wait_for(version + 1, time.perf_counter() + TIMEOUT)
                    continue
                played += 1
                move = rng.choice(state["legal_moves"])
                sent = time.perf_counter()
                await mover.ws.send(json.dumps({"type": "move", "version": version,
                                                "move": move}))
                until = sent + TIMEOUT
                mine, theirs = await asyncio.gather(mover.wait_for(version + 1, until),
                                                    other.wait_for(version + 1, until))
                if sent < figures.counted_from:
                    continue
                if mine is None:
                    figures.lost += 1
                    return
                figures.moves += 1
                figures.mover_ms.append((mine - sent) * 1000)
                if theirs is not None:
                    figures.opponent_ms.append((theirs - sent) * 1000)
        finally:
            for reader in readers:
                reader.cancel()


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)


async def stored_moves(bases: list[str]) -> int:
    """The moves the servers have stored so far, summed (each one's ``/metrics``)."""
    total = 0.0
    async with httpx.AsyncClient(timeout=10) as client:
        for base in bases:
            text = (await client.get(f"{base}/metrics")).text
            total += sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
                         if line.startswith("cardtable_moves_total"))
    return round(total)


async def watch_services(seen: dict[int, float], stop: float, every: float = 0.25) -> None:
    """Each service process's CPU seconds, read every ``every`` seconds until ``stop``: a
    pool's overflow connections open and close under load, and their backends' work would
    otherwise go uncounted."""
    while time.perf_counter() < stop:
        await asyncio.sleep(every)
        for pid in service_pids():   # a process gone between the two reads answers 0
            seen[pid] = max(seen.get(pid, 0.0), cpu_seconds(pid))


async def loop_lag(lags: list[float], stop: float, every: float = 0.01) -> None:
    """How late this process's loop wakes for a timer, in ms, until ``stop``."""
    while time.perf_counter() < stop:
        asked = time.perf_counter()
        await asyncio.sleep(every)
        lags.append(1000 * max(0.0, time.perf_counter() - asked - every))


async def run(args: argparse.Namespace) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="cardtable-load-"))
    processes = []
    bases = []
    database = None
    nginx = None
    args.run_database_url = None
    if args.database_url and args.database_url.startswith("postgresql"):
        args.run_database_url, database = fresh_database(args.database_url)
    try:
        ports = [free_port() for _ in range(args.processes)]
        ring = ",".join(f"127.0.0.1:{port}" for port in ports)
        for n, port in enumerate(ports):
            log = folder / f"server-{n}.log"
            # behind nginx, each process deals new tables ids that nginx sends to itself
            extra = ("--ring", ring, "--ring-address", f"127.0.0.1:{port}") if args.proxy else ()
            processes.append((start_server(port, folder / "data", args, log, extra), log))
            bases.append(f"http://127.0.0.1:{port}")
            if n == 0:   # the first one makes the schema before the others start
                await wait_ready(bases[0], *processes[0])
        for base, (process, log) in zip(bases, processes, strict=True):
            await wait_ready(base, process, log)
        direct = list(bases)
        if args.proxy:
            sys.path.insert(0, str(ROOT / "benchmarks"))
            from proxy import Nginx

            nginx = Nginx([base.removeprefix("http://") for base in bases], free_port(),
                          folder / "nginx")
            bases = [nginx.base]
        figures = Figures(places=args.tables)
        started = time.perf_counter()
        rng = random.Random(args.seed)
        loops = [asyncio.create_task(table_loop(bases, i, args, figures,
                                                random.Random(rng.getrandbits(64))))
                 for i in range(args.tables)]
        # the warm-up starts once every table is seated: making hundreds of tables at
        # once is work of its own, which must not be counted as the moves'
        seating_until = time.perf_counter() + SEATING
        while len(figures.seated) < args.tables and time.perf_counter() < seating_until:
            await asyncio.sleep(0.1)
        seated_s = round(time.perf_counter() - started, 1)
        await asyncio.sleep(args.warmup)
        if args.spread:   # until every first game has ended: their ages are spread then
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(figures.all_first_over.wait(), SEATING)
        figures.pausing = True   # every place's last move answered before the CPU is read
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(figures.all_paused.wait(), 2 * TIMEOUT)
        gc.collect()
        gc.freeze()
        gc.disable()
        figures.counting = True
        counted_from = figures.counted_from = time.perf_counter()
        stop = figures.stop = counted_from + args.seconds
        server_pids = [p.pid for p, _ in processes]
        proxy_pids = nginx.pids() if nginx is not None else None
        if args.profile:
            for pid in server_pids:
                os.kill(pid, signal.SIGUSR1)
        threads_from = [thread_cpu(pid) for pid in server_pids]
        cpu_from = cpu_now(server_pids, proxy_pids)
        ticks_from = cpu_ticks()
        stored_from = await stored_moves(direct)
        sessions_from = (database_sessions(args.database_url, database)
                         if database is not None else 0)
        figures.resume.set()
        lags: list[float] = []
        watch = asyncio.create_task(loop_lag(lags, stop))
        seen: dict[int, float] = {}
        services = asyncio.create_task(watch_services(seen, stop))
        with contextlib.suppress(TimeoutError):   # a place that failed never finishes
            await asyncio.wait_for(figures.all_finished.wait(),
                                   max(0.0, stop + 2 * TIMEOUT - time.perf_counter()))
        cpu_to = cpu_now(server_pids, proxy_pids)
        counted_to = time.perf_counter()
        ticks_to = cpu_ticks()
        threads_to = [thread_cpu(pid) for pid in server_pids]
        stored_to = await stored_moves(direct)
        sessions_to = (database_sessions(args.database_url, database)
                       if database is not None else 0)
        if args.profile:
            for pid in server_pids:
                os.kill(pid, signal.SIGUSR2)
        figures.release.set()
        await asyncio.gather(*loops, return_exceptions=True)
        await asyncio.sleep(1.0)   # what closing every table's sockets cost, apart
        closing_s = sum(cpu_seconds(pid) for pid in server_pids) - cpu_to["servers"]
        if args.profile:
            for port in ports:   # written whole (renamed into place) before the kill below
                wrote = Path(args.profile).resolve() / f"server-{port}.prof"
                for _ in range(600):
                    if wrote.exists():
                        break
                    await asyncio.sleep(0.1)
        gc.enable()
        watch.cancel()
        services.cancel()
        moves = max(1, figures.moves)
        cpu_ms = {party: round(1000 * seconds / moves, 3)
                  for party, seconds in cpu_between(cpu_from, cpu_to, seen).items()}
        elapsed = max(1e-9, counted_to - counted_from)
        result = {
            "tables": args.tables, "pace": args.pace, "seconds": args.seconds,
            "processes": args.processes, "together": args.together, "proxy": args.proxy,
            "commit_window": args.commit_window,
            "seated": len(figures.seated), "seated_s": seated_s,
            "game": args.game,
            "database": "postgresql" if args.database_url else "sqlite",
            "moves": figures.moves, "games": figures.games,
            "tables_made": figures.tables_made, "spread": args.spread,
            # the same as the servers count them (/metrics): the two agree when every
            # counted move, and no other, was played between the CPU's two readings
            "stored_moves": stored_to - stored_from,
            # connections the servers opened to PostgreSQL while counting (the reading's
            # own left out)
            "database_connections": max(0, sessions_to - sessions_from - 1)
            if database is not None else None,
            "moves_per_s": round(figures.moves / min(elapsed, args.seconds), 1),
            "mover_p50_ms": percentile(figures.mover_ms, 0.50),
            "mover_p99_ms": percentile(figures.mover_ms, 0.99),
            "opponent_p50_ms": percentile(figures.opponent_ms, 0.50),
            "opponent_p99_ms": percentile(figures.opponent_ms, 0.99),
            "mover_mean_ms": round(statistics.fmean(figures.mover_ms), 2)
            if figures.mover_ms else None,
            "errors": figures.errors, "lost": figures.lost,
            "generator_lag_p99_ms": percentile(lags, 0.99),
            "generator_lag_max_ms": round(max(lags), 2) if lags else None,
            "steal_pct": round(100 * (ticks_to[1] - ticks_from[1])
                               / max(1, ticks_to[0] - ticks_from[0]), 1),
            "error_reasons": dict(figures.reasons.most_common(5)),
            "rss_mb": round(sum(rss_mb(p.pid) for p, _ in processes), 1),
            "cpu_ms_per_move": cpu_ms,
            # the servers' CPU from the end's reading to 1 s after every socket closed
            # (not in cpu_ms_per_move): once a table's work, shown apart
            "closing_servers_cpu_ms": round(1000 * closing_s, 1),
            # each server's threads, by name: where a process's CPU a move went
            "thread_cpu_ms_per_move": [
                {name: round(1000 * (seconds - before.get(name, 0.0)) / moves, 3)
                 for name, seconds in sorted(after.items())}
                for before, after in zip(threads_from, threads_to, strict=True)],
            "cores": os.cpu_count(),
            "cores_bound_moves_per_s": round(1000 * (os.cpu_count() or 1) / max(1e-9, sum(
                cpu_ms.get(party, 0.0) for party in ("servers", "generator", "services",
                                                     "proxy")))),
        }
        return result
    finally:
        if nginx is not None:
            nginx.stop()
        for process, _ in processes:
            process.kill()
            process.wait(10)
        shutil.rmtree(folder, ignore_errors=True)
        if database is not None:
            drop_database(args.database_url, database)


def report(result: dict[str, Any], path: str | None) -> None:
    """Print a run's figures as JSON, and write them to ``path`` if one is given."""
    text = json.dumps(result, indent=1)
    print(text)
    if path:
        Path(path).write_text(text + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50, help="tables played at once")
    parser.add_argument("--pace", type=float, default=1.0,
                        help="seconds between a table's moves (0: as fast as it answers)")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long to measure")
    parser.add_argument("--warmup", type=float, default=5.0,
                        help="seconds of play before measuring, once every table is seated")
    parser.add_argument("--database-url", default=None, help="SQLAlchemy URL (default: SQLite)")
    parser.add_argument("--processes", type=int, default=1, help="server processes")
    parser.add_argument("--redis-url", default=None, help="Redis, for several processes")
    parser.add_argument("--together", action="store_true",
                        help="with several processes, seat a table's two players on the same "
                             "one (as a proxy routing by table would); by default they are "
                             "split, so every move crosses Redis")
    parser.add_argument("--proxy", action="store_true",
                        help="nginx with deploy/nginx/cardtable.conf in front of the "
                             "processes, which route by table; every player through it")
    parser.add_argument("--commit-window", type=float, default=None,
                        help="the servers' --commit-window (docs/deploy.md: 0.002 for "
                             "several processes; default: the server's own, 0)")
    parser.add_argument("--spread", type=int, default=0, metavar="MOVES",
                        help="resign each place's first game after a random number of moves "
                             "below MOVES, in the warm-up (give it time for them): the games "
                             "then end spread out, not together, and the counted time holds "
                             "a steady share of new tables' work (0: no)")
    parser.add_argument("--game", default="durak", help="the game every table plays")
    parser.add_argument("--options", default="{}", help="rule options, as JSON")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", default=None, metavar="DIR",
                        help="profile each server's event loop while counting (cProfile, "
                             "benchmarks/profiled_server.py): DIR/server-PORT.prof")
    parser.add_argument("--json", default=None, help="also write the figures to this file")
    args = parser.parse_args()
    if args.processes > 1 and not args.redis_url:
        parser.error("several processes need --redis-url")
    report(asyncio.run(run(args)), args.json)


if __name__ == "__main__":
    main()
