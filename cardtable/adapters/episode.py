"""The episode of any game by name: the class its ``GameSpec.episode`` names.

>>> episode = make("pasur", preset="turkish", players=3)
>>> episode.num_actions, episode.players
(105, 3)
>>> make("durak").num_actions
3200
"""

from __future__ import annotations

from typing import Any

from .. import games
from .base import CHANCE, TERMINAL, Episode, Layout

__all__ = ["CHANCE", "TERMINAL", "Episode", "Layout", "episode_class", "make"]


def episode_class(game: str) -> type[Episode]:
    """The episode class of ``game``; a game without one (or no such game) says which
    games have one."""
    try:
        spec = games.get(game)
    except ValueError:
        spec = None
    if spec is None or spec.episode is None:
        having = [name for name in games.names() if games.get(name).episode is not None]
        raise ValueError(f"no episode for {game!r}; the games are: {', '.join(having)}")
    cls: type[Episode] = spec.plugin("episode")
    return cls


def make(game: str, **params: Any) -> Episode:
    """A fresh episode of ``game`` (a name in ``cardtable.games``) with its own parameters."""
    return episode_class(game)(**params)
