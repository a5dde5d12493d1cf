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
import concurrent.futures
import contextlib
import functools
import logging
import os
import secrets
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Query, Request
from pydantic import BaseModel, Field
from starlette.requests import HTTPConnection

from ... import games
from ...analysis import lessons as lessonlib
from ...analysis import puzzles as puzzlelib
from ..core.errors import Refused
from ..play.bot_workers import BotFailed, BotWorkers, JudgeJob, PuzzleJob
from ..play.guard import address_of
from ..store.analyses import AnalysisStore
from ..store.progress import ProgressStore
from ..store.storage import Storage
from .accounts import current_player
from .deps import Asker, Live
from .schemas import Problem

__all__ = ["Analyses", "register"]

log = logging.getLogger("cardtable.server")

ANALYSIS_ITERATIONS = 800
"""The search's iterations per judged move in the server (the terminal's default is 1500)."""
ANALYSIS_NODES = 20_000
"""The exact solver's budget of positions per move in the server (past it, no hindsight
for that move): a bound on each analysis's work."""
MOST_WAITING = 4
"""Analyses under way at once in a process past which the next is refused (five at most)."""
EACH = 1
"""Analyses under way at once for one address, or one signed-in account."""
ANONYMOUS = 2
"""Analyses under way at once for everyone not signed in together: a flood from many
addresses leaves the rest of the queue to accounts."""


def _lease() -> float:
    """Seconds an analysis is held without a move judged; then another process may take
    it.  Longer than any move's job (bounded by ``ANALYSIS_MOVE_LIMIT``)."""
    return ANALYSIS_MOVE_LIMIT + 60.0
"""Analyses waiting for the worker at most; more are refused (429, ``analysis_busy``)."""
ANALYSIS_MOVE_LIMIT = 300.0
"""Seconds one move's judgement may work in the background process (a few seconds at
the server's budgets) before the process is killed and the analysis fails."""


class MoveText(BaseModel):
    move: str = Field(max_length=80)
    lang: str = Field("en", max_length=4)


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
    """The progress rows' store, on the app's storage (made again if the storage is)."""
    state = request.app.state
    store: ProgressStore | None = getattr(state, "progress_store", None)
    if store is None or store.storage is not state.storage:
        store = state.progress_store = ProgressStore(state.storage)
    return store


def _position_view(state: Any, seat: int) -> dict[str, Any]:
    from ...analysis import learn_of

    searched = learn_of(state).searched(state)
    return {"seat": seat, "view": searched.view(seat),
            "legal_moves": [str(m) for m in searched.legal_moves()]}


def _after(state: Any, text: str) -> dict[str, Any]:
    """The position after the move ``text`` (a legal one), as the seat that made it sees
    it: a lesson's right move, a puzzle's answer, played on the table."""
    from ...analysis import learn_of

    searched = learn_of(state).searched(state)
    seat = searched.to_move
    move = searched.parse_move(text)
    searched.push(move)
    return {"seat": seat, "move": str(move), "to_move": searched.to_move,
            "view": searched.view(seat)}


class Analyses:
    """Analyses of finished games, a job per move in the bot processes' background worker;
    results kept in the database (``analysis_store``), so any process serves them and one
    game is analysed once however many processes are asked."""

    def __init__(self, folder: Path, storage_of: Callable[[], Storage], *,
                 iterations: int = ANALYSIS_ITERATIONS, hindsight: bool = True) -> None:
        self.folder = folder
        """Where analyses were kept as files before the database: read in at start."""
        self.storage_of = storage_of
        self.iterations = iterations
        self.hindsight = hindsight
        self.owner = f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(3)}"
        """This process, as the analyses' rows name it."""
        self.running: dict[str, asyncio.Task[None]] = {}
        self.askers: dict[str, tuple[str, bool]] = {}
        """Who asked for each analysis under way here (an account, or an address) and
        whether they were signed in."""
        self.threads = concurrent.futures.ThreadPoolExecutor(2, thread_name_prefix="school")
        """Hints and the analyses' rows: never the loop's default threads, which are the
        storage's."""
        self._found: list[dict[str, Any]] | None = None
        """The puzzles found in analysed games, once read."""

    @property
    def store(self) -> AnalysisStore:
        return AnalysisStore(self.storage_of())

    async def _in_thread(self, call: Callable[[], Any]) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self.threads, call)

    async def import_folder(self) -> int:
        """The analyses an earlier version kept as files, read into the database (a
        failure is logged: the server starts without them)."""
        try:
            return int(await self._in_thread(lambda: self.store.import_folder(self.folder)))
        except Exception:
            log.exception("the analysis files in %s could not be read in", self.folder)
            return 0

    async def start(self, table_id: str, record_text: str, workers: BotWorkers,
                    asker: tuple[str, bool] = ("address:unknown", False)) -> str:
        """Start analysing (unless done or under way here or in another process) in
        ``workers``; what it is now.  ``asker``: who asks (``account:ID`` or
        ``address:ADDRESS``) and whether they are signed in, for the quotas."""
        job = self.running.get(table_id)
        if job is not None and not job.done():
            return "running"
        store = self.store
        try:
            self.check_quota(asker)
        except Refused:   # past a quota: still told of an analysis there is
            found = await self._in_thread(lambda: store.find(table_id))
            if found is not None and (found.status == "done" or found.live):
                return str(found.status)
            raise
        claim = await self._in_thread(lambda: store.claim(table_id, self.owner, _lease()))
        if claim != "mine":
            return str(claim)
        self.running[table_id] = asyncio.get_running_loop().create_task(
            self._analyse(table_id, record_text, workers))
        self.askers[table_id] = asker
        return "running"

    def check_quota(self, asker: tuple[str, bool]) -> None:
        """Refuse (429) an analysis past its asker's quota, the anonymous share or the
        process's cap; finished ones are forgotten here."""
        for table_id in list(self.askers):
            task = self.running.get(table_id)
            if task is None or task.done():
                self.askers.pop(table_id)
        under_way = list(self.askers.values())
        if sum(1 for who, _ in under_way if who == asker[0]) >= EACH:
            raise Refused("you already have an analysis under way: wait for it to end",
                          429, "analysis_quota", retry_after=30)
        if sum(1 for task in self.running.values() if not task.done()) > MOST_WAITING or (
                not asker[1] and sum(1 for _, signed in under_way if not signed) >= ANONYMOUS):
            raise Refused("too many analyses are waiting: try again in a minute", 429,
                          "analysis_busy", retry_after=60)

    def _jobs(self, record_text: str) -> tuple[Any, list[JudgeJob]]:
        """The record, and a job for each of its moves: the position before it, seeded
        as ``analyse_record`` seeds it (so the result is the same)."""
        from ... import records
        from ...analysis import smallest_iterations

        record = records.loads(record_text)
        state = record.start()
        # never fewer playouts than the judge needs for this game's widest position
        iterations = max(self.iterations, smallest_iterations(state, record.moves)[0])
        jobs = []
        for index, move in enumerate(record.moves, 1):
            if state.to_move is None:
                raise ValueError(f"move {index} ({move}) comes after the end of the game")
            jobs.append(JudgeJob(state.copy(), str(move), index, iterations, 0,
                                 self.hindsight, ANALYSIS_NODES))
            state.push(str(move))
        return record, jobs

    async def _analyse(self, table_id: str, record_text: str, workers: BotWorkers) -> None:
        """Judge the moves one by one in the background worker, then store the result; a
        failure is stored too, so every process tells it."""
        store = self.store
        try:
            await self._judge(store, table_id, record_text, workers)
        except asyncio.CancelledError:
            raise  # the app is stopping: the lease runs out and the next asker takes it
        except Exception as error:
            why = str(error) or type(error).__name__
            log.warning("table %s: the analysis failed: %s", table_id, why)
            with contextlib.suppress(Exception):
                await self._in_thread(lambda: store.fail(table_id, self.owner, why))
            raise

    async def _judge(self, store: AnalysisStore, table_id: str, record_text: str,
                     workers: BotWorkers) -> None:
        from ...analysis import learn_of

        record, jobs = await self._in_thread(lambda: self._jobs(record_text))
        learn = learn_of(record.game)
        judged = []
        await self._in_thread(lambda: store.progress(table_id, self.owner, 0, len(jobs), _lease()))
        for done, job in enumerate(jobs, 1):
            try:
                judged.append(await workers.background(job, ANALYSIS_MOVE_LIMIT))
            except (TimeoutError, BotFailed) as error:
                log.warning("table %s: the analysis stopped at move %d: %s", table_id,
                            job.index, error)
                raise
            await self._in_thread(functools.partial(
                store.progress, table_id, self.owner, done, len(jobs), _lease()))
        result = {"game": record.game, "unit": learn.unit, "thresholds": list(learn.thresholds),
                  "iterations": jobs[0].iterations if jobs else self.iterations, "seed": 0,
                  "moves": judged,
                  "series": _series(record, judged)}
        await self._in_thread(lambda: store.finish(table_id, self.owner, result))
        if self.hindsight:
            await self._find_puzzles(table_id, record_text, workers)

    async def _find_puzzles(self, table_id: str, record_text: str,
                            workers: BotWorkers) -> None:
        """The game's puzzles (positions with one move proved clearly best), found in the
        background worker after its analysis and kept beside it: players' games feed the
        puzzle pages.  A game whose search runs past the limit gives none."""
        try:
            found = await workers.background(PuzzleJob(record_text, ANALYSIS_NODES),
                                             ANALYSIS_MOVE_LIMIT)
        except (TimeoutError, BotFailed) as error:
            log.warning("table %s: no puzzles looked for: %s", table_id, error)
            return
        store = self.store
        await self._in_thread(lambda: store.keep_puzzles(table_id, found))
        known = {p["id"] for p in self._found or []}
        self._found = [*(self._found or []), *(p for p in found if p["id"] not in known)]

    async def found_puzzles(self) -> list[dict[str, Any]]:
        """The puzzles found in the games analysed (read from the database once)."""
        if self._found is None:
            store = self.store
            self._found = await self._in_thread(store.all_puzzles)
        return self._found

    async def status(self, table_id: str) -> dict[str, Any]:
        store = self.store
        found = await self._in_thread(lambda: store.find(table_id))
        task = self.running.get(table_id)
        if task is not None and task.done():
            self.running.pop(table_id, None)
        if found is None:
            raise Refused("this game has not been analysed: POST to start", 404,
                          "no_analysis")
        if found.status == "done":
            return {"status": "done", "analysis": found.result}
        if found.status == "failed" or not found.live:
            why = found.why or "the process analysing it stopped"
            raise Refused(f"the analysis failed: {why}; POST to start it again", 500,
                          "analysis_failed")
        return {"status": "running", "done": found.judged, "total": found.total}

    def close(self) -> None:
        """Stop the analyses and the threads; an app started again (its lifespan entered
        anew, as tests do) gets fresh threads (an executor makes them on first use)."""
        for task in self.running.values():
            task.cancel()
        self.running.clear()
        self.threads.shutdown(wait=False, cancel_futures=True)
        self.threads = concurrent.futures.ThreadPoolExecutor(2, thread_name_prefix="school")


def _series(record: Any, judged: list[dict[str, Any]]) -> dict[str, list[float]]:
    """Each seat's expected result over the game (``cardtable.analysis.series``), for the
    analysis page's graph."""
    from ...analysis import Judgement, series
    from ...bots.ismcts import kit_of

    state = record.start()
    kit = kit_of(state)
    players = state.players
    sides = [kit.side_of(state, seat) for seat in range(players)]
    judgements = [Judgement(**j) for j in judged]
    return {str(seat): [round(v, 4) for v in series(record.game, judgements, seat, sides)]
            for seat in range(players)}


ANSWERS: dict[int | str, dict[str, Any]] = {
    status: {"model": Problem} for status in (404, 409, 422, 429, 500, 503)}
"""Every refusal of the school's endpoints, for the OpenAPI description."""


def register(app: FastAPI, data_dir: str | Path) -> Analyses:
    """Add the school's routes to ``app``; the analyses are kept under ``data_dir``."""
    app.state.analyses = analyses = Analyses(Path(data_dir) / "analysis",
                                             lambda: app.state.storage)
    app.include_router(router)
    return analyses


def analyses_of(connection: HTTPConnection) -> Analyses:
    """The app's analyses (``register`` made them)."""
    analyses: Analyses = connection.app.state.analyses
    return analyses


School = Annotated[Analyses, Depends(analyses_of)]
router = APIRouter(tags=["learn"])


# before /api/learn/{game}, which would take "progress" for a game's name
@router.get("/api/learn/progress", responses=ANSWERS)
async def progress(request: Request,
                   game: str | None = Query(None, max_length=32)) -> dict[str, Any]:
    """The steps the player asking (the session's guest or account) has done, per
    game; nothing for a request without a player."""
    if game is not None:
        _course(game)
    player = await current_player(request)
    if player is None:
        return {"player": None, "games": {}}
    done = await asyncio.to_thread(_progress_of(request).done, player.id, game)
    return {"player": player.id, "games": {
        name: in_course for name, keys in done.items()
        if (in_course := _in_course_order(name, set(keys)))}}


@router.get("/api/learn/{game}", responses=ANSWERS)
async def course(game: str, lang: str = Query("en", max_length=4)) -> dict[str, Any]:
    """A game's course: every step's key, title and text."""
    lang = _lang(lang)
    return {"game": game, "steps": [
        {"key": s.key, "title": s.title.get(lang, s.title["en"]),
         "text": s.text.get(lang, s.text["en"])} for s in _course(game)]}


@router.get("/api/learn/{game}/{key}", responses=ANSWERS)
async def lesson_step(game: str, key: str,
                      lang: str = Query("en", max_length=4)) -> dict[str, Any]:
    lang = _lang(lang)
    step = _step(game, key)
    state = step.position()
    seat = state.to_move
    assert seat is not None, "a lesson step is a position with a move to find"
    return {"game": game, "key": key, "title": step.title.get(lang, step.title["en"]),
            "text": step.text.get(lang, step.text["en"]),
            **_position_view(state, seat)}


@router.post("/api/learn/{game}/{key}/check", responses=ANSWERS)
async def lesson_check(game: str, key: str, body: MoveText,
                       request: Request) -> dict[str, Any]:
    """Judge the learner's move; a right one is kept as done for the player asking
    (``done``: whether it was kept for someone), and ``after`` is the learner's view
    once it is played (the page shows the move taking effect)."""
    verdict = lessonlib.check(_step(game, key), body.move, lang=_lang(body.lang))
    kept = False
    if verdict.right:
        player = await current_player(request)
        if player is not None:
            await asyncio.to_thread(_progress_of(request).mark, player.id, game, key)
            kept = True
    answer: dict[str, Any] = {"right": verdict.right, "reason": verdict.reason,
                              "done": kept}
    if verdict.right:
        answer["after"] = _after(_step(game, key).position(), body.move)
    return answer


@router.get("/api/learn/{game}/{key}/hint", responses=ANSWERS)
async def lesson_hint(analyses: School, game: str, key: str,
                      lang: str = Query("en", max_length=4)) -> dict[str, Any]:
    """The easy bot's move in the step's position, explained (a fixed, small search,
    in a thread: the loop goes on)."""
    from ...analysis.hints import hint

    lang = _lang(lang)
    state = _step(game, key).position()
    given = await asyncio.get_running_loop().run_in_executor(
        analyses.threads, lambda: hint(state, "easy", lang=lang))
    return given.to_dict()


async def stored(analyses: Analyses, game: str | None = None) -> list[dict[str, Any]]:
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
                 index: int = Query(0, ge=0, le=100_000)) -> dict[str, Any]:
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
            **_position_view(state, chosen["seat"])}


@router.post("/api/puzzles/{puzzle_id}/answer", responses=ANSWERS)
async def puzzle_answer(analyses: School, puzzle_id: str, body: MoveText) -> dict[str, Any]:
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
    return {"right": played == chosen["answer"], "answer": chosen["answer"],
            "values": chosen["values"], "unit": chosen["unit"], "proof": chosen["proof"],
            "shown": {m: learn.show(v) for m, v in chosen["values"].items()},
            "after": _after(puzzlelib.position(chosen), chosen["answer"]), **why}


@router.post("/api/tables/{table_id}/analysis", status_code=202, responses=ANSWERS)
async def start_analysis(analyses: School, tables: Live, table_id: str, request: Request,
                         player: Asker) -> dict[str, Any]:
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
async def analysis_status(analyses: School, table_id: str) -> dict[str, Any]:
    if len(table_id) > 64 or not table_id.replace("-", "").replace("_", "").isalnum():
        raise Refused(f"no table {table_id!r}", 404, "not_found")
    return await analyses.status(table_id)
