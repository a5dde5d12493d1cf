"""Sample and solve (``pimc``): in the second-to-last deal of a 2-player Pasur hand, each
sampled deal is solved to the end of the hand and every move is valued on it."""

from __future__ import annotations

import pytest

from cardtable import bots, pasur
from cardtable.bots.pasur_kit import KIT
from cardtable.bots.solver import Solver
from cardtable.game import make_rng


def hand_at(round_: int, *, players: int = 2, seed: int = 3,
            preset: str = "standard") -> pasur.Hand:
    """A hand played by the basic bot up to the first decision of ``round_``, with at least
    two moves to choose from."""
    rules = pasur.PRESETS[preset]
    for k in range(50):
        hand = pasur.Hand.new(rules, players=players, seed=seed + k)
        basic = bots.make("basic")
        while hand.deal_round < round_ and not hand.is_over():
            hand.push(basic.choose(hand))
        if not hand.is_over() and len(hand.legal_moves()) > 1:
            return hand
    raise AssertionError("no position found")


@pytest.mark.parametrize("preset, players, round_, near", [
    ("standard", 2, 4, False), ("standard", 2, 5, True), ("standard", 2, 6, False),
    ("wikipedia", 4, 2, False)])
def test_near_end_is_the_second_to_last_deal_of_a_two_player_hand(preset, players, round_,
                                                                   near):
    """Four players deal three rounds: the second is also one deal from the end, but two
    hidden hands and sixteen cards to come are too many to solve per sample."""
    hand = hand_at(round_, players=players, preset=preset)
    assert hand.deal_round == round_
    assert KIT.near_end(hand, hand.to_move) is near


def test_each_move_is_worth_its_mean_exact_value_over_the_sampled_deals():
    hand = hand_at(5)
    seat = hand.to_move
    bot = bots.make("ismcts:pimc=3", seed=11)
    move = bot.choose(hand)
    # the same deals again, each solved move by move
    rng = make_rng(11)
    sample = KIT.sampler(hand, seat)
    context = KIT.context(hand, seat)
    totals = dict.fromkeys(hand.legal_moves(), 0.0)
    for _ in range(3):
        deal = sample(rng)
        side = deal.side_of(seat)
        for option in totals:
            deal.push(option)
            solver = Solver(KIT, lambda final: KIT.rewards(final, context)[seat],
                            lambda s, deal=deal, side=side: deal.side_of(s) == side,
                            max_nodes=10**6)
            totals[option] += solver.solve(deal)[0]
            deal.pop()
    assert bot.stats["pimc"] == 3
    assert bot.stats["moves"] == {str(m): (3, pytest.approx(t / 3)) for m, t in totals.items()}
    assert totals[move] == max(totals.values())


def test_sample_and_solve_falls_back_to_the_search_past_its_budget():
    hand = hand_at(5)
    bot = bots.make("ismcts:pimc=4,solver_nodes=5,iterations=40", seed=2)
    assert bot.choose(hand) in hand.legal_moves()
    assert bot.stats["iterations"] == 40


def test_sample_and_solve_is_not_used_before_the_last_two_deals():
    hand = hand_at(3)
    bot = bots.make("ismcts:pimc=4,iterations=30", seed=2)
    bot.choose(hand)
    assert bot.stats["iterations"] == 30 and "pimc" not in bot.stats


def test_pimc_must_be_a_count():
    with pytest.raises(ValueError, match="pimc must be a whole number of 0 or more"):
        bots.make("ismcts:pimc=-2")
