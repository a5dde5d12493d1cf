"""Which ``Hand`` runs: the compiled core's (``compiled.py``) where it was built and says it
is complete, else the pure engine's (``hand.py``), the reference it is held to.

``CARDTABLE_PURE=1`` chooses the pure one (see ``cardtable._engine``).  Both have the same
interface, moves, views and refusals; ``tests/pasur/test_pasur_compiled.py`` proves it.

>>> from cardtable.pasur import Hand
>>> Hand is (CompiledHand or PureHand)
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._engine import load_core
from .hand import Hand as PureHand

__all__ = ["CompiledHand", "Hand", "PureHand"]

if TYPE_CHECKING:
    from . import compiled
    from .hand import Hand

    CompiledHand: type[compiled.Hand] | None
elif hasattr(load_core("cardtable.pasur._core"), "HandCore"):
    # (a core built before the compiled hand existed leaves the pure one running)
    from .compiled import Hand

    CompiledHand = Hand
else:
    Hand = PureHand
    CompiledHand = None
