"""The small things of the terminal: demo's default bots, the line
that opens each Pasur hand and each Durak round, "You lead" and throw-ins in every
place, puzzle and learn asking again, replay telling what it did not understand, line
editing, --ascii, --version, and the arena's progress, draws and ratings note."""

import importlib.util
import io
import json
import re
import sys

from rich.console import Console
from typer.testing import CliRunner

from cardtable import __version__, games
from cardtable.analysis.lessons import Progress, course
from cardtable.analysis.puzzles import load as load_puzzles
from cardtable.cli import app
from cardtable.terminal import Session

runner = CliRunner()
SUITS = "♣♦♥♠"


def run(args, lines=(), env=None):
    return runner.invoke(app, args, input="".join(f"{x}\n" for x in lines), env=env)


class Script:
    """Answers prompts in turn (then ``then``) and keeps what was printed."""

    def __init__(self, answers, then="1"):
        self.answers, self.then = list(answers), then

    def __call__(self, prompt):
        return self.answers.pop(0) if self.answers else self.then


def session(game, plan, seed, answers=()):
    spec = games.get(game)
    out = io.StringIO()
    game_session = Session(spec, spec.rules(), players=len(plan), plan=plan, seed=seed,
                           console=Console(file=out, width=200, color_system=None),
                           read=Script(answers))
    return game_session, out


def test_demo_seats_one_bot_at_every_seat_by_default():
    result = run(["demo", "durak", "--players", "3", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "Greedy A, Greedy B, Greedy C" in result.output


def test_each_pasur_hand_opens_with_its_leader_and_table():
    result = run(["demo", "pasur", "--seed", "3"])
    assert result.exit_code == 0, result.output
    spec = games.get("pasur")
    first = spec.start(spec.rules(), players=2, seed=3)
    table = " ".join(first.view(None)["table"])
    assert f"Hand 1: Greedy A leads; table {table}" in result.output
    assert "Hand 2: Greedy B leads; table " in result.output
    played = run(["play", "pasur", "--seed", "3", "--vs", "random", "--no-color"], ["q", "y"])
    assert f"Hand 1: You lead; table {table}" in played.output


def test_each_durak_round_opens_with_who_attacks_whom():
    result = run(["demo", "durak", "--players", "3", "--seed", "3"])
    lines = result.output.splitlines()
    assert lines[1] == "» Round 1: Greedy B attacks Greedy C"
    assert any(line.endswith("Round 2: Greedy C attacks Greedy A") for line in lines)
    played = run(["play", "durak", "--seed", "0", "--vs", "random", "--no-color"], ["q", "y"])
    assert "Round 1: You attack Random" in played.output


def test_you_lead_not_you_leads_and_not_your_lead():
    game, out = session("durak", ["human", "random"], seed=0, answers=["take", "q", "y"])
    game.run()
    text = out.getvalue()
    assert "You lead" in text          # the phase line and the engine's reason for "take"
    assert "You leads" not in text and "your lead" not in text


def test_a_hint_during_a_throw_in_says_throw_in():
    game, _ = session("durak", ["human", "random"], seed=0)
    state = game.state
    game._push(0, state.legal_moves()[0])
    game._push(1, next(m for m in state.legal_moves() if str(m).startswith("defend")))
    assert state.to_move == 0 and state.view(0)["phase"] == "throw-in"
    game._command(0, "h")
    hint = game.message.plain
    assert "throw in 6♠" in hint and "attack 6♠" not in hint


def test_learn_offers_a_throw_in_as_a_throw_in(tmp_path):
    steps = course("durak")
    at = next(i for i, step in enumerate(steps)
              if step.position().view(None)["table"]
              and any(str(m).startswith("attack") for m in step.position().legal_moves()))
    progress = Progress(tmp_path / "progress.json")
    for step in steps[:at]:
        progress.mark("durak", step.key)
    result = run(["learn", "durak"], ["q"],
                 env={"CARDTABLE_HOME": str(tmp_path), "COLUMNS": "200"})
    offered = [line for line in result.output.splitlines() if line.startswith("1) ")]
    assert offered and "throw in " in offered[0] and "attack" not in offered[0]


def test_puzzle_asks_again_on_an_empty_or_unreadable_answer(tmp_path):
    env = {"CARDTABLE_HOME": str(tmp_path), "COLUMNS": "120"}
    first = next(p for p in load_puzzles(game="durak"))
    result = run(["puzzle", "durak"], ["", "nonsense", first["answer"]], env=env)
    assert result.exit_code == 0, result.output
    assert "Type a move" in result.output and "Try again" in result.output
    assert "Right." in result.output and "The answer is" not in result.output


def test_learn_asks_again_on_an_empty_or_unreadable_answer(tmp_path):
    env = {"CARDTABLE_HOME": str(tmp_path), "COLUMNS": "120"}
    first = course("durak")[0]
    result = run(["learn", "durak"], ["", "zz9", first.goals[0], "q"], env=env)
    assert result.exit_code == 0, result.output
    assert "Type a move" in result.output and "'zz9' is not a move here" in result.output
    assert "not the point" not in result.output and "Right." in result.output


def test_replay_says_when_it_does_not_understand(tmp_path):
    path = tmp_path / "g.json"
    run(["play", "pasur", "--vs", "random", "--seed", "2", "--no-color"],
        ["1", "q", "y", str(path)])
    result = run(["replay", str(path), "--no-color"], ["frobnicate", "q"])
    assert "'frobnicate' is not a replay command" in result.output


def test_the_prompt_gets_line_editing_and_history_from_readline(monkeypatch):
    from cardtable.terminal import prompt

    monkeypatch.setattr(prompt, "_editing", None)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    has_readline = importlib.util.find_spec("readline") is not None
    assert prompt.line_editing() is has_readline
    if has_readline:
        assert "readline" in sys.modules


def test_yes_and_no_mean_yes_and_no():
    from cardtable.terminal import prompt

    assert [prompt.yes_or_no(a) for a in ("y", "YES", " n ", "No", "1", "")] == \
        [True, True, False, False, None, None]


def test_ascii_writes_cards_without_suit_symbols():
    result = run(["demo", "durak", "--ascii", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert not any(suit in result.output for suit in SUITS)
    assert any(f"{rank}{suit}" in result.output for rank in "6789JQKA" for suit in "CDHS")
    played = run(["--ascii", "play", "pasur", "--vs", "random", "--seed", "3"], ["q", "y"])
    assert "Table:" in played.output and not any(s in played.output for s in SUITS)
    run(["rules", "pasur"])                       # the next command has its symbols again


def test_version():
    result = run(["--version"])
    assert result.exit_code == 0 and result.output.strip() == f"cardtable {__version__}"


def test_the_arenas_progress_goes_to_stderr_and_durak_tables_count_draws(tmp_path):
    out = tmp_path / "a.json"
    result = run(["arena", "durak", "--bots", "random,greedy", "--games", "2",
                  "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "Transfer Durak: random, greedy" in result.stderr     # the progress bar
    assert "Transfer Durak: random, greedy" not in result.stdout
    assert "draws" in result.stdout
    figures = json.loads(out.read_text())
    assert all(isinstance(f["draws"], int) for f in figures["results"].values())


def test_the_arena_says_when_ratings_cannot_be_computed(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a, **k: None if name.startswith("openskill")
                        else real(name, *a, **k))
    monkeypatch.setitem(sys.modules, "openskill.models", None)
    result = run(["arena", "durak", "--bots", "random,greedy", "--games", "2"])
    assert result.exit_code == 0, result.output
    assert "no ratings: openskill is not installed" in result.output


def test_ascii_reaches_learn_too(tmp_path):
    result = run(["--ascii", "learn", "durak"], ["q"],
                 env={"CARDTABLE_HOME": str(tmp_path), "COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    assert "Table:" in result.output and not any(s in result.output for s in SUITS)


def test_a_throw_in_is_played_by_typing_it_as_it_is_offered():
    game, _ = session("durak", ["human", "random"], seed=0)
    state = game.state
    game._push(0, state.legal_moves()[0])
    game._push(1, next(m for m in state.legal_moves() if str(m).startswith("defend")))
    offered = game.words(state.view(0), next(m for m in state.legal_moves()
                                             if str(m).startswith("attack")))
    assert offered.startswith("throw in ")
    move = game._understand(0, offered)
    assert move is not None and str(move) == offered.replace("throw in", "attack"), \
        game.message


def test_learn_takes_a_throw_in_typed_as_it_is_offered(tmp_path):
    steps = course("durak")
    at = next(i for i, step in enumerate(steps) if step.key == "throw_in")
    progress = Progress(tmp_path / "progress.json")
    for step in steps[:at]:
        progress.mark("durak", step.key)
    typed = steps[at].goals[0].replace("attack", "throw in")
    result = run(["learn", "durak"], [typed, "q"],
                 env={"CARDTABLE_HOME": str(tmp_path), "COLUMNS": "200"})
    assert "Right." in result.output, result.output


def test_the_hints_sentence_calls_a_throw_in_a_throw_in():
    from cardtable.durak import Game

    # the 9♠ beaten by the 10♠: throwing in the 10♦, which the 7♦ cannot beat, is best
    # (the course's throw-in step); nothing is hidden, so the judge is exact
    game = Game.from_position(hands=["9♠ 10♦ 6♣", "10♠ 7♦"], trump="♥", attacker=0)
    game.push(game.parse_move("attack 9♠"))
    game.push(game.parse_move("defend 9♠ with 10♠"))
    spec = games.get("durak")
    out = io.StringIO()
    table = Session(spec, spec.rules(), players=2, plan=["human", "random"], seed=0,
                    console=Console(file=out, width=200, color_system=None),
                    read=Script([]), start=game)
    table._command(0, "h")
    hint = table.message.plain
    assert hint.startswith("Hint: throw in 10♦") and "throws in 10♦;" in hint, hint
    assert "attacks with" not in hint and not re.search(r"\battack [0-9JQKA]", hint), hint



def test_ctrl_c_or_the_inputs_end_at_a_puzzle_never_shows_the_answer(
        tmp_path, monkeypatch, capsys):
    import typer

    from cardtable.terminal import school

    env = {"CARDTABLE_HOME": str(tmp_path), "COLUMNS": "120"}
    for answers in ([], ["", "nonsense"]):           # the input ends, after slips or not
        result = run(["puzzle", "durak"], answers, env=env)
        assert "Stopped: the answer stays hidden" in result.output, result.output
        assert "The answer is" not in result.output and "Why (" not in result.output

    def ctrl_c(prompt):
        raise KeyboardInterrupt

    # Ctrl-C at the prompt itself, as click reads a line (outside the test runner, which
    # puts its own reader there)
    monkeypatch.setattr(sys.modules[typer.prompt.__module__], "visible_prompt_func", ctrl_c)
    monkeypatch.setenv("CARDTABLE_HOME", str(tmp_path))
    school.puzzle(game="durak", today=False, make=None, out=None, search=False, choices=3,
                  force=False)
    shown = capsys.readouterr().out
    assert "Stopped: the answer stays hidden" in shown, shown
    assert "The answer is" not in shown and "Why (" not in shown
    assert not Progress(tmp_path / "progress.json").done.get("puzzles")


def test_learns_answer_calls_a_throw_in_a_throw_in(tmp_path):
    steps = course("durak")
    at = next(i for i, step in enumerate(steps) if step.key == "throw_in")
    progress = Progress(tmp_path / "progress.json")
    for step in steps[:at]:
        progress.mark("durak", step.key)
    result = run(["learn", "durak"], ["a", "q"],
                 env={"CARDTABLE_HOME": str(tmp_path), "COLUMNS": "200"})
    lines = result.output.splitlines()
    asked = next(i for i, line in enumerate(lines)
                 if line.startswith("your move (a: answer, q: stop):"))
    card = steps[at].goals[0].split()[-1]
    assert lines[asked + 1].strip() == f"throw in {card}", result.output   # the answer
