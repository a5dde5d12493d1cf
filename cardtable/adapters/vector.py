"""Many games at once behind one ``gymnasium.vector.VectorEnv``: batched observations.

``CardtableVectorEnv(game, num_envs=16, opponent="random")`` keeps ``num_envs``
single-seat environments (``cardtable.adapters.gymnasium``) and returns their
observations as one ``(num_envs, size)`` float32 array and their masks as one
``(num_envs, actions)`` int8 array, written in place each step (no array is made per
environment per step).  It resets an environment that ended on the next step, as
Gymnasium's own vector environments do by default (``AutoresetMode.NEXT_STEP``: that
step's action for it is ignored and it returns the first observation of a new episode).

A game whose episode has a ``vector_stepper`` for the opponent and view (either game
against ``random``, observation view, on the compiled core) is stepped in one call: every
environment's action, its opponents' moves (and Pasur's later deal rounds) and its
observation and mask rows, with no Python step per environment.  The opponents (and
Pasur's chance nodes) then draw from the core's own generator (seeded from the
environment's), so their moves are uniform over the legal moves as the ``random`` bot's
are, but not the very moves that bot would draw.

>>> env = CardtableVectorEnv("pasur", num_envs=4, opponent="beginner")
>>> obs, info = env.reset(seed=0)
>>> obs["observation"].shape, obs["action_mask"].shape
((4, 329), (4, 105))
>>> actions = [int(np.flatnonzero(mask)[0]) for mask in obs["action_mask"]]
>>> obs, rewards, terminated, truncated, info = env.step(actions)
>>> rewards.shape, terminated.dtype
((4,), dtype('bool'))
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .gymnasium import CardtableEnv

__all__ = ["MAX_ENVS", "CardtableVectorEnv"]

MAX_ENVS = 4096
"""The most environments one vector holds."""


class CardtableVectorEnv(VectorEnv):
    """``num_envs`` games of one seat against bots, stepped together (module docstring).

    Keywords are ``CardtableEnv``'s: ``seat``, ``opponent`` (a bot spec or level),
    ``observation``, ``illegal_reward`` and the episode's own (``preset``, ``players``...).
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012

    def __init__(self, game: str | None = None, num_envs: int = 16, **kwargs: Any) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) \
                or not 1 <= num_envs <= MAX_ENVS:
            raise ValueError(f"num_envs must be 1 to {MAX_ENVS}, not {num_envs!r}")
        self.envs = [CardtableEnv(game, **kwargs) for _ in range(num_envs)]
        first = self.envs[0]
        self.num_envs = num_envs
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        layout = first.episode.layout(first.kind)
        self._observations = np.zeros((num_envs, layout.size), np.float32)
        self._masks = np.zeros((num_envs, first.episode.num_actions), np.int8)
        self._ended = np.zeros(num_envs, bool)
        self._rewards = np.zeros(num_envs, np.float64)
        self._terminated = np.zeros(num_envs, bool)
        self._truncated = np.zeros(num_envs, bool)
        self._steps = first.episode.vector_stepper(first.opponent, first.kind)
        self._batched = self._steps is not None
        if self._batched:
            self._status = np.zeros(num_envs, np.int8)
            self._states = [bytearray(32) for _ in range(num_envs)]
            self._items: list[tuple[Any, ...]] = [() for _ in range(num_envs)]

    def _write(self, i: int) -> None:
        """Encode environment ``i``'s observation and mask into row ``i``."""
        env = self.envs[i]
        episode = env.episode
        episode.encode(self._observations[i], env.seat, env.kind)
        mask = self._masks[i]
        mask.fill(0)
        if episode.current_player() == env.seat:
            mask[episode.legal_actions()] = 1

    def _batch(self) -> dict[str, np.ndarray]:
        return {"observation": self._observations.copy(), "action_mask": self._masks.copy()}

    def reset(self, *, seed: int | Sequence[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict]:
        if seed is None:
            seeds: list[int | None] = [None] * self.num_envs
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"give one seed per environment ({self.num_envs})")
        if self._batched:
            for i, one in enumerate(seeds):
                self._deal(i, one)
            self._step_all([-1] * self.num_envs)
            self._ended[:] = False
            return self._batch(), {}
        for i, (env, one) in enumerate(zip(self.envs, seeds, strict=True)):
            env.reset(seed=one)
            self._write(i)
        self._ended[:] = False
        return self._batch(), {}

    # -- on the compiled core: every environment in one call ------------------------------

    def _deal(self, i: int, seed: int | None) -> None:
        """Start environment ``i``'s next game, dealt as ``CardtableEnv.reset`` deals it
        (its generator seeded the same way), its opponents' generator seeded from it."""
        env = self.envs[i]
        gymnasium.Env.reset(env, seed=seed)
        env._rng = random.Random(int(env.np_random.integers(2**62)))
        env.episode = env._template.copy()
        env.episode.apply_chance(env._rng)
        self._states[i][:] = env._rng.randbytes(32)
        if not any(self._states[i]):   # (xoshiro's one state it cannot leave)
            self._states[i][0] = 1
        self._items[i] = env.episode.vector_item(self._states[i])

    def _step_all(self, actions: list[int]) -> None:
        """One core call for every environment (``episode_steps``), then each episode's
        Python fields brought up to date."""
        self._steps(self._items, actions, self._observations, self._masks, self._status,
                    self.envs[0].seat, self.envs[0]._template)
        for env, action, status in zip(self.envs, actions, self._status.tolist(),
                                       strict=True):
            if action != -2:
                env.episode.vector_synced(status)

    def _step_batched(self, actions: np.ndarray) -> tuple[np.ndarray, dict[int, str]]:
        rewards, terminated, truncated = self._rewards, self._terminated, self._truncated
        ended = self._ended.tolist()
        size = self._masks.shape[1]
        wanted = [int(a) for a in actions.tolist()]
        for i, action in enumerate(wanted):
            if ended[i]:
                self._deal(i, None)
                wanted[i] = -1
            elif not 0 <= action < size:   # (out of range: no environment has it, refused)
                wanted[i] = size
        self._step_all(wanted)
        illegal: dict[int, str] = {}
        rewards[:], terminated[:], truncated[:] = 0.0, False, False
        for i, status in enumerate(self._status.tolist()):
            if not status or ended[i]:
                continue
            env = self.envs[i]
            if status == 1:
                rewards[i], terminated[i] = float(env.episode.returns()[env.seat]), True
            elif status == 2:
                truncated[i] = True
            elif status == 3:
                illegal[i] = env.episode.why_not(int(actions[i]))
                rewards[i], terminated[i] = env.illegal_reward, True
        return rewards, illegal

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray,
                                         np.ndarray, dict[str, Any]]:
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise ValueError(f"give one action per environment: shape ({self.num_envs},), "
                             f"not {actions.shape}")
        rewards, terminated, truncated = self._rewards, self._terminated, self._truncated
        illegal: dict[int, str] = {}
        if self._batched:
            rewards, illegal = self._step_batched(actions)
        for i, env in enumerate(self.envs if not self._batched else ()):
            if self._ended[i]:
                env.reset()
                rewards[i], terminated[i], truncated[i] = 0.0, False, False
            else:
                reward, done, cut, info = env.play(int(actions[i]))
                rewards[i], terminated[i], truncated[i] = reward, done, cut
                if "illegal_move" in info:
                    illegal[i] = info["illegal_move"]
            self._write(i)
        self._ended[:] = terminated | truncated
        infos: dict[str, Any] = {}
        if illegal:
            infos["illegal_move"] = np.array([illegal.get(i, "") for i in range(self.num_envs)],
                                             dtype=object)
            infos["_illegal_move"] = np.array([i in illegal for i in range(self.num_envs)])
        return (self._batch(), rewards.copy(), terminated.copy(), truncated.copy(), infos)

    def close_extras(self, **kwargs: Any) -> None:
        pass
