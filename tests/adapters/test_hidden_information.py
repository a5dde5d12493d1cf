"""Observations hold only what a seat may see; resampling keeps a seat's information."""

from __future__ import annotations

import random

import numpy as np
import pytest
from adapter_helpers import advance, card, deal, deck

from cardtable.adapters.base import KINDS
from cardtable.adapters.durak import DurakEpisode
from cardtable.adapters.pasur import PasurEpisode


def assert_same_view(a, b, seat: int) -> None:
    for kind in KINDS:
        assert np.array_equal(a.tensor(seat, kind), b.tensor(seat, kind)), kind
        assert a.string(seat, kind) == b.string(seat, kind), kind
        assert np.array_equal(a.tensor(seat, kind, private="none"),
                              b.tensor(seat, kind, private="none")), kind


def assert_different_view(a, b, seat: int) -> None:
    for kind in KINDS:
        assert not np.array_equal(a.tensor(seat, kind), b.tensor(seat, kind)), kind
        assert a.string(seat, kind) != b.string(seat, kind), kind


def _swapped(cards: list, one: str, other: str) -> list:
    out = list(cards)
    i, j = out.index(card(one)), out.index(card(other))
    out[i], out[j] = out[j], out[i]
    return out


def test_pasur_tensors_do_not_change_with_an_opponents_hidden_cards():
    first = deck("7♣ 3♦ 9♠ K♥", "5♣ 6♦ 8♠ Q♥", "2♠ 2♥ 4♦ K♣")
    second = _swapped(first, "8♠", "A♠")          # seat 1 holds A♠ instead of 8♠
    a, b = deal(PasurEpisode(), first), deal(PasurEpisode(), second)
    assert_same_view(a, b, seat=0)
    assert_different_view(a, b, seat=1)
    for episode in (a, b):                        # the same moves, seen by seat 0
        episode.apply(card("3♦").index)
        episode.apply(card("5♣").index)
    assert_same_view(a, b, seat=0)
    assert_different_view(a, b, seat=1)


def test_pasur_tensors_do_not_change_with_the_stock():
    first = deck("7♣ 3♦ 9♠ K♥", "5♣ 6♦ 8♠ Q♥", "2♠ 2♥ 4♦ K♣")
    a = deal(PasurEpisode(), first)
    b = deal(PasurEpisode(), first)
    rng_a, rng_b = random.Random(1), random.Random(2)   # later deals differ
    for episode, rng in ((a, rng_a), (b, rng_b)):
        for text in ("3♦", "5♣"):
            episode.apply(card(text).index)
        advance(episode, rng, 0)
    assert_same_view(a, b, seat=0)
    assert_same_view(a, b, seat=1)


def test_durak_tensors_do_not_change_with_an_opponents_hidden_cards_or_the_stock():
    first = deck("6♣ 7♣ 8♣ 9♦ 10♦ J♦", "6♦ 7♦ 8♦ 9♣ 10♣ J♣", "Q♠", "A♥ K♥", size=36)
    second = _swapped(first, "10♦", "A♥")          # seat 1's 10♦ and the stock's top card
    third = _swapped(first, "A♥", "K♥")            # only the stock's order differs
    a, b, c = (deal(DurakEpisode(), cards) for cards in (first, second, third))
    assert_same_view(a, b, seat=0)
    assert_different_view(a, b, seat=1)
    assert_same_view(a, c, seat=0)
    assert_same_view(a, c, seat=1)


@pytest.mark.parametrize("make", [
    lambda: PasurEpisode("standard", 2), lambda: PasurEpisode("turkish", 4),
    lambda: PasurEpisode("multicapture", 3), lambda: DurakEpisode(players=2),
    lambda: DurakEpisode(players=4),
], ids=["pasur-2", "pasur-turkish-4", "pasur-multi-3", "durak-2", "durak-4"])
def test_resampling_keeps_the_seats_information_and_deals_the_rest_afresh(make):
    rng = random.Random(21)
    changed = 0
    for trial in range(12):
        episode = advance(make(), rng, rng.randrange(5, 45))
        if episode.is_terminal():
            continue
        seat = trial % episode.players
        other = episode.resample(seat, random.Random(trial))
        assert_same_view(episode, other, seat)
        if seat == episode.current_player():
            assert other.legal_actions() == episode.legal_actions()
        assert other.hidden_from(seat) == episode.hidden_from(seat)   # the same unseen set
        changed += other.history != episode.history
    assert changed > 0


def test_a_resampled_pasur_first_deal_never_puts_a_returned_jack_in_a_hand():
    hands = ("7♣ 3♦ 9♠ K♥", "5♣ 6♦ 8♠ Q♥", "J♦ 2♥ 4♦ K♣")
    episode = deal(PasurEpisode(), [*deck(*hands)[:12], card("3♣")])
    for seed in range(40):
        other = episode.resample(0, random.Random(seed))
        assert card("J♦") not in other.engine.hands[1]


def test_a_resampled_durak_game_keeps_who_led_by_the_lowest_trump():
    rng = random.Random(5)
    for trial in range(10):
        episode = advance(DurakEpisode(players=3), rng, rng.randrange(1, 30))
        if episode.is_terminal():
            continue
        other = episode.resample(trial % 3, random.Random(trial))
        assert other.moves == episode.moves   # the replay accepted every move, lead included
