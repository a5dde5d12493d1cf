"""What moderation keeps: roles (admin), e-mail addresses, sanctions (a mute, a ban of an
account or of an address), players' reports and the audit log, in the tables of the
migration ``0009_account_control``.

Every admin action is written with its audit row in one transaction: an action is never
done without its record, nor recorded without being done.  A sanction may end (``until``)
or last until it is lifted; one that ended is as good as gone.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from typing import Literal

from sqlalchemy import JSON, ColumnElement, ForeignKey, Integer, String, delete, or_, select
from sqlalchemy import exc as sa_exc
from sqlalchemy.orm import Mapped, Session, mapped_column

from ..core.errors import Refused
from .chat import ChatMessageRow
from .players import ApiTokenRow, Player, PlayerRow, SessionRow
from .stamps import Stamp, moment_of, stamp
from .storage import Base, SeatRow, Store, guarded

__all__ = [
    "AuditRow",
    "EmailRow",
    "ReportRow",
    "ReportStore",
    "RoleRow",
    "Sanction",
    "SanctionRow",
    "SanctionStore",
]

Kind = Literal["mute", "ban", "ban_address"]
KINDS: tuple[Kind, ...] = ("mute", "ban", "ban_address")


class RoleRow(Base):
    """An account's role: ``admin`` (``cardtable admin grant NAME``)."""

    __tablename__ = "player_roles"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    role: Mapped[str] = mapped_column(String(16))
    granted: Mapped[_dt.datetime] = mapped_column(Stamp)


class EmailRow(Base):
    """An account's e-mail address, for password reset; ``email_key`` in lower case."""

    __tablename__ = "player_emails"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    email: Mapped[str] = mapped_column(String(254))
    email_key: Mapped[str] = mapped_column(String(254), unique=True)


class SanctionRow(Base):
    """A mute or a ban of an account (``target``: its player id) or a ban of an address."""

    __tablename__ = "sanctions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    kind: Mapped[str] = mapped_column(String(16))
    target: Mapped[str] = mapped_column(String(64), index=True)
    until: Mapped[_dt.datetime | None] = mapped_column(Stamp, nullable=True)
    reason: Mapped[str] = mapped_column(String(200))
    admin_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    at: Mapped[_dt.datetime] = mapped_column(Stamp)


class ReportRow(Base):
    """A player's report of a player, or of a chat line (``chat_id``, its text quoted)."""

    __tablename__ = "reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[_dt.datetime] = mapped_column(Stamp)
    reporter_id: Mapped[str] = mapped_column(String(32), index=True)
    player_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    table_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    chat_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    quoted: Mapped[str | None] = mapped_column(String(800), nullable=True)
    reason: Mapped[str] = mapped_column(String(500))
    status: Mapped[str] = mapped_column(String(16), index=True)
    """``open``, then ``closed`` by an admin."""

    def shown(self) -> dict[str, object]:
        return {"id": self.id, "at": self.at.isoformat(), "reporter": self.reporter_id,
                "player": self.player_id, "table": self.table_id, "chat": self.chat_id,
                "quoted": self.quoted, "reason": self.reason, "status": self.status}


class AuditRow(Base):
    """One admin action: who, what, to whom, and its particulars."""

    __tablename__ = "audit_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[_dt.datetime] = mapped_column(Stamp, index=True)
    admin: Mapped[str] = mapped_column(String(80))
    action: Mapped[str] = mapped_column(String(32))
    target: Mapped[str] = mapped_column(String(120))
    detail: Mapped[dict[str, object] | None] = mapped_column(JSON, nullable=True)

    def shown(self) -> dict[str, object]:
        return {"id": self.id, "at": self.at.isoformat(), "admin": self.admin,
                "action": self.action, "target": self.target, "detail": self.detail or {}}


@dataclass(frozen=True)
class Sanction:
    kind: str
    target: str
    until: _dt.datetime | None
    reason: str


def audit(session: Session, admin: str, action: str, target: str,
          detail: dict[str, object] | None = None) -> None:
    """An admin action's record, in the transaction that does it."""
    session.add(AuditRow(at=stamp(), admin=admin[:80], action=action, target=target[:120],
                         detail=detail or {}))


def _in_force(now: _dt.datetime) -> ColumnElement[bool]:
    return or_(SanctionRow.until.is_(None), SanctionRow.until > now)


class SanctionStore(Store):
    """Roles, e-mails, sanctions, reports and the audit log (call it in a thread)."""

    # -- roles -------------------------------------------------------------------------------
    @guarded
    def role(self, player_id: str) -> str | None:
        with self.storage.sessions() as session:
            row = session.get(RoleRow, player_id)
            return None if row is None else row.role

    @guarded
    def grant(self, username: str, role: str | None, admin: str) -> Player:
        """Give an account a role (``None``: take it back), with its audit row.
        ``Refused`` (404 ``no_player``) for no such account."""
        with self.storage.writing() as session:
            row = session.scalar(select(PlayerRow).where(
                PlayerRow.username_key == username.lower()))
            if row is None or row.kind == "guest":
                raise Refused(f"no account {username[:40]!r}", 404, "no_player")
            held = session.get(RoleRow, row.id)
            if role is None:
                if held is not None:
                    session.delete(held)
            elif held is None:
                session.add(RoleRow(player_id=row.id, role=role, granted=stamp()))
            else:
                held.role = role
            audit(session, admin, "revoke" if role is None else "grant", row.id,
                  {"username": row.username, "role": role})
            return row.player()

    @guarded
    def admins(self) -> list[str]:
        with self.storage.sessions() as session:
            return [name for name in session.scalars(select(PlayerRow.username).join(
                RoleRow, RoleRow.player_id == PlayerRow.id).where(RoleRow.role == "admin")
                .order_by(PlayerRow.username_key)) if name]

    # -- e-mail -----------------------------------------------------------------------------
    @guarded
    def set_email(self, player_id: str, email: str | None) -> None:
        """An account's address (``None``: none); ``Refused`` 409 ``email_taken`` for
        another account's."""
        with self.storage.writing() as session:
            held = session.get(EmailRow, player_id)
            if held is not None:
                session.delete(held)
                session.flush()
            if email is not None:
                session.add(EmailRow(player_id=player_id, email=email,
                                     email_key=email.lower()))
                try:
                    session.flush()
                except sa_exc.IntegrityError:
                    raise Refused("another account has this e-mail address", 409,
                                  "email_taken") from None

    @guarded
    def by_username_or_email(self, text: str) -> tuple[PlayerRow, str] | None:
        """An account with an e-mail address, named by its username or its address."""
        key = text.lower()
        with self.storage.sessions() as session:
            found = session.execute(select(PlayerRow, EmailRow.email).join(
                EmailRow, EmailRow.player_id == PlayerRow.id).where(
                or_(PlayerRow.username_key == key, EmailRow.email_key == key))).first()
            return None if found is None else (found[0], found[1])

    # -- sanctions ---------------------------------------------------------------------------
    @guarded
    def in_force(self, kind: Kind, target: str) -> Sanction | None:
        with self.storage.sessions() as session:
            row = session.scalar(select(SanctionRow).where(
                SanctionRow.kind == kind, SanctionRow.target == target,
                _in_force(stamp())).order_by(SanctionRow.id.desc()).limit(1))
            return None if row is None else Sanction(row.kind, row.target, row.until,
                                                     row.reason)

    @guarded
    def banned_addresses(self) -> frozenset[str]:
        with self.storage.sessions() as session:
            return frozenset(session.scalars(select(SanctionRow.target).where(
                SanctionRow.kind == "ban_address", _in_force(stamp()))).all())

    @guarded
    def sanction(self, kind: Kind, target: str, until: _dt.datetime | None, reason: str,
                 admin: Player | None, admin_name: str) -> None:
        """A mute or a ban, with its audit row; banning an account ends its sessions and
        API tokens in the same transaction."""
        with self.storage.writing() as session:
            session.add(SanctionRow(kind=kind, target=target, until=until, reason=reason,
                                    admin_id=admin.id if admin else None, at=stamp()))
            if kind == "ban":
                session.execute(delete(SessionRow).where(SessionRow.player_id == target))
                session.execute(delete(ApiTokenRow).where(ApiTokenRow.player_id == target))
            audit(session, admin_name, kind, target,
                  {"until": until.isoformat() if until else None, "reason": reason})

    @guarded
    def lift(self, kind: Kind, target: str, admin_name: str) -> int:
        """End every sanction of ``kind`` on ``target``; how many there were."""
        with self.storage.writing() as session:
            rows = session.scalars(select(SanctionRow).where(
                SanctionRow.kind == kind, SanctionRow.target == target,
                _in_force(stamp()))).all()
            for row in rows:
                row.until = stamp()
            audit(session, admin_name, "lift_" + kind, target, {"lifted": len(rows)})
            return len(rows)

    # -- reports and the audit log -----------------------------------------------------------
    @guarded
    def report(self, row: ReportRow) -> int:
        with self.storage.writing() as session:
            session.add(row)
            session.flush()
            return row.id

    @guarded
    def reports(self, status: str, limit: int) -> list[dict[str, object]]:
        with self.storage.sessions() as session:
            rows = session.scalars(select(ReportRow).where(ReportRow.status == status)
                                   .order_by(ReportRow.id.desc()).limit(limit)).all()
            return [row.shown() for row in rows]

    @guarded
    def close_report(self, report_id: int, admin_name: str) -> bool:
        with self.storage.writing() as session:
            row = session.get(ReportRow, report_id)
            if row is None:
                return False
            row.status = "closed"
            audit(session, admin_name, "close_report", str(report_id))
            return True

    @guarded
    def audit_log(self, limit: int, offset: int = 0) -> list[dict[str, object]]:
        with self.storage.sessions() as session:
            rows = session.scalars(select(AuditRow).order_by(AuditRow.id.desc())
                                   .limit(limit).offset(offset)).all()
            return [row.shown() for row in rows]

    @guarded
    def record(self, admin_name: str, action: str, target: str,
               detail: dict[str, object] | None = None) -> None:
        """An action done elsewhere (a table closed, a name changed), recorded."""
        with self.storage.writing() as session:
            audit(session, admin_name, action, target, detail)


class ReportStore(Store):
    @guarded
    def find_seat(self, table: str, seat: int, at: str | None, row: ReportRow) -> None:
        """The seat's player (and the chat line quoted) into ``row``, or 404."""
        with self.storage.sessions() as session:
            _find_seat(session, table, seat, at, row)


def _find_seat(session: Session, table: str, seat: int, at: str | None,
               row: ReportRow) -> None:
    player_id = session.scalar(select(SeatRow.player_id).where(
        SeatRow.table_id == table, SeatRow.seat == seat))
    if player_id is None:
        raise Refused("nobody known sits in that seat", 404, "no_player")
    row.player_id, row.table_id = player_id, table
    if at is None:
        return
    try:
        moment = moment_of(at)
    except (ValueError, OverflowError):
        raise Refused('"at" is not a time', 422, "invalid_request") from None
    line = session.scalar(select(ChatMessageRow).where(
        ChatMessageRow.table_id == table, ChatMessageRow.seat == seat,
        ChatMessageRow.at == moment).limit(1))
    if line is None:
        raise Refused("no such chat line", 404, "no_chat_line")
    row.chat_id, row.quoted = line.id, line.text or f"[{line.phrase}]"
