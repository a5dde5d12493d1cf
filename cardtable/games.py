"""The registry of games: a name to the ``GameSpec`` the outer layers need.

A third game is one new package exporting ``SPEC`` and one line here.
"""

from __future__ import annotations

import importlib

from .game import GameSpec

__all__ = ["GAMES", "get", "names"]

GAMES: dict[str, str] = {
    "pasur": "cardtable.pasur",
    "durak": "cardtable.durak",
}


def names() -> list[str]:
    """The names of every game, in the order the lobby shows them."""
    return list(GAMES)


def get(name: str) -> GameSpec:
    """The spec of a game by name; an unknown name says which ones exist."""
    module = GAMES.get(name)
    if module is None:
        raise ValueError(f"no game {name!r}; the games are: {', '.join(GAMES)}")
    spec: GameSpec = importlib.import_module(module).SPEC
    return spec
