"""Moderation: players report a player or a chat line; admins (``cardtable admin grant
NAME``) read the reports and mute, ban (an account or an address), close a table or rename
an offensive name.  Every admin action is in the audit log (``GET /api/admin/audit``).

- A muted account's chat lines are refused (``muted``), to it alone.
- A banned account's sessions and API tokens end, and its sign-in is refused (403
  ``banned``, said only to who gave the right password); its open challenges, sent and
  received, are cancelled.
- A banned address gets 403 ``address_banned`` on every ``/api/`` request and WebSocket
  (the list is read again every ``BANS_FRESH`` seconds in each process, at once in the one
  that banned).
- A table closed by an admin ends unrated (``closed``, the reason kept); its sockets close.

Refusals: 403 ``not_admin`` for an account without the role, 404 ``no_player`` /
``no_chat_line`` / ``not_found`` for a target that is not there.
"""

from __future__ import annotations

import asyncio
import datetime as _dt
import ipaddress
import time
from typing import Literal

from fastapi import APIRouter, Path, Query, Request
from pydantic import BaseModel, Field
from starlette.datastructures import State
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send

from ..core.errors import Refused
from ..people.players import check_display_name
from ..play.guard import address_of
from ..store.players import Player
from ..store.sanctions import ReportRow, SanctionStore
from ..store.stamps import stamp
from ..store.storage import CLOSED, OVER, StoredTable
from ..store.tournaments import TournamentStore
from .accounts import REFUSALS, close_sockets, current_player, store_of
from .errors import Responses
from .services import Attempts, Players, Sanctions, services_of
from .spec import Name

__all__ = ["BANS_FRESH", "BannedAddresses", "router", "sanctions_of"]

BANS_FRESH = 5.0
"""Seconds a process trusts its list of banned addresses before reading it again."""

router = APIRouter()
ADMIN_REFUSALS: Responses = {
    **REFUSALS, 403: {"description": "not an admin, or a cross-site request"},
    404: {"description": "no such player, table, report or chat line"}}


def sanctions_of(holder: HTTPConnection) -> SanctionStore:
    return services_of(holder).sanctions


# -- banned addresses -------------------------------------------------------------------------
class BannedAddresses:
    """Refuse every ``/api/`` request and WebSocket from a banned address (ASGI
    middleware, before any endpoint reads the request)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (scope["type"] in ("http", "websocket")
                and scope["path"].startswith(("/api/", "/ws/"))
                and await _banned(scope)):
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008,
                            "reason": "address_banned"})
                return
            body = (b'{"detail":"your address is banned from this site",'
                    b'"code":"address_banned"}')
            await send({"type": "http.response.start", "status": 403, "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode())]})
            await send({"type": "http.response.body", "body": body})
            return
        await self.app(scope, receive, send)


async def _banned(scope: Scope) -> bool:
    """Whether the request's address is banned.  The list is read at the first request
    (and at once after a ban or unban here), then again in the background when it is
    older than ``BANS_FRESH``: no request waits for it, even with the database away."""
    app = scope.get("app")
    state = getattr(app, "state", None)
    if state is None or getattr(state, "services", None) is None:
        return False   # before the lifespan: nothing to read yet
    held = getattr(state, "banned_addresses", None)
    if held is None:
        held = await _read_bans(state, frozenset())
    elif (time.monotonic() - held[1] > BANS_FRESH
          and getattr(state, "bans_reading", None) is None):
        state.bans_reading = asyncio.get_running_loop().create_task(
            _read_bans(state, held[0]))
    client = scope.get("client")
    return (client[0] if client else "unknown") in held[0]


async def _read_bans(state: State, last: frozenset[str]) -> tuple[frozenset[str], float]:
    try:
        addresses = await asyncio.to_thread(state.services.sanctions.banned_addresses)
    except Exception:   # the database away: the list as last read
        addresses = last
    finally:
        state.bans_reading = None
    held = state.banned_addresses = (addresses, time.monotonic())
    return held


# -- reports ----------------------------------------------------------------------------------
class NewReport(BaseModel):
    player: str | None = Field(None, max_length=64, description="a username or player id")
    table: str | None = Field(None, max_length=64)
    seat: int | None = Field(None, ge=0, le=15, description="with table: the seat reported")
    at: str | None = Field(None, max_length=40, description="with table and seat: the "
                           "time of the chat line reported, as the chat message gave it")
    reason: str = Field(min_length=1, max_length=500)


class Reported(BaseModel):
    report: int


@router.post("/api/reports", response_model=Reported, status_code=201, responses=ADMIN_REFUSALS)
async def report(sanctions: Sanctions, limiter: Attempts, body: NewReport,
                 request: Request) -> Reported:
    """Report a player (``player``; or ``table`` and ``seat``) or a chat line (``table``,
    ``seat`` and the line's ``at``), with a reason an admin reads."""
    reporter = await current_player(request)
    if reporter is None:
        raise Refused("sign in (or play as a guest) first", 401, "not_signed_in")
    await limiter.hit(request.app.state.settings.reports_per_address, "report",
                                  address_of(request))
    row = ReportRow(at=stamp(), reporter_id=reporter.id, reason=" ".join(body.reason.split()),
                    status="open")
    if body.table is not None and body.seat is not None:
        await asyncio.to_thread(services_of(request).reports.find_seat,
                                body.table, body.seat, body.at, row)
    elif body.player is not None:
        row.player_id = (await _player_named(request, body.player)).id
    else:
        raise Refused('a report names "player", or "table" and "seat"', 422,
                      "invalid_request")
    return Reported(report=await asyncio.to_thread(sanctions.report, row))


async def _player_named(request: Request, name: str) -> Player:
    store = store_of(request)
    row = await asyncio.to_thread(store.by_username, name)
    player = row.player() if row is not None else await asyncio.to_thread(store.get, name)
    if player is None or player.kind == "deleted":
        raise Refused(f"no player {name[:40]!r}", 404, "no_player")
    return player


# -- admins -----------------------------------------------------------------------------------
async def admin_asking(request: Request) -> tuple[Player, str]:
    """The admin asking, and how the audit log names them; 403 ``not_admin`` else."""
    player = await current_player(request)
    if player is None or await asyncio.to_thread(sanctions_of(request).role,
                                                 player.id) != "admin":
        raise Refused("this needs an admin", 403, "not_admin")
    return player, f"{player.username or player.name} ({player.id})"


class Target(BaseModel):
    player: str | None = Field(None, max_length=64, description="a username or player id")
    address: str | None = Field(None, max_length=64, description="an IP address (ban)")
    minutes: float | None = Field(None, gt=0, le=10_000_000, description="how long; none: "
                                  "until lifted")
    reason: str = Field("", max_length=200)


class Done(BaseModel):
    done: bool
    target: str


class NewName(BaseModel):
    player: str = Field(max_length=64)
    name: Name


class Closing(BaseModel):
    reason: str = Field("closed by an admin", max_length=200)


def _until(minutes: float | None) -> _dt.datetime | None:
    return None if minutes is None else stamp() + _dt.timedelta(minutes=minutes)


BANNED = "this account is banned: its sessions have ended"


async def _sanction(request: Request, body: Target, kind: Literal["mute", "ban"],
                    lift: bool) -> Done:
    admin, named = await admin_asking(request)
    store = sanctions_of(request)
    if kind == "ban" and body.address is not None:
        try:
            address = str(ipaddress.ip_address(body.address))
        except ValueError:
            raise Refused(f"{body.address[:64]!r} is not an IP address", 422,
                          "invalid_request") from None
        if lift:
            await asyncio.to_thread(store.lift, "ban_address", address, named)
        else:
            await asyncio.to_thread(store.sanction, "ban_address", address,
                                    _until(body.minutes), body.reason, admin, named)
        request.app.state.banned_addresses = None   # read again at once here
        return Done(done=True, target=address)
    if body.player is None:
        raise Refused('name the "player" (or, to ban, the "address")', 422,
                      "invalid_request")
    target = await _player_named(request, body.player)
    if lift:
        await asyncio.to_thread(store.lift, kind, target.id, named)
    else:
        await asyncio.to_thread(store.sanction, kind, target.id, _until(body.minutes),
                                body.reason, admin, named)
        if kind == "ban":   # its sessions ended with the ban: so do its open sockets
            await close_sockets(request, target.id, BANNED)
            # and its challenges, sent and received, are cancelled (none can be accepted)
            await asyncio.to_thread(services_of(request).social.withdraw_all, target.id)
            # and its tournaments seat it no more
            await asyncio.to_thread(TournamentStore(request.app.state.storage).leave_all,
                                    target.id)
    return Done(done=True, target=target.id)


@router.post("/api/admin/mute", response_model=Done, responses=ADMIN_REFUSALS)
async def mute(body: Target, request: Request) -> Done:
    """Mute a player's chat (for ``minutes``, or until lifted)."""
    return await _sanction(request, body, "mute", lift=False)


@router.post("/api/admin/unmute", response_model=Done, responses=ADMIN_REFUSALS)
async def unmute(body: Target, request: Request) -> Done:
    return await _sanction(request, body, "mute", lift=True)


@router.post("/api/admin/ban", response_model=Done, responses=ADMIN_REFUSALS)
async def ban(body: Target, request: Request) -> Done:
    """Ban an account (its sessions end) or an address (for ``minutes``, or until lifted)."""
    return await _sanction(request, body, "ban", lift=False)


@router.post("/api/admin/unban", response_model=Done, responses=ADMIN_REFUSALS)
async def unban(body: Target, request: Request) -> Done:
    return await _sanction(request, body, "ban", lift=True)


@router.post("/api/admin/rename", response_model=Done, responses=ADMIN_REFUSALS)
async def rename(players: Players, sanctions: Sanctions, body: NewName, request: Request) -> Done:
    """Give a player another display name (an offensive one replaced), at their seats in
    play too."""
    _, named = await admin_asking(request)
    name = check_display_name(body.name)
    target = await _player_named(request, body.player)
    store = players
    await asyncio.to_thread(store.rename, target.id, name)
    seats = await asyncio.to_thread(store.open_seats, target.id)
    await request.app.state.tables.rename(target.id, name,
                                          sorted({seat["table"] for seat in seats}))
    await asyncio.to_thread(sanctions.record, named, "rename", target.id,
                            {"was": target.name, "now": name})
    return Done(done=True, target=target.id)


@router.post("/api/tables/{table_id}/close", response_model=Done, responses=ADMIN_REFUSALS)
async def close_table(sanctions: Sanctions, table_id: str, body: Closing, request: Request) -> Done:
    """End a table in play at once, unrated, keeping the reason; its sockets close."""
    _, named = await admin_asking(request)
    state = request.app.state
    tables, storage = state.tables, state.storage
    stored: StoredTable | None = await asyncio.to_thread(storage.load, table_id)
    if stored is None:
        raise Refused(f"there is no table {table_id[:64]!r}", 404, "not_found",
                      params={"table": table_id[:64]})
    if stored.row.status in (OVER, CLOSED):
        raise Refused("the table is not in play", 409, "conflict")
    await tables.close_table(table_id, f"closed by an admin: {body.reason}")
    await asyncio.to_thread(sanctions.record, named, "close_table", table_id,
                            {"reason": body.reason})
    return Done(done=True, target=table_id)


@router.get("/api/admin/reports", responses=ADMIN_REFUSALS)
async def reports(sanctions: Sanctions, request: Request,
                  status: Literal["open", "closed"] = "open",
                  limit: int = Query(50, ge=1, le=500)) -> list[dict[str, object]]:
    await admin_asking(request)
    found: list[dict[str, object]] = await asyncio.to_thread(sanctions.reports,
                                                          status, limit)
    return found


@router.post("/api/admin/reports/{report_id}/close", response_model=Done,
             responses=ADMIN_REFUSALS)
async def close_report(sanctions: Sanctions, request: Request,
                       report_id: int = Path(ge=1, le=2**31 - 1)) -> Done:
    _, named = await admin_asking(request)
    if not await asyncio.to_thread(sanctions.close_report, report_id, named):
        raise Refused("no such report", 404, "not_found")
    return Done(done=True, target=str(report_id))


@router.get("/api/admin/audit", responses=ADMIN_REFUSALS)
async def audit_log(sanctions: Sanctions, request: Request, limit: int = Query(100, ge=1, le=1000),
                    offset: int = Query(0, ge=0, le=1_000_000)) -> list[dict[str, object]]:
    """Every admin action, newest first."""
    await admin_asking(request)
    found: list[dict[str, object]] = await asyncio.to_thread(sanctions.audit_log,
                                                          limit, offset)
    return found


@router.get("/api/admin/farms", responses=ADMIN_REFUSALS)
async def suspected_farms(players: Players, request: Request,
                          limit: int = Query(100, ge=1, le=1000)) -> list[dict[str, object]]:
    """Suspected farms: accounts that signed in from one network (an IPv6 /64) or one
    browser, with how many games they finished together (most first).  Their games
    together are not rated (``unrated: related``); an admin decides whether to ban."""
    await admin_asking(request)
    found: list[dict[str, object]] = await asyncio.to_thread(players.farms, limit)
    return found
