"""The Durak kit's compiled playouts: the core plays the kit's own tactics, move for move,
and ``fast_playout`` values a playout as ``rewards`` would, leaving the position as it was."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtable.bots.durak_kit import KIT
from cardtable.durak import Rules
from cardtable.durak.engine import CompiledGame
from cardtable.durak.game import Game as PureGame

if CompiledGame is None:
    pytest.skip("the compiled core is not built here, or CARDTABLE_PURE is set",
                allow_module_level=True)
Game = CompiledGame

RULES = st.builds(
    Rules,
    pack_size=st.sampled_from([24, 36, 52]),
    first_round_transfer=st.booleans(),
    passport=st.booleans(),
    late_transfer=st.booleans(),
    neighbours_only=st.booleans(),
    partners=st.booleans(),
    trump_six_exchange=st.booleans(),
)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(RULES, st.data(), st.integers(0, 2**32))
def test_the_core_plays_the_kits_tactics_move_for_move(rules, data, seed):
    players = data.draw(st.sampled_from(rules.player_counts))
    game = Game.new(rules, players=players, seed=seed)
    rng = random.Random(seed)
    while not game.is_over():
        expected = KIT.tactics(game)
        assert game.tactics() is expected, (str(game.tactics()), str(expected), game.view(None))
        # the tactics player's own line most of the time, so that its endgames are reached
        game.push(expected if rng.random() < 0.7 else rng.choice(game.legal_moves()))


def forced_end() -> Game:
    """Seat 0 must attack with its last card, seat 1 cannot beat it and takes: seat 1 is
    the durak, whatever a random move now and then does (every move is the only one)."""
    return Game.from_position(hands=["9♣", "6♦ 7♦"], trump="♥", attacker=0)


def test_fast_playout_values_the_end_as_rewards_does_and_changes_nothing():
    game = forced_end()
    before = game.view(None)
    played = game.copy()
    while not played.is_over():
        played.push(KIT.tactics(played))
    expected = KIT.rewards(played, None)
    assert expected == [1.0, -1.0]
    for policy in ("basic", "random"):
        assert KIT.fast_playout(game, None, policy, random.Random(1)) == expected
    assert game.view(None) == before and game.move_stack == []


def test_fast_playout_draws_one_number_and_repeats_from_it():
    game = Game.new(Rules(), players=3, seed=4)
    rng, twin = random.Random(9), random.Random(9)
    first = KIT.fast_playout(game, None, "basic", rng)
    twin.getrandbits(64)
    assert rng.getstate() == twin.getstate()
    assert KIT.fast_playout(game, None, "basic", random.Random(9)) == first
    assert sorted(first) == [-1.0, 1.0, 1.0]


def test_fast_playout_leaves_the_pure_engine_and_the_plain_policy_to_python():
    rng = random.Random(2)
    state = rng.getstate()
    assert KIT.fast_playout(PureGame.new(Rules(), players=2, seed=1), None, "basic", rng) is None
    assert KIT.fast_playout(Game.new(Rules(), players=2, seed=1), None, "plain", rng) is None
    assert rng.getstate() == state


def test_a_partner_durak_costs_the_whole_team():
    game = Game.new(Rules(partners=True), players=4, seed=8)
    rewards = KIT.fast_playout(game, None, "random", random.Random(3))
    assert rewards is not None
    if any(rewards):
        loser_team = [seat % 2 for seat in range(4) if rewards[seat] < 0]
        assert len(loser_team) == 2 and loser_team[0] == loser_team[1]


def test_the_core_playout_policy_plays_shorter_games_than_random_play():
    """The tactics really play: against uniform random seats, a game played out by the
    kit's policy for every seat is shorter (random play takes and throws in aimlessly)."""
    game = Game.new(Rules(), players=2, seed=5)
    _, random_moves, _, _ = game.playouts(1, 400, 0)
    _, tactics_moves, _, _ = game.playouts(1, 400, 1)
    assert tactics_moves < random_moves


def test_with_a_horizon_the_core_stops_where_cutoff_does_and_rewards_value_it():
    game = Game.new(Rules(), players=3, seed=12)
    for _ in range(5):
        game.push(KIT.tactics(game))
    context = KIT.context(game, 0, horizon=0)
    seed = random.Random(6).getrandbits(64)
    final = game.copy(stack=False)
    final._play_out(seed, 1, 2000, 19, context)
    assert KIT.cutoff(final, context) and final.phase == "lead"
    assert final.round_number == game.round_number + 1
    expected = KIT.rewards(final, context)
    assert KIT.fast_playout(game, context, "basic", random.Random(6)) == expected
    assert not all(abs(value) == 1.0 for value in expected)   # the evaluation's chances
