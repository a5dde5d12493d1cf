"""Players among themselves over HTTP: challenges, follows and blocks, the inbox, and each
player's social settings (``play.challenges``, ``people.notices``, ``store.social``).

- ``POST /api/challenges`` (201), ``GET /api/challenges`` (mine, in and out),
  ``GET /api/challenges/{id}``, ``POST /api/challenges/{id}/accept`` (the table made, both
  seated), ``/decline``, ``/cancel``
- ``POST``/``DELETE /api/players/{name}/follow`` and ``/block``; ``GET /api/friends``
  (the players I follow: online, playing and where to watch), ``GET /api/blocks``;
  ``POST /api/players/{name}/invite`` (to a table: a notice with its link)
- ``GET /api/inbox`` (``after``: newer notices only; ``wait``: hold the answer up to that
  many seconds for one), ``POST /api/inbox/read``
- ``GET``/``POST /api/social/settings``: who may challenge me, where each kind of notice
  goes
- ``GET /api/your-move``: the games in play where it is my move

Each needs a signed-in account (401 ``not_signed_in``), except reading an open
challenge's link and the inbox (a guest has one: nothing is sent to it yet).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Literal
from urllib.parse import quote

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import RedirectResponse
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt

from ... import games
from ..core.errors import Refused
from ..core.vapid import browser_keys
from ..people.notices import CHANNELS, KINDS, MAX_WAIT
from ..people.push import allowed_endpoint
from ..play.guard import address_of
from ..store.players import Player
from ..store.social import SocialStore
from .accounts import current_player
from .deps import Live, answers
from .errors import Responses
from .schemas import DaysControl, TimeControl, whole_numbers
from .services import Players, Social, services_of

__all__ = ["router"]

router = APIRouter(tags=["players"])

ANSWERS: Responses = {**answers(404, 409, 422, 429, 503),
                      401: {"description": "this needs a signed-in account"},
                      403: {"description": "refused: a block, the player's setting, not "
                                           "yours, or a cross-site request"}}

NAME = Path(max_length=40, description="a player's username")
CHALLENGE = Path(max_length=16, description="a challenge's id")


# -- bodies ------------------------------------------------------------------------------------
class NewChallenge(BaseModel):
    """A challenge: to a player by name, or open (no ``to``: whoever has its link)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [
        {"to": "alice", "game": games.names()[-1], "players": 2, "clock": {"days": 3},
         "rated": False}]})

    to: str | None = Field(None, max_length=40, description="the challenged player's "
                           "username; none: an open challenge, accepted through its link")
    game: str = Field(max_length=32, description="a game name from GET /api/games")
    preset: str | None = Field(None, max_length=64)
    options: dict[str, object] = Field(default_factory=dict, description="rule options "
                                    "changed from the preset")
    players: StrictInt | None = Field(None, ge=2, le=16, description="seats at the table "
                                      "(more than two: the others free for its invite link)")
    _whole_numbers = whole_numbers("players")
    clock: TimeControl | DaysControl | None = Field(None, description="seconds a move and "
                                                    "a bank, or days a move; none: no clock")
    rated: StrictBool = False


class Challenge(BaseModel):
    id: str
    from_: str = Field(alias="from", description="the challenger's shown name")
    to: str | None = Field(description="the challenged player's shown name (none: open)")
    direction: Literal["in", "out"] = Field(description="out: I sent it; in: to me")
    game: str
    preset: str | None
    options: dict[str, object]
    players: int
    clock: dict[str, object] | None
    rated: bool
    status: str = Field(description="open, accepting, accepted, declined, cancelled or "
                        "expired")
    created: str
    expires: str
    table: str | None = Field(description="once accepted: the table it made")
    link: str = Field(description="the page that shows it (an open challenge's link to share)")

    model_config = ConfigDict(populate_by_name=True)


class Accepted(BaseModel):
    challenge: Challenge
    table: str
    seat: int = Field(description="your seat: connect with ?seat=N and your session")
    url: str


class Notice(BaseModel):
    id: int
    kind: str = Field(description=", ".join(KINDS))
    at: str
    data: dict[str, object]
    read: bool


class Inbox(BaseModel):
    notices: list[Notice] = Field(description="newest first")
    unread: int


class ReadUpTo(BaseModel):
    model_config = ConfigDict(extra="forbid")

    upto: StrictInt | None = Field(None, ge=0, le=2**62, description="mark notices with an "
                                   "id up to this one read; none: all of them")
    _whole_numbers = whole_numbers("upto")


class Read(BaseModel):
    read: int


class SocialSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    challenges: Literal["everyone", "followed", "nobody"] | None = Field(
        None, description="who may challenge me: everyone, only players I follow, nobody")
    routes: dict[Literal["challenge", "challenge_answer", "your_move", "tournament",
                         "friend_game", "invite"],
                 list[Literal["inbox", "email", "push"]]] | None = Field(
        None, description="for each kind of notice, where it goes: the inbox, the daily "
        "e-mail digest (to the account's e-mail address; at most a mail a day), Web Push "
        "(the browsers subscribed with POST /api/push/subscriptions), any of them, or "
        "nowhere (an empty list); a kind not named goes to the inbox")


class Followed(BaseModel):
    name: str
    username: str | None
    online: bool = Field(description="seen on the site in the last minute")
    playing: str | None = Field(description="a table they play at now")
    watch: str | None = Field(description="that table's page, to watch")


class Blocked(BaseModel):
    name: str
    username: str | None


class Changed(BaseModel):
    changed: bool = Field(description="false: it was already so")


# -- who asks ----------------------------------------------------------------------------------
async def _account(request: Request) -> Player:
    player = await current_player(request)
    if player is None or player.kind == "guest":
        raise Refused("sign in first", 401, "not_signed_in")
    return player


# -- challenges ---------------------------------------------------------------------------------
@router.post("/api/challenges", response_model=Challenge, status_code=201,
             responses=ANSWERS, response_model_by_alias=True)
async def challenge(body: NewChallenge, request: Request) -> dict[str, object]:
    """Challenge a player by name (or make an open challenge, accepted through its link)."""
    player = await _account(request)
    challenges = services_of(request).challenges
    row = await challenges.create(
        player, body.to, game=body.game, preset=body.preset, options=body.options,
        players=body.players,
        clock=None if body.clock is None else body.clock.model_dump(), rated=body.rated)
    return await challenges.view(row, player)


@router.get("/api/challenges", response_model=list[Challenge], responses=ANSWERS,
            response_model_by_alias=True)
async def my_challenges(request: Request) -> list[dict[str, object]]:
    """My challenges, sent and received, newest first."""
    player = await _account(request)
    return await services_of(request).challenges.of(player)


@router.get("/api/challenges/{challenge_id}", response_model=Challenge, responses=ANSWERS,
            response_model_by_alias=True)
async def one_challenge(request: Request,
                        challenge_id: str = CHALLENGE) -> dict[str, object]:
    """One challenge: its two players see theirs, anyone an open one (its link)."""
    challenges = services_of(request).challenges
    row = await challenges.find(challenge_id)
    player = await current_player(request)
    mine = player is not None and player.id in (row.from_id, row.to_id)
    if row.to_id is not None and not mine:
        raise Refused("there is no such challenge", 404, "no_challenge")
    return await challenges.view(row, player)


@router.post("/api/challenges/{challenge_id}/accept", response_model=Accepted,
             responses=ANSWERS, response_model_by_alias=True)
async def accept(request: Request, challenge_id: str = CHALLENGE) -> dict[str, object]:
    """Accept: the table is made and both players seated (it is in GET /api/me's seats)."""
    player = await _account(request)
    challenges = services_of(request).challenges
    row, table, seat = await challenges.accept(player, challenge_id, address_of(request))
    return {"challenge": await challenges.view(row, player), "table": table, "seat": seat,
            "url": f"/table/{table}"}


@router.post("/api/challenges/{challenge_id}/decline", response_model=Challenge,
             responses=ANSWERS, response_model_by_alias=True)
async def decline(request: Request, challenge_id: str = CHALLENGE) -> dict[str, object]:
    player = await _account(request)
    challenges = services_of(request).challenges
    return await challenges.view(await challenges.decline(player, challenge_id), player)


@router.post("/api/challenges/{challenge_id}/cancel", response_model=Challenge,
             responses=ANSWERS, response_model_by_alias=True)
async def cancel(request: Request, challenge_id: str = CHALLENGE) -> dict[str, object]:
    player = await _account(request)
    challenges = services_of(request).challenges
    return await challenges.view(await challenges.cancel(player, challenge_id), player)


# -- follows and blocks -------------------------------------------------------------------------
async def _pair(request: Request, players: Players, social: Social, name: str, what: str,
                on: bool) -> Changed:
    player = await _account(request)
    other = await asyncio.to_thread(players.by_username, name.strip())
    if other is None or other.kind == "guest":
        raise Refused(f"there is no player named {name[:40]!r}", 404, "no_player")
    if other.id == player.id:
        raise Refused(f"you cannot {what} yourself", 422, "not_yourself")
    method = social.follow if what == "follow" else social.block
    changed = await asyncio.to_thread(method, player.id, other.id, on)
    return Changed(changed=changed)


@router.post("/api/players/{name}/follow", response_model=Changed, responses=ANSWERS)
async def follow(request: Request, players: Players, social: Social,
                 name: str = NAME) -> Changed:
    """Follow a player: see when they are online or playing (``GET /api/friends``)."""
    return await _pair(request, players, social, name, "follow", True)


@router.delete("/api/players/{name}/follow", response_model=Changed, responses=ANSWERS)
async def unfollow(request: Request, players: Players, social: Social,
                   name: str = NAME) -> Changed:
    return await _pair(request, players, social, name, "follow", False)


@router.post("/api/players/{name}/block", response_model=Changed, responses=ANSWERS)
async def block(request: Request, players: Players, social: Social,
                name: str = NAME) -> Changed:
    """Block a player: no challenge, chat or quick-play pairing between you."""
    return await _pair(request, players, social, name, "block", True)


@router.delete("/api/players/{name}/block", response_model=Changed, responses=ANSWERS)
async def unblock(request: Request, players: Players, social: Social,
                  name: str = NAME) -> Changed:
    return await _pair(request, players, social, name, "block", False)


class Invitation(BaseModel):
    model_config = ConfigDict(extra="forbid")

    table: str = Field(max_length=32, description="the table to invite them to")


class Sent(BaseModel):
    sent: bool


@router.post("/api/players/{name}/invite", response_model=Sent, responses=ANSWERS)
async def invite(body: Invitation, request: Request, players: Players, social: Social,
                 tables: Live, name: str = NAME) -> Sent:
    """Invite a player to a table in play or waiting for players: a notice in their inbox
    with its link (not to or from a player either blocks; at the challenges' rate)."""
    player = await _account(request)
    other = await asyncio.to_thread(players.by_username, name.strip())
    if other is None or other.kind == "guest":
        raise Refused(f"there is no player named {name[:40]!r}", 404, "no_player")
    if other.id == player.id:
        raise Refused("you cannot invite yourself", 422, "not_yourself")
    if await asyncio.to_thread(social.blocks_between, player.id, other.id):
        raise Refused("you cannot invite this player", 403, "player_blocked")
    table = await tables.snapshot(body.table)
    if table is None:
        raise Refused(f"there is no table {body.table[:40]!r}", 404, "not_found",
                      params={"table": body.table[:40]})
    if table.over:
        raise Refused("this game is over", 409, "game_over")
    settings = request.app.state.settings
    await services_of(request).limiter.hit(settings.challenges_per_account, "challenge",
                                           player.id)
    notice = await services_of(request).notices.notify(other.id, "invite", {
        "from": player.name, "table": table.id, "game": table.game,
        "url": f"/table/{table.id}"})
    return Sent(sent=notice is not None)


@router.get("/api/friends", response_model=list[Followed], responses=ANSWERS)
async def friends(request: Request, social: Social) -> list[Followed]:
    """The players I follow, by name: online (seen in the last minute), and the table
    each plays at now (to watch)."""
    player = await _account(request)
    followed = await asyncio.to_thread(social.following, player.id)
    ids = [row[0] for row in followed]
    playing = await asyncio.to_thread(social.playing, ids)
    online = await services_of(request).notices.online(ids)
    out = []
    for found, name, username in followed:
        table = playing.get(found)
        out.append(Followed(name=name, username=username,
                            online=found in online or table is not None,
                            playing=table, watch=None if table is None else f"/table/{table}"))
    return out


# -- Web Push ------------------------------------------------------------------------------------
class PushKey(BaseModel):
    key: str | None = Field(description="the server's VAPID public key (base64url) a page "
                            "subscribes with; null: this server sends no Web Push")
    reason: str | None = Field(None, description="when there is no key: why (the setting "
                               "the operator has not set)")


class PushKeys(BaseModel):
    model_config = ConfigDict(extra="ignore")

    p256dh: str = Field(min_length=1, max_length=200, pattern=r"^[A-Za-z0-9_=-]+$")
    auth: str = Field(min_length=1, max_length=100, pattern=r"^[A-Za-z0-9_=-]+$")


class PushSubscription(BaseModel):
    """A browser's subscription as ``PushSubscription.toJSON()`` gives it."""

    model_config = ConfigDict(extra="ignore")

    endpoint: str = Field(min_length=1, max_length=1000)
    keys: PushKeys


class PushEndpoint(BaseModel):
    model_config = ConfigDict(extra="forbid")

    endpoint: str = Field(min_length=1, max_length=1000)


@router.get("/api/push/key", response_model=PushKey, responses=ANSWERS)
async def push_key(request: Request) -> PushKey:
    """The key a page subscribes its browser with (``null``: no Web Push here)."""
    settings = request.app.state.settings
    if services_of(request).notices.pushes is None:
        return PushKey(key=None, reason=settings.push_off or "Web Push is off")
    return PushKey(key=settings.vapid_public(), reason=None)


@router.post("/api/push/subscriptions", response_model=Changed, status_code=201,
             responses=ANSWERS)
async def push_subscribe(request: Request, social: Social,
                         body: PushSubscription) -> Changed:
    """Keep this browser's subscription: the kinds I route to ``push`` come to it."""
    player = await _account(request)
    settings = request.app.state.settings
    if services_of(request).notices.pushes is None:
        raise Refused(f"this server sends no Web Push: {settings.push_off}", 409, "push_off")
    if not allowed_endpoint(body.endpoint, settings.push_services):
        raise Refused("this push service is not one the server posts to", 422,
                      "push_not_allowed")
    if not browser_keys(body.keys.p256dh, body.keys.auth):
        raise Refused("the subscription's keys are not a P-256 point and a 16-byte "
                      "secret (base64url)", 422, "bad_push_keys")
    await asyncio.to_thread(social.add_push, player.id, body.endpoint, body.keys.p256dh,
                            body.keys.auth)
    return Changed(changed=True)


@router.delete("/api/push/subscriptions", response_model=Changed, responses=ANSWERS)
async def push_unsubscribe(request: Request, social: Social, body: PushEndpoint) -> Changed:
    """Forget this browser's subscription (mine only)."""
    player = await _account(request)
    return Changed(changed=await asyncio.to_thread(social.remove_push, body.endpoint,
                                                   player.id))


@router.get("/api/blocks", response_model=list[Blocked], responses=ANSWERS)
async def blocks(request: Request, social: Social) -> list[Blocked]:
    player = await _account(request)
    return [Blocked(name=name, username=username)
            for _, name, username in await asyncio.to_thread(social.blocked, player.id)]


# -- games that wait for me -------------------------------------------------------------------
class YourMove(BaseModel):
    table: str
    seat: int
    game: str
    clock: Mapping[str, object] | None = Field(description="the table's time control (days: "
                                            "a correspondence game)")
    left: float | None = Field(description="seconds left for this move, if it has a clock")
    url: str


@router.get("/api/your-move", response_model=list[YourMove], responses=ANSWERS)
async def your_move(request: Request, players: Players, tables: Live) -> list[YourMove]:
    """The games in play where it is my move (the latest 50 tables I sit at)."""
    player = await current_player(request)
    if player is None:
        return []
    out = []
    for held in await asyncio.to_thread(players.open_seats, player.id):
        table = await tables.snapshot(held["table"])
        if (table is None or table.over or table.status != "playing"
                or table.state.to_move != held["seat"]):
            continue
        life = table.life
        view = None if life is None else life.view(life.clock.time())
        out.append(YourMove(table=table.id, seat=held["seat"], game=table.game,
                            clock=None if life is None else life.time_control(),
                            left=None if view is None or view.seat != held["seat"]
                            else (view.move_left or 0.0) + (view.bank_left or 0.0),
                            url=f"/table/{table.id}"))
    return out


# -- the inbox ----------------------------------------------------------------------------------
@router.get("/api/inbox", response_model=Inbox, responses=ANSWERS)
async def inbox(request: Request, social: Social,
                after: int = Query(0, ge=0, le=2**62, description="only notices with a "
                                   "larger id"),
                limit: int = Query(50, ge=1, le=200),
                wait: float = Query(0, ge=0, le=MAX_WAIT, description="seconds to hold "
                                    "the answer for a new notice (none yet)")) -> Inbox:
    """My notices, newest first, and how many are unread; with ``wait``, the answer
    comes as soon as a notice does (a page keeps one such question open)."""
    player = await current_player(request)
    if player is None:
        return Inbox(notices=[], unread=0)
    notices = services_of(request).notices
    found = await notices.wait(player.id, after, limit, wait)
    if notices.closed:   # the server is stopping: its database threads are ending
        raise Refused("the server is restarting: ask again in a moment", 503, "unavailable",
                      retry_after=5)
    unread = await asyncio.to_thread(social.unread, player.id)
    return Inbox(notices=[Notice(**notice) for notice in found], unread=unread)


@router.post("/api/inbox/read", response_model=Read, responses=ANSWERS)
async def inbox_read(request: Request, social: Social, body: ReadUpTo | None = None) -> Read:
    """Mark my notices read (up to ``upto``; none: all)."""
    player = await current_player(request)
    if player is None:
        return Read(read=0)
    upto = None if body is None else body.upto
    return Read(read=await asyncio.to_thread(social.mark_read, player.id, upto))


class Unsubscribed(BaseModel):
    unsubscribed: bool = Field(description="false: no kind went to e-mail already")


async def _unsubscribe(request: Request, social: SocialStore, token: str) -> Unsubscribed:
    player_id = services_of(request).digests.player_of(token)
    if player_id is None:
        raise Refused("this unsubscribe link is not one of ours", 404, "bad_link")
    return Unsubscribed(unsubscribed=await asyncio.to_thread(social.unsubscribe, player_id))


@router.get("/api/social/unsubscribe", response_class=RedirectResponse, status_code=303,
            responses={303: {"description": "to the page that asks to confirm"},
                       **answers(422)})
async def unsubscribe(token: str = Query(max_length=200)) -> RedirectResponse:
    """The digest's link, opened: changes nothing (a mail scanner opens links unasked),
    and sends the reader to the page that asks them to confirm (``/#unsubscribe=T``)."""
    return RedirectResponse(f"/#unsubscribe={quote(token, safe='')}", status_code=303)


@router.post("/api/social/unsubscribe", response_model=Unsubscribed, responses=ANSWERS)
async def unsubscribe_post(request: Request, social: Social,
                           token: str = Query(max_length=200)) -> Unsubscribed:
    """No kind of notice goes to e-mail any more: the confirm page's button, and the
    mail reader's own one-click button (RFC 8058: ``List-Unsubscribe-Post``, a POST whose
    body, ``List-Unsubscribe=One-Click``, is not read)."""
    return await _unsubscribe(request, social, token)


# -- settings ------------------------------------------------------------------------------------
@router.get("/api/social/settings", response_model=SocialSettings, responses=ANSWERS)
async def social_settings(request: Request, social: Social) -> SocialSettings:
    """Who may challenge me, and where each kind of notice goes."""
    player = await _account(request)
    who, routes = await asyncio.to_thread(social.settings, player.id)
    return SocialSettings.model_validate(
        {"challenges": who, "routes": {kind: routes.get(kind, list(CHANNELS))
                                       for kind in KINDS}})


@router.post("/api/social/settings", response_model=SocialSettings, responses=ANSWERS)
async def change_social_settings(body: SocialSettings, request: Request,
                                 social: Social) -> SocialSettings:
    """Change who may challenge me (``challenges``) and where notices go (``routes``:
    the kinds named change, the others stay)."""
    player = await _account(request)
    routes: dict[str, object] | None = (None if body.routes is None else
                                        {k: sorted(set(v)) for k, v in body.routes.items()})
    who, kept = await asyncio.to_thread(social.set_settings, player.id, body.challenges, routes)
    return SocialSettings.model_validate(
        {"challenges": who, "routes": {kind: kept.get(kind, list(CHANNELS)) for kind in KINDS}})

