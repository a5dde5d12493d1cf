"""PettingZoo AEC environments for cardtable's games, used like PettingZoo's classic ones.

>>> from cardtable.adapters.pettingzoo import pasur_v0
>>> env = pasur_v0.env()
>>> env.reset(seed=42)
>>> env.agents
['player_0', 'player_1']
>>> obs, reward, termination, truncation, info = env.last()
>>> obs["observation"].shape, obs["action_mask"].shape, int(obs["action_mask"].sum()) > 0
((329,), (105,), True)
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from types import ModuleType
from typing import Any

from ... import games
from ..levels import LevelPlayer, check_level
from .env import CardtableAECEnv

__all__ = ["CardtableAECEnv", "environments", "ladder_policy"]


def environments() -> dict[str, ModuleType]:
    """Each game's environment module (``env()``, ``raw_env()``) by its PettingZoo name,
    from the games' specs; ``from cardtable.adapters.pettingzoo import NAME`` imports one."""
    names = (games.get(game).pettingzoo_name for game in games.names())
    return {name: importlib.import_module(f"{__name__}.{name}") for name in names if name}


def ladder_policy(level: str = "hard", seed: int | random.Random | None = None
                  ) -> Callable[[Any, str], int]:
    """A cardtable level as a PettingZoo policy: ``policy(env, agent) -> action``.

    It reads the cardtable environment under any wrappers (``env.unwrapped``) and plays
    ``agent``'s seat from what that agent has seen: the cards it cannot see are dealt
    afresh before the level decides.  One policy can play several agents (each keeps its
    own half-made move).

    >>> from cardtable.adapters.pettingzoo import pasur_v0
    >>> env = pasur_v0.env()
    >>> env.reset(seed=5)
    >>> policies = {"player_0": ladder_policy("easy", seed=1),
    ...             "player_1": ladder_policy("beginner", seed=2)}
    >>> for agent in env.agent_iter():
    ...     observation, reward, termination, truncation, info = env.last()
    ...     env.step(None if termination or truncation else policies[agent](env, agent))
    >>> sum(env.unwrapped.episode.returns())
    0.0
    """
    check_level(level)
    rng = random.Random(seed) if not isinstance(seed, random.Random) else seed
    players: dict[str, LevelPlayer] = {}

    def policy(env: Any, agent: str) -> int:
        base = getattr(env, "unwrapped", None)
        if not isinstance(base, CardtableAECEnv):
            raise ValueError("a ladder policy plays cardtable's PettingZoo environments")
        if agent not in base.possible_agents:
            raise ValueError(f"no agent {agent!r}; the agents are {base.possible_agents}")
        player = players.get(agent)
        if player is None:
            player = players[agent] = LevelPlayer(level, rng.getrandbits(63))
        return player.action(base.episode, base.possible_agents.index(agent))

    return policy
