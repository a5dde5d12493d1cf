"""Section 05 of the source: adding cards, and the limit fixed when the defence starts."""

import pytest
from durak_helpers import legal, play

from cardtable.cards import Card
from cardtable.durak import Game, Rules
from cardtable.game import IllegalMove


def position(hands, trump="♥", stock="", attacker=0, **options):
    return Game.from_position(Rules(**options), hands=hands, trump=trump, stock=stock,
                              attacker=attacker)


def test_cards_are_added_once_every_attack_card_is_beaten():
    game = play(position(["9♣ 9♦ 7♦", "10♣ J♦ 6♠ 8♠"]), "attack 9♣")
    with pytest.raises(IllegalMove, match="must beat, transfer or take now"):
        game.push("attack 9♦")
    game.push("defend 9♣ with 10♣")
    assert game.phase == "throw-in" and game.to_move == 0
    assert legal(game) == {"attack 9♦", "pass"}


def test_added_cards_match_a_rank_on_the_table_defences_included():
    game = play(position(["9♣ 10♦ J♠ 7♦", "10♣ Q♠ 6♠ 8♠"]), "attack 9♣",
                "defend 9♣ with 10♣")
    assert legal(game) == {"attack 10♦", "pass"}   # 10 is on the table as a defence
    with pytest.raises(IllegalMove, match="only ranks on the table \\(9, 10\\) may be added"):
        game.push("attack J♠")


def test_old_discards_do_not_count():
    game = play(position(["9♣ J♠ Q♣ K♦", "10♣ 10♠ J♣ 9♠"], stock="6♦ 7♣ 8♥"),
                "attack 9♣", "defend 9♣ with 10♣", "pass")
    assert game.round_number == 2 and game.to_move == 1   # the defender leads
    assert {Card.parse("9♣"), Card.parse("10♣")} <= set(game.discard)
    play(game, "attack J♣", "defend J♣ with Q♣")
    # seat 1 holds 10♠ and 9♠, ranks of the last round, now in the discard pile
    assert legal(game) == {"pass"}


def test_the_limit_is_fixed_when_the_defence_starts():
    game = play(position(["9♣ 9♦ 9♠ 9♥ 7♦", "10♣ 6♠ 8♠", "A♣ A♦"]), "attack 9♣",
                "defend 9♣ with 10♣")
    assert game.limit == 3   # min(6, the defender's three cards when defending began)
    assert "attack 9♦ 9♠ 9♥" not in legal(game)
    with pytest.raises(IllegalMove, match="the attack would be 4 cards; the limit this round "
                                          "is 3"):
        game.push("attack 9♦ 9♠ 9♥")
    assert "attack 9♦ 9♠" in legal(game)


def test_the_limit_is_six_even_against_a_bigger_hand():
    game = play(position(["9♣ 9♦ 9♠ 9♥ 10♦ 10♠ 10♣ 7♦",
                          "A♣ A♦ A♠ 10♥ K♦ K♠ Q♦ 6♥ 8♥ J♥"]), "attack 9♣")
    play(game, "defend 9♣ with A♣", "attack 9♦ 9♠ 9♥", "defend 9♦ with A♦",
         "defend 9♠ with A♠", "defend 9♥ with 10♥")
    assert game.limit == 6 and len(game.table) == 4
    assert "attack 10♦ 10♠" in legal(game)
    assert "attack 10♦ 10♠ 10♣" not in legal(game)


def test_others_add_clockwise_from_the_current_attacker_skipping_the_defender():
    game = play(position(["9♣ 7♦", "10♣ 6♠ 8♠", "9♦ K♠", "9♠ K♣"]), "attack 9♣",
                "defend 9♣ with 10♣")
    order = [game.to_move]
    for _ in range(3):
        game.push("pass")
        order.append(game.to_move if game.round_number == 1 else None)
    assert order == [0, 2, 3, None]   # then the round closed


def test_after_a_transfer_adding_starts_from_the_transferrer():
    game = play(position(["9♣ 9♥ 7♦", "9♦ 6♠ 8♠", "10♣ J♦ K♠ A♠", "Q♠ K♣"]),
                "attack 9♣", "transfer 9♦", "defend 9♣ with 10♣", "defend 9♦ with J♦")
    assert game.attacker == 1 and game.to_move == 1
    game.push("pass")
    assert game.to_move == 3
    game.push("pass")
    assert game.to_move == 0 and legal(game) == {"attack 9♥", "pass"}


def test_a_thrower_without_a_matching_rank_still_gets_the_turn():
    # skipping seat 2 for lacking a matching card would tell everyone what it holds
    game = play(position(["9♣ 7♦", "10♣ 6♠ 8♠", "K♠ K♣"]), "attack 9♣",
                "defend 9♣ with 10♣", "pass")
    assert game.to_move == 2 and legal(game) == {"pass"}


def test_after_a_beaten_throw_in_the_turn_starts_again_at_the_attacker():
    game = play(position(["9♣ 7♦", "10♣ 6♠ 8♠ J♦", "10♦ K♣", "A♠"]), "attack 9♣",
                "defend 9♣ with 10♣", "pass", "attack 10♦", "defend 10♦ with J♦")
    assert game.to_move == 0   # seat 0 passed before, but a card was added since
    game.push("pass")
    assert game.to_move == 2


def test_the_round_closes_when_every_thrower_has_passed_in_a_row():
    game = play(position(["9♣ 7♦ 7♥", "10♣ 6♠ 8♠ J♦", "10♦ K♣ 6♣"], stock="Q♦ 6♥"),
                "attack 9♣", "defend 9♣ with 10♣", "pass", "attack 10♦",
                "defend 10♦ with J♦", "pass")
    assert game.round_number == 1 and game.to_move == 2
    game.push("pass")
    assert game.round_number == 2 and game.table == ()


def test_added_cards_can_never_be_transferred():
    game = play(position(["9♣ 10♦ 7♦", "10♣ 10♠ 6♥ 8♠", "A♦ K♣ Q♣"]), "attack 9♣",
                "defend 9♣ with 10♣", "attack 10♦")
    assert legal(game) == {"defend 10♦ with 6♥", "take"}   # 10♠ may not transfer the 10
    with pytest.raises(IllegalMove, match="already beaten"):
        game.push("transfer 10♠")
