"""The database's engine: its URL, its connections' settings and its schema's migrations."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import create_engine, event, make_url
from sqlalchemy.engine import Engine

if TYPE_CHECKING:
    from sqlalchemy.engine.interfaces import DBAPIConnection
    from sqlalchemy.pool import ConnectionPoolEntry

__all__ = ["make_engine", "migrate", "normalize_url", "sqlite_url"]


def sqlite_url(data_dir: str | Path) -> str:
    path = Path(data_dir)
    path.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{(path / 'cardtable.sqlite3').resolve()}"


def _create_private(path: Path) -> None:
    """The database's file made readable by its owner alone (0600) before SQLite makes it
    with the umask's mode: it holds the session secret and every account's e-mail (its
    ``-wal`` and ``-shm`` files take its mode)."""
    with contextlib.suppress(OSError):   # there already, or a place SQLite will refuse itself
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


def normalize_url(url: str) -> str:
    """``postgresql://`` alone would pick psycopg2; cardtable ships psycopg 3."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def make_engine(url: str, connect_timeout: float = 5.0) -> Engine:
    url = normalize_url(url)
    if url.startswith("sqlite"):
        path = make_url(url).database
        if path and path != ":memory:" and not path.startswith("file:"):
            _create_private(Path(path))
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: DBAPIConnection, _record: ConnectionPoolEntry) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            # with WAL, NORMAL survives a crash of the process (kill -9); only a power cut
            # may lose the last moves
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    # a database that does not answer fails a request after connect_timeout instead of
    # holding a thread for the length of TCP's own timeout
    return create_engine(url, pool_pre_ping=True,
                         connect_args={"connect_timeout": max(1, round(connect_timeout))})


MIGRATION_LOCK = 0x63617264   # "card": the advisory lock the migrations are made under


def migrate(engine: Engine) -> None:
    """Bring the schema up to the newest migration (run at every start)."""
    from alembic import command
    from alembic.config import Config

    here = Path(__file__).resolve().parent
    config = Config(str(here / "alembic.ini"))
    config.set_main_option("script_location", str(here / "migrations"))
    sqlite = engine.dialect.name == "sqlite"
    with engine.connect() as connection:
        if sqlite:   # a batch migration makes a table again: its references must not stop it
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
            connection.commit()
        try:
            with connection.begin():
                if engine.dialect.name == "postgresql":
                    # processes starting at once on an empty database take turns: the
                    # second waits here, then finds the schema made (none dies on it)
                    connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
                config.attributes["connection"] = connection
                command.upgrade(config, "head")
        finally:
            if sqlite:
                connection.exec_driver_sql("PRAGMA foreign_keys=ON")
                connection.commit()
