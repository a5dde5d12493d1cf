"""The terminal game, played through `cardtable play` with piped input, and its screen."""

import json
import shutil
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

from cardtable import records
from cardtable.cli import app

runner = CliRunner()


def play(args, lines):
    return runner.invoke(app, ["play", *args, "--no-color"], input="".join(f"{x}\n" for x in lines))


def test_a_whole_pasur_match_plays_through_piped_input(tmp_path):
    saved = tmp_path / "match.json"
    result = play(["pasur", "--vs", "random", "--seed", "5", "--save", str(saved)], ["1"] * 400)
    assert result.exit_code == 0, result.output
    assert "won the match" in result.output
    assert "Hand 1 is over" in result.output
    record = records.load(saved)
    assert record.game == "pasur" and record.result is not None
    state = record.replay()
    assert state.is_over() and record.result["winner"] == state.winner


def test_a_whole_durak_game_plays_through_piped_input(tmp_path):
    saved = tmp_path / "durak.json"
    result = play(["durak", "--vs", "random", "--seed", "3", "--save", str(saved)], ["1"] * 400)
    assert result.exit_code == 0, result.output
    assert "durak" in result.output.lower()
    record = records.load(saved)
    state = record.replay()
    assert state.is_over()
    assert record.result["loser"] == state.loser


def test_moves_can_be_typed_as_card_text():
    # Seed 5 deals seat 0 a hand; typing the first legal move's text plays it.
    from cardtable import pasur

    match = pasur.SPEC.start(pasur.PRESETS["standard"], players=2, seed=5)
    first = str(match.legal_moves()[0])
    ascii_text = first.replace("♣", "c").replace("♦", "d").replace("♥", "h").replace("♠", "s")
    result = play(["pasur", "--vs", "random", "--seed", "5"], [ascii_text, "q"])
    assert f"You: {first}" in result.output


def test_a_wrong_entry_is_explained_and_asked_again():
    result = play(["pasur", "--vs", "random", "--seed", "5"], ["9z", "99", "1", "q"])
    assert "'9z'" in result.output and "is not a" in result.output
    assert "There is no move 99" in result.output
    assert "You: " in result.output  # the move after the mistakes was played


def test_an_illegal_card_names_the_reason():
    from cardtable import pasur

    match = pasur.SPEC.start(pasur.PRESETS["standard"], players=2, seed=5)
    held = {str(m.card) for m in match.legal_moves()}
    missing = next(c for c in ("A♠", "2♠", "3♠", "4♠", "5♠", "6♠") if c not in held)
    result = play(["pasur", "--vs", "random", "--seed", "5"], [missing, "q"])
    assert "do not hold" in result.output or "not in your hand" in result.output


def test_hint_undo_and_rules_between_moves():
    result = play(["pasur", "--vs", "random", "--seed", "5"], ["h", "1", "u", "r", "", "q"])
    assert "Hint:" in result.output
    assert "Took back" in result.output
    assert "rules in force" in result.output and "forced_capture" in result.output


def test_hotseat_has_no_undo_and_hands_over_the_terminal():
    result = play(["pasur", "--hotseat", "--vs", "", "--seed", "1"],
                  ["", "1", "", "u", "q"])
    assert "pass the terminal to Player 2" in result.output
    assert "Undo is for practice games only" in result.output


def test_unknown_preset_or_option_is_refused():
    result = play(["pasur", "--rules", "nope"], [])
    assert result.exit_code != 0 and "no preset 'nope'" in result.output
    result = play(["durak", "-o", "colour=red"], [])
    assert result.exit_code != 0 and "unknown rule option 'colour'" in result.output


def test_quitting_offers_to_save(tmp_path):
    target = tmp_path / "left.json"
    result = play(["pasur", "--vs", "random", "--seed", "2"], ["1", "q", "y", str(target)])
    assert "Save this game?" in result.output
    record = records.load(target)
    assert record.result is None and len(record.moves) >= 1
    record.replay()


def test_replay_check_and_stepping(tmp_path):
    saved = tmp_path / "g.json"
    play(["durak", "--vs", "random", "--seed", "4", "--save", str(saved)], ["1"] * 300)
    checked = runner.invoke(app, ["replay", "--check", str(saved)])
    assert checked.exit_code == 0 and "replay to the recorded result" in checked.output
    stepped = runner.invoke(app, ["replay", str(saved), "--no-color"], input="n\nn\nb\nj 3\ne\nq\n")
    assert stepped.exit_code == 0
    assert "Move 3/" in stepped.output and "The deal." in stepped.output


def test_replay_refuses_a_bad_record_with_line_and_reason(tmp_path):
    saved = tmp_path / "g.json"
    play(["durak", "--vs", "random", "--seed", "4", "--save", str(saved)], ["1"] * 300)
    data = json.loads(saved.read_text())
    data["version"] = 99
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data, indent=1))
    result = runner.invoke(app, ["replay", "--check", str(bad)])
    assert result.exit_code == 1 and "line 3" in result.output and "version 99" in result.output


def test_demo_prints_a_whole_bot_match():
    result = runner.invoke(app, ["demo", "pasur", "--bots", "random,random", "--seed", "1"])
    assert result.exit_code == 0
    assert "holds" in result.output and "The match" in result.output


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_the_screen_fits_80x24_and_is_redrawn_not_scrolled(tmp_path):
    session = f"cardtable-test-{time.monotonic_ns()}"
    command = f"{sys.executable} -m cardtable.cli play pasur --vs random --seed 5"
    subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "80", "-y", "24",
                    command], check=True)
    try:
        screen = ""
        for _ in range(100):
            time.sleep(0.1)
            screen = subprocess.run(["tmux", "capture-pane", "-p", "-t", session],
                                    capture_output=True, text=True).stdout
            if "Table:" in screen and ">" in screen:
                break
        lines = screen.splitlines()
        assert lines[0].startswith("Pasur · hand 1 · deal 1/6")
        assert any(line.startswith("Table:") for line in lines)
        assert any(line.strip().startswith("1 ") for line in lines)
        assert all(len(line) <= 80 for line in lines) and len(lines) <= 24
        subprocess.run(["tmux", "send-keys", "-t", session, "1", "Enter"], check=True)
        for _ in range(100):
            time.sleep(0.1)
            screen = subprocess.run(["tmux", "capture-pane", "-p", "-t", session],
                                    capture_output=True, text=True).stdout
            if "You: " in screen:
                break
        lines = screen.splitlines()
        # Redrawn: the header is still the first line after a move.
        assert lines[0].startswith("Pasur · hand 1")
        assert "You: " in screen
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], check=False)


# -- a game that names no screen of its own ---------------------------------------------------

def screenless(name):
    import dataclasses

    from cardtable import games

    return dataclasses.replace(games.get(name), screen=None)


def test_a_game_without_a_screen_is_drawn_by_the_generic_one():
    from cardtable import games
    from cardtable.terminal import durak, generic, screen_module

    assert screen_module(screenless("durak")) is generic
    assert screen_module(games.get("durak")) is durak


def test_a_whole_game_plays_on_the_generic_screen_with_moves_by_number():
    import io

    from rich.console import Console

    from cardtable.terminal import Session

    spec = screenless("durak")
    out = io.StringIO()
    session = Session(spec, spec.rules(), players=2, plan=["human", "random"], seed=3,
                      console=Console(file=out, width=80, color_system=None),
                      read=lambda prompt: "1")
    state = session.run()
    text = out.getvalue()
    assert state.is_over()
    assert "Transfer Durak · You to play" in text and "Table: " in text
    assert "You: " in text and "your turn" in text
    assert " 1 " in text                                   # the moves, numbered
    assert "Transfer Durak: the game is over." in text and "loser: " in text
    # every human move was the first legal move listed at the time
    assert [move for seat, move in session.log if seat == 0]


def test_the_generic_screen_shows_the_views_fields_and_hides_nothing_it_is_not_given():
    from rich.console import Console

    from cardtable import durak
    from cardtable.terminal import generic

    game = durak.Game.new(durak.PRESETS["transfer"], players=2, seed=8)
    view = game.view(0)
    console = Console(width=80, color_system=None)
    with console.capture() as captured:
        for part in generic.screen(view, ["You", "Bot"], screenless("durak")):
            console.print(part)
    text = captured.get()
    assert f"trump: {view['trump']}" in text and f"stock: {view['stock']}" in text
    assert "You: " + " ".join(view["hand"]) in text
    hidden = set(game.view(1)["hand"])
    assert not any(card in text.split() for card in hidden - set(view["hand"]))
