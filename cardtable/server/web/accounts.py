"""Who is asking: sessions, sign-in, API tokens and the safety of cookie requests.

- The session is a cookie signed with itsdangerous (the key made once and shared by every
  process through the database), HttpOnly, SameSite=Lax, Secure when served over HTTPS;
  it holds only the player's id.
- Programs send ``Authorization: Bearer TOKEN`` (an account's API token) instead; they need
  no cookie, so the cross-site check does not concern them.
- A state-changing request that carries the session cookie must come from this site: an
  ``Origin`` (or, without one, a ``Referer``) naming another host is refused (403
  ``cross_site``).  Browsers send ``Origin`` on every cross-site POST.
- Sign-in attempts are counted per address and per (username, address), never per
  username alone, so nobody can lock an owner out by failing to sign in as them from
  elsewhere (the ``limits`` library, in the storage the server's other rates use).  Past a
  rate, that address (or that pair) alone is told to wait: 429 ``sign_in_throttled`` with
  ``Retry-After``.  A browser that has signed in to the account before carries a signed
  "known device" cookie naming it; its sign-ins to that account skip those counts and are
  counted apart under a generous rate of their own, as are those of a session already
  signed in to it.  A wrong password and an unknown user get the same answer.  Passwords
  are hashed with argon2id and never logged; common ones are refused (``passwords``).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import secrets
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar, TypeVarTuple
from urllib.parse import urlsplit

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import APIRouter, Request, Response, WebSocket
from fastapi.responses import JSONResponse
from itsdangerous import BadSignature, URLSafeTimedSerializer
from pydantic import BaseModel, ConfigDict, Field
from starlette.middleware.base import RequestResponseEndpoint

from ..core.bounds import PlayerLimits
from ..core.errors import Refused
from ..people.names import username_key
from ..people.players import USERNAME, check_display_name, check_password, check_username
from ..people.words import offending
from ..play.guard import Limiter, address_of, network_of
from ..store.players import OpenSeat, Player, PlayerStore
from .errors import Responses
from .services import Attempts, Players, Sanctions, services_of
from .signin_gate import gate
from .spec import Name, NewPassword, Username

__all__ = ["COOKIE", "DEVICE", "ApiToken", "PlayerLimits", "check_shown_name", "check_words",
           "close_sockets", "current_player", "hash_password", "hashing", "key_may_play",
           "limiter_of", "limits_of", "page_language", "player_or_guest", "same_site_only",
           "session_of",
           "store_of", "verify_password"]

_T = TypeVar("_T")
_Ts = TypeVarTuple("_Ts")

COOKIE = "cardtable_session"
DEVICE = "cardtable_device"
"""The known-device cookie: the account this browser last signed in to, signed; sent to
the sign-in endpoint alone."""
DEVICE_PATH = "/api/account/login"
SESSION_AGE = 400 * 24 * 3600
"""Seconds a session cookie is good for (browsers keep a cookie at most 400 days)."""
MAX_BEARER = 80
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
BAD_CREDENTIALS = "wrong username or password"

_hasher = PasswordHasher()   # argon2id, the library's recommended cost
_DUMMY = _hasher.hash("a password nobody has, so an unknown user costs a hash too")
PASSWORD_SLOTS = 1
"""argon2 computations at once: one hash already uses every core (its four lanes run in
threads of their own), so a second at once only makes both slower, and the owner, who
goes first in the queue, waits for one hash instead of two."""
_PASSWORD_THREADS = ThreadPoolExecutor(PASSWORD_SLOTS, thread_name_prefix="cardtable-passwords")
"""Where every argon2 hash and check runs: never in the storage's threads (the loop's
default executor), so a flood of wrong passwords queues here and every database call
(the health probe's, a move's) still finds a thread."""


async def hashing(work: Callable[[*_Ts], _T], *args: *_Ts, known: bool = True,
                  network: str = "") -> _T:
    """Run a password's hash or check in the passwords' own threads, in its turn
    (``signin_gate``): ``known`` false for a stranger's sign-in or registration, which
    waits behind every known device and may be refused when too many wait (429)."""
    return await gate(_PASSWORD_THREADS, PASSWORD_SLOTS).run(work, *args, known=known,
                                                              network=network)


def store_of(connection: Request | WebSocket) -> PlayerStore:
    """The players' store (built with the app's services)."""
    return services_of(connection).players


def limits_of(connection: Request | WebSocket) -> PlayerLimits:
    """The server's one ``PlayerLimits``: a field of its settings (``settings.ServerSettings``)."""
    limits: PlayerLimits = connection.app.state.tables.settings
    return limits


async def _serializer(connection: Request | WebSocket,
                      purpose: str = "session") -> URLSafeTimedSerializer:
    """The signer of the session cookie, or (``"device"``) of the known-device one: one
    key, a salt for each, so neither cookie passes for the other."""
    return services_of(connection).cookies[purpose]


async def current_player(connection: Request | WebSocket) -> Player | None:
    """The player a request or WebSocket comes from: an API token's account, or the
    session cookie's player; ``None`` for neither (or one that is not valid)."""
    store = store_of(connection)
    bearer = connection.headers.get("authorization", "")
    if bearer[:7].lower() == "bearer ":
        token = bearer[7:].strip()
        if not token or len(token) > MAX_BEARER:
            return None
        return await asyncio.to_thread(store.by_api_token, token)
    session_id = await _session_id(connection)
    if session_id is None:
        return None
    return await asyncio.to_thread(store.by_session, session_id)


async def key_may_play(connection: Request | WebSocket, player_id: str | None,
                       kind: str | None) -> bool:
    """Whether a seat key may play its seat from this connection.  A key of an account's
    seat needs that account signed in here: a key left in a shared browser after signing
    out must not let the next person play or resign the account's games.  A guest's key
    plays as before, and a program's (a bot account's) while its account lives: a deleted
    account's keys are dead (``control``).  Raises ``StorageUnavailable``."""
    if player_id is None:
        return True
    if kind == "bot":   # a program's seat: dead once its account is deleted
        holder = await asyncio.to_thread(store_of(connection).get, player_id)
        return holder is None or holder.kind == "bot"
    player = None if cross_site(connection) else await current_player(connection)
    if player is not None and player.id == player_id:
        return True
    if kind == "account":
        return False
    # a guest's seat: the guest may have become an account since (registering)
    holder = await asyncio.to_thread(store_of(connection).get, player_id)
    return holder is None or holder.kind not in ("account", "deleted")


async def _session_id(connection: Request | WebSocket) -> str | None:
    """The session id the cookie carries, if its signature holds."""
    cookie = connection.cookies.get(COOKIE)
    if not cookie or len(cookie) > 400:
        return None
    serializer = await _serializer(connection)
    try:
        session_id = serializer.loads(cookie, max_age=SESSION_AGE)
    except BadSignature:
        return None
    return session_id if isinstance(session_id, str) and len(session_id) <= 64 else None


async def _set_cookie(request: Request, response: Response, session_id: str) -> None:
    serializer = await _serializer(request)
    response.set_cookie(COOKIE, serializer.dumps(session_id), max_age=SESSION_AGE,
                        httponly=True, samesite="lax", path="/",
                        secure=request.url.scheme == "https")


async def _sign_in(request: Request, response: Response, player: Player) -> None:
    """A new session for ``player`` (the browser's old one ends), and the known-device
    cookie that lets this browser past the per-address counts of sign-in next time."""
    session_id = secrets.token_urlsafe(24)
    await asyncio.to_thread(store_of(request).start_session, player.id, session_id,
                            await _session_id(request))
    await _set_cookie(request, response, session_id)
    if player.username:
        device = await _serializer(request, "device")
        response.set_cookie(DEVICE, device.dumps(player.username.lower()),
                            max_age=SESSION_AGE, httponly=True, samesite="strict",
                            path=DEVICE_PATH, secure=request.url.scheme == "https")


PAGE_LANGUAGES = ("en", "pt", "fa", "ru")
"""The languages the page speaks (static/js/lang/)."""


def page_language(request: Request) -> str:
    """The first of the page's languages in the request's ``Accept-Language`` (the page
    sends its own language there), else English; quality weights are read, anything
    malformed skipped."""
    ranked = []
    for order, part in enumerate(request.headers.get("accept-language", "")[:200].split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                continue
        primary = tag.strip().split("-")[0].lower()
        if primary in PAGE_LANGUAGES:
            ranked.append((-quality, order, primary))
    return min(ranked)[2] if ranked else "en"


async def player_or_guest(request: Request, response: Response) -> Player:
    """The player asking; on a first visit, a new guest with a friendly random name (and
    the cookie that keeps them)."""
    player = await current_player(request)
    if player is None:
        await limiter_of(request).hit(limits_of(request).guests_per_address, "guest",
                                    address_of(request))
        session_id = secrets.token_urlsafe(24)
        player = await asyncio.to_thread(store_of(request).new_guest, session_id,
                                         page_language(request))
        await _set_cookie(request, response, session_id)
    return player


async def check_shown_name(connection: Request | WebSocket, text: object,
                           player: Player | None = None) -> str:
    """A name to show for ``player`` (``None``: a seat taken without a session), kept by the
    one rule (``names.shown_name``), that is not another account's username in any case or
    width: a guest called ``darya`` beside the account ``Darya`` would pass for them; nor
    looks like one or like another account's display name (the same confusable skeleton,
    UTS #39: ``сосо`` in Cyrillic beside the account ``coco``, ``rnary`` beside ``mary``:
    ``name_confusable``).

    ``Refused`` (422) with the rule's code, or ``name_taken``."""
    name = check_words(connection, check_display_name(text), "name_word")
    key = username_key(name)
    own = player is not None and (player.username or "").lower() == key
    if (USERNAME.fullmatch(key) and not own
            and await asyncio.to_thread(store_of(connection).by_username, key) is not None):
        raise Refused("that name is an account's username: choose another", 422,
                      "name_taken")
    alike = await asyncio.to_thread(store_of(connection).by_skeleton, name,
                                    player.id if player is not None else None)
    if alike is not None:
        raise Refused(f"that name looks just like the player {alike.like(name)!r} (letters of "
                      "another alphabet, or signs that look the same, count as the same): "
                      "choose another", 422, "name_confusable")
    return name


def cross_site(request: Request | WebSocket) -> bool:
    """A request from a page of another site: its ``Origin`` (or ``Referer``) names
    another host than the one it was sent to."""
    source = request.headers.get("origin") or request.headers.get("referer")
    if not source:
        return False   # not a browser, or a same-origin request of an old one
    if source == "null":
        return True
    return urlsplit(source).netloc.lower() != request.headers.get("host", "").lower()


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid")   # a field the API does not read is refused

    username: str = Field(max_length=64)
    password: str = Field(max_length=1024)


class NewAccount(BaseModel):
    model_config = ConfigDict(extra="forbid")   # a field the API does not read is refused

    username: Username
    password: NewPassword


class NewName(BaseModel):
    name: Name


class Me(BaseModel):
    id: str
    name: str
    kind: str
    username: str | None
    seats: list[OpenSeat] = []
    """The player's seats at tables still in play: connect with ``?seat=N`` and the
    session (or a bot's API token) to come back from any device."""


class ApiToken(BaseModel):
    token: str


def limiter_of(connection: Request | WebSocket) -> Limiter:
    """The sign-in attempts' limiter (built with the app's services)."""
    return services_of(connection).limiter


def _me(player: Player, seats: list[OpenSeat] | None = None) -> Me:
    return Me(id=player.id, name=player.name, kind=player.kind, username=player.username,
              seats=seats or [])


async def same_site_only(request: Request, call_next: RequestResponseEndpoint) -> Response:
    """The cross-site check: a state-changing request carrying the session cookie from
    another site's page is refused (403 ``cross_site``)."""
    if (request.method not in SAFE_METHODS and COOKIE in request.cookies
            and cross_site(request)):
        return JSONResponse(status_code=403, content={
            "detail": "this request came from another site's page and carries your "
                      "session: refused", "code": "cross_site"})
    return await call_next(request)


router = APIRouter()
REFUSALS: Responses = {
    code: {"description": text} for code, text in (
        (401, "not signed in, or a wrong username or password"),
        (403, "a cross-site request carrying the session"),
        (409, "taken, or not now"), (422, "the request cannot be read or is not allowed"),
        (429, "too many attempts: see Retry-After"))}


@router.post("/api/account/register", response_model=Me, status_code=201, responses=REFUSALS)
async def register(players: Players, limiter: Attempts, body: NewAccount, request: Request,
                   response: Response) -> Me:
    """An account; a guest who registers keeps their id, seats and games."""
    username = check_words(request, check_username(body.username), "name_word")
    check_password(body.password, username)
    player = await current_player(request)
    if player is not None and player.kind != "guest":
        raise Refused("you are signed in: sign out first to make another account", 409,
                      "signed_in")
    await limiter.hit(limits_of(request).register_per_address, "register",
                                address_of(request))
    digest = await hashing(_hasher.hash, body.password, known=False,
                           network=network_of(address_of(request), ipv6_prefix=48))
    account = await asyncio.to_thread(players.register,
                                      player.id if player else None, username, digest)
    await _note_origins(request, account)
    await _sign_in(request, response, account)
    return _me(account)


@router.post("/api/account/login", response_model=Me, responses=REFUSALS)
async def login(players: Players, sanctions: Sanctions, limiter: Attempts, body: Credentials,
                request: Request, response: Response) -> Me:
    """Sign in.  Attempts are counted per address and per (account, address), or, from a
    browser known to the account, apart under ``login_known_device``.  A guest who signs
    in brings their games to the account (``PlayerStore.merge_guest``)."""
    limits, limiter = limits_of(request), limiter
    address, key = address_of(request), body.username.lower()
    known = await _known(request, key)
    if known:
        await limiter.hit(limits.login_known_device, "login-known", address,
                          code="sign_in_throttled")
    else:
        await limiter.hit(limits.login_per_address, "login-address", address,
                          code="sign_in_throttled")
        await limiter.hit(limits.login_per_account_address, "login-pair", key, address,
                          code="sign_in_throttled")
    row = await asyncio.to_thread(players.by_username, body.username)
    digest = row.password_hash if row is not None and row.password_hash else _DUMMY
    if not await hashing(_verify, digest, body.password, known=known,
                         network=network_of(address, ipv6_prefix=48)) or row is None:
        raise Refused(BAD_CREDENTIALS, 401, "bad_credentials")
    ban = await asyncio.to_thread(sanctions.in_force, "ban", row.id)
    if ban is not None:   # told only to who knows the password
        raise Refused(f"this account is banned: {ban.reason}", 403, "banned",
                      params={"until": ban.until.isoformat() if ban.until else None})
    if _hasher.check_needs_rehash(digest):
        new = await hashing(_hasher.hash, body.password)
        await asyncio.to_thread(players.set_password_hash, row.id, new)
    player = row.player()
    await _bring_guest(request, player)
    await _note_origins(request, player)
    await _sign_in(request, response, player)
    seats = await asyncio.to_thread(players.open_seats, player.id)
    return _me(player, seats)


async def _note_origins(request: Request, account: Player) -> None:
    """Remember the network (an IPv6 /64) and the browser ``account`` signs in from: the
    accounts its known-device cookie named before (``players.OriginRow``); accounts that
    share one are related, and their games together are not rated.  A loopback address
    is the machine's own (a proxy not trusted, a test): not a network of the player's."""
    origins = [("browser", (account.username or account.id).lower())]
    address = address_of(request)
    with contextlib.suppress(ValueError):
        if not ipaddress.ip_address(address).is_loopback:
            origins.append(("network", network_of(address)))
    cookie = request.cookies.get(DEVICE)
    if cookie and len(cookie) <= 200:
        with contextlib.suppress(BadSignature):
            named = (await _serializer(request, "device")).loads(cookie, max_age=SESSION_AGE)
            if isinstance(named, str) and named:
                origins.append(("browser", named.lower()))
    await asyncio.to_thread(store_of(request).note_origins, account.id, origins)


async def _bring_guest(request: Request, account: Player) -> None:
    """The guest signing in (if a guest is) hands their games to ``account``: in the
    database at once, then at the live tables through their dealers (``Rename``), here or
    in the process that plays them."""
    guest = await current_player(request)
    if guest is None or guest.kind != "guest" or guest.id == account.id:
        return
    moved = await asyncio.to_thread(store_of(request).merge_guest, guest.id, account.id)
    await request.app.state.tables.rename(guest.id, account.name, moved, becomes=account.id)


async def _known(request: Request, key: str) -> bool:
    """Whether this browser is known to the account ``key`` names (lower case): it carries
    that account's known-device cookie, or a session signed in to it."""
    cookie = request.cookies.get(DEVICE)
    if cookie and len(cookie) <= 200:
        try:
            named = (await _serializer(request, "device")).loads(cookie, max_age=SESSION_AGE)
        except BadSignature:
            named = None
        if named == key:
            return True
    player = await current_player(request)
    return player is not None and (player.username or "").lower() == key


def _verify(digest: str, password: str) -> bool:
    try:
        return _hasher.verify(digest, password)
    except (VerificationError, InvalidHashError):
        return False


@router.post("/api/account/logout", responses=REFUSALS)
async def logout(players: Players, request: Request, response: Response) -> dict[str, bool]:
    """End this browser's session (in the database too: a copy of the cookie is dead)."""
    session_id = await _session_id(request)
    if session_id is not None:
        await asyncio.to_thread(players.end_session, session_id)
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")
    return {"signed_out": True}


@router.get("/api/me", response_model=Me, responses={429: REFUSALS[429]})
async def me(players: Players, request: Request, response: Response) -> Me:
    """Who you are (a first visit makes you a guest) and your seats in play."""
    player = await player_or_guest(request, response)
    seats = await asyncio.to_thread(players.open_seats, player.id)
    return _me(player, seats)


@router.post("/api/me/name", response_model=Me, responses=REFUSALS)
async def rename(players: Players, body: NewName, request: Request, response: Response) -> Me:
    """Change your display name (shown at your seats; escaped, at most 24 characters)."""
    check_display_name(body.name)   # refused before a first visit makes a guest
    player = await player_or_guest(request, response)
    name = await check_shown_name(request, body.name, player)
    renamed = await asyncio.to_thread(players.rename, player.id, name)
    seats = await asyncio.to_thread(players.open_seats, player.id)
    # the seats in play, in whichever process plays their table
    await request.app.state.tables.rename(player.id, name,
                                          sorted({seat["table"] for seat in seats}))
    return _me(renamed or player)


async def _account(request: Request) -> Player:
    player = await current_player(request)
    if player is None or player.kind == "guest":
        raise Refused("sign in to an account first", 401, "not_signed_in")
    return player


@router.delete("/api/account/tokens", responses=REFUSALS)
async def revoke_tokens(players: Players, request: Request) -> dict[str, int]:
    player = await _account(request)
    return {"revoked": await asyncio.to_thread(players.revoke_api_tokens, player.id)}


# -- what account control (``control``, ``mail``, ``moderation``) uses of the above -------
def check_words(connection: Request | WebSocket, text: str, code: str) -> str:
    """``text`` if it holds no word of the list (``words``), else ``Refused`` 422."""
    word = offending(text, connection.app.state.settings.word_list, name=True)
    if word is not None:
        raise Refused("that name holds a word this site does not allow", 422, code)
    return text


async def close_sockets(request: Request, player_id: str, reason: str) -> None:
    """Every session of ``player_id`` ended: close their open sockets, in every process
    (``Tables.sign_off``)."""
    await request.app.state.tables.sign_off(player_id, reason)


def hash_password(password: str) -> str:
    """An argon2id hash of ``password`` (the module's hasher, looked up at each call)."""
    return _hasher.hash(password)


verify_password = _verify
session_of = _session_id
