"""The judge behind the analysis and the hints: every legal move measured on the same deals.

A move's worth from what the seat knew is measured the way a duplicate tournament measures
a player: deal the hidden cards afresh (a determinization, drawn in the light of the other
players' moves), play every legal move on that same deal with the same stream of random
numbers for the rest of the game (the playout policy of the game's kit), and compare the
moves deal by deal.  The luck of the cards then falls alike on every move, so the paired
differences (best minus played) are far steadier than the moves' own results, and their
spread over the deals says how sure the verdict is: the loss's standard error.

The search spends where the verdict is close.  It deals in rounds that double; after each,
a move clearly worse than the best (its paired difference more than its uncertainty past
zero) is dropped, and the search stops as soon as the loss's interval (``Z`` standard
errors each side) lies within one label's band, or the budget is spent.  Where nothing is
hidden from the seat, the exact solver's values are used instead (no uncertainty).

A budget is a number of playouts (one move played out on one deal) per judged move; the
first round plays every legal move on ``FIRST_DEALS`` deals, since fewer deals cannot
estimate the spread, so a smaller budget is refused (``BudgetTooSmall``) with the smallest
that judges.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..bots.ismcts import kit_of
from ..game import GameState
from .search import HINDSIGHT_NODES, hindsight_values, learn_of

__all__ = ["FIRST_DEALS", "BudgetTooSmall", "Verdict", "Z", "smallest_budget", "weigh"]

FIRST_DEALS = 8
"""Deals in the first round, each playing every legal move: the fewest that estimate the
spread of the paired differences."""

Z = 2.5
"""Standard errors each side of the loss in its interval (about 99%, widened for few deals
by Student's t)."""

_PLAYOUT_LIMIT = 2000
"""Moves after which a playout stops (a Durak game can go round in circles)."""


class BudgetTooSmall(ValueError):
    """A budget too small to judge: ``smallest`` is the least that judges."""

    def __init__(self, given: int, smallest: int, where: str = "") -> None:
        self.given = given
        self.smallest = smallest
        super().__init__(
            f"{given} iterations are too few to judge{where}: every legal move is played on "
            f"{FIRST_DEALS} deals at least to measure how sure the verdict is; "
            f"give {smallest} or more")


def smallest_budget(choices: int) -> int:
    """The least budget that judges a position with ``choices`` legal moves.

    >>> smallest_budget(5)
    40
    """
    return FIRST_DEALS * choices


@dataclass
class Verdict:
    """What the judge found: every move's mean reward (the search's own units), the best,
    and the loss of the move played (best minus played, in reward) with its interval
    (``low``, ``high``: ``Z`` standard errors of the paired differences each side, by
    Student's t for few deals) and its standard error ``se``."""

    values: dict[Any, float]
    best: Any
    loss: float
    low: float
    high: float
    se: float
    deals: int
    playouts: int
    exact: bool
    contenders: int = 1
    """Moves still in the race at the end (1: the best stood clear of every other)."""


def _t(z: float, df: int) -> float:
    """Student's t quantile near ``z`` for ``df`` degrees of freedom (Cornish-Fisher)."""
    if df <= 0:
        return math.inf
    return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df * df)


def _paired(better: Sequence[float], worse: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error of the deal-by-deal differences."""
    n = min(len(better), len(worse))
    if n == 0:
        return 0.0, math.inf
    diffs = [a - b for a, b in zip(better[:n], worse[:n], strict=True)]
    mean = sum(diffs) / n
    if n == 1:
        return mean, math.inf
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(var / n)


def _band(loss: float, cuts: Sequence[float]) -> int:
    """How many label thresholds ``loss`` reaches."""
    return sum(loss >= cut - 1e-12 for cut in cuts)


def weigh(state: GameState[Any], played: Any = None, *, budget: int, rng: random.Random,
          nodes: int = HINDSIGHT_NODES) -> Verdict:
    """Every legal move of the seat to move measured from what it knows (``state`` is
    unchanged).  With ``played`` (a legal move) the search stops once that move's label
    is sure; without, once every other move has left the race or is measured against
    the best to within half the first label's threshold (as good, for a hint).  ``budget`` is
    playouts at most; too small a one raises ``BudgetTooSmall``."""
    learn = learn_of(state)
    position = learn.searched(state)
    seat = position.to_move
    if seat is None:
        raise ValueError("there is no move to judge: the game is over")
    moves = position.legal_moves()
    if played is None:
        chosen = None
    else:
        chosen = next((m for m in moves if m == played or str(m) == str(played)), None)
        if chosen is None:
            raise ValueError(f"{played} is not a legal move here")
    if len(moves) == 1:
        return Verdict({moves[0]: 0.0}, moves[0], 0.0, 0.0, 0.0, 0.0, 0, 0, True)
    kit = kit_of(position)
    # among moves of equal worth, the played one, then the one the kit's order puts first
    # (the cheapest beat, the card worth least): the tie is broken the same way every time
    ordered = {m: -i for i, m in enumerate(kit.order(position, list(moves)))}

    def first(m: Any) -> tuple[bool, int]:
        return m == chosen, ordered.get(m, -len(moves))

    if kit.perfect(position, seat):
        exact = hindsight_values(state, nodes=nodes)
        if exact:
            best = max(exact, key=lambda m: (exact[m], *first(m)))
            loss = 0.0 if chosen is None else exact[best] - exact[chosen]
            return Verdict(exact, best, loss, loss, loss, 0.0, 0, 0, True)
    smallest = smallest_budget(len(moves))
    if budget < smallest:
        raise BudgetTooSmall(budget, smallest)
    scale = learn.loss(1.0, 0.0)
    cuts = [threshold / scale for threshold in learn.thresholds]
    sample = kit.sampler(position, seat, infer=True)
    context = kit.context(position, seat)
    policy, cutoff, rewards = kit.playout, kit.cutoff, kit.rewards
    results: dict[Any, list[float]] = {m: [] for m in moves}
    active = list(moves)
    luck = random.Random()
    deals = spent = 0
    batch = FIRST_DEALS
    while True:
        for _ in range(batch):
            deal = sample(rng)
            draw = rng.getrandbits(64)
            last = len(active) - 1
            for i, move in enumerate(active):
                game = deal if i == last else deal.copy()
                luck.seed(draw)
                game.push(move)
                steps = 0
                while (game.to_move is not None and not cutoff(game, context)
                       and steps < _PLAYOUT_LIMIT):
                    game.push(policy(game, luck))
                    steps += 1
                results[move].append(rewards(game, context)[seat])
            deals += 1
            spent += len(active)
        means = {m: sum(results[m]) / len(results[m]) for m in active}
        best = max(active, key=lambda m: (means[m], *first(m)))
        t = _t(Z, deals - 1)
        settled = True   # every rival left is measured to within half the first threshold
        for move in list(active):
            if move in (best, chosen):
                continue
            gap, se = _paired(results[best], results[move])
            if gap - t * se > 0:
                active.remove(move)
            elif t * se >= cuts[0] / 2:
                settled = False
        if chosen is None:
            loss = low = high = se = 0.0
            done = settled
        else:
            loss, se = _paired(results[best], results[chosen])
            low, high = _interval(results, active, chosen, t)
            done = _band(low, cuts) == _band(high, cuts) or _futile(
                loss, low, high, cuts, deals, deals + (budget - spent) // len(active))
        batch = deals   # double the deals
        if done or (budget - spent) // len(active) < 1:
            break
        batch = min(batch, (budget - spent) // len(active))
    # a move that left the race early is valued against the best on the deals it was
    # played on (the paired difference), so no move is ranked above the best
    values = {m: sum(r) / len(r) for m, r in results.items()}
    for move in moves:
        if move not in active:
            values[move] = values[best] - _paired(results[best], results[move])[0]
    return Verdict(values, best, max(0.0, loss), low, high, se, deals, spent, False,
                   len(active))


def _futile(loss: float, low: float, high: float, cuts: Sequence[float], deals: int,
            most: int) -> bool:
    """Even the whole budget (``most`` deals) would leave a threshold inside the interval:
    the interval narrows as one over the square root of the deals, so searching on cannot
    settle the label, and the judge stops (the label is the low end's)."""
    if deals >= most:
        return True
    if deals < 4 * FIRST_DEALS:   # too few deals to trust the spread's estimate that far
        return False
    half = (high - low) / 2 * math.sqrt(deals / most)
    return any(low < cut <= high and abs(loss - cut) < half for cut in cuts)


def _interval(results: dict[Any, list[float]], active: Sequence[Any], chosen: Any,
              t: float) -> tuple[float, float]:
    """The loss's interval: how far the best of the moves still in the race may stand
    above ``chosen``, at least and at most, each paired difference give or take ``t``
    standard errors (never below 0: the loss of the best move is 0)."""
    low = high = 0.0
    for move in active:
        if move == chosen:
            continue
        gap, se = _paired(results[move], results[chosen])
        low, high = max(low, gap - t * se), max(high, gap + t * se)
    return low, high
