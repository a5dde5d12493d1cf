"""An account in its owner's hands over HTTP: change password, sign out everywhere,
delete, export, and an API token for a program (what each does: ``store.control``).

Whatever proves the password (a change, a reset) or ends the sessions revokes the
account's API tokens too, and a token is minted only with the password: a stolen session
cookie or token outlives neither recovery nor the owner's "sign out everywhere"."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from ..core.errors import Refused
from ..people.players import check_password
from ..play.guard import address_of
from ..store.control import ControlStore
from ..store.players import (
    Player,
)
from .accounts import (
    COOKIE,
    DEVICE,
    DEVICE_PATH,
    REFUSALS,
    ApiToken,
    close_sockets,
    current_player,
    hash_password,
    hashing,
    limiter_of,
    limits_of,
    session_of,
    verify_password,
)
from .services import Control, Players, services_of
from .spec import NewPassword

__all__ = ["account_asking", "check_current_password", "control_of", "router"]


# -- the endpoints ----------------------------------------------------------------------------
router = APIRouter()


class PasswordChange(BaseModel):
    password: str = Field(max_length=1024, description="the current password")
    new_password: NewPassword


class PasswordOnly(BaseModel):
    password: str = Field(max_length=1024)


class Ended(BaseModel):
    ended: int = Field(description="how many other sessions ended")
    revoked: int = Field(0, description="how many API tokens were revoked")


class Deleted(BaseModel):
    deleted: bool
    name: str = Field(description="the name the account's past seats show now")


def control_of(request: Request) -> ControlStore:
    return services_of(request).control


async def account_asking(request: Request) -> Player:
    """The signed-in account (not a guest); ``Refused`` 401 ``not_signed_in``."""
    player = await current_player(request)
    if player is None or player.kind not in ("account", "bot"):
        raise Refused("sign in to an account first", 401, "not_signed_in")
    return player


async def check_current_password(request: Request, player: Player, password: str) -> None:
    """The account's current password, or 401 ``bad_credentials`` (the sign-in's answer);
    tries count as sign-ins to the account from this address (a stolen session is no
    password oracle)."""
    await limiter_of(request).hit(request.app.state.settings.login_per_account_address,
                                  "login-pair", (player.username or player.id).lower(),
                                  address_of(request), code="sign_in_throttled")
    digest = await asyncio.to_thread(control_of(request).password_hash, player.id)
    if not digest or not await hashing(verify_password, digest, password):
        raise Refused("wrong password", 401, "bad_credentials")


def _signed_out(response: Response, *, forget_device: bool = False) -> None:
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")
    if forget_device:   # the account is gone: the browser knows it no more
        response.delete_cookie(DEVICE, path=DEVICE_PATH, httponly=True, samesite="strict")


@router.post("/api/account/password", response_model=Ended, responses=REFUSALS)
async def change_password(control: Control, body: PasswordChange, request: Request) -> Ended:
    """A new password (the current one first); the account's other sessions end."""
    player = await account_asking(request)
    check_password(body.new_password, player.username)
    await check_current_password(request, player, body.password)
    digest = await hashing(hash_password, body.new_password)
    ended, revoked = await asyncio.to_thread(control.set_password, player.id, digest,
                                             await session_of(request))
    return Ended(ended=ended, revoked=revoked)


SIGNED_OUT_EVERYWHERE = "this account signed out everywhere: sign in again to play"
DELETED = "this account was deleted"


@router.post("/api/account/sign-out-everywhere", response_model=Ended, responses=REFUSALS)
async def sign_out_everywhere(control: Control, request: Request, response: Response) -> Ended:
    """End every session of the account, this browser's too, and revoke its API tokens."""
    player = await account_asking(request)
    ended, revoked = await asyncio.to_thread(control.end_sessions, player.id)
    await close_sockets(request, player.id, SIGNED_OUT_EVERYWHERE)
    _signed_out(response)
    return Ended(ended=ended, revoked=revoked)


@router.post("/api/account/tokens", response_model=ApiToken, status_code=201,
             responses=REFUSALS)
async def new_token(players: Players, body: PasswordOnly, request: Request) -> ApiToken:
    """An API token for a program to play as this account (``Authorization: Bearer``), the
    password first; the account is a bot account from then on, and plays unrated."""
    player = await account_asking(request)
    await check_current_password(request, player, body.password)
    token = await asyncio.to_thread(players.new_api_token, player.id,
                                    limits_of(request).api_tokens)
    return ApiToken(token=token)


@router.post("/api/account/delete", response_model=Deleted, responses=REFUSALS)
async def delete_account(control: Control, body: PasswordOnly, request: Request,
                         response: Response) -> Deleted:
    """Delete the account (the password first): its games stay under an anonymous name;
    its ratings, sessions and seat keys are gone."""
    player = await account_asking(request)
    await check_current_password(request, player, body.password)
    name, _ = await asyncio.to_thread(control.delete, player.id)
    # the tables held in memory, here and in every other process, finished ones too
    await request.app.state.tables.anonymize(player.id, name)
    await close_sockets(request, player.id, DELETED)
    _signed_out(response, forget_device=True)
    return Deleted(deleted=True, name=name)


@router.get("/api/account/export", responses=REFUSALS)
async def export(control: Control, request: Request) -> JSONResponse:
    """Everything the site keeps about the account, as a JSON file."""
    player = await account_asking(request)
    data = await asyncio.to_thread(control.export, player.id)
    filename = f"cardtable-{player.username or player.id}.json"
    return JSONResponse(data, headers={
        "Content-Disposition": f'attachment; filename="{filename}"',
        "Cache-Control": "no-store"})
