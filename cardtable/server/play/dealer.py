"""The dealer: the one owner of a live table, and the interpreter of what it decides.

Every change to a live table, and every read of one being played, is a command
(``commands``) sent to its dealer: ``await table.dealer.ask(command)``.  The dealer takes
its commands one at a time in the order they came, in its own task (``mailbox``), so no
command ever sees the table half-changed, nothing else needs a lock and an asker that
gives up never stops a command half-way.  Each command is decided by ``decide.decide``, a
plain function that changes nothing; the dealer then does what the decision says, in
order: write (the database first: a failed write leaves the table as it was), change the
table, send, start or stop timers, then decide what a write or the decision itself asks
next.  Timers and bots are tasks beside the table that send commands too.  No other
module assigns a field of a table, a seat or a ``Life`` (``tests/test_layers.py`` checks
it).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, assert_never

from sqlalchemy.exc import IntegrityError

from ..core.codes import refused
from ..store.storage import StorageUnavailable, now
from . import chat
from . import commands as cmd
from . import effects as d
from .bot_runner import make_bot
from .decide import decide, stop_graces
from .lifecycle import DEFAULT_TAKEOVER
from .live import PLAYING, Connection, Life, LiveTable, send
from .mailbox import Mailbox
from .owner import Command

if TYPE_CHECKING:
    from .host import House

__all__ = ["Dealer", "apply"]

log = logging.getLogger("cardtable.server")


class _Stop:
    """A write that ends its decision early with this answer."""

    def __init__(self, answer: object) -> None:
        self.answer = answer


class Dealer(Mailbox):
    """Owns one live table: takes its commands one at a time and does what they decide."""

    def __init__(self, house: House, table: LiveTable,
                 life: dict[str, object] | None = None) -> None:
        self.house = house
        self.table = table
        super().__init__(house.spawn, house.metrics)
        table.dealer = self
        table.life = Life.from_dict(life, table.players)
        table.life.clock = house.clock
        # what the row holds, in to_dict's form where that reads back the same (a
        # correspondence row's running turn does not: it is kept as stored)
        table.life.stored = (dict(life) if life is not None and table.life.correspondence
                             else table.life.to_dict())
        for index in table.life.forfeits + table.life.left:
            seat = table.seats[index]
            if seat.kind == "human" and seat.bot is None and not table.over:
                spec = table.takeover or DEFAULT_TAKEOVER
                seat.bot, seat.bot_playing = make_bot(spec), spec

    async def _handle(self, command: Command[object]) -> object:
        table, house = self.table, self.house
        if not isinstance(command, cmd.AnyCommand):
            raise TypeError(f"a table's dealer takes no {type(command).__name__}")
        if isinstance(command, cmd.Play):
            if table.stale:
                await self._reload()   # StorageUnavailable while the database is away
            if (house.cluster is not None
                    and not table.refusal(command.seat, command.version, command.by_bot)):
                reason = house.cluster.refusal(table)   # only while its lease surely holds
                if reason:
                    return reason
        elif (isinstance(command, cmd.Unclaimed | cmd.Abandon)
              and house.live.get(table.id) is not table):
            return True   # no longer played here: the timer is void
        return await self._interpret(command)

    async def _interpret(self, command: cmd.AnyCommand | d.Further) -> object:
        """Decide ``command``, do what it decides, and what that asks next in turn."""
        table = self.table
        while True:
            decision = decide(table, command, d.Moment(self.house.clock.time(), now()))
            further: d.Further | None = None
            for write in decision.writes:
                outcome = await self._write(write)
                if isinstance(outcome, _Stop):
                    return outcome.answer
                further = outcome or further
            for change in decision.changes:
                self._change(change)
            for effect in decision.sends:
                further = await self._send(effect) or further
            for timer in decision.timers:
                self._timer(timer)
            if decision.error is not None:
                raise decision.error
            then = further or decision.then
            if then is None:
                return decision.answer
            command = then

    # -- writes -----------------------------------------------------------------------------
    async def _write(self, write: d.Write) -> d.Further | _Stop | None:
        table, house = self.table, self.house
        storage = house.storage
        match write:
            case d.StoreMove(step=step, takeover=takeover):
                try:
                    at = await house.writer.append(
                        table.id, step.version, step.seat, step.text, new_decks=step.new_decks,
                        over=step.over, summary=step.summary, tally=step.tally,
                        takeover=takeover)
                except StorageUnavailable:
                    table.state.pop()   # take the move back: it is not stored
                    table.stale = True
                    raise
                except BaseException as error:
                    table.state.pop()
                    if not isinstance(error, Exception):
                        raise   # cancelled: the state is as it was, the move unstored
                    log.exception("table %s: move %d could not be saved", table.id,
                                  step.version)
                    if house.cluster is not None and isinstance(error, IntegrityError):
                        # another process wrote this move: it owns the table now
                        house.spawn(house.drop(table.id, "the table moved to another server"))
                    return _Stop(refused("move_not_saved", f"the move could not be saved "
                                         f"({type(error).__name__}); nothing changed"))
                house.metrics.moved(write.by_bot)
                return d.Stored(step, takeover, at)
            case d.StoreLife(life=life):
                try:
                    await asyncio.to_thread(storage.save_life, table.id, life)
                except StorageUnavailable:   # the clock then restarts from the bank before
                    log.warning("table %s: its clocks could not be stored", table.id)
                else:
                    if table.life is not None:
                        table.life.stored = life
            case d.StoreEnd():
                try:
                    stored = await asyncio.to_thread(
                        storage.end_table, table.id, was=write.was, finished=write.finished,
                        summary=write.summary, tally=write.tally)
                except StorageUnavailable:
                    if write.unavailable is None:
                        raise
                    return _Stop(write.unavailable)
                return d.Ended(write.why, write.finished, stored)
            case d.StoreSeat():
                taken = await asyncio.to_thread(storage.take_seat, table.id, write.seat,
                                                write.token_hash, write.name, write.player_id,
                                                write.player_kind)
                return d.SeatStored(write, bool(taken))
            case d.MarkSeen(seat=seat):
                with contextlib.suppress(StorageUnavailable):
                    await asyncio.to_thread(storage.mark_seen, table.id, seat)
            case d.FreeSeat(seat=seat, token_hash=token_hash):
                try:
                    freed = await asyncio.to_thread(storage.free_seat, table.id, seat,
                                                    token_hash)
                except StorageUnavailable:
                    return _Stop(False)   # try again later
                return d.SeatFreed(seat, bool(freed))
            case d.TakeBackRows(keep=keep):
                await asyncio.to_thread(storage.take_back, table.id, keep)
            case d.MakeRematch():
                return d.RematchMade(await house.seating.open_rematch(table))
            case d.StoreChat():
                await asyncio.to_thread(chat.keep, storage, table.id, write.room, write.seat,
                                        write.name, write.text, write.phrase, write.at,
                                        write.player_id)
            case d.StoreChatOff(off=off):
                await asyncio.to_thread(chat.keep_off, storage, table.id, off)
            case d.Reload():
                await self._reload()
            case _:
                assert_never(write)
        return None

    async def _reload(self) -> None:
        """Deal and replay the table again from the database, taking the moves it holds
        that this process did not know it had stored."""
        table, house = self.table, self.house
        stored = await asyncio.to_thread(house.storage.load, table.id)
        table.stale = False
        if stored is None:
            return
        fresh = house.rebuild(stored)
        table.state = fresh.state
        if fresh.version != table.version:
            table.version, table.last_move = fresh.version, fresh.last_move
            table.decks_stored, table.takeovers = fresh.decks_stored, fresh.takeovers
            table.status, table.finished, table.summary = (fresh.status, fresh.finished,
                                                           fresh.summary)
            if table.over:
                for timer in (*stop_graces(table), d.StopClock(watch=True)):
                    self._timer(timer)
            await self._interpret(d.After(clock=not table.over, kick=False))

    # -- changes ------------------------------------------------------------------------------
    def _change(self, change: d.Change) -> None:
        apply(self.table, change)

    # -- messages -------------------------------------------------------------------------------
    async def _send(self, effect: d.Send) -> d.Further | None:
        table = self.table
        match effect:
            case d.Broadcast():
                table.broadcast()
            case d.SendTo(connection=connection, message=message):
                send(message, (connection,))
            case d.SendAll(message=message):
                send(message, table.connections)
            case d.SendRoom(room=room, message=message, skip=skip):
                send(message, [other for other in table.connections
                               if other in table.chat.ready and room == (
                                   "spectators" if other.seat is None else "players")
                               and (not skip or _player_of(table, other) not in skip)])
            case d.SendState(connection=connection):
                send(table.state_message(connection.seat), (connection,))
            case d.SendRefusal(connection=connection, reason=reason, code=code):
                self.house.metrics.refused(code)
                table.refuse(connection, reason, code, dict(effect.params) or None)
            case d.SendHistory(connection=connection):
                room = "spectators" if connection.seat is None else "players"
                try:
                    notices = self.house.notices
                    lines, off = await asyncio.to_thread(
                        chat.recent, self.house.storage, table.id, room,
                        _player_of(table, connection),
                        None if notices is None else notices.store,
                        [seat.player_id for seat in table.seats])
                    said = tuple(lines)
                except Exception:   # the chat's history is a nicety: the table plays on
                    return d.HistoryRead(connection, (), None)
                return d.HistoryRead(connection, said, off)
            case d.CloseSockets(reason=reason, player_id=player_id):
                table.close_all(reason, player_id)
            case d.Note(text=text, level=level):
                log.log(logging.ERROR if level == "error" else logging.INFO, "%s", text)
            case _:
                assert_never(effect)
        return None

    # -- timers ---------------------------------------------------------------------------------
    def _timer(self, timer: d.Timer) -> None:
        table, house = self.table, self.house
        life = table.life
        match timer:
            case d.StartClock(turn=turn, limit=limit):
                assert life is not None
                life.timer = house.spawn(house.lifecycle.timeout(table, turn, limit))
            case d.StopClock(watch=watch):
                if life is not None:
                    _cancel(life.timer)
                    life.timer = None
                    if watch:
                        _cancel(life.abandon)
                        life.abandon = None
            case d.Watch(on=on):
                assert life is not None
                _cancel(life.abandon)
                life.abandon = house.spawn(house.lifecycle.watch(table)) if on else None
            case d.Grace(seat=index, on=on):
                seat = table.seats[index]
                _cancel(seat.grace_task)
                seat.grace_task = house.spawn(house.runner.grace(table, index)) if on else None
            case d.Hold(seat=index, on=on, token_hash=token_hash):
                seat = table.seats[index]
                _cancel(seat.claim_task)
                seat.claim_task = None
                if on and token_hash is not None:
                    seat.claim_task = house.spawn(house.seating.unclaimed(table, index,
                                                                          token_hash))
            case d.Kick():
                self.kick()
            case d.StopBots():
                _cancel(table.bot_task)
            case d.LoadRatings():
                house.spawn(house.lifecycle.load_ratings(table))
                if table.status == PLAYING and table.version == 0:
                    house.spawn(house.lifecycle.tell_followers(table))
            case d.Evict():
                house.evict_if_idle(table)
            case _:
                assert_never(timer)

    def kick(self) -> None:
        """Start the table's bot loop if a bot is to move and none is running."""
        table = self.table
        if table.bot_task is None and table.bot_to_move() is not None:
            table.bot_task = self.house.spawn(self._bots())

    async def _bots(self) -> None:
        try:
            await self.house.runner.play_bots(self.table)
        finally:
            self.table.bot_task = None
            self.house.evict_if_idle(self.table)


def apply(table: LiveTable, change: d.Change) -> None:
    """Make one change a decision says to the table (the only place that does)."""
    match change:
        case d.Set(part=part, values=values):
            target: object
            if part == "table":
                target = table
            elif part == "life":
                target = table.life
            elif part == "chat":
                target = table.chat
            else:
                target = table.seats[int(part)]
            for name, value in values:
                setattr(target, name, value)
        case d.Join(connection=connection):
            table.connections.add(connection)
        case d.Part(connection=connection):
            table.connections.discard(connection)
        case d.PopMoves(count=count):
            for _ in range(count):
                table.state.pop()
        case _:
            assert_never(change)


def _cancel(task: asyncio.Task[object] | None) -> None:
    """Stop a timer's task, unless it is the one running this (it ends by itself)."""
    if task is not None and task is not asyncio.current_task():
        task.cancel()


def _player_of(table: LiveTable, connection: Connection) -> str | None:
    """The player a connection is: its seat's, or the account a watcher is signed in as."""
    if connection.seat is not None:
        return table.seats[connection.seat].player_id
    return connection.speaker
