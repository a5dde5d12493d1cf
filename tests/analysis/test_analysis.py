"""Analysis of a finished game: each move judged from what the player knew and in hindsight."""

import json
import math

import pytest
from typer.testing import CliRunner

from cardtable import analysis, bots, durak, games, pasur, records
from cardtable.cards import pack, parse_cards
from cardtable.cli import app


def last_deal(hands, table, to_move=0):
    """A 2-player Pasur hand in its last deal (nothing hidden): the other cards are taken,
    half by each side."""
    used = set(parse_cards(" ".join([*hands, table])))
    rest = [c for c in pack(52) if c not in used]
    return pasur.Hand.from_position(hands=hands, table=table, to_move=to_move, deal_round=6,
                                    last_capturer=1, captured=[rest[0::2], rest[1::2]])


def test_labels_follow_the_thresholds_at_or_above_each():
    thresholds = (1.0, 2.5, 5.0)
    assert analysis.label_of(0.99, thresholds) is None
    assert analysis.label_of(1.0, thresholds) == "inaccuracy"
    assert analysis.label_of(4.9, thresholds) == "mistake"
    assert analysis.label_of(5.0, thresholds) == "blunder"


def test_leaving_the_ten_of_diamonds_to_the_other_players_ace_is_a_blunder():
    # seat 0 can take 10♦ with its ace; laying 4♥ instead lets seat 1's ace take it
    hand = last_deal(["A♠ 4♥", "A♥ 6♣"], "10♦ 5♠")
    [judged] = analysis.analyse(hand, ["4♥"], seed=1)
    assert judged.label == "blunder"
    assert judged.best == "A♠ x 10♦"
    assert judged.loss >= pasur.learn.LEARN.thresholds[2]
    # nothing was hidden: the exact solver judged it, in hindsight too
    assert judged.hindsight_best == "A♠ x 10♦" and judged.hindsight_loss == judged.loss


def test_the_best_move_is_not_labelled():
    hand = last_deal(["A♠ 4♥", "A♥ 6♣"], "10♦ 5♠")
    [judged] = analysis.analyse(hand, ["A♠ x 10♦"], seed=1)
    assert judged.label is None and judged.loss == 0.0 and judged.best == "A♠ x 10♦"


def test_taking_when_the_last_card_beats_the_attack_is_a_blunder():
    # stock empty: seat 1 beats 9♠ with 10♠, its last card, and is out; taking loses
    game = durak.Game.from_position(hands=["9♠ 7♦", "10♠"], trump="♥", attacker=0)
    game.push("attack 9♠")
    [judged] = analysis.analyse(game, ["take"], seed=1)
    assert judged.label == "blunder"
    assert judged.best == "defend 9♠ with 10♠"
    assert judged.loss == 1.0   # from never the durak to surely the durak


def test_a_searched_position_values_every_legal_move():
    # the first deal: the other hand and the stock are hidden, so the search judges
    hand = pasur.Hand.new(pasur.PRESETS["standard"], seed=4)
    found = analysis.values(hand, iterations=300, seed=1)
    assert set(found) == set(hand.legal_moves())


def test_a_forced_move_is_not_judged():
    game = durak.Game.from_position(hands=["9♠", "10♠ 8♦"], trump="♥", attacker=0)
    [judged] = analysis.analyse(game, ["attack 9♠"], seed=1)
    assert judged.choices == 1 and judged.label is None and judged.expected is None


def greedy_game(game, seed, moves):
    spec = games.get(game)
    state = spec.start(spec.presets[spec.default_preset], players=2, seed=seed)
    start = state.copy()
    bot = bots.make("greedy")
    played = []
    for _ in range(moves):
        move = bot.choose(state)
        played.append(str(move))
        state.push(move)
    return start, played


def test_the_same_seed_gives_the_same_analysis():
    for game in games.names():
        start, moves = greedy_game(game, 2, 10)
        first = analysis.analyse(start, moves, iterations=120, seed=5)
        again = analysis.analyse(start, moves, iterations=120, seed=5)
        assert [j.to_dict() for j in first] == [j.to_dict() for j in again]
        assert any(j.choices > 1 for j in first)


def test_only_the_chosen_seat_is_judged():
    start, moves = greedy_game("durak", 3, 8)
    judged = analysis.analyse(start, moves, seats=[1], iterations=60, seed=1)
    assert judged and {j.seat for j in judged} == {1}


def test_the_expected_result_is_seen_from_one_side():
    line = analysis.series("pasur", [
        analysis.Judgement(1, 0, "a", "a", 0, None, None, None, 3.0, 3.0, 2),
        analysis.Judgement(2, 1, "b", "b", 0, None, None, None, 2.0, 2.0, 2),
        analysis.Judgement(3, 1, "c", "c", 0, None, None, None, None, None, 1)], 0, [0, 1])
    assert line == [3.0, -2.0]
    assert analysis.sparkline([1.0, 1.0]) == "▄▄"


def test_analyse_writes_every_move_with_the_fields_of_the_record(tmp_path):
    path, out = tmp_path / "game.json", tmp_path / "analysis.json"
    path.write_text("{}")
    result = CliRunner().invoke(app, ["analyse", str(path)])
    assert result.exit_code != 0 and "Traceback" not in result.output   # not a record
    start, moves = greedy_game("pasur", 1, 6)
    rec = records.record_of(start, "pasur")
    rec.moves = moves
    rec.save(path)
    result = CliRunner().invoke(app, ["analyse", str(path), "--iterations", "48",
                                      "--json", str(out)], env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["unit"] == "points" and len(data["moves"]) == 6
    assert set(data["moves"][0]) >= {"index", "seat", "move", "best", "loss", "label",
                                      "hindsight_best", "hindsight_loss"}
    assert "expected result for Seat 1" in result.output


def test_analyse_names_the_players_sums_each_up_and_names_the_record(tmp_path):
    import hashlib

    path, out = tmp_path / "named.json", tmp_path / "analysis.json"
    start, moves = greedy_game("pasur", 1, 8)
    rec = records.record_of(start, "pasur", seats=[{"name": "Ana", "kind": "human"},
                                                   {"name": "Bo", "kind": "bot"}])
    rec.moves = moves
    rec.save(path)
    result = CliRunner().invoke(app, ["--ascii", "analyse", str(path), "--iterations", "48",
                                      "--json", str(out)], env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["record"] == {"name": "named.json",
                              "sha256": hashlib.sha256(path.read_bytes()).hexdigest()}
    assert [p["name"] for p in data["players"]] == ["Ana", "Bo"]
    assert [m["player"] for m in data["moves"]] == [["Ana", "Bo"][m["seat"]]
                                                    for m in data["moves"]]
    for player in data["players"]:
        mine = [m for m in data["moves"] if m["seat"] == player["seat"] and m["choices"] > 1]
        assert player["judged"] == len(mine)
        for label in analysis.LABELS:
            assert player[label] == sum(m["label"] == label for m in mine)
        if mine:   # accuracy from the loss: the mean of 100 exp(-loss / 2.5) in Pasur
            accuracy = sum(100 * math.exp(-m["loss"] / 2.5) for m in mine) / len(mine)
            assert player["accuracy"] == pytest.approx(accuracy, abs=0.06)
            assert player["mean_loss"] == pytest.approx(
                sum(m["loss"] for m in mine) / len(mine), abs=1e-3)
            assert player["unsure"] == sum(m["unsure"] is not None for m in mine)
        assert f"{player['name']}: {player['judged']} judged moves" in result.output
    assert "expected result for Ana" in result.output
    assert not set("♠♥♦♣") & set(result.output)        # --ascii reaches analyse too


def test_a_record_without_names_calls_its_seats_by_number():
    rec = records.Record("durak", {}, 3, [], [], seats=[{"name": "Ana"}, {"kind": "bot"}])
    assert rec.names() == ["Ana", "Seat 2", "Seat 3"]
