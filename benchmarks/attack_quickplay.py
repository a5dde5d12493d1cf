"""A quick-play flood against a real server, with the health timed.

One server process (``python -m cardtable.server``, SQLite in a fresh folder, trusting
``X-Forwarded-For`` from 127.0.0.1 so that this one process can be many addresses) gets
``--tickets`` quick-play requests from ``--addresses`` addresses, ``--concurrency`` at a
time, and then every ticket still waiting is polled once a second (as pages would, to keep
them) for ``--seconds``.  Meanwhile a probe asks ``GET /api/health`` every 0.1 s, as a
load balancer would.  It prints, as JSON: the answers the flood got by status, the health's
latency (p50, p95, max, in ms) and the longest stall (the longest time without a health
answer), the tickets waiting at the end, and how long the flood's requests took.

    python benchmarks/attack_quickplay.py --tickets 1000 --addresses 250 --seconds 20

The server keeps its default limits (flags after ``--`` are passed on): with them most
tables the queue would make are refused by the tables-per-address quota, so the tickets
stay waiting, which is the flood's worst case.

Only the loopback address is used; the run stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import httpx
from load import free_port, wait_ready

ROOT = Path(__file__).resolve().parents[1]


async def probe(base: str, until: asyncio.Event, latencies: list[float],
                answers: list[float]) -> None:
    """The health every 0.1 s: each answer's latency, and when it came."""
    async with httpx.AsyncClient(timeout=60) as client:
        while not until.is_set():
            started = time.monotonic()
            try:
                await client.get(f"{base}/api/health")
                latencies.append(time.monotonic() - started)
                answers.append(time.monotonic())
            except httpx.HTTPError:
                pass
            await asyncio.sleep(0.1)


async def flood(base: str, args: argparse.Namespace) -> dict[str, object]:
    statuses: Counter[int] = Counter()
    waiting: set[str] = set()
    games = [("durak", players) for players in (2, 3, 4, 5, 6)]
    limit = asyncio.Semaphore(args.concurrency)
    started = time.monotonic()

    async with httpx.AsyncClient(timeout=60, limits=httpx.Limits(
            max_connections=args.concurrency)) as client:
        async def enter(number: int) -> None:
            address = f"10.9.{number % args.addresses // 250}.{number % args.addresses % 250}"
            game, players = games[number % len(games)]
            async with limit:
                answer = await client.post(
                    f"{base}/api/quick-play", headers={"X-Forwarded-For": address},
                    json={"game": game, "players": players, "bots_after": None,
                          "name": f"flood {number}"})
            statuses[answer.status_code] += 1
            if answer.status_code == 201 and answer.json()["status"] == "waiting":
                waiting.add(answer.json()["ticket"])

        await asyncio.gather(*(enter(n) for n in range(args.tickets)))
        entered = time.monotonic() - started
        polls: Counter[int] = Counter()
        end = time.monotonic() + args.seconds
        while time.monotonic() < end and waiting:
            async def poll(ticket: str) -> None:
                async with limit:
                    answer = await client.get(f"{base}/api/quick-play/{ticket}")
                polls[answer.status_code] += 1
                if answer.status_code != 200 or answer.json()["status"] != "waiting":
                    waiting.discard(ticket)

            await asyncio.gather(*(poll(t) for t in list(waiting)))
            await asyncio.sleep(1)
    return {"entered": dict(statuses), "enter_s": round(entered, 2), "polls": dict(polls),
            "waiting_at_end": len(waiting)}


async def main(args: argparse.Namespace) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "server.log"
        with log.open("wb") as out:
            process = subprocess.Popen(
                [sys.executable, "-m", "cardtable.server", "--port", str(port),
                 "--data-dir", str(Path(folder) / "data"), "--log-level", "warning",
                 "--trusted-proxies", "127.0.0.1", *args.server_flags],
                cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
        try:
            await wait_ready(base, process, log)
            until = asyncio.Event()
            latencies: list[float] = []
            answers: list[float] = []
            prober = asyncio.create_task(probe(base, until, latencies, answers))
            began = time.monotonic()
            result = await flood(base, args)
            until.set()
            await prober
            gaps = [b - a for a, b in zip([began, *answers], answers, strict=False)]
            ms = sorted(x * 1000 for x in latencies)
            result.update(
                health_answers=len(ms),
                health_p50_ms=round(statistics.median(ms), 1) if ms else None,
                health_p95_ms=round(ms[int(len(ms) * 0.95) - 1], 1) if ms else None,
                health_max_ms=round(ms[-1], 1) if ms else None,
                longest_stall_s=round(max(gaps), 2) if gaps else None,
                log_lines=len(log.read_text(errors="replace").splitlines()))
            print(json.dumps(result, indent=1))
        finally:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tickets", type=int, default=1000)
    parser.add_argument("--addresses", type=int, default=250)
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("server_flags", nargs="*", help="more flags for the server (after "
                        "--), e.g. --tables-per-address ''")
    asyncio.run(main(parser.parse_args()))
