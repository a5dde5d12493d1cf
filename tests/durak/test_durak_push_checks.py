"""``push`` checks a move by looking it up among the legal moves; objects that are not
moves are refused however they compare, and change nothing."""

from unittest import mock

import pytest
from durak_helpers import state

from cardtable.durak import Game
from cardtable.game import IllegalMove


@pytest.mark.parametrize("thing", [mock.ANY, 5, None, object(), ("attack",)])
def test_what_is_not_a_move_is_refused_and_changes_nothing(thing):
    game = Game.new(seed=1)
    before = state(game)
    with pytest.raises(IllegalMove, match="is not a Durak move"):
        game.push(thing)
    assert state(game) == before
