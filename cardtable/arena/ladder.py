"""The ladder: one entrant against every level, on duplicate deals, and a rating on the
ladder's own scale.

Each rung is a cardtable level (``random`` and the named levels).  The entrant plays each
rung two-handed on the same deals in both seats (Pasur one hand at a time).  Per rung the
figure is the entrant's points a hand less the rung's (games that score points) or the
entrant's losing rate (games with one loser, Durak's durak), with a 95% interval, and the
entrant's score: 1 for a game it came out ahead in, 0.5 for a draw, 0 for a loss.

The rating is an Elo-scale (400 · log10) Bradley-Terry rating: the rungs' ratings are
fixed by the published ladder (``ladder.json`` beside this module, written by
``benchmarks/ladder.py``: ``random`` is 0), and the entrant's is the one that makes its
expected score against the rungs equal to the score it made.

>>> rating_from([(0.0, 1.0), (0.0, 0.0)])          # one win, one loss against a rung at 0
0.0
>>> round(rating_from([(0.0, 0.75)] * 4))          # 3 in 4 against a rung at 0
191
>>> rating_from([(0.0, 1.0)] * 3) is None          # every game won: above what it can say
True
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Sequence
from importlib import resources
from typing import Any

from .. import bots as botlib
from .. import games as gamelib
from .planning import GameResult
from .running import run
from .statistics import t_mean_ci, wilson

__all__ = ["MAX_DEALS", "RUNGS", "Rung", "climb", "expected", "published", "rating_from"]

RUNGS = ("random", *botlib.LEVELS)
"""The ladder's levels, from the bottom."""

MAX_DEALS = 10_000
"""The most deals against one rung a climb plays."""

SPAN = 3000.0
"""The ratings ``rating_from`` searches lie within this of the rungs' range."""


def expected(rating: float, other: float) -> float:
    """The expected score of ``rating`` against ``other`` (Elo's logistic)."""
    return 1.0 / (1.0 + 10.0 ** ((other - rating) / 400.0))


def rating_from(games: Sequence[tuple[float, float]]) -> float | None:
    """The rating whose expected score against the opponents' ratings equals the score
    made: ``games`` is (opponent's rating, score) per game.  ``None`` when every game was
    won or every game lost (no finite rating says that)."""
    if not games:
        return None
    total = sum(score for _, score in games)
    if total <= 0.0 or total >= len(games):
        return None
    low = min(r for r, _ in games) - SPAN
    high = max(r for r, _ in games) + SPAN
    for _ in range(100):
        mid = (low + high) / 2
        if sum(expected(mid, r) for r, _ in games) < total:
            low = mid
        else:
            high = mid
    return round((low + high) / 2, 1) + 0.0   # never -0.0


def published(game: str) -> dict[str, Any] | None:
    """The published ladder of ``game`` (its rungs' ratings and how they were measured),
    or ``None`` where none is stored."""
    text = resources.files("cardtable.arena").joinpath("ladder.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    found: dict[str, Any] | None = data.get("games", {}).get(game)
    return found


@dataclasses.dataclass
class Rung:
    """How the entrant did against one rung."""

    level: str
    games: int
    score: float
    """The entrant's mean score (1 ahead, 0.5 a draw, 0 behind)."""
    points: float | None
    points_ci95: tuple[float, float] | None
    loss_rate: float | None
    loss_ci95: tuple[float, float] | None
    rung_rating: float | None
    seconds: float


def _score(result: GameResult, seat: int) -> float:
    mine = result.returns[seat]
    best_other = max(r for s, r in enumerate(result.returns) if s != seat)
    return 1.0 if mine > best_other else 0.5 if mine == best_other else 0.0


def _rung(game: str, agent: str, level: str, results: Sequence[GameResult],
          rating: float | None, seconds: float) -> Rung:
    spec = gamelib.get(game)
    seats = [(r, r.lineup.index(agent)) for r in results]
    score = sum(_score(r, seat) for r, seat in seats) / len(seats)
    points = points_ci = loss = loss_ci = None
    if all(r.points is not None for r, _ in seats):
        by_deal: dict[int, list[float]] = {}
        for r, seat in seats:
            assert r.points is not None
            diff = (r.points[seat] - r.points[1 - seat]) / r.hands
            by_deal.setdefault(r.deal, []).append(diff)
        means = [sum(v) / len(v) for v in by_deal.values()]
        points, points_ci = t_mean_ci(means)
    if spec.loser:
        lost = sum(1 for r, seat in seats if r.loser == seat)
        loss, loss_ci = lost / len(seats), wilson(lost, len(seats))
    return Rung(level=level, games=len(seats), score=score, points=points,
                points_ci95=points_ci, loss_rate=loss, loss_ci95=loss_ci,
                rung_rating=rating, seconds=seconds)


def climb(game: str, agent: str, *, levels: Sequence[str] = RUNGS, deals: int = 20,
          seed: int = 0, jobs: int = 1,
          on_rung: Callable[[Rung], None] | None = None) -> dict[str, Any]:
    """Play ``agent`` (a bot spec: a level, ``module:function``...) against each of
    ``levels`` on ``deals`` duplicate deals each, and rate it on the published ladder."""
    if not 1 <= deals <= MAX_DEALS:
        raise ValueError(f"play 1 to {MAX_DEALS} deals against each level")
    spec = gamelib.get(game)
    ladder = published(game) or {}
    ratings: dict[str, float] = ladder.get("ratings", {})
    hands = spec.single_hand is not None
    rungs: list[Rung] = []
    rated: list[tuple[float, float]] = []
    for level in levels:
        if level == agent:
            raise ValueError(f"the agent {agent!r} is also a rung: name another agent")
        outcome = run(game, [agent, level], games=2 * deals, players=2, seed=seed,
                      jobs=jobs, hands=hands)
        rung = _rung(game, agent, level, outcome.results, ratings.get(level),
                     outcome.seconds)
        rungs.append(rung)
        if rung.rung_rating is not None:
            rated += [(rung.rung_rating, _score(r, r.lineup.index(agent)))
                      for r in outcome.results]
        if on_rung is not None:
            on_rung(rung)
    return {"game": game, "agent": agent, "deals": deals, "seed": seed,
            "rungs": [dataclasses.asdict(r) for r in rungs],
            "rating": rating_from(rated), "measured": ladder.get("measured")}
