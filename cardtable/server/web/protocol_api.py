"""The table socket's messages as JSON Schema (the models are ``core.protocol``)."""

from __future__ import annotations

from fastapi import APIRouter

from ..core.protocol import schema

__all__ = ["router"]

router = APIRouter()


@router.get("/api/protocol.json")
async def protocol_schema() -> dict[str, object]:
    """The table socket's messages, both ways, as JSON Schema."""
    return schema()
