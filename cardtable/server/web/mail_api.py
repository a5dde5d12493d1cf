"""Password reset by e-mail over HTTP (what is sent and how: ``people.mail``)."""

from __future__ import annotations

import asyncio
import logging

from fastapi import APIRouter, Request
from itsdangerous import BadSignature, URLSafeTimedSerializer
from pydantic import BaseModel, ConfigDict, Field

from ..core.errors import Refused
from ..people.mail import EMAIL, fingerprint, send_reset
from ..people.players import check_password
from ..play.guard import address_of
from .accounts import REFUSALS, hash_password, hashing, limiter_of, store_of
from .control_api import account_asking, check_current_password
from .errors import Responses
from .services import Attempts, Control, Sanctions, services_of
from .spec import NewPassword as NewPasswordText

__all__ = ["router"]

log = logging.getLogger("cardtable.server")


async def _signer(request: Request) -> URLSafeTimedSerializer:
    return services_of(request).reset


router = APIRouter()
MAIL_REFUSALS: Responses = {
    **REFUSALS, 404: {"description": "this server sends no mail (reset_off)"}}


class NewEmail(BaseModel):
    email: str | None = Field(max_length=254, description="none: forget the address")
    password: str = Field(max_length=1024)


class EmailSet(BaseModel):
    email: str | None


class ResetAsked(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(max_length=254, description="a username or an e-mail address")


class ResetDone(BaseModel):
    reset: bool


class NewPassword(BaseModel):
    token: str = Field(max_length=400)
    password: NewPasswordText


@router.post("/api/account/email", response_model=EmailSet, responses=REFUSALS)
async def set_email(sanctions: Sanctions, body: NewEmail, request: Request) -> EmailSet:
    """Give the account an e-mail address for password reset (the password first)."""
    player = await account_asking(request)
    email = body.email.strip() if body.email else None
    if email is not None and not EMAIL.fullmatch(email):
        raise Refused("that is not an e-mail address", 422, "invalid_email")
    await check_current_password(request, player, body.password)
    await asyncio.to_thread(sanctions.set_email, player.id, email)
    return EmailSet(email=email)


@router.post("/api/account/reset", response_model=ResetDone, status_code=202,
             responses=MAIL_REFUSALS)
async def ask_reset(sanctions: Sanctions, limiter: Attempts, body: ResetAsked,
                    request: Request) -> ResetDone:
    """Send a password-reset link to the account's address, if it has one (the answer is
    the same either way)."""
    settings = request.app.state.settings
    if not settings.mail_on:
        raise Refused("this server sends no mail: ask its operator", 404, "reset_off")
    await limiter.hit(settings.reset_per_address, "reset", address_of(request))
    found = await asyncio.to_thread(sanctions.by_username_or_email,
                                    body.name.strip())
    if found is not None and await _mail_left(request, found[0].id):
        row, email = found
        token = (await _signer(request)).dumps([row.id, fingerprint(row.password_hash)])
        link = f"{settings.public_url}/#reset={token}"
        text = (f"Someone (we hope you) asked to reset the password of {row.username} at "
                f"{settings.public_url}.\n\nChoose a new one here (the link works once, for "
                f"{settings.reset_minutes} minutes):\n\n{link}\n\nIf it was not you, do "
                "nothing: your password stays as it is.\n")
        password = settings.revealed("smtp_password")
        request.app.state.tables.spawn(send_reset(settings, email, text, password))
    return ResetDone(reset=True)


PER_ACCOUNT = "3/hour"
"""Reset mails to one account at most, whoever asks: past it nothing is sent (the answer
stays the same), so no one fills an owner's inbox from many addresses."""


async def _mail_left(request: Request, player_id: str) -> bool:
    try:
        await limiter_of(request).hit(PER_ACCOUNT, "reset-account", player_id)
    except Refused:
        return False
    return True


@router.post("/api/account/reset/confirm", response_model=ResetDone, responses={
    **REFUSALS, 403: {"description": "the reset link is wrong, used or out of date (or a "
                                     "cross-site request carrying the session)"}})
async def confirm_reset(control: Control, body: NewPassword, request: Request) -> ResetDone:
    """The new password, with the link's token: every session of the account ends."""
    settings = request.app.state.settings
    check_password(body.password)
    try:
        player_id, mark = (await _signer(request)).loads(
            body.token, max_age=settings.reset_minutes * 60)
    except (BadSignature, ValueError, TypeError):
        raise Refused("this reset link is wrong, used or out of date: ask for a new "
                      "one", 403, "reset_link_bad") from None
    control = control
    held = await asyncio.to_thread(control.password_hash, str(player_id))
    if held is None or fingerprint(held) != mark:
        raise Refused("this reset link is wrong, used or out of date: ask for a new "
                      "one", 403, "reset_link_bad")
    owner = await asyncio.to_thread(store_of(request).get, str(player_id))
    check_password(body.password, (owner.username or "") if owner is not None else "")
    digest = await hashing(hash_password, body.password)
    if not await asyncio.to_thread(control.replace_password, str(player_id), held, digest):
        raise Refused("this reset link was just used: ask for a new one", 403,
                      "reset_link_bad")   # two uses at once: the first one won
    return ResetDone(reset=True)
