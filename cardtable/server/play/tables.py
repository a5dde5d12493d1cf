"""Live tables: one authoritative game per table, its seats, its watchers and its bots.

Every change to a table is a command its one owner handles (``dealer``), in this order:
decide (the version, the rules: nothing changes), write it to the database, change the
table, and only then tell everyone.  If the write fails the move is taken back and nobody hears of
it; if the database was unreachable (``StorageUnavailable``) the table is read again
before its next move, since the write may have landed before the line dropped.  A start
repairs the tables a crash left inconsistent, or closes them with the reason.
``Tables`` holds this process's live tables and plays their moves; the table itself and
its outboxes are in ``live``, the bots in ``bot_runner``, new tables and seats in
``seating``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Coroutine
from typing import TypeVar

from ... import games
from ...cards import Card
from ...records import Record, rules_from_dict
from ..core import protocol
from ..core.clock import Clock
from ..core.cluster_messages import Anonymized, ClusterMessage, SignedOff
from ..core.codes import Refusal
from ..core.errors import ClusterUnavailable, NotHere, Refused
from ..core.metrics import Metrics
from ..core.ring import Ring
from ..core.settings import ServerSettings
from ..core.shapes import TableState
from ..core.wire import ClientMessage, MessageError, decode, plain
from ..people.notices import Notices
from ..store.storage import (
    CLOSED,
    OPEN,
    Storage,
    StorageUnavailable,
    StoredTable,
    now,
    periodically,
)
from ..store.writer import MoveWriter
from . import assist, chat
from .bot_runner import BotRunner
from .commands import (
    Begin,
    Close,
    Connect,
    Describe,
    Disconnect,
    LeaveSeat,
    Play,
    Position,
    RecordOf,
    Refuse,
    Rename,
    ResignSeat,
    Settle,
    SignOff,
)
from .dealer import Dealer
from .guard import Guard
from .host import Owners
from .lifecycle import Lifecycle
from .live import (
    OVER,
    PLAYING,
    WAITING,
    Connection,
    LiveSeat,
    LiveTable,
    Outbox,
    SecureRandom,
    send,
)
from .owner import Command
from .remote import CloseTable
from .results import count_table, tally_of
from .seating import Seating, live_seat
from .steps import played

__all__ = [
    "ClusterUnavailable",
    "Connection",
    "LiveSeat",
    "LiveTable",
    "NotHere",
    "Outbox",
    "Refused",
    "SecureRandom",
    "TableRef",
    "Tables",
]

log = logging.getLogger("cardtable.server")

STOP_WAIT = 5.0
"""Seconds a stopping process waits for its cancelled tasks."""
R = TypeVar("R")
T = TypeVar("T")


def _where(task: asyncio.Task[object]) -> str:
    """A task's coroutine and the line it waits at, for the log."""
    frames = task.get_stack(limit=1)
    at = f" at {frames[0].f_code.co_filename}:{frames[0].f_lineno}" if frames else ""
    return f"{task.get_coro()!r}{at}"



class Tables:
    """Every live table of this server process.

    ``seating`` makes tables and gives seats; ``runner`` plays for the bots.
    """

    def __init__(self, storage: Storage, settings: ServerSettings, *,
                 clock: Clock | None = None) -> None:
        self.storage = storage
        self.clock = clock or Clock()
        """What every clock, grace and wait of the tables reads (a test's fake one)."""
        self.writer = MoveWriter(storage, window=settings.commit_window)
        """Every move is written through it, in group commits."""
        self.settings = settings
        self.live: dict[str, LiveTable] = {}
        self.broken: dict[str, str] = {}
        self.cluster: Owners | None = None
        """A ``cluster.relay.Cluster`` when several processes share the tables, else ``None``."""
        self.ring = (Ring(settings.ring.split(","))
                     if settings.route_by_table and settings.ring else None)
        """The proxy's hash ring: new tables get ids it sends to this process."""
        self.seating = Seating(self)
        self.runner = BotRunner(self)
        self.lifecycle = Lifecycle(self)
        self.guard = Guard(self.settings, settings.limits_storage(),
                           f"{settings.redis_prefix}:limits")
        self.metrics = Metrics()
        """This process's figures for ``/metrics`` (a registry of its own)."""
        self._loading: dict[str, tuple[asyncio.Lock, list[int]]] = {}
        """Per table being loaded: its lock and how many callers hold or wait for it (the
        lock is forgotten only when none does, or a third caller would load it again)."""
        self._tasks: set[asyncio.Task[object]] = set()
        self.uncountable: dict[str, str] = {}
        """Finished tables a sweep could not count here (why): not tried again."""
        self.on_over: list[Callable[[LiveTable], None]] = []
        """Called with a table here whose game ended (stored, its results counted), maybe
        more than once: the tournament director starts its next step at once."""
        self.notices: Notices | None = None
        """The players' inbox (``people.notices``; the app gives it once built): what
        the tables (your move) and tournaments tell a player who is elsewhere."""

    # -- start and stop -----------------------------------------------------------------
    async def start(self) -> None:
        """Load every unfinished table: deal its stored decks and replay its moves (each
        repaired first, or closed, as ``_resume`` says)."""
        stored = await asyncio.to_thread(self.storage.unfinished)
        for item in stored:
            if self.cluster is not None and not await self.cluster.claim(item.row.id):
                continue  # another process plays it
            table = await self._resume(item)
            if table is None:
                continue
            self.live[table.id] = table
            await table.dealer.ask(Begin())
        log.info("resumed %d unfinished tables", len(self.live))
        with contextlib.suppress(StorageUnavailable):
            await self.count_left(limit=1000)
        self.spawn(self._sweep())

    async def count_left(self, limit: int = 100) -> int:
        """Count the finished tables left uncounted (at most ``limit``, the oldest first),
        each once whichever process sweeps too; how many this call counted."""
        counted = 0
        for table_id in await asyncio.to_thread(self.storage.uncounted, limit):
            if table_id in self.uncountable:
                continue
            table = self.live.get(table_id)
            if table is None or not table.over:
                stored = await asyncio.to_thread(self.storage.load, table_id)
                if stored is None:
                    continue
                try:
                    table = self.rebuild(stored)
                except Exception as error:   # kept for a version that can replay it
                    self.uncountable[table_id] = str(error)
                    log.error("table %s cannot be counted: %s", table_id, error)
                    continue
            if await count_table(self, table):
                counted += 1
                log.warning("table %s was over but not counted; it is counted now", table_id)
        return counted

    async def _sweep(self) -> None:
        await periodically(self.settings.count_every, self.count_left,
                           "the sweep for uncounted tables")

    async def _resume(self, stored: StoredTable) -> LiveTable | None:
        """A live table from an unfinished stored one, put right first: a table waiting
        although every seat is taken (or moves were played) starts; one whose last move
        ended the game is over; one whose rows contradict each other is closed with the
        reason.  ``None`` for a closed table, or one that cannot be rebuilt (``broken``:
        kept as it is, since the fault may be in this version of the code)."""
        row = stored.row
        problem = _inconsistency(stored)
        if problem is not None:
            await asyncio.to_thread(self.storage.close_table, row.id, problem)
            log.warning("table %s is closed: %s", row.id, problem)
            row.status, row.summary = CLOSED, {"closed": problem}
            return None
        free = any(seat.kind == "human" and seat.token_hash is None for seat in stored.seats)
        if row.status == WAITING and (stored.moves or not free):
            await asyncio.to_thread(self.storage.set_status, row.id, PLAYING, was=WAITING)
            log.warning("table %s was waiting with %s; the game starts now", row.id,
                        "moves played" if stored.moves else "every seat taken")
            row.status = PLAYING
        try:
            table = self.rebuild(stored)
        except Exception as error:  # a table that cannot be rebuilt must not stop the rest
            self.broken[row.id] = str(error)
            log.error("table %s cannot be resumed: %s", row.id, error)
            return None
        if table.over and row.status != OVER:  # its last move ended the game
            finished = stored.moves[-1].at if stored.moves else now()
            summary = plain(table.spec.summary(table.state))
            summary = await asyncio.to_thread(
                self.storage.end_table, row.id, was=row.status, finished=finished,
                summary=summary, tally=tally_of(table, summary)) or summary
            log.warning("table %s: its moves ended the game; it is over now", row.id)
            row.status, row.finished, row.summary = OVER, finished, summary
            table = self.rebuild(stored)   # as the database has it now
        return table

    async def stop(self) -> None:
        await self.lifecycle.checkpoint_all()   # days a move: the time spent so far is kept
        tasks = list(self._tasks)
        for table in self.live.values():
            if table.bot_task is not None:
                tasks.append(table.bot_task)
        for task in tasks:
            task.cancel()
        if tasks:
            # a task that swallows its cancel must not keep the process from stopping
            done, stuck = await asyncio.wait(tasks, timeout=STOP_WAIT)
            for task in done:
                if not task.cancelled():
                    task.exception()   # retrieved: it ended as it was told
            for task in stuck:
                log.warning("stopping: a task did not end when cancelled: %s",
                            _where(task))
        self.runner.close()
        await asyncio.to_thread(self.writer.close)

    def spawn(self, coroutine: Coroutine[object, None, T]) -> asyncio.Task[T]:
        """Run a task of the tables (a bot loop, a grace timer); ``stop`` ends it."""
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # -- finding tables -------------------------------------------------------------------
    def rebuild(self, stored: StoredTable) -> LiveTable:
        """A live table from the database: its stored decks dealt, its moves replayed."""
        row = stored.row
        spec = games.get(row.game)
        rules = rules_from_dict(spec, row.rules)
        decks = [[Card.parse(text) for text in deck] for deck in stored.decks]
        state = spec.start(rules, players=row.players, seed=SecureRandom(), decks=decks)
        last_move = None
        for stored_move in stored.moves:
            move = state.parse_move(stored_move.move)
            state.push(move)
            last_move = played(stored_move.index, stored_move.seat, stored_move.move,
                               stored_move.takeover)
        dealt = [[card.text for card in deck] for deck in spec.deals(state)]
        if dealt != stored.decks:
            raise RuntimeError(f"replaying the moves dealt {len(dealt)} decks, not the "
                               f"{len(stored.decks)} stored ones")
        status = row.status
        if status != OVER and state.is_over():
            status = OVER
        table = LiveTable(
            id=row.id, game=row.game, spec=spec, preset=row.preset, rules=rules,
            players=row.players, state=state, seats=[live_seat(seat) for seat in stored.seats],
            status=status, created=row.created, takeover=row.takeover, finished=row.finished,
            summary=row.summary, rematch_of=row.rematch_of, rematch=row.rematch,
            version=len(stored.moves), decks_stored=len(stored.decks), last_move=last_move,
            takeovers=frozenset(move.index for move in stored.moves if move.takeover))
        Dealer(self, table, row.life)
        return table

    async def get(self, table_id: str) -> LiveTable | None:
        """A table by id, loading it from the database if it is not live (a finished one).

        A table whose stored moves cannot be replayed raises ``Refused`` (503), a
        closed one ``Refused`` (410); a database that cannot be reached raises
        ``StorageUnavailable``.
        """
        table = self.live.get(table_id)
        if table is not None:
            return table
        if len(table_id) > 32:
            return None
        if table_id in self.broken:
            raise Refused(f"table {table_id} cannot be resumed: {self.broken[table_id]}", 503,
                             "table_broken", params={"table": table_id})
        lock, users = self._loading.setdefault(table_id, (asyncio.Lock(), [0]))
        users[0] += 1
        try:
            async with lock:
                table = self.live.get(table_id)
                if table is not None:
                    return table
                stored = await asyncio.to_thread(self.storage.load, table_id)
                if stored is None:
                    return None
                if self.cluster is not None and stored.row.status not in (OVER, CLOSED):
                    # own it first, then read it again: the last owner may have just moved
                    if not await self.cluster.claim(table_id):
                        raise NotHere(table_id, await self.cluster.owner(table_id))
                    stored = await asyncio.to_thread(self.storage.load, table_id)
                    assert stored is not None
                if stored.row.status == CLOSED:
                    raise _unplayable(table_id, stored, self.broken)
                if stored.row.status == OVER:
                    try:
                        table = self.rebuild(stored)
                    except Exception as error:
                        self.broken[table_id] = str(error)
                        log.error("table %s cannot be resumed: %s", table_id, error)
                        raise Refused(f"table {table_id} cannot be resumed: {error}",
                                         503, "table_broken", params={"table": table_id}) from None
                    if stored.row.counted is None:   # its end was stored, its count not
                        self.spawn(count_table(self, table))
                else:  # adopted from a process that stopped
                    resumed = await self._resume(stored)
                    if resumed is None:
                        raise _unplayable(table_id, stored, self.broken)
                    table = resumed
                self.live[table_id] = table
                if table.over:
                    self._trim()
                else:  # its bots and graces go on here
                    await table.dealer.ask(Begin())
                return table
        finally:
            users[0] -= 1
            if users[0] == 0:
                self._loading.pop(table_id, None)

    async def snapshot(self, table_id: str) -> LiveTable | None:
        """The table to read from: the live one, or (when another process plays it) a copy
        rebuilt from the database, not kept."""
        try:
            return await self.get(table_id)
        except (NotHere, ClusterUnavailable):
            stored = await asyncio.to_thread(self.storage.load, table_id)
            return None if stored is None else self.rebuild(stored)

    async def find(self, table_id: str) -> LiveTable:
        """``snapshot``, or ``Refused`` (404) for a table that does not exist."""
        table = await self.snapshot(table_id)
        if table is None:
            raise Refused(f"there is no table {table_id!r}", 404, "not_found",
                             params={"table": table_id})
        return table

    @staticmethod
    async def describe(table: LiveTable) -> dict[str, object]:
        """The table's public summary, read while nothing changes it."""
        return await table.dealer.ask(Describe())

    @staticmethod
    async def position(table: LiveTable) -> tuple[int, TableState, frozenset[int]]:
        """(version, a copy of the state, the takeover bots' moves), read together."""
        return await table.dealer.ask(Position())

    @staticmethod
    async def finished_record(table: LiveTable, why: str | None = None) -> Record:
        """The record of a finished game; ``Refused`` 409 ``not_over`` (saying ``why``
        it waits for the end) while it is played."""
        return await table.dealer.ask(RecordOf() if why is None else RecordOf(why))

    def ref(self, table_id: str) -> TableRef:
        """The table wherever it is played: ``ref(id).ask(command)`` answers from this
        process or from the one that plays it (over Redis: a request and its reply)."""
        return TableRef(self, table_id)

    async def rename(self, player_id: str, name: str, table_ids: list[str],
                     becomes: str | None = None) -> None:
        """A player's new display name, shown at their seats at these tables (and with
        ``becomes``, a guest's seats passing to the account they signed in to), at each
        table played now, here or by another process."""
        command = Rename(player_id, name, becomes)
        for table_id in table_ids:
            table = self.live.get(table_id)
            if table is not None:
                if not table.over:
                    await table.dealer.ask(command)
            elif self.cluster is not None:   # the database has the names of the rest
                with contextlib.suppress(Refused):
                    owner = await self.cluster.owner(table_id)
                    if owner is not None and owner != self.cluster.process:
                        await self.cluster.request(owner, table_id, command)

    async def _tell_others(self, message: ClusterMessage) -> None:
        """Send ``message`` to every other process (none without a cluster; dropped while
        Redis cannot be reached, as every message between processes is)."""
        if self.cluster is not None:
            with contextlib.suppress(ClusterUnavailable):
                for process in await self.cluster.others():
                    await self.cluster.send(process, message)

    async def anonymize(self, player_id: str, name: str) -> None:
        """A deleted account's seats show the anonymous name its games keep, at every table
        held in memory, here and in every other process (``anonymize_here``)."""
        await self._tell_others(Anonymized(player_id, name))
        await self.anonymize_here(player_id, name)

    async def anonymize_here(self, player_id: str, name: str) -> None:
        """``anonymize`` at the tables held in memory here, finished ones too."""
        for table in list(self.live.values()):
            if any(seat.player_id == player_id for seat in table.seats):
                await table.dealer.ask(Rename(player_id, name))

    async def sign_off(self, player_id: str, reason: str) -> None:
        """Every session of a player ended: close their sockets at every table, at their
        seats and among the spectators, here and in every other process (any of them may
        play the player's tables or hold a spectator's socket: ``sign_off_here``)."""
        await self._tell_others(SignedOff(player_id, reason))
        await self.sign_off_here(player_id, reason)

    async def sign_off_here(self, player_id: str, reason: str) -> None:
        """``sign_off`` at the tables played here."""
        for table in list(self.live.values()):
            if any(c.speaker == player_id for c in table.connections) or any(
                    seat.player_id == player_id for seat in table.seats):
                await table.dealer.ask(SignOff(player_id, reason))

    async def close_table(self, table_id: str, reason: str) -> None:
        """End a table in play at once, unrated (an admin's close): the moves under way
        stored, the table stored closed with the reason, its sockets closed, by the
        process that plays it (``Refused`` 503 ``table_elsewhere`` if it does not answer
        in time)."""
        await self.ref(table_id).ask(CloseTable(reason))

    async def close_here(self, table_id: str, reason: str) -> None:
        """``close_table`` for a table played here, or by no process."""
        leaving = await self.leave([table_id])
        await asyncio.to_thread(self.storage.close_table, table_id, reason)
        await self.close(leaving, reason)

    async def drop(self, table_id: str, reason: str) -> None:
        """Stop playing a table here (another process owns it now); its players reconnect."""
        table = self.live.pop(table_id, None)
        if table is None:
            return
        await table.dealer.ask(Close(reason))

    async def leave(self, table_ids: list[str]) -> list[LiveTable]:
        """Stop taking commands for these tables here (they go to another process, or this
        one stops): a move asked for from now on is refused as ``moved``, and what was
        under way has finished, its moves stored, when this returns.  ``close`` ends them.
        """
        await self.lifecycle.checkpoint_all(table_ids)   # days a move: the time spent so far
        leaving = [table for table_id in table_ids
                   if (table := self.live.pop(table_id, None)) is not None]
        await asyncio.gather(*(table.dealer.ask(Settle()) for table in leaving))
        return leaving

    async def close(self, tables: list[LiveTable], reason: str) -> None:
        """Close every connection of tables that left (``leave``): the pages connect again,
        to whichever process plays them next."""
        await asyncio.gather(*(table.dealer.ask(Close(reason)) for table in tables))

    async def drain(self, reason: str) -> int:
        """This process stops (without other processes): its tables' acknowledged moves are
        stored and their sockets closed, so that the pages reconnect to the next start."""
        leaving = await self.leave([t for t, table in self.live.items() if not table.over])
        await self.close(leaving, reason)
        await self.close_finished(reason)
        return len(leaving)

    async def close_finished(self, reason: str) -> None:
        """A stopping process closes the sockets of its finished tables too (players reading
        the last hand's result): an open socket would keep the process from stopping."""
        await self.close([table for table in self.live.values()
                          if table.over and table.connections], reason)

    def evict_if_idle(self, table: LiveTable) -> None:
        """A finished table nobody watches leaves memory; the database still has it.
        Asked when a game ends (and later): ``on_over`` hears of a finished table."""
        if table.over:
            for heard in self.on_over:
                heard(table)
        if table.over and not table.connections and table.bot_task is None:
            self.live.pop(table.id, None)

    def _trim(self, keep: int = 256) -> None:
        """Keep at most ``keep`` finished tables that nobody watches (oldest leave first)."""
        idle = [t for t in self.live.values()
                if t.over and not t.connections and t.bot_task is None]
        for table in idle[:max(0, len(idle) - keep)]:
            self.live.pop(table.id, None)

    # -- playing --------------------------------------------------------------------------
    async def play(self, table: LiveTable, seat: int, version: int, text: str, *,
                   by_bot: bool = False, timed_out: bool = False) -> Refusal | None:
        """Play a move for ``seat``; returns why not (nothing changes then), or ``None``."""
        return await table.dealer.ask(Play(seat, version, text, by_bot, timed_out))

    # -- connections ------------------------------------------------------------------------
    async def connect(self, table: LiveTable, connection: Connection) -> None:
        await table.dealer.ask(Connect(connection, self.settings.watchers_per_table))

    async def disconnect(self, table: LiveTable, connection: Connection) -> None:
        """Forget a connection; one never added (its ``connect`` cut short) changes nothing."""
        await table.dealer.ask(Disconnect(connection))

    async def receive(self, table: LiveTable, connection: Connection, text: str | bytes) -> None:
        """Handle one client message; a refused one gets an error and a fresh state."""
        try:
            message = decode(text)
        except MessageError as error:
            await self._refuse(table, connection, str(error), error.code)
            return
        try:
            await self._handle(table, connection, message)
        except StorageUnavailable as error:
            await self._refuse(table, connection, error.reason, error.code)

    async def _handle(self, table: LiveTable, connection: Connection,
                      message: ClientMessage) -> None:
        kind = message.type
        if kind == "ping":
            send(protocol.Pong(type="pong"), (connection,))
        elif isinstance(message, protocol.Move):
            if connection.seat is None:
                await self._refuse(table, connection,
                                   "you are watching this table: only seated players move",
                                   "watching")
                return
            started = time.perf_counter()
            reason = await self.play(table, connection.seat, message.version, message.move)
            if reason:
                await self._refuse(table, connection, reason)
            else:   # its state is in every connection's outbox now
                self.metrics.move_seconds.observe(time.perf_counter() - started)
        elif kind in ("resign", "leave"):
            if connection.seat is None:
                await self._refuse(table, connection, f"only a seated player may {kind}",
                                   "no_seat")
                return
            try:
                if kind == "resign":
                    await table.dealer.ask(ResignSeat(connection.seat))
                else:
                    await table.dealer.ask(LeaveSeat(connection.seat))
            except Refused as error:
                await self._refuse(table, connection, error.reason, error.code)
        elif isinstance(message, protocol.Chat | protocol.ChatOff):
            await chat.receive(self, table, connection, message)
        elif isinstance(message, protocol.Hint):
            # thought in a bot process while this socket reads on
            self.spawn(self._hint(table, connection, message.lang))
        elif kind == "undo":
            refusal = await assist.undo(table, connection)
            if refusal is not None:
                await self._refuse(table, connection, refusal)
        elif kind in ("rematch", "decline_rematch"):
            try:
                if kind == "rematch":
                    await self.seating.rematch(table, connection.seat)
                else:
                    await self.seating.decline_rematch(table, connection.seat)
            except Refused as error:
                await self._refuse(table, connection, error.reason, error.code, error.params)

    async def _hint(self, table: LiveTable, connection: Connection, lang: protocol.Lang) -> None:
        refusal = await assist.hint(self, table, connection, lang)
        if refusal is not None:
            await self._refuse(table, connection, refusal)

    async def _refuse(self, table: LiveTable, connection: Connection, reason: str,
                      code: str | None = None, params: dict[str, object] | None = None) -> None:
        await table.dealer.ask(Refuse(connection, reason, code, tuple((params or {}).items())))


class TableRef:
    """A table wherever it is played (``Tables.ref``): the asker never learns where."""

    def __init__(self, tables: Tables, table_id: str) -> None:
        self.tables = tables
        self.table_id = table_id

    async def ask(self, command: Command[R]) -> R:
        """The table's answer to ``command``: its dealer's here (a table played by no
        process is loaded here first), or the owner's over Redis (a timeout and a gone
        owner are refused: 503 ``table_elsewhere``)."""
        tables, table_id = self.tables, self.table_id
        cluster = tables.cluster
        if isinstance(command, CloseTable):
            owner = None
            if table_id not in tables.live and cluster is not None:
                owner = await cluster.owner(table_id)
            if owner is None or cluster is None or owner == cluster.process:
                await tables.close_here(table_id, command.reason)
            else:
                closing: Command[None] = command
                await cluster.request(owner, table_id, closing)
            return None   # type: ignore[return-value]  # CloseTable answers None
        try:
            table = await tables.get(table_id)
        except NotHere as elsewhere:
            if elsewhere.owner is None or cluster is None:
                raise Refused("the table is changing servers; try again in a moment", 503,
                              "table_elsewhere") from None
            return await cluster.request(elsewhere.owner, table_id, command)
        if table is None:
            raise Refused(f"there is no table {table_id[:40]!r}", 404, "not_found",
                          params={"table": table_id[:40]})
        return await table.dealer.ask(command)


def _inconsistency(stored: StoredTable) -> str | None:
    """Why an unfinished table's rows cannot be played as they are (``None``: they can)."""
    row = stored.row
    if row.status not in OPEN:
        return (f"its status {row.status!r} is none the server knows (waiting, playing, "
                "over)")
    if sorted(seat.seat for seat in stored.seats) != list(range(row.players)):
        return f"it has {len(stored.seats)} seats stored for {row.players} players"
    unknown = [seat.seat for seat in stored.seats if seat.kind not in ("human", "bot")]
    if unknown:
        return f"seats {unknown} are neither a person's nor a bot's"
    return None


def _unplayable(table_id: str, stored: StoredTable, broken: dict[str, str]) -> Refused:
    """The refusal for a table ``_resume`` could not give back: closed, or broken."""
    if stored.row.status == CLOSED:
        reason = (stored.row.summary or {}).get("closed", "its rows contradict each other")
        return Refused(f"table {table_id} was closed: {reason}", 410, "table_closed",
                          params={"table": table_id})
    return Refused(f"table {table_id} cannot be resumed: {broken.get(table_id)}", 503,
                      "table_broken", params={"table": table_id})


