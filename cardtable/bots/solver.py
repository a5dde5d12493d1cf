"""Exact endgames: alpha-beta search once nothing is hidden any more.

Once a seat can see where every card is (Pasur after the last deal of a 2-player hand;
Durak with the stock empty and one other player holding cards), sampling is no longer
needed: the rest of the game is a tree with no chance in it, and searching it to the end
gives the best move for sure.  The search keeps a transposition table of value bounds
(different orders of the same moves meet in one position), tries the moves most likely to
be best first, and stops at a budget of positions or seconds, saying so, so the caller can
fall back to sampling.

With more than two sides the search is "paranoid": every other seat is taken to play
against the searching seat, which is exact for two sides and safe for more.

A Durak game can go round in circles (two players transferring and taking the same cards
back and forth), so a position met again on the current line counts as a draw
(``repeat``); Pasur never repeats a position.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable
from typing import Any

__all__ = ["OutOfBudget", "Solver", "minimax"]


class OutOfBudget(Exception):
    """The search met its budget of positions or seconds before it could finish."""


class Solver:
    """Alpha-beta with a transposition table and move ordering, over one kit's game.

    ``value(final)`` is what a finished position is worth to the searching seat, within
    ``bounds``; the seat to move maximises it when ``mine(seat)``, and minimises it
    otherwise.  A line that reaches the best value possible needs no rival to be tried.
    """

    def __init__(self, kit: Any, value: Callable[[Any], float], mine: Callable[[int], bool],
                 *, max_nodes: int = 200_000, seconds: float | None = None,
                 deadline: float = math.inf, repeat: float = 0.0,
                 bounds: tuple[float, float] = (-1.0, 1.0)) -> None:
        self.kit = kit
        self.repeat = repeat
        self.bounds = bounds
        self._line: set[Hashable] = set()
        self.value = value
        self.mine = mine
        self.max_nodes = max_nodes
        self.seconds = seconds
        self.deadline = deadline
        """A ``time.perf_counter()`` past which no search goes on, whatever ``seconds`` says."""
        self.nodes = 0
        self.table: dict[Hashable, tuple[float, float, Any]] = {}
        self._deadline = math.inf

    def solve(self, position: Any) -> tuple[float, Any]:
        """(the exact value, a move that reaches it) for the seat to move in ``position``.

        ``position`` is played on with push/pop and comes back as it was.  Raises
        ``OutOfBudget`` when the budget runs out first.
        """
        self.nodes = 0
        self._deadline = self.deadline
        if self.seconds is not None:
            self._deadline = min(self.deadline, time.perf_counter() + self.seconds)
        value = self._search(position, *self.bounds)
        entry = self.table[self.kit.key(position)]
        return value, entry[2]

    def _search(self, position: Any, alpha: float, beta: float) -> float:
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise OutOfBudget(f"more than {self.max_nodes} positions")
        if not self.nodes & 1023 and time.perf_counter() > self._deadline:
            raise OutOfBudget("out of time")
        if position.is_over():
            return self.value(position)
        key = self.kit.key(position)
        if key in self._line:
            return self.repeat
        low, high, best_move = self.table.get(key, (-math.inf, math.inf, None))
        if low >= beta:
            return low
        if high <= alpha:
            return high
        if low == high:
            return low
        alpha, beta = max(alpha, low), min(beta, high)
        alpha0, beta0 = alpha, beta
        moves = self.kit.order(position, position.legal_moves())
        if best_move is not None and best_move in moves:
            moves.remove(best_move)
            moves.insert(0, best_move)
        maximise = self.mine(position.to_move)
        best = -math.inf if maximise else math.inf
        chosen = moves[0]
        self._line.add(key)
        try:
            for move in moves:
                position.push(move)
                try:
                    score = self._search(position, alpha, beta)
                finally:
                    position.pop()
                if maximise:
                    if score > best:
                        best, chosen = score, move
                        alpha = max(alpha, score)
                elif score < best:
                    best, chosen = score, move
                    beta = min(beta, score)
                if alpha >= beta:
                    break
        finally:
            self._line.discard(key)
        # store what this search proved: an exact value, or a bound past the window
        if best <= alpha0:
            entry = (low, min(high, best), chosen)
        elif best >= beta0:
            entry = (max(low, best), high, chosen)
        else:
            entry = (best, best, chosen)
        self.table[key] = entry
        return best


def minimax(position: Any, value: Callable[[Any], float], mine: Callable[[int], bool],
            key: Callable[[Any], Hashable], *, repeat: float = 0.0,
            _line: frozenset[Hashable] = frozenset()) -> float:
    """Plain minimax over every move, with no pruning and no memory (a position met again
    on the line is a draw, as in the solver): the slow, obvious answer the solver is
    checked against in the tests."""
    if position.is_over():
        return value(position)
    here = key(position)
    if here in _line:
        return repeat
    line = _line | {here}
    scores = []
    for move in position.legal_moves():
        position.push(move)
        scores.append(minimax(position, value, mine, key, repeat=repeat, _line=line))
        position.pop()
    return max(scores) if mine(position.to_move) else min(scores)
