"""The greedy players follow the tactics players teach, one test per tactic."""

from __future__ import annotations

from cardtable import bots, durak, pasur
from cardtable.cards import pack, parse_cards


def greedy(state) -> str:
    return str(bots.make("greedy").choose(state))


def basic(state) -> str:
    return str(bots.make("basic").choose(state))


# -- Pasur ---------------------------------------------------------------------------------

def pasur_position(hands, table, *, live_surs=True):
    """Seat 0 to move in a 2-player hand; with ``live_surs`` one deal round is still in
    the stock (a sur counts), else it is the last deal.  Every other card was captured
    earlier, half each."""
    used = {c for text in [*hands, table] for c in parse_cards(text)}
    rest = [c for c in pack(52) if c not in used]
    stock, rest = (rest[:8], rest[8:]) if live_surs else ([], rest)
    return pasur.Hand.from_position(hands=hands, table=table, stock=stock, to_move=0,
                                    captured=[rest[0::2], rest[1::2]], last_capturer=1)


def test_pasur_greedy_takes_the_most_points_now():
    # 10♦ takes A♠ (3 + 1 points); 8♥ would take 3♦ for nothing
    assert greedy(pasur_position(["10♦ 8♥ K♣", "2♠ 3♠ 4♠"], "A♠ 3♦ Q♥")) == "10♦ x A♠"


def test_pasur_greedy_takes_a_sur():
    # 5♣ with 2♦ and 4♠ makes 11 and clears the table
    assert greedy(pasur_position(["5♣ K♠", "2♠ 3♠"], "2♦ 4♠")) == "5♣ x 2♦ 4♠"


def test_pasur_greedy_leaves_no_sur_open():
    # leaving 5♦ alone on the table lets a six (one is still unseen) clear it; a queen can
    # only be paired
    position = pasur_position(["5♦ Q♠", "6♣ 3♠"], "")
    assert greedy(position) == "Q♠"
    assert basic(position) == "5♦", "the immediate-best player does not look ahead"


def test_pasur_greedy_leaves_no_11_combination():
    # 5♥ beside 4♠ lets a two take both (a sur); K♦ beside 4♠ leaves only the four
    assert greedy(pasur_position(["K♦ 5♥", "2♠ 3♠"], "4♠")) == "K♦"


def test_pasur_greedy_keeps_a_jack_for_a_full_table():
    # both cards take the 2♦; the jack is worth more later
    assert greedy(pasur_position(["J♥ 9♠", "2♠ 3♠"], "2♦")) == "9♠ x 2♦"


def test_pasur_greedy_plays_the_jack_on_a_full_table():
    table = "A♦ 2♥ 5♠ 10♣ 9♥"
    assert greedy(pasur_position(["J♥ Q♠", "2♠ 3♠"], table)).startswith("J♥ x")


# -- Durak ---------------------------------------------------------------------------------

STOCK = "7♦ 10♥ 10♠ 6♦ Q♥ 8♥ K♠"   # a long stock; the last card makes spades trump


def durak_game(hands, *, stock=STOCK, attacker=0, attack=None):
    game = durak.Game.from_position(hands=hands, trump="♠", stock=stock, attacker=attacker)
    if attack:
        game.push(attack)
    return game


def test_durak_greedy_attacks_with_its_lowest_card_and_keeps_trumps():
    game = durak_game(["6♠ 9♦ K♣ 7♥", "A♣ A♦ 10♦ J♥"])
    assert greedy(game) == "attack 7♥"


def test_durak_greedy_leads_a_low_pair_together():
    game = durak_game(["9♦ 9♥ K♣ 6♠", "A♣ A♦ 10♦ J♥"])
    assert greedy(game) == "attack 9♦ 9♥"


def test_durak_greedy_beats_with_the_lowest_card_that_does_the_job():
    game = durak_game(["7♥ 8♣ 9♣ 10♣", "9♥ J♥ A♥ 7♠"], attack="attack 7♥")
    assert greedy(game) == "defend 7♥ with 9♥"


def test_durak_greedy_takes_when_beating_costs_more_than_it_saves():
    # only the ace of trumps beats the 6♣; early in the game a six is cheap to take
    game = durak_game(["6♣ 8♦ 9♦ 10♦", "A♠ J♥ Q♦ K♦"], attack="attack 6♣")
    assert greedy(game) == "take"


def test_durak_greedy_beats_with_a_trump_once_the_stock_is_out():
    game = durak_game(["6♥ 8♦", "A♠ J♣"], attack="attack 6♥", stock="")
    assert greedy(game) == "defend 6♥ with A♠"


def test_durak_greedy_transfers_with_a_plain_card_of_the_rank():
    game = durak_game(["8♣ 9♦ 10♦ J♦", "8♦ K♥ A♥ 7♠"], attack="attack 8♣")
    assert greedy(game) == "transfer 8♦"


def test_durak_greedy_throws_low_cards_to_a_taker_and_keeps_high_ones():
    game = durak_game(["9♥ 9♣ A♦ A♣ J♦", "A♠ J♣ Q♦ K♦ 8♣"], attack="attack 9♥")
    game.push("take")
    assert greedy(game) == "attack 9♣"


# -- Durak: the search's playout plays the greedy player's tactics -------------------------

def test_durak_playout_tactics_choose_as_the_greedy_player_in_every_phase():
    """The playout reads the engine's fields, not the view; it must still make the greedy
    player's very choice (ties included) in every phase, preset and player count."""
    import random

    from cardtable import games
    from cardtable.bots.durak_kit import KIT

    spec = games.get("durak")
    phases, checked = set(), 0
    for seed in range(20):
        for preset, rules in spec.presets.items():
            for players in (2, 3, 4):
                state = spec.start(rules, players=players, seed=seed)
                rng = random.Random(seed)
                while not state.is_over():
                    choice = KIT.greedy(state, state.to_move)
                    assert KIT.tactics(state) is choice, (preset, players, state.view(None))
                    phases.add(state.phase)
                    checked += 1
                    moves = state.legal_moves()
                    state.push(choice if rng.random() < 0.7 else rng.choice(moves))
    assert phases == {"lead", "defend", "throw-in", "taking"} and checked > 4000


def test_durak_playout_tactics_take_when_one_attack_card_cannot_be_beaten():
    # the 9♦ could be beaten, the 9♥ cannot (no higher heart, no trump): beating one
    # only to take both would give the attacker a free look
    from cardtable.bots.durak_kit import KIT

    game = durak_game(["9♦ 9♥ J♣ J♥", "10♦ 7♥ 8♣ Q♣"], attack="attack 9♦ 9♥")
    assert basic(game) == "defend 9♦ with 10♦"
    assert str(KIT.tactics(game)) == "take"
