"""Help at a table against bots only: a hint (the move a bot would play in your seat, and
why) and undo (back to your own last decision).  Never at a table with another person: a
hint there would be a bot playing for you, and an undo would take back their moves.

Both are WebSocket messages (``{"type": "hint", "lang": "fa"}``, ``{"type": "undo"}``); a
refusal has a code like every other (``cardtable.server.codes``): ``not_against_bots``,
``hint_thinking``, ``nothing_to_undo``, ``undo_past_deal``.

A hint is the school's (``cardtable.analysis.hints``): the level's move, the reason in the
player's language, and the two or three best moves with their values.  It is thought in a
bot process (``BotWorkers.run``, a live job like a bot's move, killed at ``HINT_LIMIT``),
never in the server's own process; the process gets the table's state as a bot's move
does, and the search deals the hidden cards from what the seat has seen.  One hint at a
time per seat.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import TYPE_CHECKING, Any

from ..codes import Refusal, refused
from ..wire import encode
from .bot_workers import BotFailed, HintJob
from .live import OVER, PLAYING, Connection, LiveTable

if TYPE_CHECKING:
    from .host import House

__all__ = ["HINT_BOT", "HINT_LIMIT", "HINT_TOP", "against_bots_only", "hint", "undo"]

log = logging.getLogger("cardtable.server")

HINT_BOT = "medium"
"""The level whose choice is the hint (its search stops itself at 2 s)."""
HINT_TOP = 3
"""The best moves a hint shows with their values."""
HINT_LIMIT = 30.0
"""Seconds a hint's process may work (the level's search, then the words for each move)
before it is killed and the hint refused."""


def against_bots_only(table: LiveTable, seat: int) -> bool:
    """Whether every seat but ``seat`` is a bot's (a person's seat played by a takeover
    bot is still a person's)."""
    return all(other.kind == "bot" for other in table.seats if other.index != seat)


def _check(table: LiveTable, connection: Connection) -> Refusal | None:
    seat = connection.seat
    if seat is None:
        return refused("watching", "you are watching this table: only seated players ask")
    if not against_bots_only(table, seat):
        return refused("not_against_bots", "hints and undo are only for tables where every "
                       "other seat is a bot")
    if table.status == OVER:
        return refused("game_over", "the game is over")
    if table.status != PLAYING:
        return refused("waiting_for_players", "the game has not started", free=0)
    return None


async def hint(tables: House, table: LiveTable, connection: Connection,
               lang: str = "en") -> Refusal | None:
    """Send the seat the move the hint's level would play now, and why, in ``lang``
    (to it alone)."""
    async with table.lock:
        reason = _check(table, connection)
        if reason is None and table.state.to_move != connection.seat:
            reason = refused("not_your_turn", "a hint is for your own turn",
                             seat=table.state.to_move)
        if reason is not None:
            return reason
        seat = table.seats[connection.seat]   # type: ignore[index]
        if seat.hinting:
            return refused("hint_thinking", "a hint for this seat is being thought: wait "
                           "for it")
        seat.hinting = True
        job = HintJob(table.state.copy(), HINT_BOT, lang, HINT_TOP, secrets.randbits(32))
        version = table.version
    try:
        given = await tables.runner.pool().run(job, HINT_LIMIT)
    except (TimeoutError, BotFailed) as error:
        log.warning("table %s: no hint for seat %d: %s", table.id, seat.index, error)
        return refused("server_error", "the hint could not be thought; ask again")
    finally:
        seat.hinting = False
    choices = [{"move": c["move"], "value": c["value"], "text": c["text"]}
               for c in given["choices"]]
    connection.outbox.put("hint", encode({
        "type": "hint", "version": version, "move": given["move"], "level": given["level"],
        "lang": lang, "text": given["text"], "unit": given["unit"], "choices": choices}))
    return None


async def undo(tables: House, table: LiveTable, connection: Connection) -> Refusal | None:
    """Take back the moves since the seat's own last decision (the bots' answers with
    it), within the current deal; everyone is sent the state as it was."""
    async with table.lock:
        reason = _check(table, connection)
        if reason is not None:
            return reason
        seat = connection.seat
        state = table.state
        trial = state.copy()
        dealt = len(table.spec.deals(trial))
        count = 0
        while True:
            if not trial.move_stack:
                return refused("nothing_to_undo", "you have made no move to take back")
            trial.pop()
            count += 1
            if trial.to_move == seat:
                break
        if len(table.spec.deals(trial)) != dealt:
            return refused("undo_past_deal", "a move before the last deal cannot be taken "
                           "back (the cards dealt since would change)")
        keep = table.version - count
        await asyncio.to_thread(tables.storage.take_back, table.id, keep)
        for _ in range(count):
            state.pop()
        table.version = keep
        table.last_move = _last_move(table)
        table.broadcast()
    return None


def _last_move(table: LiveTable) -> dict[str, Any] | None:
    """The move before the table's current state, as ``state_message`` sends it."""
    if not table.version:
        return None
    trial = table.state.copy()
    move = trial.pop()
    return {"index": table.version - 1, "seat": trial.to_move, "move": str(move)}
