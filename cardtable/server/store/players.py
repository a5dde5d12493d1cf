"""Players, not seats: guests, accounts and bot accounts, kept in SQL.

A first visit gets a guest (a friendly random name, kept by a signed cookie: see
``web.accounts``); a guest who registers becomes an account with the same id, so their
games stay theirs; an account that makes an API token is a bot account for good (programs
play unrated).  The rows live on the storage's ``Base`` and engine; the schema is made by
the migration ``0003_players``.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import secrets
from dataclasses import dataclass, field
from typing import Literal

from sqlalchemy import (
    Float,
    ForeignKey,
    Integer,
    String,
    delete,
    distinct,
    func,
    or_,
    select,
    update,
)
from sqlalchemy import exc as sa_exc
from sqlalchemy.orm import Mapped, aliased, mapped_column
from typing_extensions import TypedDict

from ..core.confusables import name_key
from ..core.errors import Refused
from .progress import LessonDoneRow
from .stamps import Stamp, stamp
from .storage import OPEN, OVER, Base, SeatRow, Store, TableRow, guarded, hash_token

__all__ = [
    "GUEST_WORDS",
    "ApiTokenRow",
    "OriginRow",
    "Player",
    "PlayerRow",
    "PlayerStore",
    "origin_of",
    "random_name",
]

Kind = Literal["guest", "account", "bot", "deleted"]
"""``deleted``: an account its owner deleted (``control``), kept for its games' seats."""


@dataclass(frozen=True)
class Player:
    """Who is asking: a guest, an account or a bot account (an account with API tokens)."""

    id: str
    name: str
    kind: Kind
    username: str | None = None

    def public(self) -> PublicPlayer:
        return {"id": self.id, "name": self.name, "kind": self.kind, "username": self.username}


class PublicPlayer(TypedDict):
    """A player as others may see them (``Player.public``)."""

    id: str
    name: str
    kind: Kind
    username: str | None


class OpenSeat(TypedDict):
    """A seat of a player's at a table still in play (``PlayerStore.open_seats``)."""

    table: str
    seat: int
    game: str
    status: str
    url: str


SKELETON_LENGTH = 200
"""The most of a display name's confusable key kept (24 characters can grow, a few
characters NFKC and the prototypes turn into many)."""


def shown_key(name: str) -> str:
    """A display name's confusable key as ``PlayerRow.name_skeleton`` keeps it.

    >>> shown_key("D\u0430rya") == shown_key("darya")
    True
    """
    return name_key(name)[:SKELETON_LENGTH]


class PlayerRow(Base):
    """A guest or an account; ``username_key`` is the username in lower case (unique)."""

    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    name: Mapped[str] = mapped_column(String(80))
    username: Mapped[str | None] = mapped_column(String(20), nullable=True)
    username_key: Mapped[str | None] = mapped_column(String(20), nullable=True, unique=True)
    username_skeleton: Mapped[str | None] = mapped_column(String(80), nullable=True,
                                                          index=True)
    """The username's confusable key (``core.confusables.name_key``): what a look-alike
    username or name is found by."""
    name_skeleton: Mapped[str | None] = mapped_column(String(SKELETON_LENGTH), nullable=True,
                                                      index=True)
    """An account's display name by its confusable key (``shown_key``; ``None`` for a
    guest): a new username or name that looks like an account's shown name is found by
    it, as one that looks like its username is (a guest's name holds nothing back)."""
    password_hash: Mapped[str | None] = mapped_column(String(200), nullable=True)
    created: Mapped[_dt.datetime] = mapped_column(Stamp)

    def like(self, text: str) -> str:
        """What of this account ``text`` looks like: its username, else its display name."""
        return (self.username if self.username and self.username_skeleton == name_key(text)
                else self.name)

    def player(self) -> Player:
        return Player(id=self.id, name=self.name, kind=self.kind,  # type: ignore[arg-type]
                      username=self.username)


class ApiTokenRow(Base):
    """An account's API token (only its hash is kept)."""

    __tablename__ = "api_tokens"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    created: Mapped[_dt.datetime] = mapped_column(Stamp)


class SessionRow(Base):
    """A signed-in browser: the cookie holds the session's id (signed), the database its
    hash; signing out deletes the row, so a copied cookie is dead from then on."""

    __tablename__ = "sessions"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    created: Mapped[_dt.datetime] = mapped_column(Stamp)


class SecretRow(Base):
    """A server secret shared by every process (the key that signs session cookies)."""

    __tablename__ = "app_secrets"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))


class RatingRow(Base):
    """A player's openskill rating in one pool (game, rule set, player count)."""

    __tablename__ = "ratings"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    pool: Mapped[str] = mapped_column(String(120), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)


class RatingHistoryRow(Base):
    """A rating after one rated game (the profile's chart)."""

    __tablename__ = "rating_history"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    pool: Mapped[str] = mapped_column(String(120))
    table_id: Mapped[str] = mapped_column(String(32))
    at: Mapped[_dt.datetime] = mapped_column(Stamp)
    rating: Mapped[int] = mapped_column(Integer)
    change: Mapped[int] = mapped_column(Integer)


class PlayerGameRow(Base):
    """A finished game of a player (rated or not): the profile's recent games."""

    __tablename__ = "player_games"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(32), primary_key=True, index=True)
    """Indexed on its own: a table's results are read by the table (a tournament's
    scoring), which the key, the player first, does not find."""
    seat: Mapped[int] = mapped_column(Integer)
    game: Mapped[str] = mapped_column(String(32))
    pool: Mapped[str] = mapped_column(String(120))
    result: Mapped[str] = mapped_column(String(8))
    """``win``, ``loss`` or ``draw``."""
    rated: Mapped[int] = mapped_column(Integer)
    at: Mapped[_dt.datetime] = mapped_column(Stamp, index=True)


class OriginRow(Base):
    """Where an account signs in from, as a hash (``origin_of``): its network (an IPv4
    address, an IPv6 /64) and its browser (the accounts the browser was signed in to
    before).  Accounts that share one are related: their games together are not rated,
    and an admin sees them as a suspected farm."""

    __tablename__ = "account_origins"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    origin: Mapped[str] = mapped_column(String(64), primary_key=True, index=True)
    kind: Mapped[str] = mapped_column(String(8))
    """``network`` or ``browser``."""
    first: Mapped[_dt.datetime] = mapped_column(Stamp)
    last: Mapped[_dt.datetime] = mapped_column(Stamp)


def origin_of(kind: str, value: str) -> str:
    """An origin's stored form: a hash, so the table holds no address.

    >>> len(origin_of("network", "203.0.113.9"))
    64
    >>> origin_of("browser", "ana") == origin_of("browser", "bo")
    False
    """
    return hashlib.sha256(f"cardtable.origin:{kind}:{value}".encode()).hexdigest()


class BotRecordRow(Base):
    """A player's results against one bot level."""

    __tablename__ = "bot_records"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    bot: Mapped[str] = mapped_column(String(200), primary_key=True)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    losses: Mapped[int] = mapped_column(Integer, default=0)
    draws: Mapped[int] = mapped_column(Integer, default=0)


class FinishedRow(Base):
    """A table whose results were counted (so they are counted once, by one process)."""

    __tablename__ = "tables_counted"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    at: Mapped[_dt.datetime] = mapped_column(Stamp)


# -- names ------------------------------------------------------------------------------
ADJECTIVES = ("Brave", "Calm", "Clever", "Quick", "Lucky", "Merry", "Bold", "Gentle",
              "Sly", "Bright", "Quiet", "Swift", "Wise", "Jolly", "Keen", "Noble")
ANIMALS = ("Otter", "Falcon", "Fox", "Heron", "Lynx", "Badger", "Owl", "Hare", "Marten",
           "Crane", "Wolf", "Stag", "Robin", "Panda", "Seal", "Gazelle")

GUEST_WORDS: dict[str, tuple[tuple[str, ...], tuple[str, ...], str]] = {
    "en": (ADJECTIVES, ANIMALS, "{adjective} {animal} {n}"),
    # the adjective after its noun, and masculine nouns alone, so that they agree
    "pt": (("Valente", "Calmo", "Esperto", "Rápido", "Sortudo", "Alegre", "Ousado", "Gentil",
            "Astuto", "Brilhante", "Quieto", "Veloz", "Sábio", "Feliz", "Atento", "Nobre"),
           ("Lobo", "Falcão", "Gato", "Urso", "Leão", "Pardal", "Golfinho", "Cervo", "Texugo",
            "Mocho", "Coelho", "Castor", "Esquilo", "Tigre", "Pinguim", "Lince"),
           "{animal} {adjective} {n}"),
    # masculine nouns alone, which the masculine adjectives agree with
    "ru": (("Храбрый", "Спокойный", "Умный", "Быстрый", "Везучий", "Весёлый", "Смелый",
            "Добрый", "Хитрый", "Ясный", "Тихий", "Шустрый", "Мудрый", "Бодрый", "Зоркий",
            "Гордый"),
           ("Лис", "Сокол", "Волк", "Барсук", "Филин", "Заяц", "Журавль", "Олень", "Тюлень",
            "Енот", "Ёж", "Бобр", "Медведь", "Орёл", "Кот", "Ястреб"),
           "{adjective} {animal} {n}"),
    # the adjective after its noun; the number in Persian digits, as a Persian page writes it
    "fa": (("دلیر", "آرام", "زیرک", "چابک", "خوش‌شانس", "شاد", "بی‌باک", "مهربان", "هشیار",
            "درخشان", "خاموش", "تیزپا", "دانا", "سرزنده", "تیزبین", "نجیب"),
           ("روباه", "شاهین", "سمور", "حواصیل", "سیاه‌گوش", "گورکن", "جغد", "خرگوش", "درنا",
            "گرگ", "گوزن", "سینه‌سرخ", "پاندا", "عقاب", "آهو", "یوزپلنگ"),
           "{animal} {adjective} {n}"),
}
"""A guest's name in the words of the language the page was in on the first visit."""

_PERSIAN_DIGITS = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")


def random_name(rng: secrets.SystemRandom | None = None, lang: str = "en") -> str:
    """A guest's friendly name in ``lang``'s own words, such as ``Clever Otter 42``,
    ``Lobo Esperto 42``, ``Умный Лис 42`` or ``روباه زیرک ۴۲`` (English for another)."""
    rng = rng or secrets.SystemRandom()
    adjectives, animals, pattern = GUEST_WORDS.get(lang, GUEST_WORDS["en"])
    n = str(rng.randint(10, 99))
    if lang == "fa":
        n = n.translate(_PERSIAN_DIGITS)
    return pattern.format(adjective=rng.choice(adjectives), animal=rng.choice(animals), n=n)



def new_player_id() -> str:
    return "p" + secrets.token_hex(12)


class PlayerStore(Store):
    """The players' rows, through the storage's engine and threads (call it in a thread)."""

    @guarded
    def secret(self, name: str) -> str:
        """A secret shared by every process, made by the first that asks."""
        with self.storage.sessions() as session:
            row = session.get(SecretRow, name)
            if row is not None:
                return row.value
        value = secrets.token_urlsafe(48)
        try:
            with self.storage.writing() as session:
                session.add(SecretRow(name=name, value=value))
        except sa_exc.IntegrityError:   # another process made it first
            with self.storage.sessions() as session:
                row = session.get(SecretRow, name)
                assert row is not None
                return row.value
        return value

    @guarded
    def new_guest(self, session_id: str, lang: str = "en") -> Player:
        """A guest, signed in with a new session (one transaction), named in ``lang``."""
        row = PlayerRow(id=new_player_id(), kind="guest", name=random_name(lang=lang),
                        created=stamp())
        with self.storage.writing() as session:
            session.add(row)
            session.flush()
            session.add(SessionRow(id_hash=hash_token(session_id), player_id=row.id,
                                   created=stamp()))
        return row.player()

    @guarded
    def start_session(self, player_id: str, session_id: str, ending: str | None) -> None:
        """A new session for a player, ending the one it replaces (``ending``): a session
        id is never carried across a sign-in."""
        with self.storage.writing() as session:
            if ending:
                old = session.get(SessionRow, hash_token(ending))
                if old is not None:
                    session.delete(old)
            session.add(SessionRow(id_hash=hash_token(session_id), player_id=player_id,
                                   created=stamp()))

    @guarded
    def note_origins(self, player_id: str, origins: list[tuple[str, str]]) -> None:
        """Remember that ``player_id`` signed in from each ``(kind, value)`` origin."""
        at = stamp()
        with self.storage.writing() as session:
            for kind, value in origins:
                key = origin_of(kind, value)
                row = session.get(OriginRow, (player_id, key))
                if row is None:
                    session.add(OriginRow(player_id=player_id, origin=key, kind=kind,
                                          first=at, last=at))
                else:
                    row.last = at

    @guarded
    def farms(self, limit: int = 100) -> list[dict[str, object]]:
        """Suspected farms: each origin two or more accounts share, with the accounts,
        how many games they finished together, and when it was last used."""
        with self.storage.sessions() as session:
            shared = (select(OriginRow.origin).group_by(OriginRow.origin)
                      .having(func.count(OriginRow.player_id) > 1).subquery())
            rows = session.execute(
                select(OriginRow, PlayerRow.name, PlayerRow.username)
                .join(PlayerRow, PlayerRow.id == OriginRow.player_id)
                .where(OriginRow.origin.in_(select(shared.c.origin)))
                .order_by(OriginRow.origin, OriginRow.player_id)).all()
            farms: dict[str, _Farm] = {}
            for origin, name, username in rows:
                farm = farms.setdefault(origin.origin,
                                        _Farm(origin.origin, origin.kind, origin.last))
                farm.accounts.append((origin.player_id, name, username))
                farm.last = max(farm.last, origin.last)
            for farm in farms.values():
                ids = [found for found, _, _ in farm.accounts]
                mine, theirs = aliased(PlayerGameRow), aliased(PlayerGameRow)
                farm.together = session.scalar(
                    select(func.count(distinct(mine.table_id)))
                    .join(theirs, theirs.table_id == mine.table_id)
                    .where(mine.player_id.in_(ids), theirs.player_id.in_(ids),
                           theirs.player_id != mine.player_id)) or 0
        return [farm.shown() for farm in sorted(
            farms.values(), key=lambda f: (-f.together, -len(f.accounts)))[:limit]]

    @guarded
    def end_session(self, session_id: str) -> None:
        with self.storage.writing() as session:
            row = session.get(SessionRow, hash_token(session_id))
            if row is not None:
                session.delete(row)

    @guarded
    def by_session(self, session_id: str) -> Player | None:
        with self.storage.sessions() as session:
            row = session.scalar(select(PlayerRow).join(
                SessionRow, SessionRow.player_id == PlayerRow.id).where(
                SessionRow.id_hash == hash_token(session_id)))
            return None if row is None else row.player()

    @guarded
    def get(self, player_id: str) -> Player | None:
        with self.storage.sessions() as session:
            row = session.get(PlayerRow, player_id)
            return None if row is None else row.player()

    @guarded
    def by_username(self, username: str) -> PlayerRow | None:
        with self.storage.sessions() as session:
            return session.scalar(select(PlayerRow).where(
                PlayerRow.username_key == username.lower()))

    @guarded
    def by_skeleton(self, text: str, other_than: str | None = None) -> PlayerRow | None:
        """An account other than ``other_than`` whose username or display name looks like
        ``text`` (the same confusable key)."""
        key = shown_key(text)
        with self.storage.sessions() as session:
            return session.scalars(select(PlayerRow).where(
                or_(PlayerRow.username_skeleton == key, PlayerRow.name_skeleton == key),
                PlayerRow.id != (other_than or "")).limit(1)).first()

    @guarded
    def register(self, player_id: str | None, username: str, password_hash: str) -> Player:
        """An account; a guest (``player_id``) becomes it, keeping their id and games.

        ``Refused`` (409, ``username_taken``) if the name is taken in any case, or
        (409, ``username_confusable``) if it looks like one taken or like an account's
        display name (``bi11`` beside ``bill``, ``rnary`` beside ``mary``, ``dаrya`` in
        Cyrillic beside an account shown as ``Darya``)."""
        skeleton = name_key(username)
        with self.storage.writing() as session:
            taken = session.scalar(select(PlayerRow.id).where(
                PlayerRow.username_key == username.lower()))
            if taken is not None:
                raise Refused("that username is taken", 409, "username_taken")
            alike = session.scalars(select(PlayerRow).where(
                or_(PlayerRow.username_skeleton == skeleton,
                    PlayerRow.name_skeleton == shown_key(username)),
                PlayerRow.id != (player_id or "")).limit(1)).first()
            if alike is not None:
                raise Refused(f"that username looks just like the player {alike.like(username)!r} "
                              "(letters of another alphabet, or signs that look the same, "
                              "count as the same): choose another", 409,
                              "username_confusable")
            row = session.get(PlayerRow, player_id) if player_id else None
            if row is None or row.kind != "guest":
                row = PlayerRow(id=new_player_id(), created=stamp(), name=username, kind="account")
                session.add(row)
            row.kind, row.username, row.username_key = "account", username, username.lower()
            row.username_skeleton, row.name_skeleton = skeleton, shown_key(username)
            row.password_hash, row.name = password_hash, username
            try:
                session.flush()
            except sa_exc.IntegrityError:
                raise Refused("that username is taken", 409, "username_taken") from None
            return row.player()

    @guarded
    def rename(self, player_id: str, name: str) -> Player | None:
        with self.storage.writing() as session:
            row = session.get(PlayerRow, player_id)
            if row is None:
                return None
            row.name = name
            row.name_skeleton = shown_key(name) if row.kind == "account" else None
            # the seats of open tables show the new name too
            open_ids = select(TableRow.id).where(TableRow.status.in_(OPEN))
            session.execute(update(SeatRow).where(SeatRow.player_id == player_id,
                                                  SeatRow.table_id.in_(open_ids))
                            .values(name=name))
            return row.player()

    @guarded
    def set_password_hash(self, player_id: str, password_hash: str) -> None:
        with self.storage.writing() as session:
            session.execute(update(PlayerRow).where(PlayerRow.id == player_id)
                            .values(password_hash=password_hash))

    @guarded
    def merge_guest(self, guest_id: str, account_id: str) -> list[str]:
        """The guest's games become the account's, in one transaction, as they sign in to
        it: seats (open ones show the account's name), finished games, results against
        bots and lesson steps; the guest's sessions end.  A table where the account sits
        too keeps the guest's seat the guest's: a game is never one against oneself.  A
        merged seat keeps ``player_kind`` ``guest`` (it was taken as one), so a game that
        began unrated stays so.  Answers the ids of the open tables whose seats moved."""
        with self.storage.writing() as session:
            guest, account = session.get(PlayerRow, guest_id), session.get(PlayerRow,
                                                                           account_id)
            if guest is None or account is None or guest.kind != "guest" or guest is account:
                return []
            shared = set(session.scalars(select(SeatRow.table_id).where(
                SeatRow.player_id == account_id)))   # before any seat moves
            moving = session.scalars(select(SeatRow).where(
                SeatRow.player_id == guest_id, SeatRow.table_id.not_in(shared))).all()
            status = dict(session.execute(select(TableRow.id, TableRow.status).where(
                TableRow.id.in_({seat.table_id for seat in moving}))).all())
            for row in moving:   # stored seats: the live ones are told after (``Rename``)
                row.player_id = account_id
                if status.get(row.table_id) in OPEN:
                    row.name = account.name
            for kind in (PlayerGameRow, RatingHistoryRow):
                session.execute(update(kind).where(
                    kind.player_id == guest_id, kind.table_id.not_in(shared))
                    .values(player_id=account_id))
            for record in session.scalars(select(BotRecordRow).where(
                    BotRecordRow.player_id == guest_id)).all():
                mine = session.get(BotRecordRow, (account_id, record.bot))
                if mine is None:
                    session.add(BotRecordRow(player_id=account_id, bot=record.bot,
                                             wins=record.wins, losses=record.losses,
                                             draws=record.draws))
                else:
                    mine.wins += record.wins
                    mine.losses += record.losses
                    mine.draws += record.draws
                session.delete(record)
            for step in session.scalars(select(LessonDoneRow).where(
                    LessonDoneRow.player_id == guest_id)).all():
                if session.get(LessonDoneRow, (account_id, step.game, step.step)) is None:
                    session.add(LessonDoneRow(player_id=account_id, game=step.game,
                                              step=step.step, at=step.at))
                session.delete(step)
            session.execute(delete(SessionRow).where(SessionRow.player_id == guest_id))
            return sorted({row.table_id for row in moving if status.get(row.table_id) in OPEN})

    # -- API tokens -------------------------------------------------------------------------
    @guarded
    def new_api_token(self, player_id: str, limit: int) -> str:
        """A new API token; the account is a bot account from now on.  ``Refused``
        (409) past ``limit`` tokens."""
        token = "ct_" + secrets.token_urlsafe(30)
        with self.storage.writing() as session:
            count = session.scalar(select(func.count()).select_from(ApiTokenRow)
                                   .where(ApiTokenRow.player_id == player_id)) or 0
            if count >= limit:
                raise Refused(f"an account has at most {limit} API tokens; revoke one "
                              "first", 409, "too_many_tokens")
            session.add(ApiTokenRow(token_hash=hash_token(token), player_id=player_id,
                                    created=stamp()))
            session.execute(update(PlayerRow).where(PlayerRow.id == player_id)
                            .values(kind="bot"))
        return token

    @guarded
    def revoke_api_tokens(self, player_id: str) -> int:
        with self.storage.writing() as session:
            rows = session.scalars(select(ApiTokenRow).where(
                ApiTokenRow.player_id == player_id)).all()
            for row in rows:
                session.delete(row)
            return len(rows)

    @guarded
    def by_api_token(self, token: str) -> Player | None:
        with self.storage.sessions() as session:
            row = session.scalar(select(PlayerRow).join(
                ApiTokenRow, ApiTokenRow.player_id == PlayerRow.id).where(
                ApiTokenRow.token_hash == hash_token(token)))
            return None if row is None else row.player()

    # -- seats ------------------------------------------------------------------------------
    @guarded
    def open_seats(self, player_id: str) -> list[OpenSeat]:
        """The seats of a player at tables still in play (to come back from anywhere)."""
        with self.storage.sessions() as session:
            rows = session.execute(
                select(SeatRow.table_id, SeatRow.seat, TableRow.game, TableRow.status)
                .join(TableRow, TableRow.id == SeatRow.table_id)
                .where(SeatRow.player_id == player_id,
                       TableRow.status.in_(OPEN))
                .order_by(TableRow.created.desc()).limit(50)).all()
            return [{"table": table, "seat": seat, "game": game, "status": status,
                     "url": f"/table/{table}"} for table, seat, game, status in rows]

    @guarded
    def finished_games(self, player_id: str, *, limit: int, offset: int = 0,
                       game: str | None = None) -> list[tuple[TableRow, list[SeatRow]]]:
        """The finished tables where the player sat, latest finished first, each with its
        seats (the shape of ``Storage.listing``): the history's "my games"."""
        with self.storage.sessions() as session:
            mine = select(SeatRow.table_id).where(SeatRow.player_id == player_id)
            query = select(TableRow).where(TableRow.status == OVER, TableRow.id.in_(mine))
            if game is not None:
                query = query.where(TableRow.game == game)
            rows = session.scalars(query.order_by(TableRow.finished.desc(), TableRow.id)
                                   .limit(limit).offset(offset)).all()
            seats: dict[str, list[SeatRow]] = {row.id: [] for row in rows}
            for seat in session.scalars(select(SeatRow).where(SeatRow.table_id.in_(seats))
                                        .order_by(SeatRow.seat)):
                seats[seat.table_id].append(seat)
            return [(row, seats[row.id]) for row in rows]


@dataclass
class _Farm:
    """An origin two or more accounts share, as ``farms`` gathers it."""

    origin: str
    kind: str
    last: _dt.datetime
    accounts: list[tuple[str, str, str | None]] = field(default_factory=list)
    """Each account's id, shown name and username."""
    together: int = 0
    """The games they finished together."""

    def shown(self) -> dict[str, object]:
        return {"origin": self.origin[:12], "kind": self.kind,
                "accounts": [{"id": found, "name": name, "username": username}
                             for found, name, username in self.accounts],
                "last": self.last.isoformat(), "games_together": self.together}
