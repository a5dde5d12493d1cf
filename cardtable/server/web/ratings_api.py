"""Profiles and the leaderboard over HTTP (the counting is ``store.ratings``)."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, Field

from ..core.errors import Refused
from ..store.ratings import PROVISIONAL_OPPONENTS, VOUCHERS
from .services import Ratings

__all__ = ["router"]


class RatingPoint(BaseModel):
    at: str
    rating: int
    change: int
    table: str


class PoolRating(BaseModel):
    pool: str
    rating: int
    provisional: bool
    games: int
    wins: int
    opponents: int = Field(description="different accounts met in rated games of the pool "
                           f"that vouch for the rating, each having rated results against "
                           f"{VOUCHERS} other accounts not related to this player (a rating "
                           f"is provisional until {PROVISIONAL_OPPONENTS})")
    history: list[RatingPoint]


class GamesCount(BaseModel):
    played: int
    won: int


class RecentGame(BaseModel):
    table: str
    game: str
    pool: str
    seat: int
    result: str
    rated: bool
    at: str
    replay: str
    page: str


class BotRecord(BaseModel):
    bot: str
    wins: int
    losses: int
    draws: int


class Profile(BaseModel):
    id: str
    name: str
    kind: str
    username: str | None
    ratings: list[PoolRating]
    games: GamesCount
    recent: list[RecentGame]
    bots: list[BotRecord]


class BoardEntry(BaseModel):
    rank: int
    id: str
    name: str
    username: str | None
    rating: int
    provisional: bool
    games: int
    wins: int


class Leaderboard(BaseModel):
    pools: list[str]
    pool: str | None
    entries: list[BoardEntry]


router = APIRouter()


@router.get("/api/players/{name}", response_model=Profile,
            responses={404: {"description": "no such player"}})
async def profile(ratings: Ratings, name: str, request: Request) -> dict[str, object]:
    """A player's profile by username (any case) or id: ratings per pool with their
    history, games played and won, recent games with replay links, record against bots."""
    found = None
    if len(name) <= 40:
        found = await asyncio.to_thread(ratings.profile, name)
    if found is None:
        raise Refused(f"there is no player {name[:40]!r}", 404, "not_found")
    return found


@router.get("/api/leaderboard", response_model=Leaderboard,
            responses={422: {"description": "the request cannot be read"}})
async def leaderboard(ratings: Ratings, request: Request,
                      pool: str | None = Query(None, max_length=120),
                      limit: int = Query(50, ge=1, le=200),
                      offset: int = Query(0, ge=0, le=1_000_000)) -> dict[str, object]:
    """The established players of a pool by rating (a provisional rating is not ranked);
    ``pools`` names every pool (the first is shown when none is asked for)."""
    return await asyncio.to_thread(ratings.leaderboard, pool, limit,
                                   offset)

