"""What players keep of each other: the inbox (notices), challenges, who follows whom,
who blocks whom, and each player's social settings (who may challenge them, where each
kind of notice goes), in the tables of the migration ``0011_social``.

A notice is written once and read by its player alone; the inbox keeps the latest
``INBOX_KEPT`` of each player (older ones go as new ones come).  A challenge is a row
that moves from ``open`` to one of ``accepted``, ``declined``, ``cancelled`` or
``expired``, never back.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Mapping
from typing import TypeAlias, TypedDict

from sqlalchemy import JSON, Boolean, Integer, String, delete, func, select, update
from sqlalchemy.orm import Mapped, mapped_column

from ..core.errors import Refused
from .players import PlayerRow
from .stamps import Stamp, stamp, text_of
from .storage import Base, SeatRow, Store, TableRow, guarded

__all__ = [
    "INBOX_KEPT",
    "MAX_PAIRS",
    "BlockRow",
    "ChallengeRow",
    "FollowRow",
    "NoticeRow",
    "NoticeView",
    "Routes",
    "SocialSettingsRow",
    "SocialStore",
]

Routes: TypeAlias = dict[str, object]
"""A player's routes: each kind of notice to the list of ways it goes (``inbox``,
``email``), and under ``_digest`` the digest's bookmark (``at``, ``upto``); read as the
JSON it is stored as, narrowed where used."""


class NoticeView(TypedDict):
    """A notice as the inbox gives it: the page words its ``data`` by its ``kind``."""

    id: int
    kind: str
    at: str
    data: dict[str, object]
    read: bool


INBOX_KEPT = 200
"""Notices kept a player: the oldest go as new ones come."""
MAX_PAIRS = 500
"""Players one player may follow, and may block (each)."""


class NoticeRow(Base):
    """One notice in a player's inbox: its kind (``challenge``, ``your_move``,
    ``tournament``, ``friend_game``, ...) and what it says, as JSON the page words."""

    __tablename__ = "notices"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(String(32), index=True)
    kind: Mapped[str] = mapped_column(String(32))
    at: Mapped[_dt.datetime] = mapped_column(Stamp)
    data: Mapped[dict[str, object]] = mapped_column(JSON)
    read: Mapped[bool] = mapped_column(Boolean, default=False)

    def shown(self) -> NoticeView:
        return {"id": self.id, "kind": self.kind, "at": text_of(self.at),
                "data": dict(self.data or {}), "read": bool(self.read)}


class PushRow(Base):
    """A browser's Web Push subscription: where its push service takes a player's pushes
    (``endpoint``) and the keys they are encrypted to (RFC 8291)."""

    __tablename__ = "push_subscriptions"

    endpoint: Mapped[str] = mapped_column(String(1000), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), index=True)
    p256dh: Mapped[str] = mapped_column(String(200))
    auth: Mapped[str] = mapped_column(String(100))
    at: Mapped[_dt.datetime] = mapped_column(Stamp)


PUSH_KEPT = 10
"""Browsers a player may have subscribed at once (the oldest go past it)."""


class ChallengeRow(Base):
    """A challenge from one account to another (``to_id``), or an open one (no
    ``to_id``: whoever has its link may accept)."""

    __tablename__ = "challenges"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    from_id: Mapped[str] = mapped_column(String(32), index=True)
    to_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    game: Mapped[str] = mapped_column(String(32))
    preset: Mapped[str | None] = mapped_column(String(64), nullable=True)
    options: Mapped[dict[str, object]] = mapped_column(JSON)
    players: Mapped[int] = mapped_column(Integer)
    clock: Mapped[dict[str, object] | None] = mapped_column(JSON, nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    status: Mapped[str] = mapped_column(String(16), index=True)
    created: Mapped[_dt.datetime] = mapped_column(Stamp)
    expires: Mapped[_dt.datetime] = mapped_column(Stamp)
    table_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """The accepted challenge's table; while ``accepting``, the id chosen for it (written
    before it is made)."""
    answered: Mapped[_dt.datetime | None] = mapped_column(Stamp, nullable=True)
    """When its acceptance began: one ``accepting`` longer than ``ACCEPTING_FOR`` was left
    so by a process that stopped mid-way, and ``expire`` settles it by what exists."""


ACCEPTING_FOR = _dt.timedelta(seconds=60)
"""Longer than making a table ever takes: an acceptance this old is not in progress."""


class FollowRow(Base):
    """``follower_id`` follows ``followed_id``."""

    __tablename__ = "follows"

    follower_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    followed_id: Mapped[str] = mapped_column(String(32), primary_key=True, index=True)
    at: Mapped[_dt.datetime] = mapped_column(Stamp)


class BlockRow(Base):
    """``blocker_id`` blocks ``blocked_id``: no challenge, chat or pairing between them."""

    __tablename__ = "blocks"

    blocker_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    blocked_id: Mapped[str] = mapped_column(String(32), primary_key=True, index=True)
    at: Mapped[_dt.datetime] = mapped_column(Stamp)


class SocialSettingsRow(Base):
    """A player's choices: who may challenge them (``everyone``, ``followed``: players
    they follow, ``nobody``) and where each kind of notice goes (``routes``: kind to a
    list of ``inbox``, ``push``, ``email``; a kind not named goes to the inbox)."""

    __tablename__ = "social_settings"

    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    challenges: Mapped[str] = mapped_column(String(16), default="everyone")
    routes: Mapped[Routes] = mapped_column(JSON)


class SocialStore(Store):
    """Notices, challenges, follows, blocks and settings (call it in a thread)."""

    # -- Web Push ---------------------------------------------------------------------------
    @guarded
    def add_push(self, player_id: str, endpoint: str, p256dh: str, auth: str) -> None:
        """Keep a browser's subscription for the player (a browser subscribed again, or
        for another account, is theirs now); past ``PUSH_KEPT`` the oldest goes."""
        with self.storage.writing() as session:
            session.execute(delete(PushRow).where(PushRow.endpoint == endpoint))
            session.add(PushRow(endpoint=endpoint, player_id=player_id, p256dh=p256dh,
                                auth=auth, at=stamp()))
            session.flush()
            old = session.scalars(select(PushRow.endpoint).where(
                PushRow.player_id == player_id).order_by(PushRow.at.desc(), PushRow.endpoint)
                .offset(PUSH_KEPT)).all()
            if old:
                session.execute(delete(PushRow).where(PushRow.endpoint.in_(old)))

    @guarded
    def remove_push(self, endpoint: str, player_id: str | None = None) -> bool:
        """Forget a subscription (``player_id``: only if it is theirs); whether it was."""
        with self.storage.writing() as session:
            query = delete(PushRow).where(PushRow.endpoint == endpoint)
            if player_id is not None:
                query = query.where(PushRow.player_id == player_id)
            return bool(getattr(session.execute(query), "rowcount", 0))

    @guarded
    def pushes_of(self, player_id: str) -> list[tuple[str, str, str]]:
        """The player's subscriptions: (endpoint, p256dh, auth)."""
        with self.storage.sessions() as session:
            return [(e, k, a) for e, k, a in session.execute(
                select(PushRow.endpoint, PushRow.p256dh, PushRow.auth).where(
                    PushRow.player_id == player_id)).all()]

    # -- the inbox -------------------------------------------------------------------------
    @guarded
    def add_notice(self, player_id: str, kind: str,
                   data: Mapping[str, object]) -> NoticeView:
        """A new notice in the player's inbox (the oldest past ``INBOX_KEPT`` go)."""
        with self.storage.writing() as session:
            row = NoticeRow(player_id=player_id, kind=kind, at=stamp(), data=dict(data),
                            read=False)
            session.add(row)
            session.flush()
            cut = session.scalar(select(NoticeRow.id).where(NoticeRow.player_id == player_id)
                                 .order_by(NoticeRow.id.desc()).offset(INBOX_KEPT).limit(1))
            if cut is not None:
                session.execute(delete(NoticeRow).where(NoticeRow.player_id == player_id,
                                                        NoticeRow.id <= cut))
            return row.shown()

    @guarded
    def add_notices(self, notices: list[tuple[str, str, Mapping[str, object]]]) -> None:
        """``add_notice`` for several (player, kind, data), in one transaction."""
        with self.storage.writing() as session:
            at = stamp()
            session.add_all(NoticeRow(player_id=player_id, kind=kind, at=at, data=dict(data),
                                      read=False) for player_id, kind, data in notices)
            session.flush()
            ranked = select(NoticeRow.id, func.row_number().over(
                partition_by=NoticeRow.player_id, order_by=NoticeRow.id.desc()).label("n")
            ).where(NoticeRow.player_id.in_({p for p, _, _ in notices})).subquery()
            session.execute(delete(NoticeRow).where(NoticeRow.id.in_(   # past INBOX_KEPT
                select(ranked.c.id).where(ranked.c.n > INBOX_KEPT))))

    @guarded
    def notices(self, player_id: str, *, after: int = 0, limit: int = 50,
                unread: bool = False) -> list[NoticeView]:
        """The player's notices, newest first (``after``: only those with a larger id)."""
        with self.storage.sessions() as session:
            query = select(NoticeRow).where(NoticeRow.player_id == player_id,
                                            NoticeRow.id > after)
            if unread:
                query = query.where(NoticeRow.read.is_(False))
            rows = session.scalars(query.order_by(NoticeRow.id.desc()).limit(limit)).all()
            return [row.shown() for row in rows]

    @guarded
    def unread(self, player_id: str) -> int:
        with self.storage.sessions() as session:
            return int(session.scalar(select(func.count()).select_from(NoticeRow).where(
                NoticeRow.player_id == player_id, NoticeRow.read.is_(False))) or 0)

    @guarded
    def mark_read(self, player_id: str, upto: int | None = None) -> int:
        """Mark the player's notices read (``upto``: those with an id up to it); how many."""
        with self.storage.writing() as session:
            query = update(NoticeRow).where(NoticeRow.player_id == player_id,
                                            NoticeRow.read.is_(False))
            if upto is not None:
                query = query.where(NoticeRow.id <= upto)
            result = session.execute(query.values(read=True))
            return int(getattr(result, "rowcount", 0) or 0)

    # -- settings ---------------------------------------------------------------------------
    @guarded
    def settings(self, player_id: str) -> tuple[str, Routes]:
        """(who may challenge the player, where each kind of notice goes)."""
        with self.storage.sessions() as session:
            row = session.get(SocialSettingsRow, player_id)
            return ("everyone", {}) if row is None else (row.challenges, dict(row.routes or {}))

    @guarded
    def routes_of(self, player_ids: list[str]) -> dict[str, Routes]:
        """Where each kind of notice goes, for each of the players who chose (``settings``'
        second half; one query for them all)."""
        with self.storage.sessions() as session:
            return {player: dict(routes or {}) for player, routes in session.execute(
                select(SocialSettingsRow.player_id, SocialSettingsRow.routes).where(
                    SocialSettingsRow.player_id.in_(player_ids)))}

    @guarded
    def set_settings(self, player_id: str, challenges: str | None,
                     routes: Mapping[str, object] | None) -> tuple[str, Routes]:
        with self.storage.writing() as session:
            row = session.get(SocialSettingsRow, player_id)
            if row is None:
                row = SocialSettingsRow(player_id=player_id, challenges="everyone", routes={})
                session.add(row)
            if challenges is not None:
                row.challenges = challenges
            if routes is not None:
                row.routes = {**(row.routes or {}), **routes}
            return row.challenges, dict(row.routes or {})

    @guarded
    def mailed_routes(self, limit: int = 100_000) -> list[tuple[str, Routes]]:
        """The players whose settings route some kind of notice to ``email`` (the digest)."""
        with self.storage.sessions() as session:
            rows = session.execute(select(SocialSettingsRow.player_id, SocialSettingsRow.routes)
                                   .limit(limit)).all()
            return [(player, dict(routes)) for player, routes in rows
                    if routes and any(isinstance(ways, list) and "email" in ways
                                      for ways in routes.values())]

    @guarded
    def set_digest_mark(self, player_id: str, mark: dict[str, object]) -> None:
        """The digest's bookmark (when, and the last notice mailed), kept in the routes."""
        with self.storage.writing() as session:
            row = session.get(SocialSettingsRow, player_id)
            if row is not None:
                row.routes = {**(row.routes or {}), "_digest": mark}

    @guarded
    def unsubscribe(self, player_id: str) -> bool:
        """Take ``email`` out of every route; whether there was one."""
        with self.storage.writing() as session:
            row = session.get(SocialSettingsRow, player_id)
            if row is None:
                return False
            routes = dict(row.routes or {})
            changed = False
            for kind, ways in list(routes.items()):
                if isinstance(ways, list) and "email" in ways:
                    routes[kind] = [way for way in ways if way != "email"]
                    changed = True
            row.routes = routes
            return changed

    # -- follows and blocks -----------------------------------------------------------------
    @guarded
    def follow(self, follower: str, followed: str, on: bool) -> bool:
        """Follow (``on``) or stop; whether anything changed."""
        return self._pair(FollowRow, follower, followed, on)

    @guarded
    def block(self, blocker: str, blocked: str, on: bool) -> bool:
        return self._pair(BlockRow, blocker, blocked, on)

    def _pair(self, row_type: type[FollowRow] | type[BlockRow], one: str, other: str,
              on: bool) -> bool:
        with self.storage.writing() as session:
            held = session.get(row_type, (one, other))
            mine = (FollowRow.follower_id if row_type is FollowRow else BlockRow.blocker_id)
            if on and held is None and (session.scalar(
                    select(func.count()).select_from(row_type).where(mine == one)) or 0
                    ) >= MAX_PAIRS:
                what = "follow" if row_type is FollowRow else "block"
                raise Refused(f"you may {what} at most {MAX_PAIRS} players", 409,
                              "too_many_players", params={"limit": MAX_PAIRS})
            if on and held is None:
                session.add(_pair_row(row_type, one, other))
                return True
            if not on and held is not None:
                session.delete(held)
                return True
            return False

    @guarded
    def following(self, player_id: str) -> list[tuple[str, str, str | None]]:
        """The players ``player_id`` follows: (id, shown name, username), by name."""
        with self.storage.sessions() as session:
            rows = session.execute(select(PlayerRow.id, PlayerRow.name, PlayerRow.username)
                                   .join(FollowRow, FollowRow.followed_id == PlayerRow.id)
                                   .where(FollowRow.follower_id == player_id)
                                   .order_by(PlayerRow.name, PlayerRow.id)).all()
            return [(found, name, username) for found, name, username in rows]

    @guarded
    def playing(self, ids: list[str]) -> dict[str, str]:
        """A table each of these players sits at that is being played now (the latest)."""
        if not ids:
            return {}
        with self.storage.sessions() as session:
            rows = session.execute(select(SeatRow.player_id, TableRow.id).join(
                TableRow, TableRow.id == SeatRow.table_id).where(
                SeatRow.player_id.in_(ids), TableRow.status == "playing")
                .order_by(TableRow.created)).all()
            return {player: table for player, table in rows if player is not None}

    @guarded
    def followers(self, player_id: str) -> list[str]:
        with self.storage.sessions() as session:
            return list(session.scalars(select(FollowRow.follower_id).where(
                FollowRow.followed_id == player_id)))

    @guarded
    def followers_of(self, player_ids: list[str]) -> dict[str, list[str]]:
        """``followers`` of several players, in one query."""
        found: dict[str, list[str]] = {}
        with self.storage.sessions() as session:
            for followed, follower in session.execute(
                    select(FollowRow.followed_id, FollowRow.follower_id).where(
                        FollowRow.followed_id.in_(player_ids))):
                found.setdefault(followed, []).append(follower)
        return found

    @guarded
    def follows(self, follower: str, followed: str) -> bool:
        with self.storage.sessions() as session:
            return session.get(FollowRow, (follower, followed)) is not None

    @guarded
    def blocked(self, player_id: str) -> list[tuple[str, str, str | None]]:
        """The players ``player_id`` blocks: (id, shown name, username)."""
        with self.storage.sessions() as session:
            rows = session.execute(select(PlayerRow.id, PlayerRow.name, PlayerRow.username)
                                   .join(BlockRow, BlockRow.blocked_id == PlayerRow.id)
                                   .where(BlockRow.blocker_id == player_id)
                                   .order_by(PlayerRow.name, PlayerRow.id)).all()
            return [(found, name, username) for found, name, username in rows]

    @guarded
    def blocks_between(self, one: str, other: str) -> bool:
        """Whether either player blocks the other."""
        with self.storage.sessions() as session:
            return session.scalar(select(func.count()).select_from(BlockRow).where(
                ((BlockRow.blocker_id == one) & (BlockRow.blocked_id == other))
                | ((BlockRow.blocker_id == other) & (BlockRow.blocked_id == one)))) != 0

    @guarded
    def blocking_any(self, ids: list[str]) -> set[tuple[str, str]]:
        """The (blocker, blocked) pairs among ``ids`` (quick play's pairing reads it)."""
        if len(ids) < 2:
            return set()
        with self.storage.sessions() as session:
            rows = session.execute(select(BlockRow.blocker_id, BlockRow.blocked_id).where(
                BlockRow.blocker_id.in_(ids), BlockRow.blocked_id.in_(ids))).all()
            return {(one, other) for one, other in rows}

    # -- challenges -------------------------------------------------------------------------
    @guarded
    def add_challenge(self, row: ChallengeRow) -> None:
        with self.storage.writing() as session:
            session.add(row)

    @guarded
    def challenge(self, challenge_id: str) -> ChallengeRow | None:
        with self.storage.sessions() as session:
            return session.get(ChallengeRow, challenge_id)

    @guarded
    def challenges_of(self, player_id: str, limit: int = 100) -> list[ChallengeRow]:
        """The player's challenges, sent and received, newest first."""
        with self.storage.sessions() as session:
            return list(session.scalars(select(ChallengeRow).where(
                (ChallengeRow.from_id == player_id) | (ChallengeRow.to_id == player_id))
                .order_by(ChallengeRow.created.desc(), ChallengeRow.id).limit(limit)))

    @guarded
    def open_sent(self, player_id: str) -> int:
        """How many open challenges the player has sent."""
        with self.storage.sessions() as session:
            return int(session.scalar(select(func.count()).select_from(ChallengeRow).where(
                ChallengeRow.from_id == player_id, ChallengeRow.status == "open")) or 0)

    @guarded
    def settle(self, challenge_id: str, status: str, was: str = "open",
               table_id: str | None = None, answered: _dt.datetime | None = None) -> bool:
        """Move a challenge from ``was`` (open) to ``status``; false when it was not
        ``was`` any more (another request settled it first: only one of them wins).
        Accepting goes through ``accepting`` (with the table's id chosen, and when) while
        its table is made."""
        with self.storage.writing() as session:
            result = session.execute(update(ChallengeRow).where(
                ChallengeRow.id == challenge_id, ChallengeRow.status == was)
                .values(status=status, table_id=table_id, answered=answered))
            return bool(getattr(result, "rowcount", 0))

    @guarded
    def names(self, ids: list[str]) -> dict[str, str]:
        """The shown name of each player id (those that exist)."""
        if not ids:
            return {}
        with self.storage.sessions() as session:
            return dict(session.execute(select(PlayerRow.id, PlayerRow.name).where(
                PlayerRow.id.in_(ids))).all())

    @guarded
    def expire(self, now: _dt.datetime | None = None) -> int:
        """Every open challenge past its time is ``expired``, and every acceptance left
        ``accepting`` by a process that stopped is settled by what it left: its table
        made, ``accepted``; not made, ``open`` again (or ``expired``); how many changed."""
        now = now or stamp()
        with self.storage.writing() as session:
            stranded = list(session.scalars(select(ChallengeRow).where(
                ChallengeRow.status == "accepting",   # no time: left before it was kept
                ChallengeRow.answered.is_(None) | (ChallengeRow.answered <= now - ACCEPTING_FOR))
                .with_for_update()))
            made = set(session.scalars(select(TableRow.id).where(
                TableRow.id.in_([row.table_id for row in stranded if row.table_id]))))
            for row in stranded:
                if row.table_id in made:
                    row.status = "accepted"
                else:
                    row.status = "open" if row.expires > now else "expired"
                    row.table_id = None
                row.answered = None
            result = session.execute(update(ChallengeRow).where(
                ChallengeRow.status == "open", ChallengeRow.expires <= now)
                .values(status="expired"))
            return len(stranded) + int(getattr(result, "rowcount", 0) or 0)

    @guarded
    def withdraw_all(self, player_id: str) -> list[ChallengeRow]:
        """Cancel every open challenge from or to the player (a ban); the ones cancelled."""
        with self.storage.writing() as session:
            rows = list(session.scalars(select(ChallengeRow).where(
                ChallengeRow.status == "open",
                (ChallengeRow.from_id == player_id) | (ChallengeRow.to_id == player_id))))
            for row in rows:
                row.status = "cancelled"
            return rows


def _pair_row(row_type: type[FollowRow] | type[BlockRow], one: str,
              other: str) -> FollowRow | BlockRow:
    if row_type is FollowRow:
        return FollowRow(follower_id=one, followed_id=other, at=stamp())
    return BlockRow(blocker_id=one, blocked_id=other, at=stamp())
