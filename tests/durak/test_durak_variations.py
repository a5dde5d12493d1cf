"""The variations: every option off in the "transfer" preset, tested on and off."""

import pytest
from durak_helpers import legal, play

from cardtable.cards import Card, Suit, pack
from cardtable.durak import PRESETS, Game, Rules
from cardtable.game import IllegalMove, rule_options

C = Card.parse


def position(hands, trump="♥", stock="", attacker=0, round_number=1, **options):
    return Game.from_position(Rules(**options), hands=hands, trump=trump, stock=stock,
                              attacker=attacker, round_number=round_number)


def test_the_preset_is_the_sources_agreements():
    rules = PRESETS["transfer"]
    assert rules.pack_size == 36 and rules.first_round_limit == 6
    assert rules.first_round_transfer and not rules.trump_six_exchange
    assert not rules.passport and not rules.late_transfer
    assert not rules.neighbours_only and not rules.partners
    assert rules.player_counts == (2, 3, 4, 5, 6)


def test_the_player_counts_follow_the_pack_and_partners_and_are_no_option():
    assert Rules(pack_size=24).player_counts == (2, 3, 4)
    assert Rules(partners=True).player_counts == (4, 6)
    assert Rules(pack_size=24, partners=True).player_counts == (4,)
    assert "player_counts" not in {option.name for option in rule_options(Rules)}
    with pytest.raises(AttributeError):
        Rules().player_counts = (2, 3)   # read from the options, never set


# -- passport: transfer by showing a trump ----------------------------------------------------

def test_passport_a_shown_trump_transfers_and_stays_in_the_hand():
    game = play(position(["9♣ 7♦ 8♦", "9♥ 6♠ 7♠", "10♣ J♠ Q♠"], passport=True),
                "attack 9♣")
    assert "transfer show 9♥" in legal(game)
    game.push("transfer show 9♥")
    assert game.defender == 2 and game.attacker == 1
    assert C("9♥") in game.hand(1) and C("9♥") in game.known_cards(1)
    assert len(game.table) == 1   # showing adds no attack card


def test_passport_only_a_trump_can_be_shown():
    game = play(position(["9♣ 7♦ 8♦", "9♦ 6♠ 7♠", "10♣ J♠ Q♠"], passport=True),
                "attack 9♣")
    with pytest.raises(IllegalMove, match="9♦ is not a trump"):
        game.push("transfer show 9♦")


def test_passport_each_card_is_shown_once_per_round():
    game = play(position(["9♣ 9♦ 7♦ 8♦", "9♥ 6♠ 7♠ 8♠"], passport=True), "attack 9♣",
                "transfer show 9♥", "transfer 9♦")
    assert game.defender == 1
    assert not any(m.startswith("transfer") for m in legal(game))
    with pytest.raises(IllegalMove, match="9♥ was already shown this round"):
        game.push("transfer show 9♥")


def test_passport_the_new_defender_must_hold_enough_cards():
    game = play(position(["9♣ 9♦ 7♦", "9♥ 6♠ 7♠", "10♣"], passport=True), "attack 9♣ 9♦")
    with pytest.raises(IllegalMove, match="seat 2 holds 1 card and the attack would be 2"):
        game.push("transfer show 9♥")


def test_passport_is_off_in_the_preset():
    game = play(position(["9♣ 7♦ 8♦", "9♥ 6♠ 7♠", "10♣ J♠ Q♠"]), "attack 9♣")
    assert "transfer show 9♥" not in legal(game)


# -- late transfer (Kyiv) ---------------------------------------------------------------------

def kyiv_game(**options):
    return play(position(["9♣ 10♦ 7♦ 8♦", "10♣ 10♠ 6♠ 7♠", "J♦ Q♠ K♠ A♣", "A♠"],
                         late_transfer=True, **options),
                "attack 9♣", "defend 9♣ with 10♣", "attack 10♦")


def test_late_transfer_an_added_card_may_be_transferred_after_a_defence():
    game = kyiv_game()
    assert "transfer 10♠" in legal(game)
    game.push("transfer 10♠")
    assert game.attacker == 1 and game.defender == 2
    # the beaten pair stays beaten on the table; seat 2 answers the two tens
    assert game.table == ((C("9♣"), C("10♣")), (C("10♦"), None), (C("10♠"), None))
    assert legal(game) == {"defend 10♦ with J♦", "defend 10♠ with Q♠", "defend 10♠ with K♠",
                           "take"}


def test_late_transfer_after_beating_part_of_a_transferred_attack():
    game = play(position(["9♣ 7♦", "9♦ J♣ 6♠", "9♠ 10♣ 10♥", "A♣ K♣ 8♣"],
                         late_transfer=True), "attack 9♣", "transfer 9♦",
                "defend 9♣ with 10♣")
    # seat 2 beat one nine; 9♦ is unbeaten and seat 2 holds 9♠
    assert "transfer 9♠" in legal(game)
    game.push("transfer 9♠")
    assert game.defender == 3 and game.attacker == 2
    preset = play(position(["9♣ 7♦", "9♦ J♣ 6♠", "9♠ 10♣ 10♥", "A♣ K♣ 8♣"]),
                  "attack 9♣", "transfer 9♦", "defend 9♣ with 10♣")
    assert "transfer 9♠" not in legal(preset)


def test_late_transfer_counts_the_unbeaten_cards_against_the_next_hand():
    game = kyiv_game()
    # seat 2 holds 4 cards: it may face the two unbeaten tens
    assert "transfer 10♠" in legal(game)
    short = play(position(["9♣ 10♦ 7♦ 8♦", "10♣ 10♠ 6♠ 7♠", "J♦", "A♠"],
                          late_transfer=True),
                 "attack 9♣", "defend 9♣ with 10♣", "attack 10♦")
    with pytest.raises(IllegalMove, match="seat 2 holds 1 card and the attack would be 2"):
        short.push("transfer 10♠")


def test_late_transfer_the_taker_takes_the_whole_table():
    game = play(kyiv_game(), "transfer 10♠", "take", "pass", "pass", "pass")
    assert {C("9♣"), C("10♣"), C("10♦"), C("10♠")} <= set(game.hand(2))


def test_late_transfer_is_off_in_the_preset():
    game = play(position(["9♣ 10♦ 7♦ 8♦", "10♣ 10♠ 6♠ 7♠", "J♦ Q♠ K♠ A♣"]),
                "attack 9♣", "defend 9♣ with 10♣", "attack 10♦")
    assert "transfer 10♠" not in legal(game)


# -- the first round ---------------------------------------------------------------------------

def limit_game(round_number, **options):
    return play(position(["9♣ 9♦ 9♠ 9♥ 10♦ 10♠ 10♣ 7♦",
                          "A♣ A♦ A♠ 10♥ K♦ K♠ Q♦ 6♥ 8♥ J♥"], round_number=round_number,
                         **options),
                "attack 9♣", "defend 9♣ with A♣", "attack 9♦ 9♠ 9♥", "defend 9♦ with A♦",
                "defend 9♠ with A♠", "defend 9♥ with 10♥")


def test_first_round_limit_of_five():
    game = limit_game(1, first_round_limit=5)
    assert game.limit == 5
    assert "attack 10♦" in legal(game) and "attack 10♦ 10♠" not in legal(game)
    later = limit_game(2, first_round_limit=5)
    assert later.limit == 6 and "attack 10♦ 10♠" in legal(later)


def test_first_round_limit_is_six_in_the_preset():
    assert limit_game(1).limit == 6


def test_no_transfer_in_the_first_round():
    game = play(position(["9♣ 7♦ 8♦", "9♦ 6♠ 7♠", "10♣ J♠ Q♠"], first_round_transfer=False),
                "attack 9♣")
    assert "transfer 9♦" not in legal(game)
    with pytest.raises(IllegalMove, match="in the first round under these rules"):
        game.push("transfer 9♦")
    later = play(position(["9♣ 7♦ 8♦", "9♦ 6♠ 7♠", "10♣ J♠ Q♠"], round_number=2,
                          first_round_transfer=False), "attack 9♣")
    assert "transfer 9♦" in legal(later)


# -- throw-in by the defender's neighbours only -------------------------------------------------

def test_neighbours_only_the_far_player_may_not_add():
    hands = ["9♣ 7♦", "10♣ 6♠ 8♠", "K♠ Q♠", "9♦ A♠"]
    game = play(position(hands, neighbours_only=True), "attack 9♣", "defend 9♣ with 10♣",
                "pass")
    assert game.to_move == 2   # seat 1's left neighbour
    game.push("pass")
    assert game.round_number == 2   # seat 3 holds a nine but sits apart: not asked
    anyone = play(position(hands), "attack 9♣", "defend 9♣ with 10♣", "pass", "pass")
    assert anyone.to_move == 3 and "attack 9♦" in legal(anyone)


# -- packs ----------------------------------------------------------------------------------------

def test_a_pack_of_24_cards_nine_to_ace():
    rules = Rules(pack_size=24)
    game = Game.new(rules, players=4, seed=3)
    assert {c.rank for h in game.hands for c in h} == {1, 9, 10, 11, 12, 13}
    assert game.stock == ()   # 24 cards: all dealt, the dealer's last card shows trump
    assert game.trump_card in game.hand(game.dealer)
    with pytest.raises(ValueError, match="at most 4 players"):
        Game.new(rules, players=5, seed=3)


def test_a_pack_of_52_cards_two_to_ace():
    game = Game.new(Rules(pack_size=52), players=6, seed=3)
    assert len(game.stock) == 52 - 36
    cards = [c for h in game.hands for c in h] + list(game.stock)
    assert sorted(cards) == sorted(pack(52))


# -- partners -------------------------------------------------------------------------------------

def test_partners_teams_sit_apart():
    game = Game.new(Rules(partners=True), players=4, seed=1)
    assert [game.team_of(s) for s in range(4)] == [0, 1, 0, 1] and game.teams == 2
    six = Game.new(Rules(partners=True), players=6, seed=1)
    assert [six.team_of(s) for s in range(6)] == [0, 1, 2, 0, 1, 2]
    with pytest.raises(ValueError, match="partners: 4 players as 2 teams or 6 as 3 teams"):
        Game.new(Rules(partners=True), players=3, seed=1)


def test_partners_a_player_never_attacks_a_partner():
    game = position(["9♣ 7♦", "", "K♠ Q♠", "10♣ J♣"], partners=True)
    assert game.defender == 3   # seat 1 is out; seat 2 is seat 0's partner


def test_partners_the_defenders_partner_does_not_add():
    game = play(position(["9♣ 7♦", "10♣ 6♠ 8♠", "9♦ K♠", "9♠ A♠"], partners=True),
                "attack 9♣", "defend 9♣ with 10♣", "pass")
    assert game.to_move == 2   # seat 0's partner may add
    game.push("pass")
    assert game.round_number == 2   # seat 3, seat 1's partner, holds 9♠ but is not asked


def test_partners_a_transfer_skips_the_transferrers_partners():
    game = play(position(["9♣ 7♦", "9♦ 6♠", "", "10♣ J♣ Q♣"], partners=True), "attack 9♣")
    assert game.defender == 1
    # seat 2 is out and seat 3 is seat 1's partner: the attack would go to seat 0
    with pytest.raises(IllegalMove, match="seat 0 holds 1 card and the attack would be 2"):
        game.push("transfer 9♦")
    roomy = play(position(["9♣ 7♦ 8♦ 6♦", "9♦ 6♠", "", "10♣ J♣ Q♣"], partners=True),
                 "attack 9♣", "transfer 9♦")
    assert roomy.defender == 0 and roomy.attacker == 1


def test_partners_a_team_loses_with_its_durak():
    game = play(position(["9♣", "6♠ 8♠", "K♣", "Q♠"], partners=True), "attack 9♣", "take",
                "pass")
    assert game.out == (0,) and game.to_move == 2 and game.defender == 3
    play(game, "attack K♣", "take")
    # seats 0 and 2 are out; only team 1 holds cards: it loses, its fullest hand the durak
    assert game.is_over()
    assert game.losing_team == 1 and game.loser == 1
    assert game.outcome().returns == (0.5, -0.5, 0.5, -0.5)
    assert game.outcome().winners == (0, 2)


def test_partners_six_players_the_other_teams_share_the_win():
    game = Game.from_position(Rules(partners=True), hands=["9♣", "", "", "10♣", "", "A♦"],
                              trump="♥", attacker=5)
    play(game, "attack A♦", "take")
    assert game.is_over() and game.loser == 0 and game.losing_team == 0
    assert game.outcome().returns == (-0.5, 0.25, 0.25, -0.5, 0.25, 0.25)


# -- trump-six exchange ---------------------------------------------------------------------------

def test_trump_six_exchange_swaps_the_six_for_the_face_up_card():
    game = position(["6♥ 7♦ 8♦", "9♦ 6♠ 7♠"], stock="10♣ J♣ K♥", trump_six_exchange=True)
    assert "exchange 6♥" in legal(game)
    game.push("exchange 6♥")
    assert C("K♥") in game.hand(0) and C("6♥") not in game.hand(0)
    assert game.stock == (C("10♣"), C("J♣"), C("6♥"))
    assert game.trump_card == C("6♥") and game.trump is Suit.HEARTS
    assert C("K♥") in game.known_cards(0)
    assert game.to_move == 0 and "exchange 6♥" not in legal(game)


def test_trump_six_exchange_not_on_the_last_card_of_the_stock():
    game = position(["6♥ 7♦ 8♦", "9♦ 6♠ 7♠"], stock="K♥", trump_six_exchange=True)
    with pytest.raises(IllegalMove, match="it is the last card of the stock"):
        game.push("exchange 6♥")


def test_trump_six_exchange_with_52_cards_is_the_two():
    game = position(["2♥ 7♦ 8♦", "9♦ 6♠ 7♠"], stock="10♣ K♥", trump_six_exchange=True,
                    pack_size=52)
    assert "exchange 2♥" in legal(game)


def test_trump_six_exchange_is_off_in_the_preset():
    game = position(["6♥ 7♦ 8♦", "9♦ 6♠ 7♠"], stock="10♣ J♣ K♥")
    with pytest.raises(IllegalMove, match="not played under these rules"):
        game.push("exchange 6♥")


def test_trump_six_exchange_also_while_defending():
    game = play(position(["9♣ 7♦ 8♦", "6♥ 10♣ 7♠"], stock="10♦ J♣ K♥",
                         trump_six_exchange=True), "attack 9♣")
    assert game.to_move == 1 and "exchange 6♥" in legal(game)
    game.push("exchange 6♥")
    assert game.to_move == 1 and "defend 9♣ with K♥" in legal(game)
