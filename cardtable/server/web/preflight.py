"""Before the server listens: can it reach its database and its Redis?  If not, one
sentence on stderr and exit status 1, not the 100-180 lines of traceback uvicorn's
failed startup prints (the sentence names the place, never a password).

>>> shown("postgresql+psycopg://cards:s3cret@db.example:5432/cards")
'postgresql+psycopg://cards:***@db.example:5432/cards'
>>> shown("redis://:s3cret@cache.example:6379/0")
'redis://:***@cache.example:6379/0'
"""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from ..core.settings import ServerSettings
from ..store.engine import make_engine

__all__ = ["first_problem", "shown"]

TIMEOUT = 5.0
"""Seconds the database or Redis has to answer before the start is given up."""


def shown(url: str) -> str:
    """``url`` with its password hidden."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)
    user = netloc[0].split(":", 1)[0]
    return urlunsplit(parts._replace(netloc=f"{user}:***@{netloc[1]}"))


def _reason(error: BaseException) -> str:
    cause = getattr(error, "orig", None) or error
    lines = str(cause).strip().splitlines()
    return (lines[0] if lines else type(cause).__name__)[:200]


def first_problem(settings: ServerSettings) -> str | None:
    """Why the server cannot start (a sentence), or ``None``: the database (a server's;
    SQLite is a file, opened by the start itself) and Redis each asked to answer once."""
    database = settings.revealed("database_url")
    if database is not None and not database.startswith("sqlite"):
        engine = make_engine(database, TIMEOUT)
        try:
            with engine.connect() as connection:
                connection.execute(text("SELECT 1"))
        except SQLAlchemyError as error:
            return (f"cardtable cannot start: the database at {shown(database)} cannot be "
                    f"reached ({_reason(error)})")
        finally:
            engine.dispose()
    redis_url = settings.revealed("redis_url")
    if redis_url is not None:
        import redis

        client = redis.Redis.from_url(redis_url, socket_connect_timeout=TIMEOUT,
                                      socket_timeout=TIMEOUT)
        try:
            client.ping()
        except (redis.RedisError, OSError) as error:
            return (f"cardtable cannot start: Redis at {shown(redis_url)} cannot be reached "
                    f"({_reason(error)})")
        finally:
            client.close()
    return None
