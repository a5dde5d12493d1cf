"""What the analysis, the hints and the puzzles all ask: a game's ``learn`` plug-in, and
every legal move's value from what the seat knew (ISMCTS) or in hindsight (the exact solver).

Apart from the package so that its modules (``hints``, ``puzzles``, ``lessons``) need not
import the package that holds them.
"""

from __future__ import annotations

import math
import random
from typing import Any

from .. import bots, games
from ..bots.ismcts import kit_of
from ..bots.kits import fast_hooks
from ..bots.solver import OutOfBudget, Solver
from ..game import GameState

__all__ = ["DEFAULT_ITERATIONS", "HINDSIGHT_NODES", "hindsight_values", "learn_of", "values"]

DEFAULT_ITERATIONS = 10_000
"""The judge's playouts per judged move (``weighing.weigh``: every legal move on the same
deals; fewer where the verdict is sure sooner, up to ``weighing.DOUBT`` times as many for
a close call that more deals settle)."""

HINDSIGHT_NODES = 20_000
"""The exact solver's budget of positions per judged move; past it, hindsight is ``None``."""


def learn_of(state_or_game: Any) -> Any:
    """The ``learn`` plug-in of a game, from its name or from one of its states."""
    name = state_or_game if isinstance(state_or_game, str) else state_or_game.view(None)["game"]
    return games.get(name).plugin("learn")


def values(state: GameState[Any], *, iterations: int = DEFAULT_ITERATIONS,
           seed: int | random.Random | None = 0, spec: str | None = None) -> dict[Any, float]:
    """Every legal move's expected reward for the seat to move, from what it knows.

    The search is ISMCTS (``spec``, by default paired and reading the other players);
    the reward is the search's own, turned into the game's units by the plug-in.
    """
    learn = learn_of(state)
    position = learn.searched(state)
    moves = position.legal_moves()
    if len(moves) == 1:
        return {moves[0]: 0.0}
    bot = bots.make(spec or f"ismcts:iterations={iterations},paired=1,infer=1", seed=seed)
    bot.choose(position)
    stats = bot.stats.get("moves") or {}   # type: ignore[attr-defined]
    found = {str(move): move for move in moves}
    return {found[text]: mean for text, (_, mean) in stats.items() if text in found}


def hindsight_values(state: GameState[Any], *,
                     nodes: int = HINDSIGHT_NODES) -> dict[Any, float] | None:
    """Every legal move's exact reward for the seat to move with every card known (the
    true state), or ``None`` where the solver does not reach (too early, over budget)."""
    learn = learn_of(state)
    position = learn.searched(state).copy()
    seat = position.to_move
    if seat is None or not learn.hindsight_ready(position):
        return None
    kit = kit_of(position)
    context = kit.context(position, seat)
    side = kit.side_of(position, seat)
    solver = Solver(kit, lambda final: kit.rewards(final, context)[seat],
                    lambda s: kit.side_of(position, s) == side, max_nodes=nodes)
    fast_solve = fast_hooks(kit)[1]
    out = {}
    for move in position.legal_moves():
        position.push(move)
        try:
            if position.is_over():
                out[move] = kit.rewards(position, context)[seat]
                continue
            # the kit's compiled search where it has one (the same values, far sooner)
            found = None if fast_solve is None else fast_solve(
                position, seat, context, max_nodes=nodes, deadline=math.inf)
            out[move] = solver.solve(position)[0] if found is None else found[0]
        except OutOfBudget:
            return None
        finally:
            position.pop()
    return out
