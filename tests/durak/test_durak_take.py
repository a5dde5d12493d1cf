"""Section 06 of the source: a successful defence, or taking the cards."""

import pytest
from durak_helpers import legal, play

from cardtable.cards import Card, parse_cards
from cardtable.durak import Game, Rules
from cardtable.game import IllegalMove


def position(hands, trump="♥", stock="", attacker=0, **options):
    return Game.from_position(Rules(**options), hands=hands, trump=trump, stock=stock,
                              attacker=attacker)


def test_a_beaten_table_goes_to_the_discard_and_the_defender_leads():
    game = play(position(["9♣ 7♦ 7♠", "10♣ 6♠ 8♠", "A♠ K♣"]), "attack 9♣",
                "defend 9♣ with 10♣", "pass", "pass")
    assert game.table == ()
    assert set(parse_cards("9♣ 10♣")) <= set(game.discard)
    assert game.round_number == 2 and game.to_move == 1 and game.defender == 2


def test_taking_gives_the_defender_every_card_on_the_table_defences_included():
    game = play(position(["9♣ 9♦ 7♠", "10♣ 6♠ 8♠", "A♠ K♣"]), "attack 9♣ 9♦",
                "defend 9♣ with 10♣", "take", "pass", "pass")
    assert set(parse_cards("9♣ 9♦ 10♣ 6♠ 8♠")) == set(game.hand(1))
    assert set(game.known_cards(1)) == set(parse_cards("9♣ 9♦ 10♣"))   # seen by all


def test_after_a_take_the_attackers_may_still_add_within_the_limit():
    game = play(position(["9♣ 9♦ 10♦ 7♠", "10♣ 6♠ 8♠", "9♠ K♣"]), "attack 9♣",
                "defend 9♣ with 10♣", "attack 10♦", "take")
    assert game.phase == "taking" and game.to_move == 0
    assert game.limit == 3
    assert legal(game) == {"attack 9♦", "pass"}
    game.push("attack 9♦")   # the limit of 3 is reached: the round closes
    assert game.round_number == 2
    assert set(parse_cards("9♣ 10♣ 10♦ 9♦ 6♠ 8♠")) == set(game.hand(1))


def test_after_a_throw_in_during_a_take_the_same_thrower_keeps_the_turn():
    game = play(position(["9♣ 9♦ 7♠ 7♦", "10♣ 6♠ 8♠ 7♣ A♦", "9♠ K♣"]), "attack 9♣",
                "take", "attack 9♦")
    assert game.to_move == 0 and legal(game) == {"pass"}
    game.push("pass")
    assert game.to_move == 2 and legal(game) == {"attack 9♠", "pass"}


def test_taking_does_not_raise_the_limit():
    game = play(position(["9♣ 9♦ 9♠ 9♥ 7♠", "10♣ 6♠ 7♦", "A♠ K♣"]), "attack 9♣ 9♦",
                "take")
    assert game.limit == 3   # seat 1 held three cards; taking does not make it five
    assert "attack 9♠" in legal(game)
    assert "attack 9♠ 9♥" not in legal(game)


def test_the_defender_who_took_loses_the_next_lead():
    game = play(position(["9♣ 7♠", "6♠ 8♠", "A♠ K♣", "Q♠"]), "attack 9♣", "take",
                "pass", "pass", "pass")
    assert game.round_number == 2 and game.to_move == 2 and game.defender == 3


def test_nothing_is_added_after_the_round_closes():
    game = play(position(["9♣ 9♦ 7♠", "6♠ 8♠"]), "attack 9♣", "take", "pass")
    assert game.phase == "lead" and game.to_move == 0
    with pytest.raises(IllegalMove, match="seat 0 leads this round"):
        game.push("take")
    assert Card.parse("9♦") in game.hand(0)
