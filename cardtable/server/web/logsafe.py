"""Secrets kept out of the server's log: seat tokens and quick-play tickets ride in URLs.

A seat's token is the WebSocket's ``?token=``, and a quick-play ticket (which hands out a
seat's token once matched) is the path ``/api/quick-play/{ticket}``; uvicorn logs both
URLs.  ``RedactSecrets`` is a ``logging.Filter`` that replaces their values with ``…`` in
a record's message and in each of its string arguments, keeping the arguments' number and
places: uvicorn's access formatter unpacks exactly five of them (client, method, path,
HTTP version, status), so a filter that folds them into the message makes every such line
a "--- Logging error ---" and its traceback instead.  ``redact_logs`` puts the filter on
uvicorn's loggers (``serve`` calls it).

>>> redact("GET /ws/tables/t1?seat=0&token=s3cr3t HTTP/1.1")
'GET /ws/tables/t1?seat=0&token=… HTTP/1.1'
>>> redact("/api/quick-play/Xy_-9?Ticket=a&%74oken=b")
'/api/quick-play/…?Ticket=…&%74oken=…'

``scrub`` hides more, for whole lines and tracebacks (the JSON log's ``web.jsonlog``): the
bound values of a database error (a password's hash, a token's), a cookie's value.

>>> scrub("[SQL: INSERT ...]\\n[parameters: ('h4sh', 'a]b')]\\nCookie: ct=abc; x=y")
'[SQL: INSERT ...]\\n[parameters: …]\\nCookie: …'
"""

from __future__ import annotations

import logging
import re
from urllib.parse import unquote_plus

__all__ = ["LOGGERS", "SECRET_PARAMS", "RedactSecrets", "redact", "redact_logs", "scrub"]

SECRET_PARAMS = frozenset({"token", "ticket", "password", "secret", "session",
                           "access_token", "api_token"})
"""Query names whose values are secrets (compared in lower case, percent-decoded as the
server reads them)."""

SECRET_PATHS = re.compile(r"(/api/quick-play/)[^/?#\s\"']+")
"""Paths whose last segment is a secret: a quick-play ticket."""

QUERY = re.compile(r"\?[^\s\"'#]*")
SQL_PARAMETERS = re.compile(r"\[parameters: [^\n]*")
"""SQLAlchemy's error text quotes the values bound to the statement (to the line's end)."""
COOKIES = re.compile(r"((?:set-)?cookie\s*[:=]\s*)[^\n]*", re.IGNORECASE)
HIDDEN = "…"

LOGGERS = ("uvicorn.access", "uvicorn.error", "uvicorn")
"""uvicorn's access log, and its error log (which logs each WebSocket's URL)."""


def redact(text: str) -> str:
    """``text`` with the values of secret query names, and ticket paths, hidden."""
    if "?" not in text and "/api/quick-play/" not in text:
        return text
    text = SECRET_PATHS.sub(lambda m: m.group(1) + HIDDEN, text)
    return QUERY.sub(lambda m: "?" + _redact_query(m.group(0)[1:]), text)


def scrub(text: str) -> str:
    """``redact``, then a database error's bound values and a cookie header's value."""
    text = redact(text)
    if "[parameters: " in text:
        text = SQL_PARAMETERS.sub("[parameters: …]", text)
    if "ookie" in text or "OOKIE" in text:
        text = COOKIES.sub(lambda m: m.group(1) + HIDDEN, text)
    return text


def _redact_query(query: str) -> str:
    pairs = re.split(r"([&;])", query)
    for index in range(0, len(pairs), 2):
        name, equals, _ = pairs[index].partition("=")
        if equals and unquote_plus(name).strip().lower() in SECRET_PARAMS:
            pairs[index] = f"{name}={HIDDEN}"
    return "".join(pairs)


class RedactSecrets(logging.Filter):
    """Hide secrets in a record's message and string arguments, leaving its shape alone."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        args = record.args
        if isinstance(args, tuple):
            record.args = tuple(_redacted(arg) for arg in args)
        elif isinstance(args, dict):
            record.args = {key: _redacted(value) for key, value in args.items()}
        return True


def _redacted(value: object) -> object:
    return redact(value) if isinstance(value, str) else value


def redact_logs() -> RedactSecrets:
    """Put one ``RedactSecrets`` on uvicorn's loggers (once, however often called)."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        for old in [f for f in logger.filters if isinstance(f, RedactSecrets)]:
            logger.removeFilter(old)
    chosen = RedactSecrets()
    for name in LOGGERS:
        logging.getLogger(name).addFilter(chosen)
    return chosen
