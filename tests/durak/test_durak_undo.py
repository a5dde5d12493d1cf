"""Undo: ``push`` saves nothing until the game is first undone; ``pop`` then goes back to
the game's start (or the copy's) and plays the moves again, and from then on every move
is marked."""

import random

from durak_helpers import state

from cardtable.durak import Game, Rules


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
