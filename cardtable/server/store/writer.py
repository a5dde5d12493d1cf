"""Moves written in group commits: one transaction for every move that arrived meanwhile.

Every move is stored before anyone is told of it.  Writing each in its own transaction made
the commit the largest cost of a move (a WAL sync in SQLite, a round trip in PostgreSQL);
here one thread writes, and the moves that arrive while it writes wait and go in together in
the next transaction.  Each caller is answered only once its own move is committed, so the
promise holds; under load the commits are shared, and alone a move waits for nothing.

A transaction that fails (a move another process wrote first, say) is written again one
move at a time, so each caller gets its own answer: the move that clashed is refused and the
others are stored.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from .storage import Storage, StorageUnavailable, Tally

__all__ = ["MoveWriter"]

log = logging.getLogger("cardtable.server")


@dataclass
class _Pending:
    table_id: str
    index: int
    seat: int
    move: str
    new_decks: Sequence[tuple[int, Sequence[str]]]
    over: bool
    summary: dict[str, object] | None
    tally: Tally | None
    takeover: bool
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[str] = field(repr=False)


class MoveWriter:
    """The one writer of moves for a ``Storage``; ``append`` is what ``append_move`` was."""

    def __init__(self, storage: Storage, *, most: int = 256, window: float = 0.0) -> None:
        self.storage = storage
        self.most = most
        self.window = window
        """Seconds to wait after a group's first move for more: each process of several
        sees fewer moves at once, and a commit costs the same for one move as for many."""
        self._sleep = time.sleep
        self._queue: queue.SimpleQueue[list[_Pending] | None] = queue.SimpleQueue()
        """Each turn's moves; ``None`` stops the writing thread."""
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._turns: dict[asyncio.AbstractEventLoop, list[_Pending]] = {}
        """Each event loop's moves of its current turn, handed over together at its end."""
        self.transactions = 0
        self.moves = 0

    async def append(self, table_id: str, index: int, seat: int, move: str, *,
                     new_decks: Sequence[tuple[int, Sequence[str]]] = (),
                     over: bool = False, summary: dict[str, object] | None = None,
                     tally: Tally | None = None, takeover: bool = False) -> str:
        """Store a move (and the decks it dealt, and the end of the game with its results
        counted by ``tally``, in the same transaction); answers the time it was stored,
        once it is committed, or raises what the write raised."""
        loop = asyncio.get_running_loop()
        pending = _Pending(table_id, index, seat, move, new_decks, over, summary, tally,
                           takeover, loop, loop.create_future())
        self._start()
        turn = self._turns.setdefault(loop, [])
        if not turn:
            loop.call_soon(self._hand_over, loop)
        turn.append(pending)
        return await pending.future

    def _hand_over(self, loop: asyncio.AbstractEventLoop) -> None:
        """The moves of one turn of the event loop go to the writer together, at its end: a
        wake-up and mostly one commit for them all (handed over one by one, the writer
        would take the first alone whenever a socket's send let its thread run)."""
        turn = self._turns.pop(loop, None)
        if turn:
            self._queue.put(turn)

    def close(self) -> None:
        """Write what is queued, then stop the thread."""
        thread = self._thread
        if thread is not None and thread.is_alive():
            for loop in list(self._turns):   # a turn not handed over yet goes first
                self._hand_over(loop)
            self._queue.put(None)
            thread.join(30)

    # -- the writing thread ---------------------------------------------------------------
    def _start(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            return
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="cardtable-moves",
                                                daemon=True)
                self._thread.start()

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = list(first)
            stop = False
            if self.window:
                self._sleep(self.window)
            while len(batch) < self.most:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batch.extend(more)
            self._write(batch)
            if stop:
                return

    def _write(self, batch: list[_Pending]) -> None:
        answers: list[tuple[_Pending, str | None, BaseException | None]] = []
        try:
            at = self.storage.append_moves([
                (p.table_id, p.index, p.seat, p.move, p.new_decks, p.over, p.summary,
                 p.tally, p.takeover) for p in batch])
        except Exception as error:
            if len(batch) == 1 or isinstance(error, StorageUnavailable):
                # the database is away: no use trying each
                answers = [(pending, None, error) for pending in batch]
            else:
                for pending in batch:      # one at a time: each caller gets its own answer
                    try:
                        stored = self.storage.append_move(
                            pending.table_id, pending.index, pending.seat, pending.move,
                            new_decks=pending.new_decks, over=pending.over,
                            summary=pending.summary, tally=pending.tally,
                            takeover=pending.takeover)
                    except Exception as one:
                        answers.append((pending, None, one))
                    else:
                        answers.append((pending, stored, None))
        else:
            self.transactions += 1
            self.moves += len(batch)
            answers = [(pending, at, None) for pending in batch]
        self._answer(answers)

    @staticmethod
    def _answer(answers: list[tuple[_Pending, str | None, BaseException | None]]) -> None:
        """Settle every caller's future, waking each event loop once for the whole group
        (a wake-up per move cost more than the write under load)."""
        by_loop: dict[asyncio.AbstractEventLoop,
                      list[tuple[_Pending, str | None, BaseException | None]]] = {}
        for answer in answers:
            by_loop.setdefault(answer[0].loop, []).append(answer)

        def settle(group: list[tuple[_Pending, str | None, BaseException | None]]) -> None:
            for pending, at, error in group:
                if pending.future.done():
                    continue
                if error is not None:
                    pending.future.set_exception(error)
                else:
                    pending.future.set_result(at)  # type: ignore[arg-type]

        for loop, group in by_loop.items():
            with contextlib.suppress(RuntimeError):   # a closed loop: nobody waits any more
                loop.call_soon_threadsafe(settle, group)
