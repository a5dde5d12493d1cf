"""The moves of a game still being played, each with the public table after it: what the
page's move log is rebuilt from when it loads, reconnects or sees a move taken back.

The page words each move from the table before and after it (``logLines`` in the game's
script), so a state message alone cannot bring back a log the page never saw.  Everything
here is what a watcher saw at the time (``state.view(None)``, as the state messages carry
it): no hand, no stock order, no seed, so any viewer of a live table may have it.

>>> from cardtable import games
>>> spec = games.get("durak")
>>> state = spec.start(spec.rules(), players=2, seed=7)
>>> for _ in range(3):
...     state.push(state.legal_moves()[0])
>>> log = log_steps(state)
>>> [step["index"] for step in log["steps"]], log["steps"][0]["seat"]
([0, 1, 2], 1)
>>> [step["takeover"] for step in log_steps(state, frozenset({1}))["steps"]]
[False, True, False]
>>> log["steps"][-1]["view"] == page_view(plain(state.view(None)))
True
>>> log["deal"]["table"], log["deal"]["hand"]
([], None)
>>> {step["view"]["hand"] for step in log["steps"]}   # no seat's hand, ever
{None}
"""

from __future__ import annotations

from ..core.protocol import page_view
from ..core.shapes import TableState
from ..core.wire import plain

__all__ = ["log_steps"]


def log_steps(state: TableState,
              takeovers: frozenset[int] = frozenset()) -> dict[str, object]:
    """The table after the deal (``deal``) and one step per move so far: its index, the
    seat that made it, the move as text, whether the game was then over, whether a
    takeover bot made it for the seat's person (its index in ``takeovers``: the page says
    "Bot for NAME", not "You"), and the public view after it.  ``state`` is not changed
    (a copy is taken back move by move)."""
    trial = state.copy()
    steps: list[dict[str, object]] = []
    over = trial.is_over()
    while trial.move_stack:
        view = page_view(plain(trial.view(None)))
        move = trial.pop()
        index = len(trial.move_stack)
        steps.append({"index": index, "seat": trial.to_move, "move": str(move), "over": over,
                      "takeover": index in takeovers, "view": view})
        over = False
    steps.reverse()
    return {"deal": page_view(plain(trial.view(None))), "steps": steps}
