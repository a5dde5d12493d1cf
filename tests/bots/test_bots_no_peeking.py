"""A bot decides only from what its seat has seen.

Two deals that differ only in where the cards the seat cannot see lie (the other hands,
the stock), with the same moves played, look the same from that seat; a seeded bot must
then choose the same move in both.
"""

from __future__ import annotations

import random

import pytest
from bot_positions import bot_specs_small, twins

from cardtable import bots, pasur

CASES = [  # game, players, preset, moves played before the decision
    ("pasur", 2, "standard", 9),
    ("pasur", 2, "standard", 22),
    ("pasur", 3, "wikipedia", 14),
    ("pasur", 4, "multicapture", 7),
    ("durak", 2, None, 6),
    ("durak", 2, None, 19),
    ("durak", 3, None, 11),
    ("durak", 4, None, 5),
]


@pytest.mark.parametrize("game, players, preset, moves", CASES)
def test_moving_the_hidden_cards_never_changes_a_seeded_bots_move(game, players, preset,
                                                                    moves):
    checked = 0
    for seed in range(40):
        pair = twins(game, players=players, seed=seed, moves=moves, preset=preset)
        if pair is None:
            continue
        first, second, seat = pair
        for spec in bot_specs_small():
            a = bots.make(spec, seed=seed).choose(first)
            b = bots.make(spec, seed=seed).choose(second)
            assert a is b, (f"{spec} chose {a} in one deal and {b} in the other, though "
                            f"seat {seat} sees the same in both")
        checked += 1
        if checked == 2:
            break
    assert checked == 2, "could not build two deals that look the same from the seat"


def test_the_twin_deals_really_hide_different_cards():
    first, second, seat = twins("pasur", players=2, seed=3, moves=9)
    other = 1 - seat
    assert first.hand.hands[other] != second.hand.hands[other] or \
        first.hand.stock != second.hand.stock
    assert first.view(seat) == second.view(seat)


def test_pasur_determinize_depends_only_on_what_the_seat_has_seen():
    for seed in range(5):
        pair = twins("pasur", players=2, seed=seed, moves=5)
        if pair is None:
            continue
        first, second, seat = pair
        a = first.hand.determinize(seat, random.Random(9))
        b = second.hand.determinize(seat, random.Random(9))
        assert a.hands == b.hands and a.stock == b.stock


def test_durak_determinize_depends_only_on_what_the_seat_has_seen():
    first, second, seat = twins("durak", players=3, seed=4, moves=8)
    a = first.determinize(seat, random.Random(9))
    b = second.determinize(seat, random.Random(9))
    assert a.hands == b.hands and a.stock == b.stock


def test_a_sampled_pasur_deal_keeps_every_public_fact():
    from cardtable.bots.pasur_kit import KIT

    first, _, seat = twins("pasur", players=3, seed=2, moves=10, preset="wikipedia")
    sample = KIT.sampler(first, seat)(random.Random(1))
    truth = first.view(seat)
    seen = sample.view(seat)
    for key in ("hand", "hand_sizes", "table", "stock_size", "captured", "surs",
                "last_capturer", "to_move", "deal_round", "legal_moves"):
        assert seen[key] == truth[key], key
    assert isinstance(sample, pasur.Hand)
