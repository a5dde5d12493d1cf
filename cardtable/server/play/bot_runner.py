"""The bots at the live tables: each table's bot loop, and the takeover bots.

A bot thinks on a copy of the game, outside the table's owner, where the server can stop
it at ``bot_time_limit``: in threads of its own (``ServerSettings.bot_threads``; never the
threads storage uses), where its search stops itself at the limit and plays the best move
found so far, or (with ``ServerSettings.bot_processes``) in processes of its own
(``bot_workers``), where one still thinking at the limit is killed and replaced.  Its move
then goes through ``Tables.play`` like a person's.  A bot that fails, or does not answer
by the limit, plays a random legal move.  A person who stays away past the grace period
gets the table's takeover bot.  While the database is away a bot keeps its move and tries
to store it again after a wait that doubles up to ``ServerSettings.storage_retry_max``.
The table's dealer starts and ends the bot loop and the grace timers; they ask it.

Hints and analyses think in the bot processes too (``BotRunner.pool``), even when the
bots think in threads; a bot thinking in a thread counts as live work there, so an
analysis waits for it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import os
import random
import secrets
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from ... import bots
from ...bots import Bot
from ..core.shapes import TableState
from ..store.storage import StorageUnavailable
from .bot_workers import BotWorkers
from .commands import BotTurn, GraceOver
from .live import LiveTable

if TYPE_CHECKING:
    from .host import House

__all__ = ["BotRunner", "default_bot", "make_bot"]

log = logging.getLogger("cardtable.server")

GRACE = 1.0
"""Seconds past the limit a bot's answer is still waited for (a search stops at the limit
and answers at once; this is the time to hand the answer back)."""


def default_bot() -> str:
    """The bot a seat gets when it asks for ``"bot"`` without a name."""
    return "medium" if "medium" in bots.specs() else "random"


def make_bot(spec: str) -> Bot:
    """A bot of that spec with a fresh secure seed (each table's bots are its own)."""
    return bots.make(spec, seed=secrets.randbits(64))


@dataclass
class _Budget:
    """A budget key's turns, the bots using it and those thinking now."""

    turns: asyncio.Semaphore
    users: int = 0
    thinking: int = 0


class BotRunner:
    """Plays for the bots at every live table of this process."""

    def __init__(self, tables: House) -> None:
        self.tables = tables
        self.settings = tables.settings
        self.workers: BotWorkers | None = None
        """The bot processes, once a bot, a hint or an analysis has needed one."""
        self._threads: concurrent.futures.ThreadPoolExecutor | None = None
        self._budgets: dict[str, _Budget] = {}
        """Each budget key's semaphore, the bots using it and those thinking (``_turn``)."""

    def pool(self) -> BotWorkers:
        """The bot processes: ``bot_processes`` of them for the bots (one when the bots
        think in threads: then hints alone use it) and ``analysis_processes`` for analysis
        (at most the machine's cores)."""
        if self.workers is None:
            self.workers = BotWorkers(
                max(1, self.settings.bot_processes), grace=GRACE,
                background=min(self.settings.analysis_processes, os.cpu_count() or 1))
        return self.workers

    def close(self) -> None:
        """Stop the bot processes and threads (the bot loops are tasks ``Tables.stop`` ends)."""
        if self.workers is not None:
            self.workers.close()
        if self._threads is not None:
            self._threads.shutdown(wait=False, cancel_futures=True)

    # -- the bot loop ---------------------------------------------------------------------
    async def play_bots(self, table: LiveTable) -> None:
        """Play for the bots while it is a bot's turn (the table's dealer runs this as the
        table's bot task); each move goes through ``Tables.play`` like a person's."""
        try:
            while True:
                turn = await table.dealer.ask(BotTurn())
                if turn is None:
                    return
                seat, bot, spec, snapshot, version = turn
                if self.settings.bot_delay > 0:
                    await self.tables.clock.sleep(self.settings.bot_delay)
                text = await self.think(table, bot, spec, snapshot)
                reason = await self._play(table, seat, version, text)
                if reason:
                    log.info("table %s: bot move %r for seat %d not played: %s",
                             table.id, text, seat, reason)
        except asyncio.CancelledError:
            raise
        except Exception:
            # the next move or connection at this table starts the loop again
            log.exception("table %s: the bot loop stopped", table.id)

    async def _play(self, table: LiveTable, seat: int, version: int, text: str) -> str | None:
        """Play the bot's move; while the database cannot be reached, try again after a
        wait that doubles (0.1 s, 0.2 s, ... at most ``storage_retry_max``, with jitter).
        The outage is logged by the storage, once; the tries are not."""
        wait = 0.1
        while True:
            try:
                return await self.tables.play(table, seat, version, text, by_bot=True)
            except StorageUnavailable:
                await self.tables.clock.sleep(wait * random.uniform(0.5, 1.0))
                wait = min(wait * 2, max(0.1, self.settings.storage_retry_max))

    async def think(self, table: LiveTable, bot: Bot, spec: str | None,
                    snapshot: TableState) -> str:
        """The bot's move as text, thought in a bot process if there are any, else in a
        bot thread, once the table's budget has a turn free; a random legal move if the
        bot fails or runs past the limit."""
        metrics = self.tables.metrics
        async with contextlib.AsyncExitStack() as turns:
            asked = time.perf_counter()
            for key in table.budget or (f"table:{table.id}",):
                await turns.enter_async_context(self._turn(key))
            started = time.perf_counter()
            metrics.waited("bot_turn", started - asked)
            try:
                return await self._think(table, bot, spec, snapshot)
            finally:
                metrics.bot_seconds.observe(time.perf_counter() - started)

    def thinking(self, key: str) -> tuple[int, int]:
        """(bots thinking, bots waiting) on the budget ``key`` (``LiveTable.budget``)."""
        entry = self._budgets.get(key)
        return (0, 0) if entry is None else (entry.thinking, entry.users - entry.thinking)

    @contextlib.asynccontextmanager
    async def _turn(self, key: str) -> AsyncIterator[None]:
        """One of ``bots_thinking_per_address`` turns of ``key``'s budget: a bot waits
        for one, so the tables of one address (or account) think on at most that many
        threads or processes however many tables and bots it has."""
        limit = self.settings.bots_thinking_per_address
        if limit <= 0:
            yield
            return
        entry = self._budgets.setdefault(key, _Budget(asyncio.Semaphore(limit)))
        entry.users += 1   # the entry goes when the last one is done
        try:
            async with entry.turns:
                entry.thinking += 1
                try:
                    yield
                finally:
                    entry.thinking -= 1
        finally:
            entry.users -= 1
            if entry.users == 0:
                del self._budgets[key]

    async def _think(self, table: LiveTable, bot: Bot, spec: str | None,
                     snapshot: TableState) -> str:
        limit = self.settings.bot_time_limit
        try:
            if self.settings.bot_processes and spec:
                return await self.pool().choose(spec, snapshot, limit)
            return await self._think_in_thread(bot, snapshot, limit)
        except TimeoutError:
            log.warning("table %s: bot %s took longer than %.1fs; playing a random move",
                        table.id, getattr(bot, "name", bot), limit)
        except Exception:
            log.exception("table %s: bot %s failed; playing a random move", table.id,
                          getattr(bot, "name", bot))
        moves = snapshot.legal_moves()
        return str(moves[secrets.randbelow(len(moves))])

    async def _think_in_thread(self, bot: Bot, snapshot: TableState, limit: float) -> str:
        """The bot thinks in a bot thread, its search stopped ``limit`` seconds after it
        starts (time spent waiting for a free thread does not count)."""
        if self._threads is None:
            self._threads = concurrent.futures.ThreadPoolExecutor(
                max_workers=max(1, self.settings.bot_threads), thread_name_prefix="bot")
        loop = asyncio.get_running_loop()
        started = asyncio.Event()

        def think() -> str:
            loop.call_soon_threadsafe(started.set)
            return str(bots.choose_within(bot, snapshot, time.perf_counter() + limit))

        thinking = loop.run_in_executor(self._threads, think)
        waiting = asyncio.ensure_future(started.wait())
        # a bot thinking here counts as live work: an analysis waits for it
        live = self.workers.live() if self.workers is not None else contextlib.nullcontext()
        try:
            with live:
                either: set[asyncio.Future[str] | asyncio.Task[Literal[True]]] = {
                    thinking, waiting}
                await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
                # a bot that cannot stop itself is left to finish in its thread, unheard
                return await asyncio.wait_for(asyncio.shield(thinking), timeout=limit + GRACE)
        finally:
            waiting.cancel()
            if not thinking.done():
                thinking.cancel()   # a bot still waiting for a thread never starts

    # -- takeover bots ----------------------------------------------------------------------
    async def grace(self, table: LiveTable, seat: int) -> None:
        """A person away from a game with a takeover bot has ``grace`` seconds to come
        back; then the bot plays for them (the dealer decides, as they may be back)."""
        await self.tables.clock.sleep(self.settings.grace)
        await table.dealer.ask(GraceOver(seat))
