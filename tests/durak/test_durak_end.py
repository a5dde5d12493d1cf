"""Every game of Transfer Durak ends: with three players or more and
the stock empty, players who always take go round for ever, so ``max_rounds`` rounds
with no durak draw the game, and no round holds more than ``ROUND_MOVES`` moves."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.durak import Game, Rules, summary
from cardtable.durak.rules import ROUND_MOVES
from cardtable.game import IllegalMove


def always_take(game: Game) -> None:
    """Take every attack, pass every throw-in, attack with the first card listed."""
    while not game.is_over():
        legal = [str(move) for move in game.legal_moves()]
        game.push("take" if "take" in legal else "pass" if "pass" in legal else legal[0])


def test_three_players_who_always_take_are_drawn_at_the_round_limit() -> None:
    game = Game.from_position(Rules(max_rounds=12), hands=["6♣ 7♣", "6♦ 7♦", "6♥ 7♥"],
                              trump="♠", attacker=0)
    always_take(game)
    assert game.round_number == 12 and game.is_draw and game.loser is None
    assert [len(hand) for hand in game.hands] == [2, 2, 2]   # round and round
    reason = "draw: the round limit (12, the rule option max_rounds) was reached with no durak"
    outcome = game.outcome()
    assert outcome is not None and outcome.returns == (0.0, 0.0, 0.0)
    assert outcome.reason == reason
    assert summary(game)["drawn"] == reason and summary(game)["draw"] is True
    with pytest.raises(IllegalMove, match="the game is over"):
        game.push("take", seat=game.defender)


def test_undoing_the_move_that_reached_the_limit_takes_the_draw_back() -> None:
    game = Game.from_position(Rules(max_rounds=4), hands=["6♣ 7♣", "6♦ 7♦", "6♥ 7♥"],
                              trump="♠", attacker=0)
    always_take(game)
    last = game.pop()
    assert not game.is_over() and game.round_number == 4 and game.outcome() is None
    game.push(last)
    assert game.is_draw and game.round_number == 4


def test_a_draw_by_the_last_defence_keeps_its_own_reason_and_summary() -> None:
    game = Game.from_position(Rules(), hands=["9♣", "10♣"], trump="♥", attacker=0)
    game.push("attack 9♣")
    game.push("defend 9♣ with 10♣")
    outcome = game.outcome()
    assert outcome is not None and outcome.reason == "draw: the last defence emptied every hand"
    assert "drawn" not in summary(game)


def test_the_preset_caps_a_game_at_500_rounds_and_refuses_less_than_one() -> None:
    assert Rules().max_rounds == 500
    with pytest.raises(ValueError, match="'max_rounds' must be 1 or more, not 0"):
        Rules(max_rounds=0)


@st.composite
def legal_rules(draw: st.DrawFn) -> tuple[Rules, int]:
    """Rules with every option drawn within the server's bounds, and a player count they
    allow; ``max_rounds`` kept small so that the limit is often what ends the game."""
    rules = Rules(
        pack_size=draw(st.sampled_from([24, 36, 52])),
        first_round_limit=draw(st.sampled_from([5, 6])),
        first_round_transfer=draw(st.booleans()), passport=draw(st.booleans()),
        late_transfer=draw(st.booleans()), neighbours_only=draw(st.booleans()),
        partners=draw(st.booleans()), trump_six_exchange=draw(st.booleans()),
        max_rounds=draw(st.integers(1, 40)))
    return rules, draw(st.sampled_from(rules.player_counts))


@settings(max_examples=80, deadline=None)
@given(legal_rules(), st.integers(0, 2**32))
def test_random_play_under_any_legal_rules_ends_within_the_stated_moves(
        drawn: tuple[Rules, int], seed: int) -> None:
    rules, players = drawn
    game = Game.new(rules, players=players, seed=seed)
    rng = random.Random(seed)
    in_round = moves = 0
    while not game.is_over():
        round_number = game.round_number
        game.push(rng.choice(game.legal_moves()))
        moves += 1
        in_round = in_round + 1 if game.round_number == round_number else 0
        assert in_round <= ROUND_MOVES
    assert game.round_number <= rules.max_rounds
    assert moves <= rules.max_rounds * ROUND_MOVES
    assert game.loser is not None or game.is_draw
