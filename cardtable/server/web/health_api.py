"""Whether this process can serve: its database, Redis and live tables; and its figures.

``/api/health`` tells people (and the page) what is up; ``/api/health/live`` answers as
long as the process's loop runs (restart it if not); ``/api/health/ready`` says whether to
send it players: the database and Redis answer now and the process is not draining
(``app.state.draining``, set while it stops).  ``/metrics`` is Prometheus' text format
(``metrics.Metrics``), kept out of the OpenAPI schema.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable
from typing import Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel
from sqlalchemy import text

from ... import __version__
from ..core.metrics import CONTENT_TYPE, Gauges
from ..play.tables import Tables
from ..store.storage import Storage, StorageUnavailable
from .deps import Live
from .schemas import Health

__all__ = ["Liveness", "Readiness", "router"]

router = APIRouter(tags=["health"])

CHECK_TIMEOUT = 3.0
"""Seconds the database or Redis has to answer a readiness check (a probe waits less
than it would for a hung connection)."""


class Liveness(BaseModel):
    """The process runs and its loop answers."""

    status: Literal["live"] = "live"
    version: str


class Readiness(BaseModel):
    """Whether to send this process players, and why not."""

    status: Literal["ready", "unready"]
    storage: Literal["ok", "down", "failing"]
    """``failing``: the database answers but stores nothing (its disk full, say)."""
    redis: Literal["ok", "down"] | None
    """``None``: one process, no Redis."""
    draining: bool
    problem: str | None = None
    """What is wrong with the database, in a few words (``None``: nothing)."""


@router.get("/api/health", response_model=Health, responses={
       503: {"model": Health,
             "description": "the database or Redis (several processes) cannot be reached"}})
async def health(request: Request, tables: Live) -> Health | JSONResponse:
    try:
        count: int | None = await asyncio.to_thread(tables.storage.table_count)
    except StorageUnavailable:
        count = None
    cluster = request.app.state.cluster
    answer = Health(status="ok" if count is not None else "unavailable",
                    version=__version__, tables=count,
                    live=sum(1 for t in tables.live.values() if not t.over),
                    broken=sorted(tables.broken),
                    process=cluster.process if cluster else None,
                    database="ok" if count is not None else "down",
                    redis=None if cluster is None else "ok")
    failing = tables.storage.outage.failing
    if count is None:
        answer.code = "storage_unavailable"
        answer.detail = "the database cannot be reached: requests are answered 503"
    elif failing is not None:
        answer.status, answer.database = "unavailable", "failing"
        answer.code = "storage_unavailable"
        answer.detail = (f"the database stores nothing ({failing}): moves and new tables "
                         f"are answered 503")
    if cluster is not None and cluster.problem is not None:
        answer.status, answer.redis = "unavailable", "down"
        answer.code = "cluster_unavailable"
        answer.detail = (f"Redis, which joins the server processes, cannot be reached "
                         f"({cluster.problem}): no table is played here until it is back")
    if answer.status != "ok":
        return JSONResponse(status_code=503, content=answer.model_dump())
    return answer


@router.get("/api/health/live", response_model=Liveness)
async def live() -> Liveness:
    return Liveness(version=__version__)


@router.get("/api/health/ready", response_model=Readiness, responses={
       503: {"model": Readiness, "description": "the database or Redis cannot be reached, "
                                                "or the process is draining"}})
async def ready(request: Request, tables: Live) -> Readiness | JSONResponse:
    answer = await _readiness(request, tables)
    if answer.status != "ready":
        return JSONResponse(status_code=503, content=answer.model_dump())
    return answer


@router.get("/metrics", include_in_schema=False)
async def metrics(request: Request, tables: Live) -> Response:
    answer = await _readiness(request, tables)
    cluster = request.app.state.cluster
    leases = relayed = 0
    if cluster is not None:
        at = time.monotonic()
        leases = sum(1 for until in list(cluster.owned.values()) if until > at)
        relayed = len(cluster.relayed)
    gauges = Gauges(live_tables=sum(1 for t in tables.live.values() if not t.over),
                    sockets=sum(tables.guard.sockets.values()),
                    storage_up=answer.storage == "ok",
                    storage_problem={"down": "unreachable", "failing": "cannot_store"}.get(
                        answer.storage),
                    redis_up=None if answer.redis is None else answer.redis == "ok",
                    leases=leases, relayed=relayed, draining=answer.draining)
    return Response(tables.metrics.render(gauges), media_type=CONTENT_TYPE)


async def _readiness(request: Request, tables: Tables) -> Readiness:
    storage_up = await _answers(asyncio.to_thread(_ping, tables.storage))
    failing = tables.storage.outage.failing
    cluster = request.app.state.cluster
    redis: Literal["ok", "down"] | None = None
    if cluster is not None:
        up = cluster.problem is None and await _answers(cluster.redis.ping())
        redis = "ok" if up else "down"
    draining = bool(getattr(request.app.state, "draining", False))
    good = storage_up and failing is None and redis != "down" and not draining
    storage: Literal["ok", "down", "failing"] = (
        "down" if not storage_up else "failing" if failing is not None else "ok")
    problem = tables.storage.outage.problem or (None if storage_up else
                                                "unreachable: it did not answer in time")
    return Readiness(status="ready" if good else "unready", storage=storage, redis=redis,
                     draining=draining, problem=problem)


async def _answers(call: Awaitable[object]) -> bool:
    """Whether ``call`` (a ping) answers in time without failing."""
    try:
        return bool(await asyncio.wait_for(call, CHECK_TIMEOUT))
    except Exception:
        return False


def _ping(storage: Storage) -> bool:
    with storage.engine.connect() as connection:
        connection.execute(text("SELECT 1"))
    return True
