"""Section 02 of the source: cards, the deal and the opening lead."""

import pytest
from durak_helpers import deck_for

from cardtable.cards import Card, Suit, pack, parse_cards
from cardtable.durak import Game, Rules


def test_the_pack_is_six_to_ace_of_each_suit():
    game = Game.new(Rules(), players=2, seed=1)
    cards = [c for hand in game.hands for c in hand] + list(game.stock)
    assert sorted(cards) == sorted(pack(36))
    assert {c.rank for c in cards} == {1, 6, 7, 8, 9, 10, 11, 12, 13}


def test_six_each_clockwise_from_the_dealers_left():
    deck = pack(36)   # index order: a known deck
    game = Game.new(Rules(), players=3, deck=deck, dealer=1)
    # seat 2 (the dealer's left) gets the first six, then seat 0, then the dealer
    assert set(game.hand(2)) == set(deck[0:6])
    assert set(game.hand(0)) == set(deck[6:12])
    assert set(game.hand(1)) == set(deck[12:18])


def test_the_next_card_is_the_face_up_trump_and_is_drawn_last():
    deck = pack(36)
    game = Game.new(Rules(), players=2, deck=deck)
    assert game.trump_card is deck[12]
    assert game.trump is deck[12].suit
    assert game.stock == (*deck[13:], deck[12])   # top first; the trump card at the bottom
    assert len(game.stock) == 36 - 12


def test_with_six_players_the_dealers_last_card_is_trump_and_stays_in_the_hand():
    deck = pack(36)
    game = Game.new(Rules(), players=6, deck=deck, dealer=3)
    last = deck[35]
    assert game.stock == ()
    assert game.trump_card is last and game.trump is last.suit
    assert last in game.hand(3)
    assert len(game.hand(3)) == 6
    assert last in game.known_cards(3)   # shown to everyone


def test_the_lowest_trump_leads_the_first_game_with_any_card():
    hands = ["A♠ K♠ Q♣ J♣ 10♣ 9♣", "8♥ 7♣ 7♦ 8♦ 9♦ 10♦", "6♥ J♦ Q♦ K♦ A♦ 6♣"]
    deck = deck_for(hands, "K♥")   # hearts are trump: seat 2 holds 6♥, the lowest
    game = Game.new(Rules(), players=3, deck=deck)
    assert game.to_move == 2 and game.phase == "lead"
    assert game.defender == 0
    assert Card.parse("6♥") in game.known_cards(2)   # shown to claim the lead
    # any card, not only the trump
    assert "attack Q♦" in {str(m) for m in game.legal_moves()}


def test_without_trumps_in_hand_the_dealers_left_neighbour_leads():
    hands = ["A♠ K♠ Q♣ J♣ 10♣ 9♣", "8♠ 7♣ 7♦ 8♦ 9♦ 10♦", "6♠ J♦ Q♦ K♦ A♦ 6♣"]
    deck = deck_for(hands, "K♥", dealer=1)
    game = Game.new(Rules(), players=3, deck=deck, dealer=1)
    assert not any(c.suit is Suit.HEARTS for hand in game.hands for c in hand)
    assert game.to_move == 2


def test_later_games_the_loser_deals_and_the_left_neighbour_leads():
    deck = pack(36)
    game = Game.new(Rules(), players=4, deck=deck, loser=2)
    assert game.dealer == 2
    assert game.to_move == 3 and game.defender == 0
    assert set(game.hand(3)) == set(deck[0:6])   # dealt first: the dealer's left


def test_the_loser_is_the_dealer():
    with pytest.raises(ValueError, match="seat 2\\) deals"):
        Game.new(Rules(), players=4, seed=1, loser=2, dealer=1)


def test_the_deck_replays_the_deal():
    game = Game.new(Rules(), players=4, seed=99, dealer=2)
    again = Game.new(Rules(), players=4, deck=game.deck, dealer=game.dealer)
    assert again.hands == game.hands and again.stock == game.stock
    assert again.to_move == game.to_move


def test_a_bad_deck_is_refused_with_the_reason():
    with pytest.raises(ValueError, match="each card of the 36-card pack exactly once"):
        Game.new(Rules(), players=2, deck=pack(36)[:-1] + pack(36)[:1])
    with pytest.raises(ValueError, match="takes 2, 3, 4, 5, 6 players, not 7"):
        Game.new(Rules(), players=7, seed=1)


def test_the_same_seed_deals_the_same_game():
    one, two = (Game.new(Rules(), players=3, seed=5) for _ in range(2))
    assert one.deck == two.deck and one.hands == two.hands


def test_from_position_sets_up_a_round():
    game = Game.from_position(Rules(), hands=["9♣ 10♣", "J♣ Q♣"], trump="♠",
                              stock="7♥ 6♠", attacker=1)
    assert game.to_move == 1 and game.defender == 0
    assert game.trump_card == Card.parse("6♠")
    assert len(game.discard) == 36 - 6
    assert game.hand(0) == tuple(parse_cards("9♣ 10♣"))


def test_from_position_refuses_a_trump_that_is_not_the_face_up_card():
    with pytest.raises(ValueError, match="trump is ♠, not ♥"):
        Game.from_position(Rules(), hands=["9♣", "J♣"], trump="♥", stock="6♠", attacker=0)
    with pytest.raises(ValueError, match="appears twice"):
        Game.from_position(Rules(), hands=["9♣", "9♣"], trump="♥", attacker=0)
