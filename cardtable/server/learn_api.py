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
analysis runs in a process of its own (niced, one at a time, a few waiting at most), never
in the server's loop or the threads storage uses; its progress and result are files under
the data folder, so a finished analysis outlives the server process.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import multiprocessing
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Query, Request
from pydantic import BaseModel, Field

from .. import games
from ..analysis import lessons as lessonlib
from ..analysis import puzzles as puzzlelib
from .lesson_progress import ProgressStore
from .live import TableError
from .players import current_player
from .schemas import Problem

__all__ = ["Analyses", "register"]

ANALYSIS_ITERATIONS = 800
"""The search's iterations per judged move in the server (the terminal's default is 1500)."""
ANALYSIS_NODES = 20_000
"""The exact solver's budget of positions per move in the server (past it, no hindsight
for that move): a bound on each analysis's work."""
MOST_WAITING = 4
"""Analyses waiting for the worker at most; more are refused (429, ``analysis_busy``)."""


class MoveText(BaseModel):
    move: str = Field(max_length=80)
    lang: str = Field("en", max_length=4)


def _lang(lang: str) -> str:
    if lang not in lessonlib.LANGS:
        raise TableError(f"lang is one of {', '.join(lessonlib.LANGS)}", 422, "bad_lang")
    return lang


def _course(game: str) -> list[lessonlib.Step]:
    try:
        return lessonlib.course(game)
    except ValueError as error:
        raise TableError(str(error), 404, "no_game") from None


def _step(game: str, key: str) -> lessonlib.Step:
    for step in _course(game):
        if step.key == key:
            return step
    raise TableError(f"the {game} course has no step {key!r}", 404, "no_step")


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
    from ..analysis import learn_of

    searched = learn_of(state).searched(state)
    return {"seat": seat, "view": searched.view(seat),
            "legal_moves": [str(m) for m in searched.legal_moves()]}


def _after(step: lessonlib.Step, text: str) -> dict[str, Any]:
    """The step's position after the learner's (right) move, as the learner sees it."""
    from ..analysis import learn_of

    state = step.position()
    searched = learn_of(state).searched(state)
    seat = searched.to_move
    move = searched.parse_move(text)
    searched.push(move)
    return {"seat": seat, "move": str(move), "to_move": searched.to_move,
            "view": searched.view(seat)}


def _analyse_in_worker(record_text: str, folder: str, name: str, iterations: int,
                       hindsight: bool) -> None:
    """In the worker process: analyse, writing progress and then the result as files."""
    from .. import records
    from ..analysis import analyse_record, learn_of

    with contextlib.suppress(OSError):
        os.nice(10)
    record = records.loads(record_text)
    learn = learn_of(record.game)
    progress = Path(folder) / f"{name}.progress"

    def tell(done: int, total: int) -> None:
        progress.write_text(json.dumps({"done": done, "total": total}))

    judged = analyse_record(record, iterations=iterations, seed=0, hindsight=hindsight,
                            nodes=ANALYSIS_NODES, progress=tell)
    result = {"game": record.game, "unit": learn.unit, "thresholds": list(learn.thresholds),
              "iterations": iterations, "seed": 0, "moves": [j.to_dict() for j in judged]}
    final = Path(folder) / f"{name}.json"
    partial = final.with_suffix(".tmp")
    partial.write_text(json.dumps(result, ensure_ascii=False))
    partial.replace(final)
    progress.unlink(missing_ok=True)


class Analyses:
    """Analyses of finished games: one worker process, results kept as files."""

    def __init__(self, folder: Path, *, iterations: int = ANALYSIS_ITERATIONS,
                 hindsight: bool = True) -> None:
        self.folder = folder
        self.iterations = iterations
        self.hindsight = hindsight
        self.running: dict[str, concurrent.futures.Future[None]] = {}
        self.threads = concurrent.futures.ThreadPoolExecutor(2, thread_name_prefix="school")
        """Hints and the analyses' files: never the loop's default threads, which are the
        storage's."""
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None

    def _file(self, table_id: str, suffix: str) -> Path:
        return self.folder / f"{table_id}{suffix}"

    def start(self, table_id: str, record_text: str) -> str:
        """Start analysing (unless done or under way); what it is now."""
        if self._file(table_id, ".json").exists():
            return "done"
        job = self.running.get(table_id)
        if job is not None and not job.done():
            return "running"
        if sum(1 for f in self.running.values() if not f.done()) > MOST_WAITING:
            raise TableError("too many analyses are waiting: try again in a minute", 429,
                             "analysis_busy", retry_after=60)
        self.folder.mkdir(parents=True, exist_ok=True)
        if self._pool is None:
            self._pool = concurrent.futures.ProcessPoolExecutor(
                1, mp_context=multiprocessing.get_context("spawn"))
        self.running[table_id] = self._pool.submit(
            _analyse_in_worker, record_text, str(self.folder), table_id, self.iterations,
            self.hindsight)
        return "running"

    def status(self, table_id: str) -> dict[str, Any]:
        done = self._file(table_id, ".json")
        if done.exists():
            return {"status": "done", "analysis": json.loads(done.read_text())}
        job = self.running.get(table_id)
        if job is None:
            raise TableError("this game has not been analysed: POST to start", 404,
                             "no_analysis")
        if job.done() and job.exception() is not None:
            del self.running[table_id]
            raise TableError(f"the analysis failed: {job.exception()}", 500,
                             "analysis_failed")
        progress = self._file(table_id, ".progress")
        try:
            counts = json.loads(progress.read_text())
        except (OSError, ValueError):
            counts = {"done": 0, "total": None}
        return {"status": "running", **counts}

    def close(self) -> None:
        """Stop the threads and the worker; an app started again (its lifespan entered
        anew, as tests do) gets fresh ones (an executor makes its threads on first use)."""
        self.threads.shutdown(wait=False, cancel_futures=True)
        self.threads = concurrent.futures.ThreadPoolExecutor(2, thread_name_prefix="school")
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


ANSWERS: dict[int | str, dict[str, Any]] = {
    status: {"model": Problem} for status in (404, 409, 422, 429, 500, 503)}
"""Every refusal of the school's endpoints, for the OpenAPI description."""


def register(app: FastAPI, data_dir: str | Path,
             tables_of: Callable[[Request], Any]) -> Analyses:
    """Add the school's routes to ``app``; the analyses are kept under ``data_dir``."""
    analyses = Analyses(Path(data_dir) / "analysis")

    # before /api/learn/{game}, which would take "progress" for a game's name
    @app.get("/api/learn/progress", responses=ANSWERS)
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

    @app.get("/api/learn/{game}", responses=ANSWERS)
    async def course(game: str, lang: str = Query("en", max_length=4)) -> dict[str, Any]:
        """A game's course: every step's key, title and text."""
        lang = _lang(lang)
        return {"game": game, "steps": [
            {"key": s.key, "title": s.title.get(lang, s.title["en"]),
             "text": s.text.get(lang, s.text["en"])} for s in _course(game)]}

    @app.get("/api/learn/{game}/{key}", responses=ANSWERS)
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

    @app.post("/api/learn/{game}/{key}/check", responses=ANSWERS)
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
            answer["after"] = _after(_step(game, key), body.move)
        return answer

    @app.get("/api/learn/{game}/{key}/hint", responses=ANSWERS)
    async def lesson_hint(game: str, key: str,
                          lang: str = Query("en", max_length=4)) -> dict[str, Any]:
        """The easy bot's move in the step's position, explained (a fixed, small search,
        in a thread: the loop goes on)."""
        from ..analysis.hints import hint

        lang = _lang(lang)
        state = _step(game, key).position()
        given = await asyncio.get_running_loop().run_in_executor(
            analyses.threads, lambda: hint(state, "easy", lang=lang))
        return given.to_dict()

    def stored(game: str | None = None) -> list[dict[str, Any]]:
        if game is not None and game not in games.names():
            raise TableError(f"no game {game!r}; the games are: {', '.join(games.names())}",
                             404, "no_game")
        return puzzlelib.load(game=game)

    @app.get("/api/puzzles/{game}", responses=ANSWERS)
    async def puzzle(game: str, daily: bool = False,
                     index: int = Query(0, ge=0, le=100_000)) -> dict[str, Any]:
        """A puzzle's position (the daily one, or by index), without its answer."""
        found = stored(game)
        if not found:
            raise TableError(f"no puzzles are stored for {game}", 404, "no_puzzle")
        chosen = puzzlelib.daily(found) if daily else found[index % len(found)]
        state = puzzlelib.position(chosen)
        return {"id": chosen["id"], "game": game, "count": len(found),
                **_position_view(state, chosen["seat"])}

    @app.post("/api/puzzles/{puzzle_id}/answer", responses=ANSWERS)
    async def puzzle_answer(puzzle_id: str, body: MoveText) -> dict[str, Any]:
        chosen = next((p for p in stored() if p["id"] == puzzle_id), None)
        if chosen is None:
            raise TableError(f"no puzzle {puzzle_id!r}", 404, "no_puzzle")
        from ..analysis import learn_of

        state = learn_of(chosen["game"]).searched(puzzlelib.position(chosen))
        try:
            played = str(state.parse_move(body.move))
        except ValueError as error:
            raise TableError(f"not a move here: {error}", 422, "bad_move") from None
        return {"right": played == chosen["answer"], "answer": chosen["answer"],
                "values": chosen["values"], "unit": chosen["unit"], "proof": chosen["proof"]}

    @app.post("/api/tables/{table_id}/analysis", status_code=202, responses=ANSWERS)
    async def start_analysis(table_id: str, request: Request) -> dict[str, Any]:
        table = await tables_of(request).find(table_id)
        async with table.lock:
            if not table.over:
                raise TableError("the game is not over yet: a game is analysed once it has "
                                 "ended", 409, "not_over")
            record = table.record()
        status = await asyncio.get_running_loop().run_in_executor(
            analyses.threads, analyses.start, table_id, record.dumps())
        return {"status": status}

    @app.get("/api/tables/{table_id}/analysis", responses=ANSWERS)
    async def analysis_status(table_id: str) -> dict[str, Any]:
        if len(table_id) > 64 or not table_id.replace("-", "").replace("_", "").isalnum():
            raise TableError(f"no table {table_id!r}", 404, "not_found")
        return await asyncio.get_running_loop().run_in_executor(
            analyses.threads, analyses.status, table_id)

    return analyses
