"""The school's HTTP API: lessons, puzzles, and the analysis of a finished game.

- ``GET /api/learn/{game}?lang=`` (the course's steps), ``GET /api/learn/{game}/{key}``
  (a step: its text and the learner's view of its position), ``POST
  /api/learn/{game}/{key}/check`` (``{"move", "lang"}``: right, or the reason in words)
- ``GET /api/learn/{game}/{key}/hint?lang=`` (the easy bot's move there, explained)
- ``GET /api/puzzles/{game}?daily=`` (a puzzle's position, without its answer), ``POST
  /api/puzzles/{id}/answer`` (``{"move"}``: right, the answer, every move's value)
- ``POST /api/tables/{id}/analysis`` (start analysing a finished game, 202) and ``GET
  /api/tables/{id}/analysis`` (``running`` with its progress, or ``done`` with every
  move's judgement, as ``cardtable analyse --json`` writes it)

Lessons and puzzles are small fixed work per request; a hint is a fixed small search, in
threads of this module's own (not the loop's default ones, which storage uses). An
analysis is cut into one job per move, run one at a time in the bot processes'
background worker (``BotWorkers.background``: niced, and a job starts only while the live
bots leave a core free), never in the server's own process; a live bot's move or a hint
never waits for it.  Each move's job has its own limit (``ANALYSIS_MOVE_LIMIT``); its
progress is kept while it runs, and its result is a file under the data folder, so a
finished analysis outlives the server process.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel, Field
from pydantic.config import JsonDict
from starlette.requests import HTTPConnection

from ... import games
from ...analysis import lessons as lessonlib
from ...analysis import puzzles as puzzlelib
from ..core.errors import Refused
from ..core.shapes import TableState, obj, whole
from ..play.analyses import Analyses
from ..play.guard import address_of
from ..store.progress import ProgressStore
from .accounts import current_player
from .deps import Asker, Live
from .errors import Responses
from .schemas import Problem
from .services import Progress, services_of

__all__ = ["router"]

log = logging.getLogger("cardtable.server")

LANG_SCHEMA: JsonDict = {"enum": list(lessonlib.LANGS)}
"""The languages, named in the schema (a lang outside them is refused ``bad_lang``)."""
LangQuery = Annotated[str, Query(max_length=4, json_schema_extra=LANG_SCHEMA)]


class MoveText(BaseModel):
    move: str = Field(max_length=80)
    lang: str = Field("en", max_length=4, json_schema_extra=LANG_SCHEMA)



def _lang(lang: str) -> str:
    if lang not in lessonlib.LANGS:
        raise Refused(f"lang is one of {', '.join(lessonlib.LANGS)}", 422, "bad_lang")
    return lang


def _course(game: str) -> list[lessonlib.Step]:
    try:
        return lessonlib.course(game)
    except ValueError as error:
        raise Refused(str(error), 404, "no_game") from None


def _step(game: str, key: str) -> lessonlib.Step:
    for step in _course(game):
        if step.key == key:
            return step
    raise Refused(f"the {game} course has no step {key!r}", 404, "no_step")


def _in_course_order(game: str, keys: set[str]) -> list[str]:
    """The done steps in their course's order; a key the course no longer has (a game
    gone, a step renamed) is left out."""
    if game not in games.names():
        return []
    return [step.key for step in lessonlib.course(game) if step.key in keys]


def _progress_of(request: Request) -> ProgressStore:
    """The lesson progress's store (built with the app's services)."""
    return services_of(request).progress


def _position_view(state: TableState, seat: int) -> dict[str, object]:
    from ...analysis import learn_of

    searched = learn_of(state).searched(state)
    return {"seat": seat, "view": searched.view(seat),
            "legal_moves": [str(m) for m in searched.legal_moves()]}


def _after(state: TableState, text: str) -> dict[str, object]:
    """The position after the move ``text`` (a legal one), as the seat that made it sees
    it: a lesson's right move, a puzzle's answer, played on the table."""
    from ...analysis import learn_of

    searched = learn_of(state).searched(state)
    seat = searched.to_move
    move = searched.parse_move(text)
    searched.push(move)
    return {"seat": seat, "move": str(move), "to_move": searched.to_move,
            "view": searched.view(seat)}


ANSWERS: Responses = {
    status: {"model": Problem} for status in (404, 409, 422, 429, 500, 503)}
"""Every refusal of the school's endpoints, for the OpenAPI description."""


def analyses_of(connection: HTTPConnection) -> Analyses:
    """The app's analyses (``register`` made them)."""
    analyses: Analyses = connection.app.state.analyses
    return analyses


School = Annotated[Analyses, Depends(analyses_of)]
router = APIRouter(tags=["learn"])


# before /api/learn/{game}, which would take "progress" for a game's name
@router.get("/api/learn/progress", responses=ANSWERS)
async def progress(progress: Progress, request: Request,
                   game: str | None = Query(None, max_length=32)) -> dict[str, object]:
    """The steps the player asking (the session's guest or account) has done, per
    game; nothing for a request without a player."""
    if game is not None:
        _course(game)
    player = await current_player(request)
    if player is None:
        return {"player": None, "games": {}}
    done = await asyncio.to_thread(progress.done, player.id, game)
    return {"player": player.id, "games": {
        name: in_course for name, keys in done.items()
        if (in_course := _in_course_order(name, set(keys)))}}


@router.get("/api/learn/{game}", responses=ANSWERS)
async def course(game: str, lang: LangQuery = "en") -> dict[str, object]:
    """A game's course: every step's key, title and text."""
    lang = _lang(lang)
    return {"game": game, "steps": [
        {"key": s.key, "title": s.title.get(lang, s.title["en"]),
         "text": s.text.get(lang, s.text["en"])} for s in _course(game)]}


@router.get("/api/learn/{game}/{key}", responses=ANSWERS)
async def lesson_step(game: str, key: str,
                      lang: LangQuery = "en") -> dict[str, object]:
    lang = _lang(lang)
    step = _step(game, key)
    state = step.position()
    seat = state.to_move
    assert seat is not None, "a lesson step is a position with a move to find"
    return {"game": game, "key": key, "title": step.title.get(lang, step.title["en"]),
            "text": step.text.get(lang, step.text["en"]),
            **_position_view(state, seat)}


@router.post("/api/learn/{game}/{key}/check", responses=ANSWERS)
async def lesson_check(progress: Progress, game: str, key: str, body: MoveText,
                       request: Request) -> dict[str, object]:
    """Judge the learner's move; a right one is kept as done for the player asking
    (``done``: whether it was kept for someone), and ``after`` is the learner's view
    once it is played (the page shows the move taking effect)."""
    verdict = lessonlib.check(_step(game, key), body.move, lang=_lang(body.lang))
    kept = False
    if verdict.right:
        player = await current_player(request)
        if player is not None:
            await asyncio.to_thread(progress.mark, player.id, game, key)
            kept = True
    answer: dict[str, object] = {"right": verdict.right, "reason": verdict.reason,
                              "done": kept}
    if verdict.right:
        answer["after"] = _after(_step(game, key).position(), body.move)
    return answer


@router.get("/api/learn/{game}/{key}/hint", responses=ANSWERS)
async def lesson_hint(analyses: School, game: str, key: str,
                      lang: LangQuery = "en") -> dict[str, object]:
    """The easy bot's move in the step's position, explained (a fixed, small search,
    in a thread: the loop goes on)."""
    from ...analysis.hints import hint

    lang = _lang(lang)
    state = _step(game, key).position()
    given = await asyncio.get_running_loop().run_in_executor(
        analyses.threads, lambda: hint(state, "easy", lang=lang))
    return given.to_dict()


async def stored(analyses: Analyses, game: str | None = None) -> list[dict[str, object]]:
    """The shipped puzzles, then those found in the games analysed here."""
    if game is not None and game not in games.names():
        raise Refused(f"no game {game!r}; the games are: {', '.join(games.names())}",
                      404, "no_game")
    shipped = puzzlelib.load(game=game)
    ids = {p["id"] for p in shipped}
    return shipped + [p for p in await analyses.found_puzzles()
                      if (game is None or p["game"] == game) and p["id"] not in ids]


@router.get("/api/puzzles/{game}", responses=ANSWERS)
async def puzzle(analyses: School, game: str, daily: bool = False,
                 index: int = Query(0, ge=0, le=100_000)) -> dict[str, object]:
    """A puzzle's position (the daily one, or by index), without its answer."""
    found = await stored(analyses, game)
    if not found:
        raise Refused(f"no puzzles are stored for {game}", 404, "no_puzzle")
    # the daily puzzle comes from the shipped ones, so that it stays the same all day
    chosen = (puzzlelib.daily(puzzlelib.load(game=game) or found) if daily
              else found[index % len(found)])
    state = puzzlelib.position(chosen)
    return {"id": chosen["id"], "game": game, "count": len(found),
            "index": found.index(chosen),
            **_position_view(state, whole(chosen, "seat", 0))}


@router.post("/api/puzzles/{puzzle_id}/answer", responses=ANSWERS)
async def puzzle_answer(analyses: School, puzzle_id: str, body: MoveText) -> dict[str, object]:
    chosen = next((p for p in await stored(analyses) if p["id"] == puzzle_id), None)
    if chosen is None:
        raise Refused(f"no puzzle {puzzle_id!r}", 404, "no_puzzle")
    from ...analysis import learn_of

    lang = _lang(body.lang)
    learn = learn_of(chosen["game"])
    state = learn.searched(puzzlelib.position(chosen))
    try:
        move = state.parse_move(body.move)
    except ValueError as error:
        raise Refused(f"not a move here: {error}", 422, "bad_move") from None
    if move not in state.legal_moves():
        raise Refused(f"{move} is not a legal move here", 422, "bad_move")
    played = str(move)
    why = await asyncio.get_running_loop().run_in_executor(
        analyses.threads, puzzlelib.why, chosen, played, lang)
    values = obj(chosen["values"]) or {}
    return {"right": played == chosen["answer"], "answer": chosen["answer"],
            "values": chosen["values"], "unit": chosen["unit"], "proof": chosen["proof"],
            "shown": {m: learn.show(v) for m, v in values.items()},
            "after": _after(puzzlelib.position(chosen), str(chosen["answer"])), **why}


@router.post("/api/tables/{table_id}/analysis", status_code=202, responses=ANSWERS)
async def start_analysis(analyses: School, tables: Live, table_id: str, request: Request,
                         player: Asker) -> dict[str, object]:
    """Analyse a finished game: one under way at a time for an address or an account, two
    for everyone not signed in together (429 ``analysis_quota``, ``analysis_busy``)."""
    table = await tables.find(table_id)
    record = await tables.finished_record(table, "a game is analysed once it has ended")
    workers = tables.runner.pool()
    signed_in = player is not None and player.kind != "guest"
    asker = (f"account:{player.id}" if player is not None and signed_in
             else f"address:{address_of(request)}", signed_in)
    return {"status": await analyses.start(table_id, record.dumps(), workers, asker)}


@router.get("/api/tables/{table_id}/analysis", responses=ANSWERS)
async def analysis_status(analyses: School, table_id: str) -> dict[str, object]:
    if len(table_id) > 64 or not table_id.replace("-", "").replace("_", "").isalnum():
        raise Refused(f"no table {table_id!r}", 404, "not_found")
    return await analyses.status(table_id)
