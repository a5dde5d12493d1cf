"""cardtable's bot levels as players of episodes: the shared half of the OpenSpiel bot,
the PettingZoo policy and the vectorised environment's opponents.

A level decides from what its seat has seen and nothing more: before it is asked, the
cards the seat cannot see are dealt afresh (``Episode.resample``), so the engine state the
bot reads holds a deal the seat cannot tell from the true one, never the true one.  A move
made of several actions (a Pasur capture choice) is planned once and its actions given one
at a time.

>>> from cardtable.adapters.episode import make
>>> import random
>>> episode = make("pasur")
>>> episode.apply_chance(random.Random(3))
>>> player = LevelPlayer("beginner", seed=1)
>>> player.action(episode, episode.current_player()) in episode.legal_actions()
True
"""

from __future__ import annotations

import random

from .. import bots
from ..game import make_rng
from .base import Episode

__all__ = ["LEVEL_NAMES", "LevelPlayer", "check_level"]

LEVEL_NAMES = ("random", *bots.LEVELS)
"""The ladder's rungs from the bottom: the random player, then the named levels."""


def check_level(level: str) -> str:
    """``level`` if it is a bot spec ``cardtable.bots.make`` knows (a level, a kind with
    options such as ``ismcts:iterations=200``); else a ``ValueError`` naming the levels."""
    if not isinstance(level, str) or not level.strip():
        raise ValueError(f"a level is a bot name such as {', '.join(LEVEL_NAMES)}; "
                         f"not {level!r}")
    bots.make(level, seed=0)   # an unknown name or a bad option says why
    return level


class LevelPlayer:
    """Plays one cardtable bot spec (``"hard"``, ``"greedy"``, ``"medium:seconds=0.5"``)
    through an episode's actions, seeing only what its seat has seen."""

    def __init__(self, level: str = "hard", seed: int | random.Random | None = None) -> None:
        self.level = check_level(level)
        self.rng = make_rng(seed)
        self.bot = bots.make(level, seed=self.rng.getrandbits(63))
        self._plan: list[int] = []
        self._plan_from: list[int] = []

    def restart(self) -> None:
        """Forget a move half made (a new episode starts)."""
        self._plan, self._plan_from = [], []

    def action(self, episode: Episode, seat: int) -> int:
        """The next action of ``seat``, which must be the seat to act in ``episode``."""
        if episode.current_player() != seat:
            raise ValueError(f"seat {seat} is not to act (the episode is at "
                             f"{episode.current_player()})")
        so_far = episode.move_so_far()
        start_at = len(episode.history) - len(so_far)
        if (so_far and self._plan[:len(so_far)] == so_far and len(self._plan) > len(so_far)
                and self._plan_from == episode.history[:start_at]):
            return self._plan[len(so_far)]
        seen = episode.resample(seat, self.rng)
        start = seen if not so_far else type(seen).replay(seen.params(),
                                                          seen.history[:start_at])
        move = self.bot.choose(start.engine)
        actions = start.actions_for(move)
        if actions[:len(so_far)] != so_far:
            # someone else began this move: finish it the first way the engine lists
            actions = next(a for a in map(start.actions_for, start.legal_moves())
                           if a[:len(so_far)] == so_far)
        self._plan, self._plan_from = actions, episode.history[:start_at]
        return actions[len(so_far)]

    def __repr__(self) -> str:
        return f"LevelPlayer({self.level!r})"

