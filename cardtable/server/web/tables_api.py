"""The tables over HTTP: the games offered, making and joining a table, the open tables,
one table, its record and replay once over, and the finished games."""

from __future__ import annotations

import asyncio
import gzip
import json
import logging
from collections.abc import Callable

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from ... import bots, games
from ...game import GameSpec, rule_options
from ...records import RecordError, rules_to_dict
from ..core.errors import Refused
from ..core.settings import ServerSettings
from ..core.wire import plain
from ..play.guard import address_of
from ..play.movelog import log_steps
from ..play.replay import replay_steps
from ..store.players import Player
from .accounts import check_shown_name, current_player
from .deps import Asker, Live, answers
from .schemas import (
    CreateTable,
    GameInfo,
    HistoryEntry,
    JoinTable,
    MoveLog,
    OptionInfo,
    Replay,
    Seated,
    TableInfo,
    TableListing,
    listing_of,
    rated_table,
    seat_info_of,
)
from .services import Players

__all__ = ["games_of", "playable", "router", "seat_name"]

log = logging.getLogger("cardtable.server")

router = APIRouter(tags=["tables"])

MAX_OFFSET = 1_000_000
"""The largest ``offset`` of the listings (a bigger one would only ever be empty)."""


@router.get("/api/games", response_model=list[GameInfo])
async def list_games(tables: Live) -> list[GameInfo]:
    return games_of(tables.settings)


def games_of(limits: ServerSettings) -> list[GameInfo]:
    """The games this server offers, with their rules' options and bots (``/api/games``;
    the page carries them too, so that the lobby need not ask)."""
    known = set(bots.specs())
    offered = [name for name in limits.bots if name in known]
    out = []
    for spec in playable():
        out.append(GameInfo(
            name=spec.name, title=spec.title, default_preset=spec.default_preset,
            presets={preset: rules_to_dict(rules) for preset, rules in spec.presets.items()},
            player_counts=list(spec.player_counts), default_players=spec.default_players,
            options=[OptionInfo(name=o.name, type=o.type, default=plain(o.default),
                                doc=o.doc,
                                choices=None if o.choices is None else plain(o.choices),
                                maximum=limits.rule_bounds.get(o.name),
                                minimum=limits.rule_minimums.get(o.name, 0)
                                if o.name in limits.rule_bounds else None)
                     for o in rule_options(spec.rules_type)],
            bots=offered))
    return out


@router.post("/api/tables", response_model=Seated, status_code=201,
             responses=answers(409, 422, 429, 503))
async def create_table(body: CreateTable, request: Request, tables: Live,
                       player: Asker) -> Seated:
    table, seat, token = await tables.seating.create(
        body.game, preset=body.preset, options=body.options, players=body.players,
        seats=body.seats, takeover=body.takeover,
        name=await seat_name(request, body.name, player),
        address=address_of(request), player=player,
        clock=None if body.clock is None else body.clock.model_dump(), rated=body.rated)
    return Seated(table=table.id, seat=seat, token=token, invite=f"/table/{table.id}")


@router.get("/api/tables", response_model=list[TableListing], responses=answers(422))
async def open_tables(tables: Live, game: str | None = Query(None, max_length=32),
                      limit: int = Query(50, ge=1, le=200),
                      offset: int = Query(0, ge=0, le=MAX_OFFSET)) -> list[TableListing]:
    rows = await asyncio.to_thread(tables.storage.listing, over=False, limit=limit,
                                   offset=offset, game=game)
    return [listing_of(row, seats, tables.live.get(row.id)) for row, seats in rows]


@router.get("/api/tables/{table_id}", response_model=TableInfo,
            responses=answers(404, 503))
async def table_info(table_id: str, tables: Live) -> dict[str, object]:
    table = await tables.find(table_id)
    return await tables.describe(table)


@router.post("/api/tables/{table_id}/join", response_model=Seated,
             responses=answers(404, 409, 422, 503))
async def join_table(table_id: str, request: Request, tables: Live, player: Asker,
                     body: JoinTable | None = None) -> Seated:
    name = await seat_name(request, body.name if body else None, player)
    table, seat, token = await tables.seating.join(table_id, name, player=player)
    return Seated(table=table.id, seat=seat, token=token, invite=f"/table/{table.id}")


@router.get("/api/tables/{table_id}/record", responses=answers(404, 409, 503))
async def table_record(table_id: str, tables: Live) -> Response:
    table = await tables.find(table_id)
    record = await tables.finished_record(table)
    return Response(record.dumps(), media_type="application/json")


@router.get("/api/tables/{table_id}/log", response_model=MoveLog,
            responses=answers(404, 503))
async def table_log(table_id: str, request: Request, tables: Live) -> Response:
    """Every move so far with the public table after it: the page's move log is rebuilt
    from it on loading, on reconnecting and when moves are taken back."""
    table = await tables.find(table_id)
    version, state, takeovers = await tables.position(table)
    return await _big_json(request, "no-store", lambda: {
        "table": table.id, "game": table.game, "version": version,
        **log_steps(state, takeovers)})


@router.get("/api/tables/{table_id}/replay", response_model=Replay,
            responses=answers(404, 409, 500, 503))
async def table_replay(table_id: str, request: Request, tables: Live) -> Response:
    """The finished game step by step: the deal, then the table after every move,
    with every hand face up (so only once the game is over)."""
    table = await tables.find(table_id)
    record = await tables.finished_record(table, "its replay shows every hand, so it is "
                                          "given once the game has ended")
    try:
        # a finished game never changes: the browser may keep its replay
        return await _big_json(request, "private, max-age=86400, immutable", lambda: {
            "table": table.id, "game": record.game, "players": record.players,
            "record": record.to_dict(), "steps": replay_steps(record)})
    except RecordError as error:
        log.error("table %s cannot be replayed: %s", table.id, error)
        raise Refused(f"this game cannot be replayed: {error}", 500) from None


@router.get("/api/history", response_model=list[HistoryEntry], responses=answers(422))
async def history(players: Players, request: Request, tables: Live,
                  game: str | None = Query(None, max_length=32),
                  limit: int = Query(50, ge=1, le=200),
                  offset: int = Query(0, ge=0, le=MAX_OFFSET),
                  mine: bool = False) -> list[HistoryEntry]:
    """Finished games, latest first; ``mine``: only those the player asking (session or
    API token) sat in, none for a request without a player."""
    if mine:
        player = await current_player(request)
        rows = [] if player is None else await asyncio.to_thread(
            players.finished_games, player.id, limit=limit, offset=offset,
            game=game)
    else:
        rows = await asyncio.to_thread(tables.storage.listing, over=True,
                                       limit=limit, offset=offset, game=game)
    return [HistoryEntry(id=row.id, game=row.game, preset=row.preset, players=row.players,
                         seats=[seat_info_of(seat) for seat in seats], created=row.created,
                         finished=row.finished, summary=row.summary,
                         record=f"/api/tables/{row.id}/record", invite=f"/table/{row.id}",
                         rated=rated_table(row))
            for row, seats in rows]


async def seat_name(request: Request, name: str | None, player: Player | None) -> str | None:
    """The name a seat taken without a session shows, by the rule every shown name keeps
    (``accounts.check_shown_name``); a player's seat shows their own name, and
    ``name`` is not read."""
    if player is not None or name is None:
        return None
    return await check_shown_name(request, name)


def playable() -> list[GameSpec]:
    """The games whose engines load; one that fails is logged and left out of the lobby."""
    specs = []
    for name in games.names():
        try:
            specs.append(games.get(name))
        except (ImportError, AttributeError) as error:
            log.error("game %s cannot be loaded: %s", name, error)
    return specs


async def _big_json(request: Request, cache: str,
                    make: Callable[[], dict[str, object]]) -> Response:
    """A long answer made and encoded in a thread (a replay or a move log: the table at
    every step), gzipped when the client accepts it (a long match's views shrink about
    fortyfold)."""
    gzipped = "gzip" in request.headers.get("accept-encoding", "")

    def body() -> bytes:
        text = json.dumps(make(), ensure_ascii=False, separators=(",", ":")).encode()
        return gzip.compress(text, compresslevel=6) if gzipped else text

    headers = {"Vary": "Accept-Encoding", "Cache-Control": cache}
    if gzipped:
        headers["Content-Encoding"] = "gzip"
    return Response(await asyncio.to_thread(body), media_type="application/json",
                    headers=headers)
