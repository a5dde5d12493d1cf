"""What a played card can take: sums to 11, kings and queens, jacks, and the variations."""

from __future__ import annotations

import copy
import pickle

import pytest
from pasur_helpers import PRESET_NAMES, cards, rules

from cardtable.cards import Card, parse_cards
from cardtable.game import InvalidMove
from cardtable.pasur import PRESETS, Move, capture_options


def options(card: str, table: str, preset: str = "standard", **changes: object) -> set:
    found = capture_options(Card.parse(card), parse_cards(table), rules(preset, **changes))
    assert len(found) == len(set(found)), "a capture is listed twice"
    return set(found)


def sets(*texts: str) -> set:
    return {cards(text) for text in texts}


# -- sums to 11 -------------------------------------------------------------------------

@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_playpasur_examples_of_sums_to_eleven(preset):
    assert options("7♥", "4♣", preset) == sets("4♣")
    assert options("7♣", "A♠ 3♦", preset) == sets("A♠ 3♦")
    assert options("10♠", "A♥", preset) == sets("A♥")


WIKIPEDIA_TABLE = "A♠ 2♣ 2♥ 4♦ 10♣"


@pytest.mark.parametrize("preset", ["standard", "wikipedia", "turkish"])
def test_wikipedia_example_every_listed_capture_exactly(preset):
    # "The pool contains Ace, 2, 2, 4 and 10 ..."; the played cards are of another suit.
    listed = {
        "10♦": sets("A♠"),                                    # a 10 picks up the ace
        "9♦": sets("2♣", "2♥"),                               # a 9, either of the 2's
        "8♦": sets("A♠ 2♣", "A♠ 2♥"),                         # an 8, the ace and a 2
        "7♦": sets("4♦", "2♣ 2♥"),                            # a 7, the 4 or both 2's
        "6♦": sets("A♠ 2♣ 2♥"),                               # a 6, the ace and both 2's
        "5♦": sets("4♦ 2♣", "4♦ 2♥"),                         # a 5, the 4 and a 2
        "4♥": sets("4♦ 2♣ A♠", "4♦ 2♥ A♠"),                   # a 4, the 4, a 2 and the ace
        "3♦": sets("4♦ 2♣ 2♥"),                               # a 3, the 4 and both 2's
        "2♦": sets("4♦ 2♣ 2♥ A♠"),                            # a 2, the 4, both 2's, the ace
        "A♦": sets("10♣"),                                    # an ace, the 10
    }
    # Wikipedia leaves one out: a 6 may also take the ace and the 4 (6 + 1 + 4 = 11).
    listed["6♦"] |= sets("A♠ 4♦")
    for card, expected in listed.items():
        assert options(card, WIKIPEDIA_TABLE, preset) == expected, card


def test_turkish_example_two_twos_or_the_four():
    # "Sobre a mesa temos dois 2, um 4 e um 8 ... o 7 ... os dois 2 ou o 4."
    assert options("7♠", "2♣ 2♦ 4♥ 8♣", "turkish") == sets("2♣ 2♦", "4♥")


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_face_cards_never_count_in_sums(preset):
    assert options("7♣", "4♦ K♠ Q♥", preset) == sets("4♦")
    assert options("A♣", "K♠ Q♥", preset) == set()


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_a_card_that_makes_no_eleven_has_no_capture(preset):
    assert options("9♣", "3♦ 5♠ 10♥", preset) == set()


# -- kings and queens -------------------------------------------------------------------

@pytest.mark.parametrize("preset, take_all", [
    ("standard", False), ("wikipedia", False), ("turkish", False), ("multicapture", True)])
def test_a_king_takes_a_king_and_a_queen_a_queen(preset, take_all):
    table = "K♠ K♥ Q♦ 5♣"
    if take_all:
        assert options("K♣", table, preset) == sets("K♠ K♥")
    else:
        assert options("K♣", table, preset) == sets("K♠", "K♥")
    assert options("Q♣", table, preset) == sets("Q♦")
    assert options("K♣", "Q♦ 5♣", preset) == set()


# -- jacks ------------------------------------------------------------------------------

@pytest.mark.parametrize("preset, sweep_all", [
    ("standard", False), ("wikipedia", False), ("turkish", True), ("multicapture", False)])
def test_a_jack_sweeps_the_table(preset, sweep_all):
    table = "3♦ 9♣ J♠ Q♥ K♣"
    expected = "3♦ 9♣ J♠ Q♥ K♣" if sweep_all else "3♦ 9♣ J♠"
    assert options("J♦", table, preset) == sets(expected)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_a_jack_on_an_empty_table_takes_nothing(preset):
    assert options("J♦", "", preset) == set()


@pytest.mark.parametrize("preset, takes_faces", [
    ("standard", False), ("wikipedia", False), ("turkish", True), ("multicapture", False)])
def test_a_jack_on_a_table_of_kings_and_queens(preset, takes_faces):
    # playpasur: "if the table is empty or holds only kings and queens, the jack stays".
    assert options("J♦", "K♠ Q♥", preset) == (sets("K♠ Q♥") if takes_faces else set())


def test_gentler_jack_counts_eleven():
    # how-to variation: "Valetes simplesmente contam como 11 ... captura singles de 11 e
    # combinações que totalizam 11".
    assert options("J♦", "5♣ 6♥ J♠ 3♦ K♣", jack="eleven") == sets("J♠", "5♣ 6♥")
    assert options("J♦", "2♣ K♥", jack="eleven") == set()
    # A number card cannot use a jack in its sum.
    assert options("A♣", "J♠", jack="eleven") == set()


# -- the variations ---------------------------------------------------------------------

def test_several_disjoint_sets_at_once_in_multicapture():
    table = "4♦ 4♣ 2♠ 2♥"
    assert options("7♥", table, "standard") == sets("4♦", "4♣", "2♠ 2♥")
    assert options("7♥", table, "multicapture") == sets(
        "4♦", "4♣", "2♠ 2♥", "4♦ 4♣", "4♦ 2♠ 2♥", "4♣ 2♠ 2♥", "4♦ 4♣ 2♠ 2♥")


def test_kids_pasur_takes_by_rank_only():
    assert options("7♣", "4♦ 7♥ 7♠", kids=True) == sets("7♥", "7♠")
    assert options("A♣", "10♦", kids=True) == set()
    assert options("7♣", "4♦ 7♥ 7♠", kids=True, multi_sets=True) == sets(
        "7♥", "7♠", "7♥ 7♠")


def test_capture_options_refuses_a_card_both_played_and_on_the_table():
    with pytest.raises(ValueError, match="cannot be both played and on the table"):
        capture_options(Card.parse("7♣"), parse_cards("7♣ 4♦"))


def test_capture_options_defaults_to_the_standard_rules():
    # (in card order: hearts before spades)
    assert capture_options(Card.parse("K♣"), parse_cards("K♠ K♥")) == [
        cards("K♥"), cards("K♠")]
    assert PRESETS["standard"].king_queen_take_all is False


# -- moves ------------------------------------------------------------------------------

def test_a_move_reads_and_prints_its_own_text():
    trail = Move.parse("7♣")
    capture = Move.parse("7♣ x 4♦ 2♠")
    assert (trail.card, trail.captured, trail.is_capture) == (Card.parse("7♣"), frozenset(),
                                                              False)
    assert capture.captured == cards("4♦ 2♠") and capture.is_capture
    assert str(trail) == "7♣"
    assert str(capture) == "7♣ x 2♠ 4♦"  # taken cards in card order
    assert repr(capture) == "Move.parse('7♣ x 2♠ 4♦')"
    for move in (trail, capture, Move.parse("J♥ x A♣ 3♦ 5♠ J♣")):
        assert Move.parse(str(move)) == move
        assert eval(repr(move)) == move


@pytest.mark.parametrize("text, expected", [
    ("7c x 4d 2s", "7♣ x 2♠ 4♦"), ("TD x AS", "10♦ x A♠"), ("jh", "J♥"),
    ("10d X 1s".replace("1s", "as"), "10♦ x A♠"), ("qh×qs", "Q♥ x Q♠"), ("  5S  ", "5♠"),
])
def test_moves_read_ascii(text, expected):
    assert str(Move.parse(text)) == expected


@pytest.mark.parametrize("text, reason", [
    ("", "is not a move"), ("7z", "is not a move"), ("7c x", "name the cards after 'x'"),
    ("7c x 4d 4d", "a card is named twice"), ("7c x 7c", "cannot take itself"),
    (7, "is not a move"),
])
def test_malformed_moves_say_what_is_wrong(text, reason):
    with pytest.raises(InvalidMove, match=reason):
        Move.parse(text)


def test_moves_are_small_interned_values():
    first = Move.parse("7♣ x 4♦")
    assert Move(Card.parse("7♣"), parse_cards("4♦")) is first
    assert Move.parse("7c x 4d") is first
    assert hash(first) == hash(Move.parse("7♣ x 4♦"))
    assert copy.copy(first) is first and copy.deepcopy(first) is first
    assert pickle.loads(pickle.dumps(first)) == first
    with pytest.raises(AttributeError):
        first.card = Card.parse("8♣")
    with pytest.raises(ValueError, match="cannot take itself"):
        Move(Card.parse("7♣"), parse_cards("7♣"))


def test_a_move_is_a_value_and_not_a_tuple():
    seven = Card.parse("7♣")
    trail, capture = Move.parse("7♣"), Move.parse("7♣ x 4♦")
    assert not isinstance(capture, tuple)
    assert capture != (seven.index, capture.taken, seven.mask)
    assert (capture.index, capture.taken, capture.bit) == (seven.index, Card.parse("4♦").mask,
                                                            seven.mask)
    # The hash is the one the moves had as named tuples: sets of moves iterate as before.
    assert hash(capture) == hash((capture.index, capture.taken, capture.bit))
    # Moves sort by card, then by the mask taken.
    eight = Move.parse("8♣")
    assert sorted([eight, capture, trail]) == [trail, capture, eight]
    assert trail < capture <= capture < eight and eight > trail >= trail
    with pytest.raises(TypeError):
        assert trail < (0, 0, 0)
    with pytest.raises(AttributeError, match="immutable"):
        capture.taken = 0
    assert pickle.loads(pickle.dumps([trail, capture])) == [trail, capture]


def test_several_sets_on_a_crowded_table_stay_quick_to_list():
    # Fourteen small cards: 642 sets make 10, in 1,627 different unions.  Listing them must
    # not count every way of splitting a union into sets.
    table = "A♣ A♦ A♥ A♠ 2♣ 2♦ 2♥ 2♠ 3♣ 3♦ 3♥ 3♠ 4♣ 4♦"
    found = options("A♣", table.replace("A♣", "5♠"), "multicapture")
    assert len(found) > 1000
    assert all(sum(card.rank for card in taken) % 10 == 0 for taken in found)
