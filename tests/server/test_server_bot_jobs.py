"""The bot processes' two kinds of work: live jobs (bots' moves, hints) and background
jobs (analysis, one move at a time).  A live move never waits for an analysis, and an
analysis job does not start while the live bots think on every core it may use."""

from __future__ import annotations

import asyncio
import os
import random
from pathlib import Path

import pytest
from tablekit import Gate, run_async

from cardtable import games
from cardtable.server.play.bot_workers import BotWorkers, HintJob


async def appears(path: Path, timeout: float = 120) -> None:
    """Until ``path`` exists (a bound on the wait, not a timing)."""
    for _ in range(int(timeout * 20)):
        if path.exists():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"{path} never appeared in {timeout} s")


def test_a_live_bot_move_is_not_held_up_by_a_running_analysis(tmp_path: Path) -> None:
    durak = games.get("durak")
    state = durak.start(durak.presets["transfer"], players=2, seed=3)
    gate = tmp_path / "analysis-gate"

    async def run() -> None:
        workers = BotWorkers(1, grace=0.2, pause_at=1)
        try:
            analysis = asyncio.ensure_future(workers.background(Gate(str(gate)), 600))
            await appears(Path(f"{gate}.started"))   # the analysis job is working
            move = await workers.choose("greedy", state, 30)
            assert move in map(str, state.legal_moves())
            assert not analysis.done()   # the bot's move came while the analysis worked
            gate.touch()
            answer = await analysis
            assert answer["pid"] == workers.background_pid()
            assert answer["pid"] not in workers.pids() and answer["pid"] != os.getpid()
            assert workers.killed == 0
        finally:
            workers.close()

    run_async(run())


def test_an_analysis_job_waits_while_the_live_bots_think(tmp_path: Path) -> None:
    live_gate, started = tmp_path / "live-gate", tmp_path / "analysis"

    async def run() -> None:
        workers = BotWorkers(1, grace=0.2, pause_at=1)
        try:
            live = asyncio.ensure_future(workers.run(Gate(str(live_gate),
                                                          look=f"{started}.started"), 600))
            await appears(Path(f"{live_gate}.started"))   # a live job thinks
            analysis = asyncio.ensure_future(workers.background(Gate(str(started)), 600))
            await asyncio.sleep(1)   # room for a wrong analysis to start
            assert workers.background_pid() is None and not analysis.done()
            started.touch()   # the analysis job may finish as soon as it starts
            live_gate.touch()
            thought = await live
            assert not thought["saw"]   # no analysis job started while the live one thought
            done = await analysis
            assert done["pid"] == workers.background_pid() != thought["pid"]
        finally:
            workers.close()

    run_async(run())


def test_an_analysis_job_past_its_limit_is_killed_and_the_next_gets_a_fresh_process(
        tmp_path: Path) -> None:
    durak = games.get("durak")
    state = durak.start(durak.presets["transfer"], players=2, seed=3)

    async def run() -> None:
        workers = BotWorkers(1, grace=0.2, pause_at=1)
        try:
            try:
                await workers.background(Gate(str(tmp_path / "never")), 1.0)
            except TimeoutError:
                pass
            else:
                raise AssertionError("the job past its limit was not stopped")
            assert workers.killed == 1 and workers.background_pid() is None
            gate = tmp_path / "open"
            gate.touch()
            answer = await workers.background(Gate(str(gate)), 600)
            assert answer["pid"] == workers.background_pid()
            # the live workers were never touched
            assert await workers.choose("random", state, 30) in map(str, state.legal_moves())
        finally:
            workers.close()

    run_async(run())


@pytest.mark.parametrize("game", ["pasur", "durak"])
def test_a_hint_depends_only_on_what_the_seat_has_seen(game: str) -> None:
    """The hint's process gets the table's state, as a bot's move does; its answer is the
    same for another deal of the cards the seat cannot see (the same seed)."""
    spec = games.get(game)
    state = spec.start(next(iter(spec.presets.values())), players=2, seed=7)
    seat = state.to_move
    other = state.determinize(seat, random.Random(5))
    assert other.view(seat) == state.view(seat) and other.view(1 - seat) != state.view(1 - seat)

    async def run() -> None:
        workers = BotWorkers(1)
        try:
            hints = [await workers.run(HintJob(s, "ismcts:iterations=100", "en", 3, 1), 120)
                     for s in (state, other)]
        finally:
            workers.close()
        assert hints[0] == hints[1]
        assert hints[0].move in map(str, state.legal_moves())

    run_async(run())


@pytest.mark.parametrize("game", ["pasur", "durak"])
def test_an_analysis_shared_among_processes_gives_the_verdicts_of_one(game: str) -> None:
    """A game's moves judged in two background processes at once (the lanes take the moves
    in whatever order they free up) give the judgements of one process, and those of the
    whole analysis in this process with the same seed: each move is seeded by its position
    alone, never by who judges it or when."""
    from cardtable import analysis, records
    from cardtable.server.play.analyses import ANALYSIS_NODES, Analyses

    path = Path(__file__).parents[1] / "data" / "judge" / f"{game}-random-1.json"
    text = path.read_text(encoding="utf-8")
    record = records.loads(text)
    moves = record.moves[:60]   # a Pasur match is long: its first hands
    kept = Analyses(Path("/nonexistent"), lambda: None,   # type: ignore[arg-type, return-value]
                    iterations=300)

    async def judged(processes: int) -> tuple[list[dict[str, object]], set[int]]:
        workers = BotWorkers(1, background=processes)
        try:
            _, jobs = kept._jobs(text)
            told: list[int] = []

            async def tell(done: int) -> None:
                told.append(done)

            found = await kept.judge_moves(jobs[:len(moves)], workers, tell)
            assert told == list(range(1, len(moves) + 1))   # the progress counts up
            return [j.to_dict() for j in found], workers.background_pids()
        finally:
            workers.close()

    try:
        one, one_pids = run_async(judged(1))
        two, two_pids = run_async(judged(2))
    finally:
        kept.close()
    assert len(one_pids) == 1 and len(two_pids) == 2   # both lanes had a process of their own
    assert two == one
    iterations = max(300, analysis.smallest_iterations(record.start(), record.moves)[0])
    alone = analysis.analyse(record.start(), moves, iterations=iterations, seed=0,
                             nodes=ANALYSIS_NODES)
    assert one == [j.to_dict() for j in alone]
    assert sum(j["label"] is not None or j["loss"] > 0 for j in one) > 0   # a game judged
