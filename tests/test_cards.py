"""Cards: ranks, suits, packs and every spelling a player may type."""

import copy
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardtable.cards import (
    CARDS,
    Card,
    CardError,
    Suit,
    cards_of,
    format_cards,
    mask_of,
    pack,
    parse_cards,
)


@pytest.mark.parametrize("text", ["10♦", "10D", "10d", "TD", "td", "T♦", " 10 ♦ ", "10♢"])
def test_every_spelling_of_the_ten_of_diamonds(text):
    card = Card.parse(text)
    assert (card.rank, card.suit) == (10, Suit.DIAMONDS)
    assert str(card) == "10♦"


@pytest.mark.parametrize(("text", "rank", "suit"), [
    ("A♠", 1, Suit.SPADES), ("as", 1, Suit.SPADES), ("QH", 12, Suit.HEARTS),
    ("jc", 11, Suit.CLUBS), ("K♥", 13, Suit.HEARTS), ("2♣", 2, Suit.CLUBS),
])
def test_face_cards_and_aces_have_their_ranks(text, rank, suit):
    card = Card.parse(text)
    assert card.rank == rank and card.suit == suit


@pytest.mark.parametrize(("text", "reason"), [
    ("1D", "'1' is not a rank"), ("11H", "'11' is not a rank"), ("ZS", "'Z' is not a rank"),
    ("10X", "'X' is not a suit"), ("", "write a rank"), ("10", "write a rank"),
    ("A♠♠", "'♠♠' is not a suit"),
])
def test_text_that_is_not_a_card_says_why(text, reason):
    with pytest.raises(CardError, match=reason):
        Card.parse(text)


def test_card_error_is_a_value_error():
    assert issubclass(CardError, ValueError)


def test_cards_are_interned_immutable_and_hashable():
    card = Card(10, Suit.DIAMONDS)
    assert card is Card.parse("TD") is CARDS[card.index]
    assert {card: 1}[Card.parse("10d")] == 1
    with pytest.raises(AttributeError):
        card.rank = 3
    assert pickle.loads(pickle.dumps(card)) is card
    assert copy.deepcopy(card) is card


def test_card_constructor_refuses_ranks_out_of_range():
    with pytest.raises(CardError, match="no card has rank 14"):
        Card(14, Suit.CLUBS)


def test_cards_order_by_rank_then_suit():
    assert sorted(parse_cards("K♠ 2♦ 2♣ A♥")) == parse_cards("A♥ 2♣ 2♦ K♠")


def test_parse_cards_reads_spaces_and_commas():
    assert format_cards(parse_cards("A♠, 2♣ 10d")) == "A♠ 2♣ 10♦"


@pytest.mark.parametrize(("size", "lowest"), [(52, 2), (36, 6), (24, 9)])
def test_packs_hold_ace_and_cards_from_the_lowest_rank(size, lowest):
    cards = pack(size)
    assert len(cards) == len(set(cards)) == size
    assert {c.rank for c in cards} == {1, *range(lowest, 14)}


def test_an_unknown_pack_size_is_refused():
    with pytest.raises(ValueError, match="no pack of 40 cards"):
        pack(40)


@given(st.sets(st.sampled_from(CARDS)))
def test_masks_and_card_lists_convert_both_ways(cards):
    assert set(cards_of(mask_of(cards))) == cards
    assert cards_of(mask_of(cards)) == sorted(cards)


@given(st.sampled_from(CARDS))
def test_text_forms_round_trip(card):
    assert Card.parse(str(card)) is card
    assert Card.parse(card.ascii) is card
    assert Card.parse(card.ascii.lower()) is card
    assert eval(repr(card)) is card
