"""Puzzles: every stored puzzle has exactly one move within its margin, proved again."""

import datetime as dt

import pytest
from typer.testing import CliRunner

from cardtable import analysis, bots, games, records
from cardtable.analysis import puzzles
from cardtable.bots.ismcts import kit_of
from cardtable.cli import app

STORED = puzzles.load()


def test_a_small_set_is_shipped_for_every_game():
    assert {p["game"] for p in STORED} == {"pasur", "durak"}
    assert len({p["id"] for p in STORED}) == len(STORED)


@pytest.mark.parametrize("puzzle", STORED, ids=[p["id"] for p in STORED])
def test_every_stored_puzzle_has_exactly_one_move_within_the_margin(puzzle):
    state = puzzles.position(puzzle)
    assert state.to_move == puzzle["seat"]
    learn = analysis.learn_of(puzzle["game"])
    assert puzzle["proof"] == "exact"
    exact = analysis.hindsight_values(state)   # solved again, not read back
    found = {str(m): learn.expected(v) for m, v in exact.items()}
    assert set(found) == set(puzzle["values"])
    answer = puzzles.unique(found, puzzle["margin"], higher_is_better=learn.higher_is_better)
    assert answer == puzzle["answer"]
    assert len(found) >= 2
    # and nothing was hidden from the seat: the view alone decides it
    kit = kit_of(learn.searched(state))
    assert kit.perfect(learn.searched(state), puzzle["seat"])


def test_a_position_with_two_good_moves_is_no_puzzle():
    assert puzzles.unique({"a": 1.0, "b": 0.6, "c": -3.0}, 0.5) is None
    assert puzzles.unique({"a": 1.0, "b": 0.4, "c": -3.0}, 0.5) == "a"


def test_puzzles_are_found_in_a_finished_game():
    spec = games.get("pasur")
    match = spec.start(spec.presets["standard"], players=2, seed=4)
    players = [bots.make("greedy"), bots.make("basic")]
    while not match.finished_hands:
        match.push(players[match.to_move].choose(match))
    found = puzzles.find(records.record_of(match, "pasur"), choices=2)
    assert [p["answer"] for p in found] == ["A♥ x 10♦"]
    [puzzle] = found
    values = sorted(puzzle["values"].values(), reverse=True)
    assert values[0] - values[1] >= puzzle["margin"]
    assert puzzle["proof"] == "exact" and puzzle["record"]["moves"] == \
        records.record_of(match, "pasur").moves[:len(puzzle["record"]["moves"])]


def test_the_daily_puzzle_changes_with_the_date():
    first = puzzles.daily(STORED, dt.date(2026, 12, 1))
    assert puzzles.daily(STORED, dt.date(2026, 12, 1)) is first
    assert puzzles.daily(STORED, dt.date(2026, 12, 2)) is not first


def test_puzzle_in_the_terminal_takes_an_answer_and_shows_why(tmp_path):
    env = {"CARDTABLE_HOME": str(tmp_path), "COLUMNS": "120"}
    first = next(p for p in STORED if p["game"] == "durak")
    result = CliRunner().invoke(app, ["puzzle", "durak"], input=f"{first['answer']}\n",
                                env=env)
    assert result.exit_code == 0, result.output
    assert "Right." in result.output and "Why (exact" in result.output
    again = CliRunner().invoke(app, ["puzzle", "durak"], input="nonsense\na\n", env=env)
    assert again.exit_code == 0 and "The answer is" in again.output
    assert first["id"] not in again.output   # solved: the next one is shown


def test_puzzles_are_made_from_records_on_the_command_line(tmp_path):
    spec = games.get("pasur")
    match = spec.start(spec.presets["standard"], players=2, seed=4)
    players = [bots.make("greedy"), bots.make("basic")]
    while not match.finished_hands:
        match.push(players[match.to_move].choose(match))
    path, out = tmp_path / "game.json", tmp_path / "puzzles.json"
    records.record_of(match, "pasur").save(path)
    result = CliRunner().invoke(app, ["puzzle", "--make", str(path), "--out", str(out),
                                      "--choices", "2"])
    assert result.exit_code == 0 and "Wrote 1 puzzles" in result.output
    [made] = puzzles.load(out)
    assert made["answer"] == "A♥ x 10♦" and puzzles.position(made).to_move == made["seat"]
    refused = CliRunner().invoke(app, ["puzzle", "--make", str(path)])
    assert refused.exit_code != 0 and "--out" in refused.output
