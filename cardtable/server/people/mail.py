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
import email.policy
import hashlib
import logging
import re
import smtplib
import ssl
from email.message import EmailMessage

from ..core.account_settings import AccountSettings

__all__ = ["EMAIL", "SALT", "fingerprint", "send_mail", "send_reset"]

log = logging.getLogger("cardtable.server")

SALT = "cardtable.reset"
EMAIL = re.compile(r"[^@\s\x00-\x1f]{1,64}@[A-Za-z0-9.-]{1,253}\.[A-Za-z]{2,63}")
"""An address as far as a site can tell without sending to it (no spaces or controls:
nothing that could add a header)."""

_MAIL_THREADS = concurrent.futures.ThreadPoolExecutor(2, thread_name_prefix="cardtable-mail")
"""Mail is sent here: a slow SMTP server never holds a database thread."""


def send_mail(settings: AccountSettings, to: str, subject: str, text: str,
              password: str | None, headers: dict[str, str] | None = None) -> None:
    """Send one plain-text mail (blocking: call it in ``_MAIL_THREADS``); ``headers``: more
    of them (the digest's List-Unsubscribe)."""
    # lines up to the standard's 998 characters: a long link in a header (List-Unsubscribe)
    # stays a link, not folded into encoded words
    message = EmailMessage(policy=email.policy.default.clone(max_line_length=998))
    message["From"], message["To"], message["Subject"] = settings.smtp_from, to, subject
    for name, value in (headers or {}).items():
        message[name] = value
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


async def send_reset(settings: AccountSettings, to: str, text: str, password: str | None) -> None:
    loop = asyncio.get_running_loop()
    try:
        await loop.run_in_executor(_MAIL_THREADS, send_mail, settings, to,
                                   "Your cardtable password", text, password)
    except (OSError, smtplib.SMTPException) as error:
        log.warning("a password-reset mail could not be sent: %s",
                    type(error).__name__)
