"""The tables, seats, deals and moves of the web table, kept in SQL.

Moves and deals are append-only (but for an undo at a table against bots only, which
takes back the last moves of the current deal: ``take_back``): a table is rebuilt after a
restart by dealing its stored decks again and replaying its stored moves, so nothing else
about a game in progress needs to be saved.  Each change that must be whole is one
transaction (a new table with its seats and decks; a seat with the start of the game it
completes; a move with the decks it dealt and the end of the game).  The schema itself is
made by the Alembic migrations in ``migrations/``, run by :func:`migrate` when the server
starts.  Times are timestamps in UTC (``stamps``).

A database that cannot be reached raises :class:`StorageUnavailable`; the server answers
503 and tries again later, and :class:`Outage` logs the outage once and its end once.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import datetime as _dt
import enum
import functools
import hashlib
import logging
import threading
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import ParamSpec, Protocol, TypeVar, cast

from sqlalchemy import (
    JSON,
    ForeignKey,
    Integer,
    String,
    Table,
    Text,
    delete,
    false,
    func,
    insert,
    select,
    update,
)
from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import Connection, CursorResult
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker
from sqlalchemy.sql.elements import ColumnElement

from .engine import make_engine, migrate, normalize_url, sqlite_url
from .stamps import Stamp, StampText, moment_of, stamp, text_of

__all__ = [
    "CLOSED",
    "OPEN",
    "DealRow",
    "MoveRow",
    "Outage",
    "RematchExists",
    "SeatRow",
    "Storage",
    "StorageUnavailable",
    "Store",
    "StoredTable",
    "TableRow",
    "TableStatus",
    "Tally",
    "add_table",
    "add_tables",
    "guarded",
    "hash_token",
    "migrate",
    "normalize_url",
    "now",
    "sqlite_url",
]

log = logging.getLogger("cardtable.server")

class TableStatus(enum.StrEnum):
    """Where a table is in its life; stored as its value (a ``StrEnum`` equals its text,
    so rows written before the enum read the same)."""

    WAITING = "waiting"
    """Seats are free: the game has not started."""
    PLAYING = "playing"
    OVER = "over"
    CLOSED = "closed"
    """Its rows contradicted each other at a start: closed, its reason in ``summary``."""


WAITING, PLAYING, OVER, CLOSED = (TableStatus.WAITING, TableStatus.PLAYING, TableStatus.OVER,
                                  TableStatus.CLOSED)
OPEN = (WAITING, PLAYING)
"""The statuses of a table still in play."""


class RematchExists(RuntimeError):
    """Another server process made the rematch first."""


class StorageUnavailable(RuntimeError):
    """The database cannot be reached (or gave up on the request): try again later.

    ``reason`` is a sentence for a person, ``code`` the stable ``storage_unavailable``.
    """

    code = "storage_unavailable"

    def __init__(self, reason: str = "the database cannot be reached just now; "
                                     "nothing was done: try again in a few seconds") -> None:
        super().__init__(reason)
        self.reason = reason


CANNOT_STORE = ("the server cannot store anything just now ({why}); nothing was done: "
                "try again later")


def cannot_write(error: BaseException) -> str | None:
    """What keeps the database from storing anything, if ``error`` says so (a full disk, a
    failing one, a file made read-only), else ``None``: the database answers reads, and an
    outage of this kind is over only once a write succeeds.

    >>> import sqlite3
    >>> cannot_write(sqlite3.OperationalError("database or disk is full"))
    'database or disk is full'
    >>> cannot_write(sqlite3.OperationalError("unable to open database file")) is None
    True
    """
    cause = getattr(error, "orig", None) or error
    text = str(cause).strip().splitlines()[0] if str(cause).strip() else ""
    lowered = text.lower()
    if any(sign in lowered for sign in _WRITE_FAILURES) or \
            getattr(cause, "sqlstate", None) in ("53100", "58030"):
        return text[:200]
    return None


_WRITE_FAILURES = ("disk is full", "disk full", "no space left", "disk i/o error",
                   "readonly database", "read-only", "could not extend file",
                   "could not write")
"""SQLite's SQLITE_FULL, SQLITE_IOERR and SQLITE_READONLY, and PostgreSQL's disk_full
(53100) and io_error (58030) as they read."""


class Outage:
    """Whether the database answers, and whether it stores.  The first failure of an
    outage is logged, and so is the first success after it; the failures in between are
    not (each request is answered 503 instead).

    A database that answers reads but cannot write (its disk full) is ``failing``: reads
    do not end that outage, only a write that succeeds does, so it is logged once, not at
    every read ("unreachable / back after 0.0 s")."""

    def __init__(self) -> None:
        self.since: float | None = None
        """``time.monotonic()`` when the outage began; ``None`` while the database answers."""
        self.error = ""
        self.failing: str | None = None
        """Why writes fail while reads answer (a full disk); ``None`` while writes work."""
        self._failing_since = 0.0
        self._lock = threading.Lock()

    @property
    def down(self) -> bool:
        return self.since is not None

    @property
    def problem(self) -> str | None:
        """What is wrong with the database now, in a few words (``None``: nothing)."""
        if self.since is not None:
            return f"unreachable: {self.error}"
        return f"cannot store: {self.failing}" if self.failing is not None else None

    def failed(self, error: BaseException) -> StorageUnavailable:
        """Note ``error``; the refusal to answer the request with."""
        why = cannot_write(error)
        if why is not None:
            with self._lock:
                first, self.failing = self.failing is None, why
                if first:
                    self._failing_since = time.monotonic()
            if first:
                log.error("the database cannot store anything (%s): moves and new tables "
                          "are refused 503 until a write succeeds", why)
            return StorageUnavailable(CANNOT_STORE.format(why=why))
        with self._lock:
            if self.since is not None:
                return StorageUnavailable()
            self.since = time.monotonic()
            self.error = _first_line(error)
        log.warning("the database is unreachable (%s): requests are answered 503 and "
                    "retried until it is back", self.error)
        return StorageUnavailable()

    def answered(self) -> None:
        if self.since is None:
            return
        with self._lock:
            if self.since is None:
                return
            lasted, self.since, self.error = time.monotonic() - self.since, None, ""
        log.warning("the database is back after %.1f s", lasted)

    def wrote(self) -> None:
        """A write was stored: the database stores again."""
        if self.failing is None:
            return
        with self._lock:
            if self.failing is None:
                return
            lasted, self.failing = time.monotonic() - self._failing_since, None
        log.warning("the database stores again after %.1f s", lasted)


def _first_line(error: BaseException) -> str:
    cause = getattr(error, "orig", None) or error
    text = str(cause).strip().splitlines()
    return f"{type(cause).__name__}: {text[0] if text else ''}"[:200]


_UNREACHABLE = (sa_exc.OperationalError, sa_exc.InterfaceError, sa_exc.TimeoutError)
"""What SQLAlchemy raises when the database is away: a refused or dropped connection, a
server shutting down, an exhausted pool (``IntegrityError`` and the like are answers)."""


def _rows_changed(result: object) -> int:
    """How many rows an UPDATE changed: the session answers one with a ``CursorResult``
    (which counts them) but types it as the ``Result`` of any statement."""
    assert isinstance(result, CursorResult), "an UPDATE answers with a cursor result"
    return result.rowcount


_P = ParamSpec("_P")
_R = TypeVar("_R")


def guarded(method: Callable[_P, _R]) -> Callable[_P, _R]:
    """A storage call that raises ``StorageUnavailable`` when the database is away, and
    tells the storage's ``Outage`` how the call went."""

    @functools.wraps(method)
    def guarded(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        outage: Outage = args[0].outage  # type: ignore[attr-defined]
        try:
            result = method(*args, **kwargs)
        except _UNREACHABLE as error:
            raise outage.failed(error) from error
        outage.answered()
        return result

    return guarded


class Store:
    """A feature's rows (players, chat, ratings, lessons, analyses) on the storage's
    engine: each store writes through ``storage.writing()`` and reads through
    ``storage.sessions()``; its methods are ``guarded`` (call them in a thread)."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.outage = storage.outage   # what ``guarded`` tells


async def periodically(interval: float, call: Callable[[], Awaitable[object]],
                       what: str) -> None:
    """Run ``call`` every ``interval`` seconds for ever: a database outage waits for the
    next round (the storage logged it), any other failure is logged and waits too."""
    while True:
        await asyncio.sleep(interval)
        try:
            await call()
        except StorageUnavailable:
            pass
        except Exception:
            log.exception("%s failed", what)


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    """One table: the game and rules it plays, and how it stands."""

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    preset: Mapped[str | None] = mapped_column(String(64), nullable=True)
    rules: Mapped[dict[str, object]] = mapped_column(JSON)
    players: Mapped[int] = mapped_column(Integer)
    takeover: Mapped[str | None] = mapped_column(String(200), nullable=True)
    status: Mapped[str] = mapped_column(String(16), index=True)
    created: Mapped[str] = mapped_column(StampText)
    finished: Mapped[str | None] = mapped_column(StampText, nullable=True)
    """Made and ended: the live table's ISO text here, timestamps in the database."""
    summary: Mapped[dict[str, object] | None] = mapped_column(JSON, nullable=True)
    rematch_of: Mapped[str | None] = mapped_column(String(32), nullable=True)
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True)
    life: Mapped[dict[str, object] | None] = mapped_column(JSON, nullable=True)
    """The table's life besides its moves (``lifecycle.Life``): time control, clock banks
    as of the last stored move, timeouts in a row, forfeits, seats left, rated or not."""
    counted: Mapped[_dt.datetime | None] = mapped_column(Stamp, nullable=True, index=True)
    """When its results were counted (``ratings``), in the transaction that stored its end
    or later by a sweep; ``None`` while it is not over, or over and not counted yet."""


class SeatRow(Base):
    """Who sits in a seat: a bot, or a person holding a token (only its hash is kept)."""

    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    bot: Mapped[str | None] = mapped_column(String(200), nullable=True)
    name: Mapped[str | None] = mapped_column(String(80), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    seen: Mapped[_dt.datetime | None] = mapped_column(Stamp, nullable=True)
    """When a connection first came with the seat's token (``None``: not yet).  A seat
    taken but never seen is freed after a while: its token may have been lost."""
    player_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    """The player (``players.PlayerRow``) who took the seat, if the request had one."""
    player_kind: Mapped[str | None] = mapped_column(String(16), nullable=True)
    """``guest``, ``account`` or ``bot`` (a program): what the seat shows."""


class DealRow(Base):
    """A deck as dealt (the order matters): secret until the game is over."""

    __tablename__ = "deals"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    index: Mapped[int] = mapped_column(Integer, primary_key=True)
    cards: Mapped[list[str]] = mapped_column(JSON)


class MoveRow(Base):
    """One move, written before anyone is told of it."""

    __tablename__ = "moves"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    index: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    move: Mapped[str] = mapped_column(Text)
    at: Mapped[str] = mapped_column(StampText)
    takeover: Mapped[bool] = mapped_column(default=False, server_default=false())  # a bot's


def now() -> str:
    """Now, as the ISO text the live tables carry and the API shows (``stamps.text_of``)."""
    return text_of(stamp())


def hash_token(token: str) -> str:
    """Tokens are stored hashed, so a copy of the database cannot be used to take a seat."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class Tally(Protocol):
    """A finished table's count (``ratings.Tally``), run inside the transaction that stores
    its end: results, records, ratings.  Answers what it adds to the table's summary."""

    def __call__(self, session: Session, at: _dt.datetime) -> dict[str, object]: ...


@dataclass
class StoredTable:
    """Everything the database holds about one table."""

    row: TableRow
    seats: list[SeatRow]
    decks: list[list[str]] = field(default_factory=list)
    moves: list[MoveRow] = field(default_factory=list)


def add_table(session: Session, row: TableRow, seats: Sequence[SeatRow],
              decks: Sequence[Sequence[str]]) -> None:
    """A new table's rows (the table, its seats, its first decks) added to a transaction
    (``Storage.create_table``'s)."""
    add_tables(session, [(row, seats, decks)])


def add_tables(session: Session, tables: Sequence[tuple[TableRow, Sequence[SeatRow],
                                                        Sequence[Sequence[str]]]]) -> None:
    """New tables' rows added to a transaction, each kind in one statement (a tournament's
    step writes its tables in its own transaction)."""
    session.add_all(row for row, _, _ in tables)
    session.flush()   # the tables before the seats and decks that refer to them
    session.add_all(seat for _, seats, _ in tables for seat in seats)
    session.add_all(DealRow(table_id=row.id, index=i, cards=list(deck))
                    for row, _, decks in tables for i, deck in enumerate(decks))


class Storage:
    """Synchronous access to the database; the server calls it from ``executor``, threads
    of its own that nothing else uses (the app makes them its event loop's default).

    Every call raises ``StorageUnavailable`` when the database cannot be reached.
    """

    def __init__(self, url: str, threads: int = 8, *, connect_timeout: float = 5.0) -> None:
        self.url = normalize_url(url)
        self.engine = make_engine(self.url, connect_timeout)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        self.outage = Outage()
        self.executor = concurrent.futures.ThreadPoolExecutor(
            max_workers=max(1, threads), thread_name_prefix="storage")
        self._write_lock: contextlib.AbstractContextManager[object] = (
            threading.Lock() if self.url.startswith("sqlite") else contextlib.nullcontext())
        self._mover: Connection | None = None
        """The moves' own connection (``_on_mover``), kept between their transactions."""
        self._moving = threading.Lock()

    @contextlib.contextmanager
    def writing(self) -> Iterator[Session]:
        """The one unit of work every store writes in: a transaction, committed whole or
        rolled back.  SQLite has one writer at a time: this process's writers queue on a
        lock here rather than in SQLite's busy wait, which sleeps in steps of up to 100 ms
        (a latency spike for every move that meets a table being made)."""
        with self._write_lock, self.sessions.begin() as session:
            yield session
        self.outage.wrote()

    def _on_mover(self, write: Callable[[Connection], object]) -> None:
        """Run ``write`` in a transaction on a connection kept for the moves: the group
        commits come several hundred a second, and taking a connection from the pool for
        each (with PostgreSQL's ping) and a session cost the writer's thread more than the
        insert.  A connection found dropped before the commit (a database restarted) is
        replaced and the write tried once more; after a failure at the commit it is not,
        since the transaction may have been stored."""
        with self._write_lock, self._moving:
            for attempt in (1, 2):
                connection, self._mover = self._mover or self.engine.connect(), None
                committing = False
                try:
                    with connection.begin():
                        write(connection)
                        committing = True
                except sa_exc.DBAPIError as error:
                    connection.close()
                    if attempt == 1 and error.connection_invalidated and not committing:
                        continue
                    raise
                except BaseException:
                    connection.close()
                    raise
                self._mover = connection
                self.outage.wrote()
                return

    def migrate(self) -> None:
        migrate(self.engine)

    def close(self) -> None:
        if self._moving.acquire(timeout=1):   # a write still waiting keeps its connection
            if self._mover is not None:
                self._mover.close()
                self._mover = None
            self._moving.release()
        self.executor.shutdown(wait=False, cancel_futures=True)
        self.engine.dispose()

    # -- writing ----------------------------------------------------------------------
    @guarded
    def create_table(self, row: TableRow, seats: Sequence[SeatRow],
                     decks: Sequence[Sequence[str]], rematch_of: str | None = None) -> None:
        """A new table, its seats and its first decks; with ``rematch_of``, link the old
        table to it in the same transaction (refused if it already has a rematch)."""
        with self.writing() as session:
            if rematch_of is not None:
                linked = session.execute(
                    update(TableRow).where(TableRow.id == rematch_of, TableRow.rematch.is_(None))
                    .values(rematch=row.id))
                if _rows_changed(linked) != 1:
                    raise RematchExists(f"table {rematch_of} already has a rematch")
            add_table(session, row, seats, decks)

    @guarded
    def take_seat(self, table_id: str, seat: int, token_hash: str, name: str | None,
                  player_id: str | None = None, player_kind: str | None = None) -> bool:
        """Give a free seat to a person; False if someone took it first (any process).

        The game starts in the same transaction when this was the last free seat, so a
        crash cannot leave a table whose seats are all taken still waiting.
        """
        with self.writing() as session:
            # lock the table's row first: two processes taking the last two seats at once
            # then count the free seats one after the other
            session.execute(select(TableRow.id).where(TableRow.id == table_id)
                            .with_for_update())
            result = session.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat,
                       SeatRow.kind == "human", SeatRow.token_hash.is_(None))
                .values(token_hash=token_hash, name=name, seen=None, player_id=player_id,
                        player_kind=player_kind))
            if _rows_changed(result) != 1:
                return False
            free = session.scalar(select(func.count()).select_from(SeatRow).where(
                SeatRow.table_id == table_id, SeatRow.kind == "human",
                SeatRow.token_hash.is_(None)))
            if not free:
                session.execute(update(TableRow)
                                .where(TableRow.id == table_id, TableRow.status == WAITING)
                                .values(status=PLAYING))
            return True

    @guarded
    def free_seat(self, table_id: str, seat: int, token_hash: str) -> bool:
        """Free a seat taken with that token and never seen; False if it was seen (or
        changed hands) meanwhile.  A game that started goes on: the seat can be taken
        again through the invite link."""
        with self.writing() as session:
            result = session.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat,
                       SeatRow.token_hash == token_hash, SeatRow.seen.is_(None))
                .values(token_hash=None, name=None, player_id=None,
                                                       player_kind=None))
            return _rows_changed(result) == 1

    @guarded
    def mark_seen(self, table_id: str, seat: int) -> None:
        """A connection came with the seat's token: the seat is claimed for good."""
        with self.writing() as session:
            session.execute(update(SeatRow)
                            .where(SeatRow.table_id == table_id, SeatRow.seat == seat,
                                   SeatRow.seen.is_(None))
                            .values(seen=stamp()))

    @guarded
    def set_status(self, table_id: str, status: str, *, was: str | None = None,
                   finished: str | None = None, summary: dict[str, object] | None = None) -> bool:
        """Change a table's status (only from ``was``, if given); False if it was not."""
        with self.writing() as session:
            query = update(TableRow).where(TableRow.id == table_id)
            if was is not None:
                query = query.where(TableRow.status == was)
            values: dict[str, object] = {"status": status}
            if finished is not None:
                values.update(finished=finished, summary=summary)
            return _rows_changed(session.execute(query.values(**values))) == 1

    @guarded
    def end_table(self, table_id: str, *, was: str, finished: str, summary: dict[str, object],
                  tally: Tally | None) -> dict[str, object] | None:
        """End a game without a move (a resignation, an abandoned table), its results
        counted in the same transaction; the summary as stored (``None``: the table was
        not ``was`` any more, and nothing changed)."""
        with self.writing() as session:
            ended = session.execute(update(TableRow).where(TableRow.id == table_id,
                                                           TableRow.status == was)
                                    .values(status=OVER, finished=finished))
            if _rows_changed(ended) != 1:
                return None
            return _finish(session, table_id, finished, summary, tally)

    @guarded
    def count_over(self, table_id: str, tally: Tally) -> dict[str, object] | None:
        """Count a table that is over and was not counted (its end was stored, then the
        process died, or the count failed); the summary as stored now, or ``None`` if it
        was counted meanwhile (by any process) or is not over.  Marking it counted is the
        first write, so a second process counting it waits for the first and finds it
        done."""
        at = stamp()
        with self.writing() as session:
            marked = session.execute(update(TableRow).where(
                TableRow.id == table_id, TableRow.status == OVER,
                TableRow.counted.is_(None)).values(counted=at))
            if _rows_changed(marked) != 1:
                return None
            row = session.get(TableRow, table_id)
            assert row is not None
            ended = moment_of(row.finished) if row.finished else at
            summary = {**(row.summary or {}), **tally(session, ended)}
            session.execute(update(TableRow).where(TableRow.id == table_id)
                            .values(summary=summary))
            return summary

    @guarded
    def uncounted(self, limit: int = 100) -> list[str]:
        """Tables that are over and not counted (the oldest end first)."""
        with self.sessions() as session:
            return list(session.scalars(
                select(TableRow.id).where(TableRow.status == OVER,
                                          TableRow.counted.is_(None))
                .order_by(TableRow.finished, TableRow.id).limit(limit)))

    @guarded
    def save_life(self, table_id: str, life: dict[str, object]) -> None:
        """Store a table's clocks and forfeits (``lifecycle``), after the move that set them."""
        with self.writing() as session:
            session.execute(update(TableRow).where(TableRow.id == table_id).values(life=life))

    @guarded
    def close_table(self, table_id: str, reason: str) -> None:
        """Close a table that cannot be played, keeping why (``summary["closed"]``)."""
        with self.writing() as session:
            session.execute(update(TableRow).where(TableRow.id == table_id, _unfinished())
                            .values(status=CLOSED, finished=now(), summary={"closed": reason}))

    @guarded
    def append_move(self, table_id: str, index: int, seat: int, move: str, *,
                    new_decks: Sequence[tuple[int, Sequence[str]]] = (),
                    over: bool = False, summary: dict[str, object] | None = None,
                    tally: Tally | None = None, takeover: bool = False) -> str:
        """Write a move (and any deck it caused to be dealt, and the end of the game with
        its results counted by ``tally``, ``takeover`` if a bot's) in one transaction; the
        primary key (table, index) refuses a second move N: two writers never both add it."""
        at = now()
        with self.writing() as session:
            session.add(MoveRow(table_id=table_id, index=index, seat=seat, move=move, at=at,
                                takeover=takeover))
            session.add_all(DealRow(table_id=table_id, index=i, cards=list(cards))
                            for i, cards in new_decks)
            session.flush()
            if over:
                _finish(session, table_id, at, summary, tally)
        return at

    @guarded
    def append_moves(self, moves: Sequence[tuple[str, int, int, str,
                                                 Sequence[tuple[int, Sequence[str]]],
                                                 bool, dict[str, object] | None, Tally | None,
                                                 bool]]) -> str:
        """Write several moves of different tables in one transaction (a group commit:
        ``writer.MoveWriter``): each is ``(table, index, seat, move, new_decks, over,
        summary, tally, takeover)`` as ``append_move`` takes them; all or none written."""
        at = now()
        rows = [dict(table_id=table, index=index, seat=seat, move=move, at=at, takeover=takeover)
                for table, index, seat, move, _, _, _, _, takeover in moves]
        decks = [{"table_id": table, "index": i, "cards": list(cards)}
                 for table, _, _, _, new_decks, *_ in moves for i, cards in new_decks]

        def insert_all(where: Connection | Session) -> None:
            # Core inserts (plain rows): the ORM's bulk insert cost more than SQLite's write
            where.execute(insert(cast(Table, MoveRow.__table__)), rows)
            if decks:
                where.execute(insert(cast(Table, DealRow.__table__)), decks)

        if not any(over for _, _, _, _, _, over, *_ in moves):
            self._on_mover(insert_all)
            return at
        with self.writing() as session:   # a game's end counts its results in a session
            insert_all(session)
            for table, _, _, _, _, over, summary, tally, _ in moves:
                if over:
                    _finish(session, table, at, summary, tally)
        return at

    @guarded
    def take_back(self, table_id: str, from_index: int) -> int:
        """Forget the moves from ``from_index`` on (an undo, within the current deal: the
        decks stay); how many were forgotten."""
        with self.writing() as session:
            result = session.execute(delete(MoveRow).where(MoveRow.table_id == table_id,
                                                           MoveRow.index >= from_index))
            return int(getattr(result, "rowcount", 0) or 0)

    # -- reading ----------------------------------------------------------------------
    @guarded
    def load(self, table_id: str) -> StoredTable | None:
        with self.sessions() as session:
            row = session.get(TableRow, table_id)
            if row is None:
                return None
            return self._stored(session, row)

    @guarded
    def table_row(self, table_id: str) -> TableRow | None:
        """The table's own row alone (its status, life, summary), without seats or moves."""
        with self.sessions() as session:
            return session.get(TableRow, table_id)

    @guarded
    def unfinished(self) -> list[StoredTable]:
        with self.sessions() as session:
            rows = session.scalars(select(TableRow).where(_unfinished())
                                   .order_by(TableRow.created)).all()
            return [self._stored(session, row) for row in rows]

    @guarded
    def unfinished_ids(self) -> list[str]:
        with self.sessions() as session:
            return list(session.scalars(select(TableRow.id).where(_unfinished())
                                        .order_by(TableRow.created)).all())

    @guarded
    def seats_of(self, table_id: str) -> list[SeatRow]:
        with self.sessions() as session:
            return list(session.scalars(select(SeatRow).where(SeatRow.table_id == table_id)
                                        .order_by(SeatRow.seat)).all())

    @guarded
    def move_count(self, table_id: str) -> int:
        with self.sessions() as session:
            return session.scalar(select(func.count()).select_from(MoveRow)
                                  .where(MoveRow.table_id == table_id)) or 0

    @guarded
    def table_count(self) -> int:
        with self.sessions() as session:
            return session.scalar(select(func.count()).select_from(TableRow)) or 0

    @guarded
    def listing(self, *, over: bool, limit: int, offset: int = 0,
                game: str | None = None) -> list[tuple[TableRow, list[SeatRow]]]:
        """Open tables (newest first) or finished ones (latest finished first)."""
        with self.sessions() as session:
            query = select(TableRow)
            if over:
                query = query.where(TableRow.status == OVER).order_by(
                    TableRow.finished.desc(), TableRow.id)
            else:
                query = query.where(TableRow.status.in_(OPEN)).order_by(
                    TableRow.created.desc(), TableRow.id)
            if game is not None:
                query = query.where(TableRow.game == game)
            rows = session.scalars(query.limit(limit).offset(offset)).all()
            if not rows:
                return []
            seats: dict[str, list[SeatRow]] = {row.id: [] for row in rows}
            for seat in session.scalars(select(SeatRow).where(SeatRow.table_id.in_(seats))
                                        .order_by(SeatRow.seat)):
                seats[seat.table_id].append(seat)
            return [(row, seats[row.id]) for row in rows]

    @staticmethod
    def _stored(session: Session, row: TableRow) -> StoredTable:
        seats = list(session.scalars(select(SeatRow).where(SeatRow.table_id == row.id)
                                     .order_by(SeatRow.seat)).all())
        decks = [deal.cards for deal in session.scalars(
            select(DealRow).where(DealRow.table_id == row.id).order_by(DealRow.index))]
        moves = list(session.scalars(select(MoveRow).where(MoveRow.table_id == row.id)
                                     .order_by(MoveRow.index)).all())
        return StoredTable(row=row, seats=seats, decks=decks, moves=moves)


def _finish(session: Session, table_id: str, finished: str, summary: dict[str, object] | None,
            tally: Tally | None) -> dict[str, object] | None:
    """Store a game's end with its results counted, in the transaction that ends it; the
    summary as stored.  The count runs in a savepoint: if it fails, the end is stored all
    the same, uncounted (``counted`` stays ``None``), and the next sweep counts it.

    Call it after this transaction's first write: pysqlite opens no transaction for a
    savepoint, whose release would then commit it alone."""
    counted, ended = None, moment_of(finished)
    if tally is not None:
        try:
            with session.begin_nested():
                summary = {**(summary or {}), **tally(session, ended)}
            counted = ended
        except _UNREACHABLE:
            raise
        except Exception:
            log.exception("table %s: its results could not be counted with its end; "
                          "they are left for the next sweep", table_id)
    session.execute(update(TableRow).where(TableRow.id == table_id)
                    .values(status=OVER, finished=finished, summary=summary,
                            counted=counted))
    return summary


def _unfinished() -> ColumnElement[bool]:
    """Tables neither over nor closed: the ones a start resumes (or repairs, or closes)."""
    return TableRow.status.not_in((OVER, CLOSED))

