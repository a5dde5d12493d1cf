"""Lessons: every step is a legal position whose goal move is legal and the best."""

import json

import pytest
from typer.testing import CliRunner

from cardtable import analysis, games
from cardtable.analysis.lessons import LANGS, Progress, check, course
from cardtable.cli import app

STEPS = [(game, step) for game in games.names() for step in course(game)]


@pytest.mark.parametrize("game", games.names())
def test_a_course_has_under_twenty_steps_with_distinct_keys(game):
    steps = course(game)
    assert 5 <= len(steps) < 20
    assert len({step.key for step in steps}) == len(steps)


@pytest.mark.parametrize(("game", "step"), STEPS, ids=[f"{g}-{s.key}" for g, s in STEPS])
def test_every_step_is_legal_and_its_goal_is_the_best_move(game, step):
    state = step.position()
    assert state.to_move is not None and not state.is_over()
    legal = state.legal_moves()
    goals = step.goal_moves(state)
    assert goals and all(goal in legal for goal in goals)
    if len(legal) == 1:
        return
    learn = analysis.learn_of(game)
    exact = analysis.hindsight_values(state)
    if exact is not None:   # nothing hidden: the exact solver proves it
        best = max(exact.values())
        assert all(exact[goal] == best for goal in goals), {str(m): v for m, v in exact.items()}
    else:   # the search: within the first label's threshold of the best
        found = analysis.values(state, iterations=3000, seed=1)
        best = max(found.values())
        for goal in goals:
            assert learn.loss(best, found[goal]) < learn.thresholds[0]


@pytest.mark.parametrize(("game", "step"), STEPS, ids=[f"{g}-{s.key}" for g, s in STEPS])
def test_every_step_is_worded_in_every_language(game, step):
    for texts in (step.title, step.text, step.miss):
        assert set(texts) == set(LANGS) and all(texts.values())
    assert len({step.text[lang] for lang in LANGS}) == len(LANGS)


def step_of(game, key):
    return next(step for step in course(game) if step.key == key)


def test_the_goal_is_right_and_a_legal_miss_gets_the_point_in_words():
    step = step_of("pasur", "points")
    assert check(step, "A♠ x 10♦").right
    missed = check(step, "2♥ x 9♠")
    assert not missed.right and "not the point" in missed.reason and "10♦" in missed.reason
    assert check(step, "2♥ x 9♠", lang="fa").reason.startswith("مجاز است")


def test_an_illegal_move_gets_the_rules_reason():
    step = step_of("durak", "trump")
    refused = check(step, "defend A♠ with 7♣")
    assert not refused.right and refused.reason.startswith("Not allowed:")
    assert len(refused.reason) > len("Not allowed: ") + 10
    assert not check(step, "nonsense").right


def test_progress_is_kept_and_a_damaged_file_starts_over(tmp_path):
    path = tmp_path / "progress.json"
    steps = course("durak")
    progress = Progress(path)
    assert progress.next_step("durak", steps) == 0
    progress.mark("durak", steps[0].key)
    assert Progress(path).next_step("durak", steps) == 1
    path.write_text("[not json")
    assert Progress(path).next_step("durak", steps) == 0


def test_learn_in_the_terminal_keeps_progress(tmp_path):
    env = {"CARDTABLE_HOME": str(tmp_path), "COLUMNS": "120"}
    first = course("durak")[0]
    result = CliRunner().invoke(app, ["learn", "durak"], input=f"1\n{first.goals[0]}\nq\n",
                                env=env)
    assert result.exit_code == 0, result.output
    assert "not the point" in result.output and "Right." in result.output
    saved = json.loads((tmp_path / "progress.json").read_text())
    assert saved["lessons"]["durak"] == [first.key]
    again = CliRunner().invoke(app, ["learn", "durak", "--lang", "ru"], input="q\n", env=env)
    assert f"2/{len(course('durak'))}" in again.output
