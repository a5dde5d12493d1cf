"""Moves are written in group commits: every caller is answered only once its own move is
stored, moves that arrive together share a transaction, and a clash refuses only the move
that clashed."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from sqlalchemy import create_engine, event, text
from sqlalchemy.exc import IntegrityError
from tablekit import run_async

from cardtable.server.store.storage import SeatRow, Storage, TableRow, now, sqlite_url
from cardtable.server.store.writer import MoveWriter


def storage_with_tables(tmp_path: Path, count: int, url: str | None = None) -> Storage:
    storage = Storage(url or sqlite_url(tmp_path))
    storage.migrate()
    for n in range(count):
        storage.create_table(
            TableRow(id=f"t{n}", game="durak", preset="transfer", rules={}, players=2,
                     status="playing", created=now()),
            [SeatRow(table_id=f"t{n}", seat=s, kind="human") for s in range(2)], [["6♠"]])
    return storage


def test_moves_that_arrive_together_share_a_transaction_and_all_are_stored(
        tmp_path, monkeypatch: pytest.MonkeyPatch):
    storage = storage_with_tables(tmp_path, 40)
    writer = MoveWriter(storage)
    write = storage.append_moves

    def slow_first(moves):   # the first write lasts until the other 39 moves wait
        deadline = time.monotonic() + 10
        while len(moves) == 1 and writer._queue.qsize() < 39 and time.monotonic() < deadline:
            time.sleep(0.01)
        return write(moves)

    monkeypatch.setattr(storage, "append_moves", slow_first)

    async def main() -> list[str]:
        return await asyncio.gather(*(writer.append(f"t{n}", 0, 0, "attack 6♠")
                                      for n in range(40)))

    answers = run_async(main())
    writer.close()
    assert len(answers) == 40 and all(answers)
    assert writer.moves == 40 and writer.transactions <= 2   # at most the first, then the rest
    for n in range(40):
        assert [m.move for m in storage.load(f"t{n}").moves] == ["attack 6♠"]


def test_the_moves_of_one_turn_of_the_event_loop_share_one_transaction(tmp_path):
    """Moves asked for in one turn of the event loop reach the writer together, at the turn's
    end, even when the turn lets the writer's thread run between them (as a socket's send
    does): one wake-up and one commit for them all."""
    storage = storage_with_tables(tmp_path, 5)
    writer = MoveWriter(storage)

    async def main() -> list[str]:
        async def one(n: int) -> str:
            time.sleep(0.02)   # the thread lets go of the interpreter, as a send may
            return await writer.append(f"t{n}", 0, 0, "attack 6♠")

        return await asyncio.gather(*(one(n) for n in range(5)))

    answers = run_async(main())
    writer.close()
    assert len(answers) == 5 and all(answers)
    assert (writer.moves, writer.transactions) == (5, 1)


def test_with_a_commit_window_moves_that_arrive_during_it_share_one_transaction(tmp_path):
    storage = storage_with_tables(tmp_path, 5)
    writer = MoveWriter(storage, window=0.002)
    waited: list[float] = []

    def window(seconds: float) -> None:   # the window lasts until the four others are queued
        waited.append(seconds)             # (asked for in one turn of the loop: one item)
        deadline = time.monotonic() + 10
        while writer._queue.qsize() < 1 and time.monotonic() < deadline:
            time.sleep(0.01)

    writer._sleep = window

    async def main() -> list[str]:
        answers = [asyncio.ensure_future(writer.append("t0", 0, 0, "attack 6♠"))]
        await asyncio.sleep(0)            # the first is on its way before the others come
        answers += [asyncio.ensure_future(writer.append(f"t{n}", 0, 0, "attack 6♠"))
                    for n in range(1, 5)]
        return await asyncio.gather(*answers)

    answers = run_async(main())
    writer.close()
    assert len(answers) == 5 and all(answers)
    assert waited == [0.002]
    assert (writer.transactions, writer.moves) == (1, 5)


def test_a_move_written_twice_is_refused_and_the_others_of_its_group_are_stored(tmp_path):
    storage = storage_with_tables(tmp_path, 3)
    storage.append_move("t1", 0, 0, "attack 6♠")     # another writer was first
    writer = MoveWriter(storage)

    async def main() -> list[object]:
        return await asyncio.gather(*(writer.append(f"t{n}", 0, 1, "attack 6♠")
                                      for n in range(3)), return_exceptions=True)

    answers = run_async(main())
    writer.close()
    assert isinstance(answers[1], IntegrityError)
    assert isinstance(answers[0], str) and isinstance(answers[2], str)
    assert [m.seat for m in storage.load("t1").moves] == [0]
    assert [m.seat for m in storage.load("t0").moves] == [1]


def test_a_failed_write_reaches_its_caller(tmp_path, monkeypatch: pytest.MonkeyPatch):
    storage = storage_with_tables(tmp_path, 1)
    writer = MoveWriter(storage)

    def full(*args: object, **kwargs: object) -> str:
        raise OSError("disk full")

    monkeypatch.setattr(storage, "append_moves", full)
    with pytest.raises(OSError, match="disk full"):
        run_async(writer.append("t0", 0, 0, "attack 6♠"))
    writer.close()
    assert storage.load("t0").moves == []


def test_the_moves_keep_one_connection_between_their_transactions(tmp_path):
    """A group commit does not take a connection from the pool each time (with
    PostgreSQL's ping, that cost the writer more than its insert)."""
    storage = storage_with_tables(tmp_path, 3)
    taken: list[object] = []
    event.listen(storage.engine, "checkout", lambda *args: taken.append(args[0]))
    for index in range(4):
        storage.append_moves([(f"t{n}", index, 0, "attack 6♠", (), False, None, None, False)
                              for n in range(3)])
    assert len(taken) == 1
    assert [len(storage.load(f"t{n}").moves) for n in range(3)] == [4, 4, 4]
    storage.close()


@pytest.mark.services
def test_a_connection_the_database_dropped_is_replaced_and_the_moves_stored(
        tmp_path, database_url: str):
    """The database dropped the writer's connection while it waited (a restart): the next
    group finds it broken before its commit, and is written again on a new one."""
    storage = storage_with_tables(tmp_path, 2, database_url)
    storage.append_moves([("t0", 0, 0, "attack 6♠", (), False, None, None, False)])
    admin = create_engine(database_url)
    with admin.connect() as other:
        dropped = other.execute(text(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()")).all()
        other.commit()
    admin.dispose()
    assert dropped and all(row[0] for row in dropped)
    storage.append_moves([("t0", 1, 1, "take", (), False, None, None, False),
                          ("t1", 0, 0, "attack 6♠", (), False, None, None, False)])
    assert [m.move for m in storage.load("t0").moves] == ["attack 6♠", "take"]
    assert [m.move for m in storage.load("t1").moves] == ["attack 6♠"]
    storage.close()
