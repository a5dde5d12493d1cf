"""A finished game, step by step, as the replay page draws it.

A record holds its moves as text; the page wants the table itself at every step.  The
server deals the record again and plays it move by move (``Record.states()``), keeping,
after the deal and after each move, what a watcher saw (``state.view(None)``) and every
seat's hand (the ``"hand"`` of ``state.view(seat)``).  The hands are hidden information:
``replay_steps`` is only for a game that is over, and refuses one that is not.

>>> from cardtable import games
>>> from cardtable.records import record_of
>>> spec = games.get("durak")
>>> state = spec.start(spec.rules(), players=2, seed=7)
>>> while not state.is_over():
...     state.push(state.legal_moves()[0])
>>> record = record_of(state, "durak")
>>> steps = replay_steps(record)
>>> len(steps) == len(record.moves) + 1
True
>>> steps[0]["seat"], steps[0]["move"], len(steps[0]["hands"][0])
(None, None, 6)
>>> steps[-1]["result"] == record.result
True
"""

from __future__ import annotations

from ...records import Record, RecordError
from ..core.protocol import page_view
from ..core.wire import plain

__all__ = ["ENDED_BY_THE_TABLE", "replay_steps"]

ENDED_BY_THE_TABLE = ("resigned", "abandoned", "aborted")
"""How a game ends that its rules did not end (``lifecycle``): its replay ends there."""


def replay_steps(record: Record) -> list[dict[str, object]]:
    """The deal and then one step per move: who moved, the move, the watcher's view,
    every seat's hand, whose turn it is next, and (at the end) the result.

    Raises ``RecordError`` if the record cannot be replayed or its game did not end.
    """
    if record.result is None:
        raise RecordError("the game is not over: its replay (which shows every hand) is "
                          "given once it has ended")
    steps: list[dict[str, object]] = []
    mover: int | None = None
    for index, text, state in record.states():
        over = state.is_over()
        steps.append({
            "index": index,
            "seat": mover if index else None,
            "move": text,
            "to_move": state.to_move,
            "view": page_view(plain(state.view(None))),  # to_move beside, as in a state
            "hands": [plain(state.view(seat).get("hand")) for seat in range(state.players)],
            "result": plain(record.spec.summary(state)) if over else None,
        })
        # The seat that decides now is the one whose move the next step shows.
        mover = state.to_move
    result = steps[-1]["result"]
    if result is None and record.result.get("ended") in ENDED_BY_THE_TABLE:
        # resigned or abandoned: the moves stop before the rules end the game; the
        # recorded summary says how it ended
        result = steps[-1]["result"] = record.result
    if result is None:
        raise RecordError(f"the record's {len(record.moves)} moves do not finish the game")
    if result != record.result:
        raise RecordError(f"the replayed result {result} differs from the recorded result "
                          f"{record.result}")
    return steps
