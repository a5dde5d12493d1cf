"""The kits' compiled hooks: the Pasur kit's fast playout is its Python playout's reward,
it leaves the position alone, and a search on it stays reproducible from its seed."""

from __future__ import annotations

import gc
import math
import random
import sys
import time

import pytest

from cardtable.bots import pasur_kit
from cardtable.bots.ismcts import ISMCTSBot
from cardtable.bots.kits import fast_hooks
from cardtable.bots.pasur_kit import KIT
from cardtable.bots.solver import OutOfBudget, Solver
from cardtable.cards import CARDS, cards_of, mask_of
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


@needs_core
@pytest.mark.parametrize(("preset", "players"), [("standard", 2), ("turkish", 3),
                                                 ("wikipedia", 4)])
def test_the_fast_deal_plays_each_move_as_the_fast_playout_does(preset, players):
    """The judge's moves on one deal (``fast_deal``: the deal read into the core once)
    get the reward ``fast_playout`` gives the position after each move, drawing as it
    does; a move that ends the hand is left to the caller (``None``, nothing drawn)."""
    for seed in range(12):
        position = _position(seed, preset, players)
        before = position.view(None)
        context = KIT.context(position, position.to_move, horizon=seed % 2)
        play = KIT.fast_deal(position, context, "basic")
        for _ in range(2):   # a reward met again is the one worked out before
            for move in position.legal_moves():
                rng, again = random.Random(seed), random.Random(seed)
                found = play(move, rng)
                after = position.copy()
                after.push(move)
                if after.to_move is None:
                    assert found is None and rng.random() == again.random()
                    continue
                assert found == KIT.fast_playout(after, context, "basic", again)
                assert rng.random() == again.random()
        assert position.view(None) == before


def _steady_playout(position: Hand, context) -> tuple[list[str], list[float]]:
    """The steady policy played out in Python: its moves and the reward where it stops."""
    rng = random.Random(0)
    state = rng.getstate()
    moves = []
    while not position.is_over() and position.deal_round <= context.horizon:
        move = KIT.playout_steady(position, rng)
        moves.append(str(move))
        position.push(move)
    assert rng.getstate() == state    # no random move: nothing drawn
    return moves, KIT.rewards(position, context)


@needs_core
@pytest.mark.parametrize(("preset", "players"), [("standard", 2), ("turkish", 3),
                                                 ("wikipedia", 4)])
def test_a_steady_playout_plays_the_policys_own_move_at_every_turn(preset, players):
    """``steady``: the basic policy with no random moves, so the core's playout and the
    Python one make the same moves whatever the generator (a basic playout with its
    random moves would part from it on some of these deals)."""
    parted = 0
    for seed in range(15):
        position = _position(seed, preset, players)
        context = KIT.context(position, position.to_move, horizon=seed % 3)
        moves, reward = _steady_playout(position.copy(), context)
        for draw in range(3):
            board = _board(position)
            board.playout("basic", random.Random(draw).getrandbits(64), context.horizon, 0.0)
            assert [str(move_of(index, taken)) for _, index, taken, _ in board.moves()] == moves
            assert KIT.fast_playout(position, context, "steady",
                                    random.Random(draw)) == reward
            parted += KIT.fast_playout(position, context, "basic",
                                       random.Random(draw)) != reward
    assert parted > 0


@needs_core
def test_a_steady_search_values_each_move_by_its_one_playout_when_nothing_is_hidden():
    """With nothing hidden, a flat paired search with steady playouts plays each root move
    out the same way every time: its mean is that playout's reward, exactly as Python
    plays it (the random moves of the basic policy would spread it)."""
    hands = [hand for hand in (_undealt_to(seed, 41) for seed in range(40))
             if KIT.perfect(hand, hand.to_move) and len(hand.legal_moves()) > 2][:8]
    assert len(hands) == 8
    spread = 0
    for hand in hands:
        seat = hand.to_move
        context = KIT.context(hand, seat)
        found = {}
        for policy in ("steady", "basic"):
            _, _, found[policy] = KIT.fast_search(
                hand, seat, context, random.Random(3), iterations=40 * len(hand.legal_moves()),
                deadline=math.inf, c=0.2, policy=policy, depth=1, paired=True, infer=False)
        for move, (visits, total) in found["steady"].items():
            after = hand.copy()
            after.push(move)
            reward = (KIT.rewards(after, context) if after.is_over()
                      else _steady_playout(after, context)[1])
            assert total / visits == pytest.approx(reward[seat], abs=1e-12)
        spread += found["basic"] != found["steady"]
    assert spread > 0


def _undealt_to(seed: int, moves: int) -> Hand:
    """A two-player standard hand after ``moves`` random moves (fewer than its 48)."""
    hand = Hand.new(PRESETS["standard"], players=2, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        hand.push(rng.choice(hand.legal_moves()))
    return hand


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
def test_the_search_runs_whole_in_the_core_and_its_playouts_there_without_it(monkeypatch):
    searches, playouts = [], []
    real_search, real_playout = KIT.fast_search, KIT.fast_playout

    def search(*args, **kwargs):
        searches.append(1)
        return real_search(*args, **kwargs)

    def playout(*args, **kwargs):
        playouts.append(1)
        return real_playout(*args, **kwargs)

    monkeypatch.setattr(KIT, "fast_search", search)
    monkeypatch.setattr(KIT, "fast_playout", playout)
    bot = ISMCTSBot(seed=1, iterations=120)
    bot.choose(Hand.new(PRESETS["standard"], seed=2))
    assert (len(searches), len(playouts), bot.stats["iterations"]) == (1, 0, 120)
    # a kit whose whole search cannot run: the tree in Python, the playouts in the core
    monkeypatch.setattr(KIT, "fast_search", lambda *args, **kwargs: None)
    bot = ISMCTSBot(seed=1, iterations=120)
    bot.choose(Hand.new(PRESETS["standard"], seed=2))
    assert len(playouts) == bot.stats["iterations"] == 120


def _undealt(seed: int, preset: str, players: int) -> Hand:
    """A hand played at random for a while (the true deal, not a determinization)."""
    hand = Hand.new(PRESETS[preset], players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(4 * players * 3)):
        hand.push(rng.choice(hand.legal_moves()))
    return hand


def _board(hand: Hand):
    return core.Board(hand, pasur_kit._points_of(hand.rules), hand.rules.sur_points)


@needs_core
@pytest.mark.parametrize(("preset", "players"), [("standard", 2), ("turkish", 3),
                                                 ("multicapture", 4)])
def test_the_cores_deal_redraws_only_what_the_seat_cannot_see(preset, players):
    for seed in range(20):
        hand = _undealt(seed, preset, players)
        seat = hand.to_move
        held, deals, weight = _board(hand).sample(seat, seed)
        assert weight == 1.0
        truth = [mask_of(cards) for cards in hand.hands]
        assert held[seat] == truth[seat]
        assert [mask.bit_count() for mask in held] == [len(cards) for cards in hand.hands]
        assert all(mask.bit_count() == 4 for row in deals for mask in row)
        assert len(deals) == hand.deal_rounds - hand.deal_round
        unseen = sum(truth) - truth[seat] + sum(sum(row) for row in _future(hand))
        dealt = sum(held) - held[seat] + sum(sum(row) for row in deals)
        assert dealt == unseen   # (disjoint masks: a sum is their union)
        # another truth the seat cannot tell from this one deals the same for one seed
        other = hand.determinize(seat, random.Random(seed + 1))
        assert _board(other).sample(seat, seed) == (held, deals, weight)


def _future(hand: Hand) -> list[tuple[int, ...]]:
    """The cards each seat is dealt in each round still to come, as masks."""
    return [tuple(mask_of(CARDS[i] for i in held) for held in hand._deals[number])
            for number in range(hand.deal_round + 1, hand.deal_rounds + 1)]


class _Deal:
    """What ``_Evidence.weight`` reads of a deal: the cards each seat holds."""

    def __init__(self, held: tuple[int, ...]) -> None:
        self.hands = [cards_of(mask) for mask in held]


@needs_core
def test_the_cores_inference_weighs_a_deal_as_the_kits_does():
    weighed = 0
    for seed in range(40):
        preset, players = [("standard", 2), ("turkish", 3), ("multicapture", 4)][seed % 3]
        hand = Hand.new(PRESETS[preset], players=players, seed=seed)
        rng = random.Random(seed)
        # into a deal round, then a few moves of it
        for _ in range(4 * hand.players + rng.randrange(1, 3 * hand.players)):
            hand.push(rng.choice(hand.legal_moves()))
        seat = hand.to_move
        evidence = pasur_kit._Evidence(hand, seat)
        if not evidence.moves:
            continue
        seen = [(who, table, move.index, move.taken, since)
                for who, table, move, since in evidence.moves]
        for draw in range(5):
            held, _, weight = _board(hand).sample(seat, draw, evidence=seen)
            assert weight == pytest.approx(evidence.weight(_Deal(held)), rel=1e-12, abs=0)
            weighed += 1
    assert weighed >= 50


@needs_core
@pytest.mark.parametrize("paired", [False, True])
@pytest.mark.parametrize("depth", [0, 1, 2])
def test_the_cores_search_counts_its_iterations_and_nodes(paired, depth):
    hand = _undealt(4, "standard", 2)
    seat = hand.to_move
    roots = len(hand.legal_moves())
    context = KIT.context(hand, seat)
    iterations = 12 * roots
    done, nodes, tried = KIT.fast_search(
        hand, seat, context, random.Random(1), iterations=iterations, deadline=math.inf,
        c=0.2, policy="basic", depth=depth, paired=paired, infer=False)
    visits = [v for v, _ in tried.values()]
    assert done == sum(visits) == iterations
    assert set(tried) <= set(hand.legal_moves())
    if paired:
        assert visits == [12] * roots   # every root move on every deal
    if depth == 1:
        assert nodes == len(tried)      # flat: the root's moves alone
    else:
        assert len(tried) < nodes <= iterations + roots
    assert all(-v <= total <= v for v, total in tried.values())   # rewards lie in [-1, 1]
    # a deadline passed: one iteration all the same
    done, _, _ = KIT.fast_search(
        hand, seat, context, random.Random(1), iterations=math.inf,
        deadline=time.perf_counter() - 1, c=0.2, policy="random", depth=depth,
        paired=paired, infer=True)
    assert done == 1


@needs_core
def test_the_cores_search_refuses_what_it_cannot_search():
    hand = _undealt(5, "standard", 2)
    seat = hand.to_move
    board = _board(hand)

    def reward(captured, surs, over):
        return [0.0, 0.0]

    for bad in [dict(seat=1 - seat), dict(seat=7), dict(iterations=0), dict(policy="best"),
                dict(depth=-1), dict(c=-1.0), dict(c=math.nan), dict(reward=3),
                dict(evidence=[(0, 1, 2)]), dict(evidence=[(9, 0, 0, 0, 0)]),
                dict(evidence=[(0, 0, 60, 0, 0)]), dict(evidence=5), dict(variety=-0.1),
                dict(variety=1.5), dict(variety=math.nan)]:
        arguments = dict(seat=seat, iterations=10, seed=1, reward=reward) | bad
        with pytest.raises((ValueError, TypeError)):
            board.search(**arguments)
    with pytest.raises(ValueError, match="a number per seat"):
        board.search(seat, 10, 1, lambda captured, surs, over: [0.0])

    def broken(captured, surs, over):
        raise ZeroDivisionError("the reward's own error")

    with pytest.raises(ZeroDivisionError):
        board.search(seat, 10, 1, broken)
    # and the board is as it was
    assert board.legal() == [(m.index, m.taken) for m in hand.legal_moves()]
    assert board.depth == 0


def test_without_the_core_the_search_hook_draws_nothing_and_says_none(monkeypatch):
    monkeypatch.setattr(pasur_kit, "_CORE", [None])
    rng = random.Random(3)
    state = rng.getstate()
    hand = _undealt(3, "standard", 2)
    found = KIT.fast_search(hand, hand.to_move, KIT.context(hand, hand.to_move), rng,
                            iterations=10, deadline=math.inf, c=0.2, policy="basic",
                            depth=0, paired=False, infer=True)
    assert found is None
    assert rng.getstate() == state


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


@needs_core
def test_memory_stays_flat_over_many_core_searches():
    hand = _undealt(6, "standard", 2)
    seat = hand.to_move
    board = _board(hand)
    evidence = [(1 - seat, 0, 0, 0, 0)]

    def reward(captured, surs, over):
        return [0.5, -0.5]

    def searches(times: int) -> None:
        for k in range(times):
            board.search(seat, 50, k, reward, paired=k % 2, depth=k % 3,
                         evidence=evidence if k % 4 == 0 else None)
            board.sample(seat, k, evidence=evidence)

    searches(200)   # (warm)
    gc.collect()
    counts = [sys.getrefcount(board), sys.getrefcount(reward), sys.getrefcount(evidence[0])]
    blocks = sys.getallocatedblocks()
    searches(3000)
    gc.collect()
    assert [sys.getrefcount(board), sys.getrefcount(reward),
            sys.getrefcount(evidence[0])] == counts
    assert sys.getallocatedblocks() - blocks < 1000
