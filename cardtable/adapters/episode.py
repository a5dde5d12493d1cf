"""The episodes of every game, by name.

>>> episode = make("pasur", preset="turkish", players=3)
>>> episode.num_actions, episode.players
(105, 3)
>>> make("durak").num_actions
3200
"""

from __future__ import annotations

from typing import Any

from .base import CHANCE, TERMINAL, Episode, Layout
from .durak import DurakEpisode
from .pasur import PasurEpisode

__all__ = ["CHANCE", "EPISODES", "TERMINAL", "DurakEpisode", "Episode", "Layout",
           "PasurEpisode", "make"]

EPISODES: dict[str, type[Episode]] = {"pasur": PasurEpisode, "durak": DurakEpisode}


def make(game: str, **params: Any) -> Episode:
    """A fresh episode of ``game`` ("pasur" or "durak") with its own parameters."""
    cls = EPISODES.get(game)
    if cls is None:
        raise ValueError(f"no episode for {game!r}; the games are: {', '.join(EPISODES)}")
    return cls(**params)
