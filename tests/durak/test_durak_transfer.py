"""Section 04 of the source: when the defender may transfer, and its limits; and the
worked example of section 08."""

import pytest
from durak_helpers import legal, play

from cardtable.cards import Card
from cardtable.durak import Game, Rules
from cardtable.game import IllegalMove


def position(hands, trump="♥", stock="", attacker=0, **options):
    return Game.from_position(Rules(**options), hands=hands, trump=trump, stock=stock,
                              attacker=attacker)


def test_the_defender_may_transfer_with_a_card_of_the_attacked_rank():
    game = play(position(["9♣ 7♦ 8♦", "9♦ 6♠ 7♠", "10♣ 10♦ J♠ Q♠"]), "attack 9♣")
    assert "transfer 9♦" in legal(game)
    game.push("transfer 9♦")
    assert game.attacker == 1 and game.defender == 2 and game.to_move == 2
    assert game.original_attacker == 0
    assert [a for a, _ in game.table] == [Card.parse("9♣"), Card.parse("9♦")]


def test_the_new_defender_faces_the_whole_accumulated_attack():
    game = play(position(["9♣ 7♦ 8♦", "9♦ 6♠ 7♠", "10♣ 10♦ J♠ Q♠"]), "attack 9♣",
                "transfer 9♦")
    assert legal(game) == {"defend 9♣ with 10♣", "defend 9♦ with 10♦", "take"}


def test_one_transfer_may_play_several_cards_of_the_rank():
    game = play(position(["9♣ 7♦ 8♦", "9♦ 9♠ 7♠", "10♣ 10♦ J♠ Q♠ K♠"]), "attack 9♣")
    assert {"transfer 9♦", "transfer 9♠", "transfer 9♦ 9♠"} <= legal(game)
    game.push("transfer 9♦ 9♠")
    assert game.defender == 2 and len(game.table) == 3


def test_another_equal_card_transfers_again():
    game = play(position(["9♣ 7♦ 8♦", "9♦ 6♠ 7♠", "9♠ 6♦ J♠", "10♣ 10♦ J♦ Q♦"]),
                "attack 9♣", "transfer 9♦", "transfer 9♠")
    assert game.attacker == 2 and game.defender == 3 and len(game.table) == 3


def test_with_two_players_the_attack_comes_back_to_the_original_attacker():
    game = play(position(["9♣ 10♣ 10♦ 7♦", "9♦ 6♠ 7♠"]), "attack 9♣", "transfer 9♦")
    assert game.defender == 0 == game.original_attacker
    assert game.attacker == 1


def test_the_transfer_limit_counts_the_new_defenders_current_hand():
    # seat 2 was dealt six but holds two now: the attack may not grow to three
    game = play(position(["9♣ 9♥ 7♦", "9♦ 6♠ 7♠", "10♣ 10♦"]), "attack 9♣ 9♥")
    assert not any(m.startswith("transfer") for m in legal(game))
    with pytest.raises(IllegalMove, match="you cannot transfer: seat 2 holds 2 cards and "
                                          "the attack would be 3"):
        game.push("transfer 9♦")


def test_a_transfer_may_fill_the_new_defenders_hand_exactly():
    game = play(position(["9♣ 9♥ 7♦", "9♦ 6♠ 7♠", "10♣ 10♦ J♠"]), "attack 9♣ 9♥")
    game.push("transfer 9♦")   # three attack cards against seat 2's three cards
    assert game.defender == 2 and len(game.table) == 3


def test_no_transfer_once_an_attack_card_is_beaten():
    game = play(position(["9♣ 9♥ 7♦", "9♦ 10♣ 6♠ 7♠", "10♦ J♠ Q♠ K♠"]), "attack 9♣ 9♥",
                "defend 9♣ with 10♣")
    assert not any(m.startswith("transfer") for m in legal(game))
    with pytest.raises(IllegalMove, match="an attack card is already beaten"):
        game.push("transfer 9♦")


def test_a_transfer_needs_the_attacked_rank_whatever_its_suit():
    game = play(position(["9♣ 7♦ 8♦", "10♣ 9♥ 6♠ 7♠", "10♦ J♠ Q♠ K♠"]), "attack 9♣")
    assert "transfer 9♥" in legal(game)   # a trump nine transfers too, when played
    with pytest.raises(IllegalMove, match="the attack is of 9s"):
        game.push("transfer 10♣")


def test_a_trump_must_be_played_to_transfer_showing_it_is_not_enough():
    game = play(position(["9♣ 7♦ 8♦", "9♥ 6♠ 7♠", "10♦ J♠ Q♠ K♠"]), "attack 9♣")
    with pytest.raises(IllegalMove, match="passport"):
        game.push("transfer show 9♥")
    game.push("transfer 9♥")
    assert Card.parse("9♥") not in game.hand(1)


def test_worked_example_no_room_in_the_next_hand():
    """Section 08: the stock is empty; A, B, C clockwise.  A holds 3 cards and attacks
    with 9♣, keeping 2.  B transfers with 9♦.  Even holding 9♠, C may not transfer to A:
    that would be 3 attack cards against A's 2 cards.  C must beat both nines or take."""
    a, b, c = 0, 1, 2
    game = Game.from_position(Rules(), hands=["9♣ 7♦ 8♦", "9♦ 6♠ 7♠", "9♠ 10♣ 10♦ J♠"],
                              trump="♥", attacker=a)
    assert game.stock == ()
    game.push("attack 9♣")
    assert len(game.hand(a)) == 2
    game.push("transfer 9♦")
    assert game.defender == c
    assert legal(game) == {"defend 9♣ with 10♣", "defend 9♦ with 10♦", "take"}
    with pytest.raises(IllegalMove, match="seat 0 holds 2 cards and the attack would be 3"):
        game.push("transfer 9♠")
    assert game.to_move == c
    assert b == game.attacker
