"""Every bad input to every command is refused in one line, never with a traceback, and
no game is ever lost to a path."""

import builtins
import json
import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from cardtable import records
from cardtable.cli import app, parse_options

runner = CliRunner()


def run(args, lines=(), env=None):
    return runner.invoke(app, args, input="".join(f"{x}\n" for x in lines), env=env)


def check_one_line_refusal(result, *words):
    """Refused: a non-zero exit, one line of output, no traceback, the words in it."""
    assert result.exit_code not in (0, None), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    assert "Traceback" not in result.output
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


@pytest.fixture
def game_record(tmp_path):
    saved = tmp_path / "g.json"
    result = run(["play", "durak", "--vs", "random", "--seed", "4", "--save", str(saved),
                  "--no-color"], ["1"] * 300)
    assert result.exit_code == 0, result.output
    return saved


# -- paths are checked before anything is played -------------------------------------------

@pytest.mark.parametrize("where, words", [
    ("missing/game.json", ["there is no folder", "missing"]),
    (".", ["is a folder"]),
    ("afile/game.json", ["afile is a file, not a folder"]),
])
def test_a_bad_save_path_is_refused_before_the_first_move(tmp_path, where, words):
    (tmp_path / "afile").write_text("x")
    target = tmp_path / where
    result = run(["play", "pasur", "--vs", "random", "--save", str(target), "--no-color"],
                 ["1"] * 400)
    line = check_one_line_refusal(result, *words)
    assert "Pasur ·" not in result.output and line.startswith("cardtable: ")


@pytest.mark.parametrize("flag", ["--json", "--plot"])
def test_the_arenas_output_paths_are_checked_before_it_plays(tmp_path, flag):
    result = run(["arena", "durak", "--bots", "random,random", "--games", "2",
                  flag, str(tmp_path / "nowhere" / "out")])
    check_one_line_refusal(result, "there is no folder")
    result = run(["arena", "durak", "--bots", "random,random", "--games", "2",
                  flag, str(tmp_path)])
    check_one_line_refusal(result, "is a folder")


def test_save_games_into_a_file_is_refused(tmp_path):
    (tmp_path / "afile").write_text("x")
    result = run(["arena", "durak", "--bots", "random,random", "--games", "2",
                  "--save-games", str(tmp_path / "afile")])
    check_one_line_refusal(result, "is a file, not a folder")


def test_a_tilde_in_the_save_path_is_the_home_folder(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    result = run(["play", "pasur", "--vs", "random", "--seed", "2", "--save", "~/g.json",
                  "--no-color"], ["1", "q"], env={"HOME": str(home)})
    assert result.exit_code == 0, result.output
    assert records.load(home / "g.json").moves


def test_the_save_prompt_asks_again_after_a_bad_path(tmp_path):
    good = tmp_path / "left.json"
    result = run(["play", "pasur", "--vs", "random", "--seed", "2", "--no-color"],
                 ["1", "q", "y", str(tmp_path / "no" / "x.json"), str(tmp_path), str(good)])
    assert result.exit_code == 0, result.output
    assert result.output.count("Save this game?") == 3
    assert "Not saved: there is no folder" in result.output
    assert "is a folder" in result.output
    assert records.load(good).moves


def test_ctrl_c_saves_the_game_when_save_was_given(tmp_path, monkeypatch):
    target = tmp_path / "stopped.json"
    answers = iter(["1", "1"])

    def typed(prompt=""):
        try:
            return next(answers)
        except StopIteration:
            raise KeyboardInterrupt from None

    monkeypatch.setattr(builtins, "input", typed)
    result = run(["play", "pasur", "--vs", "random", "--seed", "2", "--save", str(target),
                  "--no-color"])
    assert result.exit_code == 130
    assert "Traceback" not in result.output and "Saved the game to" in result.output
    record = records.load(target)
    assert record.result is None and len(record.moves) >= 2
    record.replay()


# -- one line for every bad input ----------------------------------------------------------

@pytest.mark.parametrize("args, words", [
    (["demo", "pasur", "--bots", "greedy,grandmaster"], ["no bot 'grandmaster'"]),
    (["demo", "pasur", "--bots", "random,random,random", "--players", "2"],
     ["3 bots for 2 players"]),
    (["demo", "pasur", "--bots", "random,random,random"], ["not 3"]),
    (["demo", "pasur", "--bots", ""], ["names no bot"]),
    (["play", "pasur", "--players", "0"], ["not 0"]),
    (["play", "pasur", "--vs", ""], ["--vs names no bot"]),
    (["play", "pasur", "--vs", "random,random,random"], ["3 bots for 1 other seat"]),
    (["play", "pasur", "--vs", "grandmaster"], ["no bot 'grandmaster'"]),
    (["play", "chess"], ["no game 'chess'"]),
    (["rules", "durak", "--preset", "kyiv"], ["no preset 'kyiv'"]),
])
def test_bad_command_lines_are_refused_in_one_line(args, words):
    check_one_line_refusal(run(args), *words)


def test_player_counts_written_as_the_message_suggests_are_accepted():
    assert parse_options(["player_counts=2,4"]) == {"player_counts": [2, 4]}
    result = run(["play", "pasur", "-o", "player_counts=2,4", "--players", "4",
                  "--vs", "random", "--seed", "1", "--no-color"], ["q"])
    assert result.exit_code == 0, result.output
    assert "Random C" in result.output          # four seats: You and three bots


def test_demo_takes_rules_players_and_options_like_play():
    result = run(["demo", "durak", "--bots", "random", "--players", "3", "-o",
                  "pack_size=52", "--seed", "2"])
    assert result.exit_code == 0, result.output
    assert "Random C" in result.output
    assert any(f" 2{suit}" in result.output for suit in "♣♦♥♠")    # the 52-card pack
    result = run(["demo", "pasur", "--bots", "random", "--rules", "turkish", "--players",
                  "3", "--seed", "2"])
    assert result.exit_code == 0, result.output
    assert "Random C" in result.output


def test_a_record_that_is_not_utf8_is_refused_in_one_line(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'{"format": "\xff\xfe"}')
    for args in (["replay", str(bad)], ["replay", "--check", str(bad)]):
        check_one_line_refusal(run(args), "not UTF-8")


@pytest.mark.parametrize("change, words", [
    (lambda d: d.update(seats="x"), ['"seats" must be a list']),
    (lambda d: d.update(seats=[1, 2]), ["seat 1 must be an object"]),
    (lambda d: d.update(setup=[1]), ['"setup" must be an object']),
    (lambda d: d["moves"].__setitem__(0, 5), ["move 1 must be text"]),
    (lambda d: d.update(players="2"), ['"players" must be a whole number']),
    (lambda d: d.update(players=True), ['"players" must be a whole number']),
    (lambda d: d.update(preset=7), ['"preset" must be text or null']),
    (lambda d: d.update(started=7), ['"started" must be text or null']),
    (lambda d: d["decks"].__setitem__(0, [5]), ["deck 1 must list its cards as text"]),
])
def test_a_record_with_wrongly_typed_fields_is_refused_by_replay_and_check(
        tmp_path, game_record, change, words):
    data = json.loads(game_record.read_text())
    change(data)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data, indent=1))
    check_one_line_refusal(run(["replay", "--check", str(bad)]), *words, "line ")
    check_one_line_refusal(run(["replay", str(bad)], ["q"]), *words)


def test_replay_of_a_folder_or_a_missing_file_is_one_line(tmp_path):
    check_one_line_refusal(run(["replay", str(tmp_path)]), "is a folder")
    check_one_line_refusal(run(["replay", str(tmp_path / "none.json")]), "No such file")


def test_a_terminal_without_card_symbols_gets_10d_style_cards(tmp_path):
    env = dict(os.environ, PYTHONIOENCODING="ascii", PYTHONPATH=os.getcwd())
    demo = subprocess.run([sys.executable, "-m", "cardtable.cli", "demo", "durak", "--bots",
                           "random", "--seed", "1"], capture_output=True, env=env, timeout=120)
    assert demo.returncode == 0, demo.stderr.decode(errors="replace")
    text = demo.stdout.decode("ascii")
    assert "Traceback" not in text and "holds" in text
    assert any(card in text for card in ("6C", "6D", "6H", "6S", "AC", "AD", "AH", "AS"))
    played = subprocess.run([sys.executable, "-m", "cardtable.cli", "play", "pasur", "--vs",
                             "random", "--seed", "5", "--no-color"], input=b"1\nq\n\n",
                            capture_output=True, env=env, timeout=120)
    assert played.returncode == 0, played.stderr.decode(errors="replace")
    assert "Table:" in played.stdout.decode("ascii")
    rules = subprocess.run([sys.executable, "-m", "cardtable.cli", "rules", "pasur"],
                           capture_output=True, env=env, timeout=120)
    assert rules.returncode == 0 and "Traceback" not in rules.stderr.decode("ascii")


@pytest.mark.parametrize("width", [40, 60, 80, 120])
def test_rules_never_cut_an_option_name(width):
    from cardtable import games
    from cardtable.game import rule_options

    for game in games.names():
        result = run(["rules", game], env={"COLUMNS": str(width)})
        assert result.exit_code == 0
        words = set(result.output.replace("│", " ").replace("┃", " ").split())
        for option in rule_options(games.get(game).rules_type):
            assert option.name in words, (game, width, option.name)


@pytest.mark.parametrize("args, words", [
    (["play", "pasur", "--players", "x"], "Invalid value for '--players'"),
    (["plai"], "No such command 'plai'"),
    (["rules"], "Missing argument"),
    (["rules", "pasur", "--bogus"], "No such option: --bogus"),
])
def test_command_line_mistakes_are_one_line_from_the_command_itself(args, words):
    env = dict(os.environ, PYTHONPATH=os.getcwd())
    done = subprocess.run([sys.executable, "-m", "cardtable.cli", *args], capture_output=True,
                          text=True, env=env, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("cardtable: ")
    assert words in done.stderr and "Traceback" not in done.stderr
