"""The one refusal: a request that cannot be granted, with a stable ``code``, its
parameters and the HTTP status the web edge answers it with.

Every layer raises it; only ``web`` turns it into an answer (``web/errors.py``), and a
table's socket sends its code and parameters in an ``error`` message.

>>> error = Refused("every seat is taken", 409, "table_full")
>>> error.status, error.code, error.params
(409, 'table_full', {})
>>> Refused("no such table", 404, params={"table": "t1"}).code
'not_found'
"""

from __future__ import annotations

from typing import ClassVar

__all__ = ["ClusterUnavailable", "NotHere", "Refused"]


class NotHere(Exception):
    """The table is owned by another server process (see ``cluster``)."""

    def __init__(self, table_id: str, owner: str | None) -> None:
        super().__init__(f"table {table_id} is played by server process {owner}")
        self.table_id = table_id
        self.owner = owner


class Refused(ValueError):
    """A request that cannot be granted; ``status`` is the HTTP status and ``code`` a
    stable name for the kind of refusal (by default the status's own), ``params`` the
    code's parameters.

    The web edge answers every one the same way (``web.errors.body``:
    ``{"detail": reason, "code": code}`` and the parameters, with that status, and
    ``Retry-After`` when ``retry_after`` says when to try again).
    """

    CODES: ClassVar[dict[int, str]] = {
        404: "not_found", 405: "method_not_allowed", 409: "conflict", 422: "invalid_request",
        429: "rate_limited", 500: "server_error", 503: "unavailable"}

    def __init__(self, reason: str, status: int = 409, code: str | None = None, *,
                 retry_after: float | None = None, params: dict[str, object] | None = None
                 ) -> None:
        super().__init__(reason)
        self.reason = reason
        self.status = status
        self.code = code or self.CODES.get(status, "refused")
        self.retry_after = retry_after
        self.params: dict[str, object] = dict(params or {})
        """The code's parameters (``cardtable.server.core.codes``), sent beside it."""


class ClusterUnavailable(Refused):
    """Redis, which joins the server processes, cannot be reached: nothing was done (503).

    A socket refused for it is closed with 1012, so the page connects again later.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason, 503, "cluster_unavailable")
