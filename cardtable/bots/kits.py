"""One kit per game: what the bots know of that game, looked up by the view's "game" key.

A kit offers ``sampler(state, seat)`` (a function of a generator that deals the hidden
cards afresh), ``perfect(state, seat)`` (nothing is hidden any more), ``near_end(state,
seat)`` (few enough cards are hidden that each sample can be solved exactly), ``context`` and
``rewards`` (what a finished search position is worth to each seat), ``greedy`` and
``basic`` (the tactics player and the immediate-best player), ``playout`` and ``cutoff``
(the search's playout policy and where a playout may stop), ``exploration`` (the search's
UCB constant), and ``key``, ``order`` and ``side_of`` for the exact endgame search.  A third
game adds one entry here.

>>> kit_for({"game": "durak"}).name
'durak'
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["KITS", "kit_for"]

KITS: dict[str, str] = {
    "pasur": "cardtable.bots.pasur_kit",
    "durak": "cardtable.bots.durak_kit",
}


def kit_for(view: dict) -> Any:
    """The kit of the game a view belongs to."""
    module = KITS.get(view.get("game"))
    if module is None:
        raise ValueError(f"the bots do not know the game {view.get('game')!r}; they know: "
                         + ", ".join(KITS))
    return importlib.import_module(module).KIT
