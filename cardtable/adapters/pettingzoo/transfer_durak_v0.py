"""``transfer_durak_v0``: one game of Transfer Durak.
``env(preset="transfer", players=2, dealer=0, loser=None, max_moves=1000)``."""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from .env import CardtableAECEnv, CardtableParallelEnv, make_env, make_parallel_env

__all__ = ["env", "parallel_env", "raw_env"]


def env(**kwargs: Any) -> AECEnv:
    """The wrapped environment (illegal actions end the game; order enforced)."""
    return make_env("durak", **kwargs)


def raw_env(**kwargs: Any) -> CardtableAECEnv:
    """The environment without PettingZoo's wrappers (an illegal action raises)."""
    return CardtableAECEnv("durak", **kwargs)


def parallel_env(**kwargs: Any) -> CardtableParallelEnv:
    """The parallel form: a dict of actions a step, the acting agent's one counting."""
    return make_parallel_env("durak", **kwargs)
