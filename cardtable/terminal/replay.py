"""``cardtable replay``: step through a recorded game in the terminal."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console, Group
from rich.text import Text

from ..records import Record
from . import cards_line, move_text, screen_module

KEYS = "Enter/n next · b back · j N jump to move N · e end · q quit"


def replay(record: Record, *, console: Console | None = None,
           read: Callable[[str], str] | None = None) -> int:
    """Show the record move by move; returns the index of the last move shown."""
    console = console or Console()
    read = read or input
    states = [state.copy() for _, _, state in record.states()]
    module = screen_module(record.spec)
    names = [seat.get("name", f"Seat {i + 1}") for i, seat in enumerate(record.seats)]
    names += [f"Seat {i + 1}" for i in range(len(names), record.players)]
    log = [(_mover(states[i]), text) for i, text in enumerate(record.moves)]
    at = 0
    while True:
        state = states[at]
        parts = module.screen(state.view(None), names, record.spec, log=log[:at])
        for seat in range(record.players):
            hand = state.view(seat).get("hand") or []
            parts.append(Text.assemble(f"  {names[seat]} holds ", cards_line(hand)))
        if at:
            seat, text = log[at - 1]
            parts.append(Text.assemble(f"Move {at}/{len(states) - 1}: {names[seat]} ",
                                       move_text(text)))
        else:
            parts.append(Text(f"The deal. {len(states) - 1} moves follow."))
        if at == len(states) - 1 and state.is_over():
            parts.append(module.final(state.view(None), names, record.spec))
        parts.append(Text(KEYS, style="dim"))
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
                console.print(Text("Jump needs a move number, e.g. j 12", style="red"))
        elif answer in ("q", "quit"):
            return at


def _mover(state) -> int:
    seat = state.to_move
    return seat if seat is not None else 0
