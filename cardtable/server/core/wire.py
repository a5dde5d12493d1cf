"""The table's WebSocket messages on the wire: ``decode`` reads a page's text into a typed
``protocol.ClientMessage``, ``encode`` writes a server message; ``plain``
(``records.jsonable``) makes server data plain JSON.

The messages themselves (every field, both directions) are the models of
``cardtable.server.core.protocol``, served as JSON Schema at ``GET /api/protocol.json`` and
described in docs/server.md.  Here is only what makes text a message or refuses it, with
a sentence that says what was expected:

>>> decode('{"type": "hint", "lang": "fa"}')
Hint(type='hint', lang='fa')
>>> decode('{"type": "move", "version": "3", "move": "take"}')
Traceback (most recent call last):
...
cardtable.server.core.wire.MessageError: a move needs "version": the version number (a whole ...
"""

from __future__ import annotations

import json

from pydantic import ValidationError

from ...records import jsonable as plain
from .border import unstorable
from .protocol import (
    CLIENT_TYPES,
    HINT_LANGS,
    MAX_MOVE,
    Outgoing,
    client_adapter,
)
from .protocol import ClientMessage as ClientMessage

__all__ = ["KEY_PREFIX", "PROTOCOL", "MessageError", "decode", "encode", "plain",
           "seat_protocols"]

MAX_MESSAGE = 4096
MAX_TOKEN = 64
"""A seat token is 32 characters; a longer one holds no seat, and is not even hashed."""

PROTOCOL = "cardtable"
"""The WebSocket subprotocol the server picks when a client offers it (a browser that
offers any subprotocol fails the socket unless the server picks one of them)."""

KEY_PREFIX = "cardtable.key."
"""A seat's key travels as the offered subprotocol ``cardtable.key.KEY`` (the
``Sec-WebSocket-Protocol`` header, which a page sets with ``new WebSocket(url,
protocols)``), never in the URL, which every proxy's access and error log, and the
browser's history, write down."""


def seat_protocols(token: str | None) -> list[str]:
    """The subprotocols a client offers to play the seat ``token`` holds (``None``: to
    watch).

    >>> seat_protocols("Ab_9")
    ['cardtable', 'cardtable.key.Ab_9']
    """
    return [PROTOCOL] + ([KEY_PREFIX + token] if token else [])


class MessageError(ValueError):
    """A client message the server cannot read; the text says what was expected."""

    code = "bad_message"


def encode(message: Outgoing) -> str:
    """A server message, built as its model (checked as it was built), as the text sent:
    an optional field left unset is left out, as the page has always read it.

    >>> from cardtable.server.core.protocol import Pong
    >>> encode(Pong(type="pong"))
    '{"type":"pong"}'
    """
    return message.model_dump_json(exclude_unset=True)


def decode(text: str | bytes) -> ClientMessage:
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
    why = unstorable(data)
    if why is not None:
        raise MessageError(why)
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise MessageError(f'a message is a JSON object with a "type": {_ONE_OF}')
    try:
        return client_adapter.validate_python(data)
    except ValidationError as error:
        raise MessageError(_why(data["type"], error)) from None


_ONE_OF = ", ".join(f'"{kind}"' for kind in CLIENT_TYPES[:-1]) + f' or "{CLIENT_TYPES[-1]}"'

_FIELD_SAYS = {
    ("move", "version"): 'a move needs "version": the version number (a whole number) of '
                         'the state it was chosen in',
    ("move", "move"): 'a move needs "move": the move as text, one of "legal_moves" (at most '
                      f'{MAX_MOVE} characters)',
    ("hint", "lang"): f'a hint\'s "lang" is one of {", ".join(HINT_LANGS)}',
    ("chat", "text"): 'a chat message needs "text" (or a quick "phrase")',
    ("chat", "phrase"): 'a chat "phrase" is the key of a quick phrase',
    ("chat_off", "off"): '"chat_off" needs "off": true or false',
}


def _why(kind: str, error: ValidationError) -> str:
    """The first thing wrong with a message, as a sentence a person reads."""
    if kind not in CLIENT_TYPES:
        return f"unknown message type {kind[:40]!r}: send {_ONE_OF}"
    for problem in error.errors():
        where = problem["loc"]  # (the type, the field, ...)
        field = str(where[1]) if len(where) > 1 else ""
        said = _FIELD_SAYS.get((kind, field))
        if said:
            return said
    problem = error.errors()[0]
    return f"a {kind} message cannot be read: {problem['msg']}"
