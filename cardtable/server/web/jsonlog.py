"""The log as one line of JSON per event (``CARDTABLE_LOG_FORMAT=json``), each line with
its table and its request.

``RequestIds`` (ASGI middleware) gives every HTTP request and WebSocket an id (the
client's or the proxy's ``X-Request-ID`` when it is a short plain token, else a fresh
one), sends it back in the answer's ``X-Request-ID`` header, and keeps it and the table
the path names (``/api/tables/{id}...``, ``/ws/tables/{id}``) in context variables while
the request runs: what is logged meanwhile (uvicorn's access line, the dealer's messages,
the tasks the request starts) carries both.  ``JsonFormatter`` writes a record as one
JSON object; its text goes through ``logsafe.scrub`` first, so no seat token, ticket,
cookie or database value reaches the log, and it never writes a header or a body.  A
message that names its table first ("table %s: ...") gives that table.

>>> import logging
>>> record = logging.LogRecord("cardtable.server", logging.INFO, __file__, 1,
...                            "table %s: seat %d forfeits", ("t1", 0), None)
>>> line = json.loads(JsonFormatter().format(record))
>>> line["message"], line["table"], line["level"]
('table t1: seat 0 forfeits', 't1', 'info')
"""

from __future__ import annotations

import contextvars
import datetime as _dt
import json
import logging
import re
import secrets
import sys

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .logsafe import LOGGERS, scrub

__all__ = ["REQUEST", "TABLE", "JsonFormatter", "RequestIds", "json_logs"]

REQUEST: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "cardtable_request", default=None)
"""The id of the request (or WebSocket) being handled."""
TABLE: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "cardtable_table", default=None)
"""The table the request's path names."""

TABLE_PATH = re.compile(r"^/(?:api|ws)/tables/([A-Za-z0-9_-]{1,32})(?:/|$)")
GIVEN_ID = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")
"""An ``X-Request-ID`` taken as it is; anything else (long, odd characters) is replaced."""

ACCESS_FIELDS = ("client", "method", "path", "http", "status")
"""The five arguments of uvicorn's access line, in its order."""


class RequestIds:
    """Pure ASGI middleware: a request id and the table, for every line logged meanwhile."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        given = ""
        for name, value in scope.get("headers", ()):
            if name == b"x-request-id":
                given = value.decode("latin-1")
                break
        request = given if GIVEN_ID.match(given) else secrets.token_hex(8)
        found = TABLE_PATH.match(scope.get("path", ""))
        request_token = REQUEST.set(request)
        table_token = TABLE.set(found.group(1) if found else None)
        header = (b"x-request-id", request.encode())

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", ()), header]}
            await send(message)

        try:
            # a WebSocket's messages pass as they are: the header goes on HTTP answers only
            await self.app(scope, receive, sending if scope["type"] == "http" else send)
        finally:
            TABLE.reset(table_token)
            REQUEST.reset(request_token)


class JsonFormatter(logging.Formatter):
    """A record as one line of JSON: time (UTC), level, logger, message, table, request;
    uvicorn's access line also as its fields; an exception as its scrubbed traceback."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, object] = {
            "time": _dt.datetime.fromtimestamp(record.created, _dt.UTC).isoformat(
                timespec="milliseconds"),
            "level": record.levelname.lower(), "logger": record.name,
            "message": scrub(record.getMessage())}
        table = getattr(record, "table", None) or _named_table(record) or TABLE.get()
        request = getattr(record, "request", None) or REQUEST.get()
        if table:
            out["table"] = str(table)
        if request:
            out["request"] = str(request)
        if (record.name == "uvicorn.access" and isinstance(record.args, tuple)
                and len(record.args) == len(ACCESS_FIELDS)):
            for name, value in zip(ACCESS_FIELDS, record.args, strict=True):
                out[name] = value if isinstance(value, int) else scrub(str(value))
        if record.exc_info:
            out["error"] = scrub(self.formatException(record.exc_info))
        elif record.exc_text:
            out["error"] = scrub(record.exc_text)
        return json.dumps(out, ensure_ascii=False, default=str)


def _named_table(record: logging.LogRecord) -> str | None:
    """The table a message names first ("table %s: ..."), as the dealer's do."""
    if (isinstance(record.msg, str) and record.msg.startswith("table %s")
            and isinstance(record.args, tuple) and record.args
            and isinstance(record.args[0], str)):
        return record.args[0]
    return None


def json_logs() -> None:
    """Every handler of uvicorn's loggers writes JSON lines (``serve`` calls this once
    uvicorn has made them, before the server's own logger takes the same handlers)."""
    formatter = JsonFormatter()
    for name in LOGGERS:
        for handler in logging.getLogger(name).handlers:
            handler.setFormatter(formatter)
    # every other library's lines (psycopg's, a Python warning) reach the root logger,
    # which without a handler of its own writes them as bare text to stderr
    root = logging.getLogger()
    if not any(isinstance(h.formatter, JsonFormatter) for h in root.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(formatter)
        root.addHandler(handler)
        if root.level > logging.WARNING or root.level == logging.NOTSET:
            root.setLevel(logging.WARNING)
    logging.captureWarnings(True)
