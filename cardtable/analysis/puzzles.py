"""Puzzles: positions from finished games where one move is clearly best.

A position makes a puzzle when nothing is hidden from the seat to move (the last deal of
a 2-player Pasur hand, a Durak endgame with the stock empty) and the exact solver finds
exactly one move within ``margin`` of the best: every other move loses at least that much
(Pasur: points ahead; Durak: the chance of being the durak, so a margin of 1 is "the only
move that is not the durak").  With ``search=True`` a position still holding hidden cards
may make one too, when the search of the seat's information set puts one move ahead of
every other by the larger ``search_margin``.

A puzzle is stored as the game's record cut at the position (so it replays exactly), the
seat, the answer, every move's value and how it was proved; ``PUZZLES_FILE`` is a small set
made from bot games (``cardtable puzzle --make``), checked when made and by the tests.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .. import records
from ..bots.ismcts import kit_of
from ..game import GameState
from .search import hindsight_values, learn_of, values

__all__ = ["PUZZLES_FILE", "daily", "find", "load", "position", "unique", "why"]

PUZZLES_FILE = Path(__file__).with_name("puzzles.json")

PROOF_NODES = 100_000
"""The exact solver's budget of positions per puzzle proof (more than the analysis's
hindsight, ``HINDSIGHT_NODES``: a puzzle is looked for once and kept)."""


def unique(found: dict[str, float], margin: float, *,
           higher_is_better: bool = True) -> str | None:
    """The one move within ``margin`` of the best (values in the game's units), or
    ``None`` if two or more are.

    >>> unique({"a": 5.0, "b": 1.0}, 2.0), unique({"a": 5.0, "b": 4.0}, 2.0)
    ('a', None)
    >>> unique({"a": 0.0, "b": 1.0}, 0.5, higher_is_better=False)
    'a'
    """
    sign = 1.0 if higher_is_better else -1.0
    best = max(sign * value for value in found.values())
    close = [move for move, value in found.items() if sign * value > best - margin + 1e-9]
    return close[0] if len(close) == 1 else None


def _scored(state: GameState[Any], *, search: bool, iterations: int,
            seed: int, nodes: int) -> tuple[dict[str, float], str] | None:
    """Every move's value in the game's units (higher better) and how it was found."""
    learn = learn_of(state)
    position = learn.searched(state)
    seat = position.to_move
    if seat is None or len(position.legal_moves()) < 2:
        return None
    if kit_of(position).perfect(position, seat):
        exact = hindsight_values(state, nodes=nodes)
        if exact is not None:
            return {str(m): round(learn.expected(v), 4) for m, v in exact.items()}, "exact"
    if not search:
        return None
    found = values(state, iterations=iterations, seed=random.Random(seed))
    return {str(m): round(learn.expected(v), 4) for m, v in found.items()}, "search"


def find(record: records.Record, *, margin: float | None = None, search: bool = False,
         search_margin: float | None = None, iterations: int = 3000,
         seed: int = 0, choices: int = 3,
         nodes: int = PROOF_NODES) -> list[dict[str, Any]]:
    """The puzzles of one finished game (each a JSON-able dict), from positions with at
    least ``choices`` legal moves; a position the solver cannot settle within ``nodes``
    positions makes none."""
    learn = learn_of(record.game)
    margin = learn.puzzle_margin if margin is None else margin
    search_margin = learn.thresholds[2] * 2 if search_margin is None else search_margin
    out = []
    for index, _, state in record.states():
        if state.is_over():
            break
        if len(state.legal_moves()) < choices:
            continue
        scored = _scored(state, search=search, iterations=iterations, seed=seed + index,
                         nodes=nodes)
        if scored is None:
            continue
        found, proof = scored
        answer = unique(found, margin if proof == "exact" else search_margin,
                        higher_is_better=learn.higher_is_better)
        if answer is None:
            continue
        cut = records.record_of(state, record.game)   # the decks dealt so far, no more
        deal = hashlib.sha256(json.dumps(record.decks).encode()).hexdigest()[:8]
        out.append({"id": f"{record.game}-{deal}-{index}",
                    "game": record.game, "record": cut.to_dict(), "seat": state.to_move,
                    "answer": answer, "values": found, "proof": proof,
                    "margin": margin if proof == "exact" else search_margin,
                    "iterations": iterations if proof == "search" else None,
                    "seed": seed + index, "unit": learn.unit})
    return out


def position(puzzle: dict[str, Any]) -> GameState[Any]:
    """The puzzle's position, replayed from its record."""
    record = records.loads(json.dumps(puzzle["record"]))
    return record.replay(check=False)


def load(path: Path | None = None, game: str | None = None) -> list[dict[str, Any]]:
    """The stored puzzles (of one game if named)."""
    data = json.loads((path or PUZZLES_FILE).read_text(encoding="utf-8"))
    puzzles: list[dict[str, Any]] = data["puzzles"]
    return [p for p in puzzles if game is None or p["game"] == game]


def daily(puzzles: Sequence[dict[str, Any]], day: _dt.date | None = None) -> dict[str, Any]:
    """The puzzle of the day: the same for everyone on one date, a different one the next."""
    day = day or _dt.date.today()
    return puzzles[day.toordinal() % len(puzzles)]


def why(puzzle: dict[str, Any], played: str, lang: str = "en") -> dict[str, str]:
    """The answer's reason in words (``why``), and the played move's (``yours``) when it is
    another, each with the value the proof gave it (the game's ``learn.explain``).

    >>> first = load(game="durak")[0]
    >>> sorted(why(first, first["answer"]))
    ['why']
    """
    learn = learn_of(puzzle["game"])
    state = learn.searched(position(puzzle))
    legal = {str(move): move for move in state.legal_moves()}
    values = puzzle["values"]
    others = {legal[text]: value for text, value in values.items() if text in legal}

    def words(text: str) -> str:
        return str(learn.explain(state, legal[text], values[text], lang=lang, others=others))

    out = {"why": words(puzzle["answer"])}
    if played != puzzle["answer"] and played in legal and played in values:
        out["yours"] = words(played)
    return out
