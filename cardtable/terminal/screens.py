"""Which module draws a game's screen.

Apart from the package so that ``replay`` can find a game's screen without importing
the package that holds it.
"""

from __future__ import annotations

from typing import Any

from ..game import GameSpec
from . import generic


def screen_module(spec: GameSpec) -> Any:
    """The drawing module a game's spec names, or the generic screen if it names none."""
    if spec.screen is None:
        return generic
    return spec.plugin("screen")
