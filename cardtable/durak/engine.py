"""Which ``Game`` runs: the compiled core's (``compiled.py``) where it was built and says it
is complete, else the pure engine's (``game.py``), the reference it is held to.

``CARDTABLE_PURE=1`` chooses the pure one (see ``cardtable._engine``).  Both have the same
interface, moves, views and refusals; ``tests/durak/test_durak_compiled.py`` proves it.

>>> from cardtable.durak import Game
>>> Game is (CompiledGame or PureGame)
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._engine import load_core
from .game import Game as PureGame

__all__ = ["CompiledGame", "Game", "PureGame"]

if TYPE_CHECKING:
    from . import compiled
    from .game import Game

    CompiledGame: type[compiled.Game] | None
elif load_core("cardtable.durak._core") is not None:
    from .compiled import Game

    CompiledGame = Game
else:
    Game = PureGame
    CompiledGame = None
