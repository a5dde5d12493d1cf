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
import unicodedata
from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from limits import parse

from ..core import protocol
from ..core.errors import Refused
from ..people.words import offending
from ..store.chat import ChatMessageRow, ChatStore
from ..store.sanctions import SanctionStore
from ..store.social import SocialStore
from ..store.storage import Storage
from .commands import Say, SetChatOff
from .effects import (
    Decision,
    HistoryRead,
    Moment,
    Plan,
    SendAll,
    SendRoom,
    SendTo,
    Set,
    StoreChat,
    StoreChatOff,
)
from .live import Connection, LiveTable, send

if TYPE_CHECKING:
    from .host import House

__all__ = ["MAX_TEXT", "PHRASES", "decide", "history_read", "keep",
           "keep_off", "receive", "recent"]

MAX_TEXT = 200
PHRASES = ("hello", "good_luck", "good_game", "well_played", "thanks", "oops",
           "thinking", "rematch")
"""Quick phrases by key; the page has them in every language (``chat.phrase.KEY``)."""


def clean_text(text: object) -> str:
    """A message as it is kept: control characters out, at most ``MAX_TEXT`` characters.

    >>> clean_text("hi\\x00 <b>there</b>\\n")
    'hi <b>there</b>'
    """
    if not isinstance(text, str):
        raise Refused('a chat message needs "text" (or a quick "phrase")', 422, "bad_message")
    kept = "".join(ch for ch in text if ch in "\u200c\u200d"
                   or unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co", "Cn"))
    kept = " ".join(kept.split())
    if not kept:
        raise Refused("an empty message is not sent", 422, "bad_message")
    if len(kept) > MAX_TEXT:
        raise Refused(f"a chat message is at most {MAX_TEXT} characters", 422, "chat_too_long")
    return kept


def recent(storage: Storage, table_id: str, room: str, reader: str | None = None,
           blocks: SocialStore | None = None,
           seated: Sequence[str | None] = ()) -> tuple[list[protocol.ChatLine], bool]:
    """The room's newest messages and whether the players' chat is off (call in a thread).
    Lines of a player whom ``reader`` blocks, or who blocks them, are left out, said
    before the block or after (``blocks``: the store of blocks, none in a house without
    one; ``seated``: each seat's player now, the speaker of a seat's line kept before
    lines named theirs)."""
    said, off = ChatStore(storage).recent(table_id, room)
    if reader is None or blocks is None:
        return [line for line, _ in said], off
    speakers = [who if who is not None
                else seated[line.seat] if line.seat is not None and line.seat < len(seated)
                else None for line, who in said]
    others = sorted({who for who in speakers if who is not None and who != reader})
    pairs = blocks.blocking_any([reader, *others]) if others else set()
    apart = {other for pair in pairs if reader in pair for other in pair if other != reader}
    return [line for (line, _), who in zip(said, speakers, strict=True)
            if who not in apart], off


def keep(storage: Storage, table_id: str, room: str, seat: int | None, name: str,
         text: str | None, phrase: str | None, at: str, player_id: str | None = None) -> None:
    """Store a chat line (call in a thread)."""
    ChatStore(storage).add(ChatMessageRow(table_id=table_id, room=room, seat=seat, name=name,
                                          text=text, phrase=phrase, at=at,
                                          player_id=player_id))


def keep_off(storage: Storage, table_id: str, off: bool) -> None:
    """Store the players' chat setting (call in a thread)."""
    ChatStore(storage).set_off(table_id, off)


async def receive(tables: House, table: LiveTable, connection: Connection,
                  message: protocol.Chat | protocol.ChatOff) -> None:
    """One chat message or setting from a connection: what the message itself may be is
    checked here (its text, its phrase, a word of the list, its sender muted); the rest
    (the room, the setting, the rate) by the table's dealer, which sends it (so a new
    connection's history and a new message never cross).  A refusal is an error to the
    connection alone."""
    if isinstance(message, protocol.ChatOff):
        await table.dealer.ask(SetChatOff(connection, message.off))
        return
    try:
        phrase, text = message.phrase, None
        if phrase is not None:
            if phrase not in PHRASES:
                raise Refused(f"no quick phrase {phrase[:32]!r}: one of "
                              f"{', '.join(PHRASES)}", 422, "bad_message")
        else:
            text = clean_text(message.text)
    except Refused as error:
        send(protocol.Error.of(error.reason, error.code, error.params), (connection,))
        return
    seat = connection.seat
    # a seat's player, or the account a spectator is signed in as: a mute reaches both
    player_id = table.seats[seat].player_id if seat is not None else connection.speaker
    muted = player_id is not None and await asyncio.to_thread(
        SanctionStore(tables.storage).in_force, "mute", player_id) is not None
    offends = text is not None and offending(text, tables.settings.word_list) is not None
    item = parse(tables.settings.chat_per_window)
    apart = await _apart(tables, table, player_id)
    await table.dealer.ask(Say(connection, text, phrase,
                               (item.amount, float(item.get_expiry())),
                               tables.settings.chat_per_window, muted, offends, apart))


async def _apart(tables: House, table: LiveTable, player_id: str | None) -> frozenset[str]:
    """The players at the table (seated or watching) who block the speaker or whom the
    speaker blocks: their connections are not sent the line."""
    notices = tables.notices
    if player_id is None or notices is None:
        return frozenset()
    here = {seat.player_id for seat in table.seats if seat.player_id}
    here |= {other.speaker for other in table.connections if other.speaker}
    here.discard(player_id)
    if not here:
        return frozenset()
    pairs = await asyncio.to_thread(notices.store.blocking_any, [player_id, *sorted(here)])
    return frozenset(other for pair in pairs if player_id in pair for other in pair
                     if other != player_id)


# -- deciding ----------------------------------------------------------------------------------
def _room(connection: Connection) -> Literal["players", "spectators"]:
    return "spectators" if connection.seat is None else "players"


def _chat_error(connection: Connection, reason: str, code: str) -> SendTo:
    return SendTo(connection, protocol.Error(type="error", reason=reason, code=code))


def decide(table: LiveTable, command: Say | SetChatOff, now: Moment) -> Decision:
    """What a chat line or the players' chat setting does at ``table`` at ``now``: a
    refusal is an error to the connection alone (the rate still counts the line)."""
    connection, chat = command.connection, table.chat
    if isinstance(command, SetChatOff):
        if not isinstance(command.off, bool):
            return Decision(sends=(_chat_error(connection, '"chat_off" needs "off": true or '
                                               'false', "bad_message"),))
        if connection.seat is None or connection.seat != table.creator_seat():
            return Decision(sends=(_chat_error(
                connection, "only the table's creator can turn the players' chat off or "
                "on", "not_creator"),))
        return Decision(writes=(StoreChatOff(command.off),),
                        changes=(Set("chat", (("off", command.off),)),),
                        sends=(SendAll(protocol.ChatSetting(type="chat_setting",
                                                                    off=command.off)),))
    room = _room(connection)
    if room == "spectators" and connection.speaker is None:
        return Decision(sends=(_chat_error(connection, "only signed-in players may chat "
                                           "among the spectators: sign in",
                                           "chat_accounts_only"),))
    if room == "players" and chat.off:
        return Decision(sends=(_chat_error(connection, "the table's creator has turned the "
                                           "players' chat off", "chat_off"),))
    amount, window = command.rate
    # counted by who speaks, however many sockets they open: a spectator's account, or
    # a player's seat (three sockets of one seat share one rate)
    speaker = (connection.speaker if connection.seat is None and connection.speaker is not None
               else f"seat {connection.seat}" if connection.seat is not None else None)
    times = (chat.spoken.get(speaker, ()) if speaker is not None
             else chat.sent.get(connection, ()))
    times = tuple(at for at in times if now.time - at < window)
    if len(times) >= amount:
        return Decision(sends=(_chat_error(connection, f"you are chatting too fast (at most "
                                           f"{command.rate_text}); wait a little",
                                           "chat_rate_limited"),))
    times = (*times, now.time)
    plan = Plan(table)
    if speaker is not None:
        spoken = {who: kept for who, kept in chat.spoken.items()
                  if now.time - kept[-1] < window}   # forgotten once their window is over
        spoken[speaker] = times
        plan.set("chat", spoken=spoken)
    else:
        sent = {other: kept for other, kept in chat.sent.items()
                if other in table.connections}
        sent[connection] = times
        plan.set("chat", sent=sent)
    if command.muted:
        plan.sends.append(_chat_error(connection, "an admin has muted you: your messages are "
                                      "not sent", "muted"))
        return plan.decision()
    if command.offending:
        plan.sends.append(_chat_error(connection, "that message holds a word this site "
                                      "does not allow", "chat_word"))
        return plan.decision()
    seat = connection.seat
    name = (table.seats[seat].name or f"Seat {seat + 1}") if seat is not None else "spectator"
    line = StoreChat(room, seat, name, command.text, command.phrase, now.stamp,
                     table.seats[seat].player_id if seat is not None else connection.speaker)
    plan.writes.append(line)
    plan.sends.append(SendRoom(room, protocol.ChatLine(
        type="chat", room=room, seat=seat, name=name, text=line.text, phrase=line.phrase,
        at=line.at), command.apart))
    return plan.decision()


def history_read(table: LiveTable, command: HistoryRead) -> Decision:
    connection = command.connection
    plan = Plan(table)
    values: dict[str, object] = {"ready": table.chat.ready | {connection}}
    if command.off is not None:
        values["off"] = command.off
        if command.off:
            plan.sends.append(SendTo(connection, protocol.ChatSetting(
                type="chat_setting", off=True)))
    plan.set("chat", **values)
    plan.sends.extend(SendTo(connection, line) for line in command.lines)
    return plan.decision()
