"""The judge: every move measured on the same deals, labels only where the loss's interval
clears the threshold, a budget too small refused, and hints that agree with their figures."""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardtable import analysis, durak, games, pasur, records
from cardtable.analysis import weighing as judge
from cardtable.analysis.hints import hint
from cardtable.cli import app

RECORDED = Path(__file__).resolve().parents[1] / "data" / "analysis"


def opening(game, players, seed, moves=()):
    spec = games.get(game)
    preset = spec.default_preset if game == "durak" or players == 2 else "wikipedia"
    state = spec.start(spec.presets[preset], players=players, seed=seed)
    for move in moves:
        state.push(move)
    return state


def test_a_budget_too_small_is_refused_before_any_move_with_the_smallest_that_judges():
    record = records.load(RECORDED / "durak-05.json")
    smallest, where = analysis.smallest_iterations(record.start(), record.moves)
    widest = record.start()
    for move in record.moves[:where - 1]:
        widest.push(move)
    assert smallest == judge.smallest_budget(len(widest.legal_moves())) > 10
    with pytest.raises(analysis.BudgetTooSmall) as refused:
        analysis.analyse_record(record, iterations=10)
    assert refused.value.smallest == smallest and str(smallest) in str(refused.value)
    assert isinstance(refused.value, ValueError)
    # a single position's judge says the same, for that position
    with pytest.raises(analysis.BudgetTooSmall) as one:
        judge.weigh(widest, budget=smallest - 1, seed=1)
    assert one.value.smallest == smallest


def test_the_command_refuses_too_small_a_budget_in_one_line_and_writes_nothing(tmp_path):
    out = tmp_path / "analysis.json"
    result = CliRunner().invoke(app, ["analyse", str(RECORDED / "pasur-01.json"),
                                      "--iterations", "10", "--json", str(out)])
    smallest, _ = analysis.smallest_iterations(*_start_and_moves("pasur-01.json"))
    assert result.exit_code == 2
    assert f"give {smallest} or more" in result.output and "Traceback" not in result.output
    assert not out.exists()


def _start_and_moves(name):
    record = records.load(RECORDED / name)
    return record.start(), record.moves


def test_no_move_is_labelled_within_the_judges_own_uncertainty():
    record = records.load(RECORDED / "durak-01.json")
    learn = analysis.learn_of("durak")
    judged = analysis.analyse(record.start(), record.moves[:30], iterations=400, seed=3,
                              hindsight=False)
    searched = [j for j in judged if j.choices > 1 and j.deals]
    assert searched, "some moves were searched, not solved"
    for j in searched:
        assert j.loss_low <= j.loss <= j.loss_high and j.uncertainty >= 0
        assert j.deals >= judge.FIRST_DEALS
        if j.label:   # the whole interval clears the label's threshold
            assert j.loss_low >= learn.thresholds[analysis.LABELS.index(j.label)] - 1e-9
        if j.unsure:  # a worse label the interval reaches, never the one given
            assert analysis.LABELS.index(j.unsure) > (
                analysis.LABELS.index(j.label) if j.label else -1)


def test_a_clear_blunder_is_labelled_and_solved_moves_carry_no_uncertainty():
    # stock empty: seat 1 beats 9♠ with 10♠, its last card, and is out; taking loses
    game = durak.Game.from_position(hands=["9♠ 7♦", "10♠"], trump="♥", attacker=0)
    game.push("attack 9♠")
    [judged] = analysis.analyse(game, ["take"], seed=1)
    assert judged.label == "blunder" and judged.unsure is None
    assert judged.uncertainty == 0.0 and judged.loss_low == judged.loss_high == 1.0
    assert judged.deals == 0


def test_every_move_is_played_on_the_same_deals_so_equal_moves_differ_by_nothing():
    # Pasur's first deal: the judge plays each move on the same deals with the same luck,
    # so a move compared with itself differs by exactly 0 on every deal
    hand = pasur.Hand.new(pasur.PRESETS["standard"], seed=4)
    move = hand.legal_moves()[0]
    found = judge.weigh(hand, move, budget=400, seed=2)
    assert set(found.values) == set(hand.legal_moves())
    if found.best == move:
        assert found.loss == 0.0 and found.low == 0.0
    assert found.low <= found.loss <= found.high
    assert found.playouts <= judge.CORE_DOUBT * 400 and found.choice_deals >= judge.FIRST_DEALS


def test_the_analysis_json_records_each_moves_uncertainty(tmp_path):
    out = tmp_path / "analysis.json"
    start, moves = _start_and_moves("pasur-01.json")
    short = tmp_path / "short.json"
    rec = records.record_of(start, "pasur")
    rec.moves = moves[:6]
    rec.save(short)
    smallest, _ = analysis.smallest_iterations(start, moves[:6])
    result = CliRunner().invoke(app, ["analyse", str(short), "--iterations", str(smallest),
                                      "--json", str(out)], env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    for move in data["moves"]:
        assert {"uncertainty", "loss_low", "loss_high", "unsure", "deals"} <= set(move)
        if move["choices"] > 1:
            assert move["loss_low"] <= move["loss"] <= move["loss_high"]
    assert "±" in result.output


@pytest.mark.parametrize(("game", "players", "seed"), [("durak", 3, 5), ("durak", 2, 1),
                                                       ("pasur", 2, 3), ("pasur", 3, 2)])
def test_a_hint_names_the_move_its_own_figures_rank_best(game, players, seed):
    # the case: 3-player Durak, seed 5, the first move: the greedy hint named a
    # move its own figures ranked below two others
    state = opening(game, players, seed)
    given = hint(state, "greedy", top=5)
    higher = analysis.learn_of(game).higher_is_better
    values = [c["value"] for c in given.choices]
    assert given.move == given.choices[0]["move"]
    assert values == sorted(values, reverse=higher)
    assert given.why and given.level == "greedy"


@pytest.mark.parametrize("lang", ["en", "ru", "pt", "fa"])
def test_a_hint_says_why_its_move_ranks_first_in_every_language(lang):
    state = opening("pasur", 2, 3)
    given = hint(state, lang=lang)
    english = hint(state, lang="en")
    assert given.move == english.move and given.why
    assert (given.why == english.why) == (lang == "en")
    assert given.to_dict()["why"] == given.why


def test_a_solved_hint_says_the_exact_solver_ranked_it():
    game = durak.Game.from_position(hands=["9♠ 7♦", "10♠ 6♥"], trump="♥", attacker=0)
    game.push("attack 9♠")
    given = hint(game)
    assert given.sure and "played out to the end" in given.why
    assert given.move == "defend 9♠ with 10♠"


def test_the_terminal_hint_names_the_judges_best_and_says_why():
    result = CliRunner().invoke(app, ["play", "pasur", "--vs", "random", "--seed", "5",
                                      "--no-color"], input="h\nq\ny\nn\nn\n",
                                env={"COLUMNS": "160"})
    assert "Hint:" in result.output and "ranked best by the analysis's judge" in result.output
    assert "The best of your" in result.output or "the only move you can make" in result.output


@pytest.mark.slow
@pytest.mark.parametrize("name", ["pasur-01.json", "durak-01.json"])
def test_two_seeds_give_the_same_label_to_nine_moves_in_ten(name):
    # the benchmark (benchmarks/analysis_stability.py) measures this on all twenty games;
    # the moves the two seeds label apart are those whose loss lies within a few standard
    # errors of a threshold after the whole budget, and the judge now labels most moves
    # rather than calling them unsure, so one game's share is lower than when it said less
    record = records.load(RECORDED / name)
    first, second = (analysis.analyse_record(record, seed=seed, hindsight=False)
                     for seed in (0, 1))
    pairs = [(a, b) for a, b in zip(first, second, strict=True) if a.choices > 1]
    agree = sum(a.label == b.label for a, b in pairs)
    assert agree >= 0.9 * len(pairs)
