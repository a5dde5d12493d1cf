"""A table's life besides its moves: clocks, timeouts and forfeits, resign and leave,
and the end of a table nobody comes back to.

Every table has a ``Life`` (``LiveTable.life``, changed by its dealer alone), stored as
JSON with the table (``TableRow.life``) after each move that changes it, so a restart
gives every seat the time it had left as of the last stored move.  The process that
plays a table (the owner, with several processes) runs its clock: the seat to move has
``move`` seconds, then its bank; when both are spent the table's takeover bot plays that
move for it.  Three
timeouts in a row, or staying away past the grace period at a table with a clock,
forfeit the seat: the bot plays on, and the seat counts as lost (``summary["forfeits"]``).
A player may resign (their side loses, the game ends: ``summary["resigned"]``) or, at an
unrated table, leave (the bot plays on).  A table where no seated person is connected
for ``ServerSettings.abandon_after`` seconds ends as abandoned, unrated.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from ..store.storage import Storage, StorageUnavailable
from .commands import Abandon, Checkpoint, RatingsRead, TimedOut, TimeUp
from .live import CHECKPOINT, TIMEOUTS_TO_FORFEIT, Life, LiveTable
from .steps import side_of

if TYPE_CHECKING:
    from .host import House

__all__ = ["DEFAULT_CLOCK", "DEFAULT_TAKEOVER", "TIMEOUTS_TO_FORFEIT", "Life", "Lifecycle",
           "ratings_in_pool", "side_of"]

log = logging.getLogger("cardtable.server")

FOLLOWERS_TOLD = 200
"""Followers a player's new game is told to, at most (a bound on one table's notices)."""

DEFAULT_CLOCK = {"move": 20, "bank": 60}
"""The time control of quick play: 20 seconds a move, then a bank of 60."""
DEFAULT_TAKEOVER = "easy"
"""The bot that plays a timed-out move when the table names none."""


def ratings_in_pool(storage: Storage, player_ids: list[str], pool: str) -> dict[str, int]:
    """The shown rating of each player in a pool (the starting one where they have none)."""
    from sqlalchemy import select

    from ..store.players import RatingRow
    from ..store.ratings import START_MU, display

    with storage.sessions() as session:
        rows = dict(session.execute(select(RatingRow.player_id, RatingRow.mu).where(
            RatingRow.player_id.in_(player_ids), RatingRow.pool == pool)).all())
    return {player: int(display(rows.get(player, START_MU))) for player in player_ids}


class Lifecycle:
    """The clocks' and the abandonment watch's timers of this process's live tables, and
    and the ratings shown with the seats.  A timer sleeps on the tables' clock, then
    tells the table's dealer, which decides (the turn may have ended meanwhile)."""

    def __init__(self, tables: House) -> None:
        self.tables = tables
        self._told: set[str] = set()
        """Tables whose players' followers were told the game began (once a table)."""

    # -- timers -----------------------------------------------------------------------------
    async def timeout(self, table: LiveTable, turn: tuple[int, int], limit: float) -> None:
        """The seat's time is up: the takeover bot plays this move for it; the third
        timeout in a row forfeits the seat.  A correspondence turn tells its player it
        is their move (unless they are at the table), and its time spent is stored every
        ``CHECKPOINT`` seconds."""
        clock = self.tables.clock
        life = table.life
        if life is not None and life.correspondence:
            if life.move is not None and limit >= life.move:   # a new turn, not a resumed one
                await self._your_move(table, turn[1])
            end = clock.time() + limit
            while (left := end - clock.time()) > 0:
                await clock.sleep(min(left, CHECKPOINT))
                if end - clock.time() > 0:
                    with contextlib.suppress(StorageUnavailable):
                        await table.dealer.ask(Checkpoint())
        else:
            await clock.sleep(limit)
        given = await table.dealer.ask(TimeUp(turn))
        if given is None:
            return
        bot, spec, snapshot = given
        text = await self.tables.runner.think(table, bot, spec, snapshot)
        reason: str | None   # why the move was not played: only logged
        try:
            reason = await self.tables.play(table, turn[1], turn[0], text, timed_out=True)
        except StorageUnavailable:
            reason = "the database is away"
        if reason:
            log.info("table %s: the timed-out move %r was not played: %s", table.id, text,
                     reason)
        await table.dealer.ask(TimedOut(turn))

    async def _your_move(self, table: LiveTable, seat: int) -> None:
        """Tell an account whose correspondence turn begins, when it is not at the table."""
        holder = table.seats[seat]
        notices = self.tables.notices
        if notices is None or not holder.player_id or holder.connections:
            return
        life = table.life
        await notices.notify(holder.player_id, "your_move", {
            "table": table.id, "game": table.game, "seat": seat,
            "days": None if life is None else life.days, "url": f"/table/{table.id}"})

    async def tell_followers(self, table: LiveTable) -> None:
        """A game began: each account at the table tells its followers (``friend_game``,
        to watch it), at most ``FOLLOWERS_TOLD`` of them, and not those at the table."""
        notices = self.tables.notices
        if notices is None or table.id in self._told:
            return
        if len(self._told) >= 10_000:
            self._told.clear()   # a bound on memory: a table starts once, long gone by then
        self._told.add(table.id)
        here = {seat.player_id for seat in table.seats if seat.player_id}
        accounts = [seat for seat in table.seats
                    if seat.player_id and seat.player_kind == "account"]
        if not accounts:
            return
        try:   # one query for the table's accounts, one write for every notice
            followers = await asyncio.to_thread(notices.store.followers_of,
                                                [seat.player_id or "" for seat in accounts])
        except StorageUnavailable:
            return
        await notices.notify_many([
            (follower, "friend_game", {"name": seat.name, "table": table.id,
                                       "game": table.game, "url": f"/table/{table.id}"})
            for seat in accounts for follower in [
                f for f in followers.get(seat.player_id or "", []) if f not in here
            ][:FOLLOWERS_TOLD]])

    async def checkpoint_all(self, table_ids: list[str] | None = None) -> None:
        """Store every correspondence turn's time spent (of ``table_ids``, or of every
        live table): a process stopping, or handing tables to another."""
        chosen = (list(self.tables.live.values()) if table_ids is None
                  else [t for i in table_ids if (t := self.tables.live.get(i)) is not None])
        for table in chosen:
            life = table.life
            if life is not None and life.correspondence and life.turn is not None:
                with contextlib.suppress(Exception):   # stopping: the last checkpoint holds
                    await asyncio.wait_for(table.dealer.ask(Checkpoint()), 2)

    async def watch(self, table: LiveTable) -> None:
        """With no seated person connected for ``abandon_after`` seconds, the table ends
        as abandoned (unrated); while the database is away it tries again."""
        wait = self.tables.settings.abandon_after
        timer = asyncio.current_task()
        while True:
            await self.tables.clock.sleep(wait)
            if await table.dealer.ask(Abandon(timer)):
                return
            wait = self.tables.settings.storage_retry_max

    # -- ratings shown with the seats -------------------------------------------------------
    async def load_ratings(self, table: LiveTable) -> None:
        """Read the rating of each account's seat in the table's pool, then tell everyone
        (after the table starts, and whenever a seat is taken).  A failure leaves them
        unshown."""
        wanted = {seat.index: seat.player_id for seat in table.seats
                  if seat.player_id and seat.player_kind == "account"}
        if not wanted:
            return
        from ..store.ratings import pool_of

        pool = pool_of(table.game, table.preset, table.players)
        try:
            found = await asyncio.to_thread(ratings_in_pool, self.tables.storage,
                                            sorted(set(wanted.values())), pool)
        except Exception:  # StorageUnavailable, or no ratings table: shown next time
            log.warning("table %s: the players' ratings could not be read", table.id)
            return
        await table.dealer.ask(RatingsRead(tuple(wanted.items()), tuple(found.items())))
