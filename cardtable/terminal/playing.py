"""``cardtable play`` around the game itself: saving, continuing and playing again,
without ever losing a record.

A file is written over only when it holds nothing this game does not (the same game,
continued) or when the player has said yes; a game left before the player has moved
writes nothing; the save prompt takes a file name, or y / n.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..records import Record
from .output import output_path
from .prompt import ask_yes, yes_or_no

__all__ = ["continues", "may_write", "numbered", "plan_of", "save_game"]

SAVE_PROMPT = "Save this game? Type a file name (y: choose one, n or Enter: leave it): "


def continues(path: Path, record: Record) -> bool:
    """Whether the file at ``path`` holds a record that ``record`` continues: the same
    game and deal, its moves the first of ``record``'s, so that writing ``record`` over
    it loses nothing."""
    try:
        old = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return False
    if not isinstance(old, dict):
        return False
    moves = old.get("moves")
    return (old.get("game") == record.game and old.get("decks") == record.decks
            and old.get("players") == record.players
            and (old.get("setup") or {}) == (record.setup or {})
            and isinstance(moves, list) and record.moves[:len(moves)] == moves)


def may_write(path: Path, record: Record | None, *, read: Callable[[str], str] = input,
              say: Callable[[str], object] = print) -> bool:
    """Whether ``path`` may be written: it is new, it holds a record ``record``
    continues, or the player says yes to writing over it."""
    if not path.exists():
        return True
    if record is not None and continues(path, record):
        return True
    return ask_yes(f"{path} already exists: write over it?", read=read, say=say)


def numbered(path: Path, number: int) -> Path:
    """The file for the ``number``-th game of a sitting: ``game.json``, ``game-2.json``.

    >>> numbered(Path("g/durak.json"), 1), numbered(Path("g/durak.json"), 3)
    (PosixPath('g/durak.json'), PosixPath('g/durak-3.json'))
    """
    return path if number == 1 else path.with_name(f"{path.stem}-{number}{path.suffix}")


def plan_of(record: Record, seats: Sequence[str] = ()) -> list[str]:
    """Who sits where in a saved game: ``seats`` if given, else the record's own."""
    if seats:
        if len(seats) != record.players:
            raise ValueError(f"--seats lists {len(seats)} seats for the record's "
                             f"{record.players} players")
        plan = list(seats)
    else:
        plan = [str(seat.get("kind") or "") for seat in record.seats]
        if len(plan) != record.players or not all(plan):
            raise ValueError("the record does not say who sat where: give --seats, "
                             "e.g. --seats human,medium")
    if "human" not in plan:
        raise ValueError("no seat of the record is a human's: give --seats, "
                         "e.g. --seats human,medium")
    return plan


def save_game(record: Record, target: Path | None, console: Any, *,
              read: Callable[[str], str] = input, confirmed: Path | None = None) -> Path | None:
    """Write ``record`` to ``target`` (or where the player says); ask again after a bad
    name, and before writing over a file (unless it is ``confirmed`` or is continued).
    Returns where it was written, or None when the player leaves it unsaved."""
    def say(text: str) -> None:
        console.print(text, soft_wrap=True)

    while True:
        if target is None:
            try:
                answer = read(SAVE_PROMPT).strip()
                if yes_or_no(answer) is True:
                    answer = read("File name: ").strip()
            except (EOFError, KeyboardInterrupt):
                say("Not saved.")
                return None
            if not answer or yes_or_no(answer) is False:
                say("Not saved.")
                return None
            try:
                target = output_path(answer)
            except ValueError as error:
                say(f"Not saved: {error}.")
                continue
        if target != confirmed and not may_write(target, record, read=read, say=say):
            say(f"Left {target} as it was.")
            target = None
            continue
        try:
            record.save(target)
        except OSError as error:
            say(f"Not saved: cannot write {target} ({error.strerror or error}).")
            target = None
            continue
        say(f"Saved the game to {target}")
        return target
