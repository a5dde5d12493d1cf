"""The web table's HTTP and WebSocket endpoints (FastAPI).

``create_app`` builds the app; ``serve`` runs it with uvicorn.  The endpoints, in short:

- ``GET /api/health``, ``GET /api/games`` (games, presets, player counts, rule options, bots)
- ``POST /api/tables`` (create), ``GET /api/tables`` (open tables), ``GET /api/tables/{id}``,
  ``POST /api/tables/{id}/join``, ``GET /api/tables/{id}/record`` (once over),
  ``GET /api/tables/{id}/replay`` (once over: the table at every step, every hand shown),
  ``GET /api/history`` (finished games)
- ``WS /ws/tables/{id}?token=T`` (no token: watch); messages in ``cardtable.server.wire``
- ``/`` and ``/table/{id}``: the page (``static/index.html``); the rest of ``static/``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import json
import logging
import math
import mimetypes
import re
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any, NamedTuple

from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException

from ... import __version__, bots, games
from ...game import rule_options
from ...records import Record, RecordError, rules_to_dict
from .. import protocol
from ..border import TextBorder
from ..bounds import Limits, PlayerLimits
from ..clock import Clock
from ..people.accounts import cross_site, current_player
from ..people.accounts import install as install_players
from ..play.guard import MessageRate, address_of
from ..play.quickplay import LocalTickets, QuickPlay, RedisTickets
from ..play.replay import replay_steps
from ..play.tables import (
    ClusterUnavailable,
    Connection,
    NotHere,
    Outbox,
    Settings,
    TableError,
    Tables,
)
from ..store.storage import Storage, StorageUnavailable, hash_token, sqlite_url
from ..wire import MAX_TOKEN, encode, plain
from .collector import quiet_collector
from .life_api import router as life_router
from .pagefiles import PageFiles, page_response
from .schemas import (
    CreateTable,
    GameInfo,
    Health,
    HistoryEntry,
    JoinTable,
    OptionInfo,
    Problem,
    Replay,
    Seated,
    TableInfo,
    TableListing,
    listing_of,
    seat_info_of,
)

__all__ = ["create_app", "serve"]

log = logging.getLogger("cardtable.server")

STATIC = Path(__file__).resolve().parent.parent / "static"

for _type, _suffixes in (("text/javascript", (".js", ".mjs")), ("text/css", (".css",)),
                         ("image/svg+xml", (".svg",)), ("application/json", (".json", ".map")),
                         ("application/manifest+json", (".webmanifest",)),
                         ("font/woff2", (".woff2",)), ("text/html", (".html",))):
    for _suffix in _suffixes:
        mimetypes.add_type(_type, _suffix)


def create_app(database_url: str | None = None, data_dir: str | Path = "data",
               redis_url: str | None = None, *, bot_delay: float = 0.8,
               bot_time_limit: float = 30.0, grace: float = 60.0, queue_limit: int = 64,
               static_dir: str | Path | None = None, redis_prefix: str = "cardtable",
               lease: float = 15.0, bot_processes: int = 0, bot_threads: int = 4,
               storage_threads: int = 8, limits: Limits | None = None,
               claim_grace: float = 120.0, storage_retry_max: float = 5.0,
               redis_pool_size: int = 20, redis_pool_timeout: float = 5.0,
               abandon_after: float = 600.0, quick_play_poll: float = 8.0,
               player_limits: PlayerLimits | None = None,
               clock: Clock | None = None) -> FastAPI:
    """The web table as an ASGI app.

    ``database_url`` defaults to SQLite at ``data_dir/cardtable.sqlite3``.  The schema is
    migrated and every unfinished table is resumed when the app starts (its lifespan).
    With ``redis_url`` several processes share the database: each table is played by one
    of them (a lease of ``lease`` seconds in Redis) and the others relay its players
    (through at most ``redis_pool_size`` connections to Redis, each waited for at most
    ``redis_pool_timeout`` seconds); see ``cardtable.server.cluster.relay``.  ``limits`` bounds
    what clients may ask (``cardtable.server.bounds.Limits``).  ``clock`` is what every
    clock, grace and wait of the tables reads (a test's ``clock.FakeClock``).
    """
    url = database_url or sqlite_url(data_dir)
    settings = Settings(bot_delay=bot_delay, bot_time_limit=bot_time_limit, grace=grace,
                        queue_limit=queue_limit, bot_processes=bot_processes,
                        bot_threads=bot_threads, storage_threads=storage_threads,
                        limits=limits or Limits(), claim_grace=claim_grace,
                        storage_retry_max=storage_retry_max, abandon_after=abandon_after,
                        players=player_limits or PlayerLimits())
    static = Path(static_dir) if static_dir is not None else STATIC

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        storage = Storage(url, threads=settings.storage_threads)
        # every asyncio.to_thread of the server is a database call (bots think in threads
        # or processes of their own): the loop's default threads are the storage's, which
        # no bot can hold up
        asyncio.get_running_loop().set_default_executor(storage.executor)
        await asyncio.to_thread(storage.migrate)
        tables = Tables(storage, settings, clock=clock)
        app.state.storage = storage
        app.state.tables = tables
        cluster = app.state.cluster = None
        if redis_url:
            from ..cluster.relay import Cluster

            cluster = app.state.cluster = tables.cluster = Cluster(
                redis_url, tables, prefix=redis_prefix, lease=lease,
                pool_size=redis_pool_size, pool_timeout=redis_pool_timeout)
            await cluster.start()
        await tables.start()
        await app.state.analyses.import_folder()  # an earlier version's files, read in
        tickets = (LocalTickets() if cluster is None
                   else RedisTickets(cluster.redis, redis_prefix))
        app.state.quickplay = QuickPlay(tables, tickets, poll_timeout=quick_play_poll)
        app.state.quickplay.start()
        try:
            yield
        finally:
            await tables.stop()
            app.state.analyses.close()
            if cluster is not None:
                await cluster.stop()
            storage.close()

    app = FastAPI(title="cardtable", version=__version__, lifespan=lifespan,
                  description=f"{_titles()} at a web table: lobby, tables with "
                              "friends and bots, live play over a WebSocket, records.")

    @app.exception_handler(TableError)
    async def _refused(request: Request, error: TableError) -> JSONResponse:
        """Every refusal about a table, from any endpoint: its status, reason and code."""
        headers = None
        if error.retry_after is not None:
            headers = {"Retry-After": str(math.ceil(error.retry_after))}
        return JSONResponse(status_code=error.status, headers=headers, content=error.answer())

    @app.exception_handler(HTTPException)
    async def _http_refusal(request: Request, error: HTTPException) -> JSONResponse:
        """The framework's own refusals, in the same shape (a body that is not even text,
        which FastAPI answers 400, is an unreadable request like any other: 422)."""
        status, reason = error.status_code, str(error.detail)
        if status == 400:
            status, reason = 422, "the body cannot be read: send JSON, in UTF-8"
        return JSONResponse(status_code=status, headers=error.headers, content={
            "detail": reason, "code": TableError.CODES.get(status, "refused")})

    @app.exception_handler(StorageUnavailable)
    async def _unavailable(request: Request, error: StorageUnavailable) -> JSONResponse:
        """The database is away: 503, and when to try again (the outage is logged once)."""
        return JSONResponse(status_code=503, headers={"Retry-After": "5"},
                            content={"detail": error.reason, "code": error.code})

    @app.exception_handler(RequestValidationError)
    async def _unreadable(request: Request, error: RequestValidationError) -> JSONResponse:
        reasons, errors = [], []
        for item in error.errors():
            where = ".".join(str(part) for part in item.get("loc", ()) if part != "body")
            reasons.append(f"{where}: {item.get('msg')}" if where else str(item.get("msg")))
            # not the input itself: it may be huge, or a NaN that JSON cannot carry
            errors.append({"loc": [str(part) for part in item.get("loc", ())],
                           "msg": str(item.get("msg")), "type": str(item.get("type"))})
        return JSONResponse(status_code=422, content={
            "detail": "; ".join(reasons) or "the request cannot be read",
            "code": "invalid_request", "errors": errors})

    def tables_of(request: Request | WebSocket) -> Tables:
        return request.app.state.tables

    @app.get("/api/health", response_model=Health, responses={
        503: {"model": Health,
              "description": "the database or Redis (several processes) cannot be reached"}})
    async def health(request: Request) -> Any:
        tables = tables_of(request)
        try:
            count: int | None = await asyncio.to_thread(tables.storage.table_count)
        except StorageUnavailable:
            count = None
        cluster = request.app.state.cluster
        answer = Health(status="ok" if count is not None else "unavailable",
                        version=__version__, tables=count,
                        live=sum(1 for t in tables.live.values() if not t.over),
                        broken=sorted(tables.broken),
                        process=cluster.process if cluster else None,
                        database="ok" if count is not None else "down",
                        redis=None if cluster is None else "ok")
        if count is None:
            answer.code = "storage_unavailable"
            answer.detail = "the database cannot be reached: requests are answered 503"
        if cluster is not None and cluster.problem is not None:
            answer.status, answer.redis = "unavailable", "down"
            answer.code = "cluster_unavailable"
            answer.detail = (f"Redis, which joins the server processes, cannot be reached "
                             f"({cluster.problem}): no table is played here until it is back")
        if answer.status != "ok":
            return JSONResponse(status_code=503, content=answer.model_dump())
        return answer

    @app.get("/api/games", response_model=list[GameInfo])
    async def list_games() -> list[GameInfo]:
        known = set(bots.specs())
        offered = [name for name in settings.limits.bots if name in known]
        out = []
        for spec in _playable():
            out.append(GameInfo(
                name=spec.name, title=spec.title, default_preset=spec.default_preset,
                presets={preset: rules_to_dict(rules) for preset, rules in spec.presets.items()},
                player_counts=list(spec.player_counts), default_players=spec.default_players,
                options=[OptionInfo(name=o.name, type=o.type, default=plain(o.default),
                                    doc=o.doc,
                                    choices=None if o.choices is None else plain(o.choices),
                                    maximum=settings.limits.rule_bounds.get(o.name))
                         for o in rule_options(spec.rules_type)],
                bots=offered))
        return out

    @app.post("/api/tables", response_model=Seated, status_code=201,
              responses=_answers(422, 429))
    async def create_table(body: CreateTable, request: Request) -> Seated:
        table, seat, token = await tables_of(request).seating.create(
            body.game, preset=body.preset, options=body.options, players=body.players,
            seats=body.seats, takeover=body.takeover, name=body.name,
            address=address_of(request), player=await current_player(request),
            clock=None if body.clock is None else body.clock.model_dump())
        return Seated(table=table.id, seat=seat, token=token, invite=f"/table/{table.id}")

    @app.get("/api/tables", response_model=list[TableListing], responses=_answers(422))
    async def open_tables(request: Request, game: str | None = Query(None, max_length=32),
                          limit: int = Query(50, ge=1, le=200),
                          offset: int = Query(0, ge=0, le=MAX_OFFSET)) -> list[TableListing]:
        tables = tables_of(request)
        rows = await asyncio.to_thread(tables.storage.listing, over=False, limit=limit,
                                       offset=offset, game=game)
        return [listing_of(row, seats, tables.live.get(row.id)) for row, seats in rows]

    @app.get("/api/tables/{table_id}", response_model=TableInfo,
             responses=_answers(404, 503))
    async def table_info(table_id: str, request: Request) -> dict[str, Any]:
        table = await tables_of(request).find(table_id)
        async with table.lock:
            return table.describe()

    @app.post("/api/tables/{table_id}/join", response_model=Seated,
              responses=_answers(404, 409, 422, 503))
    async def join_table(table_id: str, request: Request,
                         body: JoinTable | None = None) -> Seated:
        table, seat, token = await tables_of(request).seating.join(
            table_id, body.name if body else None, player=await current_player(request))
        return Seated(table=table.id, seat=seat, token=token, invite=f"/table/{table.id}")

    @app.get("/api/tables/{table_id}/record", responses=_answers(404, 409, 503))
    async def table_record(table_id: str, request: Request) -> Response:
        table = await tables_of(request).find(table_id)
        async with table.lock:
            record = table.record()
        return Response(record.dumps(), media_type="application/json")

    @app.get("/api/tables/{table_id}/replay", response_model=Replay,
             responses=_answers(404, 409, 500, 503))
    async def table_replay(table_id: str, request: Request) -> Response:
        """The finished game step by step: the deal, then the table after every move,
        with every hand face up (so only once the game is over)."""
        table = await tables_of(request).find(table_id)
        async with table.lock:
            if not table.over:
                raise TableError("the game is not over yet: its replay shows every hand, so "
                                 "it is given once the game has ended", 409, "not_over")
            record = table.record()
        gzipped = "gzip" in request.headers.get("accept-encoding", "")
        try:
            body = await asyncio.to_thread(_replay_body, table.id, record, gzipped)
        except RecordError as error:
            log.error("table %s cannot be replayed: %s", table.id, error)
            raise TableError(f"this game cannot be replayed: {error}", 500) from None
        # a finished game never changes: the browser may keep its replay
        headers = {"Vary": "Accept-Encoding", "Cache-Control": "private, max-age=86400, immutable"}
        if gzipped:
            headers["Content-Encoding"] = "gzip"
        return Response(body, media_type="application/json", headers=headers)

    @app.get("/api/history", response_model=list[HistoryEntry], responses=_answers(422))
    async def history(request: Request, game: str | None = Query(None, max_length=32),
                      limit: int = Query(50, ge=1, le=200),
                      offset: int = Query(0, ge=0, le=MAX_OFFSET)) -> list[HistoryEntry]:
        rows = await asyncio.to_thread(tables_of(request).storage.listing, over=True,
                                       limit=limit, offset=offset, game=game)
        return [HistoryEntry(id=row.id, game=row.game, preset=row.preset, players=row.players,
                             seats=[seat_info_of(seat) for seat in seats], created=row.created,
                             finished=row.finished, summary=row.summary,
                             record=f"/api/tables/{row.id}/record", invite=f"/table/{row.id}")
                for row, seats in rows]

    @app.websocket("/ws/tables/{table_id}")
    async def play(websocket: WebSocket, table_id: str, token: str | None = None,
                   seat: str | None = None) -> None:
        tables = tables_of(websocket)
        address = address_of(websocket)
        refused = tables.guard.open_socket(address)
        if refused is not None:
            await _deny(websocket, refused)
            return
        try:
            await websocket.accept()
            ticket: str | OwnSeat | None = token
            if token is None and seat is not None:   # a player's own seat, from anywhere
                ticket = await _own_seat(websocket, tables, table_id, seat)
            await _seat_and_play(websocket, tables, table_id, ticket)
        finally:
            tables.guard.close_socket(address)

    app.include_router(life_router)
    app.include_router(protocol.router)

    @app.get("/", include_in_schema=False)
    async def index(request: Request) -> Response:
        return _page(static, request)

    @app.get("/table/{table_id}", include_in_schema=False)
    async def invite(table_id: str, request: Request) -> Response:
        return _page(static, request)

    install_players(app)
    from .learn_api import register as _school

    app.state.analyses = _school(app, data_dir, tables_of)
    app.mount("/", PageFiles(directory=static, html=True, check_dir=False), name="static")
    # outermost: no endpoint, middleware or database sees a NUL or an unbounded body
    app.add_middleware(TextBorder)
    return app


NO_SEAT = "this token holds no seat at this table (connect without a token to watch)"
MAX_OFFSET = 1_000_000
"""The largest ``offset`` of the listings (a bigger one would only ever be empty)."""


class OwnSeat(NamedTuple):
    """A seat asked for by number, by a signed-in player (instead of a seat token)."""

    seat: int
    player_id: str | None


NOT_YOURS = ("that seat is not yours: sign in as the player who took it, or connect with "
             "its token")


async def _own_seat(websocket: WebSocket, tables: Tables, table_id: str,
                    seat: str) -> OwnSeat:
    """``?seat=N`` without a token: the seat, if the session's (or API token's) player
    took it; checked against the table's seats once it is found (a seat that is not a
    small number is nobody's)."""
    if not (seat.isascii() and seat.isdigit() and len(seat) <= 2):
        return OwnSeat(-1, "")
    try:   # a page of another site may not use the session (the cookie goes with it)
        player = None if cross_site(websocket) else await current_player(websocket)
    except StorageUnavailable:
        player = None
    return OwnSeat(int(seat), player.id if player is not None else "")


async def _seat_and_play(websocket: WebSocket, tables: Tables, table_id: str,
                         token: str | OwnSeat | None) -> None:
    """An accepted socket: find the table and the token's seat, then play (or relay)."""
    try:
        table = await tables.get(table_id)
    except ClusterUnavailable as error:  # for a while: the page connects again
        await _close(websocket, error.reason, 1012, error.code)
        return
    except TableError as error:  # 4410 closed, 4503 broken: for good
        await _close(websocket, error.reason, 4000 + error.status, error.code)
        return
    except StorageUnavailable as error:  # 1013: try again later (the page does)
        await _close(websocket, error.reason, 1013, error.code)
        return
    except NotHere as elsewhere:
        await _relay(websocket, tables, elsewhere, token)
        return
    if table is None:
        await _close(websocket, f"there is no table {table_id[:40]!r}", 4404, "not_found")
        return
    seat = None
    if isinstance(token, OwnSeat):
        seat = token.seat if 0 <= token.seat < len(table.seats) and table.seats[
            token.seat].player_id == token.player_id else None
        if seat is None:
            await _close(websocket, NOT_YOURS, 4403, "no_seat")
            return
    elif token:
        seat = table.seat_of_token(token) if len(token) <= MAX_TOKEN else None
        if seat is None:
            await _close(websocket, NO_SEAT, 4403, "no_seat")
            return
    connection = Connection(seat=seat, outbox=Outbox(tables.settings.queue_limit))
    try:
        # inside the try: a client gone while it was being connected (the task cancelled in
        # the middle of ``connect``) is disconnected too, or its seat would stay "connected"
        await tables.connect(table, connection)
        await _converse(websocket, connection, tables.guard.message_rate(),
                        lambda data: tables.receive(table, connection, data))
    finally:
        await tables.disconnect(table, connection)


FLOODING = ("too many messages: at most {rate:g} a second on average; this connection is "
            "closed (connect again and send less often)")
SLOW_DOWN = ("you are sending messages too fast (at most {rate:g} a second on average): "
             "the ones over that are dropped; keep on and the connection is closed")


async def _converse(websocket: WebSocket, connection: Connection, rate: MessageRate,
                    handle: Callable[[str | bytes], Awaitable[None]]) -> None:
    """Send what the outbox holds, and hand each client message to ``handle``, as fast as
    ``rate`` lets the client send: past it the client is warned, then closed (1008).

    A message the server fails on closes the socket with 1011 (and is logged), never
    without a close frame.
    """
    sender = asyncio.create_task(_send(websocket, connection))
    try:
        while True:
            try:
                message = await websocket.receive()
            except (WebSocketDisconnect, RuntimeError):   # the socket is gone
                return
            if message["type"] == "websocket.disconnect":
                return
            verdict = rate.admit()
            if verdict == "ok":
                data = message.get("text")
                if data is None:
                    data = message.get("bytes") or b""
                await handle(data)
            elif verdict == "warn":
                connection.outbox.put("error", encode({
                    "type": "error", "code": "rate_limited",
                    "reason": SLOW_DOWN.format(rate=rate.per_second)}))
            elif verdict == "close":
                await _stop(sender)
                await _close(websocket, FLOODING.format(rate=rate.per_second), 1008,
                             "message_flood")
                return
            if sender.done():
                return
    except Exception:
        log.exception("a WebSocket message could not be handled")
        await _stop(sender)
        await _close(websocket, "the server failed on that message; connect again", 1011,
                     "server_error")
    finally:
        await _stop(sender)


async def _stop(task: asyncio.Task[Any]) -> None:
    task.cancel()
    with contextlib.suppress(BaseException):
        await task


async def _relay(websocket: WebSocket, tables: Tables, elsewhere: NotHere,
                 token: str | OwnSeat | None) -> None:
    """A player at a table another process plays: pass messages both ways through Redis."""
    table_id, owner, cluster = elsewhere.table_id, elsewhere.owner, websocket.app.state.cluster
    assert cluster is not None, "only a process of a cluster finds a table elsewhere"
    if owner is None:
        await _close(websocket, "the table is changing servers; connect again", 1012, "moved")
        return
    seat = None
    if isinstance(token, OwnSeat):
        rows = await asyncio.to_thread(tables.storage.seats_of, table_id)
        seat = next((row.seat for row in rows if row.seat == token.seat
                     and row.player_id == token.player_id), None)
        if seat is None:
            await _close(websocket, NOT_YOURS, 4403, "no_seat")
            return
    elif token:
        if len(token) <= MAX_TOKEN:
            digest = hash_token(token)
            rows = await asyncio.to_thread(tables.storage.seats_of, table_id)
            seat = next((row.seat for row in rows if row.token_hash is not None
                         and secrets.compare_digest(row.token_hash, digest)), None)
        if seat is None:
            await _close(websocket, NO_SEAT, 4403, "no_seat")
            return
    connection = Connection(seat=seat, outbox=Outbox(tables.settings.queue_limit))
    try:
        conn = await cluster.relay_open(owner, table_id, seat, connection)
    except ClusterUnavailable as error:
        await _close(websocket, error.reason, 1012, error.code)
        return
    try:
        await _converse(websocket, connection, tables.guard.message_rate(),
                        lambda data: cluster.relay_message(conn, data))
    finally:
        await cluster.relay_close(conn)


async def _send(websocket: WebSocket, connection: Connection) -> None:
    while True:
        kind, text = await connection.outbox.get_item()
        if kind == "close":  # the table moved to another process, or Redis went: reconnect
            await _close(websocket, text, 1012, "moved")
            return
        await websocket.send_text(text)


async def _close(websocket: WebSocket, reason: str, code: int, why: str) -> None:
    """Tell the client why (an error message with a ``code``), then close with ``code``
    and the reason (cut to what a close frame holds).  A client already gone is fine."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        await websocket.send_text(encode({"type": "error", "reason": reason, "code": why}))
        await websocket.close(code=code, reason=_close_reason(reason))


def _close_reason(reason: str) -> str:
    """A close frame's reason is at most 123 bytes of UTF-8."""
    return reason.encode()[:120].decode(errors="ignore")


async def _deny(websocket: WebSocket, error: TableError) -> None:
    """Refuse a socket before it opens: an HTTP answer (429 with the reason and the code)
    where the server can give one, else open, say why and close (1008)."""
    answer = JSONResponse(status_code=error.status, content=error.answer())
    try:
        await websocket.send_denial_response(answer)
    except RuntimeError:   # no denial responses from this server: say it on the socket
        await websocket.accept()
        await _close(websocket, error.reason, 1008, error.code)


def _answers(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The refusals an endpoint may answer, for the OpenAPI description."""
    said = {404: "there is no such table", 409: "not now: the table is not in a state to "
            "grant it (the reason says why)", 422: "the request cannot be read or asks for "
            "something the rules or the server's limits do not allow",
            429: "too many requests from your address: see Retry-After",
            500: "the server failed", 503: "the table cannot be played now"}
    return {status: {"model": Problem, "description": said[status]} for status in statuses}


def _page(static: Path, request: Request) -> Response:
    index = static / "index.html"
    if not index.is_file():
        return JSONResponse(status_code=404, content={
            "detail": "the web page is not installed (cardtable/server/static/index.html)",
            "code": "not_found"})
    return page_response(static, request.headers.get("if-none-match"))


def _titles() -> str:
    """The games' titles as one phrase ("A, B and C"), for the API's description."""
    titles = [spec.title for spec in _playable()]
    return " and ".join(filter(None, [", ".join(titles[:-1]), *titles[-1:]])) or "Card games"


def _playable() -> list[Any]:
    """The games whose engines load; one that fails is logged and left out of the lobby."""
    specs = []
    for name in games.names():
        try:
            specs.append(games.get(name))
        except (ImportError, AttributeError) as error:
            log.error("game %s cannot be loaded: %s", name, error)
    return specs


def _replay_body(table_id: str, record: Record, gzipped: bool) -> bytes:
    """The replay as JSON bytes; gzip shrinks a long match's views about fortyfold."""
    replay = {"table": table_id, "game": record.game, "players": record.players,
              "record": record.to_dict(), "steps": replay_steps(record)}
    body = json.dumps(replay, ensure_ascii=False, separators=(",", ":")).encode()
    return gzip.compress(body, compresslevel=6) if gzipped else body


def serve(host: str = "127.0.0.1", port: int = 8000, data_dir: str | Path = "data",
          database_url: str | None = None, redis_url: str | None = None, *,
          bot_delay: float = 0.8, grace: float = 60.0, redis_prefix: str = "cardtable",
          lease: float = 15.0, bot_processes: int = 0, bot_time_limit: float = 30.0,
          bot_threads: int = 4, storage_threads: int = 8, limits: Limits | None = None,
          log_level: str = "info", claim_grace: float = 120.0,
          storage_retry_max: float = 5.0, redis_pool_size: int = 20,
          redis_pool_timeout: float = 5.0, abandon_after: float = 600.0,
          quick_play_poll: float = 8.0) -> None:
    """Run the web table with uvicorn until interrupted."""
    import uvicorn

    limits = limits or Limits()
    app = create_app(database_url=database_url, data_dir=data_dir, redis_url=redis_url,
                     bot_delay=bot_delay, grace=grace, redis_prefix=redis_prefix,
                     lease=lease, bot_processes=bot_processes, bot_time_limit=bot_time_limit,
                     bot_threads=bot_threads, storage_threads=storage_threads, limits=limits,
                     claim_grace=claim_grace, storage_retry_max=storage_retry_max,
                     redis_pool_size=redis_pool_size, redis_pool_timeout=redis_pool_timeout,
                     abandon_after=abandon_after, quick_play_poll=quick_play_poll)
    # a WebSocket frame bigger than a message can be is not even read (closed with 1009);
    # no per-message compression: deflating every state costs more CPU than the bytes it
    # saves on messages of a kilobyte or two
    config = uvicorn.Config(app, host=host, port=port, log_level=log_level,
                            ws=_websocket_protocol(), ws_max_size=limits.ws_max_bytes,
                            ws_per_message_deflate=False)
    for name in ("uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).addFilter(RedactTokens())
    # the table's own messages (tables resumed, bots cut off, leases lost) go where
    # uvicorn's go
    ours = logging.getLogger("cardtable")
    ours.handlers = list(logging.getLogger("uvicorn").handlers)
    ours.setLevel(log_level.upper())
    ours.propagate = False
    server = uvicorn.Server(config)
    quiet_collector()
    server.run()


def _websocket_protocol() -> Any:
    """uvicorn's WebSocket protocol (websockets, sans I/O), made to answer a handshake it
    refuses: as uvicorn 0.54 ships it, a WebSocket request whose line is over 8 KB (a long
    URL) or whose headers are too large gets its 414/431 answer made but never sent, and
    the client waits forever; and a socket refused with an HTTP answer (429 for too many
    connections) is logged as an error of the app.  Any other uvicorn: its own choice."""
    try:
        from uvicorn.protocols.websockets.websockets_sansio_impl import (
            WebSocketsSansIOProtocol,
        )
    except ImportError:  # pragma: no cover - another uvicorn
        return "auto"

    class AnsweringProtocol(WebSocketsSansIOProtocol):
        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if (not self.handshake_initiated and self.conn.handshake_exc is not None
                    and not self.transport.is_closing()):
                self.transport.write(b"".join(self.conn.data_to_send()))
                self.transport.close()

        async def send(self, message: Any) -> None:
            await super().send(message)
            if message["type"] == "websocket.http.response.body" and not message.get(
                    "more_body", False):
                self.handshake_complete = True   # refused with an answer: done, no error

    return AnsweringProtocol


class RedactTokens(logging.Filter):
    """Seat tokens travel in the WebSocket URL: keep them out of the server's log."""

    PATTERN = re.compile(r"(token=)[^&\s\"']+")

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if "token=" in message:
            record.msg, record.args = self.PATTERN.sub(r"\1…", message), ()
        return True
