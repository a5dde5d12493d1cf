"""``cardtable replay``: step through a recorded game in the terminal."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console, Group
from rich.text import Text

from ..game import GameState
from ..records import Record, RecordError, loads
from .prompt import line_editing
from .screens import screen_module
from .text import cards_line, move_text

KEYS = "Enter/n next · b back · j N jump to move N · e end · q quit"


FIELDS: dict[str, tuple[type | None, ...]] = {
    "format": (str,), "version": (int,), "game": (str,), "preset": (str, None),
    "rules": (dict,), "players": (int,), "setup": (dict, None), "seats": (list, None),
    "started": (str, None), "finished": (str, None), "result": (dict, None),
    "decks": (list,), "moves": (list,),
}
"""Each field of a record and the JSON types it may have (``None`` for null)."""


def _kind(kinds: tuple[type | None, ...]) -> str:
    words: dict[type | None, str] = {str: "text", int: "a whole number", dict: "an object",
                                     list: "a list", None: "null"}
    return " or ".join(words[k] for k in kinds)


def _fits(value: Any, kinds: tuple[type | None, ...]) -> bool:
    if value is None:
        return None in kinds
    if isinstance(value, bool):
        return False
    return any(k is not None and isinstance(value, k) for k in kinds)


def _line(text: str, needle: str) -> int | None:
    at = text.find(needle)
    return None if at < 0 else text.count("\n", 0, at) + 1


def check_types(text: str) -> None:
    """Refuse a record whose fields have the wrong JSON types, with the line and why,
    before it is dealt (``cardtable replay`` and ``replay --check``).

    >>> check_types('{"players": "2", "moves": []}')
    Traceback (most recent call last):
    ...
    cardtable.records.RecordError: line 1: "players" must be a whole number, not '2'
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return                      # loads says where the JSON breaks
    if not isinstance(data, dict):
        return
    for key, kinds in FIELDS.items():
        if key in data and not _fits(data[key], kinds):
            raise RecordError(f"\"{key}\" must be {_kind(kinds)}, not {data[key]!r:.40}",
                              _line(text, f'"{key}"'))
    for key, label in (("moves", "move"), ("decks", "deck")):
        for number, item in enumerate(data.get(key) or [], 1):
            kind = str if key == "moves" else list
            if not isinstance(item, kind):
                raise RecordError(f"{label} {number} must be {_kind((kind,))}, "
                                  f"not {item!r:.40}", _line(text, f'"{key}"'))
            if key == "decks" and not all(isinstance(card, str) for card in item):
                raise RecordError(f"deck {number} must list its cards as text",
                                  _line(text, '"decks"'))
    for number, seat in enumerate(data.get("seats") or [], 1):
        if not isinstance(seat, dict) or not all(
                isinstance(seat.get(k, ""), str) for k in ("name", "kind")):
            raise RecordError(f"seat {number} must be an object with a text name and kind",
                              _line(text, '"seats"'))


def read_record(path: str | Path) -> Record:
    """A record file, refused in one reason (``RecordError``) if it is not UTF-8, not
    JSON, or has fields of the wrong types."""
    try:
        data = Path(path).expanduser().read_bytes()
    except IsADirectoryError:
        raise RecordError("is a folder, not a game record") from None
    except OSError as error:
        raise RecordError(error.strerror or str(error)) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RecordError(f"not a game record: byte {error.start} is not UTF-8 text") from None
    check_types(text)
    return loads(text)


def replay(record: Record, *, console: Console | None = None,
           read: Callable[[str], str] | None = None) -> int:
    """Show the record move by move; returns the index of the last move shown."""
    console = console or Console()
    if read is None:
        line_editing()
        read = input
    states = [state.copy() for _, _, state in record.states()]
    module = screen_module(record.spec)
    names = record.names()
    log = [(_mover(states[i]), text) for i, text in enumerate(record.moves)]
    narrate = getattr(module, "narrate", None)
    if narrate is not None:     # every move told in the game's words, with what it caused
        log = [(seat, *narrate(states[i].view(None), states[i + 1], seat, text, names))
               for i, (seat, text) in enumerate(log)]
    at = 0
    note: Text | None = None
    while True:
        state = states[at]
        parts = module.screen(state.view(None), names, record.spec,
                              log=log[max(0, at - 3):at], rules=state.rules)
        for seat in range(record.players):
            hand = state.view(seat).get("hand") or []
            verb = "hold" if names[seat] == "You" else "holds"
            parts.append(Text.assemble(f"  {names[seat]} {verb} ", cards_line(hand)))
        if at:
            seat, text = log[at - 1][:2]
            parts.append(Text.assemble(f"Move {at}/{len(states) - 1}: {names[seat]}: ",
                                       move_text(text)))
        else:
            opening = getattr(module, "opening", None)
            said = "; ".join(opening(state, names)) if opening else ""
            parts.append(Text(f"The deal. {len(states) - 1} moves follow."
                              + (f" {said}." if said else "")))
        if at == len(states) - 1 and state.is_over():
            parts.append(_final(module, states, names, record))
        parts.append(note if note is not None else Text(KEYS, style="dim"))
        note = None
        console.clear()
        console.print(Group(*parts))
        try:
            answer = read("> ").strip().lower()
        except EOFError:
            return at
        if answer in ("", "n", "next"):
            at = min(at + 1, len(states) - 1)
        elif answer in ("b", "back"):
            at = max(at - 1, 0)
        elif answer in ("e", "end"):
            at = len(states) - 1
        elif answer.startswith("j"):
            try:
                at = max(0, min(int(answer[1:].strip()), len(states) - 1))
            except ValueError:
                note = Text(f"Jump needs a move number, e.g. j 12. {KEYS}", style="red")
        elif answer in ("q", "quit"):
            return at
        else:
            note = Text(f"{answer!r} is not a replay command. {KEYS}", style="red")


def _final(module: Any, states: list[Any], names: list[str], record: Record) -> Any:
    """The end, with the finishing order where players go out one by one."""
    view = states[-1].view(None)
    out_seats = getattr(module, "finished_seats", None)
    if out_seats is None:
        return module.final(view, names, record.spec)
    order: list[int] = []
    for state in states:
        order.extend(seat for seat in out_seats(state.view(None)) if seat not in order)
    return module.final(view, names, record.spec, order=order)


def _mover(state: GameState) -> int:
    seat = state.to_move
    return seat if seat is not None else 0
