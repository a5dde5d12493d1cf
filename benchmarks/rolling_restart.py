"""A rolling restart under load: tables playing through nginx while each process restarts.

``--processes`` server processes (SQLite in a fresh folder, or a fresh PostgreSQL
database on ``--database-url``) run behind nginx with the repository's configuration
(``benchmarks/proxy.py``), routing by table, sharing ``--redis-url``. ``--tables``
tables of two people each are played through nginx, each seat on its own socket that
connects again, as the page does, whenever it closes (after the page's backoff: half a
second, then doubling). The seat to move plays a random legal move ``--pace`` seconds
after it is shown its turn; a table that ends is replaced by a new one. After
``--settle`` seconds, each process in turn is sent SIGTERM (``--signal kill``: SIGKILL,
a crash), started again on its port once it has gone (after ``--down`` seconds), and the
run waits ``--between`` seconds before the next. At the end every seat stops moving,
reads what is left, and the processes stop; then the stored games are compared with what
the players were shown and sent:

- ``lost``: moves a player was shown (a state's ``last_move``) that are not stored as
  shown, and tables whose stored game is shorter than the last state a player saw;
- ``doubled``: stored moves no player sent at that point of the game (a move applied
  twice is one of them), and stored games with gaps in their numbering;
- ``broken``: tables that stopped: a seat closed for good (a 4xxx code), or no move in
  the last ``--between`` seconds although the game had not ended;
- ``reconnects``: per seat and restart, how many times its socket closed (the aim: at most
  one), and the most any seat had (``max_reconnects_per_restart``);
- ``back_s``: for every seat whose socket a restart closed, the seconds from the signal to
  the first state on its new socket (``back_max_s``, ``back_p99_s``); with ``--signal
  kill`` the tables wait for the dead process's leases to run out (``--lease``);
- ``resumed_s``: per restart, the seconds from the signal until every table it touched had
  made a move again.

    python benchmarks/rolling_restart.py --tables 100 --pace 1 \\
        --redis-url redis://127.0.0.1:6379/0 --json rolling.json
    python benchmarks/rolling_restart.py --tables 100 --signal kill --lease 5 \\
        --redis-url redis://127.0.0.1:6379/0

Only loopback addresses are used.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import signal
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
from websockets.exceptions import ConnectionClosed, InvalidHandshake

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import drop_database, free_port, fresh_database, percentile, report, start_server
from proxy import Nginx

from cardtable.server.core.wire import seat_protocols


@dataclass
class Closed:
    at: float
    code: int | None


@dataclass
class Player:
    """One seat: what it was shown and sent, and every time its socket closed."""

    table: str
    token: str
    seed: int
    seen: dict[int, tuple[int, str]] = field(default_factory=dict)
    sent: set[tuple[int, str]] = field(default_factory=set)
    closes: list[Closed] = field(default_factory=list)
    firsts: list[float] = field(default_factory=list)
    """When each of the seat's sockets brought its first state."""
    connects: int = 0
    version: int = -1
    changes: list[float] = field(default_factory=list)
    """When the table changed (a new version), as this seat saw it."""
    over: bool = False
    gone_for_good: int | None = None
    errors: Counter[str] = field(default_factory=Counter)


class Run:
    def __init__(self, args: argparse.Namespace, base: str) -> None:
        self.args = args
        self.base = base
        self.ws_base = base.replace("http", "ws", 1)
        self.players: list[Player] = []
        self.stopping = False
        self.rng = random.Random(args.seed)

    async def table_loop(self, http: httpx.AsyncClient) -> None:
        """Tables one after another at one place until the run stops."""
        while not self.stopping:
            try:
                made = (await http.post(f"{self.base}/api/tables", json={
                    "game": self.args.game, "seats": ["human", "human"]})).json()
                joined = (await http.post(f"{self.base}/api/tables/{made['table']}/join",
                                          json={})).json()
                pair = [Player(made["table"], seated["token"], self.rng.getrandbits(32))
                        for seated in (made, joined)]
            except (httpx.HTTPError, KeyError, ValueError):
                await asyncio.sleep(0.5)   # a process restarting: nginx tries the next
                continue
            self.players.extend(pair)
            await asyncio.gather(*(self.seat_loop(player) for player in pair))

    async def seat_loop(self, player: Player) -> None:
        url = f"{self.ws_base}/ws/tables/{player.table}"
        rng = random.Random(player.seed)
        attempt = 0
        while not (self.stopping or player.over or player.gone_for_good):
            try:
                async with connect(url, open_timeout=5, max_size=2**22,
                                   subprotocols=seat_protocols(player.token)) as ws:
                    player.connects += 1
                    attempt = 0
                    await self.converse(ws, player, rng)
            except ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd is not None else None
                if not self.stopping:
                    player.closes.append(Closed(time.monotonic(), code))
                if code is not None and 4000 <= code < 5000:
                    player.gone_for_good = code
            except (OSError, InvalidHandshake, TimeoutError):
                pass
            if not (self.stopping or player.over or player.gone_for_good):
                # the page's backoff (static/js/api.js): 0.5 s, 1 s, 2 s ... at most 15 s,
                # each within a quarter either way
                await asyncio.sleep(min(15.0, 0.5 * 2 ** attempt) * rng.uniform(0.75, 1.25))
                attempt += 1

    async def converse(self, ws: ClientConnection, player: Player, rng: random.Random) -> None:
        first = True
        latest: dict[str, Any] | None = None
        due = None
        while not player.over:
            if self.stopping:
                await ws.close()
                return
            wait = 1.0 if due is None else max(0.0, due - time.monotonic())
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), min(wait, 1.0)))
            except TimeoutError:
                if due is not None and time.monotonic() >= due and latest is not None:
                    move = rng.choice(latest["legal_moves"])
                    player.sent.add((latest["version"], move))
                    await ws.send(json.dumps({"type": "move", "version": latest["version"],
                                              "move": move}))
                    due = None
                continue
            if message["type"] == "error":
                player.errors[message.get("code") or message.get("reason", "?")] += 1
                continue
            if message["type"] != "state":
                continue
            now = time.monotonic()
            if first:
                first = False
                player.firsts.append(now)
            if message["version"] != player.version:
                player.changes.append(now)
            player.version = message["version"]
            last = message.get("last_move")
            if last is not None:
                player.seen[last["index"]] = (last["seat"], last["move"])
            if message["over"]:
                player.over = True
                return
            latest = message
            due = now + self.args.pace if message["legal_moves"] else None


def stored_games(url: str, tables: list[str]) -> dict[str, list[tuple[int, int, str]]]:
    """Each table's stored moves, (index, seat, move) in order, read once every process
    has stopped."""
    from sqlalchemy import bindparam, create_engine, text

    engine = create_engine(url)
    query = text('SELECT table_id, "index", seat, move FROM moves WHERE table_id IN :ids '
                 'ORDER BY table_id, "index"').bindparams(bindparam("ids", expanding=True))
    games: dict[str, list[tuple[int, int, str]]] = {table: [] for table in tables}
    try:
        with engine.connect() as db:
            for row in db.execute(query, {"ids": tables}):
                games[row[0]].append((row[1], row[2], row[3]))
    finally:
        engine.dispose()
    return games


def judge(players: list[Player], games: dict[str, list[tuple[int, int, str]]]
          ) -> dict[str, int]:
    """Lost and doubled moves of each table, its players against its stored game.

    >>> a, b = Player("t", "x", 1), Player("t", "y", 2)
    >>> a.sent, b.sent = {(0, "attack 6S"), (2, "attack 7S")}, {(1, "take")}
    >>> a.version = b.version = 3
    >>> a.seen = {0: (0, "attack 6S"), 1: (1, "take"), 2: (0, "attack 7S")}
    >>> game = [(0, 0, "attack 6S"), (1, 1, "take"), (2, 0, "attack 7S")]
    >>> judge([a, b], {"t": game})
    {'lost': 0, 'doubled': 0}
    >>> judge([a, b], {"t": game[:2]})   # the third was shown, not stored
    {'lost': 1, 'doubled': 0}
    >>> judge([a, b], {"t": game + [(3, 1, "take")]})   # stored, never sent there
    {'lost': 0, 'doubled': 1}
    """
    lost = doubled = 0
    by_table: dict[str, list[Player]] = {}
    for player in players:
        by_table.setdefault(player.table, []).append(player)
    for table, pair in by_table.items():
        moves = games[table]
        if [index for index, _, _ in moves] != list(range(len(moves))):
            doubled += 1
        shown = max(player.version for player in pair)
        missing = set(range(len(moves), shown))   # the game was shown this long
        for player in pair:
            missing |= {index for index, told in player.seen.items()
                        if index >= len(moves) or moves[index][1:] != told}
        lost += len(missing)
        sent = set().union(*(player.sent for player in pair))
        doubled += sum(1 for index, _, move in moves if (index, move) not in sent)
    return {"lost": lost, "doubled": doubled}


class Processes:
    def __init__(self, args: argparse.Namespace, folder: Path) -> None:
        self.args, self.folder = args, folder
        self.ports = [free_port() for _ in range(args.processes)]
        self.running: list[subprocess.Popen[bytes] | None] = [None] * args.processes
        self.starts = 0

    def start(self, n: int) -> None:
        self.starts += 1
        log = self.folder / f"server-{n}-{self.starts}.log"
        ring = ",".join(f"127.0.0.1:{port}" for port in self.ports)
        self.running[n] = start_server(self.ports[n], self.folder / "data", self.args, log,
                                       extra=("--lease", str(self.args.lease), "--ring", ring,
                                              "--ring-address", f"127.0.0.1:{self.ports[n]}"))

    async def ready(self, n: int) -> None:
        async with httpx.AsyncClient() as client:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                process = self.running[n]
                if process is None or process.poll() is not None:
                    raise SystemExit(f"server {n} did not start (logs in {self.folder})")
                try:
                    url = f"http://127.0.0.1:{self.ports[n]}/api/health/ready"
                    if (await client.get(url, timeout=2)).status_code == 200:
                        return
                except httpx.HTTPError:
                    pass
                await asyncio.sleep(0.1)
        raise SystemExit(f"server {n} was not ready within 60 s")

    async def stop(self, n: int, how: signal.Signals) -> float:
        """Signal process ``n`` and wait until it has gone: returns when it was signalled."""
        process = self.running[n]
        assert process is not None
        signalled = time.monotonic()
        process.send_signal(how)
        while process.poll() is None:
            await asyncio.sleep(0.02)
        self.running[n] = None
        return signalled


async def run(args: argparse.Namespace) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="cardtable-rolling-"))
    args.run_database_url, database = None, None
    args.proxy = True
    if args.database_url and args.database_url.startswith("postgresql"):
        args.run_database_url, database = fresh_database(args.database_url)
    stored_url = args.run_database_url or args.database_url or \
        f"sqlite:///{folder / 'data' / 'cardtable.sqlite3'}"
    processes = Processes(args, folder)
    nginx = None
    restarts: list[dict[str, Any]] = []
    how = signal.SIGKILL if args.signal == "kill" else signal.SIGTERM
    try:
        for n in range(args.processes):
            processes.start(n)
            await processes.ready(n)   # the first makes the schema before the next starts
        nginx = Nginx([f"127.0.0.1:{port}" for port in processes.ports], free_port(),
                      folder / "nginx")
        play = Run(args, nginx.base)
        http = httpx.AsyncClient(timeout=30, limits=httpx.Limits(keepalive_expiry=2))
        loops = [asyncio.create_task(play.table_loop(http)) for _ in range(args.tables)]
        await asyncio.sleep(args.settle)
        for n in range(args.processes):
            before = {id(p): (len(p.closes), p.version) for p in play.players if not p.over}
            signalled = await processes.stop(n, how)
            gone = time.monotonic()
            await asyncio.sleep(args.down)
            processes.start(n)
            await processes.ready(n)
            back_up = time.monotonic()
            await asyncio.sleep(args.between)
            touched = [p for p in play.players if id(p) in before
                       and len(p.closes) > before[id(p)][0]]
            closes = [len(p.closes) - before[id(p)][0] for p in touched]
            # back: the first state on a socket opened after the restart's first close
            backs = [min((at for at in p.firsts if at > p.closes[before[id(p)][0]].at),
                         default=None) for p in touched]
            tables = {p.table for p in touched}
            moved = [min((at for pl in play.players if pl.table == table
                          for at in pl.changes if at > signalled), default=None)
                     for table in tables]
            restarts.append({
                "process": n, "signal": how.name,
                "gone_s": round(gone - signalled, 2), "ready_s": round(back_up - signalled, 2),
                "seats_closed": len(touched), "tables_touched": len(tables),
                "max_reconnects": max(closes, default=0),
                "not_back": sum(1 for back in backs if back is None),
                "back_max_s": round(max((b - signalled for b in backs if b), default=0), 2),
                "back_p99_s": percentile([(b - signalled) for b in backs if b], 0.99),
                "not_resumed": sum(1 for at in moved if at is None),
                "resumed_s": round(max((at - signalled for at in moved if at), default=0), 2),
                "resumed_p50_s": percentile([at - signalled for at in moved if at], 0.5),
            })
        quiet_since = time.monotonic() - args.between
        play.stopping = True
        await asyncio.gather(*loops, return_exceptions=True)
        await http.aclose()
        for n in range(args.processes):   # what was acknowledged is stored before they go
            await processes.stop(n, signal.SIGTERM)
        players = play.players
        games = stored_games(stored_url, sorted({p.table for p in players}))
        judged = judge(players, games)
        stalled = {p.table for p in players if not p.over
                   and max(p.changes, default=0.0) < quiet_since}
        dead = {p.table for p in players if p.gone_for_good}
        backs = [s["back_max_s"] for s in restarts]
        return {
            "tables": args.tables, "pace": args.pace, "processes": args.processes,
            "signal": how.name, "lease": args.lease,
            "database": "postgresql" if args.database_url else "sqlite",
            "games": len({p.table for p in players}),
            "games_ended": len({p.table for p in players if p.over}),
            "moves_stored": sum(len(moves) for moves in games.values()),
            **judged,
            "broken": len(stalled | dead),
            "max_reconnects_per_restart": max((s["max_reconnects"] for s in restarts),
                                              default=0),
            "not_back": sum(s["not_back"] for s in restarts),
            "back_max_s": max(backs, default=0.0),
            "errors": dict(sum((p.errors for p in players), Counter()).most_common(5)),
            "restarts": restarts,
        }
    finally:
        if nginx is not None:
            nginx.stop()
        for process in processes.running:
            if process is not None and process.poll() is None:
                process.kill()
                process.wait(10)
        if args.keep:
            print(f"logs kept in {folder}", file=sys.stderr)
        else:
            shutil.rmtree(folder, ignore_errors=True)
        if database is not None:
            drop_database(args.database_url, database)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100, help="tables played at once")
    parser.add_argument("--pace", type=float, default=1.0,
                        help="seconds from a seat's turn to its move")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--redis-url", required=True)
    parser.add_argument("--database-url", default=None, help="SQLAlchemy URL (default: SQLite)")
    parser.add_argument("--signal", choices=("term", "kill"), default="term")
    parser.add_argument("--lease", type=float, default=15.0, help="the processes' lease")
    parser.add_argument("--settle", type=float, default=10.0,
                        help="seconds of play before the first restart")
    parser.add_argument("--down", type=float, default=0.0,
                        help="seconds a stopped process stays down before it starts again")
    parser.add_argument("--between", type=float, default=10.0,
                        help="seconds of play after each restart")
    parser.add_argument("--game", default="durak")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", action="store_true", help="keep the servers' logs")
    parser.add_argument("--json", default=None, help="also write the figures to this file")
    args = parser.parse_args()
    report(asyncio.run(run(args)), args.json)


if __name__ == "__main__":
    main()
