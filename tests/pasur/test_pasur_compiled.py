"""The compiled ``pasur.Hand`` against the pure one: one rulebook, proven twice.

Both engines play the same hands side by side (tests/pasur_differential.py: ``play_twins``)
and must show the same legal moves in the same order, the same fields, views, records and
outcomes, refuse bad input with the same error and message, and copy, determinize, pickle
and undo alike.  benchmarks/engine_differential.py runs the same comparison on 100,000
positions and more (benchmarks/engine_sanitize.sh under AddressSanitizer).
"""

from __future__ import annotations

import gc
import pickle
import random
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pasur_differential import play_twins, random_rules, twins_of

from cardtable._engine import pure_requested
from cardtable.pasur import PRESETS, Move

core = pytest.importorskip("cardtable.pasur._core", reason="no compiled core built here")
pytestmark = pytest.mark.skipif(pure_requested(), reason="CARDTABLE_PURE: the pure run")

from cardtable.pasur.compiled import Hand as CompiledHand  # noqa: E402
from cardtable.pasur.hand import Hand as PureHand  # noqa: E402


def test_the_public_hand_is_the_compiled_one_where_it_was_built() -> None:
    from cardtable import pasur
    assert pasur.Hand is CompiledHand


@given(st.integers(0, 2**32), st.integers(0, 2**32))
@settings(max_examples=60, deadline=None)
def test_hands_on_drawn_rules_play_alike_on_both_engines(deal: int, moves: int) -> None:
    rng = random.Random(moves)
    rules, players = random_rules(random.Random(deal).choice)
    leader = deal % players
    pure = PureHand.new(rules, players=players, seed=deal, leader=leader)
    twin = CompiledHand.new(rules, players=players, seed=deal, leader=leader)
    assert play_twins(pure, twin, rng) > 0


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_and_player_count_plays_alike(preset: str) -> None:
    rules = PRESETS[preset]
    for players in rules.player_counts:
        for seed in range(3):
            pure = PureHand.new(rules, players=players, seed=seed)
            twin = CompiledHand.new(rules, players=players, seed=seed)
            assert play_twins(pure, twin, random.Random(seed)) > 0


def test_two_thousand_positions_from_new_hands_decks_and_positions() -> None:
    positions, hands = twins_of(2_000, seed=45)
    assert positions >= 2_000 and hands > 5


def test_a_pickle_of_another_build_or_of_nothing_is_refused() -> None:
    hand = CompiledHand.new(PRESETS["standard"], seed=1)
    hand.push(hand.legal_moves()[0])
    state = hand._getstate()
    raw = state[0]
    for bad in (b"", raw[:-1], raw + b"x", b"\xff" * len(raw)):
        blank = CompiledHand.__new__(CompiledHand)
        with pytest.raises(ValueError, match="another build"):
            blank._setstate((bad, *state[1:]))
    copied = pickle.loads(pickle.dumps(hand))
    assert type(copied) is CompiledHand and copied.view(0) == hand.view(0)
    assert copied.pop() == hand.pop()


def test_a_compiled_hand_cannot_be_made_by_calling_the_class() -> None:
    with pytest.raises(TypeError, match=r"Hand\.new"):
        CompiledHand()


def push_and_pop(hand: CompiledHand, line: list[Move], times: int) -> None:
    for _ in range(times):
        for move in line:
            hand.push(move)
        for _ in range(len(line)):
            hand.pop()


def test_reference_counts_stay_flat_over_a_million_pushes_and_pops() -> None:
    """Pushing and popping (round ends and the last sweep included) leaks no reference to
    the moves or the hand, and no memory."""
    hand = CompiledHand.new(PRESETS["standard"], players=2, seed=11)
    rng = random.Random(3)
    line: list[Move] = []
    probe = hand.copy()
    while not probe.is_over():
        line.append(rng.choice(probe.legal_moves()))
        probe.push(line[-1])
    watched = [*line, hand, hand.rules]
    push_and_pop(hand, line, 1)
    gc.collect()
    before = [sys.getrefcount(obj) for obj in watched]
    blocks = sys.getallocatedblocks()
    push_and_pop(hand, line, 1_000_000 // len(line) + 1)
    gc.collect()
    # a reference leaked a push or a pop would show as tens of thousands; a server thread
    # left by an earlier test in the worker may hold one of these for a moment
    after = [sys.getrefcount(obj) for obj in watched]
    drift = [(obj, a - b) for obj, a, b in zip(watched, after, before, strict=True)
                                            if abs(a - b) > 16]
    assert not drift, drift
    # a leak of one block a push or a pop would show as a million; other threads of the
    # test process may allocate a few hundred
    assert sys.getallocatedblocks() - blocks < 1_000


class _Counted(random.Random):
    """A generator of another class: its own random() must be the one drawn from."""

    def random(self) -> float:
        return 1.0 - super().random()


@pytest.mark.parametrize("make", [random.Random, _Counted])
def test_a_generator_deals_the_same_hands_on_both_engines_and_is_left_alike(make) -> None:
    one, other = make(5), make(5)
    for _ in range(50):
        pure = PureHand.new(PRESETS["standard"], seed=one)
        twin = CompiledHand.new(PRESETS["standard"], seed=other)
        assert twin.deck == pure.deck and twin.hands == pure.hands
    assert one.random() == other.random()


@pytest.mark.parametrize("seed", range(4))
def test_hands_from_masks_play_alike_on_both_engines(seed: int) -> None:
    """``Hand.from_masks`` (the research adapters' start of each deal round): the compiled
    hand places the position in C, the pure one in Python; they play on alike."""
    rng = random.Random(seed)
    rules = PRESETS["multicapture"]
    players = rules.player_counts[seed % len(rules.player_counts)]
    hand = PureHand.new(rules, players=players, seed=seed, leader=seed % 2)
    while not hand.is_over():
        if all(len(cards) == 4 for cards in hand.hands):
            where = dict(held=hand.hand_masks, table=hand.table_mask,
                         stock=sum(card.mask for card in hand.stock), leader=hand.to_move,
                         deal_round=hand.deal_round, captured=hand.captured_masks,
                         surs=hand.surs, last_capturer=hand.last_capturer)
            pure = PureHand.from_masks(rules, **where)
            twin = CompiledHand.from_masks(rules, **where)
            assert play_twins(pure, twin, random.Random(rng.getrandbits(32))) > 0
        hand.push(rng.choice(hand.legal_moves()))


@pytest.mark.parametrize("name", ["_held", "_table", "_captured", "_surs", "_deals", "_deck",
                                  "_history", "_totals", "_last", "_to_move", "rules",
                                  "_memory", "leader", "players"])
def test_a_compiled_hands_fields_cannot_be_deleted(name: str) -> None:
    hand = CompiledHand.new(PRESETS["standard"], seed=2, totals=(1, 2))
    before = hand.view(0)
    with pytest.raises((AttributeError, TypeError)):
        delattr(hand, name)
    assert hand.copy().view(0) == before
