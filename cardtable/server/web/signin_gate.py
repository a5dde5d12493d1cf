"""Sign-in cannot be made slow: every argon2 hash and check waits its turn here.

Each failed sign-in costs a fifth of a second of CPU (argon2), so forty addresses, each
within its own limits, could keep the passwords' threads busy and make the owner wait
ten seconds.  ``Gate`` runs at most ``slots`` argon2 computations at once (the
passwords' threads) and queues the rest, with three rules:

- a browser known to the account (its known-device cookie, or a session signed in to it)
  goes before every stranger in the queue: the owner waits for at most the computations
  already running;
- strangers wait at most ``most_waiting`` at once, in all: past that a sign-in is refused
  at once (429 ``sign_in_throttled``, with when to try again), which costs nothing;
- one network (an IPv4 address, an IPv6 /48) holds at most ``per_network`` places of that
  queue, so one client with many IPv6 addresses cannot fill it alone.

``play.guard.network_of`` groups addresses: per-address limits count an IPv6 /64 as one
address (one subscriber's), this queue a /48 (one site's).
"""

from __future__ import annotations

import asyncio
import collections
import heapq
import itertools
import weakref
from collections.abc import Callable
from concurrent.futures import Executor
from typing import TypeVar, TypeVarTuple

from ..core.errors import Refused

__all__ = ["Gate", "gate"]

_T = TypeVar("_T")
_Ts = TypeVarTuple("_Ts")

BUSY = ("too many sign-in attempts are waiting just now, from everywhere; try again in "
        "{wait} s (a browser you signed in with before goes first)")


class Gate:
    """At most ``slots`` computations at once, a known device first (see the module)."""

    def __init__(self, executor: Executor, slots: int = 2, most_waiting: int = 32,
                 per_network: int = 4) -> None:
        self.executor = executor
        self.slots = slots
        self.most_waiting = most_waiting
        self.per_network = per_network
        self.running = 0
        self._queue: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._strangers: collections.Counter[str] = collections.Counter()

    @property
    def waiting(self) -> int:
        return sum(1 for *_, future in self._queue if not future.done())

    async def run(self, work: Callable[[*_Ts], _T], *args: *_Ts, known: bool = True,
                  network: str = "") -> _T:
        """``work(*args)`` in the executor once a slot is free; a stranger (``known``
        false) from ``network`` may be refused at once instead."""
        if not known:
            if self._strangers.total() >= self.most_waiting:
                raise Refused(BUSY.format(wait=5), 429, "sign_in_throttled",
                              retry_after=5, params={"retry_after": 5})
            if self._strangers[network] >= self.per_network:
                raise Refused(BUSY.format(wait=5), 429, "sign_in_throttled",
                              retry_after=5, params={"retry_after": 5})
            self._strangers[network] += 1
        try:
            await self._turn(0 if known else 1)
        finally:
            if not known:
                self._strangers[network] -= 1
                if self._strangers[network] <= 0:
                    del self._strangers[network]
        try:
            return await asyncio.get_running_loop().run_in_executor(self.executor, work, *args)
        finally:
            self._release()

    async def _turn(self, rank: int) -> None:
        if self.running < self.slots and not self.waiting:
            self.running += 1
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._queue, (rank, next(self._order), future))
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self._release()   # given the slot as it was cancelled: pass it on
            raise

    def _release(self) -> None:
        self.running -= 1
        while self._queue:
            *_, future = heapq.heappop(self._queue)
            if not future.done():
                self.running += 1
                future.set_result(None)
                return


_GATES: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Gate] = weakref.WeakKeyDictionary()


def gate(executor: Executor, slots: int) -> Gate:
    """The running event loop's gate (a process runs one loop; tests run several)."""
    loop = asyncio.get_running_loop()
    found = _GATES.get(loop)
    if found is None:
        found = _GATES[loop] = Gate(executor, slots)
    return found
