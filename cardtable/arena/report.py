"""The figures of a run: per bot wins, rates, points per hand, losing rate and rating; with
two bots the duplicate margin; the whole run as JSON, a Rich table and a plot.

The figures per bot: wins and win rate with a 95% Wilson interval, mean points per hand
(games that score points), the rate of losing (games with one loser, the durak), and an
openskill (Plackett-Luce) rating.  With two bots the duplicate margin is also given: the
first bot's points per hand minus the second's, or the second's losing rate minus the
first's, averaged per deal, with a 95% interval.

The units are honest: a game (a table) counts once for each bot at it, however many of
its seats the bot holds (its share of those seats' wins or losses), and the duplicate
games of one deal are one unit for points and margins.  Intervals of rates and of
differences of rates stay inside what is possible, and none is of zero width from a few
deals (``statistics.bounded_mean_ci``, ``statistics.t_mean_ci``).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from .. import games as gamelib
from .planning import GameResult
from .planning import labels as _labels
from .statistics import bounded_mean_ci, t_mean_ci, wilson

__all__ = ["ArenaRun", "margin", "summarize", "warnings"]


def _loser_names() -> list[str]:
    """What the registered games call their one loser ("durak"): the figures keep a rate
    for each, so that every game's figures have the same keys."""
    names = (gamelib.get(name).loser for name in gamelib.names())
    return list(dict.fromkeys(name for name in names if name))


def summarize(game: str, bots: Sequence[str], results: Sequence[GameResult]) -> dict[str, Any]:
    """The figures of every bot (by label, in the order given), from finished games."""
    labels = _labels(bots)
    figures: dict[str, dict[str, Any]] = {}
    has_points = any(r.points is not None for r in results)
    loser = gamelib.get(game).loser
    for label in labels:
        seats = [(r, seat) for r in results for seat, who in enumerate(r.lineup)
                 if who == label]
        tables = [r for r in results if label in r.lineup]
        n = len(tables)
        wins = sum(1 for r, seat in seats if seat in r.winners)
        # one unit per table: the share of the bot's seats at it that won
        won = sum(_share(r, label, lambda r, seat: seat in r.winners) for r in tables)
        entry: dict[str, Any] = {
            "games": n,
            "wins": wins,
            "win_rate": won / n if n else None,
            "ci95": list(wilson(won, n)) if n else None,
            "mean_points": None,
            "mean_points_ci95": None,
        }
        for name in _loser_names():          # e.g. "durak_rate", "durak_ci95"
            entry[f"{name}_rate"] = entry[f"{name}_ci95"] = None
        scored = [(r, seat) for r, seat in seats if r.points is not None]
        if has_points and scored:
            # points over hands played; the interval from per-deal means (a deal's
            # duplicate games are one unit, not independent draws)
            total_points = sum(_points(r)[seat] for r, seat in scored)
            total_hands = sum(r.hands for r, _ in scored)
            entry["mean_points"] = total_points / total_hands
            per_deal = _per_deal(scored, lambda r, seat: _points(r)[seat] / r.hands)
            _, ci = t_mean_ci(list(per_deal.values()))
            entry["mean_points_ci95"] = None if ci is None else list(ci)
        # a game with one loser that ended without one (an emptied last defence, or
        # stopped going round in circles) is a draw; null where the game has no loser
        entry["draws"] = sum(1 for r in tables if r.loser is None) if loser else None
        if loser and n:
            lost = sum(_share(r, label, lambda r, seat: r.loser == seat) for r in tables)
            entry[f"{loser}_rate"] = lost / n
            entry[f"{loser}_ci95"] = list(wilson(lost, n))
        figures[label] = entry
    _rate(labels, results, figures)
    return figures


def _points(result: GameResult) -> tuple[int, ...]:
    """The points per seat of a game that scores them (callers keep only those games)."""
    assert result.points is not None, "this game scores no points"
    return result.points


def _share(result: GameResult, label: str,
           happened: Callable[[GameResult, int], bool]) -> float:
    """The share of ``label``'s seats at one table where ``happened``: a table is one unit."""
    seats = [seat for seat, who in enumerate(result.lineup) if who == label]
    return sum(1 for seat in seats if happened(result, seat)) / len(seats)


def warnings(figures: dict[str, dict[str, Any]]) -> list[str]:
    """What the reader must know before trusting the figures: bots that played no game.

    >>> warnings({"a": {"games": 3}, "b": {"games": 0}})
    ['b played no game: play more games (every group of bots plays in turn)']
    """
    out = [f"{label} played no game: play more games (every group of bots plays in turn)"
           for label, entry in figures.items() if not entry["games"]]
    if figures and all(entry.get("rating", 0) is None for entry in figures.values()):
        out.append(f"no ratings: {_unrated()}")
    return out


def _unrated() -> str:
    """Why no rating could be computed."""
    import importlib.util

    if importlib.util.find_spec("openskill") is None:
        return "openskill is not installed (pip install 'cardtable[arena]')"
    return "no game set two different bots against each other"


def _per_deal(seats: Iterable[tuple[GameResult, int]],
              value: Callable[[GameResult, int], float]) -> dict[int, float]:
    """The mean of ``value`` per deal: duplicate games of one deal are one unit."""
    sums: dict[int, list[float]] = {}
    for result, seat in seats:
        sums.setdefault(result.deal, []).append(value(result, seat))
    return {deal: sum(v) / len(v) for deal, v in sums.items()}


def margin(game: str, bots: Sequence[str], results: Sequence[GameResult]) -> dict[str, Any] | None:
    """With two bots: how much better the first did than the second, per deal, with a
    95% interval: points per hand where the game scores points, else the losing rate
    avoided where it has one loser, else wins."""
    labels = _labels(bots)
    if len(labels) != 2:
        return None
    first, second = labels
    bounds: tuple[float, float] | None = (-1.0, 1.0)    # a difference of two rates
    if any(r.points is not None for r in results):
        what = "points per hand"
        bounds = None
        results = [r for r in results if r.points is not None]

        def value(r: GameResult, seat: int) -> float:
            return _points(r)[seat] / r.hands
    elif gamelib.get(game).has_loser:
        what = f"{gamelib.get(game).loser} rate of the second minus the first"

        def value(r: GameResult, seat: int) -> float:
            return -1.0 if r.loser == seat else 0.0
    else:
        what = "wins"

        def value(r: GameResult, seat: int) -> float:
            return 1.0 if seat in r.winners else 0.0
    diffs: dict[int, list[float]] = {}
    for r in results:
        a = [value(r, s) for s, who in enumerate(r.lineup) if who == first]
        b = [value(r, s) for s, who in enumerate(r.lineup) if who == second]
        if a and b:
            diffs.setdefault(r.deal, []).append(sum(a) / len(a) - sum(b) / len(b))
    per_deal = [sum(v) / len(v) for v in diffs.values()]
    ci: tuple[float, float] | None
    if not per_deal:
        mean, ci = math.nan, None
    elif bounds is not None:
        mean, ci = bounded_mean_ci(per_deal, *bounds)
    else:
        mean, ci = t_mean_ci(per_deal)
    return {"first": first, "second": second, "measure": what, "deals": len(per_deal),
            "mean": mean, "ci95": None if ci is None else list(ci)}


def _rate(labels: Sequence[str], results: Sequence[GameResult],
          figures: dict[str, dict[str, Any]]) -> None:
    """openskill (Plackett-Luce) ratings, games taken in order; left out if not installed."""
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        for label in labels:
            figures[label]["rating"] = None
        return
    if not any(len(set(r.lineup)) > 1 for r in results):
        for label in labels:                   # nothing to rate one bot against
            figures[label]["rating"] = None
        return
    model = PlackettLuce()
    ratings = {label: model.rating(name=label) for label in labels}
    for r in results:
        present = list(dict.fromkeys(r.lineup))
        if len(present) < 2:
            continue
        score = {label: sum(r.returns[s] for s, who in enumerate(r.lineup) if who == label)
                 / r.lineup.count(label) for label in present}
        teams = [[ratings[label]] for label in present]
        new = model.rate(teams, scores=[score[label] for label in present])
        for label, (rating,) in zip(present, new, strict=True):
            ratings[label] = rating
    for label in labels:
        rating = ratings[label]
        figures[label]["rating"] = {"mu": rating.mu, "sigma": rating.sigma,
                                    "ordinal": rating.ordinal()}


@dataclasses.dataclass
class ArenaRun:
    """A finished run: what was played, every game, and the figures."""

    game: str
    rules: Any
    bots: list[str]
    players: int
    seed: int
    hands: bool
    results: list[GameResult]
    figures: dict[str, dict[str, Any]]
    margin: dict[str, Any] | None
    seconds: float

    @property
    def preset(self) -> str | None:
        return gamelib.get(self.game).preset_of(self.rules)

    def to_json(self) -> dict[str, Any]:
        """The run as JSON-able data: the documented keys first, then the extras."""
        return {
            "game": self.game,
            "rules": self.preset if self.preset is not None else _rules_dict(self.rules),
            "bots": list(self.bots),
            "games": len(self.results),
            "results": self.figures,
            "players": self.players,
            "seed": self.seed,
            "unit": "hand" if self.hands else "game",
            "deals": len({r.deal for r in self.results}),
            "margin": self.margin,
            "seconds": self.seconds,
            "warnings": self.warnings,
        }

    @property
    def warnings(self) -> list[str]:
        """Bots that played no game (see ``warnings``)."""
        return warnings(self.figures)

    def table(self) -> Any:
        """The results as a Rich table."""
        from rich.table import Table

        spec = gamelib.get(self.game)
        unit = "hands" if self.hands else "games"
        title = (f"{spec.title} arena: {len(self.results)} {unit}, "
                 f"{len({r.deal for r in self.results})} deals in duplicate, "
                 f"{self.players} players, rules {self.preset or 'custom'}")
        table = Table(title=title)
        table.add_column("bot")
        table.add_column(unit, justify="right")
        table.add_column("wins", justify="right")
        table.add_column("win rate (95% CI)", justify="right")
        has_points = any(f["mean_points"] is not None for f in self.figures.values())
        loser = spec.loser
        has_loser = loser is not None and any(f.get(f"{loser}_rate") is not None
                                              for f in self.figures.values())
        if has_points:
            table.add_column("points/hand (95% CI)", justify="right")
        if has_loser:
            table.add_column("draws", justify="right")
            table.add_column(f"{loser} rate (95% CI)", justify="right")
        table.add_column("rating μ±σ", justify="right")
        for label, f in self.figures.items():
            row = [label, str(f["games"]), str(f["wins"]), _rate_text(f["win_rate"], f["ci95"])]
            if has_points:
                row.append(_points_text(f["mean_points"], f["mean_points_ci95"]))
            if has_loser:
                row.append(str(f.get("draws", 0)))
                row.append(_rate_text(f[f"{loser}_rate"], f[f"{loser}_ci95"]))
            rating = f.get("rating")
            row.append(f"{rating['mu']:.1f}±{rating['sigma']:.1f}" if rating else "—")
            table.add_row(*row)
        m = self.margin
        if m is not None and m["deals"]:
            spread = (f" [{m['ci95'][0]:+.2f}, {m['ci95'][1]:+.2f}]" if m["ci95"] is not None
                      else " (too few deals for an interval)")
            table.caption = (f"{m['first']} vs {m['second']}, {m['measure']}: "
                             f"{m['mean']:+.2f}{spread} over {m['deals']} deals")
        return table

    def plot(self, path: str | Path) -> None:
        """A PNG of each bot's win rate with its 95% interval."""
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        labels = list(self.figures)
        rates = [self.figures[b]["win_rate"] or 0.0 for b in labels]
        lows = [r - (self.figures[b]["ci95"] or [r, r])[0] for b, r in zip(labels, rates,
                                                                          strict=True)]
        highs = [(self.figures[b]["ci95"] or [r, r])[1] - r for b, r in zip(labels, rates,
                                                                           strict=True)]
        fig, ax = plt.subplots(figsize=(max(4.0, 1.2 * len(labels) + 2), 3.5))
        ax.bar(labels, rates, yerr=[lows, highs], capsize=6, color="#4c72b0")
        ax.set_ylim(0, 1)
        ax.set_ylabel("win rate (95% Wilson interval)")
        unit = "hands" if self.hands else "games"
        ax.set_title(f"{gamelib.get(self.game).title}: {len(self.results)} {unit} in duplicate")
        fig.tight_layout()
        fig.savefig(path, format="png")
        plt.close(fig)


def _rules_dict(rules: Any) -> dict[str, Any]:
    from ..records import rules_to_dict

    return rules_to_dict(rules)


def _rate_text(rate: float | None, ci: list[float] | None) -> str:
    if rate is None or ci is None:
        return "—"
    return f"{rate:.1%} [{ci[0]:.1%}, {ci[1]:.1%}]"


def _points_text(mean: float | None, ci: list[float] | None) -> str:
    if mean is None:
        return "—"
    if ci is None:
        return f"{mean:.2f}"
    return f"{mean:.2f} [{ci[0]:.2f}, {ci[1]:.2f}]"
