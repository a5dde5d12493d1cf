"""What the endpoints are given (FastAPI's ``Depends``): the tables, the storage and the
player asking, each read from the app once its lifespan has made them."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from ..play.quickplay import QuickPlay
from ..play.tables import Tables
from ..store.players import Player
from ..store.storage import Storage
from .accounts import current_player
from .errors import Responses
from .schemas import Problem

__all__ = ["Asker", "Live", "Queue", "Stored", "answers", "asker", "queue_of", "storage_of",
           "tables_of"]


def tables_of(connection: HTTPConnection) -> Tables:
    """This process's live tables."""
    tables: Tables = connection.app.state.tables
    return tables


def storage_of(connection: HTTPConnection) -> Storage:
    """The database every store writes in."""
    storage: Storage = connection.app.state.storage
    return storage


def queue_of(connection: HTTPConnection) -> QuickPlay:
    """The quick-play queue."""
    queue: QuickPlay = connection.app.state.quickplay
    return queue


async def asker(connection: HTTPConnection) -> Player | None:
    """The signed-in player (or guest) a request or socket comes from, if any."""
    return await current_player(connection)   # type: ignore[arg-type]


Live = Annotated[Tables, Depends(tables_of)]
Stored = Annotated[Storage, Depends(storage_of)]
Queue = Annotated[QuickPlay, Depends(queue_of)]
Asker = Annotated[Player | None, Depends(asker)]


def answers(*statuses: int) -> Responses:
    """The refusals an endpoint may answer, for the OpenAPI description."""
    said = {404: "there is no such table", 409: "not now: the table is not in a state to "
            "grant it (the reason says why)", 422: "the request cannot be read or asks for "
            "something the rules or the server's limits do not allow",
            429: "too many requests from your address: see Retry-After",
            500: "the server failed", 503: "the table cannot be played now"}
    return {status: {"model": Problem, "description": said[status]} for status in statuses}
