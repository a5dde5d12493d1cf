"""`cardtable analyse`, `puzzle --make` and `arena` lose nothing: an output never replaces
the record read, an existing file is written over only after a yes (or --force), the
record is checked as `replay --check` checks it, an unfinished game is said to be one;
and the analysis reads at 80 columns, a Durak throw-in called so and its loss in %."""

import json
import re

import pytest
from typer.testing import CliRunner

from cardtable import bots, games, records
from cardtable.cli import app

runner = CliRunner()


def run(args, lines=(), env=None):
    return runner.invoke(app, args, input="".join(f"{x}\n" for x in lines), env=env)


def check_refused_in_one_line(result, *words):
    assert result.exit_code not in (0, None), result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert lines and "Traceback" not in result.output, result.output
    assert all(word in lines[-1] for word in words), lines[-1]


def up_to_a_throw_in(seed=3):
    """A 2-player Durak game (greedy against random) up to its first throw-in: short and
    unfinished, so the analysis is quick."""
    spec = games.get("durak")
    state = spec.start(spec.rules(), players=2, seed=seed)
    players = [bots.make("greedy", seed=1), bots.make("random", seed=2)]
    moves = []
    while True:
        table = state.view(None)["table"]
        move = players[state.to_move].choose(state)
        state.push(move)
        moves.append(str(move))
        if str(move).startswith("attack") and table:
            break
    record = records.record_of(spec.start(spec.rules(), players=2, seed=seed), "durak",
                               seats=[{"name": "Ana", "kind": "human"},
                                      {"name": "Bo", "kind": "human"}])
    record.moves = moves
    return record


def words(text):
    """The words of a text, the table's rule aside (as long as the table is wide)."""
    return sorted(word for word in text.split() if set(word) != {"─"})


@pytest.fixture
def short(tmp_path):
    path = tmp_path / "short.json"
    up_to_a_throw_in().save(path)
    return path


FAST = ["--iterations", "200", "--no-hindsight"]


# -- never over the record read, never over a file unasked ----------------------------------

@pytest.mark.parametrize("spelling", ["same", "dotdot", "force"])
def test_analyse_never_writes_its_json_over_the_record_it_reads(short, spelling):
    before = short.read_bytes()
    target = {"same": str(short), "force": str(short),
              "dotdot": str(short.parent / ".." / short.parent.name / short.name)}[spelling]
    extra = ["--force"] if spelling == "force" else []
    result = run(["analyse", str(short), *FAST, "--json", target, *extra])
    check_refused_in_one_line(result, "is the record this command reads")
    assert short.read_bytes() == before


def test_analyse_asks_before_writing_over_a_file_and_no_leaves_it(short, tmp_path):
    out = tmp_path / "analysis.json"
    out.write_text("mine")
    result = run(["analyse", str(short), *FAST, "--json", str(out)], ["n"])
    assert f"{out} already exists: write over it? (y/n)" in result.output
    check_refused_in_one_line(result, f"left {out} as it was", "--force")
    assert out.read_text() == "mine" and "loss" not in result.output   # nothing judged
    assert run(["analyse", str(short), *FAST, "--json", str(out)], []).exit_code != 0
    assert out.read_text() == "mine"                  # the input's end is a no
    result = run(["analyse", str(short), *FAST, "--json", str(out)], ["y"])
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["game"] == "durak"
    out.write_text("mine")
    result = run(["analyse", str(short), *FAST, "--json", str(out), "--force"])
    assert result.exit_code == 0 and "already exists" not in result.output, result.output
    assert json.loads(out.read_text())["game"] == "durak"


def test_puzzle_make_never_writes_over_a_record_it_reads_and_asks_before_others(
        short, tmp_path):
    before = short.read_bytes()
    result = run(["puzzle", "--make", str(short), "--out", str(short), "--force"])
    check_refused_in_one_line(result, "--out", "is the record this command reads")
    assert short.read_bytes() == before
    out = tmp_path / "puzzles.json"
    out.write_text("mine")
    result = run(["puzzle", "--make", str(short), "--out", str(out)], ["n"])
    assert "already exists: write over it?" in result.output
    check_refused_in_one_line(result, f"left {out} as it was")
    assert out.read_text() == "mine"


def test_arena_asks_before_writing_its_figures_over_a_file(tmp_path):
    out = tmp_path / "figures.json"
    out.write_text("mine")
    args = ["arena", "durak", "--bots", "random,random", "--games", "2", "--json", str(out)]
    result = run(args, ["n"])
    assert "already exists: write over it?" in result.output
    check_refused_in_one_line(result, f"left {out} as it was")
    assert out.read_text() == "mine" and "durak rate" not in result.stdout  # nothing played
    result = run(args, ["y"])
    assert result.exit_code == 0 and json.loads(out.read_text())["games"] == 2
    result = run([*args, "--force"])
    assert result.exit_code == 0 and "already exists" not in result.output


# -- the record is checked as replay --check checks it ---------------------------------------

@pytest.mark.parametrize("spoil, words", [
    (lambda data: data.update(result={"loser": 1}), "differs from the recorded result"),
    (lambda data: data["moves"].__setitem__(0, "take"), "move 1"),
    (lambda data: data.update(players="2"), "must be a whole number"),
])
def test_analyse_refuses_a_record_as_replay_check_does(tmp_path, short, spoil, words):
    data = json.loads(short.read_text())
    spoil(data)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data, ensure_ascii=False))
    checked = run(["replay", "--check", str(bad)])
    analysed = run(["analyse", str(bad), *FAST])
    check_refused_in_one_line(checked, words)
    check_refused_in_one_line(analysed, words)
    assert analysed.output == checked.output and analysed.exit_code == checked.exit_code


def test_analyse_says_when_a_game_is_unfinished(short, tmp_path):
    result = run(["analyse", str(short), *FAST])
    assert result.exit_code == 0, result.output
    moves = len(records.load(short).moves)
    said = " ".join(result.output.split())
    assert f"the game is unfinished ({moves} moves, no result)" in said


# -- the table reads at 80 columns, in the game's words ---------------------------------------

def test_the_analysis_table_reads_at_80_columns_and_calls_a_throw_in_so(
        short, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)       # a short path: a word longer than a line is folded
    out = tmp_path / "analysis.json"
    result = run(["analyse", short.name, *FAST, "--json", out.name], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert all(len(line) <= 80 for line in lines), max(lines, key=len)
    # nothing cut short (an ellipsis, or a line cropped at the edge): every word of the
    # analysis at 300 columns is there at 80
    wide = run(["analyse", short.name, *FAST], env={"COLUMNS": "300"})
    assert "…" not in result.output
    assert words(wide.output) == words(result.output), result.output
    data = json.loads(out.read_text())
    moves = [m for m in data["moves"] if m["choices"] > 1]
    # the last move is a throw-in: called so in the table and the JSON, never "attack"
    last = moves[-1]
    assert last["move"].startswith("throw in ") and last["best"].startswith(
        ("throw in ", "pass")), last
    for move in moves:       # every move played is whole on one line of the table
        assert any(re.search(rf"(^|\s){re.escape(move['move'])}(\s|$)", line)
                   for line in lines), \
            move["move"]
    table = "\n".join(lines)
    assert re.search(rf"{re.escape(last['move'])}\s+\d+\.\d% ±\d+\.\d%", table), table
    # a player's mean loss is a percentage too (the chance of being the durak added)
    said = " ".join(result.output.split())
    assert re.search(r"Ana: .*mean loss \d+\.\d% \(-?\d+\.\d% to \d+\.\d%, 95%\)", said), said
    row = next(i for i, line in enumerate(lines) if re.match(rf"\s*{last['index']}\s", line))
    assert "attack" not in "\n".join(lines[row:row + 3]), lines[row:row + 3]  # and best
    # the record's own text reads back: the throw-in as written plays the move played
    state = records.load(short).replay()
    state.pop()
    assert str(state.parse_move(last["move"])) == records.load(short).moves[-1]


# -- the advice names the right extra, the help says where hints come from --------------------

def test_analyse_plot_names_the_extra_that_brings_matplotlib(short, tmp_path, monkeypatch):
    import importlib.util
    import sys

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a, **k: None
                        if name.startswith("matplotlib") else real(name, *a, **k))
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    result = run(["analyse", str(short), *FAST, "--plot", str(tmp_path / "p.png")])
    check_refused_in_one_line(result, "pip install 'cardtable[arena]'")


def test_play_hints_help_says_the_hint_is_the_analysis_judges():
    result = run(["play", "--help"], env={"COLUMNS": "200"})
    text = " ".join(result.output.split())
    assert re.search(r"--hint \S+ h hints the move the analysis's judge ranks best", text), \
        text


def test_a_tie_the_solver_proved_names_no_other_best(short):
    from rich.console import Console

    from cardtable.analysis import Judgement
    from cardtable.durak.learn import LEARN
    from cardtable.terminal.school import _table

    def said(j):
        return {"move": j.move, "best": j.best, "hindsight_best": j.hindsight_best}

    tie = Judgement(index=3, seat=0, move="take", best="defend 9♣ with J♣", loss=0.0,
                    label=None, hindsight_best="take", hindsight_loss=0.0, expected=0.5,
                    best_expected=0.5, choices=2, uncertainty=0.0)
    worse = Judgement(index=5, seat=1, move="pass", best="attack 7♦", loss=0.12,
                      label="mistake", hindsight_best=None, hindsight_loss=None,
                      expected=0.6, best_expected=0.48, choices=2, uncertainty=0.01)
    console = Console(width=80, color_system=None, record=True)
    console.print(_table("Transfer Durak", LEARN, [tie, worse], ["Ana", "Bo"], said))
    text = console.export_text()
    assert "defend 9♣ with J♣" not in text and "hindsight: best" in text    # a tie
    assert "best: attack 7♦" in text and "12.0% ±1.0%" in text


def test_a_puzzles_answer_and_values_call_a_throw_in_a_throw_in(tmp_path, monkeypatch):
    from cardtable.analysis import puzzles

    record = up_to_a_throw_in()
    thrown = record.moves.pop()                  # the position before the throw-in
    cut = records.record_of(record.replay(check=False), "durak")
    puzzle = {"id": "durak-test-1", "game": "durak", "record": cut.to_dict(), "seat":
              record.replay(check=False).to_move, "answer": thrown,
              "values": {thrown: 0.1, "pass": 0.9}, "proof": "search", "margin": 0.3,
              "iterations": 100, "seed": 0, "unit": "chance of being the durak"}
    monkeypatch.setattr(puzzles, "load", lambda path=None, game=None: [puzzle])
    result = run(["puzzle", "durak"], ["a"], env={"CARDTABLE_HOME": str(tmp_path),
                                                   "COLUMNS": "120"})
    said = thrown.replace("attack", "throw in")
    assert f"The answer is {said}." in result.output, result.output
    assert re.search(rf"^\s+{re.escape(said)}\s+10% durak$", result.output, re.M)
    assert thrown not in result.output


def test_a_long_capture_and_an_unsure_label_still_fit_80_columns():
    from rich.console import Console

    from cardtable.analysis import Judgement
    from cardtable.pasur.learn import LEARN
    from cardtable.terminal.school import _table

    def said(j):
        return {"move": j.move, "best": j.best, "hindsight_best": j.hindsight_best}

    rows = [Judgement(index=4, seat=1, move="A♠", best="J♥ x A♥ 6♥ 7♥ 7♠ 8♣ 8♠ 9♣ 9♠",
                      loss=3.2, label="inaccuracy", hindsight_best=None,
                      hindsight_loss=None, expected=0.1, best_expected=3.3, choices=5,
                      uncertainty=2.1, unsure="blunder"),
            Judgement(index=9, seat=0, move="J♦ x 2♠ 4♥ 4♠ 6♦ 8♥ 10♥", best="8♦",
                      loss=0.7, label=None, hindsight_best="8♦", hindsight_loss=0.5,
                      expected=0.0, best_expected=0.7, choices=4, uncertainty=0.6,
                      unsure="inaccuracy")]

    def shown(width):
        console = Console(width=width, color_system=None, record=True)
        console.print(_table("Pasur", LEARN, rows, ["Medium A", "ismcts 2"], said))
        return console.export_text()

    narrow = shown(80)
    assert max(len(line) for line in narrow.splitlines()) <= 80
    assert words(narrow) == words(shown(300)), narrow
