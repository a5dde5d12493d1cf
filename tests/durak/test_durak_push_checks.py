"""``push`` checks a move by looking it up among the legal moves; objects that are not
moves, and moves that are not legal now, are refused however they compare and whether or
not the legal moves were asked for first, and change nothing."""

from unittest import mock

import pytest
from durak_helpers import state

from cardtable.durak import Game, Move
from cardtable.game import IllegalMove, InvalidMove


@pytest.mark.parametrize("warm", [True, False], ids=["legal moves asked", "not asked"])
@pytest.mark.parametrize("thing", [mock.ANY, 5, None, object(), ("attack",)])
def test_what_is_not_a_move_is_refused_and_changes_nothing(thing, warm):
    game = Game.new(seed=1)
    before = state(Game.new(seed=1))
    if warm:
        game.legal_moves()
    with pytest.raises(InvalidMove, match="is not a Durak move"):
        game.push(thing)
    assert state(game) == before


@pytest.mark.parametrize("warm", [True, False], ids=["legal moves asked", "not asked"])
def test_a_move_that_is_not_legal_now_is_refused_and_changes_nothing(warm):
    game = Game.new(seed=1)
    before = state(Game.new(seed=1))
    if warm:
        game.legal_moves()
    with pytest.raises(IllegalMove, match="nothing to take yet"):
        game.push(Move.parse("take"))
    assert state(game) == before
