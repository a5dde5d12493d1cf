"""Moves: their text, reading them in context, and refusals that say why."""

import copy
import pickle

import pytest
from durak_helpers import legal, play, state

from cardtable.cards import Card
from cardtable.durak import Game, Move, MoveKind, Rules
from cardtable.game import MOVE_ERRORS, AmbiguousMove, IllegalMove, InvalidMove

C = Card.parse


@pytest.mark.parametrize("text", [
    "attack 9♣", "attack 9♣ 9♦", "defend 9♣ with J♣", "transfer 9♠", "transfer 9♦ 9♠",
    "transfer show 9♠", "take", "pass", "exchange 6♠",
])
def test_the_text_of_every_kind_of_move_round_trips(text):
    move = Move.parse(text)
    assert str(move) == text
    assert Move.parse(str(move)) is move
    assert eval(repr(move), {"Move": Move}) is move


@pytest.mark.parametrize(("text", "canonical"), [
    ("attack 9d 9c", "attack 9♣ 9♦"),
    ("attack TD", "attack 10♦"),
    ("Attack 10d", "attack 10♦"),
    ("lead qh", "attack Q♥"),
    ("throw 10D", "attack 10♦"),
    ("throw in 7♦", "attack 7♦"),          # as the terminal offers a throw-in
    ("Throw in 9c 9d", "attack 9♣ 9♦"),
    ("transfer 9d", "transfer 9♦"),
    ("show 9s", "transfer show 9♠"),
    ("beat 9♣ J♣", "defend 9♣ with J♣"),
    ("beat 9c with jc", "defend 9♣ with J♣"),
    ("defend 9C JC", "defend 9♣ with J♣"),
    ("cover 9c jc", "defend 9♣ with J♣"),
    ("pick up", "take"),
    ("TAKE", "take"),
    ("done", "pass"),
    ("swap 6s", "exchange 6♠"),
])
def test_other_spellings_are_accepted(text, canonical):
    assert str(Move.parse(text)) == canonical


def test_move_fields():
    move = Move.parse("defend 9♣ with J♣")
    assert move.kind is MoveKind.DEFEND and move.kind == "defend"
    assert move.cards == (C("9♣"), C("J♣"))
    assert move.card is C("J♣")   # the card that leaves the hand
    assert Move.parse("transfer show 9♠").shown
    assert Move("attack", [C("9♦"), C("9♣")]) is Move.parse("attack 9♣ 9♦")


def test_moves_are_immutable_and_survive_copy_and_pickle():
    move = Move.parse("attack 9♣ 9♦")
    with pytest.raises(AttributeError):
        move.kind = "take"
    assert copy.deepcopy(move) is move
    assert pickle.loads(pickle.dumps(move)) is move


@pytest.mark.parametrize(("text", "reason"), [
    ("", "empty"),
    ("attack", "needs at least one card"),
    ("attack 9♣ 10♦", "share one rank"),
    ("defend 9♣", "names the attack card and the card that beats it"),
    ("take 9♣", "names no cards"),
    ("attack 1x", "not a card"),
    ("hello", "not a card"),
    ("9♣ 9♦", "start with attack"),
])
def test_bad_text_says_what_is_wrong(text, reason):
    with pytest.raises(InvalidMove, match=reason):
        Move.parse(text)


def game_at_defence():
    return play(Game.from_position(Rules(), hands=["9♣ 9♦ 7♦", "10♣ J♣ J♦ 6♠ 8♠", "A♠"],
                                   trump="♠", attacker=0), "attack 9♣ 9♦")


def test_parse_move_reads_short_forms_in_context():
    game = game_at_defence()
    assert str(game.parse_move("J♦")) == "defend 9♦ with J♦"   # only one move uses J♦
    assert str(game.parse_move("beat 9♦ jd")) == "defend 9♦ with J♦"
    assert str(game.parse_move("take")) == "take"
    lead = Game.from_position(Rules(), hands=["9♣ 7♦", "10♣ 6♠"], trump="♠", attacker=0)
    assert str(lead.parse_move("7d")) == "attack 7♦"


def test_parse_move_says_when_a_short_form_is_ambiguous():
    game = game_at_defence()
    with pytest.raises(AmbiguousMove, match="could mean defend 9♣ with 6♠, defend 9♣ with 8♠, "
                                          "defend 9♣ with 10♣, defend 9♣ with J♣: say which"):
        game.parse_move("defend 9♣")


def test_parse_move_refuses_an_illegal_full_form_with_the_reason():
    game = game_at_defence()
    with pytest.raises(IllegalMove, match="J♦ does not beat 9♣: trump is ♠"):
        game.parse_move("defend 9♣ with J♦")


def test_an_illegal_move_changes_nothing():
    game = game_at_defence()
    before = state(game)
    for text in ["defend 9♣ with 8♦", "attack 7♦", "pass", "transfer 9♠", "exchange 6♠",
                 "defend 7♦ with 8♠"]:
        with pytest.raises(IllegalMove):
            game.push(Move.parse(text))
        assert state(game) == before


def test_a_move_at_the_wrong_turn_names_whose_turn_it_is():
    game = game_at_defence()
    with pytest.raises(IllegalMove, match="it is seat 1's turn, not seat 0's"):
        game.push(Move.parse("take"), seat=0)
    game.push(Move.parse("take"), seat=1)
    assert game.phase == "taking"


def test_a_move_from_elsewhere_is_refused():
    game = game_at_defence()
    with pytest.raises(InvalidMove, match="not a Durak move"):
        game.push(42)


# -- the three refusals, as python-chess splits them (all ValueErrors) ------------------------

@pytest.mark.parametrize(("text", "reason"), [
    ("", "an empty text is not a move"),
    ("hello", "'hello' is not a card"),
    ("defend 9♣ with 1x", "'1x' is not a card"),
    ("take 9♣", "take names no cards"),
    ("attack 9♣ 10♦", "the cards of one attack share one rank"),
])
def test_text_that_is_no_move_is_invalid_and_changes_nothing(text, reason):
    game = game_at_defence()
    before = state(game)
    with pytest.raises(InvalidMove, match=reason):
        game.push(text)
    with pytest.raises(InvalidMove, match=reason):
        game.parse_move(text)
    assert state(game) == before


def test_a_move_not_legal_now_is_illegal_and_says_why():
    game = game_at_defence()
    before = state(game)
    with pytest.raises(IllegalMove, match="seat 1 does not hold 8♦"):
        game.push("defend 9♣ with 8♦")
    with pytest.raises(IllegalMove, match="seat 1 does not hold 8♦"):
        game.push(Move.parse("defend 9♣ with 8♦"))
    with pytest.raises(IllegalMove, match="no legal move fits 'K♥'"):
        game.parse_move("K♥")
    assert state(game) == before


def test_text_that_fits_several_legal_moves_is_ambiguous_and_lists_them():
    game = game_at_defence()
    before = state(game)
    with pytest.raises(AmbiguousMove, match="'beat 9♣' could mean defend 9♣ with 6♠, "
                                            "defend 9♣ with 8♠, defend 9♣ with 10♣"):
        game.push("beat 9♣")
    assert state(game) == before
    assert str(game.parse_move("beat 9♣ with 10♣")) == "defend 9♣ with 10♣"


def test_every_refusal_is_a_value_error_of_its_own_kind():
    assert all(issubclass(error, ValueError) for error in MOVE_ERRORS)
    assert len(set(MOVE_ERRORS)) == 3
    assert not issubclass(InvalidMove, IllegalMove) and not issubclass(AmbiguousMove, IllegalMove)


def test_reasons_for_refused_moves_read_like_the_rules():
    game = game_at_defence()
    cases = {
        "defend 9♣ with 8♦": "seat 1 does not hold 8♦",
        "defend 7♦ with 8♠": "7♦ is not an attack card on the table",
        "attack 7♦": "seat 1 must beat, transfer or take now",
    }
    for text, reason in cases.items():
        with pytest.raises(IllegalMove, match=reason):
            game.push(Move.parse(text))
    play(game, "defend 9♦ with J♦")
    with pytest.raises(IllegalMove, match="9♦ is already beaten by J♦"):
        game.push(Move.parse("defend 9♦ with 6♠"))


def test_pop_undoes_and_returns_the_move():
    game = game_at_defence()
    before = state(game)
    move = game.parse_move("take")
    game.push(move)
    assert game.pop() is move
    assert state(game) == before
    fresh = Game.new(Rules(), players=2, seed=1)
    with pytest.raises(IndexError, match="no move to undo"):
        fresh.pop()


def test_legal_moves_are_a_fresh_list_each_time():
    game = game_at_defence()
    moves = game.legal_moves()
    moves.clear()
    assert legal(game)
