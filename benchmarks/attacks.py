"""Floods against a local server, with a normal player's moves timed
during each: what held, and what it cost the player.

A server is started for the run (``python -m cardtable.server`` on a free port, a fresh
SQLite folder, or with ``--database-url`` a fresh PostgreSQL database beside the one it
names, dropped after), with the **default** limits, since they are what is being tested.
Every address is a loopback one: each attack comes from one of its own (``127.0.1.N``),
the normal player from ``127.0.0.3``, and the victim of the sign-in flood and a health
probe (``/api/health`` every quarter second) from ``127.0.0.4`` (Linux answers the whole
of 127.0.0.0/8 on the loopback interface), so the per-address limits tell them apart as
they would tell strangers apart.

The normal player plays Durak against a random bot (no bot delay) the whole run, a move
``--pace`` seconds (0.3) after its turn comes; a move's latency is from sending it to the
player's next state.  First a
quiet phase, then each attack for ``--seconds`` (bounded also in count, below), then the
figures of each phase: the player's moves, their p50/p95/max latency and errors, the
slowest health answer, and the attack's own counts, with whether the server held:

- ``nul_bytes``: 400 requests whose strings hold a NUL on nine endpoints
  (held: none answered 5xx);
- ``idle_connections``: ``--idle`` sockets opened and left silent (held: the player plays
  on, the server closes them by ``header_timeout`` or refuses those past
  ``connections_per_peer``, health answers);
- ``big_bodies``: four 200 MB bodies streamed at once (held: 413 before the server reads
  them, its memory grows by under 50 MB);
- ``sign_in_flood``: 300 wrong passwords for the victim's account from the attacker,
  then the victim signs in from its own address (held: the victim gets in);
- ``spread_sign_in_flood``: 40 addresses, each within its limits (20 wrong passwords),
  at once, while the owner signs in every half second from its known browser and from a
  new one (held: every known-browser sign-in within a second);
- ``guest_flood``: 1,000 first visits (held: at most ``guests_per_address`` guests made);
- ``quick_play_flood``: 1,000 quick-play tickets (held: no 5xx, health answers within a
  second, the player's p95 under a second);
- ``watchers``: 300 watchers of the player's table (held: at most
  ``connections_per_address`` admitted, the player's moves unhurt);
- ``spectator_chat``: 1,000 chat lines from one watcher (held: the chat rate admits a
  handful);
- ``reports``: 200 reports of the player (held: at most ``reports_per_address``);
- ``bot_tables``: ``--bot-tables`` tables of a human seat and expert bots on a 1 s clock
  (held: the player's bot still answers within a second).

    python benchmarks/attacks.py --seconds 8 --json attacks.json

Bounded: each attack sends at most the counts above and stops after ``--seconds``; the
run ends by itself.  Loopback only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import drop_database, free_port, fresh_database, percentile, rss_mb, wait_ready

from cardtable.server.core.wire import seat_protocols

ROOT = Path(__file__).resolve().parents[1]
PLAYER, VICTIM = "127.0.0.3", "127.0.0.4"
ATTACKERS = "127.0.1.{}"
"""Each attack comes from an address of its own (127.0.1.1, .2, ...): what one flood used
up of an address's quotas does not make the next one look held."""
PASSWORD = "correct horse battery"
TIMEOUT = 10.0


def client(address: str, **options: Any) -> httpx.AsyncClient:
    """An HTTP client whose connections come from ``address``."""
    transport = httpx.AsyncHTTPTransport(local_address=address, retries=0)
    return httpx.AsyncClient(transport=transport, timeout=TIMEOUT, **options)


@dataclass
class Timings:
    """The normal player's moves during one phase."""

    latencies: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)

    def figures(self) -> dict[str, Any]:
        ms = [value * 1000 for value in self.latencies]
        return {"moves": len(ms), "p50_ms": _round(percentile(ms, 0.5)),
                "p95_ms": _round(percentile(ms, 0.95)),
                "max_ms": _round(max(ms) if ms else None),
                "errors": dict(self.errors)}


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


class NormalPlayer:
    """Durak against a random bot, a move as soon as it is the player's turn, a new table
    when one ends; the moves' latencies go to the current phase's ``Timings``."""

    def __init__(self, base: str, pace: float) -> None:
        self.base = base
        self.pace = pace
        self.now = Timings()
        self.table: str | None = None
        self.stopping = False

    async def run(self) -> None:
        rng = random.Random(28)
        async with client(PLAYER) as http:
            while not self.stopping:
                try:
                    made = (await http.post(f"{self.base}/api/tables", json={
                        "game": "durak", "seats": ["human", "bot:random"]})).json()
                    self.table = made["table"]
                    await self._play(made, rng)
                except Exception as error:   # counted, and a new table
                    self.now.errors[type(error).__name__] += 1
                    await asyncio.sleep(0.5)

    async def _play(self, made: dict[str, Any], rng: random.Random) -> None:
        url = self.base.replace("http", "ws", 1) + f"/ws/tables/{made['table']}"
        async with connect(url, local_addr=(PLAYER, 0), open_timeout=TIMEOUT,
                           subprotocols=seat_protocols(made["token"])) as ws:
            state: dict[str, Any] = {}
            sent_at, waiting_for = 0.0, -1
            while not self.stopping:
                message = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
                if message.get("type") == "error":   # a fresh state follows: choose again
                    self.now.errors[str(message.get("code"))] += 1
                    waiting_for = -1
                    continue
                if message.get("type") != "state":
                    continue
                state = message
                if waiting_for >= 0 and state["version"] >= waiting_for:
                    self.now.latencies.append(time.perf_counter() - sent_at)
                    waiting_for = -1
                if state.get("over"):
                    return
                if state.get("legal_moves") and waiting_for < 0:
                    move = rng.choice(state["legal_moves"])
                    await asyncio.sleep(self.pace)   # a person's pace, not a program's
                    sent_at, waiting_for = time.perf_counter(), state["version"] + 1
                    await ws.send(json.dumps({"type": "move", "move": move,
                                              "version": state["version"]}))


# -- the attacks ------------------------------------------------------------------------------
Attack = Callable[[str, float, "Run"], Awaitable[dict[str, Any]]]


@dataclass
class Run:
    args: argparse.Namespace
    server_pid: int
    player: NormalPlayer
    attacker: str = ""


class HealthProbe:
    """``/api/health`` from the victim's address every quarter second: what a visitor (or
    a load balancer) sees of the server during an attack."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.ms: list[float] = []
        self.failed = 0

    async def run(self, stop: float) -> None:
        async with client(VICTIM) as http:
            while time.perf_counter() < stop:
                started = time.perf_counter()
                try:
                    ok = (await http.get(f"{self.base}/api/health")).status_code == 200
                except httpx.HTTPError:
                    ok = False
                self.ms.append((time.perf_counter() - started) * 1000)
                self.failed += not ok
                await asyncio.sleep(0.25)

    def figures(self) -> dict[str, Any]:
        return {"health_max_ms": _round(max(self.ms) if self.ms else None),
                "health_failed": self.failed}


def _statuses(answers: list[Any]) -> dict[str, int]:
    counted: Counter[str] = Counter()
    for answer in answers:
        counted[str(answer.status_code) if isinstance(answer, httpx.Response)
                else type(answer).__name__] += 1
    return dict(counted)


async def _gather(calls: list[Awaitable[Any]], stop: float, at_once: int = 20) -> list[Any]:
    """Run the calls ``at_once`` at a time until they are done or ``stop`` passes."""
    answers: list[Any] = []
    for start in range(0, len(calls), at_once):
        if time.perf_counter() >= stop:
            for call in calls[start:]:
                if asyncio.iscoroutine(call):
                    call.close()
            break
        answers += await asyncio.gather(*calls[start:start + at_once], return_exceptions=True)
    return answers


async def nul_bytes(base: str, stop: float, run: Run) -> dict[str, Any]:
    async with client(run.attacker) as http:
        def one(i: int) -> Awaitable[Any]:
            kind = i % 9
            if kind == 0:
                return http.post(f"{base}/api/account/login",
                                 json={"username": "a\u0000b", "password": "x\u0000" * 8})
            if kind == 1:
                return http.post(f"{base}/api/quick-play", json={"game": "du\u0000rak"})
            if kind == 2:
                return http.post(f"{base}/api/me/name", json={"name": "n\u0000"})
            paths = ["/api/players/a%00b", "/api/tables/a%00b", "/api/lobby?game=a%00",
                     "/api/history?game=a%00", "/api/leaderboard?pool=a%00",
                     "/api/tables/a%00b/log"]
            return http.get(base + paths[kind - 3])
        answers = await _gather([one(i) for i in range(400)], stop)
    statuses = _statuses(answers)
    return {"sent": len(answers), "statuses": statuses,
            "held": not any(code.startswith("5") for code in statuses)}


async def idle_connections(base: str, stop: float, run: Run) -> dict[str, Any]:
    host, port = base.removeprefix("http://").split(":")
    opened: list[socket.socket] = []
    refused = 0
    for _ in range(run.args.idle):
        sock = socket.socket()
        sock.setblocking(False)
        try:
            sock.bind((run.attacker, 0))
            await asyncio.get_running_loop().sock_connect(sock, (host, int(port)))
            opened.append(sock)
        except OSError:
            refused += 1
            sock.close()
    async with client(VICTIM) as http:
        started = time.perf_counter()
        health = (await http.get(f"{base}/api/health")).status_code
        health_ms = (time.perf_counter() - started) * 1000
    # past the header timeout (10 s by default), whatever --seconds says: were they closed?
    await asyncio.sleep(max(stop, started + run.args.header_timeout + 2) - time.perf_counter())
    closed = 0
    for sock in opened:
        try:
            sock.recv(1)   # b"": closed; a byte: the server's 408, then it closes
            closed += 1
        except BlockingIOError:   # still open, and silent
            pass
        except OSError:
            closed += 1
        sock.close()
    return {"opened": len(opened), "refused_at_connect": refused,
            "closed_by_server": closed, "health": health, "health_ms": round(health_ms, 1),
            "held": health == 200}


async def big_bodies(base: str, stop: float, run: Run) -> dict[str, Any]:
    before = rss_mb(run.server_pid)
    chunk = b"x" * (1 << 20)

    async def body() -> AsyncIterator[bytes]:
        for _ in range(200):
            if time.perf_counter() >= stop:
                return
            yield chunk

    async with client(run.attacker) as http:
        async def one() -> Any:
            try:
                return await http.post(f"{base}/api/tables", content=body(),
                                       headers={"Content-Type": "application/json"})
            except httpx.HTTPError as error:
                return error
        answers = await asyncio.gather(*(one() for _ in range(4)))
    peak = rss_mb(run.server_pid)
    statuses = _statuses(answers)
    return {"statuses": statuses, "rss_before_mb": round(before, 1),
            "rss_after_mb": round(peak, 1),
            "held": peak - before < 50 and "200" not in statuses and "201" not in statuses}


async def sign_in_flood(base: str, stop: float, run: Run) -> dict[str, Any]:
    name = f"victim{random.randrange(10**6)}"
    async with client(VICTIM) as owner:
        await owner.post(f"{base}/api/account/register",
                         json={"username": name, "password": PASSWORD})
    async with client(run.attacker) as http:
        answers = await _gather([http.post(f"{base}/api/account/login", json={
            "username": name, "password": f"guess number {i}"}) for i in range(300)], stop)
    async with client(VICTIM) as owner:
        own = await owner.post(f"{base}/api/account/login",
                               json={"username": name, "password": PASSWORD})
    return {"tries": len(answers), "statuses": _statuses(answers),
            "owner_signs_in": own.status_code, "held": own.status_code == 200}


SPREAD = "127.0.2.{}"
"""The spread sign-in flood's 40 addresses (127.0.2.1 to .40)."""


async def spread_sign_in_flood(base: str, stop: float, run: Run) -> dict[str, Any]:
    """40 addresses, each within its own limits (10 wrong passwords for the owner's
    account and 10 for an unknown one: ``login_per_account_address`` and
    ``login_per_address``), all at once, while the owner signs in every half second from
    the browser it signed in with before (its known-device cookie) and, beside it, from a
    new browser (no cookie) on the same address: each sign-in's time."""
    name = f"owner{random.randrange(10**6)}"
    async with client(VICTIM) as owner, client(VICTIM) as stranger:
        return await _spread_flood(base, stop, name, owner, stranger)


async def _spread_flood(base: str, stop: float, name: str, owner: httpx.AsyncClient,
                        stranger: httpx.AsyncClient) -> dict[str, Any]:
    await owner.post(f"{base}/api/account/register",
                     json={"username": name, "password": PASSWORD})
    await owner.post(f"{base}/api/account/logout")
    first = await owner.post(f"{base}/api/account/login",
                             json={"username": name, "password": PASSWORD})
    assert first.status_code == 200, first.text   # the known-device cookie is set now
    known: list[float] = []
    new: list[float] = []
    statuses: Counter[str] = Counter()

    async def attacker(number: int) -> None:
        async with client(SPREAD.format(number)) as http:
            for guess in range(10):
                for target in (name, f"nobody{number}"):
                    if time.perf_counter() > stop:
                        return
                    with contextlib.suppress(httpx.HTTPError):
                        answer = await http.post(f"{base}/api/account/login", json={
                            "username": target, "password": f"guess {number}.{guess}"})
                        statuses[str(answer.status_code)] += 1

    async def sign_in(http: httpx.AsyncClient, into: list[float]) -> None:
        started = time.perf_counter()
        try:
            answer = await http.post(f"{base}/api/account/login",
                                     json={"username": name, "password": PASSWORD})
        except httpx.HTTPError as error:
            statuses[f"owner {type(error).__name__}"] += 1
            into.append(time.perf_counter() - started)
            return
        if answer.status_code == 200:
            into.append(time.perf_counter() - started)
        else:
            statuses[f"owner {answer.status_code}"] += 1

    flood = [asyncio.create_task(attacker(n)) for n in range(1, 41)]
    try:
        while time.perf_counter() < stop and not all(t.done() for t in flood):
            await asyncio.gather(sign_in(owner, known), sign_in(stranger, new))
            stranger.cookies.clear()
            await asyncio.sleep(0.5)
    finally:
        await asyncio.gather(*flood, return_exceptions=True)
    figures: dict[str, Any] = {
        "attempts": sum(v for k, v in statuses.items() if not k.startswith("owner")),
        "statuses": dict(statuses),
        "owner_known_device_s": _spread(known), "owner_new_browser_s": _spread(new)}
    figures["held"] = bool(known) and max(known) < 1.0 and not any(
        key.startswith("owner") for key in statuses)
    return figures


def _spread(seconds: list[float]) -> dict[str, Any]:
    if not seconds:
        return {"n": 0}
    ordered = sorted(seconds)
    return {"n": len(ordered), "median": round(ordered[len(ordered) // 2], 3),
            "max": round(ordered[-1], 3)}


async def guest_flood(base: str, stop: float, run: Run) -> dict[str, Any]:
    async with client(run.attacker) as http:
        async def visit() -> Any:
            http.cookies.clear()
            return await http.get(f"{base}/api/me")
        answers = await _gather([visit() for _ in range(1000)], stop, at_once=1)
    statuses = _statuses(answers)
    return {"visits": len(answers), "statuses": statuses,
            "held": statuses.get("200", 0) <= 100}


async def quick_play_flood(base: str, stop: float, run: Run) -> dict[str, Any]:
    async with client(run.attacker) as http:
        answers = await _gather([http.post(f"{base}/api/quick-play", json={
            "game": "durak", "players": 2, "bots_after": None}) for _ in range(1000)], stop)
    statuses = _statuses(answers)
    return {"asked": len(answers), "statuses": statuses,
            "held": not any(code.startswith("5") for code in statuses)}


async def watchers(base: str, stop: float, run: Run) -> dict[str, Any]:
    table = run.player.table
    url = base.replace("http", "ws", 1) + f"/ws/tables/{table}"
    admitted, refused = 0, 0
    async with contextlib.AsyncExitStack() as stack:
        for _ in range(300):
            left = stop - time.perf_counter()
            if left <= 0:
                break
            try:
                ws = await stack.enter_async_context(
                    connect(url, local_addr=(run.attacker, 0), open_timeout=min(2, left),
                            close_timeout=1))
                first = json.loads(await asyncio.wait_for(ws.recv(), min(2, left)))
                if first.get("type") == "error":
                    refused += 1
                else:
                    admitted += 1
            except Exception:
                refused += 1
        await asyncio.sleep(max(0.0, stop - time.perf_counter()))
    return {"admitted": admitted, "refused": refused, "held": admitted <= 32}


async def spectator_chat(base: str, stop: float, run: Run) -> dict[str, Any]:
    table = run.player.table
    url = base.replace("http", "ws", 1) + f"/ws/tables/{table}"
    said, refused = 0, 0
    async with connect(url, local_addr=(run.attacker, 0), open_timeout=TIMEOUT) as ws:
        for i in range(1000):
            await ws.send(json.dumps({"type": "chat", "text": f"spam {i}"}))
        with contextlib.suppress(TimeoutError, Exception):
            while time.perf_counter() < stop:
                message = json.loads(await asyncio.wait_for(ws.recv(), 1.0))
                if message.get("type") == "chat":
                    said += 1
                elif message.get("type") == "error":
                    refused += 1
    return {"sent": 1000, "said": said, "refused": refused, "held": said <= 10}


async def reports(base: str, stop: float, run: Run) -> dict[str, Any]:
    async with client(PLAYER) as http:
        me = (await http.get(f"{base}/api/me")).json()
    async with client(run.attacker) as http:
        await http.get(f"{base}/api/me")
        answers = await _gather([http.post(f"{base}/api/reports", json={
            "player": me["id"], "reason": f"report {i}"}) for i in range(200)], stop)
    statuses = _statuses(answers)
    return {"sent": len(answers), "statuses": statuses,
            "held": statuses.get("201", 0) <= 20}


async def bot_tables(base: str, stop: float, run: Run) -> dict[str, Any]:
    made, statuses = [], Counter[str]()
    async with client(run.attacker) as http:
        for _ in range(run.args.bot_tables):
            answer = await http.post(f"{base}/api/tables", json={
                "game": "durak", "players": 6,
                "seats": ["human", *["bot:expert"] * 5], "takeover": "bot:expert",
                "clock": {"move": 1, "bank": 0}})
            statuses[str(answer.status_code)] += 1
            if answer.status_code == 201:
                made.append(answer.json())
        await asyncio.sleep(max(0.0, stop - time.perf_counter()))
    return {"tables": len(made), "statuses": dict(statuses)}


ATTACKS: dict[str, Attack] = {
    "nul_bytes": nul_bytes, "idle_connections": idle_connections, "big_bodies": big_bodies,
    "sign_in_flood": sign_in_flood, "spread_sign_in_flood": spread_sign_in_flood,
    "guest_flood": guest_flood,
    "quick_play_flood": quick_play_flood, "watchers": watchers,
    "spectator_chat": spectator_chat, "reports": reports, "bot_tables": bot_tables}


# -- the run ----------------------------------------------------------------------------------
async def run_all(args: argparse.Namespace, base: str, pid: int) -> dict[str, Any]:
    player = NormalPlayer(base, args.pace)
    playing = asyncio.create_task(player.run())
    run = Run(args, pid, player)
    results: dict[str, Any] = {}
    try:
        await asyncio.sleep(2)   # the first table, before anything is timed
        player.now = Timings()
        await asyncio.sleep(args.seconds)
        results["quiet"] = {"player": player.now.figures()}
        for number, name in enumerate(args.attacks.split(","), start=1):
            player.now, run.attacker = Timings(), ATTACKERS.format(number)
            started = time.perf_counter()
            stop = started + args.seconds
            probe = HealthProbe(base)
            probing = asyncio.create_task(probe.run(stop))
            try:
                figures = await asyncio.wait_for(ATTACKS[name](base, stop, run),
                                                 args.seconds + 60)
            except Exception as error:
                figures = {"failed": f"{type(error).__name__}: {error}", "held": False}
            figures["seconds"] = round(time.perf_counter() - started, 1)
            await asyncio.sleep(max(0.0, stop - time.perf_counter()))   # a whole phase
            await probing
            figures.update(probe.figures())
            results[name] = {"attack": figures, "player": player.now.figures()}
            p95 = results[name]["player"]["p95_ms"]
            if name in ("bot_tables", "quick_play_flood"):   # held: the site stays usable
                figures["held"] = (p95 is not None and p95 < 1000 and probe.failed == 0
                                   and figures.get("health_max_ms", 0) < 1000
                                   and figures.get("held") is not False)
            print(f"{name}: {json.dumps(results[name])}", flush=True)
            await asyncio.sleep(2)   # what the attack left behind settles
    finally:
        player.stopping = True
        playing.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await playing
    return results


def table(results: dict[str, Any]) -> str:
    """docs/reliability.md's table."""
    lines = ["| attack | held | the attack | player's moves: n, p50 / p95 / max ms |",
             "|---|---|---|---|"]
    for name, result in results.items():
        attack = dict(result.get("attack", {}))
        held = attack.pop("held", None)
        attack.pop("seconds", None)
        player = result["player"]
        shown = ", ".join(f"{key} {json.dumps(value)}" for key, value in attack.items())
        lines.append(f"| {name} | {'—' if held is None else 'yes' if held else 'NO'} | "
                     f"{shown or '—'} | {player['moves']}, {player['p50_ms']} / "
                     f"{player['p95_ms']} / {player['max_ms']}"
                     f"{' errors ' + json.dumps(player['errors']) if player['errors'] else ''} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=8.0, help="each phase's length")
    parser.add_argument("--attacks", default=",".join(ATTACKS),
                        help="which, comma-separated, in order")
    parser.add_argument("--pace", type=float, default=0.3,
                        help="seconds the normal player takes to choose each move")
    parser.add_argument("--idle", type=int, default=1100, help="idle sockets to open")
    parser.add_argument("--bot-tables", type=int, default=6, help="tables of expert bots")
    parser.add_argument("--header-timeout", type=float, default=10.0,
                        help="the server's header_timeout (its default): idle sockets are "
                             "looked at once it has passed")
    parser.add_argument("--database-url", default=None,
                        help="PostgreSQL: a fresh database is made beside this one")
    parser.add_argument("--json", default=None, help="write the figures here")
    args = parser.parse_args()
    unknown = set(args.attacks.split(",")) - set(ATTACKS)
    if unknown:
        parser.error(f"no such attack: {', '.join(sorted(unknown))}")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, args.idle + 1024)), hard))
    folder = Path(tempfile.mkdtemp(prefix="cardtable-attacks-"))
    port = free_port()
    command = [sys.executable, "-m", "cardtable.server", "--port", str(port),
               "--data-dir", str(folder), "--bot-delay", "0", "--log-level", "warning"]
    database = None
    if args.database_url:
        url, database = fresh_database(args.database_url)
        command += ["--database-url", url]
    log = folder / "server.log"
    with log.open("wb") as out:
        server = subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        asyncio.run(wait_ready(base, server, log))
        results = asyncio.run(run_all(args, base, server.pid))
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
        text = log.read_text(errors="replace")
        if database and args.database_url:
            drop_database(args.database_url, database)
        shutil.rmtree(folder, ignore_errors=True)
    lines = text.splitlines()
    results["server_log_lines"] = {
        "lines": len(lines), "tracebacks": text.count("Traceback"),
        "most": Counter(line[:70] for line in lines).most_common(3)}
    if "Traceback" in text:   # what the first one ended with
        first = text[text.index("Traceback"):].splitlines()
        end = next((i for i, line in enumerate(first[1:], 1) if not line.startswith(" ")), 0)
        results["server_log_lines"]["first_traceback"] = first[max(1, end - 3):end + 1]
    print(table({k: v for k, v in results.items() if "player" in v}))
    print(f"server log: {results['server_log_lines']}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
