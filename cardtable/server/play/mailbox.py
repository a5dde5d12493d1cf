"""A mailbox with a task of its own: commands handled one at a time, in the order asked.

The owner of a live table (``dealer.Dealer``) is one: an asker puts its command in the
mailbox and waits for the answer; the mailbox's own task takes the commands in order and
hands each to ``_handle``.  An asker that gives up (its task cancelled: a socket closed,
a request's client went away) stops waiting, and the command it asked still runs to its
end, so nothing is ever left half-done by someone else's cancel.  The task ends when the
mailbox is empty and starts again with the next command.
"""

from __future__ import annotations

import asyncio
import collections
import time
from collections.abc import Callable, Coroutine
from typing import Protocol, TypeVar, cast

from .owner import Command

__all__ = ["Mailbox"]

R = TypeVar("R")


class Waits(Protocol):
    """Where the time a command waited is counted (``metrics.Metrics``)."""

    def waited(self, what: str, seconds: float) -> None: ...


def _retrieved(future: asyncio.Future[object]) -> None:
    """An answer nobody waits for any more (its asker gave up) is not an error to log."""
    if not future.cancelled():
        future.exception()


class Mailbox:
    """Commands in, one at a time, in a task of the mailbox's own."""

    def __init__(self, spawn: Callable[[Coroutine[object, None, None]], asyncio.Task[None]],
                 metrics: Waits) -> None:
        self._spawn = spawn
        self._metrics = metrics
        self._worker: asyncio.Task[None] | None = None
        """The task handling the mailbox now (``None``: the mailbox is empty)."""
        self._mail: collections.deque[tuple[Command[object], asyncio.Future[object], float]] = (
            collections.deque())
        """Each command waiting, its answer's future and when it came (``perf_counter``)."""

    async def ask(self, command: Command[R]) -> R:
        """Have ``command`` done after those asked before: its answer (or the refusal it
        raises)."""
        if self._worker is not None and self._worker is asyncio.current_task():
            raise RuntimeError("a command of this table asked its own dealer again")
        future: asyncio.Future[object] = asyncio.get_running_loop().create_future()
        future.add_done_callback(_retrieved)
        self._mail.append((command, future, time.perf_counter()))
        if self._worker is None:
            self._worker = self._spawn(self._drain())
        # the handler answers a Command[R] with an R (mypy checks each decision's answer)
        return cast(R, await asyncio.shield(future))

    async def _handle(self, command: Command[object]) -> object:
        raise NotImplementedError

    async def _drain(self) -> None:
        """Handle the waiting commands in order, then leave the mailbox free."""
        try:
            while self._mail:
                command, future, came = self._mail.popleft()
                self._metrics.waited("table", time.perf_counter() - came)
                try:
                    answer = await self._handle(command)
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
            self._worker = None
            for _, future, _came in self._mail:   # stopped: the rest are not handled
                future.cancel()
            self._mail.clear()
