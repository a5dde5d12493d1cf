"""The live table's WebSocket: a seat's player or a watcher, on this process or relayed
to the one that plays the table; the messages are ``protocol``'s."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import NamedTuple

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse

from ..core import protocol
from ..core.errors import ClusterUnavailable, NotHere, Refused
from ..core.wire import KEY_PREFIX, MAX_TOKEN, PROTOCOL, encode
from ..play.guard import MessageRate, address_of
from ..play.live import send
from ..play.tables import Connection, Outbox, Tables
from ..store.storage import StorageUnavailable, hash_token
from .accounts import cross_site, current_player, key_may_play
from .deps import Live
from .errors import body

__all__ = ["router"]

log = logging.getLogger("cardtable.server")

router = APIRouter()


KEY_IN_URL = ("a seat's key never goes in the URL (proxies log URLs): offer it as the "
              "WebSocket subprotocol 'cardtable.key.KEY' beside 'cardtable'")


def offered_key(websocket: WebSocket) -> tuple[str | None, bool]:
    """The seat key among the subprotocols the client offered (``None``: none, a
    watcher), and whether it offered ``cardtable`` (the one the server then picks)."""
    offered = [part.strip() for part in
               websocket.headers.get("sec-websocket-protocol", "").split(",")]
    key = next((part[len(KEY_PREFIX):] for part in offered if part.startswith(KEY_PREFIX)),
               None)
    return key or None, PROTOCOL in offered


@router.websocket("/ws/tables/{table_id}")
async def play(websocket: WebSocket, table_id: str, seat: str | None = None, *,
               tables: Live) -> None:
    if getattr(websocket.app.state, "draining", False):
        # stopping: its tables are being handed to the other processes; say so (503 and
        # when to try again), never a 500
        tables.metrics.refused("moved")
        await _deny(websocket, Refused(DRAINING, 503, "moved", retry_after=1))
        return
    address = address_of(websocket)
    refused = tables.guard.open_socket(address)
    if refused is not None:
        await _deny(websocket, refused)
        return
    try:
        token, named = offered_key(websocket)
        await websocket.accept(subprotocol=PROTOCOL if named else None)
        if "token" in websocket.query_params:
            await _close(websocket, KEY_IN_URL, 4400, "key_in_url")
            return
        ticket: str | OwnSeat | None = token
        if token is None and seat is not None:   # a player's own seat, from anywhere
            ticket = await _own_seat(websocket, tables, table_id, seat)
            if ticket is None:   # closed: the players' store could not say whose it is
                return
        await _seat_and_play(websocket, tables, table_id, ticket)
    finally:
        tables.guard.close_socket(address)


DRAINING = "this server process is stopping: connect again in a moment (another plays on)"

NO_SEAT = "this token holds no seat at this table (connect without a token to watch)"


class OwnSeat(NamedTuple):
    """A seat asked for by number, by a signed-in player (instead of a seat token)."""

    seat: int
    player_id: str | None


SIGNED_OUT = ("this seat is an account's: sign in as its player to play it (connect without "
              "a token to watch)")

NOT_YOURS = ("that seat is not yours: sign in as the player who took it, or connect with "
             "its token")


async def _speaker(websocket: WebSocket) -> str | None:
    """The account a watcher's socket is signed in as (a guest, a program, a page of
    another site or no session: ``None``, who may not chat among the spectators)."""
    try:
        player = None if cross_site(websocket) else await current_player(websocket)
    except StorageUnavailable:
        return None
    return player.id if player is not None and player.kind == "account" else None


async def _own_seat(websocket: WebSocket, tables: Tables, table_id: str,
                    seat: str) -> OwnSeat | None:
    """``?seat=N`` without a token: the seat, if the session's (or API token's) player
    took it; checked against the table's seats once it is found (a seat that is not a
    small number is nobody's).  While the players' store cannot say who this is, the
    socket closes with 1013 (``None``): the page tries again in a moment, where a 4403
    would have sent the seat's own player to watch for good."""
    if not (seat.isascii() and seat.isdigit() and len(seat) <= 2):
        return OwnSeat(-1, "")
    try:   # a page of another site may not use the session (the cookie goes with it)
        player = None if cross_site(websocket) else await current_player(websocket)
    except StorageUnavailable as error:
        await _close(websocket, error.reason, 1013, error.code)
        return None
    return OwnSeat(int(seat), player.id if player is not None else "")


async def _key_plays(websocket: WebSocket, player_id: str | None, kind: str | None) -> bool:
    """Whether the seat a key names may be played from this socket (``key_may_play``);
    if not, the socket is closed saying why (4403 ``signed_out``, or 1013 while the
    players' store cannot be reached: the page tries again)."""
    try:
        if await key_may_play(websocket, player_id, kind):
            return True
    except StorageUnavailable as error:
        await _close(websocket, error.reason, 1013, error.code)
        return False
    await _close(websocket, SIGNED_OUT, 4403, "signed_out")
    return False


async def _seat_and_play(websocket: WebSocket, tables: Tables, table_id: str,
                         token: str | OwnSeat | None) -> None:
    """An accepted socket: find the table and the token's seat, then play (or relay).

    Behind a proxy that sends each table's players to one process (``route_by_table``),
    a table another process plays is asked for first: its owner hands it over, and the
    table is played here; only if no answer comes is the player relayed."""
    try:
        try:
            table = await tables.get(table_id)
        except NotHere as elsewhere:
            cluster = websocket.app.state.cluster
            if not (tables.settings.route_by_table and cluster is not None):
                raise
            if elsewhere.owner is not None:  # None: its owner has just let it go
                await cluster.take_over(table_id, elsewhere.owner)
            table = await tables.get(table_id)
    except ClusterUnavailable as error:  # for a while: the page connects again
        await _close(websocket, error.reason, 1012, error.code)
        return
    except Refused as error:  # 4410 closed, 4503 broken: for good
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
        if seat is None and len(token) <= MAX_TOKEN and websocket.app.state.cluster is not None:
            # a seat taken through another process a moment ago: this owner is told of it
            # over Redis, and the player's socket can arrive first, so read the seats now
            try:
                await tables.seating.reload_seats(table.id)
            except StorageUnavailable as error:
                await _close(websocket, error.reason, 1013, error.code)
                return
            seat = table.seat_of_token(token)
        if seat is None:
            await _close(websocket, NO_SEAT, 4403, "no_seat")
            return
        holder = table.seats[seat]
        if not await _key_plays(websocket, holder.player_id, holder.player_kind):
            return
    connection = Connection(seat=seat, outbox=Outbox(tables.settings.queue_limit),
                            speaker=None if seat is not None else await _speaker(websocket),
                            token_hash=(hash_token(token) if isinstance(token, str)
                                        and seat is not None else None),
                            owner=token.player_id if isinstance(token, OwnSeat) else None)
    try:
        # inside the try: a client gone while it was being connected (the task cancelled in
        # the middle of ``connect``) is disconnected too, or its seat would stay "connected"
        try:
            await tables.connect(table, connection)
        except Refused as error:   # as many watchers as the table takes
            await _close(websocket, error.reason, 4000 + error.status, error.code,
                         error.params)
            return
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
                websocket.app.state.tables.metrics.refused("rate_limited")
                send(protocol.Error.of(SLOW_DOWN.format(rate=rate.per_second),
                                       "rate_limited"), (connection,))
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


async def _stop(task: asyncio.Task[object]) -> None:
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
        row = None
        if len(token) <= MAX_TOKEN:
            digest = hash_token(token)
            rows = await asyncio.to_thread(tables.storage.seats_of, table_id)
            row = next((row for row in rows if row.token_hash is not None
                        and secrets.compare_digest(row.token_hash, digest)), None)
        if row is None:
            await _close(websocket, NO_SEAT, 4403, "no_seat")
            return
        seat = row.seat
        if not await _key_plays(websocket, row.player_id, row.player_kind):
            return
    connection = Connection(seat=seat, outbox=Outbox(tables.settings.queue_limit),
                            speaker=None if seat is not None else await _speaker(websocket))
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


async def _close(websocket: WebSocket, reason: str, code: int, why: str,
                 params: dict[str, object] | None = None) -> None:
    """Tell the client why (an error message with a ``code`` and its parameters), then
    close with ``code`` and the reason (cut to what a close frame holds).  A client
    already gone is fine."""
    tables = getattr(websocket.app.state, "tables", None)
    if tables is not None:
        tables.metrics.refused(why)
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        await websocket.send_text(encode(protocol.Error.of(reason, why, params)))
        await websocket.close(code=code, reason=_close_reason(reason))


def _close_reason(reason: str) -> str:
    """A close frame's reason is at most 123 bytes of UTF-8."""
    return reason.encode()[:120].decode(errors="ignore")


async def _deny(websocket: WebSocket, error: Refused) -> None:
    """Refuse a socket before it opens: an HTTP answer (429 with the reason and the code)
    where the server can give one, else open, say why and close (1008)."""
    answer = JSONResponse(status_code=error.status, content=body(error))
    try:
        await websocket.send_denial_response(answer)
    except RuntimeError:   # no denial responses from this server: say it on the socket
        await websocket.accept()
        await _close(websocket, error.reason, 1008, error.code)
