"""What a live table's owner answers: a command typed by its answer.

Apart from ``commands`` (which name the table's parts) so that the table itself can say
who owns it (``LiveTable.dealer: Owner``) and mypy checks every ``ask`` against the
command's answer.
"""

from __future__ import annotations

from typing import Generic, Protocol, TypeVar

__all__ = ["Command", "Owner"]

R = TypeVar("R", covariant=True)
A = TypeVar("A")


class Command(Generic[R]):
    """A command whose answer is an ``R`` (``Owner.ask`` answers it, or raises the
    refusal the command raises: ``Refused``)."""

    __slots__ = ()


class Owner(Protocol):
    """A live table's one owner (``dealer.Dealer``)."""

    async def ask(self, command: Command[A]) -> A: ...
