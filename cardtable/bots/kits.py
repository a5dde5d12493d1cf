"""What the bots know of one game: a ``Kit``, named by the game's ``SPEC.kit``.

A kit offers ``sampler(state, seat)`` (a function of a generator that deals the hidden
cards afresh), ``perfect(state, seat)`` (nothing is hidden any more), ``near_end(state,
seat)`` (few enough cards are hidden that each sample can be solved exactly), ``context`` and
``rewards`` (what a finished search position is worth to each seat), ``greedy`` and
``basic`` (the tactics player and the immediate-best player), ``playout`` and ``cutoff``
(the search's playout policy and where a playout may stop), ``exploration`` (the search's
UCB constant), and ``key``, ``order`` and ``side_of`` for the exact endgame search.  A new
game names its kit in its ``GameSpec``; nothing here changes.

Hooks run the search's inner loops in a game's compiled core when it has one:
``fast_playout`` (a playout to ``cutoff``, valued by ``rewards``), ``fast_solve`` (the
exact endgame search) and ``fast_search`` (a whole ISMCTS search).  Each returns ``None``
when it cannot (no compiled core, the pure engine asked for, a position or rule set the
core does not model), and the Python path runs instead; a kit without them is read as
always returning ``None`` (``fast_hooks``; ``fast_search`` is looked for by name).

>>> kit_for({"game": "durak"}).name
'durak'
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, Protocol

from .. import games

__all__ = ["Kit", "fast_hooks", "kit_for"]


class Kit(Protocol):
    """The game-specific half of every bot; the search and the solver are the other half."""

    name: str
    exploration: float
    """ISMCTS's UCB constant for this game's rewards."""
    budgets: Mapping[str, int]
    """Each search level's iterations in this game (``medium``, ``hard``, ``expert``),
    measured so that a level takes about as long a move in every game."""
    budget_scale: float
    """What ``scaled=1`` multiplies an ``iterations`` given in a spec by in this game (so
    that such a search takes about as long a move in every game)."""

    def sampler(self, state: Any, seat: int, *,
                infer: bool = False) -> Callable[[random.Random], Any]:
        """A function of a generator that deals the cards ``seat`` cannot see afresh."""
        ...

    def perfect(self, state: Any, seat: int) -> bool:
        """Nothing is hidden from ``seat`` any more."""
        ...

    def near_end(self, state: Any, seat: int) -> bool:
        """Few enough cards are hidden that each sample can be solved exactly."""
        ...

    def context(self, state: Any, seat: int, *, horizon: int | None = None) -> Any:
        """What ``rewards`` and ``cutoff`` need to know of the search's root."""
        ...

    def cutoff(self, position: Any, context: Any) -> bool:
        """A playout may stop here and be valued by ``rewards``."""
        ...

    def rewards(self, final: Any, context: Any) -> Sequence[float]:
        """What ``final`` is worth to each seat."""
        ...

    def greedy(self, state: Any, seat: int) -> Any:
        """The tactics players use."""
        ...

    def basic(self, state: Any, rng: random.Random | None = None) -> Any:
        """The immediate best move."""
        ...

    def playout(self, position: Any, rng: random.Random) -> Any:
        """The search's playout policy."""
        ...

    def key(self, position: Any) -> Hashable:
        """A position's identity for the exact solver's memory."""
        ...

    def order(self, position: Any, moves: list[Any]) -> list[Any]:
        """Moves in the order the exact solver tries them (best first)."""
        ...

    def side_of(self, position: Any, seat: int) -> int:
        """The side (team) a seat scores for."""
        ...

    def fast_playout(self, position: Any, context: Any, policy: str,
                     rng: random.Random) -> Sequence[float] | None:
        """``rewards(final, context)`` of a playout of ``position`` to ``cutoff`` run in
        compiled code, or ``None`` when the kit cannot (then the Python loop runs).

        ``position`` is a determinized position (every card dealt) and is left unchanged;
        ``policy`` is the search's playout policy by name (``"basic"``: ``playout``,
        ``"random"``: a uniform legal move, ``"plain"``: ``playout_plain`` where the kit
        has one).  When it plays, it draws one number from ``rng``
        (``rng.getrandbits(64)``) to seed the core's own generator, so a seeded search
        stays reproducible; when it returns ``None`` it draws nothing, so the Python path
        runs exactly as without the hook.
        """
        ...

    def fast_solve(self, position: Any, seat: int, context: Any, *, max_nodes: int,
                   deadline: float) -> tuple[float, Any, int] | None:
        """What ``Solver.solve`` finds for ``seat`` (its side maximising ``rewards(final,
        context)[seat]``, the others minimising it), searched in compiled code: ``(the
        exact value, a legal move of position that reaches it, the positions searched)``;
        ``None`` when the kit cannot (then the Python solver runs).  Raises
        ``OutOfBudget`` past ``max_nodes`` positions or past ``deadline`` (a
        ``time.perf_counter()`` value), as the Python solver does.  ``position`` is left
        unchanged.
        """
        ...

    def fast_search(self, state: Any, seat: int, context: Any, rng: random.Random, *,
                    iterations: float, deadline: float, c: float, policy: str, depth: int,
                    paired: bool, infer: bool
                    ) -> tuple[int, int, dict[Any, tuple[int, float]]] | None:
        """ISMCTSBot's search from ``state`` for ``seat`` (to move) run in compiled code:
        ``(iterations done, tree nodes made, {root move: (visits, total reward)})``, or
        ``None`` when the kit cannot (then the Python search runs).  The same search as
        the Python one (its sampling, with the inference where ``infer``, its tree to
        ``depth``, UCB with ``c``, ``paired`` root moves, the ``policy`` playout to
        ``cutoff``, ``rewards``), stopping after ``iterations`` (``math.inf``: none) or
        at ``deadline``; it draws one number from ``rng`` (``rng.getrandbits(64)``) to
        seed the core's generator when it runs, none when it returns ``None``.
        """
        ...


def fast_hooks(kit: Any) -> tuple[Callable[..., Any] | None, Callable[..., Any] | None]:
    """A kit's ``(fast_playout, fast_solve)``, ``None`` for a hook it does not offer."""
    return getattr(kit, "fast_playout", None), getattr(kit, "fast_solve", None)


def kit_for(view: dict[str, Any]) -> Kit:
    """The kit of the game a view belongs to."""
    name = view.get("game")
    try:
        spec = games.get(name)  # type: ignore[arg-type]
    except ValueError:
        raise ValueError(f"the bots do not know the game {name!r}; they know: "
                         + ", ".join(games.names())) from None
    if spec.kit is None:
        raise ValueError(f"the bots have no kit for {spec.title}: only random plays it")
    kit: Kit = spec.plugin("kit")
    return kit
