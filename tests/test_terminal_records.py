"""The terminal never loses a record: it asks before it writes over a
file, y and n mean yes and no, q can be taken back, a game left before a move writes
nothing, every output path and optional extra is checked before the work, anything left
is one line; a saved game can be continued, and a finished one offers a rematch."""

import importlib.util
import json
import sys

import pytest
from typer.testing import CliRunner

from cardtable import cli, records
from cardtable.cli import app

runner = CliRunner()


def run(args, lines=(), env=None):
    return runner.invoke(app, args, input="".join(f"{x}\n" for x in lines), env=env)


def check_one_line_refusal(result, *words):
    """Refused: a non-zero exit, one line, no traceback, the words in it."""
    assert result.exit_code not in (0, None), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in result.output, result.output
    for word in words:
        assert word in lines[0], lines[0]


PASUR = ["play", "pasur", "--vs", "random", "--seed", "2", "--no-color"]


@pytest.fixture
def kept(tmp_path):
    """A record someone cares about: a finished Durak game."""
    path = tmp_path / "kept.json"
    result = run(["play", "durak", "--vs", "random", "--seed", "4", "--save", str(path),
                  "--no-color"], ["1"] * 300)
    assert result.exit_code == 0, result.output
    assert records.load(path).result is not None
    return path


# -- nothing is written over without a yes --------------------------------------------------

def test_save_to_an_existing_file_asks_first_and_no_leaves_it_before_the_game(kept):
    before = kept.read_bytes()
    result = run([*PASUR, "--save", str(kept)], ["n", "1", "q", "y"])
    assert "already exists: write over it? (y/n)" in result.output
    assert result.exit_code != 0 and "Pasur ·" not in result.output   # nothing was played
    assert kept.read_bytes() == before


def test_save_to_an_existing_file_writes_over_it_after_a_yes(kept):
    result = run([*PASUR, "--save", str(kept)], ["y", "1", "q", "y"])
    assert result.exit_code == 0, result.output
    assert records.load(kept).game == "pasur"


def test_ctrl_d_at_the_first_prompt_never_replaces_a_record(kept):
    before = kept.read_bytes()
    # the input ends at once: the question before the game is a no
    assert run([*PASUR, "--save", str(kept)], []).exit_code != 0
    # a yes, then the input ends at the first move: nothing was played, nothing written
    result = run([*PASUR, "--save", str(kept)], ["y"])
    assert "Nothing played: nothing saved." in result.output
    assert kept.read_bytes() == before


def test_y_at_the_save_prompt_asks_for_a_name_and_n_saves_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run(PASUR, ["1", "q", "y", "y", "left.json"])
    assert "File name:" in result.output and "Saved the game to left.json" in result.output
    assert records.load(tmp_path / "left.json").moves and not (tmp_path / "y").exists()
    result = run(PASUR, ["1", "q", "y", "n"])
    assert "Not saved." in result.output and not (tmp_path / "n").exists()


def test_the_save_prompt_asks_before_writing_over_a_file(tmp_path, kept):
    before = kept.read_bytes()
    other = tmp_path / "other.json"
    result = run(PASUR, ["1", "q", "y", str(kept), "n", str(other)])
    assert "already exists: write over it?" in result.output
    assert f"Left {kept} as it was." in result.output
    assert kept.read_bytes() == before and records.load(other).game == "pasur"


def test_q_asks_and_n_goes_back_to_the_game(tmp_path):
    target = tmp_path / "g.json"
    result = run([*PASUR, "--save", str(target)], ["q", "n", "1", "q", "y"])
    assert "Leave the game? (y/n)" in result.output and "Back to the game." in result.output
    assert records.load(target).moves                 # the move after the "n" was played


# -- paths and extras are checked before any work ------------------------------------------

@pytest.mark.parametrize("where, words", [
    ("missing/a.json", ["there is no folder"]),
    (".", ["is a folder"]),
    ("/proc/a.json", ["cannot write /proc/a.json"]),       # read-only, even for root
])
def test_analyse_json_is_checked_before_the_analysis(tmp_path, kept, where, words):
    target = where if where.startswith("/") else str(tmp_path / where)
    result = run(["analyse", str(kept), "--json", target])
    check_one_line_refusal(result, *words)


def test_puzzle_out_into_a_missing_folder_is_refused_before_searching(tmp_path, kept):
    result = run(["puzzle", "--make", str(kept), "--out", str(tmp_path / "no" / "p.json")])
    check_one_line_refusal(result, "there is no folder")


def test_arena_json_into_proc_is_refused_before_it_plays():
    result = run(["arena", "durak", "--bots", "random,random", "--games", "2",
                  "--json", "/proc/a.json"])
    check_one_line_refusal(result, "cannot write /proc/a.json")


def without(monkeypatch, *names):
    """As if the packages ``names`` were not installed."""
    real = importlib.util.find_spec

    def find_spec(name, *args, **kwargs):
        return None if name.split(".")[0] in names else real(name, *args, **kwargs)

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
    for name in names:
        monkeypatch.setitem(sys.modules, name, None)


def test_arena_plot_without_matplotlib_is_one_line_before_it_plays(tmp_path, monkeypatch):
    without(monkeypatch, "matplotlib")
    result = run(["arena", "durak", "--bots", "random,random", "--games", "2",
                  "--plot", str(tmp_path / "p.png")])
    check_one_line_refusal(result, "--plot needs matplotlib")


def test_analyse_plot_without_matplotlib_is_one_line_before_the_analysis(
        tmp_path, kept, monkeypatch):
    without(monkeypatch, "matplotlib")
    check_one_line_refusal(run(["analyse", str(kept), "--plot", str(tmp_path / "p.png")]),
                     "--plot needs matplotlib")


def test_watch_table_without_the_server_extras_is_one_line(monkeypatch):
    without(monkeypatch, "websockets")
    check_one_line_refusal(run(["watch-table", "http://127.0.0.1:1/table/x"]),
                     "watch-table needs websockets", "cardtable[server]")


def test_anything_left_uncaught_is_one_line_and_a_non_zero_exit(monkeypatch, capsys):
    def broken(name):
        raise RuntimeError("the disk is on fire")

    monkeypatch.setattr(cli.gamelib, "get", broken)
    monkeypatch.setattr(sys, "argv", ["cardtable", "rules", "pasur"])
    with pytest.raises(SystemExit) as stopped:
        cli.main()
    assert stopped.value.code == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("cardtable: ") and "the disk is on fire" in err


# -- a saved game goes on ------------------------------------------------------------------

def test_a_game_saved_with_q_is_continued_by_resume_and_saved_back(tmp_path):
    path = tmp_path / "g.json"
    run(PASUR, ["1", "q", "y", str(path)])
    saved = records.load(path)
    result = run(["play", "--resume", str(path), "--no-color"], ["1", "q", "y"])
    assert result.exit_code == 0, result.output
    assert "already exists" not in result.output     # it continues the file: no question
    resumed = records.load(path)
    # the saved moves replay exactly, then the moves played after the resume
    assert resumed.moves[:len(saved.moves)] == saved.moves
    assert len(resumed.moves) > len(saved.moves) and resumed.decks == saved.decks
    assert resumed.seats == saved.seats
    resumed.replay()


def test_resume_shows_the_saved_position_and_its_moves(tmp_path):
    path = tmp_path / "g.json"
    run(PASUR, ["1", "q", "y", str(path)])
    state = records.load(path).replay()
    result = run(["play", "--resume", str(path), "--no-color"], ["q", "y"])
    hand = " ".join(state.view(0)["hand"])
    assert f"You: {hand}" in result.output


def test_a_record_that_cannot_be_continued_is_one_line(tmp_path, kept):
    data = json.loads(kept.read_text())
    data["moves"][0] = "take"
    data["result"] = None
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    check_one_line_refusal(run(["play", "--resume", str(bad)]), "move 1")
    check_one_line_refusal(run(["play", "pasur", "--resume", str(kept)]), "not pasur")


def test_a_finished_game_offers_a_rematch_on_a_new_deal(tmp_path, kept):
    again = tmp_path / "again.json"
    result = run(["play", "--resume", str(kept), "--no-color", "--seed", "9"],
                 ["y", "1", "q", "y", "y", str(again)])
    assert result.exit_code == 0, result.output
    assert "Play again (a rematch on a new deal)? (y/n)" in result.output
    rematch, first = records.load(again), records.load(kept)
    assert rematch.game == "durak" and rematch.decks != first.decks
    assert rematch.seats == first.seats


def human_moves(record):
    """How many answers the human (seat 0) gave in a recorded game."""
    movers = [state.to_move for _, _, state in record.states()][:-1]
    return movers.count(0)


def test_a_rematch_never_writes_over_the_first_games_save(tmp_path, kept):
    path = tmp_path / "match.json"
    answers = ["1"] * human_moves(records.load(kept))     # the same game as ``kept``
    result = run(["play", "durak", "--vs", "random", "--seed", "4", "--save", str(path),
                  "--no-color"], [*answers, "y", *["1"] * 300])
    assert result.exit_code == 0, result.output
    first, second = records.load(path), records.load(tmp_path / "match-2.json")
    assert first.result is not None and second.decks != first.decks


def test_save_games_into_proc_is_refused_before_it_plays():
    result = run(["arena", "durak", "--bots", "random,random", "--games", "2",
                  "--save-games", "/proc/games"])
    check_one_line_refusal(result, "cannot write in the folder /proc/games")


def test_serve_without_the_server_extras_is_one_line(monkeypatch):
    without(monkeypatch, "uvicorn")
    check_one_line_refusal(run(["serve"]), "the web table needs uvicorn", "cardtable[server]")


def test_a_resumed_game_undone_and_played_otherwise_is_not_written_over_unasked(tmp_path):
    path = tmp_path / "g.json"
    run(PASUR, ["1", "q", "y", str(path)])
    before = path.read_bytes()
    # undo the saved move, play another one: the file no longer holds a part of this game
    result = run(["play", "--resume", str(path), "--no-color"], ["u", "2", "q", "y", "n"])
    assert "already exists: write over it?" in result.output
    assert path.read_bytes() == before


# -- a finished game is offered to be saved, and no output replaces what was read -------

def test_a_finished_game_without_save_asks_to_save_it_before_play_again(tmp_path, kept):
    mine = tmp_path / "mine.json"
    answers = ["1"] * human_moves(records.load(kept))     # the same game as ``kept``
    result = run(["play", "durak", "--vs", "random", "--seed", "4", "--no-color"],
                 [*answers, str(mine), "n"])
    assert result.exit_code == 0, result.output
    asked = result.output.index("Save this game?")
    assert asked < result.output.index("Play again (a rematch on a new deal)?")
    saved = records.load(mine)
    assert saved.result is not None and saved.moves == records.load(kept).moves


def test_a_finished_game_left_unsaved_says_so_and_still_offers_a_rematch(tmp_path, kept):
    answers = ["1"] * human_moves(records.load(kept))
    result = run(["play", "durak", "--vs", "random", "--seed", "4", "--no-color"],
                 [*answers, "n", "n"])
    assert result.exit_code == 0, result.output
    assert "Not saved." in result.output and "Play again" in result.output
