"""Password reset by e-mail.

An account gives an e-mail address (``POST /api/account/email``, with its password).  Who
forgot their password asks for a link by username or address (``POST
/api/account/reset``): the answer is the same whether or not such an account exists, and
the mail is sent after the answer, so neither the words nor the time tell.  The link is
``PUBLIC_URL/#reset=TOKEN`` (``public_url``, never the request's Host, which anyone can
set; the token after ``#`` never reaches a server's log), and the token an itsdangerous
signature of the account and a fingerprint of its password hash, good for
``reset_minutes``: a new password changes the hash, so a link works once, and an older
link dies with it.  ``POST /api/account/reset/confirm`` sets the new password and ends
every session of the account.

Mail goes through ``smtp_host`` (STARTTLS, TLS or plain to a local relay; a user and
password if set: the password is a secret, never logged), in threads of its own, never
the database's; a failure is logged without the address.  Without ``smtp_host``,
``smtp_from`` and ``public_url`` there is no reset by e-mail (404 ``reset_off``).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import hashlib
import logging
import re
import smtplib
import ssl
from email.message import EmailMessage
from typing import Any

from fastapi import APIRouter, Request
from itsdangerous import BadSignature, URLSafeTimedSerializer
from pydantic import BaseModel, Field

from ..account_settings import AccountSettings
from ..play.guard import address_of
from .accounts import REFUSALS, hash_password, hashing, limiter_of, store_of
from .control import account_asking, check_current_password, control_of
from .players import PlayerError, check_password
from .sanctions import SanctionStore, store_on

__all__ = ["SALT", "router", "send_mail"]

log = logging.getLogger("cardtable.server")

SALT = "cardtable.reset"
EMAIL = re.compile(r"[^@\s\x00-\x1f]{1,64}@[A-Za-z0-9.-]{1,253}\.[A-Za-z]{2,63}")
"""An address as far as a site can tell without sending to it (no spaces or controls:
nothing that could add a header)."""

_MAIL_THREADS = concurrent.futures.ThreadPoolExecutor(2, thread_name_prefix="cardtable-mail")
"""Mail is sent here: a slow SMTP server never holds a database thread."""


def send_mail(settings: AccountSettings, to: str, subject: str, text: str,
              password: str | None) -> None:
    """Send one plain-text mail (blocking: call it in ``_MAIL_THREADS``)."""
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = settings.smtp_from, to, subject
    message.set_content(text)
    timeout = settings.smtp_timeout
    smtp: smtplib.SMTP
    if settings.smtp_tls == "tls":
        smtp = smtplib.SMTP_SSL(settings.smtp_host, settings.smtp_port, timeout=timeout,
                                context=ssl.create_default_context())
    else:
        smtp = smtplib.SMTP(settings.smtp_host, settings.smtp_port, timeout=timeout)
    with smtp:
        if settings.smtp_tls == "starttls":
            smtp.starttls(context=ssl.create_default_context())
        if settings.smtp_user:
            smtp.login(settings.smtp_user, password or "")
        smtp.send_message(message)


def fingerprint(password_hash: str | None) -> str:
    """A few characters that change whenever the password does (not the hash itself)."""
    return hashlib.sha256((password_hash or "").encode()).hexdigest()[:16]


async def _signer(request: Request) -> URLSafeTimedSerializer:
    state = request.app.state
    signer = getattr(state, "reset_signer", None)
    if signer is None:
        key = await asyncio.to_thread(store_of(request).secret, "reset")
        signer = state.reset_signer = URLSafeTimedSerializer(key, salt=SALT)
    return signer


router = APIRouter()
MAIL_REFUSALS: dict[int | str, dict[str, Any]] = {
    **REFUSALS, 404: {"description": "this server sends no mail (reset_off)"}}


class NewEmail(BaseModel):
    email: str | None = Field(max_length=254, description="none: forget the address")
    password: str = Field(max_length=1024)


class EmailSet(BaseModel):
    email: str | None


class ResetAsked(BaseModel):
    name: str = Field(max_length=254, description="a username or an e-mail address")


class ResetDone(BaseModel):
    reset: bool


class NewPassword(BaseModel):
    token: str = Field(max_length=400)
    password: str = Field(max_length=1024)


@router.post("/api/account/email", response_model=EmailSet, responses=REFUSALS)
async def set_email(body: NewEmail, request: Request) -> EmailSet:
    """Give the account an e-mail address for password reset (the password first)."""
    player = await account_asking(request)
    email = body.email.strip() if body.email else None
    if email is not None and not EMAIL.fullmatch(email):
        raise PlayerError("that is not an e-mail address", 422, "invalid_email")
    await check_current_password(request, player, body.password)
    await asyncio.to_thread(store_on(request, SanctionStore).set_email, player.id, email)
    return EmailSet(email=email)


@router.post("/api/account/reset", response_model=ResetDone, status_code=202,
             responses=MAIL_REFUSALS)
async def ask_reset(body: ResetAsked, request: Request) -> ResetDone:
    """Send a password-reset link to the account's address, if it has one (the answer is
    the same either way)."""
    settings = request.app.state.settings
    if not settings.mail_on:
        raise PlayerError("this server sends no mail: ask its operator", 404, "reset_off")
    await limiter_of(request).hit(settings.reset_per_address, "reset", address_of(request))
    found = await asyncio.to_thread(store_on(request, SanctionStore).by_username_or_email,
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
        request.app.state.tables.spawn(_send(settings, email, text, password))
    return ResetDone(reset=True)


PER_ACCOUNT = "3/hour"
"""Reset mails to one account at most, whoever asks: past it nothing is sent (the answer
stays the same), so no one fills an owner's inbox from many addresses."""


async def _mail_left(request: Request, player_id: str) -> bool:
    try:
        await limiter_of(request).hit(PER_ACCOUNT, "reset-account", player_id)
    except PlayerError:
        return False
    return True


async def _send(settings: AccountSettings, to: str, text: str, password: str | None) -> None:
    loop = asyncio.get_running_loop()
    try:
        await loop.run_in_executor(_MAIL_THREADS, send_mail, settings, to,
                                   "Your cardtable password", text, password)
    except (OSError, smtplib.SMTPException) as error:
        log.warning("a password-reset mail could not be sent: %s",
                    type(error).__name__)


@router.post("/api/account/reset/confirm", response_model=ResetDone, responses=REFUSALS)
async def confirm_reset(body: NewPassword, request: Request) -> ResetDone:
    """The new password, with the link's token: every session of the account ends."""
    settings = request.app.state.settings
    check_password(body.password)
    try:
        player_id, mark = (await _signer(request)).loads(
            body.token, max_age=settings.reset_minutes * 60)
    except (BadSignature, ValueError, TypeError):
        raise PlayerError("this reset link is wrong, used or out of date: ask for a new "
                          "one", 422, "reset_link_bad") from None
    control = control_of(request)
    held = await asyncio.to_thread(control.password_hash, str(player_id))
    if held is None or fingerprint(held) != mark:
        raise PlayerError("this reset link is wrong, used or out of date: ask for a new "
                          "one", 422, "reset_link_bad")
    digest = await hashing(hash_password, body.password)
    if not await asyncio.to_thread(control.replace_password, str(player_id), held, digest):
        raise PlayerError("this reset link was just used: ask for a new one", 422,
                          "reset_link_bad")   # two uses at once: the first one won
    return ResetDone(reset=True)
