"""The compiled Pasur core against the pure engine: the same moves, positions and outcomes.

The core (``cardtable/pasur/_core.c``) plays a hand on masks for the bots' inner loops;
the pure ``Hand`` is the reference it must match exactly (tests/pasur_differential.py
says how).  benchmarks/engine_differential.py runs the same comparison on 100,000 positions
and more; here hypothesis picks the cases.
"""

from __future__ import annotations

import gc
import random
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pasur_differential import (
    board_of,
    card_points_of,
    play_both,
    positions_of,
    random_rules,
    same,
)

from cardtable._engine import pure_requested
from cardtable.bots.pasur_kit import KIT
from cardtable.pasur import PRESETS, Hand, Move
from cardtable.pasur.moves import move_of

core = pytest.importorskip("cardtable.pasur._core", reason="no compiled core built here")
pytestmark = [
    pytest.mark.skipif(not hasattr(core, "Board"), reason="the core has no Board"),
    pytest.mark.skipif(pure_requested(), reason="CARDTABLE_PURE: the pure engine's run"),
]


@st.composite
def hands(draw: st.DrawFn) -> tuple[Hand, random.Random]:
    """A hand under a preset or a drawn option set and a player count, perhaps part played
    and copied without its stack, and a generator for the moves."""
    rules, players = random_rules(lambda values: draw(st.sampled_from(list(values))))
    hand = Hand.new(rules, players=players, seed=draw(st.integers(0, 2**32)),
                    leader=draw(st.integers(0, players - 1)))
    rng = random.Random(draw(st.integers(0, 2**32)))
    ahead = draw(st.integers(0, 47))
    if ahead:
        for _ in range(ahead):
            hand.push(rng.choice(hand.legal_moves()))
        hand = hand.copy(stack=False)
    return hand, rng


@given(hands())
@settings(max_examples=100, deadline=None)
def test_the_core_plays_every_position_as_the_pure_engine(case):
    hand, rng = case
    assert play_both(hand, rng) > 0


@pytest.mark.parametrize(("preset", "players"), [
    (name, players) for name, rules in PRESETS.items() for players in rules.player_counts])
def test_every_preset_and_player_count_plays_alike(preset, players):
    hand = Hand.new(PRESETS[preset], players=players, seed=players)
    assert play_both(hand, random.Random(players)) >= 48


def test_a_thousand_positions_on_random_rule_sets():
    positions, hands_played = positions_of(1000, seed=45)
    assert positions >= 1000 and hands_played >= 2


def test_the_core_lists_a_multi_set_capture_in_the_pure_order():
    # 5♣ on A♠ 2♣ 3♦ 4♥ 6♠ 5♦ under multicapture: sets making 11 with it, and their unions
    hand = Hand.from_position(PRESETS["multicapture"], hands=["5♣", ""], to_move=0,
                              table="A♠ 2♣ 3♦ 4♥ 6♠ 5♦", deal_round=4)
    board = board_of(hand)
    same(board, hand)
    assert len(board.legal()) > 2   # several sets and a union of two


def test_the_core_sweeps_the_table_to_the_last_capturer_and_undoes_it():
    hand = Hand.from_position(hands=["7♣", "K♦"], table="4♦ 9♠", to_move=0, deal_round=6,
                              last_capturer=1)
    board = board_of(hand)
    for text in ("7♣ x 4♦", "K♦"):   # 7♣ takes 4♦; K♦ stays and the hand ends
        move = Move.parse(text)
        board.push(move.index, move.taken)
        hand.push(move)
        same(board, hand)
    same(board, hand)
    assert board.state()["swept"] == hand.swept[0].mask | hand.swept[1].mask
    board.pop()
    hand.pop()
    same(board, hand)


def test_the_basic_policy_is_the_kits_playout_move_for_move():
    # with no random moves, the core's basic policy picks what PasurKit.playout picks
    class NeverRandom(random.Random):
        def random(self) -> float:
            return 0.99

    rng = random.Random(7)
    checked = 0
    for seed in range(40):
        rules, players = random_rules(rng.choice)
        hand = Hand.new(rules, players=players, seed=seed)
        while not hand.is_over():
            board = core.Board(hand, card_points_of(rules), rules.sur_points)
            board.playout("basic", 0, hand.deal_round, 0.0)   # variety 0: no random move
            _, index, taken, _ = board.moves()[0]
            want = KIT.playout(hand, NeverRandom())
            assert (index, taken) == (want.index, want.taken), (hand, want)
            hand.push(want)
            checked += 1
    assert checked >= 40 * 48


def test_the_same_seed_plays_the_same_playout():
    hand = Hand.new(PRESETS["standard"], seed=1)
    runs = []
    for _ in range(2):
        board = board_of(hand)
        board.playout("random", 12345)
        runs.append(board.moves())
    other = board_of(hand)
    other.playout("random", 54321)
    assert runs[0] == runs[1] and len(runs[0]) == 48
    assert other.moves() != runs[0]


@pytest.mark.parametrize("bad", [("7c", 0), (None, 0), (-1, 0), (60, 0), (1, -5),
                                 (1, 1 << 60), (1,), ()])
def test_the_board_refuses_what_is_no_legal_move_and_changes_nothing(bad):
    hand = Hand.new(PRESETS["standard"], seed=2)
    board = board_of(hand)
    with pytest.raises((TypeError, ValueError, OverflowError)):
        board.push(*bad)
    same(board, hand)


@pytest.mark.parametrize("bad", [None, "hand", 5, object()])
def test_a_board_is_made_only_from_a_hand(bad):
    with pytest.raises((TypeError, ValueError, AttributeError)):
        core.Board(bad)


def test_the_board_refuses_an_unknown_policy_and_an_empty_undo():
    board = board_of(Hand.new(PRESETS["standard"], seed=3))
    with pytest.raises(ValueError, match="policy"):
        board.playout("clever", 1)
    with pytest.raises(IndexError):
        board.pop()


def test_memory_stays_flat_over_a_million_pushes_and_pops():
    hand = Hand.new(PRESETS["multicapture"], players=3, seed=4)
    board = board_of(hand)
    line = []
    rng = random.Random(4)
    while board.to_move is not None:
        move = rng.choice(board.legal())
        line.append(move)
        board.push(*move)
    for _ in range(len(line)):
        board.pop()
    move = line[0]

    def cycle(times: int) -> None:
        push, pop = board.push, board.pop
        for _ in range(times):
            push(*move)
            pop()
            board.legal()

    cycle(10_000)   # (warm: every cache and free list filled)
    gc.collect()
    counts = [sys.getrefcount(board), sys.getrefcount(move[1]), sys.getrefcount(hand)]
    objects, blocks = len(gc.get_objects()), sys.getallocatedblocks()
    cycle(1_000_000)
    gc.collect()
    assert [sys.getrefcount(board), sys.getrefcount(move[1]), sys.getrefcount(hand)] == counts
    assert len(gc.get_objects()) - objects < 50
    # (a leaked reference would keep up to a million tuples or ints alive)
    assert sys.getallocatedblocks() - blocks < 1000
    assert move_of(*move) in hand.legal_moves()
