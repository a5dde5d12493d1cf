"""The dealer: the one owner of a live table.

Every change to a live table, and every read of one being played, is a command
(``commands``) sent to its dealer: ``await table.dealer.ask(command)``.  The dealer takes
its commands one at a time in the order they came: while one is handled, the next wait
in its mailbox, so no command ever sees the table half-changed and nothing else needs a
lock.  Each command: decide (``steps``: nothing changes), store (the database first: a
failed write leaves the table as it was), then change the table and send what changed.
Timers and bots are tasks beside the table that send commands too.  No other module
assigns a field of a table, a seat or a ``Life`` (``tests/test_layers.py`` checks it).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import time
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import IntegrityError

from ..core.codes import Refusal, refused
from ..core.errors import Refused
from ..core.wire import encode
from ..store.storage import StorageUnavailable, now
from . import chat, steps
from . import commands as cmd
from .bot_runner import make_bot
from .lifecycle import DEFAULT_TAKEOVER, TIMEOUTS_TO_FORFEIT
from .live import OVER, PLAYING, WAITING, Life, LiveSeat, LiveTable
from .results import tally_of

if TYPE_CHECKING:
    from .host import House

__all__ = ["Dealer"]

log = logging.getLogger("cardtable.server")

class Dealer:
    """Owns one live table: takes its commands one at a time and runs what they decide.

    A command asked while none is handled is handled at once, in the asker's task; one
    asked meanwhile waits in the mailbox, which a task of the dealer's takes in order (an
    asker that gives up takes its command back)."""

    def __init__(self, house: House, table: LiveTable, life: dict[str, Any] | None = None) -> None:
        self.house = house
        self.table = table
        self._busy: asyncio.Task[Any] | None = None
        """The task handling a command now (``None``: the dealer is free)."""
        self._mail: collections.deque[tuple[cmd.Command, asyncio.Future[Any], float]] = (
            collections.deque())
        """Each command waiting, its asker's future and when it came (``perf_counter``)."""
        table.dealer = self
        table.life = Life.from_dict(life, table.players)
        table.life.clock = house.clock
        for index in table.life.forfeits + table.life.left:
            seat = table.seats[index]
            if seat.kind == "human" and seat.bot is None and not table.over:
                self._bot_for_good(seat)
        self._handlers: dict[type, Any] = {
            cmd.Move: self._move, cmd.Resign: self._resign, cmd.Leave: self._leave,
            cmd.Undo: self._undo, cmd.StartHint: self._start_hint, cmd.HintDone: self._hint_done,
            cmd.Rematch: self._rematch, cmd.DeclineRematch: self._decline_rematch,
            cmd.Connect: self._connect, cmd.Disconnect: self._disconnect,
            cmd.TakeSeat: self._take_seat, cmd.SeatsRead: self._seats_read,
            cmd.Rename: self._rename, cmd.SignOff: self._sign_off, cmd.Unclaimed: self._unclaimed,
            cmd.GraceOver: self._grace_over, cmd.TimeUp: self._time_up,
            cmd.TimedOut: self._timed_out, cmd.Abandon: self._abandon,
            cmd.BotTurn: self._bot_turn, cmd.Say: self._say, cmd.SetChatOff: self._set_chat_off,
            cmd.Begin: self._begin, cmd.Close: self._close, cmd.RatingsRead: self._ratings_read,
            cmd.Counted: self._counted, cmd.Refuse: self._refuse, cmd.Read: self._read}

    # -- the mailbox ------------------------------------------------------------------------
    async def ask(self, command: cmd.Command) -> Any:
        """Have the table do ``command`` after those asked before: its answer (or refusal)."""
        if self._busy is not None:
            if self._busy is asyncio.current_task():
                raise RuntimeError("a command of this table asked its own dealer again")
            future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
            self._mail.append((command, future, time.perf_counter()))
            return await future
        self._busy = asyncio.current_task()
        try:
            return await self._handlers[type(command)](command)
        finally:
            self._busy = None
            if self._mail:
                self._busy = self.house.spawn(self._drain())

    async def _drain(self) -> None:
        """Handle the waiting commands in order, then leave the dealer free."""
        try:
            while self._mail:
                command, future, came = self._mail.popleft()
                if future.done():   # its asker gave up waiting
                    continue
                self.house.metrics.waited("table", time.perf_counter() - came)
                try:
                    answer = await self._handlers[type(command)](command)
                except asyncio.CancelledError:
                    future.cancel()
                    raise
                except BaseException as error:
                    if not future.done():
                        future.set_exception(error)
                else:
                    if not future.done():
                        future.set_result(answer)
        finally:
            self._busy = None
            for _, future, _came in self._mail:   # stopped: the rest are not handled
                future.cancel()
            self._mail.clear()

    # -- moves ------------------------------------------------------------------------------
    async def _move(self, command: cmd.Move) -> Refusal | None:
        table, house = self.table, self.house
        if table.stale:
            await self._reload()   # StorageUnavailable while the database is away
        reason = table.refusal(command.seat, command.version, command.by_bot)
        if not reason and house.cluster is not None:
            reason = house.cluster.refusal(table)   # only while its lease surely holds
        if reason:
            return reason
        try:
            step = steps.move(table, command.seat, table.version, command.text)
        except steps.EngineFailed as failed:
            log.error("table %s: the engine failed on %r", table.id, command.text,
                      exc_info=failed.__cause__)
            await self._reload()
            return failed.refusal
        if not isinstance(step, steps.Played):
            return step
        takeover = (command.by_bot or command.timed_out) and table.seats[step.seat].kind == "human"
        try:   # store
            at = await house.writer.append(
                table.id, step.version, step.seat, step.text, new_decks=step.new_decks,
                over=step.over, summary=step.summary, tally=step.tally, takeover=takeover)
        except StorageUnavailable:
            table.state.pop()   # take the move back: it is not stored
            table.stale = True
            raise
        except BaseException as error:
            table.state.pop()
            if not isinstance(error, Exception):
                raise   # cancelled: the state is as it was, the move unstored
            log.exception("table %s: move %d could not be saved", table.id, step.version)
            if house.cluster is not None and isinstance(error, IntegrityError):
                # another process wrote this move: it owns the table now
                house.spawn(house.drop(table.id, "the table moved to another server"))
            return refused("move_not_saved", f"the move could not be saved "
                           f"({type(error).__name__}); nothing changed")
        # change (the game's state holds the move already)
        house.metrics.moved(command.by_bot)
        table.last_move = steps.played(step.version, step.seat, step.text, takeover)
        table.takeovers = steps.takeovers_to(table.takeovers, step.version, takeover)
        table.version += 1
        table.decks_stored = step.decks
        if step.over:
            table.status = OVER
            table.finished = at
            table.summary = {**(step.summary or {}), **(step.tally.added if step.tally else {})}
            self._stop_graces()
        if self._moved(step.seat, step.version, house.clock.time()):
            await self._save_life()
        table.broadcast()   # send
        if table.over:
            house.evict_if_idle(table)
        else:
            self.kick()
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
                self._stop_graces()
                self._stop_timers()
            else:
                self._arm()
            table.broadcast()

    # -- the clock --------------------------------------------------------------------------
    def _arm(self) -> None:
        """Start the clock of the seat to move if it is a person's turn (after every change
        of the table).  A bot's turn has no clock."""
        table = self.table
        life = table.life
        if life is None or not life.clocked:
            return
        seat = table.state.to_move
        running = (table.status == PLAYING and seat is not None
                   and not table.seats[seat].played_by_bot)
        turn = (table.version, seat) if running and seat is not None else None
        if turn == life.turn and (turn is None or life.timer is not None):
            return
        if life.timer is not None and life.timer is not asyncio.current_task():
            life.timer.cancel()
        life.timer = None
        life.turn = turn
        if turn is None:
            return
        life.started = self.house.clock.time()
        assert life.move is not None
        limit = life.move + life.banks[turn[1]]
        life.timer = self.house.spawn(self.house.lifecycle.timeout(table, turn, limit))

    def _moved(self, seat: int, version: int, at: float) -> bool:
        """A move of ``seat`` at ``version`` was stored at ``at``: its clock stops and the
        next one starts.  True if the life changed and should be stored."""
        table = self.table
        life = table.life
        if life is None:
            return False
        changed = False
        bank = steps.spent(life, seat, version, at)
        if bank is not None:
            life.banks[seat] = bank
            changed = True
        if life.timing_out == (version, seat):
            life.timing_out = None
        elif life.clocked and life.timeouts[seat] and not table.seats[seat].played_by_bot:
            life.timeouts[seat] = 0  # the player moved in time: the run of timeouts ends
            changed = True
        if life.timer is not None and life.timer is not asyncio.current_task():
            life.timer.cancel()
        life.timer, life.turn = None, None
        if table.over:
            self._stop_timers()
        else:
            self._arm()
        return changed

    def _stop_timers(self) -> None:
        """The table is over or played elsewhere now: its clock and its watch end."""
        life = self.table.life
        if life is None:
            return
        for task in (life.timer, life.abandon):
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        life.timer = life.abandon = None
        life.turn = None

    async def _time_up(self, command: cmd.TimeUp) -> tuple[Any, str, Any] | None:
        table = self.table
        life = table.life
        version, seat = command.turn
        if (life is None or life.turn != command.turn or table.version != version
                or table.status != PLAYING or table.seats[seat].played_by_bot):
            return None
        life.timer = None
        life.banks[seat] = 0.0
        life.timeouts[seat] += 1
        life.timing_out = command.turn
        spec = table.takeover or DEFAULT_TAKEOVER
        log.info("table %s: seat %d ran out of time (%d in a row); %s plays for it",
                 table.id, seat, life.timeouts[seat], spec)
        return make_bot(spec), spec, table.state.copy()

    async def _timed_out(self, command: cmd.TimedOut) -> None:
        table = self.table
        life = table.life
        assert life is not None
        seat = command.turn[1]
        if life.timing_out == command.turn:
            life.timing_out = None
        if life.timeouts[seat] >= TIMEOUTS_TO_FORFEIT and not life.gone(seat):
            await self._forfeit(table.seats[seat], "ran out of time "
                                f"{TIMEOUTS_TO_FORFEIT} times in a row")
        self.kick()

    async def _forfeit(self, seat: LiveSeat, why: str) -> None:
        """The seat is lost for ratings and the takeover bot plays it to the end."""
        table = self.table
        life = table.life
        assert life is not None
        if table.over or life.gone(seat.index):
            return
        life.forfeits.append(seat.index)
        self._bot_for_good(seat)
        log.info("table %s: seat %d forfeits: %s", table.id, seat.index, why)
        await self._save_life()
        self._arm()
        table.broadcast()

    def _bot_for_good(self, seat: LiveSeat) -> None:
        spec = self.table.takeover or DEFAULT_TAKEOVER
        seat.bot = make_bot(spec)
        seat.bot_playing = spec

    async def _save_life(self) -> None:
        """Store the table's life (a failure is logged: the clock then restarts from the
        bank stored before)."""
        table = self.table
        assert table.life is not None
        try:
            await asyncio.to_thread(self.house.storage.save_life, table.id,
                                    table.life.to_dict())
        except StorageUnavailable:
            log.warning("table %s: its clocks could not be stored", table.id)

    # -- resign, leave, abandon ------------------------------------------------------------
    async def _resign(self, command: cmd.Resign) -> dict[str, Any]:
        # counted with the end: that side lost, for ratings
        return await self._end(steps.resigned(self.table, command.seat))

    async def _leave(self, command: cmd.Leave) -> dict[str, Any] | None:
        table = self.table
        steps.check_leave(table, command.seat)
        if steps.aborts(table, command.seat):   # a rated game's abort window
            return await self._end(steps.aborted(table, command.seat))
        assert table.life is not None
        table.life.left.append(command.seat)
        self._bot_for_good(table.seats[command.seat])
        await self._save_life()
        self._arm()
        table.broadcast()
        self.kick()
        return None

    async def _abandon(self, command: cmd.Abandon) -> bool:
        table, house = self.table, self.house
        life = table.life
        if (life is None or life.abandon is not command.timer or table.over
                or house.live.get(table.id) is not table):
            return True
        life.abandon = None   # this watch ends here, whatever storing says
        try:
            await self._end(steps.abandoned(table))
        except StorageUnavailable:
            life.abandon = command.timer   # it tries again later
            return False
        except Refused:
            return True
        log.info("table %s: nobody came back for %.0f s; it ends as abandoned",
                 table.id, house.settings.abandon_after)
        house.evict_if_idle(table)   # abandoned: counted with its end, unrated
        return True

    async def _end(self, summary: dict[str, Any]) -> dict[str, Any]:
        """End the game now, without a move: stored with its results counted (one
        transaction), then told.  Returns the summary as stored."""
        table, house = self.table, self.house
        finished = now()
        if table.life is not None:
            await self._save_life()
        stored = await asyncio.to_thread(house.storage.end_table, table.id,
                                         was=table.status, finished=finished,
                                         summary=summary, tally=tally_of(table, summary))
        if stored is None:
            raise Refused("the table changed meanwhile; look again", 409, "conflict")
        table.status, table.finished, table.summary = OVER, finished, stored
        self._stop_timers()
        self._stop_graces()
        if table.bot_task is not None:
            table.bot_task.cancel()
        table.broadcast()
        return stored

    # -- help against bots ------------------------------------------------------------------
    async def _start_hint(self, command: cmd.StartHint) -> Refusal | tuple[Any, int]:
        table = self.table
        reason = steps.check_hint(table, command.seat)
        if reason is not None:
            return reason
        assert command.seat is not None
        table.seats[command.seat].hinting = True
        return table.state.copy(), table.version

    async def _hint_done(self, command: cmd.HintDone) -> None:
        self.table.seats[command.seat].hinting = False

    async def _undo(self, command: cmd.Undo) -> Refusal | None:
        table = self.table
        count = steps.undo(table, command.seat)
        if isinstance(count, Refusal):
            return count
        keep = table.version - count
        await asyncio.to_thread(self.house.storage.take_back, table.id, keep)
        for _ in range(count):
            table.state.pop()
        table.version, table.takeovers = keep, steps.takeovers_to(table.takeovers, keep)
        table.last_move = steps.last_move(table)
        table.broadcast()
        return None

    async def _rematch(self, command: cmd.Rematch) -> str | None:
        """An offer or its acceptance: made once every person's seat has asked."""
        table = self.table
        steps.check_rematch(self.table, command.seat)
        if table.rematch is None:
            if command.seat is not None:
                table.rematch_asked.add(command.seat)
            if any(s.kind == "human" and s.index not in table.rematch_asked
                   for s in table.seats):
                table.broadcast()   # the offer: the others may accept or decline
                return None
            table.rematch = await self.house.seating.open_rematch(table)
        for connection in list(table.connections):
            connection.outbox.put("rematch", encode(
                {"type": "rematch", "table": table.rematch, "seat": connection.seat}))
        table.broadcast()
        return table.rematch

    async def _decline_rematch(self, command: cmd.DeclineRematch) -> None:
        table = self.table   # no to the offer: withdrawn (a made rematch stays)
        steps.check_rematch(self.table, command.seat)
        if command.seat is not None and table.rematch is None and table.rematch_asked:
            table.rematch_asked.clear()
            table.put_all("rematch_declined", encode({"type": "rematch_declined",
                                                      "seat": command.seat}))
            table.broadcast()

    # -- people coming and going ------------------------------------------------------------
    async def _connect(self, command: cmd.Connect) -> None:
        table, connection = self.table, command.connection
        if connection.seat is None:   # a watcher: nothing at the table changes
            limit = self.house.settings.watchers_per_table
            watching = sum(1 for other in table.connections if other.seat is None)
            if limit and watching >= limit:
                raise Refused(f"this table has as many watchers as it takes ({limit}); "
                              "try again later", 429, "too_many_watchers",
                              params={"limit": limit})
            table.connections.add(connection)
            self._presence()
            connection.outbox.put("state", encode(table.state_message(None)))
            await chat.send_history(self.house, table, connection)
            return
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
                    await asyncio.to_thread(self.house.storage.mark_seen, table.id,
                                            seat.index)
            if (seat.kind == "human" and seat.bot is not None
                    and not (table.life and table.life.gone(seat.index))):
                seat.bot = seat.bot_playing = None  # the player is back
        self._presence()
        self._arm()
        table.broadcast()
        self.kick()   # the bots of a table nobody was at play on
        await chat.send_history(self.house, table, connection)

    async def _disconnect(self, command: cmd.Disconnect) -> None:
        """A connection never added (its ``connect`` cut short) changes nothing."""
        table, connection = self.table, command.connection
        if connection not in table.connections:
            return
        table.connections.discard(connection)
        if connection.seat is not None:
            seat = table.seats[connection.seat]
            seat.connections -= 1
            if seat.connections == 0 and table.takeover and not table.over:
                self._start_grace(seat)
        self._presence()
        if connection.seat is not None:   # a watcher going changes nothing anyone sees
            table.broadcast()
        self.house.evict_if_idle(table)

    def _presence(self) -> None:
        """After a connection came or went: with no seated person connected the
        abandonment watch runs; with one, it stops."""
        table = self.table
        life = table.life
        if life is None:
            return
        people = [seat for seat in table.seats if seat.kind == "human"]
        # a table of bots alone lives while someone watches it
        here = (any(seat.connections for seat in people) if people
                else bool(table.connections))
        if here or table.over:
            if life.abandon is not None and life.abandon is not asyncio.current_task():
                life.abandon.cancel()
            life.abandon = None
        elif life.abandon is None:
            life.abandon = self.house.spawn(self.house.lifecycle.watch(table))

    async def _take_seat(self, command: cmd.TakeSeat) -> int:
        table = self.table
        if table.over:
            raise Refused("this game is over: there is no seat to take", 409, "game_over")
        free = table.free_seats()
        if not free:
            raise Refused("every seat at this table is taken; you can still watch", 409,
                          "table_full")
        seat = free[0]
        if not await asyncio.to_thread(self.house.storage.take_seat, table.id, seat.index,
                                       command.token_hash, command.name, command.player_id,
                                       command.player_kind):
            raise Refused("that seat was just taken by someone else; try again", 409,
                          "seat_taken")
        seat.token_hash = command.token_hash
        seat.name = command.name
        seat.player_id, seat.player_kind = command.player_id, command.player_kind
        seat.seen = False
        self._seated()
        self.kick()
        return seat.index

    async def _seats_read(self, command: cmd.SeatsRead) -> None:
        table = self.table
        for row in command.rows:
            seat = table.seats[row.seat]
            anew = seat.token_hash != row.token_hash
            seat.token_hash, seat.name = row.token_hash, row.name
            seat.player_id, seat.player_kind = row.player_id, row.player_kind
            seat.seen = row.seen is not None or (seat.seen and not anew)
        self._seated()
        self.kick()

    def _seated(self) -> None:
        """A seat was taken: once every seat is, the game starts (the database started it
        with the last seat); everyone is sent the new seats, and a seat nobody connects to
        is held only so long."""
        table = self.table
        if table.status == WAITING and not table.free_seats():
            table.status = PLAYING
            self._start_graces()
            self._arm()
        self._hold()
        self.house.spawn(self.house.lifecycle.load_ratings(table))
        table.broadcast()

    async def _rename(self, command: cmd.Rename) -> None:
        for seat in steps.renamed_seats(self.table, command.player_id, command.becomes):
            seat.name = command.name
            seat.player_id = command.becomes or seat.player_id
        self.table.broadcast()

    async def _sign_off(self, command: cmd.SignOff) -> int:
        return self.table.close_all(command.reason, command.player_id)

    def _hold(self) -> None:
        """Each seat taken but never connected to is held for ``claim_grace`` seconds, then
        freed, unless its token connects first (``_connect`` ends the hold)."""
        table = self.table
        if table.over:
            return
        for seat in table.seats:
            if (seat.kind == "human" and seat.token_hash is not None and not seat.seen
                    and seat.claim_task is None):
                seat.claim_task = self.house.spawn(
                    self.house.seating.unclaimed(table, seat.index, seat.token_hash))

    async def _unclaimed(self, command: cmd.Unclaimed) -> bool:
        table, house = self.table, self.house
        seat = table.seats[command.seat]
        if (seat.claim_task is not command.timer or seat.seen or seat.connections
                or seat.token_hash != command.token_hash or table.over
                or house.live.get(table.id) is not table):
            return True
        try:
            freed = await asyncio.to_thread(house.storage.free_seat, table.id, seat.index,
                                            command.token_hash)
        except StorageUnavailable:
            return False  # try again later
        seat.claim_task = None
        if not freed:  # seen or taken anew through another process meanwhile
            return True
        seat.token_hash = seat.name = seat.player_id = seat.player_kind = None
        log.info("table %s: seat %d was taken but never connected to; it is free again",
                 table.id, seat.index)
        table.broadcast()
        return True

    # -- takeover bots ----------------------------------------------------------------------
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

    async def _bot_turn(self, command: cmd.BotTurn) -> tuple[int, Any, str | None, Any, int] | None:
        table = self.table
        seat = table.bot_to_move()
        if seat is None or steps.unattended(table):   # a connection kicks the bots again
            return None
        return (seat, table.seats[seat].bot, table.seats[seat].bot_playing,
                table.state.copy(), table.version)

    def _start_graces(self) -> None:
        """A game with a takeover bot starts: each person not here yet has the grace period
        to connect, or the bot plays for them."""
        table = self.table
        if table.takeover and table.status == PLAYING:
            for seat in table.seats:
                if seat.kind == "human" and seat.connections == 0:
                    self._start_grace(seat)

    def _start_grace(self, seat: LiveSeat) -> None:
        if seat.grace_task is not None:
            seat.grace_task.cancel()
        seat.grace_task = self.house.spawn(self.house.runner.grace(self.table, seat.index))

    def _stop_graces(self) -> None:
        for seat in self.table.seats:
            if seat.grace_task is not None:
                seat.grace_task.cancel()

    async def _grace_over(self, command: cmd.GraceOver) -> None:
        table = self.table
        seat = table.seats[command.seat]
        seat.grace_task = None
        if seat.connections or table.over or not table.takeover or seat.bot is not None:
            return
        seat.bot = make_bot(table.takeover)
        seat.bot_playing = table.takeover
        log.info("table %s: %s takes over seat %d", table.id, table.takeover, seat.index)
        life = table.life
        if life is not None and life.clocked and seat.kind == "human":
            await self._forfeit(seat, "stayed away past the grace period")
        table.broadcast()
        self.kick()

    # -- chat -------------------------------------------------------------------------------
    async def _say(self, command: cmd.Say) -> None:
        await chat.say(self.house, self.table, command.connection, command.message)

    async def _set_chat_off(self, command: cmd.SetChatOff) -> None:
        await chat.set_off(self.house, self.table, command.connection, command.off)

    # -- from the house ---------------------------------------------------------------------
    async def _begin(self, command: cmd.Begin) -> None:
        """Played here now (made, resumed or adopted): its clock runs, the watch for
        abandonment begins, seats are held, graces run and bots play."""
        table = self.table
        if table.over:
            return
        self._arm()
        self._presence()
        self.house.spawn(self.house.lifecycle.load_ratings(table))
        self._start_graces()
        self._hold()
        self.kick()

    async def _close(self, command: cmd.Close) -> None:
        table = self.table
        if table.bot_task is not None:
            table.bot_task.cancel()
        self._stop_graces()
        self._stop_timers()
        table.close_all(command.reason)

    async def _ratings_read(self, command: cmd.RatingsRead) -> None:
        table = self.table
        life = table.life
        if life is None:
            return
        found = dict(command.found)
        # two reads may cross (the table made, then a seat taken): keep what each found
        # for the seats that still hold the same player
        for index, player in command.wanted:
            if table.seats[index].player_id == player:
                life.ratings[index] = found[player]
        table.broadcast()

    async def _counted(self, command: cmd.Counted) -> None:
        table = self.table
        table.summary = {**(table.summary or {}), **dict(command.added)}
        table.broadcast()

    async def _refuse(self, command: cmd.Refuse) -> None:
        self.house.metrics.refused(command.code or getattr(command.reason, "code", None))
        self.table.refuse(command.connection, command.reason, command.code,
                          dict(command.params) or None)

    async def _read(self, command: cmd.Read) -> Any:
        return command.what(self.table)
