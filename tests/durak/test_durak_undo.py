"""Undo: ``push`` saves nothing until the game is first undone; ``pop`` then goes back to
the game's start (or the copy's) and plays the moves again, and from then on every move
is marked."""

import random

from durak_helpers import state
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.durak import Rules
from cardtable.durak.game import Game
from cardtable.durak.state import State


def walk(game: Game, rng: random.Random, depth: int) -> None:
    """A search's pattern: try a few moves at each position, undoing each."""
    if depth == 0 or game.is_over():
        return
    moves = game.legal_moves()
    before = state(game)
    for move in rng.sample(moves, min(3, len(moves))):
        game.push(move)
        walk(game, rng, depth - 1)
        assert game.pop() is move
        assert state(game) == before


def test_a_search_undoes_exactly_and_keeps_few_marks():
    rng = random.Random(3)
    game = Game.new(Rules(), players=3, seed=11)
    for _ in range(25):   # some rounds played without undo: only the start is marked
        moves = game.legal_moves()
        game.push(moves[rng.randrange(len(moves))])
    assert len(game._marks) == 1
    walk(game, rng, 5)
    marks = len(game._marks)   # the first undo marked the moves played again
    assert marks == 1 + len(game.move_stack)
    walk(game, rng, 5)
    assert len(game._marks) == marks   # searching again leaves no marks behind
    copied = game.copy(stack=False)
    walk(copied, rng, 5)
    assert len(copied._marks) == 1


def test_pop_replays_the_round_after_a_trump_exchange():
    rules = Rules(trump_six_exchange=True)
    for seed in range(40):
        game = Game.new(rules, players=2, seed=seed)
        rng = random.Random(seed)
        history = []
        while not game.is_over() and len(history) < 60:
            history.append(state(game))
            moves = game.legal_moves()
            game.push(moves[rng.randrange(len(moves))])
        while history:
            game.pop()
            assert state(game) == history.pop()


HISTORY = {"_moves", "_marks", "_undoing", "_legal", "_between"}
"""The fields that are not the position: the moves, the snapshots, and caches."""


def every_field(game: Game) -> dict:
    """Every field of the state but the history, as values (hands are lists changed in
    place, so they are copied)."""
    fields = {}
    for name in State.__slots__:
        if name not in HISTORY:
            value = getattr(game, name)
            fields[name] = tuple(value) if isinstance(value, list) else value
    return fields


def search(game: Game, rng: random.Random, depth: int) -> int:
    """Push and pop down to ``depth``, checking every field after each pop; returns how
    many pops were checked."""
    if depth == 0 or game.is_over():
        return 0
    before = every_field(game)
    moves = game.legal_moves()
    checked = 0
    for move in rng.sample(moves, min(2, len(moves))):
        game.push(move)
        checked += 1 + search(game, rng, depth - 1)
        game.pop()
        assert every_field(game) == before
        assert game.legal_moves() == moves
    return checked


@settings(max_examples=40, deadline=None)
@given(rules=st.builds(Rules, pack_size=st.sampled_from([24, 36]), passport=st.booleans(),
                       late_transfer=st.booleans(), partners=st.booleans(),
                       trump_six_exchange=st.booleans()),
       seed=st.integers(0, 2**32), depth=st.integers(2, 4))
def test_a_snapshot_restores_every_field_a_move_changes(rules, seed, depth):
    rng = random.Random(seed)
    game = Game.new(rules, players=rng.choice(rules.player_counts), seed=seed)
    checked = 0
    while not game.is_over():   # rounds end, stocks run out and trumps change in the search
        checked += search(game, rng, depth)
        moves = game.legal_moves()
        game.push(moves[rng.randrange(len(moves))])
    assert checked > 0 and game.outcome() is not None
