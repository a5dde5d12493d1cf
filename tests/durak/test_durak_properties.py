"""Invariants over many random games under every combination of options."""

import json
import random

from durak_helpers import random_move, state
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.cards import pack
from cardtable.durak import Game, Rules
from cardtable.game import IllegalMove

RULES = st.builds(
    Rules,
    pack_size=st.sampled_from([24, 36, 52]),
    first_round_limit=st.sampled_from([5, 6]),
    first_round_transfer=st.booleans(),
    passport=st.booleans(),
    late_transfer=st.booleans(),
    neighbours_only=st.booleans(),
    partners=st.booleans(),
    trump_six_exchange=st.booleans(),
)


@st.composite
def games(draw):
    """A dealt game under any rules, and a seed for the random player."""
    rules = draw(RULES)
    players = draw(st.sampled_from(rules.player_counts))
    seed = draw(st.integers(0, 2**32))
    return Game.new(rules, players=players, seed=seed), draw(st.integers(0, 2**32))


def all_cards(game: Game) -> list:
    cards = [c for hand in game.hands for c in hand] + list(game.stock) + list(game.discard)
    cards += [c for pair in game.table for c in pair if c is not None]
    return sorted(cards)


@settings(max_examples=60, deadline=None)
@given(games())
def test_no_card_is_created_or_lost_and_every_game_ends(case):
    game, seed = case
    rng = random.Random(seed)
    full = sorted(pack(game.rules.pack_size))
    steps = 0
    while not game.is_over():
        assert all_cards(game) == full
        for seat in range(game.players):
            assert set(game.known_cards(seat)) <= set(game.hand(seat))
        moves = game.legal_moves()
        assert moves and game.to_move is not None
        game.push(moves[rng.randrange(len(moves))])
        steps += 1
        assert steps < 5000
    assert all_cards(game) == full
    outcome = game.outcome()
    assert abs(sum(outcome.returns)) < 1e-9
    holding = [s for s in range(game.players) if game.hand(s)]
    if game.loser is None:
        assert holding == [] and outcome.returns == (0.0,) * game.players
    else:
        assert game.loser in holding
        assert {game.team_of(s) for s in holding} == {game.losing_team}
        losers = [s for s in range(game.players) if outcome.returns[s] < 0]
        assert {game.team_of(s) for s in losers} == {game.losing_team}
        assert abs(sum(outcome.returns[s] for s in losers) + 1) < 1e-9


@settings(max_examples=40, deadline=None)
@given(games())
def test_replay_reproduces_the_game_and_pop_undoes_it_exactly(case):
    game, seed = case
    rng = random.Random(seed)
    start = state(game)
    while not game.is_over():
        moves = game.legal_moves()
        move = moves[rng.randrange(len(moves))]
        if rng.random() < 0.3:
            before = state(game)
            game.push(move)
            assert game.pop() is move
            assert state(game) == before
        game.push(move)
    again = Game.new(game.rules, players=game.players, deck=game.deck, dealer=game.dealer)
    for move in game.move_stack:
        again.push(again.parse_move(str(move)))
    assert state(again) == state(game)
    copied = game.copy()
    while copied.move_stack:
        copied.pop()
    assert state(copied) == start
    assert state(game) != start   # the copy unwound alone


@settings(max_examples=30, deadline=None)
@given(games())
def test_illegal_moves_change_nothing(case):
    game, seed = case
    rng = random.Random(seed)
    while not game.is_over():
        legal = game.legal_moves()
        before = state(game)
        for _ in range(5):
            move = random_move(rng, game.rules.pack_size)
            if move not in legal:
                try:
                    game.push(move)
                except IllegalMove as error:
                    assert str(error)
                else:
                    raise AssertionError(f"{move} was accepted but is not legal")
                assert state(game) == before
        game.push(legal[rng.randrange(len(legal))])


@settings(max_examples=25, deadline=None)
@given(games())
def test_views_hide_what_they_must_and_worlds_agree_with_them(case):
    game, seed = case
    rng = random.Random(seed)
    while not game.is_over():
        if rng.random() < 0.2:
            for seat in [None, *range(game.players)]:
                view = game.view(seat)
                text = json.dumps(view, ensure_ascii=False)
                for other in range(game.players):
                    if other == seat:
                        continue
                    for card in set(game.hand(other)) - set(game.known_cards(other)):
                        assert f'"{card.text}"' not in text
                for card in game.stock[:-1]:
                    assert f'"{card.text}"' not in text
            seat = game.to_move
            world = game.determinize(seat, rng)
            assert world.view(seat) == game.view(seat)
            assert all_cards(world) == all_cards(game)
        moves = game.legal_moves()
        game.push(moves[rng.randrange(len(moves))])
