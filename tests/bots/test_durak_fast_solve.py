"""The Durak kit's compiled endgame search (``fast_solve``) is the Python solver's, step
for step: the same value, the same move and the same number of positions, on endgames
reached by play under every transfer rule, and it runs out of budget where it does."""

from __future__ import annotations

import math
import random
import time

import pytest

from cardtable import bots, durak
from cardtable.bots.durak_kit import KIT
from cardtable.bots.solver import OutOfBudget, Solver
from cardtable.durak.engine import CompiledGame, PureGame

needs_core = pytest.mark.skipif(CompiledGame is None,
                                reason="no compiled Durak core (or CARDTABLE_PURE)")

RULES = [durak.Rules(), durak.Rules(late_transfer=True), durak.Rules(passport=True),
         durak.Rules(pack_size=24), durak.Rules(first_round_transfer=False, pack_size=52),
         durak.Rules(trump_six_exchange=True)]


def endgames(rules: durak.Rules, players: int, seed: int, count: int) -> list:
    """Games played at random until nothing is hidden from the seat to move (the stock
    empty or the face-up trump alone in it, one other player holding cards)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        game = durak.Game.new(rules, players=players, seed=rng.getrandbits(32))
        while not game.is_over():
            if KIT.perfect(game, game.to_move) and rng.random() < 0.5:
                out.append(game.copy(stack=False))
                break
            moves = game.legal_moves()
            game.push(moves[rng.randrange(len(moves))])
    return out


def python_solve(position, seat: int, max_nodes: int = 10**7):
    side = KIT.side_of(position, seat)
    solver = Solver(KIT, lambda final: KIT.rewards(final, None)[seat],
                    lambda s: KIT.side_of(position, s) == side, max_nodes=max_nodes)
    value, move = solver.solve(position)
    return value, move, solver.nodes


@needs_core
@pytest.mark.parametrize("rules", RULES, ids=lambda r: repr(r)[:60])
@pytest.mark.parametrize("players", [2, 3])
def test_the_compiled_search_is_the_python_solvers_step_for_step(rules, players):
    values = set()
    for position in endgames(rules, players, seed=players, count=3):
        seat = position.to_move
        before = position.view(None)
        try:
            expected = python_solve(position, seat, max_nodes=20_000)
        except OutOfBudget:
            with pytest.raises(OutOfBudget):
                KIT.fast_solve(position, seat, None, max_nodes=20_000, deadline=math.inf)
            continue
        assert KIT.fast_solve(position, seat, None, max_nodes=10**7,
                              deadline=math.inf) == expected
        assert position.view(None) == before
        values.add(expected[0])
    assert values   # (some endgame was solved)


@needs_core
def test_the_compiled_search_wins_lost_and_drawn_endgames_as_the_python_one():
    found = set()
    for position in endgames(durak.Rules(), 2, seed=11, count=12):
        seat = position.to_move
        try:
            expected = python_solve(position, seat, max_nodes=20_000)
        except OutOfBudget:
            continue
        assert KIT.fast_solve(position, seat, None, max_nodes=20_000,
                              deadline=math.inf) == expected
        found.add(expected[0])
    assert {1.0, -1.0} <= found


@needs_core
def test_the_compiled_search_stops_at_its_budget_and_its_deadline():
    position = max(endgames(durak.Rules(), 2, seed=5, count=10),
                   key=lambda game: sum(map(len, game.hands)))
    seat = position.to_move
    with pytest.raises(OutOfBudget):
        KIT.fast_solve(position, seat, None, max_nodes=3, deadline=math.inf)
    with pytest.raises(OutOfBudget):
        python_solve(position, seat, max_nodes=3)
    with pytest.raises(OutOfBudget):
        KIT.fast_solve(position, seat, None, max_nodes=10**7,
                       deadline=time.perf_counter() - 1)


@needs_core
def test_the_compiled_search_refuses_a_seat_it_cannot_search_for():
    game = endgames(durak.Rules(), 2, seed=6, count=1)[0]
    for bad in (-1, 2, 9):
        with pytest.raises(ValueError):
            game._solve(bad, 100)
    with pytest.raises(TypeError):
        game._solve("0", 100)


def test_the_pure_engine_has_no_compiled_search():
    game = PureGame.new(durak.Rules(), players=2, seed=1)
    assert KIT.fast_solve(game, 0, None, max_nodes=10, deadline=math.inf) is None


@needs_core
def test_the_expert_solves_a_durak_endgame_in_the_core():
    position = endgames(durak.Rules(), 2, seed=8, count=1)[0]
    bot = bots.make("expert", seed=1)
    bot.choose(position)
    assert bot.stats.get("solved") or bot.stats.get("lost")
