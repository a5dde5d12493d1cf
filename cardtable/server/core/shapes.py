"""The shapes the server passes around without ``Any``: JSON as mypy sees it (what the
server reads from a column, a request or a record, and writes back), and the state of
whatever game a table plays.

A value read as JSON (a column, a message) is narrowed before it is used (``isinstance``,
or one of the readers below, which say what they wanted when the value is not that):

>>> life = {"rated": True, "banks": [30, 12.5], "clock": None}
>>> whole(life, "missing", 0), flag(life, "rated"), numbers(life, "banks")
(0, True, [30.0, 12.5])
>>> whole({"seat": "1"}, "seat", 0)
Traceback (most recent call last):
...
ValueError: "seat" is a whole number, not '1'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeAlias

from pydantic import JsonValue

from ...game import GameState

__all__ = ["JSON", "TableState", "flag", "number", "numbers", "obj", "whole", "wholes"]

JSON: TypeAlias = JsonValue
"""A JSON value: to mypy ``dict[str, JSON] | list[JSON] | str | int | float | bool | None``,
to pydantic a field it checks as such."""
TableState: TypeAlias = GameState[object]
"""The state of the game a table plays, whichever it is: the server never names a game,
and a move is an object it only passes back (from ``parse_move`` or ``legal_moves`` to
``push``) or writes as its text (``str``)."""


def whole(data: Mapping[str, object], key: str, default: int) -> int:
    """``data[key]`` as an int (``default`` when absent or null)."""
    value = data.get(key)
    if value is None:
        return default
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise ValueError(f'"{key}" is a whole number, not {value!r}')


def number(data: Mapping[str, object], key: str, default: float) -> float:
    """``data[key]`` as a float (``default`` when absent or null)."""
    value = data.get(key)
    if value is None:
        return default
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    raise ValueError(f'"{key}" is a number, not {value!r}')


def flag(data: Mapping[str, object], key: str, default: bool = False) -> bool:
    """``data[key]`` as a bool (``default`` when absent or null)."""
    value = data.get(key)
    return default if value is None else bool(value)


def numbers(data: Mapping[str, object], key: str) -> list[float]:
    """``data[key]`` as a list of numbers (empty when absent or null)."""
    return [float(x) for x in _list(data, key, (int, float), "numbers")]


def wholes(data: Mapping[str, object], key: str) -> list[int]:
    """``data[key]`` as a list of whole numbers (empty when absent or null)."""
    return [int(x) for x in _list(data, key, (int,), "whole numbers")]


def _list(data: Mapping[str, object], key: str, kinds: tuple[type, ...],
          said: str) -> list[int | float]:
    value = data.get(key)
    if value is None:
        return []
    if isinstance(value, list) and all(isinstance(x, kinds) and not isinstance(x, bool)
                                       for x in value):
        return [x for x in value if isinstance(x, int | float)]
    raise ValueError(f'"{key}" is a list of {said}, not {value!r}')


def obj(value: object) -> Mapping[str, object] | None:
    """``value`` when it is a JSON object (``None`` otherwise)."""
    return value if isinstance(value, dict) else None
