"""Outside agents (module:function -> pyspiel.Bot) in the arena and on the ladder."""

from __future__ import annotations

import json

import pytest
from adapter_helpers import card, deck
from typer.testing import CliRunner

from cardtable import arena, bots
from cardtable.arena import ladder
from cardtable.cli import app
from cardtable.pasur import PRESETS, Hand

runner = CliRunner()


def test_a_module_function_spec_is_an_outside_agent():
    assert bots.parse_spec("outside_agents:first_legal") == (
        "agent", {"entry": "outside_agents:first_legal"})
    assert bots.parse_spec("ismcts:iterations=5") == ("ismcts", {"iterations": 5})
    with pytest.raises(ValueError, match="name=value"):
        bots.parse_spec("ismcts:fast")          # a known kind: an option, not an agent


def test_an_outside_agent_plays_duplicate_deals_in_the_arena():
    run = arena.run("pasur", ["outside_agents:first_legal", "beginner"], games=4,
                    hands=True, seed=2)
    assert len(run.results) == 4
    for result in run.results:
        assert result.moves == 48 and sum(result.returns) == pytest.approx(0.0)
        assert len(result.cpu) == 2 and result.seat_moves == (24, 24)
    run = arena.run("durak", ["outside_agents:first_legal", "random"], games=2, seed=2)
    assert all(r.finished for r in run.results)


def test_an_outside_agent_never_sees_the_opponents_hidden_cards():
    first = deck("7♣ 3♦ 9♠ K♥", "5♣ 6♦ 8♠ Q♥", "2♠ 2♥ 4♦ K♣")
    second = list(first)
    i, j = second.index(card("8♠")), second.index(card("A♠"))
    second[i], second[j] = second[j], second[i]
    moves = {bots.make("outside_agents:peeking", seed=3).choose(
        Hand.new(PRESETS["standard"], deck=cards)) for cards in (first, second)}
    assert len(moves) == 1


def test_an_agent_that_takes_a_seed_is_given_one():
    import outside_agents

    outside_agents.seeded_with.clear()
    bots.make("outside_agents:seeded", seed=5).choose(Hand.new(PRESETS["standard"], seed=1))
    assert len(outside_agents.seeded_with) == 1


@pytest.mark.parametrize(("spec", "error"), [
    ("no_such_module_here:make", "cannot import the agent's module"),
    ("outside_agents:nothing", "has no function 'nothing'"),
])
def test_an_agent_that_cannot_be_loaded_is_refused_with_its_reason(spec, error):
    with pytest.raises(ValueError, match=error):
        bots.make(spec)


@pytest.mark.parametrize(("spec", "error"), [
    ("outside_agents:illegal", "not a legal action"),
    ("outside_agents:not_a_bot", "has no step"),
])
def test_an_agent_that_misbehaves_is_stopped_with_its_reason(spec, error):
    with pytest.raises(ValueError, match=error):
        bots.make(spec).choose(Hand.new(PRESETS["standard"], seed=1))


def test_the_ladder_rating_rises_with_the_score_and_matches_elo():
    low = ladder.rating_from([(0.0, 1.0), (0.0, 0.0), (0.0, 0.0)])
    high = ladder.rating_from([(0.0, 1.0), (0.0, 1.0), (0.0, 0.0)])
    assert low == pytest.approx(-high, abs=0.2) and high > 0
    assert ladder.expected(high, 0.0) == pytest.approx(2 / 3, abs=1e-3)
    assert ladder.rating_from([]) is None
    assert ladder.rating_from([(100.0, 0.0)] * 3) is None


def test_climb_plays_every_rung_and_rates_on_the_published_ladder(monkeypatch):
    monkeypatch.setattr(ladder, "published",
                        lambda game: {"ratings": {"random": 0.0, "beginner": 300.0}})
    outcome = ladder.climb("pasur", "outside_agents:first_legal",
                           levels=["random", "beginner"], deals=3, seed=1)
    assert [r["level"] for r in outcome["rungs"]] == ["random", "beginner"]
    assert all(r["games"] == 6 and r["points"] is not None for r in outcome["rungs"])
    scores = [r["score"] for r in outcome["rungs"]]
    expected_none = all(s in (0.0, 1.0) for s in scores) and len(set(scores)) == 1
    assert (outcome["rating"] is None) == expected_none


def test_the_ladder_command_prints_one_table_and_writes_json(tmp_path):
    out = tmp_path / "ladder.json"
    result = runner.invoke(app, ["ladder", "durak", "--agent", "outside_agents:first_legal",
                                 "--levels", "random,beginner", "--deals", "2",
                                 "--json", str(out)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "durak rate" in result.output and "beginner" in result.output
    data = json.loads(out.read_text())
    assert [r["level"] for r in data["rungs"]] == ["random", "beginner"]
    assert all(r["loss_rate"] is not None for r in data["rungs"])


@pytest.mark.parametrize(("args", "error"), [
    (["--agent", "no_such_module_here:make"], "cannot import"),
    (["--agent", "easy", "--deals", "0"], "--deals is 1 to"),
    (["--agent", "easy", "--levels", "grandmaster"], "no bot 'grandmaster'"),
    (["--agent", "easy", "--levels", "easy"], "also a rung"),
])
def test_the_ladder_command_refuses_bad_input_with_a_reason(args, error):
    result = runner.invoke(app, ["ladder", "pasur", *args], env={"COLUMNS": "200"})
    assert result.exit_code == 2
    assert error in result.output
