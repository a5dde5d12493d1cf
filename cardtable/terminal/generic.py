"""The screen of a game that names no screen of its own: plain, but enough to play.

It draws what every view offers: whose turn it is, the table, the view's other fields one
a line, the last moves and the seat's hand; the moves are listed by number beneath it
(``Session.draw``).  A game gets a finer screen by naming a module in its ``GameSpec``.

>>> from rich.console import Console
>>> view = {"game": "snap", "players": 2, "seat": 0, "to_move": 0, "over": False,
...         "hand": ["A♠", "7♦"], "table": ["K♣"], "pile_sizes": [3, 5], "legal_moves": []}
>>> console = Console(width=60, color_system=None)
>>> with console.capture() as captured:
...     for part in screen(view, ["You", "Bot 2"], None):
...         console.print(part)
>>> print(captured.get().rstrip())
Game · You to play
Table: K♣
pile sizes: 3 5
You: A♠ 7♦   your turn
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from .text import cards_line, log_lines, move_text

__all__ = ["final", "screen"]

SHOWN_APART = frozenset({"game", "players", "seat", "to_move", "over", "hand", "table",
                         "legal_moves"})
"""View fields drawn in their own place (or, for the legal moves, by the session)."""


def _title(spec: Any) -> str:
    return getattr(spec, "title", None) or "Game"


def _is_scalar(value: Any) -> bool:
    return isinstance(value, str | bool | int | float)


def _value(value: Any) -> Text:
    """A field's value as short text: cards coloured, lists of lists split by bars."""
    if value is None:
        return Text("—", style="dim")
    if isinstance(value, str):
        return move_text(value)
    if _is_scalar(value):
        return Text(str(value))
    if isinstance(value, list | tuple):
        if all(isinstance(v, str) for v in value):
            return cards_line(list(value))
        if all(v is None or _is_scalar(v) for v in value):
            return Text(" ").join(_value(v) for v in value)
        if all(isinstance(v, list | tuple) for v in value):
            return Text(" | ").join(_value(v) for v in value)
    return Text(json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str))


def _field(name: str, value: Any) -> Text:
    return Text.assemble(f"{name.replace('_', ' ')}: ", _value(value))


def _fields(view: dict[str, Any]) -> list[RenderableType]:
    """The fields not drawn elsewhere: the short ones together on wrapping lines, each
    list on a line of its own; empty ones are left out."""
    short: list[Text] = []
    lines: list[RenderableType] = []
    for name, value in view.items():
        if name in SHOWN_APART or value is None or value == [] or value == {}:
            continue
        if _is_scalar(value):
            short.append(_field(name, value))
        else:
            line = _field(name, value)
            line.no_wrap = True
            line.overflow = "ellipsis"
            lines.append(line)
    return ([Text(" · ").join(short)] if short else []) + lines


def screen(view: dict[str, Any], names: Sequence[str], spec: Any, *,
           log: Sequence[tuple[Any, ...]] = (), rules: Any = None) -> list[RenderableType]:
    """The screen for one seat (or a spectator): the title and whose turn, the table, the
    view's other fields, the moves given (since the seat's last turn) and its hand."""
    to_move = view.get("to_move")
    head = Text(_title(spec), style="bold")
    if view.get("over") or to_move is None:
        head.append(" · over")
    else:
        head.append(f" · {names[to_move]} to play")
    out: list[RenderableType] = [head]
    if "table" in view:
        table = view["table"]
        if isinstance(table, list) and all(isinstance(c, str) for c in table):
            out.append(Text.assemble(("Table: ", "bold"), cards_line(table, empty="(empty)")))
        else:
            out.append(Text.assemble(("Table: ", "bold"), _value(table)))
    out.extend(_fields(view))
    out.extend(log_lines(log, names))
    me = view.get("seat")
    if view.get("hand") is not None and me is not None:
        mine = Text.assemble((f"{names[me]}: ", "bold"), cards_line(view["hand"]))
        if to_move == me and not view.get("over"):
            mine.append("   your turn", style="yellow")
        out.append(mine)
    return out


def final(view: dict[str, Any], names: Sequence[str], spec: Any) -> RenderableType:
    """The end of the game: the finished view's fields, which say how it came out."""
    return Group(Text(f"{_title(spec)}: the game is over.", style="bold"), *_fields(view))
