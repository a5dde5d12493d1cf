"""The HTTP endpoints of a table's life: resign, leave, the lobby, and quick play.

``POST /api/tables/{id}/resign`` and ``/leave`` take the seat's token
(``{"token": T}``); the same is a WebSocket message (``{"type": "resign"}``).  Both
work from any server process: the command is asked of the table wherever it is played
(``Tables.ref``), and the answer is the owner's.  ``GET /api/lobby``
splits the open tables into those with a free seat and live games to watch.  Quick play
(``/api/quick-play``) is in ``quickplay``; its endpoints are here.
"""

from __future__ import annotations

import asyncio
import datetime as _dt
from typing import Literal

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, ConfigDict, Field, StrictFloat, StrictInt

from ... import games
from ..core.errors import Refused
from ..core.wire import MAX_TOKEN
from ..play.commands import LeaveSeat, ResignSeat
from ..play.guard import address_of
from ..play.lifecycle import ratings_in_pool
from ..play.tables import Tables
from ..store.players import Player
from ..store.storage import SeatRow, Storage, TableRow
from .accounts import key_may_play
from .deps import Asker, Live, Queue, Stored
from .errors import Responses
from .schemas import Problem, TableListing, listing_of, whole_numbers
from .spec import Name, seating
from .tables_api import seat_name

__all__ = ["Lobby", "QuickPlayRequest", "SeatToken", "Ticket", "router"]

router = APIRouter()


class SeatToken(BaseModel):
    """The token a seat was given when it was taken (``POST /api/tables``, ``join``)."""

    model_config = ConfigDict(extra="forbid")

    token: str = Field(min_length=1, max_length=MAX_TOKEN)


class LiveGame(TableListing):
    age: float = Field(description="seconds since the table was made")
    ratings: dict[str, int] = Field(default_factory=dict, description="each account's "
                                    "rating in the table's pool, by seat")


class Lobby(BaseModel):
    """Tables to join (a seat free) and, apart, live games to watch (every seat taken)."""

    open: list[LiveGame]
    live: list[LiveGame]


class QuickPlayRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra=seating(seats=False, examples=[
        {"game": games.names()[-1], "preset": None, "players": 2, "bots_after": 15}]))

    game: str = Field(max_length=32)
    preset: str | None = Field(None, max_length=64)
    players: StrictInt | None = Field(None, ge=2, le=16)
    _whole_numbers = whole_numbers("players")
    bots_after: StrictFloat | None = Field(15, ge=0, le=3600, description="seconds before bots "
                                     "fill the empty seats (none: wait for people)")
    name: Name | None = None
    days: Literal[1, 2, 3, 5, 7, 14] | None = Field(None, description="days a move: the "
                                                    "game's correspondence pool (none: the "
                                                    "quick clock, 20 s a move)")


class Ticket(BaseModel):
    """A place in the quick-play queue; poll it at least every few seconds, or it is
    cancelled (leaving the page leaves the queue)."""

    ticket: str
    status: str = Field("waiting", description="waiting, matched or cancelled")
    table: str | None = None
    seat: int | None = None
    token: str | None = Field(None, description="the seat's token, once matched")
    waited: float | None = None


ANSWERS: Responses = {
    status: {"model": Problem} for status in (403, 404, 409, 422, 429, 503)}


async def _seat_of(request: Request, tables: Tables, table_id: str,
                   token: str) -> tuple[str, int]:
    """The table's id and the token's seat, if this request may play it
    (``key_may_play``), read from the table wherever it is played."""
    table = await tables.snapshot(table_id)
    if table is None:
        raise Refused(f"there is no table {table_id[:40]!r}", 404)
    seat = table.seat_of_token(token)
    if seat is None:
        raise Refused("this token holds no seat at this table", 403, "no_seat")
    holder = table.seats[seat]
    if not await key_may_play(request, holder.player_id, holder.player_kind):
        raise Refused("this seat is an account's: sign in as its player to play it", 403,
                      "signed_out")
    return table.id, seat


@router.post("/api/tables/{table_id}/resign", responses=ANSWERS)
async def resign(table_id: str, body: SeatToken, request: Request,
                 tables: Live) -> dict[str, object]:
    """Resign: your side loses (Pasur: the match; Durak: you are the durak); the game ends."""
    found, seat = await _seat_of(request, tables, table_id, body.token)
    summary = await tables.ref(found).ask(ResignSeat(seat))
    return {"table": found, "seat": seat, "summary": summary}


@router.post("/api/tables/{table_id}/leave", responses=ANSWERS)
async def leave(table_id: str, body: SeatToken, request: Request,
                tables: Live) -> dict[str, object]:
    """Leave an unrated table: its takeover bot plays your seat to the end."""
    found, seat = await _seat_of(request, tables, table_id, body.token)
    await tables.ref(found).ask(LeaveSeat(seat))
    return {"table": found, "seat": seat, "left": True}


@router.get("/api/lobby", response_model=Lobby, responses=ANSWERS)
async def lobby(tables: Live, game: str | None = Query(None, max_length=32),
                limit: int = Query(50, ge=1, le=200)) -> Lobby:
    """Tables with a free seat, and live games to watch (with age and the players)."""
    rows = await asyncio.to_thread(tables.storage.listing, over=False, limit=limit, offset=0,
                                   game=game)
    at = _dt.datetime.now(_dt.UTC)
    open_: list[LiveGame] = []
    live: list[LiveGame] = []
    for row, seats in rows:
        listing = listing_of(row, seats, tables.live.get(row.id))
        age = max(0.0, (at - _dt.datetime.fromisoformat(row.created)).total_seconds())
        ratings = await _seat_ratings(tables.storage, row, seats)
        entry = LiveGame(**listing.model_dump(), age=round(age, 1), ratings=ratings)
        (open_ if listing.free_seats else live).append(entry)
    return Lobby(open=open_, live=live)


async def _seat_ratings(storage: Storage, row: TableRow, seats: list[SeatRow]
                        ) -> dict[str, int]:
    """The rating of each account's seat at a listed table, in its pool."""
    wanted = {seat.seat: seat.player_id for seat in seats
              if getattr(seat, "player_kind", None) == "account" and seat.player_id}
    if not wanted:
        return {}
    from ..store.ratings import pool_of

    found = await asyncio.to_thread(ratings_in_pool, storage, sorted(set(wanted.values())),
                                    pool_of(row.game, row.preset, row.players))
    return {str(index): found[player] for index, player in wanted.items()}


@router.post("/api/quick-play", response_model=Ticket, status_code=201, responses=ANSWERS)
async def quick_play(body: QuickPlayRequest, request: Request, queue: Queue, player: Asker,
                     storage: Stored) -> Ticket:
    """Join the quick-play queue; poll the ticket until it is matched."""
    name = await seat_name(request, body.name, player)
    answer = await queue.enter(body.game, body.preset, body.players, body.bots_after,
                               name=name, rating=await _rating(storage, player, body),
                               address=address_of(request),
                               player=None if player is None else player.public(),
                               days=body.days)
    return Ticket(**answer)


class TicketHeld(BaseModel):
    """A quick-play ticket, sent in a request's body: a URL is written down by proxies
    (nginx's error log writes every request line it has trouble with, query and all), and
    a matched ticket hands out its seat's key."""

    model_config = ConfigDict(extra="forbid")

    ticket: str = Field(max_length=200)


@router.post("/api/quick-play/poll", response_model=Ticket, responses=ANSWERS)
async def quick_play_poll(body: TicketHeld, queue: Queue) -> Ticket:
    """The ticket now: waiting, matched (with the table, the seat and its token) or
    cancelled.  Polling keeps it in the queue.  The page polls here, the ticket in the
    body, never in a URL."""
    return Ticket(**await queue.poll(body.ticket))


@router.post("/api/quick-play/cancel", response_model=Ticket, responses=ANSWERS)
async def quick_play_leave(body: TicketHeld, queue: Queue) -> Ticket:
    """Leave the queue (a ticket already matched keeps its seat); the ticket in the body."""
    return Ticket(**await queue.cancel(body.ticket))


@router.get("/api/quick-play/{ticket}", response_model=Ticket, responses=ANSWERS)
async def quick_play_ticket(ticket: str, queue: Queue) -> Ticket:
    """The ticket now, for clients written before ``POST /api/quick-play/poll`` (its
    ticket in the URL, where a proxy's logs may keep it: poll with the body instead)."""
    return Ticket(**await queue.poll(ticket))


@router.delete("/api/quick-play/{ticket}", response_model=Ticket, responses=ANSWERS)
async def quick_play_cancel(ticket: str, queue: Queue) -> Ticket:
    """Leave the queue, for clients written before ``POST /api/quick-play/cancel``."""
    return Ticket(**await queue.cancel(ticket))


def rating_in_pool(storage: Storage, player_id: str, pool: str) -> float:
    """A player's shown rating in a pool (where they have none yet: the starting one)."""
    return float(ratings_in_pool(storage, [player_id], pool)[player_id])


async def _rating(storage: Storage, player: Player | None, body: QuickPlayRequest
                  ) -> float | None:
    """An account's rating in the pool it asks to play in; ``None`` for guests and bots
    (they play unrated, and are matched with anyone)."""
    if player is None or player.kind != "account":
        return None
    from ..store.ratings import pool_of

    game = games.get(body.game) if body.game in games.names() else None
    if game is None:
        return None
    pool = pool_of(game.name, body.preset or game.default_preset,
                   body.players or game.default_players)
    return await asyncio.to_thread(rating_in_pool, storage, player.id, pool)
