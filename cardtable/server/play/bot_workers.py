"""Processes the bots think in, which the server can stop.

Each worker is a process of its own that does one job at a time: a bot's move
(``BotMove``), a hint that explains (``HintJob``), or one move of a game's analysis
(``JudgeJob``).  The server sends a typed job; the worker answers with its result.  A
worker still busy at the job's limit (a bot that does not stop itself) is killed and a
fresh one takes its place, so no job holds a core past its limit.  Workers end by
themselves when the server process is gone, even after ``kill -9``.

Live work (bots' moves and hints: someone is waiting) goes to ``count`` live workers.
Analysis is background work: ``background`` more processes (one by default), niced, each
one job at a time, and a job starts only while fewer than ``pause_at`` live jobs are
thinking.  A live move therefore never
waits for analysis; an analysis waits at each move's boundary for the live tables, and
its per-move jobs have limits of their own.

This module imports only the engine, so a new worker starts quickly.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import multiprocessing
import os
import secrets
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Protocol, TypeVar, cast

from ... import bots
from ...bots import Bot
from ..core.shapes import TableState

if TYPE_CHECKING:
    from ...analysis import Judgement
    from ...analysis.hints import Hint

__all__ = ["BotFailed", "BotMove", "BotWorkers", "HintJob", "Job", "JudgeJob", "PuzzleJob",
           "watch_parent"]

A = TypeVar("A", covariant=True)
T = TypeVar("T")

_STARTING = multiprocessing.get_context("spawn")

BACKGROUND_NICE = 10
"""How much lower the analysis process's priority is than the server's."""


class BotFailed(RuntimeError):
    """The bot raised, or its worker died; the text says what happened."""


class Job(Protocol[A]):
    """What a worker can do: ``run`` in the worker, with the worker's own bots by spec,
    answering an ``A`` (sent back through the worker's pipe)."""

    def run(self, own: dict[str, Bot]) -> A: ...


@dataclass(frozen=True)
class BotMove:
    """A bot of ``spec`` chooses a move in ``state``, its search stopped after ``seconds``;
    the answer is the move's text."""

    spec: str
    state: TableState
    seconds: float

    def run(self, own: dict[str, Bot]) -> str:
        bot = own.get(self.spec)
        if bot is None:
            bot = own[self.spec] = bots.make(self.spec, seed=secrets.randbits(64))
        return str(bots.choose_within(bot, self.state, time.perf_counter() + self.seconds))


@dataclass(frozen=True)
class HintJob:
    """The move ``level`` would play in ``state`` for the seat to move, explained in
    ``lang`` (``cardtable.analysis.hints``); the answer is ``Hint.to_dict()``.  The state
    is the table's, as a bot's move gets it: the search deals the hidden cards from what
    the seat has seen, so nothing else it holds reaches the hint."""

    state: TableState
    level: str
    lang: str
    top: int
    seed: int

    def run(self, own: dict[str, Bot]) -> Hint:
        from ...analysis.hints import hint

        return hint(self.state, self.level, lang=self.lang, top=self.top, seed=self.seed)


@dataclass(frozen=True)
class JudgeJob:
    """One move of a finished game's analysis (``cardtable.analysis.judge``), seeded by its
    index as the whole analysis seeds it; the answer is ``Judgement.to_dict()``."""

    state: TableState
    move: str
    index: int
    iterations: int
    seed: int
    hindsight: bool
    nodes: int

    def run(self, own: dict[str, Bot]) -> Judgement:
        from ...analysis import judge

        return judge(self.state, self.state.parse_move(self.move), self.index,
                     iterations=self.iterations, seed=self.seed, hindsight=self.hindsight,
                     nodes=self.nodes)


@dataclass(frozen=True)
class PuzzleJob:
    """The puzzles of a finished game (``cardtable.analysis.puzzles.find``: positions where
    the exact solver proves one move clearly best), within ``nodes`` positions a solve;
    the answer is the list of puzzles."""

    record_text: str
    nodes: int

    def run(self, own: dict[str, Bot]) -> list[dict[str, object]]:
        from ... import records
        from ...analysis import puzzles

        return puzzles.find(records.loads(self.record_text), nodes=self.nodes)


def watch_parent(parent: int) -> None:
    """In a bot process: end when the server process is gone (even killed with -9)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="watch-parent").start()


def _work(conn: Connection, parent: int, niceness: int) -> None:
    """A worker's life: read a job, answer ("ok", result) or ("error", why)."""
    watch_parent(parent)
    if niceness:
        with contextlib.suppress(OSError):
            os.nice(niceness)
    own: dict[str, Bot] = {}
    conn.send(("ready", ""))
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        try:
            answer: tuple[str, object] = ("ok", job.run(own))
        except Exception as error:
            answer = ("error", f"{type(error).__name__}: {error}")
        conn.send(answer)


class _Worker:
    """One bot process and our end of its pipe; made (in a thread) once it is ready."""

    STARTING_TIME = 60.0

    def __init__(self, niceness: int = 0) -> None:
        self.conn, theirs = _STARTING.Pipe()
        self.process = _STARTING.Process(target=_work, args=(theirs, os.getpid(), niceness),
                                         daemon=True, name="cardtable-bot")
        self.process.start()
        theirs.close()
        # the limit counts from a worker ready to think, not from an interpreter starting
        if not self.conn.poll(self.STARTING_TIME):
            self.kill()
            raise BotFailed("a bot process did not start")
        try:
            self.conn.recv()
        except (EOFError, OSError):
            self.kill()
            raise BotFailed("a bot process ended as it started") from None

    def ask(self, job: Job[T], limit: float) -> T:
        """The job's answer, or ``TimeoutError`` once ``limit`` seconds have passed."""
        try:
            self.conn.send(job)
            ready = self.conn.poll(limit)
            if ready:
                status, answer = self.conn.recv()
        except (EOFError, OSError):
            raise BotFailed("the bot's process ended") from None
        if not ready:
            raise TimeoutError(f"the job ran longer than {limit:g} s")
        if status != "ok":
            raise BotFailed(answer)
        return cast(T, answer)   # what the job's run answered, through the pipe

    def kill(self) -> None:
        """End the process now (SIGKILL); it is reaped in the background."""
        self.process.kill()
        self.conn.close()
        threading.Thread(target=self.process.join, daemon=True, name="bot-reap").start()


class BotWorkers:
    """``count`` live worker processes and ``background`` background ones, started when
    first needed.

    ``choose`` and ``run`` wait for a free live worker; ``background`` for a free
    background worker and for fewer than ``pause_at`` live jobs thinking (by default, all
    cores but one: the server's).  ``grace`` is how long past its limit a bot may take to
    answer before its worker is killed (a search stops at the limit and answers at once).
    """

    def __init__(self, count: int, grace: float = 1.0, *, pause_at: int | None = None,
                 background: int = 1) -> None:
        self.count = max(1, count)
        self.grace = grace
        self.pause_at = max(1, pause_at if pause_at is not None
                            else (os.cpu_count() or 2) - 1)
        self.background_count = max(1, background)
        """Background (analysis) processes at most: one analysis's moves are judged in
        all of them at once."""
        self._idle: asyncio.Queue[_Worker | None] | None = None
        self._workers: set[_Worker] = set()
        self._backgrounds: set[_Worker] = set()
        self._background_idle: asyncio.Queue[_Worker | None] | None = None
        self._calm: asyncio.Condition | None = None
        self.thinking = 0
        """Live jobs thinking now (in the live workers, or bots in threads: ``live``)."""
        # the waits on the pipes (not the thinking): one thread per worker
        self._threads = concurrent.futures.ThreadPoolExecutor(
            max_workers=self.count + self.background_count, thread_name_prefix="bot-wait")
        self.killed = 0
        """Workers killed while still thinking (past the limit, or for a bot loop that
        was cancelled); each is replaced when a bot next needs one."""

    async def choose(self, spec: str, state: TableState, seconds: float) -> str:
        """The move of a bot of ``spec``, thought in a worker for at most ``seconds``.

        ``TimeoutError`` if it thought longer (its worker is killed and replaced),
        ``BotFailed`` if the bot raised or its worker died.
        """
        return await self.run(BotMove(spec, state, seconds), seconds + self.grace)

    async def run(self, job: Job[T], limit: float) -> T:
        """A live job's answer, from a live worker, within ``limit`` seconds of thinking
        (``TimeoutError`` past it: the worker is killed and replaced)."""
        if self._idle is None:
            self._idle = asyncio.Queue()
            for _ in range(self.count):
                self._idle.put_nowait(None)
        loop = asyncio.get_running_loop()
        worker = await self._idle.get()
        try:
            if worker is not None and not worker.process.is_alive():
                self._forget(worker)
                worker = None
            if worker is None:
                worker = await loop.run_in_executor(self._threads, _Worker)
                self._workers.add(worker)
            with self.live():
                return await loop.run_in_executor(self._threads, worker.ask, job, limit)
        except BotFailed:
            if worker is not None and not worker.process.is_alive():
                self._forget(worker)
                worker = None
            raise
        except BaseException:
            if worker is not None:
                # still thinking: past the limit, or for a bot loop that was cancelled
                self._forget(worker)
                self.killed += 1
                worker = None
            raise
        finally:
            self._idle.put_nowait(worker)

    @contextlib.contextmanager
    def live(self) -> Iterator[None]:
        """Count a live job thinking (a bot in a thread says so too): background jobs
        wait while ``pause_at`` of them think."""
        self.thinking += 1
        try:
            yield
        finally:
            self.thinking -= 1
            if self._calm is not None:
                calm = self._calm

                async def tell() -> None:
                    async with calm:
                        calm.notify_all()

                with contextlib.suppress(RuntimeError):   # no loop running: nobody waits
                    asyncio.get_running_loop().create_task(tell())

    async def background(self, job: Job[T], limit: float,
                         worked: list[float] | None = None) -> T:
        """A background job's answer (analysis), from a free niced background worker, first
        in, first served; it starts once fewer than ``pause_at`` live jobs think.
        ``TimeoutError`` past ``limit`` (the worker is killed and replaced), ``BotFailed`` if
        the job raised or the worker died.  The seconds the job worked (its wait for the live
        bots left out) are added to ``worked`` when given."""
        if self._background_idle is None:
            self._background_idle = asyncio.Queue()
            for _ in range(self.background_count):
                self._background_idle.put_nowait(None)
            self._calm = asyncio.Condition()
        loop = asyncio.get_running_loop()
        worker = await self._background_idle.get()
        try:
            assert self._calm is not None
            async with self._calm:
                await self._calm.wait_for(lambda: self.thinking < self.pause_at)
            if worker is not None and not worker.process.is_alive():
                self._drop_background(worker)
                worker = None
            if worker is None:
                worker = await loop.run_in_executor(self._threads, _Worker, BACKGROUND_NICE)
                self._backgrounds.add(worker)
            began = time.perf_counter()
            try:
                return await loop.run_in_executor(self._threads, worker.ask, job, limit)
            except BotFailed:
                if not worker.process.is_alive():
                    self._drop_background(worker)
                    worker = None
                raise
            except BaseException:
                self._drop_background(worker)   # still working: past its limit, or cancelled
                worker = None
                self.killed += 1
                raise
            finally:
                if worked is not None:
                    worked.append(time.perf_counter() - began)
        finally:
            self._background_idle.put_nowait(worker)

    def _drop_background(self, worker: _Worker) -> None:
        self._backgrounds.discard(worker)
        worker.kill()

    def _forget(self, worker: _Worker) -> None:
        self._workers.discard(worker)
        worker.kill()

    def pids(self) -> set[int]:
        """The process ids of the live workers."""
        return {w.process.pid for w in self._workers if w.process.pid is not None}

    def background_pid(self) -> int | None:
        """The process id of a background worker (the lowest), if one runs."""
        return min(self.background_pids(), default=None)

    def background_pids(self) -> set[int]:
        """The process ids of the background workers that run."""
        return {w.process.pid for w in self._backgrounds if w.process.pid is not None}

    def close(self) -> None:
        for worker in list(self._workers):
            self._forget(worker)
        for worker in list(self._backgrounds):
            self._drop_background(worker)
        self._threads.shutdown(wait=False, cancel_futures=True)
