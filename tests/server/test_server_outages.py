"""Every outage is a 503 with a sentence, never a 500.

A full disk under SQLite: the database answers reads but stores nothing, and says so.

Redis as the store of the rate limits (what several processes share): while it is down a
request that must be counted (a new table, a sign-in, a registration, a reset, a first
visit) is refused 503 ``cluster_unavailable``, saying Redis cannot be reached, and
changes nothing; once it is back every one of them works again.  The Redis is the test's
own (``clusterkit.OwnRedis``), never the shared one.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from clusterkit import OwnRedis
from fastapi.testclient import TestClient
from playerkit import PASSWORD, fresh
from tablekit import next_state, server, socket_for

pytestmark = pytest.mark.services


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[OwnRedis]:
    redis = OwnRedis(tmp_path / "redis")
    redis.start()
    try:
        yield redis
    finally:
        redis.stop()


def counted_requests(client: TestClient) -> dict[str, Callable[[], object]]:
    """Each request that a rate limit counts, from a browser of its own."""
    account = {"username": "darya", "password": PASSWORD}
    return {
        "new table": lambda: fresh(client).post(
            "/api/tables", json={"game": "durak", "seats": ["human", "bot:random"]}),
        "registration": lambda: fresh(client).post(
            "/api/account/register", json={"username": "farid", "password": PASSWORD}),
        "sign-in": lambda: fresh(client).post("/api/account/login", json=account),
        "reset": lambda: fresh(client).post("/api/account/reset", json={"name": "darya"}),
        "first visit": lambda: fresh(client).get("/api/me"),
    }


def table_count(data: Path) -> int:
    import sqlite3

    with sqlite3.connect(data / "cardtable.sqlite3") as db:
        return int(db.execute("SELECT count(*) FROM tables").fetchone()[0])


def test_a_rate_limit_store_down_is_a_503_that_says_so_and_changes_nothing(
        tmp_path: Path, make_client: Callable[..., TestClient], own_redis: OwnRedis) -> None:
    client = make_client(rate_limit_storage=own_redis.url, tables_per_address="30/minute",
                         guests_per_address="100/hour", smtp_host="127.0.0.1",
                         smtp_port=9, smtp_from="cardtable@cards.example",
                         public_url="https://cards.example")
    assert client.post("/api/account/register", json={
        "username": "darya", "password": PASSWORD}).status_code == 201
    tables = table_count(tmp_path / "data")
    own_redis.stop()
    for what, ask in counted_requests(client).items():
        answer = ask()
        assert answer.status_code == 503, (what, answer.status_code, answer.text)  # type: ignore[attr-defined]
        refusal = answer.json()  # type: ignore[attr-defined]
        assert refusal["code"] == "cluster_unavailable", (what, refusal)
        assert "Redis" in refusal["detail"] and "nothing was done" in refusal["detail"]
    assert table_count(tmp_path / "data") == tables
    assert fresh(client).post("/api/account/login", json={
        "username": "farid", "password": PASSWORD}).status_code != 200   # never registered
    own_redis.start()
    expected = {"new table": 201, "registration": 201, "sign-in": 200, "reset": 202,
                "first visit": 200}
    for what, ask in counted_requests(client).items():
        answer = ask()
        assert answer.status_code == expected[what], (what, answer.text)  # type: ignore[attr-defined]


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 6 MB tmpfs the test fills to the last byte (root only: skipped otherwise)."""
    disk = tmp_path / "disk" / "data"
    disk.mkdir(parents=True)
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=6M", "tmpfs", str(disk)],
                             capture_output=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


def fill(disk: Path) -> Path:
    """Write a file until the disk has no byte left."""
    filler = disk / "filler"
    with filler.open("wb", buffering=0) as out:
        for size in (1 << 16, 1 << 12, 1):
            with contextlib.suppress(OSError):
                while True:
                    out.write(b"\0" * size)
    return filler


def test_a_full_disk_is_told_as_one_stores_nothing_and_readiness_says_why(
        small_disk: Path) -> None:
    """SQLite on a disk that fills up: reads still answer, so the database is not
    "unreachable"; every write is refused 503 saying the server cannot store anything
    (the disk full), readiness and /metrics say storage is failing and why, the log says
    so once (no "unreachable / back after 0.0 s" at every read), and freeing the disk
    ends it."""
    with server(small_disk) as (process, base):
        made = httpx.post(f"{base}/api/tables", json={"game": "durak",
                                                      "seats": ["human", "bot:random"]})
        assert made.status_code == 201
        table, token = made.json()["table"], made.json()["token"]
        filler = fill(small_disk)
        refusals = []
        for _ in range(12):
            answer = httpx.post(f"{base}/api/tables", json={"game": "durak",
                                                            "seats": ["human", "bot:random"]})
            refusals.append(answer)
            httpx.get(f"{base}/api/tables/{table}")   # a read, which answers
        assert {answer.status_code for answer in refusals} == {503}
        detail = refusals[-1].json()["detail"]
        assert refusals[-1].json()["code"] == "storage_unavailable"
        assert "cannot store" in detail and "full" in detail, detail
        with socket_for(base, table, token) as ws:
            state = next_state(ws)
            if state["legal_moves"]:
                ws.send(json.dumps({"type": "move", "version": state["version"],
                                    "move": state["legal_moves"][0]}))
                error = json.loads(ws.recv(timeout=20))
                while error["type"] != "error":
                    error = json.loads(ws.recv(timeout=20))
                assert error["code"] == "storage_unavailable" and "full" in error["reason"]
        ready = httpx.get(f"{base}/api/health/ready")
        assert ready.status_code == 503
        assert ready.json()["storage"] == "failing" and "full" in ready.json()["problem"]
        metrics = httpx.get(f"{base}/metrics").text
        assert "cardtable_storage_up 0.0" in metrics
        assert 'cardtable_storage_problem{problem="cannot_store"} 1.0' in metrics
        filler.unlink()
        again = httpx.post(f"{base}/api/tables", json={"game": "durak",
                                                       "seats": ["human", "bot:random"]})
        assert again.status_code == 201, again.text
        assert httpx.get(f"{base}/api/health/ready").status_code == 200
        log = Path(process.log_path).read_text(errors="replace")  # type: ignore[attr-defined]
    assert log.count("cannot store anything") == 1, log[-3000:]
    assert "unreachable" not in log and "back after" not in log
    assert "Traceback" not in log


def test_two_processes_on_one_redis_count_one_rate_limit_by_default(
        tmp_path: Path, make_client: Callable[..., TestClient], own_redis: OwnRedis) -> None:
    """Without --rate-limit-storage, the processes' Redis keeps the counts: failed
    sign-ins spread over two processes meet one limit, not one each."""
    settings = {"redis_url": own_redis.url, "login_per_address": "4/minute",
                "login_per_account_address": "100/minute"}
    first = make_client(data_dir=tmp_path / "data", **settings)
    second = make_client(data_dir=tmp_path / "data", **settings)
    wrong = {"username": "darya", "password": "not the password"}
    answers = [client.post("/api/account/login", json=wrong).status_code
               for client in (first, second, first, second, first, second)]
    assert answers[:4] == [401] * 4 and answers[4:] == [429, 429], answers
