"""A table's life besides its moves: clocks, timeouts and forfeits, resign and leave,
and the end of a table nobody comes back to.

Every table has a ``Life`` (``LiveTable.life``), stored as JSON with the table
(``TableRow.life``) after each move that changes it, so a restart gives every seat the
time it had left as of the last stored move.  The process that plays a table (the owner,
with several processes) runs its clock: the seat to move has ``move`` seconds, then its
bank; when both are spent the table's takeover bot plays that move for it.  Three
timeouts in a row, or staying away past the grace period at a table with a clock,
forfeit the seat: the bot plays on, and the seat counts as lost (``summary["forfeits"]``).
A player may resign (their side loses, the game ends: ``summary["resigned"]``) or, at an
unrated table, leave (the bot plays on).  A table where no seated person is connected
for ``Settings.abandon_after`` seconds ends as abandoned, unrated.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..clock import Clock
from ..store.storage import StorageUnavailable, now
from ..wire import plain
from .bot_runner import make_bot
from .live import OVER, PLAYING, WAITING, LiveSeat, LiveTable, TableError
from .results import tally_of

if TYPE_CHECKING:
    from .host import House

__all__ = ["DEFAULT_CLOCK", "DEFAULT_TAKEOVER", "TIMEOUTS_TO_FORFEIT", "Life", "Lifecycle",
           "side_of"]

log = logging.getLogger("cardtable.server")

DEFAULT_CLOCK = {"move": 20, "bank": 60}
"""The time control of quick play: 20 seconds a move, then a bank of 60."""
DEFAULT_TAKEOVER = "easy"
"""The bot that plays a timed-out move when the table names none."""
TIMEOUTS_TO_FORFEIT = 3
"""Timeouts in a row that forfeit the seat."""


@dataclass(eq=False)
class Life:
    """A table's clock and the seats that are gone (forfeited or left).

    ``banks`` and ``timeouts`` are per seat; ``turn`` is the (version, seat) whose clock
    runs, since ``started`` (on ``clock``, the tables' clock).
    """

    players: int
    move: float | None = None
    """Seconds for each move (``None``: no clock)."""
    bank: float = 0.0
    rated: bool = False
    banks: list[float] = field(default_factory=list)
    timeouts: list[int] = field(default_factory=list)
    forfeits: list[int] = field(default_factory=list)
    left: list[int] = field(default_factory=list)
    turn: tuple[int, int] | None = None
    started: float = 0.0
    timer: asyncio.Task[None] | None = None
    abandon: asyncio.Task[None] | None = None
    timing_out: tuple[int, int] | None = None
    """The (version, seat) whose move the takeover bot is playing after a timeout."""
    ratings: dict[int, int] = field(default_factory=dict)
    """The rating each account's seat has in the table's pool (shown with the seat)."""
    clock: Clock = field(default_factory=Clock, repr=False)
    """What the time is (the tables' clock, given by ``Lifecycle.attach``)."""

    def __post_init__(self) -> None:
        if len(self.banks) != self.players:
            self.banks = [float(self.bank)] * self.players
        if len(self.timeouts) != self.players:
            self.timeouts = [0] * self.players

    @property
    def clocked(self) -> bool:
        return self.move is not None

    def gone(self, seat: int) -> bool:
        """The seat is played by the bot for good (forfeited, or its player left)."""
        return seat in self.forfeits or seat in self.left

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None, players: int) -> Life:
        data = data or {}
        clock = data.get("clock") or None
        return cls(players=players,
                   move=None if clock is None else float(clock["move"]),
                   bank=0.0 if clock is None else float(clock["bank"]),
                   rated=bool(data.get("rated", False)),
                   banks=[float(x) for x in data.get("banks", [])],
                   timeouts=[int(x) for x in data.get("timeouts", [])],
                   forfeits=[int(x) for x in data.get("forfeits", [])],
                   left=[int(x) for x in data.get("left", [])])

    def to_dict(self) -> dict[str, Any]:
        clock = (None if self.move is None
                 else {"move": _whole(self.move), "bank": _whole(self.bank)})
        return {"clock": clock, "rated": self.rated, "banks": [round(b, 3) for b in self.banks],
                "timeouts": list(self.timeouts), "forfeits": list(self.forfeits),
                "left": list(self.left)}

    def time_left(self, at: float) -> tuple[float, float]:
        """(seconds of the move, seconds of the bank) the running turn has left at ``at``."""
        if self.turn is None or self.move is None:
            return 0.0, 0.0
        spent = max(0.0, at - self.started)
        bank = self.banks[self.turn[1]]
        return max(0.0, self.move - spent), max(0.0, bank - max(0.0, spent - self.move))

    def view(self, at: float) -> dict[str, Any] | None:
        """The clock as every viewer sees it: the time control, each bank, and the seat
        whose time runs with what it has left (seconds, counted from when it is sent)."""
        if self.move is None:
            return None
        out: dict[str, Any] = {"move": self.move, "bank": self.bank,
                               "banks": [round(b, 1) for b in self.banks],
                               "seat": None, "move_left": None, "bank_left": None}
        if self.turn is not None:
            move_left, bank_left = self.time_left(at)
            out.update(seat=self.turn[1], move_left=round(move_left, 1),
                       bank_left=round(bank_left, 1))
        return out


def ratings_in_pool(storage: Any, player_ids: list[str], pool: str) -> dict[str, int]:
    """The shown rating of each player in a pool (the starting one where they have none)."""
    from sqlalchemy import select

    from ..people.players import RatingRow
    from ..people.ratings import START_MU, display

    with storage.sessions() as session:
        rows = dict(session.execute(select(RatingRow.player_id, RatingRow.mu).where(
            RatingRow.player_id.in_(player_ids), RatingRow.pool == pool)).all())
    return {player: int(display(rows.get(player, START_MU))) for player in player_ids}


def _whole(seconds: float) -> float | int:
    """Whole seconds as an int (``20``, not ``20.0``), as the time control was given."""
    return int(seconds) if float(seconds).is_integer() else seconds


def side_of(table: LiveTable, seat: int) -> list[int]:
    """The seats that win or lose with ``seat``: its team where the rules seat teams
    (``seat % sides``, as both games' rules put it), else the seat alone."""
    count = table.players
    for name in ("sides", "teams"):
        method = getattr(table.rules, name, None)
        if callable(method):
            count = int(method(table.players))
            break
    if count >= table.players or count < 1:
        return [seat]
    return [s for s in range(table.players) if s % count == seat % count]


def _winning_side(table: LiveTable, losers: list[int]) -> int | None:
    """The one side left when ``losers`` resign, as the game numbers its sides (``seat %
    sides``); ``None`` when more than one side is left (no single winner)."""
    sides = table.players // len(losers)
    left = {s % sides for s in range(table.players) if s not in losers}
    return left.pop() if len(left) == 1 else None


def _all_accounts(table: LiveTable) -> bool:
    """Every seat is a signed-in account's (the games ``ratings`` rates)."""
    return all(seat.kind == "human" and getattr(seat, "player_kind", None) == "account"
               for seat in table.seats)


class Lifecycle:
    """Runs the clocks and the abandonment watch of this process's live tables."""

    def __init__(self, tables: House) -> None:
        self.tables = tables

    @property
    def clock_time(self) -> float:
        return self.tables.clock.time()

    # -- tables coming and going ------------------------------------------------------
    def attach(self, table: LiveTable, stored: dict[str, Any] | None) -> Life:
        """Give a table its ``Life`` from what the database holds; seats that are gone get
        the takeover bot back."""
        life = Life.from_dict(stored, table.players)
        life.clock = self.tables.clock
        table.life = life
        for index in life.forfeits + life.left:
            seat = table.seats[index]
            if seat.kind == "human" and seat.bot is None and not table.over:
                self._bot_for_good(table, seat)
        return life

    def start(self, table: LiveTable) -> None:
        """A table is played here now (made, resumed or adopted): its clock runs and the
        abandonment watch begins.  Call under the lock or before anyone has the table."""
        if table.life is None:
            self.attach(table, None)
        self.arm(table)
        self.presence(table)
        self.tables.spawn(self.load_ratings(table))

    def stop(self, table: LiveTable) -> None:
        """The table is over or played elsewhere now: its timers end."""
        life: Life | None = table.life
        if life is None:
            return
        for task in (life.timer, life.abandon):
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        life.timer = life.abandon = None
        life.turn = None

    # -- the clock --------------------------------------------------------------------
    def arm(self, table: LiveTable) -> None:
        """Start the clock of the seat to move if it is a person's turn (call under the
        lock, after every change of the table).  A bot's turn has no clock."""
        life: Life | None = table.life
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
        life.started = self.clock_time
        assert life.move is not None
        limit = life.move + life.banks[turn[1]]
        life.timer = self.tables.spawn(self._timeout(table, turn, limit))

    def moved(self, table: LiveTable, seat: int, version: int) -> bool:
        """A move of ``seat`` at ``version`` was stored (call under the lock): its clock
        stops and the next one starts.  True if the life changed and should be stored."""
        life: Life | None = table.life
        if life is None:
            return False
        changed = False
        if life.clocked and life.turn == (version, seat):
            spent = max(0.0, self.clock_time - life.started)
            assert life.move is not None
            life.banks[seat] = max(0.0, life.banks[seat] - max(0.0, spent - life.move))
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
            self.stop(table)
        else:
            self.arm(table)
        return changed

    async def _timeout(self, table: LiveTable, turn: tuple[int, int], limit: float) -> None:
        """The seat's time is up: the takeover bot plays this move for it; the third
        timeout in a row forfeits the seat."""
        await self.tables.clock.sleep(limit)
        version, seat = turn
        tables = self.tables
        async with table.lock:
            life: Life | None = table.life
            if (life is None or life.turn != turn or table.version != version
                    or table.status != PLAYING or table.seats[seat].played_by_bot):
                return
            life.timer = None
            life.banks[seat] = 0.0
            life.timeouts[seat] += 1
            life.timing_out = turn
            snapshot = table.state.copy()
            spec = table.takeover or DEFAULT_TAKEOVER
            log.info("table %s: seat %d ran out of time (%d in a row); %s plays for it",
                     table.id, seat, life.timeouts[seat], spec)
        text = await tables.runner.think(table, make_bot(spec), spec, snapshot)
        reason: str | None   # why the move was not played: only logged
        try:
            reason = await tables.play(table, seat, version, text)
        except StorageUnavailable:
            reason = "the database is away"
        if reason:
            log.info("table %s: the timed-out move %r was not played: %s", table.id, text,
                     reason)
        async with table.lock:
            if life.timing_out == turn:
                life.timing_out = None
            if life.timeouts[seat] >= TIMEOUTS_TO_FORFEIT and not life.gone(seat):
                await self._forfeit(table, table.seats[seat], "ran out of time "
                                    f"{TIMEOUTS_TO_FORFEIT} times in a row")
        tables.runner.kick(table)

    async def _forfeit(self, table: LiveTable, seat: LiveSeat, why: str) -> None:
        """The seat is lost for ratings and the takeover bot plays it to the end (call
        under the lock)."""
        life: Life = table.life
        if table.over or life.gone(seat.index):
            return
        life.forfeits.append(seat.index)
        self._bot_for_good(table, seat)
        log.info("table %s: seat %d forfeits: %s", table.id, seat.index, why)
        await self._save(table)
        self.arm(table)
        table.broadcast()

    def _bot_for_good(self, table: LiveTable, seat: LiveSeat) -> None:
        spec = table.takeover or DEFAULT_TAKEOVER
        seat.bot = make_bot(spec)
        seat.bot_playing = spec

    async def grace_over(self, table: LiveTable, seat: LiveSeat) -> None:
        """A player stayed away past the grace period (call under the lock): at a table
        with a clock the seat is forfeited."""
        life: Life | None = table.life
        if life is not None and life.clocked and seat.kind == "human":
            await self._forfeit(table, seat, "stayed away past the grace period")

    # -- storing ----------------------------------------------------------------------
    async def save_after_move(self, table: LiveTable, seat: int, version: int) -> None:
        """``moved``, then store the life if it changed (a failure is logged: the clock
        then restarts from the bank stored before)."""
        if self.moved(table, seat, version):
            await self._save(table)

    async def _save(self, table: LiveTable) -> None:
        try:
            await asyncio.to_thread(self.tables.storage.save_life, table.id,
                                    table.life.to_dict())
        except StorageUnavailable:
            log.warning("table %s: its clocks could not be stored", table.id)

    def annotate(self, table: LiveTable, summary: dict[str, Any]) -> dict[str, Any]:
        """The summary of a finished game, with the seats that forfeited or left (their
        players lost, for ratings) and ``rated`` when it was (the rest is the game's own
        result, as its record has it)."""
        life: Life | None = table.life
        if life is None:
            return summary
        if life.forfeits:
            summary["forfeits"] = sorted(life.forfeits)
        if life.left:
            summary["left"] = sorted(life.left)
        if life.rated:
            summary["rated"] = True
        return summary

    # -- resign and leave ---------------------------------------------------------------
    async def resign(self, table: LiveTable, seat: int) -> dict[str, Any]:
        """``seat`` resigns: its side loses and the game ends.  Returns the summary."""
        async with table.lock:
            self._check_playing(table, "resign")
            losers = side_of(table, seat)
            summary = plain(table.spec.summary(table.state))
            summary.update(over=True, ended="resigned", resigned=seat, losers=losers,
                           winners=[s for s in range(table.players) if s not in losers])
            if table.spec.has_loser:
                summary["loser"] = seat
            elif "winner" in summary:   # the game names its winning side
                summary["winner"] = _winning_side(table, losers)
            # counted with the end: that side lost, for ratings
            return await self._end(table, self.annotate(table, summary))

    async def leave(self, table: LiveTable, seat: int) -> None:
        """``seat``'s player leaves an unrated table: the takeover bot plays on for good."""
        async with table.lock:
            self._check_playing(table, "leave")
            life: Life = table.life
            if life.rated or _all_accounts(table):
                raise TableError("this game is rated: you may resign, not leave",
                                 409, "rated_table")
            if life.gone(seat):
                raise TableError("you have already left this seat", 409, "already_left")
            life.left.append(seat)
            self._bot_for_good(table, table.seats[seat])
            await self._save(table)
            self.arm(table)
            table.broadcast()
        self.tables.runner.kick(table)

    async def act(self, table_id: str, seat: int, action: str) -> None:
        """A resign or leave sent here by another process (this one plays the table)."""
        table = self.tables.live.get(table_id)
        if table is None or action not in ("resign", "leave"):
            return
        try:
            if action == "resign":
                await self.resign(table, seat)
            else:
                await self.leave(table, seat)
        except (TableError, StorageUnavailable) as error:
            log.info("table %s: a %s of seat %d sent from another process was not done: %s",
                     table_id, action, seat, error)

    @staticmethod
    def check(table: LiveTable, seat: int, action: str) -> None:
        """Refuse what ``resign``/``leave`` would refuse, on a copy of the table (a process
        that does not play it checks before sending it to the one that does)."""
        Lifecycle._check_playing(table, action)
        if action == "leave":
            life: Life = table.life
            if life.rated or _all_accounts(table):
                raise TableError("this game is rated: you may resign, not leave",
                                 409, "rated_table")
            if life.gone(seat):
                raise TableError("you have already left this seat", 409, "already_left")

    @staticmethod
    def _check_playing(table: LiveTable, what: str) -> None:
        if table.over:
            raise TableError(f"the game is over: there is nothing to {what}", 409, "game_over")
        if table.status == WAITING:
            raise TableError(f"the game has not started: nothing to {what} yet (every seat "
                             "must be taken first)", 409, "not_started")

    async def _end(self, table: LiveTable, summary: dict[str, Any]) -> dict[str, Any]:
        """End the game now, without a move (call under the lock): stored with its
        results counted (one transaction), then told.  Returns the summary as stored."""
        finished = now()
        if table.life is not None:
            await self._save(table)
        stored = await asyncio.to_thread(self.tables.storage.end_table, table.id,
                                         was=table.status, finished=finished,
                                         summary=summary, tally=tally_of(table, summary))
        if stored is None:
            raise TableError("the table changed meanwhile; look again", 409, "conflict")
        table.status, table.finished, table.summary = OVER, finished, stored
        self.stop(table)
        self.tables.runner.stop_graces(table)
        if table.bot_task is not None:
            table.bot_task.cancel()
        table.broadcast()
        return stored

    # -- ratings shown with the seats ---------------------------------------------------
    async def load_ratings(self, table: LiveTable) -> None:
        """Read the rating of each account's seat in the table's pool, then tell everyone
        (after the table starts, and whenever a seat is taken).  A failure leaves them
        unshown."""
        wanted = {seat.index: seat.player_id for seat in table.seats
                  if seat.player_id and seat.player_kind == "account"}
        if not wanted:
            return
        from ..people.ratings import pool_of

        pool = pool_of(table.game, table.preset, table.players)
        try:
            found = await asyncio.to_thread(ratings_in_pool, self.tables.storage,
                                            sorted(set(wanted.values())), pool)
        except Exception:  # StorageUnavailable, or no ratings table: shown next time
            log.warning("table %s: the players' ratings could not be read", table.id)
            return
        async with table.lock:
            life: Life | None = table.life
            if life is None:
                return
            # two reads may cross (the table made, then a seat taken): keep what each found
            # for the seats that still hold the same player
            for index, player in wanted.items():
                if table.seats[index].player_id == player:
                    life.ratings[index] = found[player]
            table.broadcast()

    # -- presence and abandonment ---------------------------------------------------------
    def presence(self, table: LiveTable) -> None:
        """After a connection came or went (call under the lock): with no seated person
        connected the abandonment watch runs; with one, it stops."""
        life: Life | None = table.life
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
            life.abandon = self.tables.spawn(self._abandon(table))

    async def _abandon(self, table: LiveTable) -> None:
        wait = self.tables.settings.abandon_after
        while True:
            await self.tables.clock.sleep(wait)
            async with table.lock:
                life: Life | None = table.life
                if (life is None or life.abandon is not asyncio.current_task() or table.over
                        or self.tables.live.get(table.id) is not table):
                    return
                summary = plain(table.spec.summary(table.state))
                summary.update(over=True, ended="abandoned", abandoned=True)
                summary = self.annotate(table, summary)
                summary["rated"] = False
                try:
                    await self._end(table, summary)
                except StorageUnavailable:
                    wait = self.tables.settings.storage_retry_max
                    continue
                except TableError:
                    return
                log.info("table %s: nobody came back for %.0f s; it ends as abandoned",
                         table.id, self.tables.settings.abandon_after)
            self.tables.evict_if_idle(table)   # abandoned: counted with its end, unrated
            return


