"""Section 03 of the source: attack and defence."""

import pytest
from durak_helpers import legal, play

from cardtable.cards import Card
from cardtable.durak import Game, Rules
from cardtable.game import IllegalMove, InvalidMove


def position(hands, trump="♠", stock="", attacker=0, **options):
    return Game.from_position(Rules(**options), hands=hands, trump=trump, stock=stock,
                              attacker=attacker)


def test_the_defender_is_the_next_active_player_clockwise():
    game = position(["9♣", "", "10♣ J♣", "Q♣"], attacker=0)
    assert game.out == (1,)
    assert game.defender == 2   # seat 1 holds no cards: skipped


def test_attack_with_one_card_or_several_of_one_rank():
    game = position(["9♣ 9♦ 10♥", "6♠ 7♠ 8♠ A♥"])
    assert legal(game) == {"attack 9♣", "attack 9♦", "attack 10♥", "attack 9♣ 9♦"}
    with pytest.raises(InvalidMove, match="share one rank"):   # no such move at all
        game.parse_move("attack 9♣ 10♥")


def test_the_attack_may_not_exceed_the_defenders_hand():
    game = position(["9♣ 9♦ 9♥", "6♠ 7♠"])
    assert "attack 9♣ 9♦ 9♥" not in legal(game)
    with pytest.raises(IllegalMove, match="the attack would be 3 cards but seat 1 holds "
                                          "only 2"):
        game.push("attack 9♣ 9♦ 9♥")


def test_a_plain_card_is_beaten_by_a_higher_card_of_its_suit_or_any_trump():
    game = play(position(["9♣ 7♦", "10♣ 8♣ 9♦ 6♠ A♦"]), "attack 9♣")
    assert legal(game) == {"defend 9♣ with 10♣", "defend 9♣ with 6♠", "take"}


def test_a_lower_card_of_the_suit_or_another_suit_does_not_beat():
    game = play(position(["9♣ 7♦", "8♣ 10♥"]), "attack 9♣")
    with pytest.raises(IllegalMove, match="8♣ does not beat 9♣: it is lower"):
        game.push("defend 9♣ with 8♣")
    with pytest.raises(IllegalMove, match="10♥ does not beat 9♣: trump is ♠"):
        game.push("defend 9♣ with 10♥")


def test_a_trump_is_beaten_only_by_a_higher_trump():
    game = play(position(["9♠ 7♦", "8♠ 10♠ A♥ K♣"]), "attack 9♠")
    assert legal(game) == {"defend 9♠ with 10♠", "take"}
    with pytest.raises(IllegalMove, match="a trump is beaten only by a higher trump"):
        game.push("defend 9♠ with A♥")


def test_the_ace_is_high():
    game = play(position(["K♣ 7♦", "A♣ 6♣"]), "attack K♣")
    assert legal(game) == {"defend K♣ with A♣", "take"}


def test_a_trump_may_beat_even_when_holding_the_attacked_suit():
    game = play(position(["9♣ 7♦", "10♣ 6♠"]), "attack 9♣")
    game.push("defend 9♣ with 6♠")
    assert game.table == ((Card.parse("9♣"), Card.parse("6♠")),)


def test_each_defence_lies_on_its_attack_card_and_both_stay_visible():
    game = play(position(["9♣ 9♦ 7♥", "10♣ J♦ 6♥ 8♥"]), "attack 9♣ 9♦",
                "defend 9♦ with J♦")
    assert game.table == ((Card.parse("9♣"), None), (Card.parse("9♦"), Card.parse("J♦")))
    assert game.view(0)["table"] == [["9♣", None], ["9♦", "J♦"]]


def test_the_defender_answers_one_card_at_a_time_and_alone():
    game = play(position(["9♣ 9♦ 7♥", "10♣ J♦ 6♥ 8♥", "A♥"]), "attack 9♣ 9♦",
                "defend 9♣ with 10♣")
    assert game.to_move == 1   # still the defender: 9♦ is unbeaten
    assert legal(game) == {"defend 9♦ with J♦", "take"}


def test_the_defender_may_take_even_when_able_to_beat():
    game = play(position(["9♣ 7♦", "10♣ A♠"]), "attack 9♣")
    assert "take" in legal(game)
    game.push("take")
    assert game.phase == "taking"


def test_the_attacker_leads_and_cannot_pass_or_take():
    game = position(["9♣ 7♦", "10♣ A♠"])
    with pytest.raises(IllegalMove, match="seat 0 leads this round"):
        game.push("pass")
    with pytest.raises(IllegalMove, match="nothing to take yet"):
        game.push("take")
