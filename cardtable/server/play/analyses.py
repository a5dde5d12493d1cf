"""Analyses of finished games: one job per move in the bot processes' background workers
(``BotWorkers.background``: niced, a game's moves shared among them, and a job starts only
while the live bots leave a core free), never in the server's own process; a live bot's
move or a hint never waits for it.  Each move's job has its own limit
(``ANALYSIS_MOVE_LIMIT``); the results are kept in the database (``store.analyses``), so
any process serves them and one game is analysed once however many processes are asked.
Hints for lessons run in threads of its own (not the loop's default ones, which storage
uses)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import logging
import os
import secrets
import socket
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from ...analysis.search import DEFAULT_ITERATIONS
from ...records import Record
from ..core.errors import Refused
from ..store.analyses import AnalysisStore
from ..store.storage import Storage
from .bot_workers import BotFailed, BotWorkers, JudgeJob, PuzzleJob

if TYPE_CHECKING:
    from ...analysis import Judgement

T = TypeVar("T")

__all__ = ["ANALYSIS_ITERATIONS", "ANALYSIS_MOVE_LIMIT", "ANALYSIS_NODES", "ANALYSIS_SECONDS",
           "Analyses"]

log = logging.getLogger("cardtable.server")

ANALYSIS_ITERATIONS = DEFAULT_ITERATIONS
"""The judge's budget per judged move in the server: the terminal's and the hints' own, so
the page's hint and the page's analysis of a position name the same best move."""
ANALYSIS_NODES = 20_000
"""The exact solver's budget of positions per move in the server (past it, no hindsight
for that move): a bound on each analysis's work."""
MOST_WAITING = 4
"""Analyses under way at once in a process past which the next is refused (five at most)."""
EACH = 1
"""Analyses under way at once for one address, or one signed-in account."""
ANONYMOUS = 2
"""Analyses under way at once for everyone not signed in together: a flood from many
addresses leaves the rest of the queue to accounts."""


def _lease() -> float:
    """Seconds an analysis is held without a move judged; then another process may take
    it.  Longer than any move's job (bounded by ``ANALYSIS_MOVE_LIMIT``)."""
    return ANALYSIS_MOVE_LIMIT + 60.0
"""Analyses waiting for the worker at most; more are refused (429, ``analysis_busy``)."""
ANALYSIS_SECONDS = 600.0
"""Wall seconds one game's analysis may work at most, by default (the setting
``analysis_seconds``; its waits for the live bots not counted): a game's judgements take a
few seconds on a free core, minutes on a busy one."""
ANALYSIS_MOVE_LIMIT = 300.0
"""Seconds one move's judgement may work in the background process (a few seconds at
the server's budgets) before the process is killed and the analysis fails."""



class Analyses:
    """Analyses of finished games, a job per move in the bot processes' background worker;
    results kept in the database (``analysis_store``), so any process serves them and one
    game is analysed once however many processes are asked."""

    def __init__(self, folder: Path, storage_of: Callable[[], Storage], *,
                 iterations: int = ANALYSIS_ITERATIONS, hindsight: bool = True,
                 seconds: float = ANALYSIS_SECONDS) -> None:
        self.folder = folder
        """Where analyses were kept as files before the database: read in at start."""
        self.storage_of = storage_of
        self.iterations = iterations
        self.hindsight = hindsight
        self.seconds = seconds
        """Wall seconds one game's analysis may work, its moves' jobs together (the
        setting ``analysis_seconds``): past them it fails."""
        self.owner = f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(3)}"
        """This process, as the analyses' rows name it."""
        self.running: dict[str, asyncio.Task[None]] = {}
        self.askers: dict[str, tuple[str, bool]] = {}
        """Who asked for each analysis under way here (an account, or an address) and
        whether they were signed in."""
        self.threads = concurrent.futures.ThreadPoolExecutor(2, thread_name_prefix="school")
        """Hints and the analyses' rows: never the loop's default threads, which are the
        storage's."""
        self._found: list[dict[str, object]] | None = None
        """The puzzles found in analysed games, once read."""

    @property
    def store(self) -> AnalysisStore:
        return AnalysisStore(self.storage_of())

    async def _in_thread(self, call: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.threads, call)

    async def import_folder(self) -> int:
        """The analyses an earlier version kept as files, read into the database (a
        failure is logged: the server starts without them)."""
        try:
            return int(await self._in_thread(lambda: self.store.import_folder(self.folder)))
        except Exception:
            log.exception("the analysis files in %s could not be read in", self.folder)
            return 0

    async def start(self, table_id: str, record_text: str, workers: BotWorkers,
                    asker: tuple[str, bool] = ("address:unknown", False)) -> str:
        """Start analysing (unless done or under way here or in another process) in
        ``workers``; what it is now.  ``asker``: who asks (``account:ID`` or
        ``address:ADDRESS``) and whether they are signed in, for the quotas."""
        job = self.running.get(table_id)
        if job is not None and not job.done():
            return "running"
        store = self.store
        try:
            self.check_quota(asker)
        except Refused:   # past a quota: still told of an analysis there is
            found = await self._in_thread(lambda: store.find(table_id))
            if found is not None and (found.status == "done" or found.live):
                return str(found.status)
            raise
        claim = await self._in_thread(lambda: store.claim(table_id, self.owner, _lease()))
        if claim != "mine":
            return str(claim)
        self.running[table_id] = asyncio.get_running_loop().create_task(
            self._analyse(table_id, record_text, workers))
        self.askers[table_id] = asker
        return "running"

    def check_quota(self, asker: tuple[str, bool]) -> None:
        """Refuse (429) an analysis past its asker's quota, the anonymous share or the
        process's cap; finished ones are forgotten here."""
        for table_id in list(self.askers):
            task = self.running.get(table_id)
            if task is None or task.done():
                self.askers.pop(table_id)
        under_way = list(self.askers.values())
        if sum(1 for who, _ in under_way if who == asker[0]) >= EACH:
            raise Refused("you already have an analysis under way: wait for it to end",
                          429, "analysis_quota", retry_after=30)
        if sum(1 for task in self.running.values() if not task.done()) > MOST_WAITING or (
                not asker[1] and sum(1 for _, signed in under_way if not signed) >= ANONYMOUS):
            raise Refused("too many analyses are waiting: try again in a minute", 429,
                          "analysis_busy", retry_after=60)

    def _jobs(self, record_text: str) -> tuple[Record, list[JudgeJob]]:
        """The record, and a job for each of its moves: the position before it, seeded
        as ``analyse_record`` seeds it (so the result is the same)."""
        from ... import records
        from ...analysis import smallest_iterations

        record = records.loads(record_text)
        state = record.start()
        # never fewer playouts than the judge needs for this game's widest position
        iterations = max(self.iterations, smallest_iterations(state, record.moves)[0])
        jobs = []
        for index, move in enumerate(record.moves, 1):
            if state.to_move is None:
                raise ValueError(f"move {index} ({move}) comes after the end of the game")
            jobs.append(JudgeJob(state.copy(), str(move), index, iterations, 0,
                                 self.hindsight, ANALYSIS_NODES))
            state.push(str(move))
        return record, jobs

    async def _analyse(self, table_id: str, record_text: str, workers: BotWorkers) -> None:
        """Judge the moves one by one in the background worker, then store the result; a
        failure is stored too, so every process tells it."""
        store = self.store
        try:
            await self._judge(store, table_id, record_text, workers)
        except asyncio.CancelledError:
            raise  # the app is stopping: the lease runs out and the next asker takes it
        except Exception as error:
            why = str(error) or type(error).__name__
            log.warning("table %s: the analysis failed: %s", table_id, why)
            with contextlib.suppress(Exception):
                await self._in_thread(lambda: store.fail(table_id, self.owner, why))
            raise

    async def _judge(self, store: AnalysisStore, table_id: str, record_text: str,
                     workers: BotWorkers) -> None:
        from ...analysis import learn_of

        record, jobs = await self._in_thread(lambda: self._jobs(record_text))
        learn = learn_of(record.game)
        await self._in_thread(lambda: store.progress(table_id, self.owner, 0, len(jobs), _lease()))

        async def told(done: int) -> None:
            await self._in_thread(functools.partial(
                store.progress, table_id, self.owner, done, len(jobs), _lease()))

        try:
            judged = await self.judge_moves(jobs, workers, told)
        except (TimeoutError, BotFailed) as error:
            log.warning("table %s: the analysis stopped: %s", table_id, error)
            raise
        result = {"game": record.game, "unit": learn.unit, "thresholds": list(learn.thresholds),
                  "iterations": jobs[0].iterations if jobs else self.iterations, "seed": 0,
                  "moves": [j.to_dict() for j in judged],
                  "series": _series(record, judged)}
        await self._in_thread(lambda: store.finish(table_id, self.owner, result))
        if self.hindsight:
            await self._find_puzzles(table_id, record_text, workers)

    async def judge_moves(self, jobs: list[JudgeJob], workers: BotWorkers,
                          told: Callable[[int], Awaitable[None]] | None = None,
                          ) -> list[Judgement]:
        """The jobs' judgements, in order, judged in all of ``workers``' background
        processes at once (one lane each, taking the next move as it frees); ``told(done)``
        after each, one at a time, counting up.  Each move is seeded by its position alone,
        so the judgements are the same whatever the number of processes.  Past
        ``seconds`` of work (the jobs' seconds added together) it stops before the next
        move: ``TimeoutError``."""
        judged: list[Judgement | None] = [None] * len(jobs)
        worked: list[float] = []   # the jobs' seconds at work (waits for live bots left out)
        waiting = iter(enumerate(jobs))   # shared by the lanes: each takes the next move
        telling = asyncio.Lock()
        done = 0

        async def lane() -> None:
            nonlocal done
            for at, job in waiting:
                left = self.seconds - sum(worked)
                if left <= 0:
                    raise TimeoutError(f"over its {self.seconds:g} seconds of work "
                                       f"(move {job.index})")
                judged[at] = await workers.background(job, min(ANALYSIS_MOVE_LIMIT, left),
                                                      worked)
                async with telling:
                    done += 1
                    if told is not None:
                        await told(done)

        lanes = [asyncio.ensure_future(lane()) for _ in range(workers.background_count)]
        try:
            await asyncio.gather(*lanes)
        finally:   # one lane failed: the others stop too
            for other in lanes:
                other.cancel()
            await asyncio.gather(*lanes, return_exceptions=True)
        return [j for j in judged if j is not None]

    async def _find_puzzles(self, table_id: str, record_text: str,
                            workers: BotWorkers) -> None:
        """The game's puzzles (positions with one move proved clearly best), found in the
        background worker after its analysis and kept beside it: players' games feed the
        puzzle pages.  A game whose search runs past the limit gives none."""
        try:
            found = await workers.background(PuzzleJob(record_text, ANALYSIS_NODES),
                                             ANALYSIS_MOVE_LIMIT)
        except (TimeoutError, BotFailed) as error:
            log.warning("table %s: no puzzles looked for: %s", table_id, error)
            return
        store = self.store
        await self._in_thread(lambda: store.keep_puzzles(table_id, found))
        known = {p["id"] for p in self._found or []}
        self._found = [*(self._found or []), *(p for p in found if p["id"] not in known)]

    async def found_puzzles(self) -> list[dict[str, object]]:
        """The puzzles found in the games analysed (read from the database once)."""
        if self._found is None:
            store = self.store
            self._found = await self._in_thread(store.all_puzzles)
        return self._found

    async def status(self, table_id: str) -> dict[str, object]:
        store = self.store
        found = await self._in_thread(lambda: store.find(table_id))
        task = self.running.get(table_id)
        if task is not None and task.done():
            self.running.pop(table_id, None)
        if found is None:
            raise Refused("this game has not been analysed: POST to start", 404,
                          "no_analysis")
        if found.status == "done":
            return {"status": "done", "analysis": found.result}
        if found.status == "failed" or not found.live:
            why = found.why or "the process analysing it stopped"
            raise Refused(f"the analysis failed: {why}; POST to start it again", 500,
                          "analysis_failed")
        return {"status": "running", "done": found.judged, "total": found.total}

    def close(self) -> None:
        """Stop the analyses and the threads; an app started again (its lifespan entered
        anew, as tests do) gets fresh threads (an executor makes them on first use)."""
        for task in self.running.values():
            task.cancel()
        self.running.clear()
        self.threads.shutdown(wait=False, cancel_futures=True)
        self.threads = concurrent.futures.ThreadPoolExecutor(2, thread_name_prefix="school")


def _series(record: Record, judgements: list[Judgement]) -> dict[str, list[float]]:
    """Each seat's expected result over the game (``cardtable.analysis.series``), for the
    analysis page's graph."""
    from ...analysis import series
    from ...bots.ismcts import kit_of

    state = record.start()
    kit = kit_of(state)
    players = state.players
    sides = [kit.side_of(state, seat) for seat in range(players)]
    return {str(seat): [round(v, 4) for v in series(record.game, judgements, seat, sides)]
            for seat in range(players)}
