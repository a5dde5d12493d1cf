"""A Pasur game pickles (as a copy sent to a bot process is) and plays on the same: the
shared option memory goes as a reference to its rule setting, not as its tables."""

from __future__ import annotations

import pickle
import random

import pytest

from cardtable import games
from cardtable.pasur._options import OptionMemory


@pytest.mark.parametrize("preset", sorted(games.get("pasur").presets))
def test_a_match_pickled_mid_game_plays_on_the_same(preset: str) -> None:
    spec = games.get("pasur")
    rules = spec.presets[preset]
    players = rules.player_counts[0]
    state = spec.start(rules, players=players, seed=7)
    rng = random.Random(preset)
    for _ in range(9):
        state.push(rng.choice(state.legal_moves()))
    copy = pickle.loads(pickle.dumps(state.copy()))
    for _ in range(40):
        if state.is_over():
            break
        assert [str(m) for m in copy.legal_moves()] == [str(m) for m in state.legal_moves()]
        move = rng.choice(state.legal_moves())
        state.push(move)
        copy.push(copy.parse_move(str(move)))
        assert copy.view(None) == state.view(None)


def test_the_option_memory_pickles_as_a_reference_to_its_setting() -> None:
    rules = games.get("pasur").presets["standard"]
    memory = OptionMemory.of(rules)
    assert pickle.loads(pickle.dumps(memory)) is memory
    assert len(pickle.dumps(memory)) < 200
