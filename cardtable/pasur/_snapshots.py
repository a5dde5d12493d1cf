"""What ``Hand.push`` saves and ``Hand.pop`` restores: one named record per kind of move.

In the style of python-chess's board states: a record holds what the move changed, and
``restore`` puts it back.  Whether the move also dealt the next round or ended the hand,
``pop`` reads off the state (every hand full means it dealt; nobody to move, it ended).

``push`` fills a record's fields one by one on a fresh object: an ``__init__`` call would
cost a fifth of a random move.
"""

from __future__ import annotations

from typing import ClassVar, Protocol

from .moves import Move

__all__ = ["Capture", "Fields", "Snapshot", "Sur", "Trail"]


class Fields(Protocol):
    """The fields of a ``Hand`` that the records put back: described here, so that this
    module need not import ``hand`` (which holds the records)."""

    _held: list[bytes]
    _table: int
    _captured: list[int]
    _side: tuple[int, ...]
    _last: int | None
    _surs: list[int]


class Trail:
    """The undo record of a card left on the table."""

    __slots__ = ("held", "move", "seat", "table")
    sur: ClassVar[bool] = False

    move: Move
    seat: int
    """The seat that played."""
    held: bytes
    """Its cards before (``Hand._held``)."""
    table: int
    """The table before."""

    def restore(self, hand: Fields) -> None:
        hand._held[self.seat] = self.held
        hand._table = self.table


class Capture(Trail):
    """The undo record of a capture."""

    __slots__ = ("captured", "last")

    captured: int
    """The capturing side's pile before."""
    last: int | None
    """The last capturer before."""

    def restore(self, hand: Fields) -> None:
        seat = self.seat
        hand._held[seat] = self.held
        hand._table = self.table
        hand._captured[hand._side[seat]] = self.captured
        hand._last = self.last


class Sur(Capture):
    """The undo record of a capture that cleared the table and made a sur."""

    __slots__ = ()
    sur: ClassVar[bool] = True

    def restore(self, hand: Fields) -> None:
        Capture.restore(self, hand)
        hand._surs[hand._side[self.seat]] -= 1


Snapshot = Trail | Capture | Sur
