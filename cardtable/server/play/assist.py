"""Help at a table against bots only: a hint (the move a bot would play in your seat, and
why) and undo (back to your own last decision).  Never at a table with another person: a
hint there would be a bot playing for you, and an undo would take back their moves.

Both are WebSocket messages (``{"type": "hint", "lang": "fa"}``, ``{"type": "undo"}``); a
refusal has a code like every other (``cardtable.server.core.codes``): ``not_against_bots``,
``hint_thinking``, ``nothing_to_undo``, ``undo_past_deal``.

A hint is the school's (``cardtable.analysis.hints``): the judge's move, the reason in the
player's language, why the judge ranks it first (``why``, in that language too) and whether
it is sure (``sure``), and the two or three best moves with their values.  It is thought in a
bot process (``BotWorkers.run``, a live job like a bot's move, killed at ``HINT_LIMIT``),
never in the server's own process; the process gets the table's state as a bot's move
does, and the search deals the hidden cards from what the seat has seen.  One hint at a
time per seat.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from ..core import protocol
from ..core.codes import Refusal, refused
from .bot_workers import BotFailed, HintJob
from .commands import HintDone, StartHint, TakeBack
from .live import Connection, LiveTable, send
from .steps import against_bots_only

if TYPE_CHECKING:
    from .host import House

__all__ = ["HINT_BOT", "HINT_LIMIT", "HINT_TOP", "against_bots_only", "hint", "undo"]


log = logging.getLogger("cardtable.server")

HINT_BOT = "medium"
"""The level whose choice is the hint (its search stops itself at 2 s)."""
HINT_SEED = 0
"""The judge's seed for hints: the server's analysis seeds 0 too, so a hint and the
finished game's analysis of the same position name the same best move."""
HINT_TOP = 3
"""The best moves a hint shows with their values."""
HINT_LIMIT = 30.0
"""Seconds a hint's process may work (the level's search, then the words for each move)
before it is killed and the hint refused."""


async def hint(tables: House, table: LiveTable, connection: Connection,
               lang: protocol.Lang = "en") -> Refusal | None:
    """Send the seat the move the hint's level would play now, and why, in ``lang``
    (to it alone)."""
    started = await table.dealer.ask(StartHint(connection.seat))
    if isinstance(started, Refusal):
        return started
    snapshot, version = started
    job = HintJob(snapshot, HINT_BOT, lang, HINT_TOP, HINT_SEED)
    seat: int = connection.seat   # type: ignore[assignment]
    try:
        given = await tables.runner.pool().run(job, HINT_LIMIT)
    except (TimeoutError, BotFailed) as error:
        log.warning("table %s: no hint for seat %d: %s", table.id, seat, error)
        return refused("server_error", "the hint could not be thought; ask again")
    finally:
        await table.dealer.ask(HintDone(seat))
    choices = [protocol.HintChoice(move=c["move"], value=c["value"], text=c["text"])
               for c in given.choices]
    send(protocol.HintAnswer(
        type="hint", version=version, move=given.move, level=given.level, lang=lang,
        text=given.text, unit=given.unit, choices=choices, why=given.why,
        sure=given.sure), (connection,))
    return None


async def undo(table: LiveTable, connection: Connection) -> Refusal | None:
    """Take back the moves since the seat's own last decision (the bots' answers with
    it), within the current deal; everyone is sent the state as it was."""
    return await table.dealer.ask(TakeBack(connection.seat))
