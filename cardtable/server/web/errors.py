"""Every refusal in one shape: ``{"detail": reason, "code": code}`` with its status, from
the tables' ``Refused``, the framework's own refusals, a database that is away and a
request that cannot be read."""

from __future__ import annotations

import math
import re
from typing import TypeAlias

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from ..core.errors import Refused
from ..store.storage import StorageUnavailable

__all__ = ["allowed", "body", "install"]


def allowed(request: Request) -> str:
    """The methods the request's path answers (its ``Allow`` on a 405), as the API's
    schema documents them: every operation of the path, not the first route the router
    happened to try (the page's files, which answer GET on any path, were named alone
    for a POST-only endpoint), a path's own operations before a template's it fits."""
    return ", ".join(sorted(documented(request) or {"GET", "HEAD"}))


def documented(request: Request) -> set[str]:
    """The methods the API's schema documents for the request's path (none: not one of
    the API's paths)."""
    app = request.app
    table: list[tuple[re.Pattern[str], int, set[str]]] | None = getattr(
        app.state, "allowed_methods", None)
    if table is None:
        table = []
        for template, operations in app.openapi().get("paths", {}).items():
            pattern = re.sub(r"\\\{[^/]+?\\\}", "[^/]+", re.escape(template))
            methods = {method.upper() for method in operations if method != "parameters"}
            if "GET" in methods:
                methods.add("HEAD")
            table.append((re.compile(pattern), template.count("{"), methods))
        app.state.allowed_methods = table
    path = request.url.path
    matching = [(fields, methods) for pattern, fields, methods in table
                if pattern.fullmatch(path)]
    # a path of its own (/api/quick-play/poll) before a template it also fits
    fewest = min((fields for fields, _ in matching), default=0)
    return set().union(*(methods for fields, methods in matching if fields == fewest))


def install(app: FastAPI) -> None:
    """Answer every refusal of ``app`` in the one shape."""

    @app.exception_handler(Refused)
    async def _refused(request: Request, error: Refused) -> JSONResponse:
        """Every refusal about a table, from any endpoint: its status, reason and code."""
        _count(request, error.code)
        headers = None
        if error.retry_after is not None:
            headers = {"Retry-After": str(math.ceil(error.retry_after))}
        return JSONResponse(status_code=error.status, headers=headers, content=body(error))

    @app.exception_handler(HTTPException)
    async def _http_refusal(request: Request, error: HTTPException) -> JSONResponse:
        """The framework's own refusals, in the same shape (a body that is not even text,
        which FastAPI answers 400, is an unreadable request like any other: 422)."""
        status, reason = error.status_code, str(error.detail)
        if status == 400:
            status, reason = 422, "the body cannot be read: send JSON, in UTF-8"
        if status == 404 and request.url.path.startswith("/api/"):
            methods = documented(request)
            if methods and request.method not in methods:
                # an endpoint asked with a method it does not answer (the page's files
                # answered the GET of a POST-only path): not missing, a wrong method
                status, reason = 405, "Method Not Allowed"
        code = Refused.CODES.get(status, "refused")
        _count(request, code)
        headers = dict(error.headers or {})
        if status == 405:
            headers["Allow"] = allowed(request)
        return JSONResponse(status_code=status, headers=headers or None, content={
            "detail": reason, "code": code})

    @app.exception_handler(StorageUnavailable)
    async def _unavailable(request: Request, error: StorageUnavailable) -> JSONResponse:
        """The database is away: 503, and when to try again (the outage is logged once)."""
        _count(request, error.code)
        return JSONResponse(status_code=503, headers={"Retry-After": "5"},
                            content={"detail": error.reason, "code": error.code})

    @app.exception_handler(RequestValidationError)
    async def _unreadable(request: Request, error: RequestValidationError) -> JSONResponse:
        _count(request, "invalid_request")
        reasons, errors = [], []
        for item in error.errors():
            where = ".".join(str(part) for part in item.get("loc", ()) if part != "body")
            reasons.append(f"{where}: {item.get('msg')}" if where else str(item.get("msg")))
            # not the input itself: it may be huge, or a NaN that JSON cannot carry
            errors.append({"loc": [str(part) for part in item.get("loc", ())],
                           "msg": str(item.get("msg")), "type": str(item.get("type"))})
        return JSONResponse(status_code=422, content={
            "detail": "; ".join(reasons) or "the request cannot be read",
            "code": "invalid_request", "errors": errors})


Responses: TypeAlias = dict[int | str, dict[str, object]]
"""What an endpoint may answer besides its own answer, as FastAPI's ``responses=`` takes it."""


def body(error: Refused) -> dict[str, object]:
    """A refusal's HTTP answer: the code's parameters, the reason and the code."""
    return {**error.params, "detail": error.reason, "code": error.code}


def _count(request: Request, code: str) -> None:
    """A refusal, counted for ``/metrics`` (once the app's tables are made)."""
    tables = getattr(request.app.state, "tables", None)
    if tables is not None:
        tables.metrics.refused(code)
