"""Whether this process can serve: its database, Redis and live tables."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ... import __version__
from ..store.storage import StorageUnavailable
from .deps import Live
from .schemas import Health

__all__ = ["router"]

router = APIRouter(tags=["health"])


@router.get("/api/health", response_model=Health, responses={
       503: {"model": Health,
             "description": "the database or Redis (several processes) cannot be reached"}})
async def health(request: Request, tables: Live) -> Any:
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
    if count is None:
        answer.code = "storage_unavailable"
        answer.detail = "the database cannot be reached: requests are answered 503"
    if cluster is not None and cluster.problem is not None:
        answer.status, answer.redis = "unavailable", "down"
        answer.code = "cluster_unavailable"
        answer.detail = (f"Redis, which joins the server processes, cannot be reached "
                         f"({cluster.problem}): no table is played here until it is back")
    if answer.status != "ok":
        return JSONResponse(status_code=503, content=answer.model_dump())
    return answer
