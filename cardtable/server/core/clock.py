"""The server's one source of time: clocks, time-outs, graces, quick play's waits.

Every part of the server that waits or measures a wait asks a ``Clock`` (the tables hold
one, ``Tables.clock``), never the event loop or ``time`` itself.  A test gives the app a
``FakeClock`` and moves it by hand: a player's minute runs out when the test says so,
not after a minute of the test's life, and a check that something did *not* happen is
made at a known time instead of after a sleep that a loaded machine may cut short.

Two readings, as the standard library has them: ``time()`` runs on, never backwards, for
durations (``time.monotonic``, which the event loop's own clock is); ``wall()`` is the
time of day (``time.time``), for what several processes compare, such as a quick-play
ticket's last poll.

>>> import asyncio
>>> clock = FakeClock()
>>> async def main() -> list[str]:
...     said = []
...     async def later(name: str, seconds: float) -> None:
...         await clock.sleep(seconds)
...         said.append(name)
...     tasks = [asyncio.create_task(later("a minute", 60)),
...              asyncio.create_task(later("a second", 1))]
...     await asyncio.sleep(0)          # both are asleep now
...     await clock.advance(30)         # wakes the second only
...     said.append("half a minute on")
...     await clock.advance(30)
...     await asyncio.gather(*tasks)
...     return said
>>> import concurrent.futures
>>> with concurrent.futures.ThreadPoolExecutor(1) as thread:   # a loop of its own
...     thread.submit(asyncio.run, main()).result()
['a second', 'half a minute on', 'a minute']
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import threading
import time

__all__ = ["Clock", "FakeClock"]


class Clock:
    """The real time."""

    def time(self) -> float:
        """Seconds on a clock that never goes back (for durations)."""
        return time.monotonic()

    def wall(self) -> float:
        """Seconds since the epoch (for times several processes compare)."""
        return time.time()

    async def sleep(self, seconds: float) -> None:
        """Wait ``seconds`` (at once for none)."""
        await asyncio.sleep(seconds)


class FakeClock(Clock):
    """A clock that moves only when told (``advance``), from the loop or another thread.

    Sleepers wake in the order of their deadlines.  ``advance`` from the event loop's own
    thread lets every woken task run before it returns; from another thread (a test
    driving a ``TestClient``) it only wakes them, and the test then waits for what they
    send, as it would for anything the server does.
    """

    def __init__(self, start: float = 1_000.0, wall: float = 1_800_000_000.0) -> None:
        self._now = start
        self._wall_offset = wall - start
        self._lock = threading.Lock()
        self._sleepers: list[tuple[float, int, asyncio.AbstractEventLoop,
                                   asyncio.Future[None]]] = []
        self._order = itertools.count()

    def time(self) -> float:
        return self._now

    def wall(self) -> float:
        return self._now + self._wall_offset

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        with self._lock:
            heapq.heappush(self._sleepers, (self._now + seconds, next(self._order), loop,
                                            future))
        await future

    def move(self, seconds: float) -> None:
        """Move the time on by ``seconds`` and wake every sleeper it passes (from any
        thread; the woken tasks run when their loop next runs)."""
        if seconds < 0:
            raise ValueError("a clock does not go back")
        with self._lock:
            self._now += seconds
            due = []
            while self._sleepers and self._sleepers[0][0] <= self._now:
                due.append(heapq.heappop(self._sleepers))
        for _, _, loop, future in due:
            if loop.is_closed():
                continue
            loop.call_soon_threadsafe(_wake, future)

    async def advance(self, seconds: float) -> None:
        """``move``, then let the woken tasks run (call it in the loop's own thread)."""
        self.move(seconds)
        for _ in range(10):   # a woken task may wake another through a queue or a lock
            await asyncio.sleep(0)


def _wake(future: asyncio.Future[None]) -> None:
    if not future.done():   # a sleeper cancelled meanwhile stays cancelled
        future.set_result(None)
