"""Bots for every game: ``make(spec)`` turns a spec string into a bot.

A bot decides only from what its seat has seen: ``state.view(seat)`` and samples of the
hidden cards from ``state.determinize(seat, rng)``.

>>> from cardtable import bots
>>> bot = bots.make("random", seed=1)
>>> bot.name
'random'
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

from ..game import GameState, make_rng

__all__ = ["Bot", "RandomBot", "make", "register", "specs"]


class Bot(Protocol):
    """Chooses a move for the seat to move."""

    name: str

    def choose(self, state: GameState) -> Any: ...


class RandomBot:
    """Plays a uniformly random legal move: the baseline every other bot must beat."""

    def __init__(self, *, seed: int | random.Random | None = None) -> None:
        self.name = "random"
        self.rng = make_rng(seed)

    def choose(self, state: GameState) -> Any:
        moves = state.legal_moves()
        if not moves:
            raise ValueError("there is no move to choose: the game is over")
        return moves[self.rng.randrange(len(moves))]


_FACTORIES: dict[str, Callable[..., Bot]] = {"random": RandomBot}


def register(name: str, factory: Callable[..., Bot]) -> None:
    """Add a bot kind: ``factory(seed=..., **options)`` returns the bot."""
    _FACTORIES[name] = factory


def specs() -> list[str]:
    """The bot kinds and levels ``make`` knows."""
    return list(_FACTORIES)


def make(spec: str, *, seed: int | random.Random | None = None) -> Bot:
    """A bot from a spec: ``"random"``, ``"greedy"``, ``"ismcts:iterations=2000"``, a level.

    Options after the colon are ``name=value`` pairs separated by commas.
    """
    name, _, rest = spec.strip().partition(":")
    factory = _FACTORIES.get(name)
    if factory is None:
        raise ValueError(f"no bot {name!r}; the bots are: {', '.join(_FACTORIES)}")
    options: dict[str, Any] = {}
    for pair in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = pair.partition("=")
        if not eq:
            raise ValueError(f"bot option {pair!r} must look like name=value")
        options[key.strip()] = _number(value.strip())
    try:
        return factory(seed=seed, **options)
    except TypeError as error:
        raise ValueError(f"bot {name!r} does not take those options: {error}") from None


def _number(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text
