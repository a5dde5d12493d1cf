"""Tournaments over HTTP: made by any account, listed, read (standings, pairings, games),
joined, left, paused, started by their organiser and closed by an admin.  The director
(``play.tournaments``) does the rest: it starts them, seats the players and scores the
games as they end."""

from __future__ import annotations

import asyncio
import datetime as _dt
import functools
from collections import OrderedDict
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Query, Request, Response
from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, StrictBool, StrictInt
from starlette.requests import HTTPConnection

from ... import games
from ...records import rules_to_dict
from ..core.bounds import OutOfBounds, check_rules
from ..core.errors import Refused
from ..core.pairing import Standing, standings
from ..play.bot_runner import default_bot
from ..play.lifecycle import ratings_in_pool
from ..play.seating import plan_table
from ..play.tournaments import Director
from ..store.players import Player
from ..store.ratings import pool_of
from ..store.stamps import stamp, text_of
from ..store.tournaments import (
    ARENA,
    FINISHED,
    RUNNING,
    SWISS,
    UPCOMING,
    Results,
    TournamentRow,
    TournamentStore,
    Tourney,
    new_tournament_id,
)
from .deps import Asker, answers
from .moderation import ADMIN_REFUSALS, admin_asking
from .schemas import TimeControl, whole_numbers

__all__ = ["MAX_ENTRANTS", "OPEN_LIMIT", "router"]

router = APIRouter(tags=["tournaments"])

OPEN_LIMIT = 3
"""Tournaments an account may have upcoming or running at once."""
MAX_ENTRANTS = 500
"""Entrants a tournament takes."""
SHOWN_GAMES = 300
"""Games a tournament's answer lists (the latest): a long arena's history is bounded."""
LATEST_START = _dt.timedelta(days=30)
"""How far ahead a tournament may be set to start."""
FRESH_FOR = 0.5
"""Seconds a tournament's page (``GET /api/tournaments/{id}``) is answered from the copy
made for an earlier reader when nothing changed it through this process meanwhile: a
change another process made (its director's step, a player joining there) shows within
this."""
PAGES_KEPT = 64
"""Tournaments whose page a process keeps (the most recently made)."""


def director_of(connection: HTTPConnection) -> Director:
    director: Director = connection.app.state.director
    return director


Directing = Annotated[Director, Depends(director_of)]


class Pages:
    """Each tournament's page as JSON, made once a change and not once a reader: a live
    arena's standings are read by every entrant's page every few seconds (200 entrants,
    some 70 reads a second), and each reading read the whole tournament from the
    database and built its lines on the event loop, beside the moves and the director's
    steps.  A copy is answered while the director's count of the tournament's changes
    here (``Director.changes``: a step that scored or seated, a start, an entrant
    joining) is the one it was made at and it is younger than ``FRESH_FOR``; readers who
    come while a copy is being made wait for that one."""

    def __init__(self, director: Director) -> None:
        self.director = director
        self._kept: OrderedDict[str, tuple[int, float, bytes]] = OrderedDict()
        self._making: dict[str, tuple[int, asyncio.Future[bytes]]] = {}

    async def page(self, tournament_id: str) -> bytes:
        clock = asyncio.get_running_loop()
        count = self.director.changes.get(tournament_id, 0)
        kept = self._kept.get(tournament_id)
        if kept is not None and kept[0] == count and clock.time() - kept[1] < FRESH_FOR:
            return kept[2]
        making = self._making.get(tournament_id)
        if making is None or making[0] != count:
            making = count, asyncio.ensure_future(self._make(tournament_id, count))
            self._making[tournament_id] = making
        return await asyncio.shield(making[1])

    async def _make(self, tournament_id: str, count: int) -> bytes:
        began = asyncio.get_running_loop().time()   # read after this: fresh from here
        try:
            page = (await _info(self.director.store, tournament_id)).model_dump_json()
        finally:
            if self._making.get(tournament_id, (None,))[0] == count:
                del self._making[tournament_id]
        body = page.encode()
        self._kept[tournament_id] = count, began, body
        self._kept.move_to_end(tournament_id)
        while len(self._kept) > PAGES_KEPT:
            self._kept.popitem(last=False)
        return body


def pages_of(connection: HTTPConnection) -> Pages:
    state = connection.app.state
    pages: Pages | None = getattr(state, "tournament_pages", None)
    if pages is None:
        pages = state.tournament_pages = Pages(director_of(connection))
    return pages


Showing = Annotated[Pages, Depends(pages_of)]


class CreateTournament(BaseModel):
    """A new tournament; its organiser is the account asking."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [
        {"game": games.names()[-1], "kind": "arena", "minutes": 30, "players": 2, "starts": None}]})

    name: str | None = Field(None, max_length=60, description="its title; none: one made")
    game: str = Field(max_length=32, description="a game name from GET /api/games")
    preset: str | None = Field(None, max_length=64, description="a preset; none: its default")
    options: dict[str, object] = Field(default_factory=dict,
                                       description="rule options changed from the preset")
    kind: Literal["arena", "swiss"] = Field(description="arena: for a time, seated again "
                                            "at once; swiss: a fixed number of rounds")
    minutes: StrictInt | None = Field(None, ge=5, le=24 * 60, description="an arena's length")
    rounds: StrictInt | None = Field(None, ge=1, le=30, description="a swiss's rounds")
    players: StrictInt | None = Field(None, ge=2, le=16, description="seats at each table; "
                                      "none: the game's default")
    _whole_numbers = whole_numbers("minutes", "rounds", "players")
    clock: TimeControl = Field(default_factory=lambda: TimeControl(move=20, bank=60),
                               description="every table's time control")
    rated: StrictBool = Field(True, description="its games count for ratings (those with a "
                              "bot in a seat never do); false: casual")
    starts: AwareDatetime | None = Field(None, description="when it starts by itself; none: "
                                         "when the organiser starts it (POST .../start)")
    bots: StrictBool = Field(False, description="an arena seats a lone waiting player with "
                             "bots when nobody else waits")


class Line(BaseModel):
    rank: int
    player: str
    name: str
    points: int
    games: int
    wins: int
    streak: int
    tiebreak: int = Field(description="swiss: Buchholz (the points of everyone met); "
                          "arena: points a game, in hundredths")
    paused: bool
    withdrawn: bool
    table: str | None = Field(description="the table they play at now")


class TournamentGame(BaseModel):
    table: str
    round: int
    players: list[str | None] = Field(description="the name at each seat (null: a bot)")
    status: str = Field(description="opening, playing, scored or void")
    results: Results | None = Field(None, description="each entrant's result and the "
                                    "points it gave, once scored")


class TournamentInfo(BaseModel):
    id: str
    name: str
    organiser: str
    game: str
    preset: str | None
    options: dict[str, object]
    kind: str
    minutes: int | None
    rounds: int | None
    players: int
    clock: dict[str, object]
    rated: bool
    bots: bool
    status: Literal["upcoming", "running", "finished"]
    created: str
    starts: str | None
    started: str | None
    ends: str | None
    finished: str | None
    round: int
    closed: str | None
    entrants: int
    standings: list[Line] = Field(default_factory=list)
    pairings: list[TournamentGame] = Field(
        default_factory=list, description="the tables in play now")
    games: list[TournamentGame] = Field(default_factory=list,
                                        description="its tables, the latest 300")


class TournamentListing(BaseModel):
    upcoming: list[TournamentInfo]
    running: list[TournamentInfo]
    finished: list[TournamentInfo]


class Entered(BaseModel):
    """A tournament a player entered, and how they did (the profile's history)."""

    tournament: TournamentInfo
    points: int
    games: int
    wins: int
    withdrawn: bool


class Closing(BaseModel):
    model_config = ConfigDict(extra="forbid")

    reason: str = Field("closed by an admin", max_length=200)


def store_of(connection: HTTPConnection) -> TournamentStore:
    return director_of(connection).store


def _text(moment: _dt.datetime | None) -> str | None:
    return None if moment is None else text_of(moment)


def summary_of(row: TournamentRow, entrants: int) -> TournamentInfo:
    return TournamentInfo(
        id=row.id, name=row.name, organiser=row.organiser, game=row.game, preset=row.preset,
        options=row.options, kind=row.kind, minutes=row.minutes, rounds=row.rounds,
        players=row.players, clock=row.clock, rated=bool(row.rated),
        bots=row.bots is not None, status=row.status,  # type: ignore[arg-type]
        created=text_of(row.created), starts=_text(row.starts), started=_text(row.started),
        ends=_text(row.ends), finished=_text(row.finished), round=row.round,
        closed=row.closed, entrants=entrants)


def info_of(t: Tourney) -> TournamentInfo:
    """The tournament whole: its standings (one line a player), tables and games."""
    names = {e.player_id: e.name for e in t.entrants}
    opponents: dict[str, list[str]] = {e.player_id: [] for e in t.entrants}
    for game in t.games:
        if game.status == "scored":
            seated = [p for p in game.players if p is not None]
            for player in seated:
                opponents.setdefault(player, []).extend(p for p in seated if p != player)
    ranked = standings([Standing(e.player_id, e.points, e.games, e.wins, e.rating,
                                 opponents=opponents.get(e.player_id, []))
                        for e in t.entrants], t.row.kind)
    by_id = {e.player_id: e for e in t.entrants}
    lines = [Line(rank=s.rank, player=s.player, name=names[s.player], points=s.points,
                  games=s.games, wins=s.wins, streak=by_id[s.player].streak,
                  tiebreak=s.tiebreak, paused=bool(by_id[s.player].paused),
                  withdrawn=bool(by_id[s.player].withdrawn), table=by_id[s.player].busy)
             for s in ranked]
    shown = [TournamentGame(table=g.table_id, round=g.round,
                            players=[names.get(p, "?") if p else None for p in g.players],
                            status=g.status, results=g.results) for g in t.games]
    info = summary_of(t.row, sum(1 for e in t.entrants if not e.withdrawn))
    info.standings = lines
    info.pairings = [g for g in shown if g.status in ("opening", "playing")]
    info.games = shown[-SHOWN_GAMES:]
    return info


def _account(player: Player | None) -> Player:
    if player is None or player.kind != "account":
        raise Refused("tournaments are for signed-in accounts: sign in or register", 409,
                      "account_only")
    return player


async def _info(store: TournamentStore, tournament_id: str) -> TournamentInfo:
    t = await asyncio.to_thread(functools.partial(store.load, tournament_id,
                                                  newest=SHOWN_GAMES))
    if t is None:
        raise Refused(f"there is no tournament {tournament_id[:40]!r}", 404, "not_found")
    return info_of(t)


@router.post("/api/tournaments", response_model=TournamentInfo, status_code=201,
             responses=answers(409, 422, 429, 503))
async def create_tournament(body: CreateTournament, request: Request, player: Asker,
                            director: Directing) -> TournamentInfo:
    """A new tournament, its organiser the account asking (at most ``OPEN_LIMIT`` of
    theirs not finished); the answer's ``id`` names it."""
    organiser = _account(player)
    settings = request.app.state.settings
    try:
        plan = plan_table(body.game, body.preset, body.options, body.players)
        check_rules(plan.rules, settings)
    except OutOfBounds as error:
        raise Refused(error.reason, 422, error.code, params=error.params) from None
    except (ValueError, KeyError) as error:
        raise Refused(str(error)[:300], 422, "invalid_request") from None
    if body.kind == ARENA and body.minutes is None:
        raise Refused('an arena needs its length in "minutes"', 422, "invalid_request")
    if body.kind == SWISS and body.rounds is None:
        raise Refused('a swiss needs its number of "rounds"', 422, "invalid_request")
    if body.kind == SWISS and body.bots:
        raise Refused("bots fill only an arena's tables", 422, "invalid_request")
    at = stamp()
    if body.starts is not None and not (at - _dt.timedelta(minutes=1) <= body.starts
                                        <= at + LATEST_START):
        raise Refused("a tournament starts within the next 30 days", 422, "invalid_request")
    row = TournamentRow(
        id=new_tournament_id(), name=body.name or f"{plan.spec.title} {body.kind}",
        organiser=organiser.id, game=plan.spec.name, preset=plan.preset,
        options=rules_to_dict(plan.rules), kind=body.kind,
        minutes=body.minutes if body.kind == ARENA else None,
        rounds=body.rounds if body.kind == SWISS else None, players=plan.players,
        clock=body.clock.model_dump(), rated=int(body.rated),
        bots=default_bot() if body.bots else None, status=UPCOMING, created=at,
        starts=body.starts, round=0)
    await asyncio.to_thread(director.store.create, row, OPEN_LIMIT)
    return await _info(director.store, row.id)


@router.get("/api/tournaments", response_model=TournamentListing, responses=answers(422))
async def list_tournaments(director: Directing,
                           limit: int = Query(20, ge=1, le=100)) -> TournamentListing:
    """Upcoming, running and finished tournaments (the newest ``limit`` of each)."""
    found = {}
    for status in (UPCOMING, RUNNING, FINISHED):
        rows = await asyncio.to_thread(director.store.listing, status, limit)
        found[status] = [summary_of(row, count) for row, count in rows]
    return TournamentListing(**found)


@router.get("/api/tournaments/{tournament_id}", response_model=TournamentInfo,
            responses=answers(404, 503))
async def tournament(tournament_id: str, pages: Showing) -> Response:
    """A tournament: its ``status``, ``standings`` (one line a player), pairings, games."""
    return Response(await pages.page(tournament_id), media_type="application/json")


@router.get("/api/players/{player_id}/tournaments", response_model=list[Entered],
            responses=answers(422))
async def history(player_id: str, director: Directing,
                  limit: int = Query(20, ge=1, le=100)) -> list[Entered]:
    """The tournaments a player (by id) entered, newest first."""
    if len(player_id) > 32:
        return []
    rows = await asyncio.to_thread(director.store.of_player, player_id, limit)
    return [Entered(tournament=summary_of(row, 0), points=e.points, games=e.games,
                    wins=e.wins, withdrawn=bool(e.withdrawn)) for row, e in rows]


@router.post("/api/tournaments/{tournament_id}/join", response_model=TournamentInfo,
             responses=answers(404, 409, 503))
async def join(tournament_id: str, player: Asker, director: Directing) -> TournamentInfo:
    """Enter a tournament, or come back to it after a pause or a withdrawal."""
    entrant = _account(player)
    store = director.store
    t = await asyncio.to_thread(store.load, tournament_id)
    if t is None:
        raise Refused(f"there is no tournament {tournament_id[:40]!r}", 404, "not_found")
    pool = pool_of(t.row.game, t.row.preset, t.row.players)
    rating = (await asyncio.to_thread(ratings_in_pool, store.storage, [entrant.id], pool)
              )[entrant.id]
    await asyncio.to_thread(store.join, tournament_id, entrant.id, entrant.name, rating,
                            MAX_ENTRANTS)
    director.changed(tournament_id)
    return await _info(store, tournament_id)


@router.post("/api/tournaments/{tournament_id}/withdraw", response_model=TournamentInfo,
             responses=answers(404, 409, 503))
async def withdraw(tournament_id: str, player: Asker, director: Directing) -> TournamentInfo:
    """Leave a tournament: no more tables; the points won stay in the standings."""
    await asyncio.to_thread(director.store.set_away, tournament_id, _account(player).id,
                            withdraw=True)
    director.changed(tournament_id)
    return await _info(director.store, tournament_id)


@router.post("/api/tournaments/{tournament_id}/pause", response_model=TournamentInfo,
             responses=answers(404, 409, 503))
async def pause(tournament_id: str, player: Asker, director: Directing) -> TournamentInfo:
    """Take a break: no new table until you join again (the one in play goes on)."""
    await asyncio.to_thread(director.store.set_away, tournament_id, _account(player).id,
                            withdraw=False)
    director.changed(tournament_id)
    return await _info(director.store, tournament_id)


@router.post("/api/tournaments/{tournament_id}/start", response_model=TournamentInfo,
             responses=answers(404, 409, 503))
async def start(tournament_id: str, player: Asker, director: Directing) -> TournamentInfo:
    """The organiser starts the tournament now."""
    organiser = _account(player)
    await director.start_now(tournament_id, by=organiser.id)
    await director.direct_if_owned(tournament_id)   # its first tables at once
    return await _info(director.store, tournament_id)


@router.post("/api/tournaments/{tournament_id}/close", response_model=TournamentInfo,
             responses={**ADMIN_REFUSALS, **answers(409, 422, 503)})
async def close(tournament_id: str, body: Closing, request: Request,
                director: Directing) -> TournamentInfo:
    """An admin closes a tournament: it is finished, its tables in play closed."""
    _, named = await admin_asking(request)
    t = await asyncio.to_thread(director.store.load, tournament_id)
    if t is None:
        raise Refused(f"there is no tournament {tournament_id[:40]!r}", 404, "not_found")
    if t.row.status == FINISHED:
        raise Refused("this tournament is over", 409, "tournament_over")
    await director.close(tournament_id, f"closed by an admin: {body.reason}")
    sanctions = request.app.state.services.sanctions
    await asyncio.to_thread(sanctions.record, named, "close_tournament", tournament_id,
                            {"reason": body.reason})
    return await _info(director.store, tournament_id)
