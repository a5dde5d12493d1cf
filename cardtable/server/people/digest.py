"""The daily e-mail digest of the inbox: off unless a player routes a kind of notice to
``email`` (their social settings), at most one mail a day, with a one-click unsubscribe.

Every ``digest_every`` seconds (of the tables' clock: a test moves it) the sweep looks at
the players whose settings name ``email`` for some kind: one with an e-mail address
(``player_emails``) and unread notices of those kinds newer than the last digest, whose
last digest is a day old or more, is sent one mail listing them, each with its link.
The digest's bookmark (the last notice mailed, and when) is kept with the player's
settings.  The mail carries a signed token twice: in its text, a link to the page that
asks the reader to confirm (``/#unsubscribe=T``, whose button sends ``POST
/api/social/unsubscribe?token=T``), and in ``List-Unsubscribe`` with
``List-Unsubscribe-Post`` (RFC 8058) for the mail readers' own button, which posts to
that address at once.  The POST takes ``email`` out of every route; a ``GET`` of it (a
scanner opening links) changes nothing and leads to the page.  Nothing is sent without
``smtp_host``, ``smtp_from`` and ``public_url``.
"""

from __future__ import annotations

import asyncio
import datetime as _dt
import logging
import smtplib

from itsdangerous import BadSignature, URLSafeSerializer

from ..core.clock import Clock
from ..core.settings import ServerSettings
from ..core.shapes import obj, whole
from ..store.sanctions import EmailRow
from ..store.social import NoticeView, SocialStore
from ..store.storage import StorageUnavailable
from .mail import _MAIL_THREADS, send_mail

__all__ = ["DAY", "Digests", "unsubscribe_token"]

log = logging.getLogger("cardtable.server")

DAY = _dt.timedelta(days=1)
SALT = "cardtable.unsubscribe"
LINES = 30
"""Notices listed in one digest at most (the rest: "and N more")."""

WORDS = {
    "challenge": "{from} challenges you to {game}",
    "challenge_answer": "{by} answered your challenge: {status}",
    "your_move": "Your move in {game}",
    "tournament": "News of your tournament {name}",
    "friend_game": "{name} started a game",
    "invite": "{from} invites you to a table of {game}",
}


def unsubscribe_token(signer: URLSafeSerializer, player_id: str) -> str:
    return str(signer.dumps(player_id))


class Digests:
    """The digest sweep and the unsubscribe link of one app."""

    def __init__(self, store: SocialStore, settings: ServerSettings, key: str,
                 clock: Clock) -> None:
        self.store = store
        self.settings = settings
        self.signer = URLSafeSerializer(key, salt=SALT)
        self.clock = clock

    @property
    def on(self) -> bool:
        s = self.settings
        return bool(s.smtp_host and s.smtp_from and s.public_url)

    def player_of(self, token: str) -> str | None:
        """The player an unsubscribe link names (``None``: not one of ours)."""
        try:
            found = self.signer.loads(token)
        except BadSignature:
            return None
        return found if isinstance(found, str) else None

    async def keep_sending(self) -> None:
        """The sweep, every ``digest_every`` seconds, for ever (a task of the tables)."""
        while True:
            await self.clock.sleep(self.settings.digest_every)
            try:
                sent = await self.send_due()
                if sent:
                    log.info("sent %d inbox digests", sent)
            except StorageUnavailable:
                pass
            except Exception:
                log.exception("the inbox digest failed; it tries again")

    async def send_due(self) -> int:
        """Send every digest due now; how many were sent."""
        if not self.on:
            return 0
        now = _dt.datetime.fromtimestamp(self.clock.wall(), _dt.UTC)
        sent = 0
        for player_id, routes in await asyncio.to_thread(self.store.mailed_routes):
            kinds = sorted(kind for kind, ways in routes.items()
                           if isinstance(ways, list) and "email" in ways)
            bookmark = obj(routes.get("_digest")) or {}
            last_at = bookmark.get("at")
            if (isinstance(last_at, str) and last_at
                    and now - _dt.datetime.fromisoformat(last_at) < DAY):
                continue
            notices = [n for n in await asyncio.to_thread(
                self.store.notices, player_id, after=whole(bookmark, "upto", 0),
                limit=200, unread=True) if n["kind"] in kinds]
            address = await asyncio.to_thread(self._address, player_id)
            if not notices or address is None:
                continue
            if await self._send(address, player_id, notices):
                await asyncio.to_thread(self.store.set_digest_mark, player_id, {
                    "at": now.isoformat(), "upto": max(n["id"] for n in notices)})
                sent += 1
        return sent

    def _address(self, player_id: str) -> str | None:
        with self.store.storage.sessions() as session:
            row = session.get(EmailRow, player_id)
            return None if row is None else row.email

    async def _send(self, address: str, player_id: str,
                    notices: list[NoticeView]) -> bool:
        site = self.settings.public_url
        token = unsubscribe_token(self.signer, player_id)
        link = f"{site}/api/social/unsubscribe?token={token}"   # the one-click POST
        page = f"{site}/#unsubscribe={token}"   # a page that asks first
        lines = []
        for notice in notices[:LINES]:
            data = {key: str(value) for key, value in (notice["data"] or {}).items()}
            try:
                text = WORDS.get(notice["kind"], notice["kind"]).format_map(_Blank(data))
            except (ValueError, IndexError):   # a braced word in a name: said plainly
                text = notice["kind"]
            url = data.get("url") or "/#inbox"
            lines.append(f"- {text}: {site}{url if url.startswith('/') else '/#inbox'}")
        if len(notices) > LINES:
            lines.append(f"... and {len(notices) - LINES} more in your inbox: {site}/#inbox")
        text = ("What happened on cardtable since your last digest:\n\n" + "\n".join(lines)
                + f"\n\nNo more of these mails: {page}\n")
        headers = {"List-Unsubscribe": f"<{link}>",
                   "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}
        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(_MAIL_THREADS, send_mail, self.settings, address,
                                       "Your cardtable inbox", text,
                                       self.settings.revealed("smtp_password"), headers)
        except (OSError, smtplib.SMTPException) as error:
            log.warning("an inbox digest could not be sent: %s", type(error).__name__)
            return False
        return True


class _Blank(dict[str, str]):
    """A notice's words with a missing field left empty."""

    def __missing__(self, key: str) -> str:
        return ""
