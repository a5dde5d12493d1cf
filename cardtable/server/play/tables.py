"""Live tables: one authoritative game per table, its seats, its watchers and its bots.

Every change to a table happens under the table's asyncio lock, in this order: check the
move against the current version and the rules, apply it, write it to the database, and
only then tell everyone.  If the write fails the move is taken back and nobody hears of
it; if the database was unreachable (``StorageUnavailable``) the table is read again
before its next move, since the write may have landed before the line dropped.  A start
repairs the tables a crash left inconsistent, or closes them with the reason.
``Tables`` holds this process's live tables and plays their moves; the table itself and
its outboxes are in ``live``, the bots in ``bot_runner``, new tables and seats in
``seating``.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
from collections.abc import Coroutine
from typing import Any

from sqlalchemy.exc import IntegrityError

from ... import games
from ...cards import Card
from ...game import IllegalMove
from ...records import rules_from_dict
from .. import protocol
from ..clock import Clock
from ..codes import Refusal, refused
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
from ..wire import ClientMessage, MessageError, decode, encode, plain
from . import assist, chat
from .bot_runner import BotRunner
from .guard import Guard
from .host import Owners
from .lifecycle import Lifecycle
from .live import (
    OVER,
    PLAYING,
    WAITING,
    ClusterUnavailable,
    Connection,
    LiveSeat,
    LiveTable,
    NotHere,
    Outbox,
    SecureRandom,
    Settings,
    TableError,
)
from .results import count_table, tally_of
from .seating import Seating, live_seat

__all__ = [
    "ClusterUnavailable",
    "Connection",
    "LiveSeat",
    "LiveTable",
    "NotHere",
    "Outbox",
    "SecureRandom",
    "Settings",
    "TableError",
    "Tables",
]

log = logging.getLogger("cardtable.server")


class Tables:
    """Every live table of this server process.

    ``seating`` makes tables and gives seats; ``runner`` plays for the bots.
    """

    def __init__(self, storage: Storage, settings: Settings | None = None, *,
                 clock: Clock | None = None) -> None:
        self.storage = storage
        self.clock = clock or Clock()
        """What every clock, grace and wait of the tables reads (a test's fake one)."""
        self.writer = MoveWriter(storage)
        """Every move is written through it, in group commits."""
        self.settings = settings or Settings()
        self.live: dict[str, LiveTable] = {}
        self.broken: dict[str, str] = {}
        self.cluster: Owners | None = None
        """A ``cluster.relay.Cluster`` when several processes share the tables, else ``None``."""
        self.seating = Seating(self)
        self.runner = BotRunner(self)
        self.lifecycle = Lifecycle(self)
        self.guard = Guard(self.settings.limits)
        self._loading: dict[str, asyncio.Lock] = collections.defaultdict(asyncio.Lock)
        self._tasks: set[asyncio.Task[Any]] = set()
        self.uncountable: dict[str, str] = {}
        """Finished tables a sweep could not count here (why): not tried again."""

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
            if not table.over:
                self.lifecycle.start(table)
                self.runner.start_graces(table)
                self.seating.hold(table)
                self.runner.kick(table)
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
                    table = self._rebuild(stored)
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
            table = self._rebuild(stored)
        except Exception as error:  # a table that cannot be rebuilt must not stop the rest
            self.broken[row.id] = str(error)
            log.error("table %s cannot be resumed: %s", row.id, error)
            return None
        if table.over and row.status != OVER:  # its last move ended the game
            table.finished = stored.moves[-1].at if stored.moves else now()
            summary = plain(table.spec.summary(table.state))
            table.summary = await asyncio.to_thread(
                self.storage.end_table, row.id, was=row.status, finished=table.finished,
                summary=summary, tally=tally_of(table, summary)) or summary
            log.warning("table %s: its moves ended the game; it is over now", row.id)
        return table

    async def stop(self) -> None:
        tasks = list(self._tasks)
        for table in self.live.values():
            if table.bot_task is not None:
                tasks.append(table.bot_task)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        self.runner.close()
        await asyncio.to_thread(self.writer.close)

    def spawn(self, coroutine: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        """Run a task of the tables (a bot loop, a grace timer); ``stop`` ends it."""
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # -- finding tables -------------------------------------------------------------------
    def _rebuild(self, stored: StoredTable) -> LiveTable:
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
            last_move = {"index": stored_move.index, "seat": stored_move.seat,
                         "move": stored_move.move}
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
            version=len(stored.moves), decks_stored=len(stored.decks), last_move=last_move)
        self.lifecycle.attach(table, row.life)
        return table

    async def get(self, table_id: str) -> LiveTable | None:
        """A table by id, loading it from the database if it is not live (a finished one).

        A table whose stored moves cannot be replayed raises ``TableError`` (503), a
        closed one ``TableError`` (410); a database that cannot be reached raises
        ``StorageUnavailable``.
        """
        table = self.live.get(table_id)
        if table is not None:
            return table
        if len(table_id) > 32:
            return None
        if table_id in self.broken:
            raise TableError(f"table {table_id} cannot be resumed: {self.broken[table_id]}", 503,
                             "table_broken", params={"table": table_id})
        lock = self._loading[table_id]
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
                        table = self._rebuild(stored)
                    except Exception as error:
                        self.broken[table_id] = str(error)
                        log.error("table %s cannot be resumed: %s", table_id, error)
                        raise TableError(f"table {table_id} cannot be resumed: {error}",
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
                    self.lifecycle.start(table)
                    self.runner.start_graces(table)
                    self.seating.hold(table)
                    self.runner.kick(table)
                return table
        finally:
            if not lock.locked():
                self._loading.pop(table_id, None)

    async def snapshot(self, table_id: str) -> LiveTable | None:
        """The table to read from: the live one, or (when another process plays it) a copy
        rebuilt from the database, not kept."""
        try:
            return await self.get(table_id)
        except (NotHere, ClusterUnavailable):
            stored = await asyncio.to_thread(self.storage.load, table_id)
            return None if stored is None else self._rebuild(stored)

    async def find(self, table_id: str) -> LiveTable:
        """``snapshot``, or ``TableError`` (404) for a table that does not exist."""
        table = await self.snapshot(table_id)
        if table is None:
            raise TableError(f"there is no table {table_id!r}", 404, "not_found",
                             params={"table": table_id})
        return table

    async def drop(self, table_id: str, reason: str) -> None:
        """Stop playing a table here (another process owns it now); its players reconnect."""
        table = self.live.pop(table_id, None)
        if table is None:
            return
        if table.bot_task is not None:
            table.bot_task.cancel()
        self.runner.stop_graces(table)
        self.lifecycle.stop(table)
        table.close_all(reason)

    def evict_if_idle(self, table: LiveTable) -> None:
        """A finished table nobody watches leaves memory; the database still has it."""
        if table.over and not table.connections and table.bot_task is None:
            self.live.pop(table.id, None)
            chat.forget(table.id)

    def _trim(self, keep: int = 256) -> None:
        """Keep at most ``keep`` finished tables that nobody watches (oldest leave first)."""
        idle = [t for t in self.live.values()
                if t.over and not t.connections and t.bot_task is None]
        for table in idle[:max(0, len(idle) - keep)]:
            self.live.pop(table.id, None)
            chat.forget(table.id)

    # -- playing --------------------------------------------------------------------------
    async def play(self, table: LiveTable, seat: int, version: int, text: str, *,
                   by_bot: bool = False) -> Refusal | None:
        """Play a move for ``seat``; returns why not (nothing changes then), or ``None``."""
        async with table.lock:
            if table.stale:
                await self._reload(table)  # StorageUnavailable while the database is away
            reason = table.refusal(seat, version, by_bot)
            if not reason and self.cluster is not None:
                reason = self.cluster.refusal(table)  # only while its lease surely holds
            if reason:
                return reason
            state = table.state
            try:
                move = state.parse_move(text)
            except IllegalMove as error:   # a move of the game, not legal now
                return refused("illegal_move", f"{text!r} cannot be played now: {error}",
                               move=text)
            except ValueError as error:
                return refused("not_a_move", f"{text!r} is not a move here: {error}", move=text)
            try:
                state.push(move)
            except ValueError as error:  # IllegalMove and every other refusal of the engine
                return refused("illegal_move", f"{text!r} cannot be played now: {error}",
                               move=text)
            except Exception as error:  # a fault in the engine: the state may be half-changed
                log.exception("table %s: the engine failed on %r", table.id, text)
                await self._reload(table)
                return refused("engine_failed", f"the game could not play {text!r} "
                               f"({type(error).__name__}: {error}); nothing changed", move=text)
            move_text = str(move)
            over = state.is_over()
            dealt = table.spec.deals(state)
            new_decks = [(index, [card.text for card in dealt[index]])
                         for index in range(table.decks_stored, len(dealt))]
            summary = (self.lifecycle.annotate(table, plain(table.spec.summary(state)))
                       if over else None)
            # the results are counted in the transaction that stores the end
            tally = tally_of(table, summary) if over else None
            try:
                at = await self.writer.append(
                    table.id, table.version, seat, move_text,
                    new_decks=new_decks, over=over, summary=summary, tally=tally)
            except StorageUnavailable:
                state.pop()
                table.stale = True
                raise
            except Exception as error:
                state.pop()
                log.exception("table %s: move %d could not be saved", table.id, table.version)
                if self.cluster is not None and isinstance(error, IntegrityError):
                    # another process wrote this move: it owns the table now
                    self.spawn(self.drop(table.id, "the table moved to another server"))
                return refused("move_not_saved", f"the move could not be saved "
                               f"({type(error).__name__}); nothing changed")
            table.last_move = {"index": table.version, "seat": seat, "move": move_text}
            table.version += 1
            table.decks_stored = len(dealt)
            if over:
                table.status = OVER
                table.finished = at
                table.summary = {**(summary or {}), **(tally.added if tally else {})}
                self.runner.stop_graces(table)
            await self.lifecycle.save_after_move(table, seat, table.version - 1)
            table.broadcast()
        if table.over:
            self.evict_if_idle(table)
        else:
            self.runner.kick(table)
        return None

    async def _reload(self, table: LiveTable) -> None:
        """Deal and replay the table again from the database, taking the moves it holds
        that this process did not know it had stored.  Call under the lock."""
        stored = await asyncio.to_thread(self.storage.load, table.id)
        table.stale = False
        if stored is None:
            return
        fresh = self._rebuild(stored)
        table.state = fresh.state
        if fresh.version != table.version:
            table.version, table.last_move = fresh.version, fresh.last_move
            table.decks_stored = fresh.decks_stored
            table.status, table.finished, table.summary = (fresh.status, fresh.finished,
                                                           fresh.summary)
            if table.over:
                self.runner.stop_graces(table)
                self.lifecycle.stop(table)
            else:
                self.lifecycle.arm(table)
            table.broadcast()

    # -- connections ------------------------------------------------------------------------
    async def connect(self, table: LiveTable, connection: Connection) -> None:
        async with table.lock:
            table.connections.add(connection)
            if connection.seat is not None:
                seat = table.seats[connection.seat]
                seat.connections += 1
                if seat.grace_task is not None:
                    seat.grace_task.cancel()
                    seat.grace_task = None
                if seat.claim_task is not None:
                    seat.claim_task.cancel()
                    seat.claim_task = None
                if seat.kind == "human" and not seat.seen:
                    seat.seen = True  # its token arrived: the seat is claimed for good
                    with contextlib.suppress(StorageUnavailable):
                        await asyncio.to_thread(self.storage.mark_seen, table.id, seat.index)
                if (seat.kind == "human" and seat.bot is not None
                        and not (table.life and table.life.gone(seat.index))):
                    seat.bot = seat.bot_playing = None  # the player is back
            self.lifecycle.presence(table)
            self.lifecycle.arm(table)
            table.broadcast()
        await chat.send_history(self, table, connection)

    async def disconnect(self, table: LiveTable, connection: Connection) -> None:
        """Forget a connection; one never added (its ``connect`` cut short) changes nothing."""
        async with table.lock:
            if connection not in table.connections:
                return
            table.connections.discard(connection)
            if connection.seat is not None:
                seat = table.seats[connection.seat]
                seat.connections -= 1
                if seat.connections == 0 and table.takeover and not table.over:
                    self.runner.start_grace(table, seat)
            self.lifecycle.presence(table)
            table.broadcast()
            self.evict_if_idle(table)

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
            connection.outbox.put("pong", encode({"type": "pong"}))
        elif isinstance(message, protocol.Move):
            if connection.seat is None:
                await self._refuse(table, connection,
                                   "you are watching this table: only seated players move",
                                   "watching")
                return
            reason = await self.play(table, connection.seat, message.version, message.move)
            if reason:
                await self._refuse(table, connection, reason)
        elif kind in ("resign", "leave"):
            if connection.seat is None:
                await self._refuse(table, connection, f"only a seated player may {kind}",
                                   "no_seat")
                return
            try:
                if kind == "resign":
                    await self.lifecycle.resign(table, connection.seat)
                else:
                    await self.lifecycle.leave(table, connection.seat)
            except TableError as error:
                await self._refuse(table, connection, error.reason, error.code)
        elif isinstance(message, protocol.Chat | protocol.ChatOff):
            await chat.receive(self, table, connection, message)
        elif isinstance(message, protocol.Hint):
            # thought in a bot process while this socket reads on
            self.spawn(self._hint(table, connection, message.lang))
        elif kind == "undo":
            refusal = await assist.undo(self, table, connection)
            if refusal is not None:
                await self._refuse(table, connection, refusal)
        elif kind == "rematch":
            try:
                await self.seating.rematch(table, connection.seat)
            except TableError as error:
                await self._refuse(table, connection, error.reason, error.code, error.params)

    async def _hint(self, table: LiveTable, connection: Connection, lang: str) -> None:
        refusal = await assist.hint(self, table, connection, lang)
        if refusal is not None:
            await self._refuse(table, connection, refusal)

    async def _refuse(self, table: LiveTable, connection: Connection, reason: str,
                      code: str | None = None, params: dict[str, Any] | None = None) -> None:
        async with table.lock:
            table.refuse(connection, reason, code, params)


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


def _unplayable(table_id: str, stored: StoredTable, broken: dict[str, str]) -> TableError:
    """The refusal for a table ``_resume`` could not give back: closed, or broken."""
    if stored.row.status == CLOSED:
        reason = (stored.row.summary or {}).get("closed", "its rows contradict each other")
        return TableError(f"table {table_id} was closed: {reason}", 410, "table_closed",
                          params={"table": table_id})
    return TableError(f"table {table_id} cannot be resumed: {broken.get(table_id)}", 503,
                      "table_broken", params={"table": table_id})
