"""Fixtures for the web table: an app on a fresh SQLite file whose lifespan runs."""

from __future__ import annotations

import contextlib
import os
import secrets
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

warnings.filterwarnings("ignore", message=".*httpx2.*")

from clusterkit import OwnRedis  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402
from routekit import reuse_route_models  # noqa: E402
from tablekit import MACHINE_SPEED  # noqa: E402

from cardtable.server import create_app  # noqa: E402
from cardtable.server.core.clock import FakeClock  # noqa: E402

REDIS = "redis://127.0.0.1:6379/0"

# every test builds its own app: FastAPI's route models made once for the process, not
# once per app (tests/server/routekit.py)
reuse_route_models()


@pytest.fixture
def redis_url() -> str:
    """The machine's shared Redis (a prefix of the test's own keeps tests apart); in CI
    it must be there, elsewhere a test without it is skipped."""
    redis = pytest.importorskip("redis")
    try:
        redis.Redis.from_url(REDIS, socket_connect_timeout=3).ping()
    except redis.RedisError as error:
        if os.environ.get("CI") == "true":
            pytest.fail(f"Redis is not reachable at 127.0.0.1:6379 in CI: {error}")
        pytest.skip(f"Redis is not reachable at 127.0.0.1:6379: {error}")
    return REDIS


@pytest.fixture
def clock() -> FakeClock:
    """The time of the test's apps: it moves only when the test moves it."""
    return FakeClock()


@pytest.fixture(scope="session")
def _migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """An SQLite database file with the newest schema, made once for the run (for each
    worker): the bytes that ``seed_sqlite`` writes where a test's app will look."""
    from cardtable.server.store.storage import Storage, sqlite_url

    folder = tmp_path_factory.mktemp("sqlite-template")
    storage = Storage(sqlite_url(folder))
    storage.migrate()
    storage.close()   # the last connection checkpoints the log into the file
    made = folder / DATABASE_FILE
    assert not (folder / f"{DATABASE_FILE}-wal").exists() or \
        (folder / f"{DATABASE_FILE}-wal").stat().st_size == 0
    return made.read_bytes()


DATABASE_FILE = "cardtable.sqlite3"


@pytest.fixture
def seed_sqlite(_migrated_sqlite: bytes) -> Callable[[Path], None]:
    """Put a database already at the newest schema in a data folder that has none, for a
    test of the app rather than of its migrations (a copy costs a few milliseconds, the
    migrations about half a second of CPU at every app's start).  Owner-only, as the
    server makes it."""
    def seed(data_dir: Path) -> None:
        data_dir.mkdir(parents=True, exist_ok=True)
        target = data_dir / DATABASE_FILE
        if target.exists():
            return
        descriptor = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "wb") as out:
            out.write(_migrated_sqlite)
    return seed


@pytest.fixture
def make_client(tmp_path: Path, clock: FakeClock,
                seed_sqlite: Callable[[Path], None]) -> Iterator[Callable[..., TestClient]]:
    """Start an app (bots without delay, the test's clock) and return a TestClient whose
    lifespan runs."""
    stack: list[TestClient] = []

    def make(**settings: Any) -> TestClient:
        settings.setdefault("clock", clock)
        settings.setdefault("bot_delay", 0)
        settings.setdefault("grace", 600)
        settings.setdefault("data_dir", tmp_path / "data")
        settings.setdefault("static_dir", tmp_path / "static")
        for name, value in MACHINE_SPEED.items():
            settings.setdefault(name, value)
        if not settings.get("database_url"):
            seed_sqlite(Path(settings["data_dir"]))
        client = TestClient(create_app(**settings))
        client.__enter__()
        stack.append(client)
        return client

    yield make
    for client in reversed(stack):
        client.__exit__(None, None, None)


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[OwnRedis]:
    """A Redis of the test's own (``clusterkit.OwnRedis``), stopped after it."""
    redis = OwnRedis(tmp_path / "redis")
    redis.start()
    try:
        yield redis
    finally:
        redis.stop()


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> TestClient:
    return make_client()


ADMIN = "postgresql://postgres@127.0.0.1:5432/test"


def _admin() -> Any:
    """A connection to the local PostgreSQL for making and dropping databases.  CI starts
    PostgreSQL, so there an unreachable server fails the test; elsewhere it skips."""
    psycopg = pytest.importorskip("psycopg")
    try:
        return psycopg.connect(ADMIN, autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as error:
        if os.environ.get("CI") == "true":
            pytest.fail(f"PostgreSQL is not reachable at 127.0.0.1:5432 in CI: {error}")
        pytest.skip(f"PostgreSQL is not reachable at 127.0.0.1:5432: {error}")


@contextlib.contextmanager
def _new_database(prefix: str, template: str | None = None) -> Iterator[str]:
    """A new database (a copy of ``template``, else empty), dropped afterwards: its name."""
    name = f"{prefix}_{secrets.token_hex(4)}"
    with _admin() as admin:
        copy = f' TEMPLATE "{template}"' if template else ""
        admin.execute(f'CREATE DATABASE "{name}"{copy}')
        try:
            yield name
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _url(name: str) -> str:
    return f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"


@pytest.fixture(scope="session")
def _migrated_template() -> Iterator[str]:
    """A PostgreSQL database with the newest schema, made once for the run (for each
    worker), that ``migrated_database_url`` copies."""
    from cardtable.server.store.storage import Storage

    with _new_database("cardtable_template") as name:
        storage = Storage(_url(name))
        storage.migrate()
        storage.close()   # a template copies only while nobody is connected to it
        yield name


@pytest.fixture
def migrated_database_url(_migrated_template: str) -> Iterator[str]:
    """A new PostgreSQL database already at the newest schema, dropped afterwards: for a
    test of the app rather than of its migrations (copying the schema costs a tenth of
    running the migrations again)."""
    with _new_database("cardtable_test", _migrated_template) as name:
        yield _url(name)


@pytest.fixture
def database_url() -> Iterator[str]:
    """A new, empty PostgreSQL database for this test, dropped afterwards."""
    with _new_database("cardtable_test") as name:
        yield _url(name)
