"""The AEC environment behind ``pasur_v0`` and ``transfer_durak_v0``."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers

from ... import games
from ..base import Episode
from ..episode import make as make_episode
from ..spaces import action_space, observation_space, observe

__all__ = ["CardtableAECEnv", "CardtableParallelEnv", "env_name", "lowest_return", "make_env",
           "make_parallel_env"]


def env_name(game: str) -> str:
    """The environment's PettingZoo name: the one the game's spec gives, else ``game_v0``."""
    return games.get(game).pettingzoo_name or f"{game}_v0"


class CardtableAECEnv(AECEnv, EzPickle):
    """A cardtable game as a PettingZoo AEC environment.

    Agents are ``player_0`` .. ``player_{n-1}`` (the engine's seats).  Chance (the deal)
    is drawn inside the environment from a generator seeded by ``reset(seed=...)``.  Each
    observation is ``{"observation": float32 tensor, "action_mask": int8}``; the mask is
    zero for every agent but the one to act.  Rewards arrive at the end: the episode's
    returns (see docs/research.md).  A Pasur capture choice is a second step by the same
    agent.  A Durak game cut off at ``max_moves`` ends with every agent truncated.
    """

    # PettingZoo reads it from the class and from the instance, which names its game (below)
    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"],  # noqa: RUF012
                                "name": "cardtable", "is_parallelizable": False}

    def __init__(self, game: str | None = None, *, render_mode: str | None = None,
                 observation: str = "observation", **params: Any) -> None:
        game = game or games.names()[0]
        EzPickle.__init__(self, game, render_mode=render_mode, observation=observation,
                          **params)
        super().__init__()
        self.game = game
        self.params = params
        self.kind = observation
        self.render_mode = render_mode
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self._template = make_episode(game, **params)
        self._template.layout(observation)   # checks the kind
        self.metadata = {**self.metadata, "name": env_name(game)}
        self.possible_agents = [f"player_{seat}" for seat in range(self._template.players)]
        obs_space = observation_space(self._template, observation)
        self.observation_spaces = {agent: obs_space for agent in self.possible_agents}
        self.action_spaces = {agent: action_space(self._template)
                              for agent in self.possible_agents}
        self._rng = random.Random()
        self.episode: Episode = self._template.copy()

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def _agent(self, seat: int) -> str:
        return self.possible_agents[seat]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.episode = self._template.copy()
        self.episode.apply_chance(self._rng)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self._agent(self.episode.current_player())

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        return observe(self.episode, seat, self.kind, to_act=agent == self.agent_selection)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise TypeError(f"{agent} is still playing: it steps with an action, not None")
        self._cumulative_rewards[agent] = 0.0
        episode = self.episode
        episode.apply(int(action))          # an illegal action raises IllegalMove
        episode.apply_chance(self._rng)
        if episode.is_terminal():
            returns = episode.returns()
            cut = bool(getattr(episode, "truncated", False))
            for seat, name in enumerate(self.possible_agents):
                self.rewards[name] = float(returns[seat])
                self.terminations[name] = not cut
                self.truncations[name] = cut
        else:
            self.agent_selection = self._agent(episode.current_player())
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The public view (no hand shown), with whose turn it is."""
        text = self.episode.string(0, "observation", private="none")
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def make_env(game: str, illegal_reward: float | None = None, **kwargs: Any) -> AECEnv:
    """The wrapped environment, as PettingZoo's classic games are: an illegal action ends
    the game with ``illegal_reward`` for the agent that made it (default: the game's
    lowest return) and 0 for the others."""
    env = CardtableAECEnv(game, **kwargs)
    if illegal_reward is None:
        illegal_reward = lowest_return(env.episode)
    env = wrappers.TerminateIllegalWrapper(env, illegal_reward=illegal_reward)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)


def lowest_return(episode: Episode) -> float:
    """The lowest return a seat can get in one episode of this game."""
    return episode.utility_range()[0]


class CardtableParallelEnv(ParallelEnv):
    """The same game in PettingZoo's parallel form: every agent is given an observation
    each step and ``step`` takes a dict of actions, of which only the acting agent's counts
    (the others have an all-zero mask; their actions, if any, are ignored).  A Pasur
    capture choice is a second step by the same agent.  Rewards arrive at the end.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"],  # noqa: RUF012
                                "name": "cardtable_parallel", "is_parallelizable": True}

    def __init__(self, game: str | None = None, *, render_mode: str | None = None,
                 observation: str = "observation", **params: Any) -> None:
        self.aec = CardtableAECEnv(game, render_mode=None, observation=observation, **params)
        self.render_mode = render_mode
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.metadata = {**self.metadata, "name": self.aec.metadata["name"]}
        self.possible_agents = self.aec.possible_agents[:]
        self.observation_spaces = self.aec.observation_spaces
        self.action_spaces = self.aec.action_spaces
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        return {agent: self.aec.observe(agent) for agent in self.agents}

    def reset(self, seed: int | None = None, options: dict | None = None
              ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict]]:
        self.aec.reset(seed=seed, options=options)
        self.agents = self.aec.agents[:]
        return self._observations(), {agent: {} for agent in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        if not self.agents:
            raise RuntimeError("the episode is over: call reset()")
        acting = self.aec.agent_selection
        if acting not in actions or actions[acting] is None:
            raise ValueError(f"{acting} is to act: give its action")
        self.aec.step(int(actions[acting]))      # an illegal action raises IllegalMove
        observations = self._observations()
        rewards = {agent: self.aec.rewards[agent] for agent in self.agents}
        terminations = {agent: self.aec.terminations[agent] for agent in self.agents}
        truncations = {agent: self.aec.truncations[agent] for agent in self.agents}
        infos: dict[str, dict] = {agent: {} for agent in self.agents}
        if any(terminations.values()) or any(truncations.values()):
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        return self.aec.render() if self.render_mode == "ansi" else None

    def close(self) -> None:
        pass


def make_parallel_env(game: str, **kwargs: Any) -> CardtableParallelEnv:
    """The parallel environment of ``game`` (an illegal action raises ``IllegalMove``)."""
    return CardtableParallelEnv(game, **kwargs)
