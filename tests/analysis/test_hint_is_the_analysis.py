"""One judge for hints and analysis: the hint of a position and the analysis of the move
played there, with the same budget and seed, name the same best move, and the hint's move
played is judged no loss."""

from pathlib import Path

import pytest

from cardtable import analysis, records
from cardtable.analysis.hints import HINT_ITERATIONS, hint

RECORDED = Path(__file__).resolve().parents[1] / "data" / "analysis"


def positions(game, count):
    """``count`` positions with a choice, spread over the game's recorded games, with the
    move played there."""
    found = []
    names = sorted(RECORDED.glob(f"{game}-*.json"))
    for path in names:
        record = records.load(path)
        state = record.start()
        learn = analysis.learn_of(game)
        for index, move in enumerate(record.moves, 1):
            if index % 3 == 1 and len(learn.searched(state).legal_moves()) > 1:
                found.append((path.name, index, state.copy(), move))
            state.push(move)
    return found[::max(1, len(found) // count)][:count]


def test_the_hint_budget_is_the_analysis_budget():
    assert HINT_ITERATIONS == analysis.DEFAULT_ITERATIONS


@pytest.mark.parametrize("game", ["pasur", "durak"])
def test_a_hint_and_the_analysis_of_fifty_positions_name_the_same_best(game):
    checked = positions(game, 50)
    assert len(checked) == 50
    for name, index, state, played in checked:
        given = hint(state)
        judged = analysis.judge(state, state.parse_move(played), index, hindsight=False)
        assert judged.best == given.move, (name, index)
        if judged.move == given.move:
            assert judged.loss == 0.0 and judged.label is None and judged.unsure is None
    # and the hint's own move, played, is judged no loss (a few: it is the rule above)
    for name, index, state, _ in checked[:5]:
        given = hint(state)
        judged = analysis.judge(state, state.parse_move(given.move), index, hindsight=False)
        assert (judged.best, judged.loss, judged.label, judged.unsure) == (
            given.move, 0.0, None, None), (name, index)
