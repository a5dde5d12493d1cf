"""Playing a run: one game in a worker, many in processes or on Ray, results in task order.

Whatever the number of processes, the results come back in the order of the plan, so a
seeded run gives the same figures on one process, several, or a Ray cluster.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from .. import bots as botlib
from .. import games as gamelib
from ..game import GameSpec, GameState
from .planning import GameResult, Task, plan, rules_of
from .report import ArenaRun, margin, summarize

__all__ = ["MAX_MOVES", "execute", "play_plan", "play_task", "run"]

MAX_MOVES = 20_000
"""A game still going after this many moves is stopped and counted as a draw (two bots can
pass the same cards back and forth in Durak for ever; the rules do not stop them)."""


# -- playing one game ----------------------------------------------------------------------

class _WithMoves:
    """A finished state with the arena's own list of its moves, for ``record_of``: the
    moves as played, whether or not the state keeps a list of every hand's moves."""

    def __init__(self, state: GameState, moves: list[str]) -> None:
        self._state = state
        self.move_stack = moves

    def __getattr__(self, name: str) -> Any:
        if name == "history":
            raise AttributeError(name)
        return getattr(self._state, name)


def _seats(task: Task) -> list[dict[str, Any]]:
    return [{"name": label, "bot": spec, "seed": seed}
            for label, spec, seed in zip(task.lineup, task.specs, task.bot_seeds, strict=True)]


def _single_hand_record(spec: GameSpec, hand: GameState, task: Task, moves: list[str]) -> Any:
    """A single hand is saved as the first hand of a whole game (it deals and replays the
    same), unfinished as a game, with the hand's points beside it."""
    from .. import records

    assert spec.single_hand is not None
    outcome = hand.outcome()
    points = outcome.points if outcome is not None else None
    return records.Record(
        game=task.game, preset=spec.preset_of(task.rules),
        rules=records.rules_to_dict(task.rules), players=task.players,
        seats=_seats(task),
        decks=[[card.text for card in deck] for deck in spec.single_hand.deals(hand)],
        moves=moves,
        extra={"single_hand": True, "hand_points": None if points is None else list(points),
               "arena": {"deal": task.deal, "index": task.index}})


def play_task(task: Task) -> GameResult:
    """Play one game of a run (in this process): deal, let the bots move, measure."""
    started = time.perf_counter()
    spec = gamelib.get(task.game)
    single = spec.single_hand if task.hands else None
    if single is not None:
        state = single.start(task.rules, players=task.players, seed=task.deal_seed)
    else:
        state = spec.start(task.rules, players=task.players, seed=task.deal_seed)
    players = [botlib.make(s, seed=seed) for s, seed in zip(task.specs, task.bot_seeds,
                                                               strict=True)]
    moves: list[str] = []
    cpu = [0.0] * task.players
    made = [0] * task.players
    clock = time.process_time
    while not state.is_over() and len(moves) < MAX_MOVES:
        seat = state.to_move
        assert seat is not None
        began = clock()
        move = players[seat].choose(state)
        cpu[seat] += clock() - began
        made[seat] += 1
        state.push(move)
        moves.append(str(move))
    outcome = state.outcome()
    measure = single.measure if single is not None else spec.measure
    points, hands, loser = measure(state) if outcome is not None else (None, 1, None)
    returns = tuple(outcome.returns) if outcome is not None else (0.0,) * task.players
    winners = tuple(outcome.winners) if outcome is not None else ()
    record_path = None
    if task.save_dir:
        from ..records import record_of

        folder = Path(task.save_dir)
        folder.mkdir(parents=True, exist_ok=True)
        if single is not None:
            record = _single_hand_record(spec, state, task, moves)
        else:
            record = record_of(_WithMoves(state, moves), task.game, seats=_seats(task),
                               arena={"deal": task.deal, "index": task.index})
        path = folder / f"{task.game}-{task.index:05d}.json"
        record.save(path)
        record_path = str(path)
    return GameResult(index=task.index, deal=task.deal, lineup=task.lineup,
                      returns=returns, winners=winners, points=points, hands=hands,
                      loser=loser, moves=len(moves), seconds=time.perf_counter() - started,
                      record=record_path, finished=outcome is not None,
                      cpu=tuple(cpu), seat_moves=tuple(made))


# -- running many ----------------------------------------------------------------------------

def execute(tasks: Sequence[Task], *, jobs: int = 1, ray: str | None = None,
            on_result: Callable[[GameResult], None] | None = None) -> list[GameResult]:
    """Play every task: here (``jobs`` 1), in ``jobs`` processes, or on Ray; results in
    task order."""
    results: dict[int, GameResult] = {}

    def done(result: GameResult) -> None:
        results[result.index] = result
        if on_result is not None:
            on_result(result)

    if ray is not None:
        _execute_ray(tasks, ray, jobs, done)
    elif jobs <= 1:
        for task in tasks:
            done(play_task(task))
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(play_task, task) for task in tasks]
            for future in as_completed(futures):
                done(future.result())
    return [results[task.index] for task in tasks]


def _execute_ray(tasks: Sequence[Task], address: str, jobs: int,
                 done: Callable[[GameResult], None]) -> None:
    """The same games on a Ray cluster (``address``), or on a local Ray ("local")."""
    try:
        import ray
    except ImportError:
        raise RuntimeError("--ray needs Ray: pip install 'cardtable[cluster]'") from None
    if not ray.is_initialized():
        if address in ("", "local"):
            ray.init(num_cpus=max(1, jobs), include_dashboard=False,
                     log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
    remote = ray.remote(play_task)
    pending = [remote.remote(task) for task in tasks]
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        for ref in ready:
            done(ray.get(ref))


def play_plan(tasks: Sequence[Task], bots: Sequence[str], *, seed: int, jobs: int = 1,
         ray: str | None = None,
         on_result: Callable[[GameResult], None] | None = None) -> ArenaRun:
    """Play a planned run (``plan(..., seed=seed)`` with these ``bots``) and work out the
    figures; ``seconds`` counts from here."""
    if not tasks:
        raise ValueError("a run plays at least one game")
    started = time.perf_counter()
    first = tasks[0]
    results = execute(tasks, jobs=jobs, ray=ray, on_result=on_result)
    return ArenaRun(game=first.game, rules=first.rules, bots=list(bots), players=first.players,
                    seed=seed, hands=first.hands, results=results,
                    figures=summarize(first.game, bots, results),
                    margin=margin(first.game, bots, results),
                    seconds=time.perf_counter() - started)


def run(game: str, bots: Sequence[str], *, games: int, rules: Any = None,
        players: int | None = None, jobs: int = 1, seed: int = 0, hands: bool = False,
        save_dir: str | Path | None = None, ray: str | None = None,
        on_result: Callable[[GameResult], None] | None = None) -> ArenaRun:
    """Play a duplicate run between ``bots`` and work out the figures.

    ``rules`` is a preset name or a ``Rules`` value; ``hands`` plays single hands (for a
    game made of hands, as Pasur) instead of whole games; ``ray`` is a Ray address, or
    "local" for a Ray on this machine.
    """
    started = time.perf_counter()
    spec = gamelib.get(game)
    tasks = plan(game, bots, games=games, rules=rules_of(spec, rules), players=players,
                 seed=seed, hands=hands, save_dir=save_dir)
    outcome = play_plan(tasks, bots, seed=seed, jobs=jobs, ray=ray, on_result=on_result)
    outcome.seconds = time.perf_counter() - started
    return outcome
