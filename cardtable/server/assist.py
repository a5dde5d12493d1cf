"""Help at a table against bots only: a hint (the move a bot would play in your seat) and
undo (back to your own last decision).  Never at a table with another person: a hint
there would be a bot playing for you, and an undo would take back their moves.

Both are WebSocket messages (``{"type": "hint"}``, ``{"type": "undo"}``); a refusal has
a code like every other (``cardtable.server.codes``): ``not_against_bots``,
``nothing_to_undo``, ``undo_past_deal``.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

from .. import bots
from .codes import Refusal, refused
from .live import OVER, PLAYING, Connection, LiveTable
from .wire import encode

if TYPE_CHECKING:
    from .tables import Tables

__all__ = ["HINT_BOT", "HINT_SECONDS", "against_bots_only", "hint", "undo"]

HINT_BOT = "medium"
"""The bot whose choice is the hint."""
HINT_SECONDS = 2.0
"""How long the hint's bot may think."""


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


async def hint(tables: Tables, table: LiveTable, connection: Connection) -> Refusal | None:
    """Send the seat the move the hint's bot would play now (to it alone)."""
    async with table.lock:
        reason = _check(table, connection)
        if reason is None and table.state.to_move != connection.seat:
            reason = refused("not_your_turn", "a hint is for your own turn",
                             seat=table.state.to_move)
        if reason is not None:
            return reason
        snapshot, version = table.state.copy(), table.version
    bot = bots.make(HINT_BOT)
    move = await asyncio.to_thread(
        lambda: str(bots.choose_within(bot, snapshot, time.perf_counter() + HINT_SECONDS)))
    connection.outbox.put("hint", encode({"type": "hint", "move": move, "version": version}))
    return None


async def undo(tables: Tables, table: LiveTable, connection: Connection) -> Refusal | None:
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
