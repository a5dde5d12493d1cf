"""Reading the other players' moves: a player who let a big capture go by probably could not
make it, so the search deals them such cards less often."""

from __future__ import annotations

import random

from cardtable import pasur
from cardtable.bots import make
from cardtable.bots.pasur_kit import KIT
from cardtable.cards import parse_cards


def left_the_ten_of_diamonds() -> pasur.Hand:
    """Seat 1 trailed Q♣ when an ace would have taken 10♦ and a two the 9♥."""
    hand = pasur.Hand.from_position(
        hands=["K♠ 3♣ 4♣ 5♣", "Q♣ 6♦ 7♦ 8♠"], table="10♦ 9♥",
        stock="A♠ A♥ 2♦ 2♠ 6♣ 7♣ 8♣ 9♣", to_move=0)
    hand.push("K♠")
    hand.push("Q♣")
    return hand


def share_holding(hand: pasur.Hand, infer: bool, cards: str, deals: int = 400) -> float:
    sample = KIT.sampler(hand, 0, infer=infer)
    rng = random.Random(5)
    wanted = set(parse_cards(cards))
    return sum(bool(wanted & set(sample(rng).hands[1])) for _ in range(deals)) / deals


def test_deals_that_explain_a_capture_let_go_are_drawn_less_often() -> None:
    hand = left_the_ten_of_diamonds()
    # 2 of the 11 unseen cards are aces: 49% of plain deals give seat 1 one of them
    plain = share_holding(hand, False, "A♠ A♥")
    read = share_holding(hand, True, "A♠ A♥")
    assert 0.4 < plain < 0.58
    assert read < 0.12
    # a two would have taken only the 9♥, worth little: the evidence is weaker
    plain_two = share_holding(hand, False, "2♦ 2♠")
    read_two = share_holding(hand, True, "2♦ 2♠")
    assert read < read_two < plain_two


def test_the_deals_drawn_stay_consistent_with_what_the_seat_saw() -> None:
    hand = left_the_ten_of_diamonds()
    sample = KIT.sampler(hand, 0, infer=True)
    rng = random.Random(1)
    for _ in range(50):
        deal = sample(rng)
        assert deal.hands[0] == hand.hands[0] and deal.table == hand.table
        assert len(deal.hands[1]) == 3
        assert not set(deal.hands[1]) & set(parse_cards("K♠ Q♣ 10♦ 9♥ 3♣ 4♣ 5♣"))


def test_without_evidence_the_plain_deal_is_used() -> None:
    hand = pasur.Hand.new(seed=3)   # nobody has moved yet
    rng_a, rng_b = random.Random(2), random.Random(2)
    a = KIT.sampler(hand, 0, infer=True)(rng_a)
    b = KIT.sampler(hand, 0)(rng_b)
    assert a.hands == b.hands


def test_a_reading_search_plays_a_legal_move() -> None:
    hand = left_the_ten_of_diamonds()
    bot = make("ismcts:iterations=60,infer=1", seed=2)
    assert bot.choose(hand) in hand.legal_moves()
