"""Golden games replay exactly: the same deals for each seed, the same moves, the same
result, and the same views at every step (``tests/golden.py`` says how they were made)."""

from __future__ import annotations

import pytest
from golden import CASES, FOLDER, digests, path_of

from cardtable import games, records


def test_every_golden_case_has_its_file_and_no_file_is_left_over():
    assert {path_of(case) for case in CASES} == set(FOLDER.glob("*.json"))


def test_the_golden_games_cover_every_preset_of_every_game():
    covered = {(game, preset) for game, preset, *_ in CASES}
    assert covered == {(name, preset) for name in games.names()
                       for preset in games.get(name).presets}


@pytest.mark.parametrize("case", CASES, ids=lambda case: path_of(case).stem)
def test_a_golden_game_replays_move_for_move_with_its_result_and_views(case):
    record = records.load(path_of(case))
    assert record.result is not None and record.result["over"] is True
    state = record.replay(check=True)          # raises if the result differs
    assert state.is_over()
    assert digests(record) == record.extra["digests"]


@pytest.mark.parametrize("case", CASES, ids=lambda case: path_of(case).stem)
def test_a_golden_seed_deals_the_recorded_decks(case):
    game, preset, options, players, seed = case
    record = records.load(path_of(case))
    spec = games.get(game)
    state = spec.start(spec.rules(preset, options), players=players, seed=seed)
    for text in record.moves:
        state.push(state.parse_move(text))
    assert [[card.text for card in deck] for deck in spec.deals(state)] == record.decks
    assert state.is_over()
