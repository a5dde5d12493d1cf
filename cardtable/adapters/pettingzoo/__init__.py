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
from types import ModuleType

from ... import games
from .env import CardtableAECEnv

__all__ = ["CardtableAECEnv", "environments"]


def environments() -> dict[str, ModuleType]:
    """Each game's environment module (``env()``, ``raw_env()``) by its PettingZoo name,
    from the games' specs; ``from cardtable.adapters.pettingzoo import NAME`` imports one."""
    names = (games.get(game).pettingzoo_name for game in games.names())
    return {name: importlib.import_module(f"{__name__}.{name}") for name in names if name}
