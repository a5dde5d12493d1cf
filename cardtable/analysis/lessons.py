"""Lessons: a course per game, each step an explicit position and the move to find.

A step is a position built with the game's ``from_position`` (plus moves played before
the learner's turn), a short text, the move or moves that make the step's point, and the
words a wrong move gets: an illegal move gets the engine's own reason, a legal move that
misses the point gets the step's ``miss`` text (or a reason for that very move).  The
courses themselves are the games' (``pasur/lessons.py``, ``durak/lessons.py``), reached
through their ``learn`` plug-ins; texts are in English, Russian, Portuguese and Persian.

Progress is a small JSON file: ``$CARDTABLE_HOME/progress.json``, else
``$XDG_DATA_HOME/cardtable/progress.json``, else ``~/.cardtable/progress.json``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..game import MOVE_ERRORS, GameState
from .search import learn_of

__all__ = ["LANGS", "Progress", "Step", "Verdict", "check", "course", "progress_path"]

LANGS = ("en", "ru", "pt", "fa")

_WORDS = {
    "en": {"illegal": "Not allowed: {reason}", "miss": "Legal, but not the point here: {why}",
           "right": "Right."},
    "ru": {"illegal": "Так нельзя: {reason}", "miss": "Так можно, но суть не в этом: {why}",
           "right": "Верно."},
    "pt": {"illegal": "Não é permitido: {reason}",
           "miss": "É permitido, mas não é o ponto aqui: {why}", "right": "Certo."},
    "fa": {"illegal": "مجاز نیست: {reason}", "miss": "مجاز است، ولی نکته این نیست: {why}",
           "right": "درست است."},
}


@dataclass(frozen=True)
class Step:
    """One step of a course: ``position()`` builds it afresh (the game's ``from_position``
    and the moves ``before`` the learner's turn); ``goals`` are the moves that make the
    point; texts are per language (``title``, ``text``, ``miss``; ``wrong`` per move)."""

    key: str
    title: Mapping[str, str]
    text: Mapping[str, str]
    build: Callable[[], GameState[Any]]
    goals: tuple[str, ...]
    miss: Mapping[str, str]
    before: tuple[str, ...] = ()
    wrong: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    def position(self) -> GameState[Any]:
        state = self.build()
        for move in self.before:
            state.push(move)
        return state

    def goal_moves(self, state: GameState[Any]) -> list[Any]:
        return [state.parse_move(text) for text in self.goals]


@dataclass(frozen=True)
class Verdict:
    """What a learner's move got: ``right``, and the words to show."""

    right: bool
    reason: str


def course(game: str) -> list[Step]:
    """The steps of a game's course, in order."""
    return [Step(**fields) for fields in learn_of(game).lessons()]


def check(step: Step, text: str, *, lang: str = "en") -> Verdict:
    """Judge the learner's move (its text) in ``step``'s position; nothing is changed."""
    words = _WORDS.get(lang, _WORDS["en"])
    state = step.position()
    try:
        move = state.parse_move(text)
        state.push(move)
    except MOVE_ERRORS as error:
        return Verdict(False, words["illegal"].format(reason=error))
    except ValueError as error:
        return Verdict(False, words["illegal"].format(reason=error))
    if move in step.goal_moves(step.position()):
        return Verdict(True, words["right"])
    special = step.wrong.get(str(move))
    why = _pick(special, lang) if special else _pick(step.miss, lang)
    return Verdict(False, words["miss"].format(why=why))


def _pick(texts: Mapping[str, str], lang: str) -> str:
    return texts.get(lang) or texts["en"]


def progress_path() -> Path:
    """Where the terminal keeps the learner's progress."""
    home = os.environ.get("CARDTABLE_HOME")
    if home:
        return Path(home) / "progress.json"
    xdg = os.environ.get("XDG_DATA_HOME")
    if xdg:
        return Path(xdg) / "cardtable" / "progress.json"
    return Path.home() / ".cardtable" / "progress.json"


class Progress:
    """The steps a learner has done, per game; kept as JSON (a damaged file starts over)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or progress_path()
        self.done: dict[str, list[str]] = {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            lessons = data.get("lessons", {}) if isinstance(data, dict) else {}
            self.done = {str(game): [str(key) for key in keys]
                         for game, keys in lessons.items() if isinstance(keys, list)}
        except (OSError, ValueError, AttributeError):
            self.done = {}

    def mark(self, game: str, key: str) -> None:
        keys = self.done.setdefault(game, [])
        if key not in keys:
            keys.append(key)
        self.save()

    def next_step(self, game: str, steps: list[Step]) -> int:
        """The index of the first step not done (``len(steps)`` when all are)."""
        done = set(self.done.get(game, []))
        return next((i for i, step in enumerate(steps) if step.key not in done), len(steps))

    def reset(self, game: str) -> None:
        self.done.pop(game, None)
        self.save()

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(json.dumps({"lessons": self.done}, ensure_ascii=False, indent=1),
                             encoding="utf-8")
