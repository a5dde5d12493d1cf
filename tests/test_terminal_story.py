"""The terminal tells the whole game: every move since your last turn, hand and
round ends, the finishing order, an undo that goes back to your own decision, words in
the game's own terms, a screen that keeps its header in a small terminal."""

import io
import itertools
import re

import pytest
from rich.console import Console
from rich.text import Text
from typer.testing import CliRunner

from cardtable import games
from cardtable.cli import app
from cardtable.terminal import SUIT_STYLE, Session, seat_names
from cardtable.terminal import durak as durak_screen
from cardtable.terminal import pasur as pasur_screen

runner = CliRunner()


@pytest.fixture(autouse=True)
def in_a_scratch_folder(tmp_path, monkeypatch):
    """Whole games here answer "1" to every prompt, the save prompt included, which saves
    the record as a file named 1 in the working folder: keep that out of the checkout."""
    monkeypatch.chdir(tmp_path)


class Script:
    """Answers prompts in turn and keeps the screen shown before each answer."""

    def __init__(self, out, answers, then="1"):
        self.out, self.answers, self.then = out, list(answers), then
        self.screens, self.prompts, self.seen = [], [], 0

    def __call__(self, prompt):
        text = self.out.getvalue()
        self.screens.append(text[self.seen:])
        self.seen = len(text)
        self.prompts.append(prompt)
        return self.answers.pop(0) if self.answers else self.then


def session(game, plan, seed, answers=(), then="1", **console):
    spec = games.get(game)
    out = io.StringIO()
    options = {"width": 200, "color_system": None, **console}
    script = Script(out, answers, then)
    game_session = Session(spec, spec.rules(), players=len(plan), plan=plan, seed=seed,
                           console=Console(file=out, **options), read=script)
    return game_session, script, out


def test_every_move_since_your_last_turn_is_shown_a_transfer_and_its_defences_too():
    game, script, _ = session("durak", ["human", "greedy", "greedy"], seed=4)
    game.run()
    mine = [i for i, (seat, _, _) in enumerate(game.story) if seat == 0]
    longest = 0
    for turn, (a, b) in enumerate(itertools.pairwise(mine), 1):
        screen = script.screens[turn]
        for seat, words, _ in game.story[a + 1:b]:
            assert f"{game.names[seat]}: {words}" in screen, (words, screen)
        if any(words.startswith("transfer") for _, words, _ in game.story[a + 1:b]):
            longest = max(longest, b - a - 1)
    assert longest > 3          # more than the last three moves were needed, and shown


def test_the_last_hand_of_a_match_gets_its_table_and_who_took_the_cards_left():
    result = runner.invoke(app, ["play", "pasur", "--vs", "random", "--seed", "3", "-o",
                                 "fixed_hands=1", "--no-color"], input="1\n" * 100,
                           env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "Hand 1 is over" in result.output and "card points" in result.output
    assert re.search(r"Hand 1 is over: \w+ took the (\d+ cards|card) left on the table",
                     result.output) or "no cards were left on the table" in result.output
    assert "won the match" in result.output


def test_durak_ends_with_the_finishing_order_and_your_result():
    result = runner.invoke(app, ["play", "durak", "--vs", "random", "--players", "3",
                                 "--seed", "5", "--no-color"], input="1\n" * 400,
                           env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert re.search(r"Finishing order: 1st \w+.*, 2nd .*, 3rd .* \(the durak\)", result.output)
    assert "You finished" in result.output or "You are the durak: you lost." in result.output


def test_undo_with_no_move_of_yours_takes_back_nothing():
    # seat 0 is human; in this deal a bot leads, so bots have moved before the human
    for seed in range(1, 40):
        game, script, _ = session("durak", ["human", "random", "random"], seed=seed,
                                  answers=["u", "q", "y"])
        game.run()
        if game.log:
            break
    before = list(game.log)
    assert before and all(seat != 0 for seat, _ in before)
    assert "Nothing to undo yet" in script.screens[1]
    assert game.log == before


def test_undo_goes_back_to_your_own_decision_and_the_bots_answer_as_before():
    plain, _, _ = session("durak", ["human", "random", "random"], seed=7,
                          answers=["1"] * 6 + ["q", "y"])
    plain.run()
    undone, script, _ = session("durak", ["human", "random", "random"], seed=7,
                                answers=["1"] * 4 + ["u", "1", "1", "1", "q", "y"])
    undone.run()
    assert any("Took back your move" in screen for screen in script.screens)
    # the same six decisions of the player, with an undo in the middle: the same game
    assert undone.log == plain.log


def test_undo_at_your_turn_takes_back_your_move_and_what_followed_it():
    game, _script, _ = session("durak", ["human", "random"], seed=2, answers=["1", "1", "q", "y"])
    game.run()
    mine = [i for i, (seat, _) in enumerate(game.log) if seat == 0]
    assert len(mine) == 2
    kept = game.log[:mine[-1]]
    game._undo(0)
    assert game.log == kept and game.state.to_move == 0


def test_seat_names_carry_no_seat_numbers():
    assert seat_names(["human", "medium", "medium"]) == ["You", "Medium A", "Medium B"]
    assert seat_names(["human", "hard"]) == ["You", "Hard"]
    game, script, _ = session("pasur", ["human", "medium"], seed=5, answers=["q", "y"])
    game.run()
    head = script.screens[0].splitlines()
    assert head[1] == "Match points: You 0 · Medium 0"
    assert not re.search(r"\w+ \d+ \d+", head[1])


def test_you_attack_and_throw_ins_are_called_so():
    spec = games.get("durak")
    state = next(s for s in (spec.start(spec.rules(), players=2, seed=seed)
                             for seed in range(1, 50)) if s.view(0)["attacker"] == 0)
    console = Console(width=120, color_system=None)
    with console.capture() as captured:
        for part in durak_screen.screen(state.view(0), ["You", "Easy"], spec):
            console.print(part)
    assert "You attack Easy" in captured.get()
    assert durak_screen.move_words({"table": [["6♦", "8♦"]]}, "attack 8♣") == "throw in 8♣"
    assert durak_screen.move_words({"table": []}, "attack 8♣") == "attack 8♣"


def test_the_moves_offered_call_a_throw_in_a_throw_in():
    game, script, _ = session("durak", ["human", "greedy", "greedy"], seed=3)
    game.run()
    offered = [screen.split("Table:", 1)[1] for screen in script.screens if "Table:" in screen]
    assert any(re.search(r"\d throw in ", screen) for screen in offered)


def test_plurals():
    assert pasur_screen.took("You", ["2♣"], 1) == "You took 1 card, 1 club, 1 sur"
    assert pasur_screen.took("You", [], 0) == "You took 0 cards, 0 clubs, 0 surs"


def test_an_illegal_move_names_players_not_seats():
    game, script, _ = session("durak", ["human", "random"], seed=2,
                              answers=["defend 6♣ with 7♣", "q", "y"])
    game.run()
    shown = script.screens[1]
    assert "defend 6♣ with 7♣" in shown and not re.search(r"\bseat \d", shown)


def test_a_thinking_line_shows_while_a_bot_thinks():
    game, _script, out = session("durak", ["human", "random"], seed=2, answers=["1", "q", "y"],
                                force_terminal=True, height=40)
    game.run()
    assert "Random is thinking ..." in out.getvalue()


def test_diamonds_have_a_colour_of_their_own_and_trumps_and_counting_cards_are_marked():
    assert SUIT_STYLE["♦"] != SUIT_STYLE["♥"]
    assert len(set(SUIT_STYLE.values())) == 4
    spec = games.get("durak")
    view = spec.start(spec.rules(), players=2, seed=8).view(0)
    hand_line = durak_screen.screen(view, ["You", "Easy"], spec)[-1]
    for card in view["hand"]:
        start = hand_line.plain.index(card)
        styles = " ".join(str(span.style) for span in hand_line.spans
                          if span.start <= start < span.end)
        assert ("underline" in styles) == card.endswith(view["trump"][-1])
    marked = pasur_screen.counting(games.get("pasur").rules())
    assert marked("10♦") and marked("2♣") and marked("J♥") and marked("A♠")
    assert not marked("9♦") and not marked("3♣")


def test_the_header_stays_on_screen_in_a_small_terminal():
    game, _script, out = session("durak", ["human", "greedy", "greedy"], seed=4,
                                force_terminal=True, width=80, height=12)
    game.run()
    drawn = [re.sub(r"\x1b\[[0-9;?]*[a-zA-Z]", "", chunk.split("\x1b[?25l")[0])
             for chunk in out.getvalue().split("\x1b[2J\x1b[H")[1:]]
    assert len(drawn) > 5
    for screen in drawn[:-1]:            # the last is followed by the game's end
        lines = screen.rstrip("\n").splitlines()
        assert lines[0].startswith("Transfer Durak · trump"), lines[:2]
        assert len(lines) <= 11, lines          # and the prompt on the twelfth
    assert "not shown: l shows them all" in out.getvalue()


def test_r_pages_the_rules_in_a_small_terminal():
    game, script, _out = session("pasur", ["human", "random"], seed=5,
                                answers=["r", "", "", "", "", "", "", "", "q", "y"],
                                force_terminal=True, width=80, height=12)
    game.run()
    pages = [p for p in script.prompts if p.startswith("Enter: next page of the rules")]
    assert len(pages) >= 2
    assert "Press Enter to go back to the game " in script.prompts


def test_the_demo_tells_the_trump_round_starts_surs_and_the_last_sweep():
    durak = runner.invoke(app, ["demo", "durak", "--bots", "greedy", "--players", "3",
                                "--seed", "4"], env={"COLUMNS": "200"})
    assert durak.exit_code == 0
    assert "Trump: " in durak.output and "» Round 2: " in durak.output
    assert "Finishing order:" in durak.output
    pasur = runner.invoke(app, ["demo", "pasur", "--bots", "greedy", "--seed", "1"],
                          env={"COLUMNS": "200"})
    assert pasur.exit_code == 0
    assert "» Sur! " in pasur.output
    assert re.search(r"» Hand 1 is over: Greedy [AB] took the (\d+ cards|card) left", pasur.output)
    assert "» Deal 2 of 6" in pasur.output


def test_the_log_command_shows_every_move():
    game, _script, out = session("durak", ["human", "greedy"], seed=4,
                                answers=["1", "1", "1", "l", "", "q", "y"])
    game.run()
    shown = out.getvalue().split("Every move so far", 1)[1]
    for seat, words, _ in game.story:
        assert Text(f"{game.names[seat]}: {words}").plain in shown


def test_the_durak_final_gives_the_order_and_the_viewers_place():
    console = Console(width=120, color_system=None)
    view = {"seat": 0, "players": 3, "loser": 2, "draw": False, "teams": None}
    with console.capture() as captured:
        console.print(durak_screen.final(view, ["You", "Easy A", "Easy B"], None,
                                         order=[1, 0]))
    text = captured.get()
    assert "Finishing order: 1st Easy A, 2nd You, 3rd Easy B (the durak)" in text
    assert "You finished 2nd of 3: not the durak." in text
    view = {**view, "loser": 0}
    with console.capture() as captured:
        console.print(durak_screen.final(view, ["You", "Easy A", "Easy B"], None,
                                         order=[2, 1]))
    assert "3rd You (the durak)" in captured.get()
    assert "You are the durak: you lost." in captured.get()


def test_replay_tells_the_moves_and_ends_with_the_finishing_order(tmp_path):
    saved = tmp_path / "g.json"
    played = runner.invoke(app, ["play", "durak", "--vs", "random", "--players", "3",
                                 "--seed", "4", "--save", str(saved), "--no-color"],
                           input="1\n" * 400)
    assert played.exit_code == 0, played.output
    steps = "".join("n\n" for _ in range(40)) + "e\nq\n"
    shown = runner.invoke(app, ["replay", str(saved), "--no-color"], input=steps,
                          env={"COLUMNS": "200"})
    assert shown.exit_code == 0
    assert "» Round 2: " in shown.output
    assert re.search(r"Finishing order: 1st .*\(the durak\)", shown.output)
    assert "You hold " in shown.output and "You holds" not in shown.output
