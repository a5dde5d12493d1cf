"""benchmarks/late_rounds.py: duplicate play from a chosen deal round."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parents[2] / "benchmarks" / "late_rounds.py"
_SPEC = importlib.util.spec_from_file_location("late_rounds", _PATH)
late_rounds = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(late_rounds)


@pytest.mark.parametrize("round_", [1, 4, 6])
def test_a_bot_against_itself_from_the_same_position_has_no_margin(round_):
    """Both plays of a deal are one game seen from each seat: the margins cancel."""
    assert late_rounds.late_margin("basic", "basic", deal=17, round_=round_,
                                   lead="greedy") == 0


@pytest.mark.parametrize("a, b, sign", [("greedy", "random", 1), ("random", "greedy", -1)])
def test_the_margin_is_the_first_bots_points_minus_the_seconds(a, b, sign):
    """Greedy beats random by about 9 points a hand, whichever is named first."""
    margins = [late_rounds.late_margin(a, b, deal=d, round_=1, lead="greedy")
               for d in range(12)]
    assert sign * sum(margins) / len(margins) > 3
