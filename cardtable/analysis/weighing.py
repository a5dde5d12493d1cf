"""The judge behind the analysis and the hints: every legal move measured on the same deals.

A move's worth from what the seat knew is measured the way a duplicate tournament measures
a player: deal the hidden cards afresh (a determinization, drawn in the light of the other
players' moves), play every legal move on that same deal with the same stream of random
numbers for the rest (the playout policy of the game's kit, by the name the game's
``learn`` plug-in gives, ``playout``, "basic" where it gives none; cut where the plug-in
says, ``horizon``, and the position there valued by the kit's evaluation), and
compare the moves deal by deal.  The luck of the cards then falls alike on every move, so
the paired differences are far steadier than the moves' own results.

The judge works in two steps on two separate streams of deals, so that the best move's
value is not the largest of several noisy estimates (the winner's curse):

1. **Choose** the best.  Deals in rounds that double; after each (from ``SURE_DEALS`` deals
   on), a move clearly worse than the leader (its paired difference more than ``Z``
   standard errors past zero) leaves the race, and the choice ends once one move is left,
   or every rival is measured to within a quarter of the first label's threshold of the
   leader (as good), or at half the budget.
2. **Measure** the move played against the chosen best on fresh deals (none if the move
   played is the best: its loss is 0), in rounds that double, until the loss's interval
   (``Z_SURE`` standard errors each side) lies within one label's band, on ``SURE_DEALS``
   deals at least, or at the budget: the deals go where the verdict is in doubt, up to
   thousands for a loss near a threshold.  Past the budget, up to ``DOUBT`` times it for
   an interval still across a threshold that the deals it holds would clear (``CORE_DOUBT``
   times it for any interval across one, where the kit deals in its compiled core).

The choice does not depend on the move played, so a hint (the choice alone) and the
analysis of the same position with the same budget and seed name the same best move.  The
deals are seeded by the seed and the position as the seat sees it, never by where the
position stands in a game.  Where nothing is hidden from the seat, the exact solver's
values are used instead (no uncertainty).
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..bots.ismcts import kit_of
from ..bots.kits import fast_hooks
from ..game import GameState
from .search import HINDSIGHT_NODES, hindsight_values, learn_of

__all__ = ["CORE_DOUBT", "DOUBT", "FIRST_DEALS", "BudgetTooSmall", "Verdict", "Z",
           "smallest_budget", "t_quantile", "weigh"]

FIRST_DEALS = 8
"""Deals in the first round of each step: the fewest that estimate the spread of the
paired differences."""

SURE_DEALS = 32
"""Deals the measure plays at least before its verdict may be sure: on fewer, the spread of
the paired differences is often underestimated (a Durak round played out by the tactics
policy gives nearly the same difference on 8 deals, and another on 64)."""

Z = 2.0
"""Standard errors each side of a paired difference in its interval (about 95%, widened
for few deals by Student's t): a move leaves the race, and a loss's label is sure, only
past it."""

SETTLE = 0.25
"""The choice ends once every rival left is measured to within this share of the first
label's threshold of the leader: the best chosen is then at most about that far from the
truly best, an error the loss measured against it carries (at half the threshold, two
seeds chose different bests often enough to turn labels)."""

Z_SURE = 3.0
"""Standard errors each side of a loss in its interval when the move played is measured
against the best.  Wider than ``Z``: the measure looks at its interval after every round
and stops at the first that lies in one label's band, and each look is another chance for
a stray interval to stop it (a label one run gives and the next does not)."""

DOUBT = 4
"""Past its budget, the measure may spend up to this many times the budget (less what the
choice spent) on a loss whose interval still reaches across a label's threshold but would
clear it within them at its present spread (``_measure``): the extra goes to the close
calls that more deals settle, not to a loss a hair from a threshold."""

CORE_DOUBT = 16
"""The allowance where the kit deals and plays out in its compiled core (the kits'
``fast_dealer``, a playout a tenth or less of the CPU of a deal built in Python): up to this
many times the budget on any loss whose interval still reaches across a threshold, whether
or not its present spread says the deals would settle it.  The distance to the threshold
that rule reads is itself measured, and near a threshold it is mostly noise: Pasur losses
0.05 to 0.07 points past 2.5, measured at 2.46 to 2.53 on 5,000 deals, seemed to need
60,000 deals or more and were settled on 20,000 to 40,000 (``docs/learn.md``)."""

_PLAYOUT_LIMIT = 2000
"""Moves after which a playout stops (a Durak game can go round in circles)."""


class BudgetTooSmall(ValueError):
    """A budget too small to judge: ``smallest`` is the least that judges."""

    def __init__(self, given: int, smallest: int, where: str = "") -> None:
        self.given = given
        self.smallest = smallest
        super().__init__(
            f"{given} iterations are too few to judge{where}: every legal move is played on "
            f"{FIRST_DEALS} deals at least to choose the best, and the move played on "
            f"{FIRST_DEALS} more to measure how sure the verdict is; give {smallest} or more")


def smallest_budget(choices: int) -> int:
    """The least budget that judges a position with ``choices`` legal moves: the first
    round of the choice (every move on ``FIRST_DEALS`` deals) and of the measure (two moves).

    >>> smallest_budget(5)
    56
    """
    return FIRST_DEALS * (choices + 2)


@dataclass
class Verdict:
    """What the judge found: every move's mean reward (the search's own units), the best,
    and the loss of the move played (best minus played, in reward, measured on deals the
    choice did not see) with its interval (``low``, ``high``: ``Z`` standard errors of the
    paired differences each side, by Student's t for few deals) and its standard error
    ``se``."""

    values: dict[Any, float]
    best: Any
    loss: float
    low: float
    high: float
    se: float
    deals: int
    """Deals the loss was measured on (0: exact, forced, or the move played is the best)."""
    playouts: int
    exact: bool
    contenders: int = 1
    """Moves still in the race when the choice ended (1: the best stood clear of every
    other)."""
    choice_deals: int = 0
    """Deals the best was chosen on."""
    unsolved: bool = False
    """Nothing was hidden, but the exact solver ran out of its budget (so the hindsight
    of this position, the same search, need not be tried again)."""


def t_quantile(z: float, df: int) -> float:
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


def _streams(position: GameState[Any], seat: int, seed: int) -> tuple[random.Random,
                                                                        random.Random]:
    """The two streams of deals (choose, measure), seeded by ``seed`` and the position as
    ``seat`` sees it: a hint and an analysis of the same position deal alike."""
    seen = json.dumps(position.view(seat), sort_keys=True, default=str, ensure_ascii=True)
    digest = hashlib.sha256(seen.encode()).hexdigest()
    return random.Random(f"choose {seed} {digest}"), random.Random(f"measure {seed} {digest}")


class _Player:
    """Plays one move out on one deal through the game's kit, to the plug-in's horizon: in
    the kit's compiled core where it offers one (``fast_deal``: the deal read into the core
    once for all the moves played on it; else ``fast_playout``), else in Python."""

    def __init__(self, position: GameState[Any], seat: int, horizon: int | None,
                 policy: str = "basic") -> None:
        kit = kit_of(position)
        self.seat = seat
        self.sample = kit.sampler(position, seat, infer=True)
        self.context = kit.context(position, seat, horizon=horizon)
        # the policy by name, as the search reads it: "steady" is the kit's
        # ``playout_steady`` where it has one, its basic playout elsewhere
        self.policy = (kit.playout if policy == "basic"
                       else getattr(kit, f"playout_{policy}", kit.playout))
        self.cutoff, self.rewards = kit.cutoff, kit.rewards
        self.policy_name = policy
        self.fast = fast_hooks(kit)[0]
        self.board_of = getattr(kit, "fast_deal", None)
        self.board: Callable[[Any, random.Random], Sequence[float] | None] | None = None
        self.board_deal: Any = None
        """The deal ``board`` plays on (the last one asked about)."""
        self.luck = random.Random()
        dealer = getattr(kit, "fast_dealer", None)
        self.dealer = None if dealer is None else dealer(position, seat, self.context,
                                                         policy, infer=True)
        """The kit's deals and playouts in its compiled core, where it offers them: a deal
        dealt there as a board (no hand built in Python), each move played on a copy."""
        judge = getattr(kit, "fast_judge", None)
        self.judged: Callable[[list[int], tuple[Any, ...]], Sequence[list[float]]] | None = (
            None if judge is None or self.dealer is None
            else judge(position, seat, self.context, policy))
        """The dealer's deals and playouts of many deals in one call, where the kit offers
        it (``_on_deals``): the same numbers as ``deal`` and ``play`` deal by deal."""

    def deal(self, rng: random.Random) -> tuple[Any, int]:
        if self.dealer is not None:
            return self.dealer[0](rng), rng.getrandbits(64)
        return self.sample(rng), rng.getrandbits(64)

    def play(self, deal: Any, move: Any, draw: int, last: bool) -> float:
        if self.dealer is not None:
            dealt: float = self.dealer[1](deal, move, draw)[self.seat]
            return dealt
        luck = self.luck
        luck.seed(draw)
        if self.board_of is not None:
            if self.board_deal is not deal:
                self.board_deal = deal
                self.board = self.board_of(deal, self.context, self.policy_name)
            if self.board is not None:
                found = self.board(move, luck)
                if found is not None:
                    board: float = found[self.seat]
                    return board
                luck.seed(draw)
        game = deal if last else deal.copy()
        game.push(move)
        context = self.context
        if self.fast is not None and game.to_move is not None:
            found = self.fast(game, context, self.policy_name, luck)
            if found is not None:
                fast: float = found[self.seat]
                return fast
        policy, cutoff = self.policy, self.cutoff
        steps = 0
        while game.to_move is not None and not cutoff(game, context) and steps < _PLAYOUT_LIMIT:
            game.push(policy(game, luck))
            steps += 1
        reward: float = self.rewards(game, context)[self.seat]
        return reward


def _on_deals(player: _Player, rng: random.Random, count: int, moves: Sequence[Any],
              ) -> Sequence[list[float]]:
    """Each of ``moves`` played on ``count`` fresh deals from ``rng`` (the same deal for every
    move): a list of the seat's rewards a move.  In one call to the kit's core where the
    player has it (``judged``, drawing from ``rng`` the numbers ``deal`` draws, in turn),
    else deal by deal."""
    judged = getattr(player, "judged", None)
    if judged is not None:
        return judged([rng.getrandbits(64) for _ in range(2 * count)], tuple(moves))
    out: list[list[float]] = [[] for _ in moves]
    last = len(moves) - 1
    for _ in range(count):
        deal, draw = player.deal(rng)
        for i, move in enumerate(moves):
            out[i].append(player.play(deal, move, draw, i == last))
    return out


def weigh(state: GameState[Any], played: Any = None, *, budget: int, seed: int = 0,
          nodes: int = HINDSIGHT_NODES, least: int = 0) -> Verdict:
    """Every legal move of the seat to move measured from what it knows (``state`` is
    unchanged): the best chosen on one stream of deals, and with ``played`` (a legal move)
    that move's loss measured against it on another.  ``budget`` is playouts (half at most
    to choose; ``DOUBT`` times it at most for a close call, ``CORE_DOUBT`` where the kit deals
    in its core); too small a one raises
    ``BudgetTooSmall``.  ``least`` is the deals each step plays at least before it may stop
    for being sure (a reference judge's)."""
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
    # among moves of equal worth, the one the kit's order puts first (the cheapest beat,
    # the card worth least): the tie is broken the same way every time
    rank = {m: -i for i, m in enumerate(kit.order(position, list(moves)))}

    def key_of(means: dict[Any, float]) -> Callable[[Any], tuple[float, int]]:
        return lambda m: (means[m], rank.get(m, -len(moves)))

    horizon = getattr(learn, "horizon", None)
    unsolved = False
    if kit.perfect(position, seat):
        exact = hindsight_values(state, nodes=nodes)
        if exact:
            best = max(exact, key=key_of(exact))
            loss = 0.0 if chosen is None else exact[best] - exact[chosen]
            return Verdict(exact, best, loss, loss, loss, 0.0, 0, 0, True)
        unsolved = True
        # past the solver's budget with nothing hidden: every deal is the same, so a
        # playout cut at the round's end would be one line valued by the evaluation, its
        # spread zero; played to the end, the playouts' random moves vary the line
        horizon = None
    smallest = smallest_budget(len(moves))
    if budget < smallest:
        raise BudgetTooSmall(budget, smallest)
    scale = learn.loss(1.0, 0.0)
    cuts = [threshold / scale for threshold in learn.thresholds]
    player = _Player(position, seat, horizon, getattr(learn, "playout", "basic"))
    choose, measure = _streams(position, seat, seed)
    values, best, active, deals, spent = _choose(
        player, moves, choose, max(smallest - 2 * FIRST_DEALS, budget // 2), cuts, key_of,
        least)
    if chosen is None or chosen == best:
        return Verdict(values, best, 0.0, 0.0, 0.0, 0.0, 0, spent, False, len(active), deals,
                       unsolved)
    core = player.dealer is not None
    loss, low, high, se, measured, used = _measure(
        player, best, chosen, measure, budget - spent, cuts, least,
        (CORE_DOUBT if core else DOUBT) * budget - spent, fit=not core)
    # the two moves' values from the fresh deals: the best's not inflated by its choice
    values[best], values[chosen] = measured
    return Verdict(values, best, loss, low, high, se, used // 2, spent + used, False,
                   len(active), deals, unsolved)


def _choose(player: _Player, moves: list[Any], rng: random.Random, budget: int,
            cuts: Sequence[float], key_of: Callable[[dict[Any, float]], Any], least: int = 0,
            ) -> tuple[dict[Any, float], Any, list[Any], int, int]:
    """The race: every move on the same deals, a clearly worse one dropped after each round;
    every move's value, the best, the moves left, the deals and the playouts spent."""
    results: dict[Any, list[float]] = {m: [] for m in moves}
    active = list(moves)
    deals = spent = 0
    batch = FIRST_DEALS
    while True:
        for move, found in zip(active, _on_deals(player, rng, batch, active), strict=True):
            results[move].extend(found)
        deals += batch
        spent += batch * len(active)
        means = {m: sum(results[m]) / len(results[m]) for m in active}
        best = max(active, key=key_of(means))
        t = t_quantile(Z, deals - 1)
        settled = True   # every rival left is measured to within SETTLE of the first threshold
        for move in list(active):
            if move == best:
                continue
            gap, se = _paired(results[best], results[move])
            if gap - t * se > 0 and deals >= SURE_DEALS:
                active.remove(move)
            elif t * se >= cuts[0] * SETTLE:
                settled = False
        room = (budget - spent) // len(active)
        if len(active) == 1 or (settled and deals >= least) or room < 1:
            break
        batch = min(deals, room)   # double the deals
    # a move that left the race is valued against the best on the deals it was played on
    # (the paired difference), so no move is ranked above the best
    values = {m: sum(r) / len(r) for m, r in results.items()}
    for move in moves:
        if move not in active:
            values[move] = values[best] - _paired(results[best], results[move])[0]
    return values, best, active, deals, spent


def _measure(player: _Player, best: Any, played: Any, rng: random.Random, budget: int,
             cuts: Sequence[float], least: int = 0, doubt: int = 0, fit: bool = True,
             ) -> tuple[float, float, float, float, tuple[float, float], int]:
    """The loss of ``played`` against ``best`` on fresh deals, until its interval lies in
    one label's band (from ``SURE_DEALS`` deals on) or ``budget`` playouts are spent: the
    loss, its interval, its standard error, the two moves' values and the playouts spent.

    Past ``budget``, up to ``doubt`` playouts in all while the interval still reaches
    across a threshold and, at its present spread a deal, would lie clear of it within
    them (the deals needed grow as the square of the spread over the distance to the
    threshold): a loss a hair from a threshold is left unsure rather than measured
    without end.  With ``fit`` false, up to ``doubt`` on every such interval (where the
    deals are cheap: ``CORE_DOUBT``)."""
    tops: list[float] = []
    mine: list[float] = []
    batch = FIRST_DEALS
    while True:
        top, me = _on_deals(player, rng, batch, (best, played))
        tops.extend(top)
        mine.extend(me)
        deals = len(tops)
        mean, se = _paired(tops, mine)
        t = t_quantile(Z_SURE, deals - 1)
        low, high = max(0.0, mean - t * se), max(0.0, mean + t * se)
        sure = _band(low, cuts) == _band(high, cuts)
        if sure and deals >= max(least, SURE_DEALS):
            break
        cap = budget
        if not sure and doubt > budget and 2 * deals >= budget:
            gap = min((abs(mean - cut) for cut in cuts if low < cut <= high), default=0.0)
            needed = math.inf if gap <= 0 else deals * (t * se / gap) ** 2
            if 2 * needed <= doubt or not fit:
                cap = doubt
        most = deals + (cap - 2 * deals) // 2
        if most <= deals:
            break
        batch = min(deals, most - deals)
    values = (sum(tops) / deals, sum(mine) / deals)
    return max(0.0, mean), low, high, se, values, 2 * deals
