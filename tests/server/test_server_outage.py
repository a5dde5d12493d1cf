"""PostgreSQL unreachable for a few seconds under a real server process.

The server reaches its database (a fresh one of this test's own) through a TCP proxy in the
test process; cutting the proxy drops every connection and refuses new ones, as a database
that went away would.  The shared PostgreSQL server itself is never stopped.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import httpx
import pytest
from tablekit import Proxy, server, socket_for
from websockets.sync.client import ClientConnection

pytestmark = pytest.mark.services


def proxied(database_url: str, port: int) -> str:
    return database_url.replace("@127.0.0.1:5432/", f"@127.0.0.1:{port}/")


def next_message(ws: ClientConnection, kind: str) -> dict:
    while True:
        message = json.loads(ws.recv(timeout=30))
        if message["type"] == kind:
            return message


def wait_for(what: str, predicate: object, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"waited in vain for {what}"
        time.sleep(0.1)


def test_a_database_outage_is_answered_503_logged_once_and_recovered_from(
        database_url: str, tmp_path: Path) -> None:
    with Proxy(5432) as proxy, server(
            tmp_path / "data", "--database-url", proxied(database_url, proxy.port),
            "--bot-delay", "0.1", "--storage-retry-max", "1") as (process, base):
        bots = [httpx.post(f"{base}/api/tables", json={
            "game": "durak", "seats": ["bot:random", "bot:random"]}).json()["table"]
            for _ in range(2)]
        made = httpx.post(f"{base}/api/tables", json={
            "game": "durak", "seats": ["human", "human"]}).json()
        joined = httpx.post(f"{base}/api/tables/{made['table']}/join").json()
        waiting = httpx.post(f"{base}/api/tables", json={
            "game": "durak", "seats": ["human", "human"]}).json()
        log = process.log_path  # type: ignore[attr-defined]
        with socket_for(base, made["table"], made["token"]) as ws0, \
                socket_for(base, made["table"], joined["token"]) as ws1:
            sockets = {0: ws0, 1: ws1}
            state = next_message(ws0, "state")
            mover = sockets[state["to_move"]]
            state = next_message(mover, "state")
            before = log.stat().st_size

            proxy.cut()
            refused = httpx.post(f"{base}/api/tables", json={"game": "durak"}, timeout=30)
            assert refused.status_code == 503, refused.text
            assert refused.headers["content-type"] == "application/json"
            assert refused.json()["code"] == "storage_unavailable" and refused.json()["detail"]
            join = httpx.post(f"{base}/api/tables/{waiting['table']}/join", timeout=30)
            assert join.status_code == 503 and join.json()["code"] == "storage_unavailable"
            health = httpx.get(f"{base}/api/health", timeout=30)
            assert health.status_code == 503 and health.json()["database"] == "down"
            mover.send(json.dumps({"type": "move", "version": state["version"],
                                   "move": state["legal_moves"][0]}))
            error = next_message(mover, "error")
            assert error["code"] == "storage_unavailable", error
            assert next_message(mover, "state")["version"] == state["version"]
            time.sleep(1.5)  # the bots keep trying meanwhile

            proxy.mend()
            wait_for("the health to be ok", lambda: httpx.get(
                f"{base}/api/health", timeout=30).status_code == 200)
            mover.send(json.dumps({"type": "move", "version": state["version"],
                                   "move": state["legal_moves"][0]}))
            after = next_message(mover, "state")
            assert after["version"] == state["version"] + 1
        assert httpx.post(f"{base}/api/tables", json={"game": "durak"}).status_code == 201
        assert httpx.post(f"{base}/api/tables/{waiting['table']}/join").status_code == 200
        for table in bots:  # the bots' tables play on by themselves
            mended = httpx.get(f"{base}/api/tables/{table}").json()["version"]
            with socket_for(base, table, None) as ws:
                state = next_message(ws, "state")
                while state["version"] <= mended and not state["over"]:
                    state = next_message(ws, "state")
        lines = log.read_bytes()[before:].decode(errors="replace").splitlines()
    assert sum("database is unreachable" in line for line in lines) == 1, lines
    assert sum("database is back after" in line for line in lines) == 1, lines
    assert not any("Traceback" in line for line in lines), lines[:40]
    assert len(lines) <= 6, lines[:40]
