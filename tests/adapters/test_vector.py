"""The vectorised Gymnasium environment and PettingZoo's parallel form."""

from __future__ import annotations

from array import array

import numpy as np
import pytest
from pettingzoo.test import parallel_api_test as check_parallel_api

from cardtable.adapters.gymnasium import CardtableEnv
from cardtable.adapters.pettingzoo import pasur_v0, transfer_durak_v0
from cardtable.adapters.vector import CardtableVectorEnv
from cardtable.game import IllegalMove


def _first_legal(masks: np.ndarray) -> np.ndarray:
    return np.array([int(np.flatnonzero(m)[0]) if m.any() else 0 for m in masks])


@pytest.mark.parametrize("game", ["pasur", "durak"])
def test_each_row_is_the_single_environment_with_the_same_seed_and_actions(game):
    vector = CardtableVectorEnv(game, num_envs=3, opponent="beginner")
    singles = [CardtableEnv(game, opponent="beginner") for _ in range(3)]
    obs, _ = vector.reset(seed=40)
    single_obs = [env.reset(seed=40 + i)[0] for i, env in enumerate(singles)]
    ended = [False] * 3
    for _ in range(60):
        for i in range(3):
            if not ended[i]:
                assert np.array_equal(obs["observation"][i], single_obs[i]["observation"])
                assert np.array_equal(obs["action_mask"][i], single_obs[i]["action_mask"])
        actions = _first_legal(obs["action_mask"])
        obs, rewards, terminated, truncated, _ = vector.step(actions)
        for i, env in enumerate(singles):
            if ended[i]:
                continue
            single_obs[i], reward, done, cut, _ = env.step(int(actions[i]))
            assert rewards[i] == reward and terminated[i] == done and truncated[i] == cut
            ended[i] = done or cut


def test_an_ended_game_starts_again_on_the_next_step_and_its_action_is_ignored():
    vector = CardtableVectorEnv("pasur", num_envs=2, opponent="random")
    obs, _ = vector.reset(seed=1)
    for _ in range(200):
        obs, _, terminated, _, _ = vector.step(_first_legal(obs["action_mask"]))
        if terminated.any():
            break
    ended = int(np.flatnonzero(terminated)[0])
    assert not obs["action_mask"][ended].any()           # nothing to do in an ended game
    actions = _first_legal(obs["action_mask"])
    actions[ended] = 999                                  # ignored: the game starts again
    obs, rewards, terminated, _, _ = vector.step(actions)
    assert rewards[ended] == 0.0 and not terminated[ended]
    assert len(vector.envs[ended].episode.moves) <= 1     # a fresh deal (the bot may lead)
    assert obs["action_mask"][ended].any()


@pytest.mark.parametrize("game", ["durak", "pasur"])
def test_an_illegal_action_ends_that_game_with_the_penalty_and_says_why(game):
    vector = CardtableVectorEnv(game, num_envs=2, opponent="random")
    obs, _ = vector.reset(seed=3)
    actions = _first_legal(obs["action_mask"])
    illegal = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    actions[1] = illegal
    _, rewards, terminated, _, info = vector.step(actions)
    assert terminated[1] and rewards[1] == vector.envs[1].illegal_reward
    assert info["_illegal_move"].tolist() == [False, True] and info["illegal_move"][1]


@pytest.mark.parametrize("num_envs", [0, -1, 5000, True, 2.5])
def test_a_bad_number_of_environments_is_refused(num_envs):
    with pytest.raises(ValueError, match="num_envs"):
        CardtableVectorEnv("pasur", num_envs=num_envs)


def test_a_step_needs_one_action_per_environment():
    vector = CardtableVectorEnv("pasur", num_envs=2)
    vector.reset(seed=0)
    with pytest.raises(ValueError, match="one action per environment"):
        vector.step([0, 1, 2])


@pytest.mark.parametrize("module", [pasur_v0, transfer_durak_v0], ids=["pasur", "durak"])
def test_the_parallel_form_passes_pettingzoos_parallel_api_test(module):
    check_parallel_api(module.parallel_env(), num_cycles=300)   # raises on any breach


def test_in_the_parallel_form_only_the_acting_agents_action_counts():
    env = pasur_v0.parallel_env()
    obs, _ = env.reset(seed=9)
    acting = [a for a in env.agents if obs[a]["action_mask"].any()]
    assert len(acting) == 1
    other = next(a for a in env.agents if a != acting[0])
    action = int(np.flatnonzero(obs[acting[0]]["action_mask"])[0])
    env.step({acting[0]: action, other: 12345})            # the other's is ignored
    with pytest.raises(ValueError, match="is to act"):
        env.step({})
    env = transfer_durak_v0.parallel_env()
    obs, _ = env.reset(seed=9)
    acting = next(a for a in env.agents if obs[a]["action_mask"].any())
    wrong = int(np.flatnonzero(obs[acting]["action_mask"] == 0)[-1])
    with pytest.raises(IllegalMove):
        env.step({acting: wrong})


def _pure_replay(episode):
    """``episode``'s history replayed on the pure engine (the Python reference)."""
    import cardtable.adapters.durak as durak_adapter
    import cardtable.adapters.pasur as pasur_adapter
    from cardtable.durak.engine import PureGame
    from cardtable.pasur.engine import PureHand

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(durak_adapter, "Game", PureGame)
        patch.setattr(pasur_adapter, "Hand", PureHand)
        cls = pasur_adapter.PasurEpisode if episode.game == "pasur" else type(episode)
        reference = cls.replay(episode.params(), episode.history)
    assert type(reference.engine) in (PureGame, PureHand)
    return reference


def _random_legal(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    return np.array([int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in masks])


@pytest.mark.parametrize("game", ["durak", "pasur"])
def test_a_vector_stepped_in_one_core_call_is_each_environment_stepped_alone_and_the_reference(
        game):
    """Against random opponents a game is stepped in one core call for the whole vector
    (Pasur: its deal rounds dealt in the core too): each row is what a vector of that one
    environment gives (same seed, same actions), and what the episode's history replayed
    on the pure engine shows its seat (the reference writer), the opponents' moves legal,
    each card dealt from the stock, and the learner to move."""
    if not CardtableVectorEnv(game, num_envs=1, opponent="random")._batched:
        pytest.skip("the compiled core is not built")
    vector = CardtableVectorEnv(game, num_envs=4, opponent="random")
    alone = [CardtableVectorEnv(game, num_envs=1, opponent="random") for _ in range(4)]
    obs, _ = vector.reset(seed=40)
    single = [env.reset(seed=40 + i)[0] for i, env in enumerate(alone)]
    rng = np.random.default_rng(0)
    ends = 0
    for _ in range(150):
        for i, env in enumerate(vector.envs):
            assert np.array_equal(obs["observation"][i], single[i]["observation"][0])
            assert np.array_equal(obs["action_mask"][i], single[i]["action_mask"][0])
            episode = env.episode
            reference = _pure_replay(episode)
            assert reference.moves == episode.moves and reference.is_terminal() == (
                episode.is_terminal())
            tensor, views = reference.layout().new()
            reference.write(views, 0)
            assert np.array_equal(obs["observation"][i], tensor)
            mask = np.zeros(reference.num_actions, np.int8)
            if reference.current_player() == 0:
                mask[reference.legal_actions()] = 1
            assert np.array_equal(obs["action_mask"][i], mask)
        actions = _random_legal(rng, obs["action_mask"])
        obs, rewards, terminated, truncated, _ = vector.step(actions)
        for i, env in enumerate(alone):
            single[i], reward, done, cut, _ = env.step(actions[i:i + 1])
            assert (rewards[i], terminated[i], truncated[i]) == (reward[0], done[0], cut[0])
            if done[0]:
                episode = vector.envs[i].episode
                assert reward[0] == episode.returns()[0] and episode.is_terminal()
        ends += int(terminated.sum())
    assert ends >= 2


@pytest.mark.parametrize("game", ["durak", "pasur"])
def test_rows_of_the_wrong_size_are_refused_and_no_buffer_is_kept(game):
    vector = CardtableVectorEnv(game, num_envs=2, opponent="random")
    vector.reset(seed=5)
    if not vector._batched:
        pytest.skip("the pure engine steps each environment alone")
    right = {"observations": array("f", bytes(vector._observations.nbytes)),
             "masks": array("b", bytes(vector._masks.size)), "status": array("b", bytes(2))}
    for wrong in right:
        rows = {name: array(row.typecode, row) for name, row in right.items()}
        rows[wrong].append(0)   # one item too many
        with pytest.raises(ValueError, match="a row per environment"):
            vector._steps(vector._items, [-1, -1], rows["observations"], rows["masks"],
                          rows["status"], vector.envs[0].seat, vector.envs[0]._template)
        for row in rows.values():   # a buffer the core still held could not be resized
            row.append(0)
            assert not any(row)   # and nothing was written
