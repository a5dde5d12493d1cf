"""Section 07 of the source: drawing after a round, the next lead, leaving, the end."""

from durak_helpers import play

from cardtable.cards import Card, pack, parse_cards
from cardtable.durak import Game, Rules

C = Card.parse


def stock_without(*hands: str, trump_card: str = "6♥", size: int = 20) -> list[Card]:
    """``size`` cards not in the hands, top first, ending with the face-up trump card."""
    used = {c for h in hands for c in parse_cards(h)} | {C(trump_card)}
    return [*[c for c in pack(36) if c not in used][:size - 1], C(trump_card)]


def test_the_original_attacker_draws_first_then_clockwise_and_the_defender_last():
    hands = ["9♣ 7♦", "10♣ 8♦", "K♠", "Q♠"]
    stock = stock_without(*hands, size=21)
    game = Game.from_position(Rules(), hands=hands, trump="♥", stock=stock, attacker=0)
    play(game, "attack 9♣", "defend 9♣ with 10♣", "pass", "pass", "pass")
    assert set(game.hand(0)) == {C("7♦"), *stock[0:5]}
    assert set(game.hand(2)) == {C("K♠"), *stock[5:10]}
    assert set(game.hand(3)) == {C("Q♠"), *stock[10:15]}
    assert set(game.hand(1)) == {C("8♦"), *stock[15:20]}
    assert game.stock == (stock[20],)


def test_after_a_transfer_the_final_defender_draws_last():
    hands = ["9♣ 7♦", "9♦ 8♦", "10♣ 10♦ K♠"]
    stock = stock_without(*hands, size=20)
    game = Game.from_position(Rules(), hands=hands, trump="♥", stock=stock, attacker=0)
    play(game, "attack 9♣", "transfer 9♦", "defend 9♣ with 10♣", "defend 9♦ with 10♦",
         "pass", "pass")
    assert set(game.hand(0)) == {C("7♦"), *stock[0:5]}   # the original attacker
    assert set(game.hand(1)) == {C("8♦"), *stock[5:10]}  # then clockwise
    assert set(game.hand(2)) == {C("K♠"), *stock[10:15]}  # the final defender last


def test_when_the_transfer_comes_back_the_original_attacker_still_draws_first():
    hands = ["9♣ 10♣ 10♦ 7♦", "9♦ 6♠ 7♠"]
    stock = stock_without(*hands, size=8)
    game = Game.from_position(Rules(), hands=hands, trump="♥", stock=stock, attacker=0)
    play(game, "attack 9♣", "transfer 9♦", "defend 9♣ with 10♣", "defend 9♦ with 10♦",
         "pass")
    assert game.defender == 1   # the round is over: seat 0 defended and now leads
    assert set(game.hand(0)) == {C("7♦"), *stock[0:5]}
    assert set(game.hand(1)) == {C("6♠"), C("7♠"), *stock[5:8]}


def test_each_draws_every_missing_card_and_bigger_hands_stay():
    hands = ["9♣ 7♦", "6♠ 8♠ A♣ A♦ A♠ K♣ K♦ K♠ Q♣", "J♣"]
    stock = stock_without(*hands, size=12)
    game = Game.from_position(Rules(), hands=hands, trump="♥", stock=stock, attacker=0)
    play(game, "attack 9♣", "take", "pass", "pass")
    assert len(game.hand(1)) == 10   # nine plus the 9♣ taken: no draw, nothing given back
    assert len(game.hand(0)) == 6 and len(game.hand(2)) == 6
    assert set(game.hand(2)) == {C("J♣"), *stock[5:10]}


def test_the_face_up_trump_card_is_drawn_last_and_seen_by_all():
    hands = ["9♣ 7♦ 8♦ 10♦ J♦ Q♦", "10♣ 6♠ 7♠ 8♠ 9♠ J♠"]
    game = Game.from_position(Rules(), hands=hands, trump="♥", stock="K♦ 6♥", attacker=0)
    play(game, "attack 9♣", "defend 9♣ with 10♣", "pass")
    assert C("K♦") in game.hand(0) and C("6♥") in game.hand(1)
    assert game.known_cards(1) == (C("6♥"),)
    assert game.stock == () and game.trump_card == C("6♥")


def test_without_stock_nobody_draws_and_empty_hands_leave_and_are_skipped():
    game = Game.from_position(Rules(), hands=["9♣", "10♣ 6♠", "K♠ Q♠", "A♦"], trump="♥",
                              attacker=0)
    play(game, "attack 9♣", "defend 9♣ with 10♣", "pass", "pass")
    assert game.out == (0,)
    assert game.to_move == 1 and game.defender == 2
    assert [len(h) for h in game.hands] == [0, 1, 2, 1]
    play(game, "attack 6♠", "take", "pass")
    assert game.out == (0, 1)
    assert game.to_move == 3 and game.defender == 2   # seat 3 leads; seat 0 is skipped


def test_a_successful_defender_with_no_cards_left_passes_the_lead_on():
    game = Game.from_position(Rules(), hands=["9♣ 7♦", "10♣", "K♠ Q♠"], trump="♥",
                              attacker=0)
    play(game, "attack 9♣", "defend 9♣ with 10♣")   # the limit of 1 closes the round
    assert game.out == (1,)
    assert game.to_move == 2 and game.defender == 0


def test_the_last_player_holding_cards_is_the_durak():
    game = Game.from_position(Rules(), hands=["9♣", "6♠ 8♠", "K♠"], trump="♥", attacker=0)
    play(game, "attack 9♣", "take", "pass")
    assert not game.is_over()
    play(game, "attack K♠", "take")   # seat 2 leads its last card to seat 1, which takes
    assert game.is_over() and game.loser == 1
    outcome = game.outcome()
    assert outcome.returns == (0.5, -1.0, 0.5)
    assert outcome.winners == (0, 2)
    assert game.to_move is None and game.legal_moves() == []


def test_a_final_defence_that_empties_every_hand_is_a_draw():
    game = Game.from_position(Rules(), hands=["9♣", "10♣"], trump="♥", attacker=0)
    play(game, "attack 9♣", "defend 9♣ with 10♣")
    assert game.is_over() and game.is_draw and game.loser is None
    assert game.outcome().returns == (0.0, 0.0)
    assert game.outcome().is_draw


def test_a_draw_needs_every_remaining_hand_empty():
    game = Game.from_position(Rules(), hands=["9♣", "10♣ J♣"], trump="♥", attacker=0)
    play(game, "attack 9♣", "defend 9♣ with 10♣")
    assert game.is_over() and game.loser == 1


def test_a_player_whose_hand_emptied_is_passed_by_and_draws_at_the_end():
    hands = ["9♣", "9♦ 7♠ 8♠ 10♠", "9♠ 10♣ J♣ Q♣"]
    stock = stock_without(*hands, size=12)
    game = Game.from_position(Rules(), hands=hands, trump="♥", stock=stock, attacker=0)
    play(game, "attack 9♣", "transfer 9♦", "transfer 9♠")
    assert game.defender == 1   # seat 0, next after seat 2, holds no cards now
    play(game, "take")   # three attack cards against three: the limit closes the round
    assert game.out == () and set(game.hand(0)) == set(stock[:6])   # seat 0 drew first
