"""The arena's figures are sound: intervals inside what is possible, never of zero width
from a few deals, one unit per table, and a warning for a bot that played no game."""

import json

import pytest
from typer.testing import CliRunner

from cardtable import arena
from cardtable.arena import GameResult, summarize, wilson
from cardtable.arena.report import warnings
from cardtable.arena.statistics import bounded_mean_ci, t95, t_mean_ci
from cardtable.cli import app


def result(index, deal, lineup, winners, points=None, hands=1, loser=None):
    return GameResult(index=index, deal=deal, lineup=lineup, returns=(0.0,) * len(lineup),
                      winners=winners, points=points, hands=hands, loser=loser, moves=1,
                      seconds=0.0)


def test_a_difference_of_two_durak_rates_has_its_interval_inside_minus_one_to_one():
    # deals 0-2: B is the durak both times (A is better by 1); deal 3: two draws (0)
    results = []
    for deal in range(4):
        for rotation in range(2):
            lineup = ("A", "B") if rotation == 0 else ("B", "A")
            loser = None if deal == 3 else lineup.index("B")
            results.append(result(len(results), deal, lineup, (), loser=loser))
    margin = arena.margin("durak", ["A", "B"], results)
    assert margin["mean"] == pytest.approx(0.75) and margin["deals"] == 4
    low, high = margin["ci95"]
    assert -1.0 <= low < 0.75 < high <= 1.0


def test_two_equal_deals_do_not_give_an_interval_of_zero_width():
    results = [result(i, i // 2, ("A", "B") if i % 2 == 0 else ("B", "A"), (),
                      loser=None) for i in range(4)]            # two deals, all draws
    margin = arena.margin("durak", ["A", "B"], results)
    low, high = margin["ci95"]
    assert margin["mean"] == 0.0 and high - low > 0.5


def test_equal_points_per_deal_give_no_interval_rather_than_a_point():
    results = [result(0, 0, ("A", "B"), (0,), points=(10, 5)),
               result(1, 0, ("B", "A"), (1,), points=(5, 10)),
               result(2, 1, ("A", "B"), (0,), points=(10, 5)),
               result(3, 1, ("B", "A"), (1,), points=(5, 10))]
    margin = arena.margin("pasur", ["A", "B"], results)
    assert margin["mean"] == 5.0 and margin["ci95"] is None
    assert summarize("pasur", ["A", "B"], results)["A"]["mean_points_ci95"] is None


def test_bounded_means_stay_in_range_and_t_intervals_widen_for_few_units():
    for values in ([1.0] * 5, [-1.0, -1.0], [1.0, 0.5, 1.0, 0.0]):
        mean, (low, high) = bounded_mean_ci(values, -1.0, 1.0)
        assert -1.0 <= low <= mean <= high <= 1.0 and high > low
    with pytest.raises(ValueError, match="must lie in"):
        bounded_mean_ci([2.0], -1.0, 1.0)
    mean, (low, high) = t_mean_ci([1.0, 3.0])
    assert mean == 2.0 and high - mean == pytest.approx(12.706 * 1.0)
    assert t95(1000) == pytest.approx(1.962, abs=1e-3)


def test_a_bot_in_two_seats_of_one_table_counts_once_for_that_table():
    # four seats as two teams; A holds seats 0 and 2 of the first table, B of the second
    results = [result(0, 0, ("A", "B", "A", "B"), (0, 2)),
               result(1, 0, ("B", "A", "B", "A"), (0, 2))]
    figures = summarize("pasur", ["A", "B"], results)
    assert figures["A"]["games"] == 2 and figures["A"]["win_rate"] == 0.5
    assert figures["A"]["ci95"] == list(wilson(1, 2))
    durak = [result(0, 0, ("A", "B", "A"), (1, 2), loser=0),
             result(1, 0, ("B", "A", "A"), (0, 1), loser=2)]
    figures = summarize("durak", ["A", "B"], durak)
    assert figures["A"]["games"] == 2 and figures["A"]["durak_rate"] == 0.5
    assert figures["A"]["durak_ci95"] == list(wilson(1, 2))
    assert figures["B"]["durak_rate"] == 0.0


def test_a_bot_that_played_no_game_is_warned_about(tmp_path):
    results = [result(0, 0, ("A", "B"), (0,), loser=1), result(1, 0, ("B", "A"), (1,), loser=0)]
    figures = summarize("durak", ["A", "B", "C"], results)
    assert figures["C"]["games"] == 0
    assert warnings(figures) == [
        "C played no game: play more games (every group of bots plays in turn)"]
    out = tmp_path / "run.json"
    command = CliRunner().invoke(app, ["arena", "durak", "--bots", "random,basic,greedy",
                                       "--games", "2", "--seed", "1", "--json", str(out)])
    assert command.exit_code == 0, command.output
    assert "warning: greedy played no game" in command.output
    assert json.loads(out.read_text())["warnings"] == [
        "greedy played no game: play more games (every group of bots plays in turn)"]
