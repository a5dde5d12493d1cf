"""The pyspiel games pass OpenSpiel's own checks and play with OpenSpiel's ISMCTS."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pyspiel
import pytest
from adapter_helpers import deck
from hypothesis import given, settings
from hypothesis import strategies as st
from open_spiel.python.observation import make_observation

from cardtable import arena
from cardtable.adapters import openspiel
from cardtable.pasur import PRESETS, Hand

GAMES = [
    ("python_pasur", {}),
    ("python_pasur", {"preset": "wikipedia", "players": 3}),
    ("python_pasur", {"preset": "turkish", "players": 4}),
    ("python_pasur", {"preset": "multicapture", "players": 2, "leader": 1}),
    ("python_transfer_durak", {}),
    ("python_transfer_durak", {"players": 3}),
    ("python_transfer_durak", {"players": 6}),
]


@pytest.mark.parametrize(("name", "params"), GAMES, ids=lambda v: str(v))
def test_random_simulation_passes_openspiels_checks(name, params):
    """pyspiel.random_sim_test: legal actions, chance outcomes, clone, serialization,
    tensors, returns within the utility range."""
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def _random_state(game, rng: np.random.RandomState, steps: int):
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choice(actions, p=probs))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize(("name", "params"), GAMES[::2], ids=lambda v: str(v))
def test_openspiels_python_game_simulation_test_passes(name, params):
    """open_spiel.python.tests.games_sim_test's sim_game: pickling the game, its type and
    states, pyspiel serialization, clones compared at every move, returns in range.  It
    raises AssertionError on the first check that fails."""
    from open_spiel.python.tests import games_sim_test

    games_sim_test.GamesSimTest("sim_game").sim_game(pyspiel.load_game(name, params))


@pytest.mark.parametrize("name", ["python_pasur", "python_transfer_durak"])
def test_serialize_deserialize_and_pickle_give_the_same_state(name):
    game = pyspiel.load_game(name)
    rng = np.random.RandomState(3)
    for steps in (0, 20, 70, 130):
        state = _random_state(game, rng, steps)
        text = pyspiel.serialize_game_and_state(game, state)
        game2, state2 = pyspiel.deserialize_game_and_state(text)
        assert str(game2) == str(game)
        assert str(state2) == str(state) and state2.history() == state.history()
        unpickled = pickle.loads(pickle.dumps(state))
        assert str(unpickled) == str(state) and unpickled.history() == state.history()
        if not state.is_terminal():
            player = max(state.current_player(), 0)
            assert state2.information_state_string(player) == \
                state.information_state_string(player)


@pytest.mark.parametrize("name", ["python_pasur", "python_transfer_durak"])
def test_a_clone_is_equal_and_independent(name):
    game = pyspiel.load_game(name)
    state = _random_state(game, np.random.RandomState(5), 60)
    clone = state.clone()
    assert str(clone) == str(state) and clone.history() == state.history()
    before = str(state)
    clone.apply_action(clone.legal_actions()[0])
    assert str(state) == before and len(clone.history()) == len(state.history()) + 1


@pytest.mark.parametrize("name", ["python_pasur", "python_transfer_durak"])
def test_every_copy_of_a_state_plays_its_own_episode(name):
    """The episode's methods set on a state (``_BOUND``) answer for that state's own
    episode in a clone, a deep copy, an unpickled and a deserialized state: an action on
    the copy leaves the original as it was, and the other way round."""
    import copy

    game = pyspiel.load_game(name)
    state = _random_state(game, np.random.RandomState(11), 70)
    state.note = ["mine"]   # another attribute: deep-copied by a clone, as pyspiel does
    twin = state.clone()
    assert twin.note == ["mine"] and twin.note is not state.note
    del state.note
    copies = [state.clone(), copy.deepcopy(state), pickle.loads(pickle.dumps(state)),
              pyspiel.deserialize_game_and_state(
                  pyspiel.serialize_game_and_state(game, state))[1]]
    for other in copies:
        before, theirs = str(state), str(other)
        assert theirs == before
        other.apply_action(other.legal_actions()[0])
        assert str(state) == before and len(other.episode.history) == len(other.history())
        state.apply_action(state.legal_actions()[-1])
        assert str(other) != str(state)
        for mine in openspiel._BOUND:
            assert getattr(other, mine).args == (other.episode,)
        state = _random_state(game, np.random.RandomState(11), 70)


def test_a_clone_under_way_in_another_thread_leaves_new_states_alone():
    """A clone hands its episode's copy to the new state pyspiel asks the game for; that
    copy waits in the cloning thread's own place, so a new state made meanwhile in
    another thread is a fresh game, not the clone's position."""
    import threading

    game = pyspiel.load_game("python_transfer_durak")
    state = _random_state(game, np.random.RandomState(4), 50)
    waiting, finish = threading.Event(), threading.Event()

    def cloning() -> None:
        openspiel._CLONING.episode = state.episode.copy()   # as clone() does before Clone
        waiting.set()
        finish.wait()
        openspiel._CLONING.__dict__.clear()

    other = threading.Thread(target=cloning)
    other.start()
    waiting.wait()
    fresh = game.new_initial_state()
    finish.set()
    other.join()
    assert fresh.episode.history == [] and fresh.is_chance_node()


def test_tensors_and_strings_come_from_the_episode():
    game = pyspiel.load_game("python_pasur")
    state = _random_state(game, np.random.RandomState(7), 40)
    episode = state.episode
    for player in range(2):
        assert np.array_equal(state.observation_tensor(player), episode.tensor(player))
        assert np.array_equal(state.information_state_tensor(player),
                              episode.tensor(player, "information_state"))
        assert state.observation_string(player) == episode.string(player)
        assert state.information_state_string(player) == \
            episode.string(player, "information_state")
    public = make_observation(game, pyspiel.IIGObservationType(
        perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE))
    public.set_from(state, 0)
    assert np.array_equal(public.tensor, episode.tensor(0, private="none"))
    assert "hand" not in public.dict


@pytest.mark.parametrize(("name", "params"), GAMES[::3], ids=lambda v: str(v))
def test_the_python_answers_are_pyspiels_own_at_every_node(name, params):
    """A Python caller's legal actions, chance and player nodes and tensors (answered by
    the state in Python) equal what pyspiel's C++ methods give through the trampolines
    and the observers, at every node of a random game, for every seat."""
    game = pyspiel.load_game(name, params)
    state = game.new_initial_state()
    rng = np.random.RandomState(11)
    seats = range(game.num_players())
    nodes = 0
    while True:
        assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
        assert state.is_terminal() == (state.current_player() == pyspiel.PlayerId.TERMINAL)
        assert state.is_player_node() == pyspiel.State.is_player_node(state)
        assert state.legal_actions() == pyspiel.State.legal_actions(state)
        for seat in (-1, *seats):
            try:
                theirs = pyspiel.State.legal_actions(state, seat)
            except pyspiel.SpielError:   # a pseudo-player at a decision
                with pytest.raises(pyspiel.SpielError):
                    state.legal_actions(seat)
            else:
                assert state.legal_actions(seat) == theirs
        for seat in seats:
            assert state.observation_tensor(seat) == \
                pyspiel.State.observation_tensor(state, seat)
            assert state.information_state_tensor(seat) == \
                pyspiel.State.information_state_tensor(state, seat)
        if state.is_terminal():
            break
        if state.is_player_node():
            assert state.observation_tensor() == state.observation_tensor(
                state.current_player())
        else:
            with pytest.raises(pyspiel.SpielError):
                state.observation_tensor()
        state.apply_action(rng.choice(state.legal_actions()))
        nodes += 1
    assert nodes > 50
    with pytest.raises(pyspiel.SpielError):
        state.observation_tensor(game.num_players())


def test_game_facts_and_parameters():
    game = pyspiel.load_game("python_pasur(preset=wikipedia,players=3)")
    assert game.num_players() == 3
    assert game.num_distinct_actions() == 105 and game.max_chance_outcomes() == 52
    assert game.min_utility() == -game.max_utility() and game.utility_sum() == 0.0
    durak = pyspiel.load_game("python_transfer_durak", {"players": 5, "max_moves": 300})
    assert (durak.num_players(), durak.num_distinct_actions(), durak.max_game_length()) == (
        5, 3200, 300)
    with pytest.raises(Exception, match="standard rules are for 2 players"):
        pyspiel.load_game("python_pasur", {"players": 3})


def test_resample_from_infostate_keeps_the_information_state():
    game = pyspiel.load_game("python_transfer_durak", {"players": 3})
    state = _random_state(game, np.random.RandomState(9), 80)
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for _ in range(5):
        other = state.resample_from_infostate(player, sampler)
        assert other.information_state_string(player) == state.information_state_string(player)
        assert other.legal_actions() == state.legal_actions()
        assert len(other.history()) == len(state.history())


def test_state_of_mirrors_a_match_in_play():
    hand = Hand.new(PRESETS["standard"], seed=12)
    rng = random.Random(0)
    for _ in range(11):
        hand.push(rng.choice(hand.legal_moves()))
    mirror = openspiel.state_of(hand)
    assert mirror.current_player() == hand.to_move
    assert sorted(mirror.episode.legal_moves()) == sorted(hand.legal_moves())
    assert [m for _, m in mirror.episode.moves] == hand.move_stack


def test_openspiel_ismcts_plays_a_short_match_against_greedy_through_the_arena():
    run = arena.run("pasur", ["openspiel-ismcts:simulations=10", "greedy"], games=2,
                    hands=True, seed=3)
    assert len(run.results) == 2
    for result in run.results:
        assert result.moves == 48 and sum(result.returns) == pytest.approx(0.0)
    assert {r.lineup for r in run.results} == {("openspiel-ismcts:simulations=10", "greedy"),
                                                ("greedy", "openspiel-ismcts:simulations=10")}


def test_openspiel_ismcts_decides_from_what_its_seat_sees_only():
    """Two deals that differ only in the opponent's hidden cards: the same decision."""
    first = deck("7♣ 3♦ 9♠ K♥", "5♣ 6♦ 8♠ Q♥", "2♠ 2♥ 4♦ 10♣")
    second = list(first)
    i, j = second.index(deck("8♠")[0]), second.index(deck("A♠")[0])
    second[i], second[j] = second[j], second[i]
    choices = set()
    for cards in (first, second):
        bot = openspiel.OpenSpielISMCTSBot(simulations=25, seed=4)
        choices.add(bot.choose(Hand.new(PRESETS["standard"], deck=cards)))
    assert len(choices) == 1


def test_a_pickled_game_and_state_unpickle_in_a_process_that_imported_nothing(tmp_path):
    import subprocess
    import sys

    game = openspiel.load("pasur", players=3, preset="wikipedia")
    state = game.new_initial_state()
    state.apply_action(5)
    path = tmp_path / "state.pkl"
    path.write_bytes(pickle.dumps((game, state)))
    code = ("import pickle, sys; game, state = pickle.loads(open(sys.argv[1], 'rb').read()); "
            "print(game.num_players(), state.history())")
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True,
                         text=True, check=True).stdout
    assert out.split() == ["3", "[5]"]


def test_the_layout_version_is_a_parameter_and_no_other_version_loads():
    for name in ("python_pasur", "python_transfer_durak"):
        game = pyspiel.load_game(name)
        assert game.get_parameters()["layout_version"] == 1
        assert pyspiel.load_game(name, {"layout_version": 1}).num_players() == 2
        with pytest.raises(Exception, match="version 1 only, not 2"):
            pyspiel.load_game(name, {"layout_version": 2})


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), preset=st.sampled_from(["standard", "turkish",
                                                          "multicapture"]))
def test_a_pasur_hand_never_takes_more_decisions_than_declared(seed, preset):
    game = pyspiel.load_game("python_pasur", {"preset": preset})
    rng = random.Random(seed)
    state, decisions = game.new_initial_state(), 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.episode.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
    assert 48 <= decisions <= game.max_game_length() == 148


@pytest.mark.parametrize("pack", [36, 52])
def test_a_durak_game_deals_exactly_its_declared_chance_nodes(pack):
    from cardtable.adapters.durak import DurakEpisode
    from cardtable.durak import Rules

    episode = DurakEpisode(rules=Rules(pack_size=pack))
    rng = random.Random(pack)
    chance = 0
    while not episode.is_terminal():
        if episode.is_chance_node():
            chance += 1
        episode.apply(episode.sample_chance(rng) if episode.is_chance_node()
                      else rng.choice(episode.legal_actions()))
    assert chance == episode.max_chance_nodes() == pack
    assert pyspiel.load_game("python_transfer_durak").max_chance_nodes_in_history() == 36
