"""Information-set Monte Carlo tree search, for every game and any number of players.

One tree over the information sets of the seat to move: each iteration deals the hidden
cards afresh (a determinization), walks down the tree choosing among the moves legal in
that deal by UCB (with availability counts, since a move is only sometimes possible),
adds one new move, plays the game out with a fast policy, and credits each move with the
reward of the seat that made it.  Moves are interned values in both engines, so a move is
its own key in the tree; each iteration plays on one determinized copy with push, never
copying per node.

Once nothing is hidden any more, the solver option hands the decision to an exact
alpha-beta search (``cardtable.bots.solver``) and falls back to sampling if the search
runs out of budget, or proves the game lost whatever it does (a fallible opponent may
still let it through, and sampling plays for that).

Where the game's kit offers compiled hooks (see ``cardtable.bots.kits``), the game's
compiled core runs the whole search (``fast_search``: the same tree, sampling and
rewards, iteration for iteration, on the core's own generator), or the playouts and the
exact search alone (``fast_playout``, ``fast_solve``) with the tree here.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from ..game import GameState, make_rng
from .kits import fast_hooks, kit_for
from .solver import OutOfBudget, Solver

__all__ = ["ISMCTSBot", "kit_of"]

_KIT_BY_TYPE: dict[type, Any] = {}
_PLAYOUT_LIMIT = 2000
"""Moves after which a playout stops (a Durak game can go round in circles)."""


def kit_of(state: GameState[Any]) -> Any:
    """The kit of a state's game, found by its view's "game" key (remembered per type)."""
    kit = _KIT_BY_TYPE.get(type(state))
    if kit is None:
        kit = _KIT_BY_TYPE[type(state)] = kit_for(state.view(None))
    return kit


class _Node:
    """A move in the tree: who made it, how often it was tried, how often it could be."""

    __slots__ = ("avail", "children", "move", "player", "total", "visits")

    def __init__(self, move: Any, player: int) -> None:
        self.move = move
        self.player = player
        self.children: dict[Any, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 0


def _number(value: Any) -> bool:
    """A real, finite number (not a yes/no): nan and infinity are no budget."""
    return (isinstance(value, int | float) and not isinstance(value, bool)
            and math.isfinite(value))


def _positive(value: Any) -> bool:
    return _number(value) and value > 0


def _random_policy(state: Any, rng: random.Random) -> Any:
    moves = state.legal_moves()
    return moves[rng.randrange(len(moves))]


class ISMCTSBot:
    """ISMCTS with an iteration budget, a time budget, or both (whichever ends first).

    ``c`` is the UCB exploration constant (rewards lie in [-1, 1]; by default each game's
    own, ``kit.exploration``: Pasur's rewards differ less between moves); ``playout`` is
    ``"basic"`` (the game's playout policy), ``"random"``, ``"plain"`` (a game's
    earlier, plainer policy where it kept one: Durak's basic moves) or ``"steady"`` (the
    game's policy without its occasional random moves, where it has such a variant:
    Pasur's; otherwise the basic one); ``solver`` turns on the exact
    endgame search with a budget of ``solver_nodes`` positions and ``solver_seconds``;
    ``infer`` deals the hidden cards in the light of the other players' moves (the kit's
    opponent model: Pasur weighs deals by how likely they make the captures let go by);
    ``paired`` tries every move of the root on the same deal with the same random numbers
    (duplicate deals inside the search: the luck of the cards falls alike on every move,
    so their differences show with far fewer iterations) and plays the best on average;
    ``horizon`` (Pasur) is how many deal rounds past the current one a playout runs before
    the hand is estimated (1 by default; 0 stops at the end of this round);
    ``depth`` is how many moves deep the tree grows (0: no limit; 1 is flat Monte Carlo:
    only the root's moves keep statistics and every reply is the playout policy's, which
    sees the sampled hands, where rarely visited tree nodes reply almost at random);
    ``budget`` names a level whose iterations the game's kit gives (``kit.budgets``: each
    game its own, since a Durak playout runs to the end of the game and costs about twice a
    Pasur one); ``scaled`` lets the game's kit scale ``iterations`` instead
    (``kit.budget_scale``, a half in Durak).
    A seeded bot with an iteration budget alone is reproducible.

    ``choose(state, deadline=...)`` stops every part of the search at ``deadline`` (a
    ``time.perf_counter()`` value) whatever the budgets say, and plays the best move found
    so far: a server gives its bots a time limit this way.
    """

    def __init__(self, *, seed: int | random.Random | None = None,
                 iterations: int | None = None, seconds: float | None = None,
                 c: float | None = None, playout: str = "basic", solver: bool | int = False,
                 solver_nodes: int = 200_000, solver_seconds: float | None = None,
                 infer: bool | int = False, paired: bool | int = False,
                 horizon: int | None = None, pimc: int = 0, depth: int = 0,
                 scaled: bool | int = False, budget: str | None = None,
                 name: str = "ismcts") -> None:
        if iterations is None and seconds is None and budget is None:
            iterations = 1000
        if iterations is not None and (not isinstance(iterations, int) or iterations < 1):
            raise ValueError(f"iterations must be a whole number of 1 or more, "
                             f"not {iterations!r}")
        if budget is not None and not (isinstance(budget, str) and budget):
            raise ValueError(f"budget names a level, not {budget!r}")
        if seconds is not None and not _positive(seconds):
            raise ValueError(f"seconds must be a number above 0, not {seconds!r}")
        if c is not None and not (_number(c) and c >= 0):
            raise ValueError(f"c (the exploration constant) must be a number of 0 or more, "
                             f"not {c!r}")
        if not (_number(solver_nodes) and solver_nodes >= 1 and solver_nodes == int(solver_nodes)):
            raise ValueError(f"solver_nodes must be a whole number of 1 or more, "
                             f"not {solver_nodes!r}")
        if solver_seconds is not None and not _positive(solver_seconds):
            raise ValueError(f"solver_seconds must be a number above 0, not {solver_seconds!r}")
        if horizon is not None and (not isinstance(horizon, int) or horizon < 0):
            raise ValueError(f"horizon must be a whole number of 0 or more, not {horizon!r}")
        if not isinstance(depth, int) or depth < 0:
            raise ValueError(f"depth must be a whole number of 0 or more (0: no limit), "
                             f"not {depth!r}")
        if not isinstance(pimc, int) or pimc < 0:
            raise ValueError(f"pimc must be a whole number of 0 or more, not {pimc!r}")
        if playout not in ("basic", "random", "plain", "steady"):
            raise ValueError(f"playout is 'basic', 'random', 'plain' or 'steady', "
                             f"not {playout!r}")
        self.name = name
        self.rng = make_rng(seed)
        self.iterations = iterations
        self.budget = budget
        """The level whose iterations the game's kit gives, when ``iterations`` is not set."""
        self.scaled = bool(scaled)
        """An ``iterations`` given is scaled by the game's kit (``kit.budget_scale``)."""
        self.seconds = seconds
        self.c = None if c is None else float(c)
        self.playout = playout
        self.solver = bool(solver)
        self.solver_nodes = int(solver_nodes)
        self.solver_seconds = solver_seconds
        self.infer = bool(infer)
        self.paired = bool(paired)
        self.horizon = horizon
        self.pimc = pimc
        self.depth = depth
        self.stats: dict[str, Any] = {}
        """What the last decision did: iterations, seconds, solved (and solver nodes), and
        after a search the tree's size (``nodes``) and each root move's visits and mean
        reward (``moves``)."""

    def choose(self, state: GameState[Any], *, deadline: float | None = None) -> Any:
        seat = state.to_move
        if seat is None:
            raise ValueError("there is no move to choose: the game is over")
        moves = state.legal_moves()
        if len(moves) == 1:
            self.stats = {"iterations": 0, "seconds": 0.0, "solved": False}
            return moves[0]
        kit = kit_of(state)
        stop = math.inf if deadline is None else deadline
        if self.solver and kit.perfect(state, seat):
            move = self._solve(kit, state, seat, stop)
            if move is not None:
                return move
        if self.pimc and kit.near_end(state, seat):
            move = self._sample_and_solve(kit, state, seat, moves, stop)
            if move is not None:
                return move
        return self._search(kit, state, seat, moves, stop)

    # -- the exact endgame -----------------------------------------------------------------

    def _solver(self, kit: Any, position: Any, seat: int, context: Any,
                deadline: float) -> Solver:
        """An exact search of ``position`` for ``seat``: its reward, its side maximising."""
        side = kit.side_of(position, seat)
        return Solver(kit, lambda final: kit.rewards(final, context)[seat],
                      lambda s: kit.side_of(position, s) == side,
                      max_nodes=self.solver_nodes, seconds=self.solver_seconds,
                      deadline=deadline)

    def _solve(self, kit: Any, state: GameState[Any], seat: int, deadline: float) -> Any:
        started = time.perf_counter()
        position = kit.sampler(state, seat)(self.rng)   # the only deal left: the truth
        context = kit.context(state, seat)
        solver = self._solver(kit, position, seat, context, deadline)
        try:
            value, move = self._exact(kit, solver, position, seat, context)
        except OutOfBudget:
            self.stats = {"solved": False, "solver_nodes": solver.nodes,
                          "solver_seconds": time.perf_counter() - started}
            return None
        if value <= solver.bounds[0]:
            # lost against perfect play: every move looks the same to the search, but an
            # opponent who is not perfect may still let it through, so sample instead
            self.stats = {"solved": False, "lost": True, "solver_nodes": solver.nodes,
                          "solver_seconds": time.perf_counter() - started}
            return None
        self.stats = {"iterations": 0, "solved": True, "value": value,
                      "solver_nodes": solver.nodes,
                      "seconds": time.perf_counter() - started}
        return move

    def _exact(self, kit: Any, solver: Solver, position: Any, seat: int,
               context: Any) -> tuple[float, Any]:
        """The solver's answer, from the kit's compiled search where it has one (its
        positions counted in ``solver.nodes``)."""
        _, fast_solve = fast_hooks(kit)
        if fast_solve is not None:
            deadline = solver.deadline
            if solver.seconds is not None:
                deadline = min(deadline, time.perf_counter() + solver.seconds)
            found = fast_solve(position, seat, context, max_nodes=solver.max_nodes,
                               deadline=deadline)
            if found is not None:
                value, move, solver.nodes = found
                return value, move
        return solver.solve(position)

    def _sample_and_solve(self, kit: Any, state: GameState[Any], seat: int,
                          moves: list[Any], stop: float) -> Any:
        """Deal the hidden cards afresh ``pimc`` times, value every move exactly on each
        deal, and play the best on average (None if a deal runs over the solver's budget).

        Each deal is solved as if every card were known, which flatters both sides alike;
        what the average keeps is how each move fares over the deals the seat thinks likely.
        """
        started = time.perf_counter()
        sample = kit.sampler(state, seat, infer=self.infer)
        context = kit.context(state, seat)
        deadline = min(stop, started + self.seconds if self.seconds is not None else math.inf)
        totals = dict.fromkeys(moves, 0.0)
        done = nodes = 0
        while done < self.pimc and (done == 0 or time.perf_counter() < deadline):
            position = sample(self.rng)
            # a fresh solver per deal: the stock still to come is not in the position's key
            solver = self._solver(kit, position, seat, context, stop)
            for move in moves:
                position.push(move)
                try:
                    if position.is_over():
                        value = kit.rewards(position, context)[seat]
                    else:
                        value, _ = self._exact(kit, solver, position, seat, context)
                        nodes += solver.nodes
                except OutOfBudget:
                    self.stats = {"solved": False, "pimc": done, "solver_nodes": nodes,
                                  "seconds": time.perf_counter() - started}
                    return None
                finally:
                    position.pop()
                totals[move] += value
            done += 1
        best = max(moves, key=totals.__getitem__)
        self.stats = {"iterations": 0, "solved": False, "pimc": done, "solver_nodes": nodes,
                      "seconds": time.perf_counter() - started,
                      "moves": {str(move): (done, total / done) for move, total in totals.items()}}
        return best

    # -- sampling --------------------------------------------------------------------------

    def _search(self, kit: Any, state: GameState[Any], seat: int, moves: list[Any],
                stop: float) -> Any:
        started = time.perf_counter()
        context = kit.context(state, seat, horizon=self.horizon)
        rewards = kit.rewards
        cutoff = kit.cutoff
        fast_playout, _ = fast_hooks(kit)
        policy_name = self.playout
        policy = (kit.playout if self.playout == "basic" else _random_policy
                  if self.playout == "random"
                  else getattr(kit, f"playout_{self.playout}", kit.playout))
        c = self.c if self.c is not None else kit.exploration
        log, sqrt = math.log, math.sqrt
        root = _Node(None, -1)
        limit: float = math.inf
        if self.iterations is None and self.budget is not None:
            budgets = getattr(kit, "budgets", {})
            if self.budget not in budgets:
                raise ValueError(f"the {kit.name} kit gives no budget for {self.budget!r}; "
                                 f"it gives: {', '.join(budgets) or 'none'}")
            limit = budgets[self.budget]
        elif self.iterations is not None:
            limit = self.iterations
            if self.scaled:
                limit = max(1, round(limit * getattr(kit, "budget_scale", 1.0)))
        deadline = min(stop, started + self.seconds if self.seconds is not None else math.inf)
        paired = self.paired
        rng = self.rng
        fast_search = getattr(kit, "fast_search", None)
        found = None if fast_search is None else fast_search(
            state, seat, context, rng, iterations=limit, deadline=deadline, c=c,
            policy=policy_name, depth=self.depth, paired=paired, infer=self.infer)
        if found is not None:
            done, nodes, tried = found
            return self._best(moves, tried, done, nodes, started)
        done = 0
        sample = kit.sampler(state, seat, infer=self.infer)
        luck = random.Random() if paired else rng
        group: list[Any] = []
        depth = self.depth or math.inf
        nodes = 0
        while done < limit and (done == 0 or time.perf_counter() < deadline):
            node = root
            path: list[_Node] = []
            if paired:
                # one deal and one stream of random numbers for every move of the root
                if not group:
                    deal = sample(rng)
                    group = list(moves)
                    draw = rng.getrandbits(64)
                first = group.pop()
                position = deal.copy() if group else deal
                luck.seed(draw)
                found = root.children.get(first)
                if found is None:
                    found = root.children[first] = _Node(first, seat)
                    nodes += 1
                node = found
                position.push(first)
                path.append(node)
            else:
                position = sample(rng)
            while len(path) < depth:
                mover = position.to_move
                if mover is None:
                    break
                legal = position.legal_moves()
                children = node.children
                fresh = []
                for move in legal:
                    child = children.get(move)
                    if child is None:
                        fresh.append(move)
                    else:
                        child.avail += 1
                if fresh:
                    move = fresh[luck.randrange(len(fresh))] if len(fresh) > 1 else fresh[0]
                    child = children[move] = _Node(move, mover)
                    nodes += 1
                    child.avail = 1
                    position.push(move)
                    path.append(child)
                    break
                best, best_score = children[legal[0]], -math.inf
                for move in legal:
                    child = children[move]
                    score = (child.total / child.visits
                             + c * sqrt(log(child.avail) / child.visits))
                    if score > best_score:
                        best, best_score = child, score
                position.push(best.move)
                path.append(best)
                node = best
            reward = (None if fast_playout is None
                      else fast_playout(position, context, policy_name, luck))
            if reward is None:
                steps = 0
                while (position.to_move is not None and not cutoff(position, context)
                       and steps < _PLAYOUT_LIMIT):
                    position.push(policy(position, luck))
                    steps += 1
                reward = rewards(position, context)
            for child in path:
                child.visits += 1
                child.total += reward[child.player]
            done += 1
        tried = {move: (child.visits, child.total) for move, child in root.children.items()}
        return self._best(moves, tried, done, nodes, started)

    def _best(self, moves: list[Any], tried: dict[Any, tuple[int, float]], done: int,
              nodes: int, started: float) -> Any:
        """The move tried most (paired: the best on average), and the search's stats;
        ``tried`` holds each root move's visits and total reward."""
        best_move, best_key = moves[0], (-1, -math.inf)
        for move in moves:
            found = tried.get(move)
            if found is not None:
                visits, total = found
                mean = total / max(visits, 1)
                # paired: every move was tried on the same deals, so the mean decides
                key = (0, mean) if self.paired else (visits, mean)
                if key > best_key:
                    best_move, best_key = move, key
        self.stats = {"iterations": done, "seconds": time.perf_counter() - started,
                      "solved": False, "nodes": nodes,
                      "moves": {str(move): (visits, total / max(visits, 1))
                                for move, (visits, total) in tried.items()}}
        return best_move
