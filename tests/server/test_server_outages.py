"""Every outage is a 503 with a sentence, never a 500.

Redis as the store of the rate limits (what several processes share): while it is down a
request that must be counted (a new table, a sign-in, a registration, a reset, a first
visit) is refused 503 ``cluster_unavailable``, saying Redis cannot be reached, and
changes nothing; once it is back every one of them works again.  The Redis is the test's
own (``clusterkit.OwnRedis``), never the shared one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from clusterkit import OwnRedis
from fastapi.testclient import TestClient
from playerkit import PASSWORD, fresh

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
