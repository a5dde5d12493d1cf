"""A single-agent Gymnasium environment: one seat against cardtable bots.

``PasurEnv`` (one hand of Pasur) and ``DurakEnv`` (one game of Transfer Durak) play the
learner's seat; every other seat is a cardtable bot (``cardtable.bots.make(opponent)``),
which decides from the engine state as it does at the table.  Observations are
``{"observation": float32 tensor, "action_mask": int8}``; actions are the episode's
numbering; the reward comes at the end and is the seat's return.  An illegal action ends
the episode with ``illegal_reward`` (default: the game's lowest return) and
``info["illegal_move"]`` saying why; the mask tells which actions are legal.

Registered ids: ``cardtable/Pasur-v0`` and ``cardtable/TransferDurak-v0``.

>>> env = PasurEnv(opponent="random")
>>> obs, info = env.reset(seed=1)
>>> obs["observation"].shape, env.action_space
((329,), Discrete(105))
>>> import numpy as np
>>> action = int(np.flatnonzero(obs["action_mask"])[0])
>>> obs, reward, terminated, truncated, info = env.step(action)
>>> terminated
False
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np

from .. import bots, games
from ..game import IllegalMove
from .base import Episode
from .episode import make as make_episode
from .pettingzoo.env import lowest_return
from .spaces import action_space, observation_space, observe

__all__ = ["ENVIRONMENTS", "CardtableEnv"]   # and each game's class, below


class CardtableEnv(gymnasium.Env):
    """One seat of a cardtable game against bots (see the module docstring).

    ``game`` is a name in ``cardtable.games`` (the first one by default); ``seat`` is the
    learner's seat; ``opponent`` is a bot spec for every other seat; ``observation`` is
    "observation" or "information_state"; other keywords go to the episode (``preset``,
    ``players``...).
    """

    # an instance variable, as gymnasium.Env declares it (gymnasium.make reads the class's)
    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(self, game: str | None = None, *, seat: int = 0, opponent: str = "random",
                 observation: str = "observation", illegal_reward: float | None = None,
                 render_mode: str | None = None, **params: Any) -> None:
        game = game or games.names()[0]
        self.game = game
        self.params = params
        self._template: Episode = make_episode(game, **params)
        if isinstance(seat, bool) or not isinstance(seat, int) \
                or not 0 <= seat < self._template.players:
            raise ValueError(f"seat must be 0 to {self._template.players - 1}, not {seat!r}")
        bots.make(opponent)   # fail early on an unknown bot
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.seat = seat
        self.opponent = opponent
        self.kind = observation
        self.render_mode = render_mode
        self.illegal_reward = (lowest_return(self._template) if illegal_reward is None
                               else float(illegal_reward))
        self.observation_space = observation_space(self._template, observation)
        self.action_space = action_space(self._template)
        self.episode = self._template.copy()
        self._rng = random.Random()
        self._bots: dict[int, Any] = {}

    def reset(self, *, seed: int | None = None, options: dict | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        self._rng = random.Random(int(self.np_random.integers(2**62)))
        self._bots = {other: bots.make(self.opponent, seed=self._rng.getrandbits(64))
                      for other in range(self._template.players) if other != self.seat}
        self.episode = self._template.copy()
        self._advance()
        return self._observe(), {}

    def _advance(self) -> None:
        """Deal and let the bots play until the learner decides or the episode ends."""
        episode = self.episode
        while True:
            episode.apply_chance(self._rng)
            seat = episode.current_player()
            if seat < 0 or seat == self.seat:
                return
            move = self._bots[seat].choose(episode.engine)
            for action in episode.actions_for(move):
                episode.apply(action)

    def _observe(self) -> dict[str, np.ndarray]:
        return observe(self.episode, self.seat, self.kind)

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool,
                                         dict[str, Any]]:
        reward, terminated, truncated, info = self.play(action)
        return self._observe(), reward, terminated, truncated, info

    def play(self, action: int) -> tuple[float, bool, bool, dict[str, Any]]:
        """``step`` without the observation (the vector environment writes its own)."""
        episode = self.episode
        if episode.is_terminal():
            raise RuntimeError("the episode is over: call reset()")
        try:
            episode.apply(int(action))
        except IllegalMove as error:
            return self.illegal_reward, True, False, {"illegal_move": str(error)}
        self._advance()
        if not episode.is_terminal():
            return 0.0, False, False, {}
        reward = float(episode.returns()[self.seat])
        cut = bool(getattr(episode, "truncated", False))
        return reward, not cut, cut, {}

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return self.episode.string(self.seat)
        return None


def _env_class(game: str, class_name: str, what: str) -> type[CardtableEnv]:
    """The environment class of one game, named as its episode says."""

    def __init__(self: CardtableEnv, **kwargs: Any) -> None:
        CardtableEnv.__init__(self, game, **kwargs)

    return type(class_name, (CardtableEnv,), {
        "__init__": __init__, "__module__": __name__, "__qualname__": class_name,
        "__doc__": f"{what[0].upper()}{what[1:]} against bots: ``{class_name}(...)``."})


ENVIRONMENTS: dict[str, type[CardtableEnv]] = {}
"""Each game's environment class by its name (``PasurEnv``...), registered with Gymnasium
under its episode's id."""

for _game in games.names():
    _spec = games.get(_game)
    if _spec.episode is None:
        continue
    _facts = _spec.plugin("episode").gymnasium_env
    if _facts is None:
        continue
    _class_name, _id, _what = _facts
    ENVIRONMENTS[_class_name] = _env_class(_game, _class_name, _what)
    if _id not in gymnasium.registry:
        gymnasium.register(id=_id, entry_point=f"{__name__}:{_class_name}")
globals().update(ENVIRONMENTS)
__all__ += list(ENVIRONMENTS)
