"""The bots at the live tables: each table's bot loop, and the takeover bots.

A bot thinks on a copy of the game, outside the table's lock, in a thread or (with
``Settings.bot_processes``) in a process of its own, so a long search holds neither the
table nor the server's interpreter; its move then goes through ``Tables.play`` like a
person's.  A bot that fails or runs past ``bot_time_limit`` plays a random legal move.
A person who stays away past the grace period gets the table's takeover bot.  While the
database is away a bot keeps its move and tries to store it again after a wait that
doubles up to ``Settings.storage_retry_max``.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import multiprocessing
import os
import random
import secrets
import threading
import time
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

from .. import bots
from ..game import GameState
from .live import PLAYING, LiveSeat, LiveTable
from .storage import StorageUnavailable

if TYPE_CHECKING:
    from .tables import Tables

__all__ = ["BotRunner", "choose_in_worker", "default_bot", "make_bot", "watch_parent"]

log = logging.getLogger("cardtable.server")

_WORKER_BOTS: dict[str, Any] = {}


def default_bot() -> str:
    """The bot a seat gets when it asks for ``"bot"`` without a name."""
    return "medium" if "medium" in bots.specs() else "random"


def make_bot(spec: str) -> Any:
    """A bot of that spec with a fresh secure seed (each table's bots are its own)."""
    return bots.make(spec, seed=secrets.randbits(64))


def watch_parent(parent: int) -> None:
    """In a bot process: end when the server process is gone (even killed with -9)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="watch-parent").start()


def choose_in_worker(spec: str, state: GameState[Any]) -> str:
    """In a bot process: this process's own bot of that spec chooses a move."""
    bot = _WORKER_BOTS.get(spec)
    if bot is None:
        bot = _WORKER_BOTS[spec] = make_bot(spec)
    return str(bot.choose(state))


class BotRunner:
    """Plays for the bots at every live table of this process."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.settings = tables.settings
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None

    def close(self) -> None:
        """Stop the bot processes (the bot loops are tasks that ``Tables.stop`` ends)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)

    # -- the bot loop ---------------------------------------------------------------------
    def kick(self, table: LiveTable) -> None:
        """Start the table's bot loop if a bot is to move and none is running."""
        if table.bot_task is None and table.bot_to_move() is not None:
            table.bot_task = self.tables.spawn(self._loop(table))

    async def _loop(self, table: LiveTable) -> None:
        """Play for the bots while it is a bot's turn; each move goes through ``play``."""
        try:
            while True:
                async with table.lock:
                    seat = table.bot_to_move()
                    if seat is None:
                        return
                    bot, spec = table.seats[seat].bot, table.seats[seat].bot_playing
                    snapshot = table.state.copy()
                    version = table.version
                if self.settings.bot_delay > 0:
                    await asyncio.sleep(self.settings.bot_delay)
                text = await self._move(table, bot, spec, snapshot)
                reason = await self._play(table, seat, version, text)
                if reason:
                    log.info("table %s: bot move %r for seat %d not played: %s",
                             table.id, text, seat, reason)
        except asyncio.CancelledError:
            raise
        except Exception:
            # the next move or connection at this table starts the loop again
            log.exception("table %s: the bot loop stopped", table.id)
        finally:
            table.bot_task = None
            self.tables.evict_if_idle(table)

    async def _play(self, table: LiveTable, seat: int, version: int, text: str) -> str | None:
        """Play the bot's move; while the database cannot be reached, try again after a
        wait that doubles (0.1 s, 0.2 s, ... at most ``storage_retry_max``, with jitter).
        The outage is logged by the storage, once; the tries are not."""
        wait = 0.1
        while True:
            try:
                return await self.tables.play(table, seat, version, text, by_bot=True)
            except StorageUnavailable:
                await asyncio.sleep(wait * random.uniform(0.5, 1.0))
                wait = min(wait * 2, max(0.1, self.settings.storage_retry_max))

    def _bot_pool(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._pool is None:
            self._pool = concurrent.futures.ProcessPoolExecutor(
                max_workers=self.settings.bot_processes,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=watch_parent, initargs=(os.getpid(),))
        return self._pool

    async def _move(self, table: LiveTable, bot: Any, spec: str | None,
                    snapshot: GameState[Any]) -> str:
        """The bot's move as text: thought in a bot process if there are any (so a long
        search does not hold the server's interpreter), else in a thread."""
        thinking: Awaitable[str]
        try:
            if self.settings.bot_processes and spec:
                thinking = asyncio.get_running_loop().run_in_executor(
                    self._bot_pool(), choose_in_worker, spec, snapshot)
            else:
                thinking = asyncio.to_thread(lambda: str(bot.choose(snapshot)))
            return await asyncio.wait_for(thinking, timeout=self.settings.bot_time_limit)
        except TimeoutError:
            log.warning("table %s: bot %s took longer than %.1fs; playing a random move",
                        table.id, getattr(bot, "name", bot), self.settings.bot_time_limit)
        except Exception:
            log.exception("table %s: bot %s failed; playing a random move", table.id,
                          getattr(bot, "name", bot))
        moves = snapshot.legal_moves()
        return str(moves[secrets.randbelow(len(moves))])

    # -- takeover bots --------------------------------------------------------------------
    def start_graces(self, table: LiveTable) -> None:
        """A game with a takeover bot starts: each person not here yet has the grace period
        to connect, or the bot plays for them."""
        if table.takeover and table.status == PLAYING:
            for seat in table.seats:
                if seat.kind == "human" and seat.connections == 0:
                    self.start_grace(table, seat)

    def start_grace(self, table: LiveTable, seat: LiveSeat) -> None:
        if seat.grace_task is not None:
            seat.grace_task.cancel()
        seat.grace_task = self.tables.spawn(self._grace(table, seat))

    async def _grace(self, table: LiveTable, seat: LiveSeat) -> None:
        await asyncio.sleep(self.settings.grace)
        async with table.lock:
            seat.grace_task = None
            if seat.connections or table.over or not table.takeover or seat.bot is not None:
                return
            seat.bot = make_bot(table.takeover)
            seat.bot_playing = table.takeover
            log.info("table %s: %s takes over seat %d", table.id, table.takeover, seat.index)
            table.broadcast()
        self.kick(table)

    @staticmethod
    def stop_graces(table: LiveTable) -> None:
        for seat in table.seats:
            if seat.grace_task is not None:
                seat.grace_task.cancel()
