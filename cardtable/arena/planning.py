"""Who plays where, on which deal: every game of a run fixed in advance by one seed.

>>> [lineup for _, lineup in seatings(["A", "B"], players=2, games=4)]
[('A', 'B'), ('B', 'A'), ('A', 'B'), ('B', 'A')]
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .. import bots as botlib
from .. import games as gamelib
from ..game import GameSpec

__all__ = ["GameResult", "Task", "labels", "plan", "rules_of", "seatings"]


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
    """How one game went, per seat: what a ``Task`` comes back as (here, below both
    the running and the report, which both use it)."""

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
    """The losing seat (the durak), where the game has one."""
    moves: int
    seconds: float
    record: str | None = None
    finished: bool = True
    """False for a game stopped at ``MAX_MOVES`` (bots going round in circles): a draw."""
    cpu: tuple[float, ...] = ()
    """CPU seconds each seat's bot spent choosing its moves (this process's time)."""
    seat_moves: tuple[int, ...] = ()
    """Moves each seat made."""


def labels(bots: Sequence[str]) -> list[str]:
    """A distinct label per entrant: a repeated spec gets "#2", "#3".

    >>> labels(["greedy", "greedy", "random"])
    ['greedy', 'greedy#2', 'random']
    """
    seen: dict[str, int] = {}
    out = []
    for spec in bots:
        seen[spec] = seen.get(spec, 0) + 1
        out.append(spec if seen[spec] == 1 else f"{spec}#{seen[spec]}")
    return out


def rules_of(spec: GameSpec, rules: Any) -> Any:
    """The rules a run plays: a preset by name (``None``: the default one) or a value."""
    if rules is None or isinstance(rules, str):
        return spec.rules(rules)
    return rules


def plan(game: str, bots: Sequence[str], *, games: int, rules: Any = None,
         players: int | None = None, seed: int = 0, hands: bool = False,
         save_dir: str | Path | None = None) -> list[Task]:
    """Every game of a run, in order, with its deal and every bot's seed fixed by ``seed``."""
    spec = gamelib.get(game)
    rules = rules_of(spec, rules)
    players = players or spec.default_players
    if hands and spec.single_hand is None:
        raise ValueError(f"{spec.title} is not played in hands; --hands is for: "
                         + ", ".join(_games_in_hands()))
    for bot in bots:
        botlib.make(bot, seed=0)   # a bad spec fails here, with its reason
    spec.check_players(rules, players)
    entrants = labels(bots)
    spec_of = dict(zip(entrants, bots, strict=True))
    rng = random.Random(seed)
    tasks = []
    deal_seeds: dict[int, int] = {}
    for index, (deal, lineup) in enumerate(seatings(entrants, players=players, games=games)):
        if deal not in deal_seeds:
            deal_seeds[deal] = rng.getrandbits(63)
        bot_seeds = tuple(random.Random(deal_seeds[deal] * 64 + 8 * index + s).getrandbits(63)
                          for s in range(players))
        tasks.append(Task(index=index, game=game, rules=rules, players=players,
                          lineup=lineup, specs=tuple(spec_of[label] for label in lineup),
                          deal=deal, deal_seed=deal_seeds[deal], bot_seeds=bot_seeds,
                          hands=hands, save_dir=str(save_dir) if save_dir else None))
    return tasks


def _games_in_hands() -> list[str]:
    """The games ``--hands`` can play one hand at a time."""
    return [name for name in gamelib.names() if gamelib.get(name).single_hand is not None]
