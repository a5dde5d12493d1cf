"""The messages of the table's WebSocket; ``plain`` (``records.jsonable``) makes server
data plain JSON.

Server to client::

    {"type": "state", "table": ID, "game": NAME, "version": N,
     "status": "waiting"|"playing"|"over",
     "over": bool, "to_move": SEAT|null, "seat": YOUR_SEAT|null, "view": {...},
     "legal_moves": [TEXT, ...], "last_move": {"index", "seat", "move"}|null,
     "seats": [...], "summary": {...} (once over), "rematch": ID|null}
    {"type": "error", "reason": TEXT, "code"?: CODE}   (a refused message: then a fresh
                                                         "state")
    {"type": "rematch", "table": ID, "seat": YOUR_SEAT|null}
    {"type": "pong"}

Client to server::

    {"type": "move", "version": N, "move": TEXT}
    {"type": "rematch"}
    {"type": "resign"}   (your side loses; the game ends)
    {"type": "leave"}    (an unrated table: the takeover bot plays on)
    {"type": "hint", "lang"?: "en"|"ru"|"pt"|"fa"}   (at a table against bots only:
                          answered {"type": "hint", "version", "move", "level", "lang",
                          "text", "unit", "choices": [{"move", "value", "text"}, ...]})
    {"type": "undo"}     (at a table against bots only: back to your last decision)
    {"type": "ping"}

Chat (``{"type": "chat", ...}``, ``{"type": "chat_off", ...}``): see ``cardtable.server.chat``.
"""

from __future__ import annotations

import json
from typing import Any

from ..records import jsonable as plain
from .border import has_nul

__all__ = ["MessageError", "decode", "encode", "plain"]

MAX_MESSAGE = 4096
MAX_MOVE = 200
HINT_LANGS = ("en", "ru", "pt", "fa")
"""The languages a hint is worded in (the page's)."""
MAX_TOKEN = 64
"""A seat token is 32 characters; a longer one holds no seat, and is not even hashed."""


class MessageError(ValueError):
    """A client message the server cannot read; the text says what was expected."""

    code = "bad_message"


def encode(message: dict[str, Any]) -> str:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


def decode(text: str | bytes) -> dict[str, Any]:
    """Read and check one client message; ``MessageError`` says what is wrong with it."""
    if len(text) > MAX_MESSAGE:
        raise MessageError(f"the message is too long ({len(text)} characters; at most "
                           f"{MAX_MESSAGE})")
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as error:
        raise MessageError(f"the message is not JSON ({error})") from None
    except RecursionError:
        raise MessageError("the message is nested too deeply to read (a message is a flat "
                           "JSON object)") from None
    if has_nul(data):
        raise MessageError("text with a NUL character (\\u0000) in it cannot be stored: "
                           "remove it and send again")
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise MessageError('a message is a JSON object with a "type": "move", "rematch" '
                           'or "ping"')
    kind = data["type"]
    if kind == "move":
        version = data.get("version")
        if not isinstance(version, int) or isinstance(version, bool):
            raise MessageError('a move needs "version": the version number of the state it '
                               'was chosen in')
        move = data.get("move")
        if not isinstance(move, str) or not move.strip():
            raise MessageError('a move needs "move": the move as text, one of "legal_moves"')
        if len(move) > MAX_MOVE:
            raise MessageError(f"the move is too long (at most {MAX_MOVE} characters)")
    elif kind == "hint":
        if data.get("lang", "en") not in HINT_LANGS:
            raise MessageError(f'a hint\'s "lang" is one of {", ".join(HINT_LANGS)}')
    elif kind not in ("rematch", "ping", "resign", "leave", "chat", "chat_off", "hint", "undo"):
        # chat: ``chat`` checks it
        raise MessageError(f"unknown message type {kind!r}: send \"move\", \"rematch\", "
                           f"\"resign\", \"leave\", \"chat\", \"hint\", \"undo\" or "
                           "\"ping\"")
    return data
