"""The results of a finished live table, as the ratings count them.

``store.ratings`` keeps the ratings and counts a ``Tally`` in the transaction that stores
a game's end; this module reads a live table (its outcome, its resignations and
forfeits, who sat where) into that tally, and counts a table a crash left uncounted.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from ..core.shapes import TableState
from ..store.ratings import SeatResult, Tally, pool_of
from .commands import Counted
from .live import LiveTable

if TYPE_CHECKING:
    from .host import House

__all__ = ["count_table", "movers", "results_of", "tally_of"]

log = logging.getLogger("cardtable.server")


def results_of(table: LiveTable, summary: dict[str, object] | None = None) -> list[SeatResult]:
    """Each seat's result from the game's outcome and the summary's resignations and
    forfeits (those seats lost); empty when the game has no outcome (say, abandoned or
    aborted).
    ``summary`` is the table's own unless given (an end about to be stored)."""
    summary = (table.summary if summary is None else summary) or {}
    if summary.get("abandoned") or summary.get("closed") or summary.get("aborted"):
        return []
    outcome = table.state.outcome()
    forfeits, resigned = summary.get("forfeits"), summary.get("resigned")
    lost = {s for s in forfeits if isinstance(s, int)} if isinstance(forfeits, list) else set()
    if isinstance(resigned, int):
        lost.add(resigned)
    if outcome is None and not lost:
        return []
    n = len(table.seats)
    returns = list(outcome.returns) if outcome is not None else [0.0] * n
    winners = set(outcome.winners) if outcome is not None else set()
    if lost:   # the seats that lost on time or resigned are last, whatever the cards said
        low = min(returns) - 1
        returns = [low if seat in lost else value for seat, value in enumerate(returns)]
        winners = (winners - lost) or {seat for seat in range(n) if seat not in lost}
    out = []
    for seat in table.seats:
        i = seat.index
        result = "draw" if not winners else "win" if i in winners else "loss"
        out.append(SeatResult(seat=i, kind=seat.kind, player_id=seat.player_id,
                              player_kind=seat.player_kind, bot=seat.bot_spec,
                              score=returns[i], result=result))
    return out


def movers(state: TableState, players: int) -> set[int]:
    """The seats that have made a move in the game so far (their own, or their takeover
    bot's for them); ``state`` is not changed.

    >>> from cardtable import games
    >>> state = games.get("durak").start(games.get("durak").rules(), players=2, seed=7)
    >>> movers(state, 2)
    set()
    >>> state.push(state.legal_moves()[0]); state.push(state.legal_moves()[0])
    >>> sorted(movers(state, 2))
    [0, 1]
    """
    trial, seats = state.copy(), set[int]()
    while trial.move_stack and len(seats) < players:
        trial.pop()
        if trial.to_move is not None:
            seats.add(trial.to_move)
    return seats


def tally_of(table: LiveTable, summary: dict[str, object] | None = None) -> Tally:
    """The count of a table whose game is over (``summary``: its end's, if not stored):
    rated if its creator chose so and every seat has moved."""
    chosen = table.life is not None and table.life.rated
    return Tally(table.id, table.game, pool_of(table.game, table.preset, table.players),
                 results_of(table, summary), chosen=chosen,
                 moved=not chosen or len(movers(table.state, table.players)) == table.players)


async def count_table(tables: House, table: LiveTable) -> bool:
    """Count a table that is over but was not counted with its end (a crash between the
    two under an older version, or a count that failed), once, whichever process asks
    first; a rated game's changes go into its stored summary, and to everyone at the
    table if it is live here.  True if this call counted it; a failure is logged (the
    next sweep tries again)."""
    if not table.over:
        return False
    try:
        tally = tally_of(table)
        summary = await asyncio.to_thread(tables.storage.count_over, table.id, tally)
        if summary is None:
            return False
        if tally.added and tables.live.get(table.id) is table:
            await table.dealer.ask(Counted(tuple(tally.added.items())))
        return True
    except Exception:
        log.exception("table %s: the players' results could not be counted", table.id)
        return False
