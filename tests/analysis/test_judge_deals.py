"""The judge's Pasur deals dealt in the compiled core (``_core.Board.dealt``, through the
kit's ``fast_dealer``): the same hidden cards as the core's sample, every public fact
kept, and each move played on the board as the kit's ``fast_deal`` plays it."""

from __future__ import annotations

import random

import pytest

from cardtable import analysis
from cardtable.bots import pasur_kit
from cardtable.bots.pasur_kit import KIT
from cardtable.pasur import PRESETS, Hand

core = pasur_kit._core()
needs_core = pytest.mark.skipif(core is None, reason="no compiled Pasur core (or CARDTABLE_PURE)")


def _played(seed: int, preset: str, players: int) -> Hand:
    """A hand into a deal round and a few moves of it (so the inference has moves to read)."""
    hand = Hand.new(PRESETS[preset], players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(4 * players + rng.randrange(1, 3 * players)):
        hand.push(rng.choice(hand.legal_moves()))
    return hand


def _board(hand: Hand):
    return core.Board(hand, pasur_kit._points_of(hand.rules), hand.rules.sur_points)


@needs_core
@pytest.mark.parametrize(("preset", "players"), [("standard", 2), ("turkish", 3),
                                                 ("multicapture", 4)])
def test_a_dealt_board_holds_the_cores_sample_and_every_public_fact(preset, players):
    for seed in range(12):
        hand = _played(seed, preset, players)
        seat = hand.to_move
        seen = [(who, table, move.index, move.taken, since)
                for who, table, move, since in pasur_kit._Evidence(hand, seat).moves] or None
        root = _board(hand)
        for draw in range(3):
            held, deals, _ = root.sample(seat, draw, evidence=seen)
            board = root.dealt(seat, draw, evidence=seen)
            after, before = board.state(), root.state()
            assert after["held"] == held and after["held"][seat] == before["held"][seat]
            assert {k: v for k, v in after.items() if k != "held"} == {
                k: v for k, v in before.items() if k != "held"}
            # the deals to come are the sample's: a move that ends a deal round draws them
            assert board.depth == 0 and len(deals) == hand.deal_rounds - hand.deal_round


@needs_core
def test_a_move_on_a_dealt_board_is_worth_what_the_kits_fast_deal_says():
    compared = 0
    for seed in range(12):
        hand = _played(seed, "standard", 2)
        seat = hand.to_move
        context = KIT.context(hand, seat, horizon=0)
        dealer = KIT.fast_dealer(hand, seat, context, "basic", infer=True)
        assert dealer is not None
        _, play = dealer
        on_hand = KIT.fast_deal(hand, context, "basic")
        for move in hand.legal_moves():
            draw = random.Random(seed * 100 + compared)
            expected = on_hand(move, random.Random(seed * 100 + compared))
            if expected is None:   # the move ends the hand: valued as the game values it
                after = hand.copy()
                after.push(move)
                expected = KIT.rewards(after, context)
            # the true hand is one deal the seat cannot tell apart: played as a board
            assert play(_board(hand), move, draw.getrandbits(64)) == expected
            compared += 1
    assert compared >= 30


@needs_core
def test_the_judge_deals_pasur_in_the_core_and_judges_alike_with_a_seed():
    hand = _played(3, "standard", 2)
    move = hand.legal_moves()[-1]
    first, again = (analysis.judge(hand, move, 1, hindsight=False) for _ in range(2))
    assert first == again and first.choices > 1


@pytest.mark.parametrize("seed", range(6))
def test_a_pasur_deal_played_out_by_the_judge_ends_alike_whatever_the_playouts_seed(seed):
    # the judge's Pasur playouts play the kit's policy without its random moves: on one
    # deal, a move's reward does not depend on the playout's own numbers, so the moves'
    # paired differences carry the luck of the deals alone
    from cardtable.analysis import weighing

    hand = _played(seed, "standard", 2)
    seat = hand.to_move
    learn = analysis.learn_of("pasur")
    player = weighing._Player(hand, seat, learn.horizon, learn.playout)
    deal, _ = player.deal(random.Random(seed))
    for move in hand.legal_moves():
        assert len({player.play(deal, move, draw, False) for draw in range(40)}) == 1, move
