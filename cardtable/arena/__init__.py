"""Many games between bots, dealt in duplicate, with honest statistics.

Every deck is played once per seating: with K seats, the same deal is played K times with
the bots rotated one seat each time, so each bot holds every hand of every deal and the
luck of the cards cancels out.  Games run in parallel processes (``jobs``) or on a Ray
cluster, and come back in a fixed order, so a seeded run gives the same figures whatever
the number of processes.

The figures per bot: wins and win rate with a 95% Wilson interval, mean points per hand
(games that score points, as Pasur), the rate of losing (games with one loser, as Durak's
durak), and an openskill (Plackett-Luce) rating.  With two bots the duplicate margin is
also given, per deal with a 95% interval.  A table is one unit: a bot in two seats of one
game counts once, with the share of its seats that won; a bot that played no game is
named in ``warnings``.  What a game scores, whether it has a loser and
whether it can be played one hand at a time come from its ``GameSpec`` (``measure``,
``has_loser``, ``single_hand``); nothing here names a game.

The parts: ``statistics`` (intervals), ``planning`` (who plays where, on which deal),
``running`` (playing the games, here, in processes or on Ray) and ``report`` (the
figures, JSON, table and plot).  The command, ``cardtable arena``, is in ``cardtable.cli``.

>>> wilson(8, 10)
(0.490162..., 0.943317...)
>>> [lineup for _, lineup in seatings(["A", "B"], players=2, games=4)]
[('A', 'B'), ('B', 'A'), ('A', 'B'), ('B', 'A')]
"""

from __future__ import annotations

from .planning import GameResult, Task, labels, plan, rules_of, seatings
from .report import ArenaRun, margin, summarize
from .running import execute, play_plan, play_task, run
from .statistics import Z95, bounded_mean_ci, mean_ci, t_mean_ci, wilson

__all__ = [
    "Z95",
    "ArenaRun",
    "GameResult",
    "Task",
    "bounded_mean_ci",
    "execute",
    "labels",
    "margin",
    "mean_ci",
    "plan",
    "play_plan",
    "play_task",
    "rules_of",
    "run",
    "seatings",
    "summarize",
    "t_mean_ci",
    "wilson",
]
