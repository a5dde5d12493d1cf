"""The border every request crosses first: text no database can store is refused here.

PostgreSQL cannot store a NUL character in a text column, and refuses the whole statement
(SQLite stores it, and a name that holds one breaks the page's text).  A lone surrogate
(``\\ud800``, half of a UTF-16 pair, which JSON's escapes can spell) is no character at
all: it cannot be encoded as UTF-8, so the first database, log line or answer that meets it
fails.  Rather than check every field of every endpoint, one ASGI middleware looks at each
request's path, query string and body before any endpoint sees it, and answers 422 with
the code ``invalid_text`` for either anywhere in them; it also bounds the body, so no request makes
the server buffer more than ``max_body`` bytes (413, ``too_large``: by its Content-Length
before a byte of it is read, or as a body without one passes the bound).  The table's
WebSocket messages are checked the same way by ``wire.decode``.

>>> has_nul({"name": "a\\x00b"}), has_nul(["fine", {"k": 1}]), has_nul({"\\x00": 1})
(True, False, True)
>>> unstorable({"seats": ["human", "bot:a\\ud800b"]}) == SURROGATE_TEXT
True
>>> unstorable(["a whole pair: \\U0001f0a1", {"k": 1}]) is None
True
"""

from __future__ import annotations

import json
import re
from urllib.parse import unquote_to_bytes

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["MAX_BODY", "TextBorder", "has_nul", "unstorable"]


MAX_BODY = 16 * 1024
"""The largest request body read by default (``--max-body-bytes``): a table's rules, a
lesson's answer and an account's credentials are all far smaller, and no endpoint takes
an upload."""

NUL_TEXT = ("text with a NUL character (\\u0000) in it cannot be stored: remove it and "
            "send again")


SURROGATE_TEXT = ("text with a lone surrogate (\\ud800 to \\udfff, half of a UTF-16 pair) in "
                  "it is not text: send whole characters")

_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")

_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
"""A JSON escape that may spell a lone surrogate (a whole pair is two of them)."""

_SURROGATE_UTF8 = re.compile(rb"\xed[\xa0-\xbf]")
"""A surrogate encoded as if it were a character, which ``json.loads`` lets through."""


def has_nul(data: object) -> bool:
    """Whether a NUL character is in any string (or key) of plain JSON data."""
    stack: list[object] = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def unstorable(data: object) -> str | None:
    """Why a string (or key) of plain JSON data cannot be stored (a NUL or a lone
    surrogate in it), or None when every one can."""
    stack: list[object] = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found = _UNSTORABLE.search(item)
            if found:
                return NUL_TEXT if found.group() == "\x00" else SURROGATE_TEXT
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return None


def _body_unstorable(body: bytes) -> str | None:
    """A NUL in the body, raw, percent-encoded (a form) or escaped in a JSON string, or a
    lone surrogate in a JSON string; None when there is neither."""
    if b"\x00" in body:
        return NUL_TEXT
    if b"%00" in body and b"\x00" in unquote_to_bytes(body):
        return NUL_TEXT
    if (b"\\u0000" in body or _SURROGATE_ESCAPE.search(body)
            or _SURROGATE_UTF8.search(body)):
        try:
            return unstorable(json.loads(body))
        except (ValueError, RecursionError):
            return None  # not JSON: the endpoint says it cannot read it
    return None


class TextBorder:
    """ASGI middleware: refuse a NUL in a request's path, query or body (or a lone
    surrogate in its body: a path and a query are read with a replacement character for
    bytes that are not UTF-8), and a body over
    ``max_body`` bytes, before the app reads anything of it."""

    def __init__(self, app: ASGIApp, max_body: int = MAX_BODY) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        raw_path = scope.get("raw_path") or scope.get("path", "").encode("utf-8", "replace")
        query = scope.get("query_string", b"")
        if (b"\x00" in unquote_to_bytes(raw_path) or "\x00" in scope.get("path", "")
                or b"\x00" in unquote_to_bytes(query.replace(b"+", b" "))):
            await self._refuse(scope, receive, send, 422, "invalid_text", NUL_TEXT)
            return
        if kind == "websocket":
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.max_body:
            await self._refuse(scope, receive, send, 413, "too_large", self._too_large())
            return
        body = bytearray()
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            body.extend(message.get("body", b""))
            if len(body) > self.max_body:
                await self._refuse(scope, receive, send, 413, "too_large", self._too_large())
                return
            more = message.get("more_body", False)
        why = _body_unstorable(bytes(body))
        if why is not None:
            await self._refuse(scope, receive, send, 422, "invalid_text", why)
            return
        await self.app(scope, _replay(bytes(body), receive), send)

    def _too_large(self) -> str:
        return (f"the request's body is too large: at most {self.max_body} bytes are read")

    @staticmethod
    async def _refuse(scope: Scope, receive: Receive, send: Send, status: int, code: str,
                      reason: str) -> None:
        if scope["type"] == "websocket":
            await receive()  # the websocket.connect message
            await send({"type": "websocket.close", "code": 1008, "reason": code})
            return
        body = json.dumps({"detail": reason, "code": code}).encode()
        await send({"type": "http.response.start", "status": status, "headers": [
            (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
            (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives the app the body read already, then the client's own."""
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed
