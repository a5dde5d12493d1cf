"""Many games between bots, dealt in duplicate, with honest statistics.

Every deck is played once per seating: with K seats, the same deal is played K times with
the bots rotated one seat each time, so each bot holds every hand of every deal and the
luck of the cards cancels out.  Games run in parallel processes (``jobs``) or on a Ray
cluster, and come back in a fixed order, so a seeded run gives the same figures whatever
the number of processes.

The figures per bot: wins and win rate with a 95% Wilson interval, mean points per hand
(Pasur), durak rate (Durak), and an openskill (Plackett-Luce) rating.  With two bots the
duplicate margin is also given: the first bot's points per hand minus the second's, or
the second's durak rate minus the first's, averaged per deal, with a 95% interval.

>>> wilson(8, 10)
(0.490162..., 0.943317...)
>>> [lineup for _, lineup in seatings(["A", "B"], players=2, games=4)]
[('A', 'B'), ('B', 'A'), ('A', 'B'), ('B', 'A')]
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import random
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Annotated, Any

import typer

from . import bots as botlib
from . import games as gamelib
from .game import GameSpec, GameState

__all__ = [
    "ArenaRun",
    "GameResult",
    "Task",
    "arena_command",
    "plan",
    "play_task",
    "run",
    "seatings",
    "summarize",
    "wilson",
]

Z95 = 1.959963984540054


# -- statistics ------------------------------------------------------------------------------

def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a success rate (95% by default).

    Unlike the plain normal interval it stays inside [0, 1] and is sound for small
    samples and rates near 0 or 1.
    """
    if trials <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must be between 0 and {trials}, not {successes}")
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_ci(values: Sequence[float], z: float = Z95) -> tuple[float, tuple[float, float]]:
    """The mean and its normal 95% interval (values are independent units, e.g. deals)."""
    n = len(values)
    if n == 0:
        return (math.nan, (math.nan, math.nan))
    mean = sum(values) / n
    if n == 1:
        return (mean, (math.nan, math.nan))
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return (mean, (mean - half, mean + half))


# -- who plays where -----------------------------------------------------------------------

def seatings(bots: Sequence[str], *, players: int,
             games: int) -> list[tuple[int, tuple[str, ...]]]:
    """(deal number, the bot in each seat) for every game of a duplicate run.

    Each deal is played ``players`` times, the lineup rotated one seat each time.  With
    fewer bots than seats the bots are repeated round the table; with more, each deal
    takes the next group of ``players`` bots (every group in turn).  ``games`` is rounded
    up to whole deals.
    """
    if not bots:
        raise ValueError("name at least one bot")
    if players < 1:
        raise ValueError("a game has at least one seat")
    if len(bots) <= players:
        groups = [tuple(bots[k % len(bots)] for k in range(players))]
    else:
        groups = [tuple(bots[i] for i in combo)
                  for combo in itertools.combinations(range(len(bots)), players)]
    deals = max(1, math.ceil(games / players))
    out = []
    for deal in range(deals):
        group = groups[deal % len(groups)]
        for rotation in range(players):
            out.append((deal, tuple(group[(seat + rotation) % players]
                                    for seat in range(players))))
    return out


@dataclasses.dataclass(frozen=True)
class Task:
    """One game to play: everything a worker process needs, and nothing more."""

    index: int
    game: str
    rules: Any
    players: int
    lineup: tuple[str, ...]
    """The entrant (bot label) in each seat."""
    specs: tuple[str, ...]
    """The bot spec in each seat."""
    deal: int
    deal_seed: int
    bot_seeds: tuple[int, ...]
    hands: bool = False
    save_dir: str | None = None


@dataclasses.dataclass
class GameResult:
    """How one game went, per seat."""

    index: int
    deal: int
    lineup: tuple[str, ...]
    returns: tuple[float, ...]
    winners: tuple[int, ...]
    points: tuple[int, ...] | None
    """Points per seat over the game (its side's points), where the game scores points."""
    hands: int
    """Hands played (1 for a game that is not made of hands)."""
    loser: int | None
    """The durak's seat, where the game has one."""
    moves: int
    seconds: float
    record: str | None = None
    finished: bool = True
    """False for a game stopped at ``MAX_MOVES`` (bots going round in circles): a draw."""


def _labels(bots: Sequence[str]) -> list[str]:
    """A distinct label per entrant: a repeated spec gets "#2", "#3"."""
    seen: dict[str, int] = {}
    out = []
    for spec in bots:
        seen[spec] = seen.get(spec, 0) + 1
        out.append(spec if seen[spec] == 1 else f"{spec}#{seen[spec]}")
    return out


def plan(game: str, bots: Sequence[str], *, games: int, rules: Any = None,
         players: int | None = None, seed: int = 0, hands: bool = False,
         save_dir: str | Path | None = None) -> list[Task]:
    """Every game of a run, in order, with its deal and every bot's seed fixed by ``seed``."""
    spec = gamelib.get(game)
    rules = _rules(spec, rules)
    players = players or spec.default_players
    if hands and game not in SINGLE_HANDS:
        raise ValueError(f"{spec.title} is not played in hands; --hands is for: "
                         + ", ".join(SINGLE_HANDS))
    for bot in bots:
        botlib.make(bot, seed=0)   # a bad spec fails here, with its reason
    _check_players(spec, rules, players)
    labels = _labels(bots)
    spec_of = dict(zip(labels, bots, strict=True))
    rng = random.Random(seed)
    tasks = []
    deal_seeds: dict[int, int] = {}
    for index, (deal, lineup) in enumerate(seatings(labels, players=players, games=games)):
        if deal not in deal_seeds:
            deal_seeds[deal] = rng.getrandbits(63)
        bot_seeds = tuple(random.Random(deal_seeds[deal] * 64 + 8 * index + s).getrandbits(63)
                          for s in range(players))
        tasks.append(Task(index=index, game=game, rules=rules, players=players,
                          lineup=lineup, specs=tuple(spec_of[label] for label in lineup),
                          deal=deal, deal_seed=deal_seeds[deal], bot_seeds=bot_seeds,
                          hands=hands, save_dir=str(save_dir) if save_dir else None))
    return tasks


def _rules(spec: GameSpec, rules: Any) -> Any:
    if rules is None or isinstance(rules, str):
        return spec.rules(rules)
    return rules


def _check_players(spec: GameSpec, rules: Any, players: int) -> None:
    if players not in spec.player_counts:
        raise ValueError(f"{spec.title} is for {', '.join(map(str, spec.player_counts))} "
                         f"players, not {players}")
    spec.start(rules, players=players, seed=0)   # the rules' own player check


# -- playing one game ----------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class _SingleHands:
    """A game that can also be played one hand at a time (``--hands``)."""

    start: Callable[[Any, int, int], GameState]
    measure: Callable[[GameState], tuple[tuple[int, ...] | None, int, int | None]]
    record: Callable[[GameState, Task, list[str]], Any]


def _pasur_hand(rules: Any, players: int, seed: int) -> GameState:
    from .pasur import Hand

    return Hand.new(rules, players=players, seed=seed)


def _pasur_hand_measure(hand: Any) -> tuple[tuple[int, ...], int, None]:
    points = hand.outcome().points
    return tuple(points[hand.side_of(s)] for s in range(hand.players)), 1, None


def _pasur_hand_record(hand: Any, task: Task, moves: list[str]) -> Any:
    """A single hand is saved as the first hand of a match (it deals and replays the
    same), unfinished as a match, with the hand's points beside it."""
    from . import records

    spec = gamelib.get(task.game)
    return records.Record(
        game=task.game, preset=spec.preset_of(task.rules),
        rules=records.rules_to_dict(task.rules), players=task.players,
        seats=_seats(task), decks=[[card.text for card in hand.deck]], moves=moves,
        extra={"single_hand": True, "hand_points": list(hand.outcome().points),
               "arena": {"deal": task.deal, "index": task.index}})


SINGLE_HANDS: dict[str, _SingleHands] = {
    "pasur": _SingleHands(_pasur_hand, _pasur_hand_measure, _pasur_hand_record),
}
"""The games ``--hands`` can play one hand at a time (a third game may add one entry)."""


def _pasur_measure(match: Any) -> tuple[tuple[int, ...], int, None]:
    totals = match.totals
    return (tuple(totals[match.side_of(s)] for s in range(match.players)),
            max(1, len(match.finished_hands)), None)


def _durak_measure(game: Any) -> tuple[None, int, int | None]:
    return None, 1, game.loser


MEASURES: dict[str, Callable[[GameState], tuple[tuple[int, ...] | None, int, int | None]]] = {
    "pasur": _pasur_measure,
    "durak": _durak_measure,
}
"""Per game: (points per seat or None, hands played, the durak's seat or None)."""


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


MAX_MOVES = 20_000
"""A game still going after this many moves is stopped and counted as a draw (two bots can
pass the same cards back and forth in Durak for ever; the rules do not stop them)."""


def play_task(task: Task) -> GameResult:
    """Play one game of a run (in this process): deal, let the bots move, measure."""
    started = time.perf_counter()
    spec = gamelib.get(task.game)
    single = SINGLE_HANDS.get(task.game) if task.hands else None
    if single is not None:
        state = single.start(task.rules, task.players, task.deal_seed)
    else:
        state = spec.start(task.rules, players=task.players, seed=task.deal_seed)
    players = [botlib.make(s, seed=seed) for s, seed in zip(task.specs, task.bot_seeds,
                                                               strict=True)]
    moves: list[str] = []
    while not state.is_over() and len(moves) < MAX_MOVES:
        seat = state.to_move
        move = players[seat].choose(state)
        state.push(move)
        moves.append(str(move))
    outcome = state.outcome()
    finished = outcome is not None
    measure = single.measure if single is not None else MEASURES[task.game]
    points, hands, loser = measure(state) if finished else (None, 1, None)
    returns = tuple(outcome.returns) if finished else (0.0,) * task.players
    winners = tuple(outcome.winners) if finished else ()
    record_path = None
    if task.save_dir:
        from .records import record_of

        folder = Path(task.save_dir)
        folder.mkdir(parents=True, exist_ok=True)
        if single is not None:
            record = single.record(state, task, moves)
        else:
            record = record_of(_WithMoves(state, moves), task.game, seats=_seats(task),
                               arena={"deal": task.deal, "index": task.index})
        path = folder / f"{task.game}-{task.index:05d}.json"
        record.save(path)
        record_path = str(path)
    return GameResult(index=task.index, deal=task.deal, lineup=task.lineup,
                      returns=returns, winners=winners, points=points, hands=hands,
                      loser=loser, moves=len(moves), seconds=time.perf_counter() - started,
                      record=record_path, finished=finished)


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


# -- figures -----------------------------------------------------------------------------------

def summarize(game: str, bots: Sequence[str], results: Sequence[GameResult]) -> dict[str, Any]:
    """The figures of every bot (by label, in the order given), from finished games."""
    labels = _labels(bots)
    figures: dict[str, dict[str, Any]] = {}
    has_points = any(r.points is not None for r in results)
    has_durak = game in LOSER_GAMES
    for label in labels:
        seats = [(r, seat) for r in results for seat, who in enumerate(r.lineup)
                 if who == label]
        n = len(seats)
        wins = sum(1 for r, seat in seats if seat in r.winners)
        entry: dict[str, Any] = {
            "games": n,
            "wins": wins,
            "win_rate": wins / n if n else None,
            "ci95": list(wilson(wins, n)) if n else None,
            "mean_points": None,
            "mean_points_ci95": None,
            "durak_rate": None,
            "durak_ci95": None,
        }
        scored = [(r, seat) for r, seat in seats if r.points is not None]
        if has_points and scored:
            # points over hands played; the interval from per-deal means (a deal's
            # duplicate games are one unit, not independent draws)
            total_points = sum(r.points[seat] for r, seat in scored)
            total_hands = sum(r.hands for r, _ in scored)
            entry["mean_points"] = total_points / total_hands
            per_deal = _per_deal(scored, lambda r, seat: r.points[seat] / r.hands)
            _, ci = mean_ci(list(per_deal.values()))
            entry["mean_points_ci95"] = None if math.isnan(ci[0]) else list(ci)
        if has_durak and n:
            duraks = sum(1 for r, seat in seats if r.loser == seat)
            entry["durak_rate"] = duraks / n
            entry["durak_ci95"] = list(wilson(duraks, n))
        figures[label] = entry
    _rate(labels, results, figures)
    return figures


LOSER_GAMES = {"durak"}
"""Games with one loser (the durak), whose rate the figures report."""


def _per_deal(seats: Iterable[tuple[GameResult, int]],
              value: Callable[[GameResult, int], float]) -> dict[int, float]:
    """The mean of ``value`` per deal: duplicate games of one deal are one unit."""
    sums: dict[int, list[float]] = {}
    for result, seat in seats:
        sums.setdefault(result.deal, []).append(value(result, seat))
    return {deal: sum(v) / len(v) for deal, v in sums.items()}


def margin(game: str, bots: Sequence[str], results: Sequence[GameResult]) -> dict[str, Any] | None:
    """With two bots: how much better the first did than the second, per deal, with a
    95% interval (points per hand in Pasur; durak rate avoided in Durak)."""
    labels = _labels(bots)
    if len(labels) != 2:
        return None
    first, second = labels
    if any(r.points is not None for r in results):
        what = "points per hand"
        results = [r for r in results if r.points is not None]

        def value(r: GameResult, seat: int) -> float:
            return r.points[seat] / r.hands
    elif game in LOSER_GAMES:
        what = "durak rate of the second minus the first"

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
    mean, ci = mean_ci(per_deal)
    return {"first": first, "second": second, "measure": what, "deals": len(per_deal),
            "mean": mean, "ci95": None if math.isnan(ci[0]) else list(ci)}


def _rate(labels: Sequence[str], results: Sequence[GameResult],
          figures: dict[str, dict[str, Any]]) -> None:
    """openskill (Plackett-Luce) ratings, games taken in order; left out if not installed."""
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        for label in labels:
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
        }

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
        has_durak = any(f["durak_rate"] is not None for f in self.figures.values())
        if has_points:
            table.add_column("points/hand (95% CI)", justify="right")
        if has_durak:
            table.add_column("durak rate (95% CI)", justify="right")
        table.add_column("rating μ±σ", justify="right")
        for label, f in self.figures.items():
            row = [label, str(f["games"]), str(f["wins"]), _rate_text(f["win_rate"], f["ci95"])]
            if has_points:
                row.append(_points_text(f["mean_points"], f["mean_points_ci95"]))
            if has_durak:
                row.append(_rate_text(f["durak_rate"], f["durak_ci95"]))
            rating = f.get("rating")
            row.append(f"{rating['mu']:.1f}±{rating['sigma']:.1f}" if rating else "—")
            table.add_row(*row)
        if self.margin is not None and self.margin["ci95"] is not None:
            m = self.margin
            table.caption = (f"{m['first']} vs {m['second']}, {m['measure']}: "
                             f"{m['mean']:+.2f} [{m['ci95'][0]:+.2f}, {m['ci95'][1]:+.2f}] "
                             f"over {m['deals']} deals")
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
    from .records import rules_to_dict

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


def run(game: str, bots: Sequence[str], *, games: int, rules: Any = None,
        players: int | None = None, jobs: int = 1, seed: int = 0, hands: bool = False,
        save_dir: str | Path | None = None, ray: str | None = None,
        on_result: Callable[[GameResult], None] | None = None) -> ArenaRun:
    """Play a duplicate run between ``bots`` and work out the figures.

    ``rules`` is a preset name or a ``Rules`` value; ``hands`` plays single hands (Pasur)
    instead of whole games; ``ray`` is a Ray address, or "local" for a Ray on this machine.
    """
    started = time.perf_counter()
    spec = gamelib.get(game)
    rules_value = _rules(spec, rules)
    players = players or spec.default_players
    tasks = plan(game, bots, games=games, rules=rules_value, players=players, seed=seed,
                 hands=hands, save_dir=save_dir)
    results = execute(tasks, jobs=jobs, ray=ray, on_result=on_result)
    return ArenaRun(game=game, rules=rules_value, bots=list(bots), players=players,
                    seed=seed, hands=hands, results=results,
                    figures=summarize(game, bots, results), margin=margin(game, bots, results),
                    seconds=time.perf_counter() - started)


# -- the command -------------------------------------------------------------------------------

def _rule_options(pairs: list[str] | None) -> dict[str, Any]:
    """``name=value`` pairs to rule options; values are read as JSON when they can be."""
    options: dict[str, Any] = {}
    for pair in pairs or []:
        key, eq, value = pair.partition("=")
        if not eq:
            raise ValueError(f"rule option {pair!r} must look like name=value")
        try:
            options[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            options[key.strip()] = value
    return options


def arena_command(
    game: Annotated[str, typer.Argument(help="pasur or durak")],
    bots: Annotated[str, typer.Option(
        "--bots", help="the bots, comma separated, e.g. greedy,medium")],
    games: Annotated[int | None, typer.Option(
        "--games", help="games to play, rounded up to whole duplicate deals (default 100)")
    ] = None,
    rules: Annotated[str | None, typer.Option("--rules", help="rule preset")] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="override one rule option: name=value (repeatable)")] = None,
    players: Annotated[int | None, typer.Option("--players", help="players per game")] = None,
    hands: Annotated[int | None, typer.Option(
        "--hands", help="play this many single hands instead of whole games (Pasur)")] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="parallel processes")] = 1,
    seed: Annotated[int, typer.Option("--seed", help="seed for the deals and the bots")] = 0,
    json_path: Annotated[Path | None, typer.Option(
        "--json", help="write the figures here")] = None,
    plot: Annotated[Path | None, typer.Option(
        "--plot", help="write a PNG of win rates here")] = None,
    save_games: Annotated[Path | None, typer.Option(
        "--save-games", help="write every game's record into this folder")] = None,
    ray: Annotated[str | None, typer.Option(
        "--ray", metavar="ADDRESS",
        help="run on Ray: 'local' (a Ray started here), 'auto' or a cluster's host:port")
    ] = None,
) -> None:
    """Bots against bots on duplicate deals: win rates, points, durak rates, ratings."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    console = Console()
    try:
        spec = gamelib.get(game)
        names = botlib.split_specs(bots)
        if hands is not None and games is not None:
            raise ValueError("give --games (whole games) or --hands (single hands), not both")
        count = hands if hands is not None else games if games is not None else 100
        if count < 1:
            raise ValueError("play at least one game")
        if jobs < 1:
            raise ValueError("--jobs is 1 or more")
        chosen = spec.rules(rules, _rule_options(option))
        tasks = plan(game, names, games=count, rules=chosen, players=players, seed=seed,
                     hands=hands is not None, save_dir=save_games)
    except ValueError as error:
        raise typer.BadParameter(str(error)) from None
    started = time.perf_counter()
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=False) as progress:
        bar = progress.add_task(f"{spec.title}: {', '.join(names)}", total=len(tasks))
        try:
            results = execute(tasks, jobs=jobs, ray=ray,
                              on_result=lambda _: progress.advance(bar))
        except RuntimeError as error:
            console.print(f"[red]{error}[/red]")
            raise typer.Exit(2) from None
    outcome = ArenaRun(game=game, rules=chosen, bots=names, players=tasks[0].players,
                       seed=seed, hands=hands is not None, results=results,
                       figures=summarize(game, names, results),
                       margin=margin(game, names, results),
                       seconds=time.perf_counter() - started)
    console.print(outcome.table())
    if json_path is not None:
        json_path.write_text(json.dumps(outcome.to_json(), indent=1), encoding="utf-8")
        console.print(f"Wrote the figures to {json_path}")
    if plot is not None:
        outcome.plot(plot)
        console.print(f"Wrote the plot to {plot}")
    if save_games is not None:
        console.print(f"Wrote {len(results)} game records to {save_games}")
