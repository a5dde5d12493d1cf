"""Judging a finished game's moves: from what the player knew, and in hindsight.

Each move is judged twice.  **From what the player knew**: the judge (``weighing.weigh``)
plays every legal move on the same deals of the hidden cards, so that the moves'
differences are measured on the same cards, and gives every legal move's expected result
and the loss's interval; the loss is how far the move played falls short of the best, in
the game's own units (Pasur: points ahead of the other side; Durak: the chance of being
the durak), and a label is given only where the whole interval reaches its threshold.
**In hindsight**: with every card known (the true hands and stock), the exact solver
values every move where it reaches (the last deals of a Pasur hand, a Durak endgame);
elsewhere the hindsight fields are ``None``.

The per-game pieces (the units, the thresholds of the labels, when the solver reaches)
are the game's ``learn`` plug-in, named by its ``GameSpec``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from ..game import GameState
from .search import DEFAULT_ITERATIONS, HINDSIGHT_NODES, hindsight_values, learn_of, values
from .weighing import BudgetTooSmall, smallest_budget, t_quantile, weigh

__all__ = ["DEFAULT_ITERATIONS", "LABELS", "BudgetTooSmall", "Judgement", "analyse",
           "analyse_record", "hindsight_values", "label_of", "learn_of", "move_accuracy",
           "series",
           "smallest_iterations", "sparkline", "summary", "values"]

LABELS = ("inaccuracy", "mistake", "blunder")


@dataclass
class Judgement:
    """One move judged: ``loss`` and ``hindsight_loss`` are in the game's units (``unit``);
    ``expected`` is the expected result of the move played, ``best_expected`` the best's."""

    index: int
    seat: int
    move: str
    best: str
    loss: float
    label: str | None
    hindsight_best: str | None
    hindsight_loss: float | None
    expected: float | None
    best_expected: float | None
    choices: int
    uncertainty: float | None = None
    """Half the loss's interval in the game's units (0 where the exact solver judged)."""
    loss_low: float | None = None
    loss_high: float | None = None
    """The loss's interval: the label is the worst the loss surely reaches (``loss_low``)."""
    unsure: str | None = None
    """The worse label the interval also reaches (``loss_high``), which the judge cannot
    rule out: "unsure whether a mistake"; ``None`` when the label is sure."""
    deals: int = 0
    """The deals the moves were compared on (0: exact, or forced)."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def label_of(loss: float, thresholds: Sequence[float]) -> str | None:
    """``inaccuracy``, ``mistake`` or ``blunder`` by the loss against the game's thresholds
    (at or above each); ``None`` below the first.

    >>> label_of(0.3, (1.0, 2.5, 5.0)), label_of(2.5, (1.0, 2.5, 5.0))
    (None, 'mistake')
    """
    label = None
    for name, threshold in zip(LABELS, thresholds, strict=True):
        if loss >= threshold - 1e-9:
            label = name
    return label


def judge(state: GameState[Any], move: Any, index: int, *,
          iterations: int = DEFAULT_ITERATIONS, seed: int = 0,
          hindsight: bool = True, nodes: int = HINDSIGHT_NODES, least: int = 0) -> Judgement:
    """Judge ``move`` (legal in ``state``) for the seat to move; ``state`` is unchanged.

    The label is the worst the loss surely reaches (the low end of its interval); where
    the interval reaches a worse one too, that one is ``unsure``.  ``iterations`` is the
    judge's budget of playouts (``BudgetTooSmall`` when too few to judge); ``least`` the
    deals each of its steps plays at least (``weighing.weigh``).
    """
    learn = learn_of(state)
    seat = state.to_move
    assert seat is not None
    played_in = learn.searched(state)
    played = played_in.parse_move(str(move))
    if len(played_in.legal_moves()) == 1:   # a forced move: nothing to judge
        return Judgement(index=index, seat=seat, move=str(played), best=str(played), loss=0.0,
                         label=None, hindsight_best=None, hindsight_loss=None, expected=None,
                         best_expected=None, choices=1)
    found = weigh(state, played, budget=iterations, nodes=nodes, seed=seed, least=least)
    worth = found.values
    units = learn.loss(1.0, 0.0)
    low, high = round(found.low * units, 4), round(found.high * units, 4)
    label = label_of(low, learn.thresholds)
    worst = label_of(high, learn.thresholds)
    exact = None
    if hindsight:   # nothing hidden from the player: the judge's values were the exact ones
        exact = worth if found.exact else None if found.unsolved else hindsight_values(
            state, nodes=nodes)
    h_best = h_loss = None
    if exact:
        top = max(exact, key=lambda m: (exact[m], m == played))
        h_best, h_loss = str(top), round(max(0.0, learn.loss(exact[top], exact[played])), 4)
    return Judgement(
        index=index, seat=seat, move=str(played), best=str(found.best),
        loss=round(found.loss * units, 4), label=label,
        hindsight_best=h_best, hindsight_loss=h_loss,
        expected=round(learn.expected(worth[played]), 4),
        best_expected=round(learn.expected(worth[found.best]), 4), choices=len(worth),
        uncertainty=round(max(found.loss * units - low, high - found.loss * units), 4),
        loss_low=low, loss_high=high, unsure=worst if worst != label else None,
        deals=found.deals)


def smallest_iterations(start: GameState[Any], moves: Sequence[Any], *,
                        seats: Sequence[int] | None = None) -> tuple[int, int]:
    """The least budget that judges every move of ``seats`` in the game, and the index of
    the move that needs it (the one with the most legal moves; 0 if none).  Positions the
    exact solver judges count too: it may run out of its budget and hand them over."""
    state = start.copy()
    learn = learn_of(start)
    most, where = 0, 0
    for index, move in enumerate(moves, 1):
        seat = state.to_move
        if seat is None:
            raise ValueError(f"move {index} ({move}) comes after the end of the game")
        if seats is None or seat in seats:
            position = learn.searched(state)
            choices = len(position.legal_moves())
            if choices > 1 and smallest_budget(choices) > most:
                most, where = smallest_budget(choices), index
        state.push(str(move))
    return most, where


def analyse(start: GameState[Any], moves: Sequence[Any], *, seats: Sequence[int] | None = None,
            iterations: int = DEFAULT_ITERATIONS, seed: int = 0, hindsight: bool = True,
            nodes: int = HINDSIGHT_NODES,
            progress: Callable[[int, int], None] | None = None) -> list[Judgement]:
    """Judge every move of ``seats`` (all by default) in the game ``start`` + ``moves``.

    The same seed gives the same judgements (the search is seeded per move and stopped by
    its iteration budget and its own verdicts alone).  A budget too small for any move to
    be judged is refused before any is (``BudgetTooSmall``, with the smallest that
    judges).  ``nodes`` is the exact solver's budget of positions per move.
    ``progress(done, total)`` is called after each move.
    """
    state = start.copy()
    smallest, where = smallest_iterations(start, moves, seats=seats)
    if iterations < smallest:
        raise BudgetTooSmall(iterations, smallest, f" move {where} of this game")
    out = []
    total = len(moves)
    for index, move in enumerate(moves, 1):
        seat = state.to_move
        if seat is None:
            raise ValueError(f"move {index} ({move}) comes after the end of the game")
        if seats is None or seat in seats:
            out.append(judge(state, state.parse_move(str(move)), index,
                             iterations=iterations, seed=seed, hindsight=hindsight,
                             nodes=nodes))
        state.push(str(move))
        if progress is not None:
            progress(index, total)
    return out


def analyse_record(record: Any, **options: Any) -> list[Judgement]:
    """``analyse`` for a ``cardtable.records.Record``."""
    return analyse(record.start(), record.moves, **options)


def series(game: str, judgements: Sequence[Judgement], seat: int,
           sides: Sequence[int]) -> list[float]:
    """The expected result over the game for ``seat`` (the seats' sides in ``sides``):
    each judged move's expected result, seen from ``seat``'s side (with two sides, the
    other side's result turned round by the plug-in; with more, ``seat``'s moves only)."""
    learn = learn_of(game)
    out = []
    for j in judgements:
        if j.expected is None:
            continue
        if sides[j.seat] == sides[seat]:
            out.append(j.expected)
        elif len(set(sides)) == 2:
            out.append(learn.other_side(j.expected))
    return out


_BARS = "▁▂▃▄▅▆▇█"


def sparkline(series: Sequence[float], *, low: float | None = None,
              high: float | None = None) -> str:
    """A line of bars for a series (the expected result over a game), one per value.

    >>> sparkline([0, 1, 2, 3])
    '▁▃▆█'
    """
    if not series:
        return ""
    lo = min(series) if low is None else low
    hi = max(series) if high is None else high
    span = hi - lo
    if span <= 0 or not math.isfinite(span):
        return _BARS[3] * len(series)
    return "".join(_BARS[min(7, max(0, round((v - lo) / span * 7)))] for v in series)


def move_accuracy(loss: float, scale: float) -> float:
    """A move's accuracy in percent from its loss: ``100 * exp(-loss / scale)``, where
    ``scale`` is the game's mistake threshold (Pasur 2.5 points, Durak 0.10 of the chance
    of being the durak): the best move scores 100, a loss of a mistake's threshold 37.

    >>> [round(move_accuracy(loss, 2.5), 1) for loss in (0.0, 1.0, 2.5, 5.0)]
    [100.0, 67.0, 36.8, 13.5]
    """
    return 100.0 * math.exp(-max(0.0, loss) / scale)


def summary(judged: Sequence[Judgement], names: Sequence[str],
            game: str) -> list[dict[str, Any]]:
    """Per player, by seat: the moves judged (those with more than one choice), their mean
    loss in the game's unit with its 95% interval (Student's t over the moves; ``None``
    with fewer than two), how many got each label and how many were ``unsure``, and the
    accuracy: the mean of the moves' ``move_accuracy`` (``None`` with no judged move).

    >>> moves = [Judgement(0, 0, "a", "a", 0.0, None, None, None, 1.0, 1.0, 2),
    ...          Judgement(1, 1, "b", "c", 3.0, "mistake", None, None, 0.0, 3.0, 3),
    ...          Judgement(2, 0, "d", "d", 0.0, None, None, None, 1.0, 1.0, 1)]
    >>> [(p["name"], p["judged"], p["mean_loss"], p["mistake"], p["accuracy"])
    ...  for p in summary(moves, ["Ana", "Bo"], "pasur")]
    [('Ana', 1, 0.0, 0, 100.0), ('Bo', 1, 3.0, 1, 30.1)]
    """
    scale = learn_of(game).thresholds[1]
    players = []
    for seat, name in enumerate(names):
        mine = [j for j in judged if j.seat == seat and j.choices > 1]
        counts = {label: sum(j.label == label for j in mine) for label in LABELS}
        losses = [max(0.0, j.loss) for j in mine]
        mean = low = high = accuracy = None
        if losses:
            mean = sum(losses) / len(losses)
            accuracy = round(sum(move_accuracy(x, scale) for x in losses) / len(losses), 1)
        if len(losses) > 1:
            assert mean is not None
            spread = math.sqrt(sum((x - mean) ** 2 for x in losses) / (len(losses) - 1))
            half = t_quantile(1.96, len(losses) - 1) * spread / math.sqrt(len(losses))
            low, high = round(max(0.0, mean - half), 4), round(mean + half, 4)
        players.append({"seat": seat, "name": name, "judged": len(mine),
                        "mean_loss": None if mean is None else round(mean, 4),
                        "mean_loss_low": low, "mean_loss_high": high, **counts,
                        "unsure": sum(j.unsure is not None for j in mine),
                        "accuracy": accuracy})
    return players
