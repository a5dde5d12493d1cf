"""The single-agent environments pass Gymnasium's env checker and play against bots."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from cardtable.adapters.gymnasium import DurakEnv, PasurEnv


@pytest.mark.parametrize("make", [
    lambda: PasurEnv(), lambda: PasurEnv(preset="wikipedia", players=3, seat=2),
    lambda: DurakEnv(opponent="greedy"),
    lambda: gymnasium.make("cardtable/TransferDurak-v0", players=3).unwrapped,
], ids=["pasur", "pasur-3", "durak-greedy", "durak-registered"])
def test_check_env_passes(make):
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*not having a spec")
        check_env(make())


@pytest.mark.parametrize("env", [PasurEnv(opponent="greedy"), DurakEnv()],
                         ids=["pasur", "durak"])
def test_an_episode_ends_with_the_seats_return(env):
    obs, _ = env.reset(seed=4)
    rng = np.random.default_rng(4)
    done, reward = False, 0.0
    while not done:
        assert obs["action_mask"].any()
        obs, reward, terminated, truncated, _ = env.step(
            int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        done = terminated or truncated
    assert reward == env.episode.returns()[env.seat]


def test_the_same_seed_plays_the_same_episode():
    a, b = PasurEnv(opponent="greedy"), PasurEnv(opponent="greedy")
    obs_a, _ = a.reset(seed=9)
    obs_b, _ = b.reset(seed=9)
    assert np.array_equal(obs_a["observation"], obs_b["observation"])
    assert a.episode.history == b.episode.history


def test_an_illegal_action_ends_the_episode_saying_why():
    env = PasurEnv(illegal_reward=-30.0)
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-30.0, True, False)
    assert "does not hold" in info["illegal_move"] or "plays a card first" in info["illegal_move"]
