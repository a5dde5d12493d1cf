"""The kits' compiled hooks: the Pasur kit's fast playout is its Python playout's reward,
it leaves the position alone, and a search on it stays reproducible from its seed."""

from __future__ import annotations

import math
import random
import time

import pytest

from cardtable.bots import pasur_kit
from cardtable.bots.ismcts import ISMCTSBot
from cardtable.bots.kits import fast_hooks
from cardtable.bots.pasur_kit import KIT
from cardtable.bots.solver import OutOfBudget, Solver
from cardtable.pasur import PRESETS, Hand, Match
from cardtable.pasur.moves import move_of

core = pasur_kit._core()
needs_core = pytest.mark.skipif(core is None, reason="no compiled Pasur core (or CARDTABLE_PURE)")


def _position(seed: int, preset: str = "standard", players: int = 2) -> Hand:
    hand = Hand.new(PRESETS[preset], players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(30)):
        hand.push(rng.choice(hand.legal_moves()))
    return hand.determinize(hand.to_move, rng)


@needs_core
@pytest.mark.parametrize("policy", ["basic", "random"])
@pytest.mark.parametrize(("preset", "players"), [("standard", 2), ("turkish", 3),
                                                 ("multicapture", 4), ("wikipedia", 4)])
def test_the_fast_playouts_reward_is_the_reward_of_its_moves_played_in_python(policy, preset,
                                                                            players):
    for seed in range(15):
        position = _position(seed, preset, players)
        before = position.view(None)
        context = KIT.context(position, position.to_move, horizon=seed % 3)
        fast = KIT.fast_playout(position, context, policy, random.Random(seed))
        assert position.view(None) == before
        # the same playout again, its moves played on the pure engine
        board = core.Board(position, pasur_kit._points_of(position.rules),
                           position.rules.sur_points)
        board.playout(policy, random.Random(seed).getrandbits(64), context.horizon)
        replay = position.copy()
        for _, index, taken, _ in board.moves():
            replay.push(move_of(index, taken))
        assert replay.is_over() or replay.deal_round > context.horizon
        assert fast == KIT.rewards(replay, context)


def test_without_the_core_the_hook_draws_nothing_and_says_none(monkeypatch):
    monkeypatch.setattr(pasur_kit, "_CORE", [None])
    rng = random.Random(3)
    state = rng.getstate()
    position = _position(3)
    assert KIT.fast_playout(position, KIT.context(position, 0), "basic", rng) is None
    assert rng.getstate() == state


def test_a_kit_without_hooks_has_none():
    assert fast_hooks(object()) == (None, None)
    assert fast_hooks(KIT)[0] is not None


@needs_core
def test_a_search_on_the_fast_playouts_is_reproducible_from_its_seed():
    hand = Hand.new(PRESETS["standard"], seed=11)
    moves = [ISMCTSBot(seed=5, iterations=300).choose(hand) for _ in range(2)]
    assert moves[0] == moves[1]
    match = Match.new(PRESETS["standard"], seed=12)
    bots = [ISMCTSBot(seed=6, iterations=200, infer=True) for _ in range(2)]
    assert bots[0].choose(match) == bots[1].choose(match)


@needs_core
def test_the_search_plays_its_playouts_in_the_core(monkeypatch):
    calls = []
    real = KIT.fast_playout

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(KIT, "fast_playout", counted)
    bot = ISMCTSBot(seed=1, iterations=120)
    bot.choose(Hand.new(PRESETS["standard"], seed=2))
    assert len(calls) == bot.stats["iterations"] == 120


def _endgame(seed: int, preset: str, players: int, rounds_left: int) -> Hand:
    """A hand played at random into its last deal rounds (``rounds_left`` still to come),
    with at most 8 cards in hand in the last round (so that plain alpha-beta in Python
    finishes quickly)."""
    hand = Hand.new(PRESETS[preset], players=players, seed=seed)
    rng = random.Random(seed)
    while (hand.deal_round < hand.deal_rounds - rounds_left or rng.random() < 0.3
           or (rounds_left == 0 and sum(map(len, hand.hands)) > 8)):
        hand.push(rng.choice(hand.legal_moves()))
        if hand.is_over():
            break
    return hand


def _python_solve(position: Hand, seat: int, context, max_nodes: int = 10**7):
    side = KIT.side_of(position, seat)
    solver = Solver(KIT, lambda final: KIT.rewards(final, context)[seat],
                    lambda s: KIT.side_of(position, s) == side, max_nodes=max_nodes)
    value, move = solver.solve(position)
    return value, move, solver.nodes


@needs_core
@pytest.mark.parametrize(("preset", "players", "rounds_left"), [
    ("standard", 2, 0), ("standard", 2, 1), ("multicapture", 3, 0), ("turkish", 2, 0),
    ("wikipedia", 4, 0)])
def test_the_fast_solver_finds_the_python_solvers_value_and_move(preset, players,
                                                                  rounds_left):
    compared = 0
    for seed in range(12):
        position = _endgame(seed, preset, players, rounds_left)
        if position.is_over():
            continue
        seat = position.to_move
        match_totals = [40, 55] if seed % 2 and position.sides == 2 else None
        context = KIT.context(position, seat)
        if match_totals is not None:
            context.target, context.totals = 62, match_totals
        before = position.view(None)
        fast = KIT.fast_solve(position, seat, context, max_nodes=10**7, deadline=math.inf)
        assert position.view(None) == before
        assert fast == _python_solve(position, seat, context)
        compared += 1
    assert compared >= 8


@needs_core
def test_the_fast_solver_runs_out_of_budget_as_the_python_one_does():
    position = _endgame(3, "standard", 2, 1)
    context = KIT.context(position, position.to_move)
    with pytest.raises(OutOfBudget):
        KIT.fast_solve(position, position.to_move, context, max_nodes=50, deadline=math.inf)
    with pytest.raises(OutOfBudget):
        _python_solve(position, position.to_move, context, max_nodes=50)
    with pytest.raises(OutOfBudget):
        KIT.fast_solve(position, position.to_move, context, max_nodes=10**7,
                       deadline=time.perf_counter() - 1)
