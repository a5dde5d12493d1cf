"""Table chat over the table's WebSocket: the players' room and the spectators' room.

Seated connections talk in ``players``, watchers in ``spectators`` (kept apart, as lichess
keeps them: a spectator's hints never reach the players); each room's messages go only to
its own connections.  A message is free text (at most ``MAX_TEXT`` characters, control
characters taken out; the page shows it as text, never as HTML) or one of the quick
``PHRASES``, which the page shows in the viewer's language.  Each connection may send
``PlayerLimits.chat_per_window`` messages; among the spectators only signed-in accounts
talk (``chat_accounts_only``: a stranger cannot spam a table by opening sockets), each
account at that rate however many sockets it opens.  The table's creator (its first person's seat)
can turn the players' chat off and on.  Muting is each viewer's own choice (the page hides
a muted seat's messages).  Messages and the setting are stored; a connection is sent the
newest ``HISTORY`` messages of its room when it opens.

Moderation (``web.moderation``): a line from an account an admin muted, at a seat or
among the spectators, is refused (``muted``), and so is a line holding a word of the list
(``people.words``: ``chat_word``), each told to the sender alone.

Client to server::

    {"type": "chat", "text": TEXT} | {"type": "chat", "phrase": KEY}
    {"type": "chat_off", "off": true|false}          (the table's creator only)

Server to client::

    {"type": "chat", "room": "players"|"spectators", "seat": N|null, "name": TEXT,
     "text": TEXT|null, "phrase": KEY|null, "at": TIME}
    {"type": "chat_setting", "off": bool}
"""

from __future__ import annotations

import asyncio
import collections
import time
import unicodedata
import weakref
from typing import TYPE_CHECKING, Any

from limits import parse

from ..core import protocol
from ..core.wire import encode
from ..people.words import offending
from ..store.chat import ChatMessageRow, ChatStore
from ..store.sanctions import SanctionStore
from ..store.storage import now
from .commands import Say, SetChatOff

if TYPE_CHECKING:
    from .host import House
    from .live import Connection, LiveTable

__all__ = ["MAX_TEXT", "PHRASES", "receive", "say", "send_history",
           "set_off"]

MAX_TEXT = 200
PHRASES = ("hello", "good_luck", "good_game", "well_played", "thanks", "oops",
           "thinking", "rematch")
"""Quick phrases by key; the page has them in every language (``chat.phrase.KEY``)."""


class ChatError(ValueError):
    def __init__(self, reason: str, code: str) -> None:
        super().__init__(reason)
        self.reason, self.code = reason, code


def clean_text(text: Any) -> str:
    """A message as it is kept: control characters out, at most ``MAX_TEXT`` characters.

    >>> clean_text("hi\\x00 <b>there</b>\\n")
    'hi <b>there</b>'
    """
    if not isinstance(text, str):
        raise ChatError('a chat message needs "text" (or a quick "phrase")', "bad_message")
    kept = "".join(ch for ch in text if ch in "\u200c\u200d"
                   or unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co", "Cn"))
    kept = " ".join(kept.split())
    if not kept:
        raise ChatError("an empty message is not sent", "bad_message")
    if len(kept) > MAX_TEXT:
        raise ChatError(f"a chat message is at most {MAX_TEXT} characters", "chat_too_long")
    return kept


_stores: weakref.WeakKeyDictionary[Any, ChatStore] = weakref.WeakKeyDictionary()
"""Each house's chat store, made when its first chat line is said or read."""


def _store(tables: House) -> ChatStore:
    store = _stores.get(tables)
    if store is None:
        store = _stores[tables] = ChatStore(tables.storage)
    return store


_sent: weakref.WeakKeyDictionary[Any, collections.deque[float]] = weakref.WeakKeyDictionary()
_ready: weakref.WeakSet[Any] = weakref.WeakSet()
"""Connections sent their room's history: only they are sent new messages, so a message
stored while the history was read is not sent twice."""
_off: dict[str, bool] = {}
"""Tables whose players' chat is off, as last read or set here (the database has it)."""


def _room(connection: Connection) -> str:
    return "spectators" if connection.seat is None else "players"


def creator_seat(table: LiveTable) -> int | None:
    """The seat ``Seating.create`` gives the creator: the first person's."""
    return next((seat.index for seat in table.seats if seat.kind == "human"), None)


_spoken: dict[str, collections.deque[float]] = {}
"""When each account last chatted among the spectators (one rate for all its sockets)."""


def _admit(tables: House, connection: Connection) -> None:
    limits = tables.settings
    item = parse(limits.chat_per_window)
    window, clock = item.get_expiry(), time.monotonic()
    if connection.seat is None and connection.speaker is not None:
        for speaker in [k for k, times in _spoken.items() if clock - times[-1] >= window]:
            del _spoken[speaker]   # forgotten once their window is over
        sent = _spoken.setdefault(connection.speaker, collections.deque())
    else:
        sent = _sent.setdefault(connection, collections.deque())
    while sent and clock - sent[0] >= window:
        sent.popleft()
    if len(sent) >= item.amount:
        raise ChatError(f"you are chatting too fast (at most {limits.chat_per_window}); "
                        "wait a little", "chat_rate_limited")
    sent.append(clock)


async def receive(table: LiveTable, connection: Connection,
                  message: protocol.Chat | protocol.ChatOff) -> None:
    """One chat message or setting from a connection, handled by the table's dealer (so
    a new connection's history and a new message never cross); a refusal is an error to
    the connection alone."""
    try:
        if isinstance(message, protocol.ChatOff):
            await table.dealer.ask(SetChatOff(connection, message.off))
        else:
            await table.dealer.ask(Say(connection, message))
    except ChatError as error:
        connection.outbox.put("error", encode({"type": "error", "reason": error.reason,
                                               "code": error.code}))


async def say(tables: House, table: LiveTable, connection: Connection,
               message: protocol.Chat) -> None:
    phrase, text = message.phrase, None
    if phrase is not None:
        if phrase not in PHRASES:
            raise ChatError(f"no quick phrase {phrase[:32]!r}: one of "
                            f"{', '.join(PHRASES)}", "bad_message")
    else:
        text = clean_text(message.text)
    room = _room(connection)
    if room == "spectators" and connection.speaker is None:
        raise ChatError("only signed-in players may chat among the spectators: sign in",
                        "chat_accounts_only")
    if room == "players" and await _is_off(tables, table):
        raise ChatError("the table's creator has turned the players' chat off", "chat_off")
    _admit(tables, connection)
    seat = connection.seat
    # a seat's player, or the account a spectator is signed in as: a mute reaches both
    player_id = table.seats[seat].player_id if seat is not None else connection.speaker
    if player_id is not None and await asyncio.to_thread(
            SanctionStore(tables.storage).in_force, "mute", player_id) is not None:
        raise ChatError("an admin has muted you: your messages are not sent", "muted")
    if text is not None and offending(text, tables.settings.word_list) is not None:
        raise ChatError("that message holds a word this site does not allow", "chat_word")
    name = (table.seats[seat].name or f"Seat {seat + 1}") if seat is not None else "spectator"
    row = ChatMessageRow(table_id=table.id, room=room, seat=seat, name=name, text=text,
                         phrase=phrase, at=now())
    await asyncio.to_thread(_store(tables).add, row)
    out = encode(row.message())
    for other in list(table.connections):
        if _room(other) == room and other in _ready:
            other.outbox.put("chat", out)


async def _is_off(tables: House, table: LiveTable) -> bool:
    if table.id not in _off:
        _, _off[table.id] = await asyncio.to_thread(_store(tables).recent, table.id, "none")
    return _off[table.id]


async def set_off(tables: House, table: LiveTable, connection: Connection, off: Any) -> None:
    if not isinstance(off, bool):
        raise ChatError('"chat_off" needs "off": true or false', "bad_message")
    if connection.seat is None or connection.seat != creator_seat(table):
        raise ChatError("only the table's creator can turn the players' chat off or on",
                        "not_creator")
    await asyncio.to_thread(_store(tables).set_off, table.id, off)
    _off[table.id] = off
    out = encode({"type": "chat_setting", "off": off})
    for other in list(table.connections):
        other.outbox.put("chat", out)


async def send_history(tables: House, table: LiveTable, connection: Connection) -> None:
    """The room's newest messages and the setting, to a connection that just opened (its
    dealer asks, as it adds the connection)."""
    _ready.add(connection)
    try:
        messages, off = await asyncio.to_thread(_store(tables).recent, table.id,
                                                _room(connection))
    except Exception:   # the chat's history is a nicety: the table plays on without it
        return
    _off[table.id] = off
    if off:
        connection.outbox.put("chat", encode({"type": "chat_setting", "off": True}))
    for message in messages:
        connection.outbox.put("chat", encode(message))


def forget(table_id: str) -> None:
    """A table that left memory: its chat's setting goes too."""
    _off.pop(table_id, None)
