"""What a player is told survives a SIGKILL sent the moment they are told it.

One server process (``python -m cardtable.server``, SQLite in a fresh folder, or a fresh
PostgreSQL database beside ``--database-url``) is killed ``--tries`` times for each kind of
act; each try makes a table of two guests, plays two moves, then does one act and sends
SIGKILL as soon as the acting player's client has the server's acknowledgement:

- ``move``: a move over the socket, acknowledged by the state after it;
- ``resign``: a resignation over the socket, acknowledged by the state that ends the game;
- ``leave``: leaving over the socket, acknowledged by the state whose seat is gone;
- ``resign_http``: ``POST /api/tables/ID/resign``, acknowledged by its answer.

The next start (the same database) must show the act: the version told, the game over
and resigned by that seat, the seat gone.  It prints, as JSON, each kind's survivals out
of its tries and the longest time from an acknowledgement to the kill (ms).  The issue's
aim is 20 of 20 for each:

    python benchmarks/kill_after_ack.py --tries 20
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from load import free_port, fresh_database
from websockets.sync.client import ClientConnection, connect

from cardtable.server.core.wire import seat_protocols

ROOT = Path(__file__).resolve().parents[1]
KINDS = ("move", "resign", "leave", "resign_http")


def start(folder: Path, extra: list[str], port: int) -> subprocess.Popen[bytes]:
    log = (folder / "server.log").open("ab")
    process = subprocess.Popen(
        [sys.executable, "-m", "cardtable.server", "--port", str(port), "--data-dir",
         str(folder), "--bot-delay", "0", "--log-level", "warning",
         "--ws-messages-per-second", "0", "--tables-per-address", "", *extra],
        cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 300   # a loaded machine starts slowly
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit("the server did not start: see " + str(folder / "server.log"))
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=2).status_code == 200:
                return process
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise SystemExit("the server did not answer within 300 s")


def state(ws: ClientConnection, done: Any) -> dict[str, Any]:
    """The first state ``done`` accepts (an error message is an act refused)."""
    while True:
        message = json.loads(ws.recv(timeout=30))
        if message["type"] == "error":
            raise RuntimeError(f"refused: {message}")
        if message["type"] == "state" and done(message):
            return message


def one_try(base: str, kind: str, process: subprocess.Popen[bytes]) -> tuple[str, Any, float]:
    """Make a table, act, kill at the acknowledgement; answers the table, what to find
    after the restart, and the seconds from the acknowledgement to the kill."""
    made = httpx.post(f"{base}/api/tables", json={"game": "durak",
                                                  "seats": ["human", "human"]}).json()
    joined = httpx.post(f"{base}/api/tables/{made['table']}/join").json()
    url = base.replace("http", "ws", 1) + f"/ws/tables/{made['table']}"
    tokens = {0: made["token"], 1: joined["token"]}
    with contextlib.ExitStack() as stack:
        sockets = {seat: stack.enter_context(connect(
            url, subprotocols=seat_protocols(token),  # type: ignore[arg-type]
            open_timeout=20)) for seat, token in tokens.items()}
        latest = {seat: state(ws, lambda m: True) for seat, ws in sockets.items()}
        for _ in range(2):
            version = max(s["version"] for s in latest.values())
            mover = latest[0]["to_move"]
            sockets[mover].send(json.dumps({"type": "move", "version": version,
                                            "move": latest[mover]["legal_moves"][0]}))
            latest = {seat: state(ws, lambda m, v=version: m["version"] > v)
                      for seat, ws in sockets.items()}
        version = latest[0]["version"]
        mover = latest[0]["to_move"]
        if kind == "move":
            sockets[mover].send(json.dumps({"type": "move", "version": version,
                                            "move": latest[mover]["legal_moves"][0]}))
            told = state(sockets[mover], lambda m: m["version"] > version)
            expect: Any = told["version"]
        elif kind == "resign":
            sockets[0].send(json.dumps({"type": "resign"}))
            state(sockets[0], lambda m: m["over"])
            expect = 0
        elif kind == "leave":
            sockets[0].send(json.dumps({"type": "leave"}))
            state(sockets[0], lambda m: any(s.get("gone") == "left" for s in m["seats"]))
            expect = 0
        else:
            answer = httpx.post(f"{base}/api/tables/{made['table']}/resign",
                                json={"token": tokens[0]})
            if answer.status_code != 200:
                raise RuntimeError(f"refused: {answer.text}")
            expect = 0
        acknowledged = time.monotonic()
        process.send_signal(signal.SIGKILL)
        killed = time.monotonic()
    process.wait(10)
    return made["table"], expect, killed - acknowledged


def found(base: str, kind: str, table: str, expect: Any) -> bool:
    info = httpx.get(f"{base}/api/tables/{table}").json()
    if kind == "move":
        return bool(info["version"] >= expect)
    if kind == "leave":
        return expect in info.get("gone", [])
    summary = info.get("summary") or {}
    return bool(info["over"]) and summary.get("resigned") == expect


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tries", type=int, default=20, help="kills for each kind of act")
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("--database-url", default=None,
                        help="PostgreSQL: a fresh database is made beside this one")
    parser.add_argument("--json", default=None,
                        help="write the figures here after every try (a long run's so far)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="cardtable-kills-"))
    extra: list[str] = []
    if args.database_url:
        url, _ = fresh_database(args.database_url)
        extra = ["--database-url", url]
    kinds = args.kinds.split(",")
    results: dict[str, dict[str, Any]] = {k: {"survived": 0, "tries": 0, "lost": [],
                                              "longest_ms": 0.0} for k in kinds}
    port = free_port()
    process = start(folder, extra, port)
    base = f"http://127.0.0.1:{port}"
    try:
        for number in range(args.tries * len(kinds)):
            kind = kinds[number % len(kinds)]
            table, expect, gap = one_try(base, kind, process)
            process = start(folder, extra, port)
            kept = found(base, kind, table, expect)
            result = results[kind]
            result["tries"] += 1
            result["survived"] += kept
            result["longest_ms"] = round(max(result["longest_ms"], gap * 1000), 2)
            if not kept:
                result["lost"].append(table)
            if args.json:
                Path(args.json).write_text(json.dumps(
                    {"load": os.getloadavg(), **results}, indent=1), encoding="utf-8")
    finally:
        if process.poll() is None:
            process.terminate()
            process.wait(30)
    print(json.dumps({"load": os.getloadavg(), **results}, indent=1))
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
