"""An account in its owner's hands, and what the site keeps of people and for how long.

- Change password (the current one first): every other session of the account ends, this
  browser's stays signed in; every API token is revoked.
- Sign out everywhere: every session of the account ends, this one too, and every API token
  is revoked.
- Reset the password (by a mailed link): every session and API token ends.
- Delete my account (the password first): the games stay, their seats under an anonymous
  name (in the database, and at the tables this process holds in memory); the ratings,
  rating history, profile games, bot records, lessons, e-mail and role go; sessions and
  API tokens end, so no seat key of the account plays again.  Refused
  while the account holds a seat at a table in play (409 ``seats_in_play``): a game
  counted after the account went would rate a player that is no more.
- Export my data: everything kept about the account, as one JSON file.
- Retention (``AccountSettings``): guests older than ``guest_days`` (but those seated at a
  table in play), sessions older than ``session_days`` and chat lines older than
  ``chat_days`` are deleted by a sweep every ``retention_every`` seconds of the tables'
  clock.
"""

from __future__ import annotations

import datetime as _dt
import logging
import secrets
from typing import ClassVar, Protocol, TypeVar
from urllib.parse import urlsplit

from sqlalchemy import Select, delete, select, update
from sqlalchemy.orm import QueryableAttribute, Session

from ..core.account_settings import AccountSettings
from ..core.errors import Refused
from .chat import ChatMessageRow
from .players import (
    ApiTokenRow,
    BotRecordRow,
    PlayerGameRow,
    PlayerRow,
    RatingHistoryRow,
    RatingRow,
    SessionRow,
)
from .progress import LessonDoneRow
from .sanctions import EmailRow, ReportRow, RoleRow
from .social import PushRow
from .stamps import stamp
from .storage import (
    OPEN,
    SeatRow,
    Store,
    TableRow,
    guarded,
    hash_token,
)

__all__ = ["ANONYMOUS", "ControlStore"]

log = logging.getLogger("cardtable.server")

ANONYMOUS = "Deleted player"
"""The name a deleted account's seats show (with a few letters, so two stay apart)."""


class Personal(Protocol):
    """A kind of row of one player's: its ``player_id`` column names them."""

    player_id: ClassVar[QueryableAttribute[str]]


_Owned = TypeVar("_Owned", bound=Personal)

PERSONAL: tuple[type[Personal], ...] = (
    SessionRow, ApiTokenRow, RatingRow, RatingHistoryRow, PlayerGameRow, BotRecordRow,
    LessonDoneRow, EmailRow, RoleRow, PushRow)
"""The rows of a player that go with them (each has ``player_id``; a browser's Web Push
subscription too: no push goes to a deleted account's devices)."""

EXPORT_LIMIT = 10_000
"""The most rows of one kind an export holds (a player with more sees the newest)."""


class ControlStore(Store):
    """An account's sessions, deletion and export, and the retention sweep (in a thread)."""

    @guarded
    def end_sessions(self, player_id: str, keep: str | None = None) -> tuple[int, int]:
        """End the account's sessions but ``keep`` (a session id) and revoke its API
        tokens; how many sessions ended and how many tokens were revoked."""
        with self.storage.writing() as session:
            return _end_sessions(session, player_id, keep), _revoke_tokens(session, player_id)

    @guarded
    def password_hash(self, player_id: str) -> str | None:
        with self.storage.sessions() as session:
            return session.scalar(select(PlayerRow.password_hash).where(
                PlayerRow.id == player_id))

    @guarded
    def set_password(self, player_id: str, password_hash: str,
                     keep: str | None) -> tuple[int, int]:
        """A new password, every session but ``keep`` ended and every API token revoked,
        in one transaction; how many sessions ended and how many tokens were revoked."""
        with self.storage.writing() as session:
            session.execute(update(PlayerRow).where(PlayerRow.id == player_id)
                            .values(password_hash=password_hash))
            return _end_sessions(session, player_id, keep), _revoke_tokens(session, player_id)

    @guarded
    def replace_password(self, player_id: str, old_hash: str, password_hash: str) -> bool:
        """A new password if the old one is still ``old_hash`` (a reset link's password),
        and every session and API token ended, in one transaction; ``False`` if it changed
        meanwhile."""
        with self.storage.writing() as session:
            changed = _count(session.execute(update(PlayerRow).where(
                PlayerRow.id == player_id, PlayerRow.password_hash == old_hash)
                .values(password_hash=password_hash)))
            if changed:
                _end_sessions(session, player_id, None)
                _revoke_tokens(session, player_id)
            return bool(changed)

    @guarded
    def delete(self, player_id: str) -> tuple[str, list[str]]:
        """Delete an account (see the module); answers the name its seats show now, and
        the tables they are at."""
        name = f"{ANONYMOUS} {secrets.token_hex(2)}"
        with self.storage.writing() as session:
            if session.scalar(_open_seats(player_id).limit(1)) is not None:
                raise Refused("you have games in play: finish or resign them first",
                              409, "seats_in_play")
            tables = list(session.scalars(select(SeatRow.table_id).where(
                SeatRow.player_id == player_id)))
            for row in PERSONAL:
                session.execute(delete(row).where(row.player_id == player_id))
            session.execute(update(SeatRow).where(SeatRow.player_id == player_id)
                            .values(name=name))
            session.execute(update(PlayerRow).where(PlayerRow.id == player_id).values(
                kind="deleted", name=name, username=None, username_key=None,
                username_skeleton=None, name_skeleton=None,
                password_hash=None))
        return name, tables

    @guarded
    def export(self, player_id: str) -> dict[str, object]:
        """Everything kept about a player, as JSON-able data (no hash of anything)."""
        with self.storage.sessions() as session:
            player = session.get(PlayerRow, player_id)
            if player is None:
                raise Refused("no such player", 404, "no_player")
            email = session.get(EmailRow, player_id)
            role = session.get(RoleRow, player_id)

            def rows(model: type[_Owned], *order: QueryableAttribute[object]) -> list[_Owned]:
                query = select(model).where(model.player_id == player_id)
                return list(session.scalars(query.order_by(*order).limit(EXPORT_LIMIT)))

            seats = session.execute(
                select(SeatRow.table_id, SeatRow.seat, SeatRow.name, TableRow.game,
                       TableRow.status, TableRow.created)
                .join(TableRow, TableRow.id == SeatRow.table_id)
                .where(SeatRow.player_id == player_id)
                .order_by(TableRow.created.desc()).limit(EXPORT_LIMIT)).all()
            said = session.scalars(
                select(ChatMessageRow).join(SeatRow, (SeatRow.table_id == ChatMessageRow.table_id)
                                            & (SeatRow.seat == ChatMessageRow.seat))
                .where(SeatRow.player_id == player_id, ChatMessageRow.room == "players")
                .order_by(ChatMessageRow.id.desc()).limit(EXPORT_LIMIT)).all()
            reported = session.scalars(
                select(ReportRow).where(ReportRow.reporter_id == player_id)
                .order_by(ReportRow.id).limit(EXPORT_LIMIT)).all()
            return {
                "exported": stamp().isoformat(),
                "player": {"id": player.id, "kind": player.kind, "name": player.name,
                           "username": player.username, "created": player.created.isoformat(),
                           "email": email.email if email else None,
                           "role": role.role if role else None},
                "sessions": [{"created": row.created.isoformat()}
                             for row in rows(SessionRow, SessionRow.created)],
                "api_tokens": [{"created": row.created.isoformat()}
                               for row in rows(ApiTokenRow, ApiTokenRow.created)],
                "ratings": [{"pool": row.pool, "mu": row.mu, "sigma": row.sigma,
                             "games": row.games, "wins": row.wins}
                            for row in rows(RatingRow, RatingRow.pool)],
                "rating_history": [{"pool": row.pool, "table": row.table_id,
                                    "at": row.at.isoformat(), "rating": row.rating,
                                    "change": row.change}
                                   for row in rows(RatingHistoryRow, RatingHistoryRow.id)],
                "games": [{"table": row.table_id, "seat": row.seat, "game": row.game,
                           "pool": row.pool, "result": row.result, "rated": bool(row.rated),
                           "at": row.at.isoformat()}
                          for row in rows(PlayerGameRow, PlayerGameRow.at)],
                "bot_records": [{"bot": row.bot, "wins": row.wins, "losses": row.losses,
                                 "draws": row.draws}
                                for row in rows(BotRecordRow, BotRecordRow.bot)],
                "lessons": [{"game": row.game, "step": row.step, "at": row.at.isoformat()}
                            for row in rows(LessonDoneRow, LessonDoneRow.at)],
                # where pushes go, by push service (its address is the browser's own key
                # to it: not written into a file that may be shared)
                "push_devices": [{"service": urlsplit(row.endpoint).hostname,
                                  "at": row.at.isoformat()}
                                 for row in rows(PushRow, PushRow.at)],
                "seats": [{"table": table, "seat": seat, "name": name, "game": game,
                           "status": status, "created": created}
                          for table, seat, name, game, status, created in seats],
                "chat": [{"table": row.table_id, "seat": row.seat, "text": row.text,
                          "phrase": row.phrase, "at": row.at} for row in said],
                "reports": [{"at": row.at.isoformat(), "player": row.player_id,
                             "table": row.table_id, "quoted": row.quoted,
                             "reason": row.reason, "status": row.status}
                            for row in reported],
            }

    @guarded
    def sweep(self, keeping: AccountSettings, now: _dt.datetime | None = None,
              batch: int = 1000) -> dict[str, int]:
        """Delete what is past its keeping (at most ``batch`` guests a call); how many of
        each went."""
        now = now or stamp()
        days = _dt.timedelta(days=1)
        with self.storage.writing() as session:
            sessions = _count(session.execute(delete(SessionRow).where(
                SessionRow.created < now - keeping.session_days * days)))
            chat = _count(session.execute(delete(ChatMessageRow).where(
                ChatMessageRow.at < now - keeping.chat_days * days)))
            seated = select(SeatRow.player_id).join(TableRow, TableRow.id == SeatRow.table_id
                                                    ).where(TableRow.status.in_(OPEN),
                                                            SeatRow.player_id.is_not(None))
            guests = list(session.scalars(select(PlayerRow.id).where(
                PlayerRow.kind == "guest", PlayerRow.created < now - keeping.guest_days * days,
                PlayerRow.id.not_in(seated)).limit(batch)))
            if guests:
                for row in PERSONAL:
                    session.execute(delete(row).where(row.player_id.in_(guests)))
                session.execute(delete(PlayerRow).where(PlayerRow.id.in_(guests)))
        return {"sessions": sessions, "chat": chat, "guests": len(guests)}


def _end_sessions(session: Session, player_id: str, keep: str | None) -> int:
    query = delete(SessionRow).where(SessionRow.player_id == player_id)
    if keep is not None:
        query = query.where(SessionRow.id_hash != hash_token(keep))
    return _count(session.execute(query))


def _revoke_tokens(session: Session, player_id: str) -> int:
    return _count(session.execute(delete(ApiTokenRow).where(ApiTokenRow.player_id == player_id)))


def _count(result: object) -> int:
    return int(getattr(result, "rowcount", 0) or 0)


def _open_seats(player_id: str) -> Select[str]:
    return (select(SeatRow.table_id).join(TableRow, TableRow.id == SeatRow.table_id)
            .where(SeatRow.player_id == player_id, TableRow.status.in_(OPEN)))
