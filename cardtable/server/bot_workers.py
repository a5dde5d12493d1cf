"""Processes the bots think in, which the server can stop.

Each worker is a process of its own that thinks about one move at a time.  The server
gives it the bot's spec and a copy of the game; the worker's own bot of that spec chooses,
its search stopped at the time limit.  A worker still thinking at the limit (a bot that
does not stop itself) is killed and a fresh one takes its place, so no bot holds a core
past the limit.  Workers end by themselves when the server process is gone, even after
``kill -9``.

This module imports only the engine, so a new worker starts quickly.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
import os
import secrets
import threading
import time
from multiprocessing.connection import Connection
from typing import Any

from .. import bots

__all__ = ["BotFailed", "BotWorkers", "watch_parent"]

_STARTING = multiprocessing.get_context("spawn")


class BotFailed(RuntimeError):
    """The bot raised, or its worker died; the text says what happened."""


def watch_parent(parent: int) -> None:
    """In a bot process: end when the server process is gone (even killed with -9)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="watch-parent").start()


def _work(conn: Connection, parent: int) -> None:
    """A worker's life: read (spec, state, seconds), answer ("ok", move) or ("error", why)."""
    watch_parent(parent)
    own: dict[str, Any] = {}
    conn.send(("ready", ""))
    while True:
        try:
            spec, state, seconds = conn.recv()
        except (EOFError, OSError):
            return
        try:
            bot = own.get(spec)
            if bot is None:
                bot = own[spec] = bots.make(spec, seed=secrets.randbits(64))
            move = bots.choose_within(bot, state, time.perf_counter() + seconds)
            answer: tuple[str, str] = ("ok", str(move))
        except Exception as error:
            answer = ("error", f"{type(error).__name__}: {error}")
        conn.send(answer)


class _Worker:
    """One bot process and our end of its pipe; made (in a thread) once it is ready."""

    STARTING_TIME = 60.0

    def __init__(self) -> None:
        self.conn, theirs = _STARTING.Pipe()
        self.process = _STARTING.Process(target=_work, args=(theirs, os.getpid()),
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

    def ask(self, spec: str, state: Any, seconds: float, grace: float) -> str:
        """The move, or ``TimeoutError`` once ``seconds + grace`` have passed."""
        self.conn.send((spec, state, seconds))
        if not self.conn.poll(seconds + grace):
            raise TimeoutError(f"the bot thought longer than {seconds:g} s")
        try:
            status, text = self.conn.recv()
        except (EOFError, OSError):
            raise BotFailed("the bot's process ended") from None
        if status != "ok":
            raise BotFailed(text)
        return text

    def kill(self) -> None:
        """End the process now (SIGKILL); it is reaped in the background."""
        self.process.kill()
        self.conn.close()
        threading.Thread(target=self.process.join, daemon=True, name="bot-reap").start()


class BotWorkers:
    """``count`` worker processes, started when first needed; ``choose`` waits for a free
    one.  ``grace`` is how long past its limit a bot may take to answer before its
    worker is killed (a search stops at the limit and answers at once)."""

    def __init__(self, count: int, grace: float = 1.0) -> None:
        self.count = max(1, count)
        self.grace = grace
        self._idle: asyncio.Queue[_Worker | None] | None = None
        self._workers: set[_Worker] = set()
        # the waits on the pipes (not the thinking): one thread per worker
        self._threads = concurrent.futures.ThreadPoolExecutor(
            max_workers=self.count, thread_name_prefix="bot-wait")
        self.killed = 0
        """Workers killed while still thinking (past the limit, or for a bot loop that
        was cancelled); each is replaced when a bot next needs one."""

    async def choose(self, spec: str, state: Any, seconds: float) -> str:
        """The move of a bot of ``spec``, thought in a worker for at most ``seconds``.

        ``TimeoutError`` if it thought longer (its worker is killed and replaced),
        ``BotFailed`` if the bot raised or its worker died.
        """
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
            return await loop.run_in_executor(self._threads, worker.ask, spec, state,
                                              seconds, self.grace)
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

    def _forget(self, worker: _Worker) -> None:
        self._workers.discard(worker)
        worker.kill()

    def pids(self) -> set[int]:
        """The process ids of the live workers."""
        return {w.process.pid for w in self._workers if w.process.pid is not None}

    def close(self) -> None:
        for worker in list(self._workers):
            self._forget(worker)
        self._threads.shutdown(wait=False, cancel_futures=True)
