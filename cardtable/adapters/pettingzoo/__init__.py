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

from . import pasur_v0, transfer_durak_v0
from .env import CardtableAECEnv

__all__ = ["CardtableAECEnv", "pasur_v0", "transfer_durak_v0"]
