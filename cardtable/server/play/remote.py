"""The commands a table answers from another process, as they travel between processes.

``Tables.ref(id).ask(command)`` asks the process that plays the table; when that is
another one, the command goes over Redis as ``cluster_messages.Ask`` (its name and its
fields) and its answer comes back as ``Reply``.  Only the commands here travel: each is
plain data, and each is checked against its types as it is read (a process never runs a
command it cannot read whole).

>>> name, fields = to_wire(ResignSeat(seat=1))
>>> name, fields
('ResignSeat', {'seat': 1})
>>> from_wire(name, fields)
ResignSeat(seat=1)
>>> from_wire("ResignSeat", {"seat": "one"})
Traceback (most recent call last):
...
ValueError: a 'ResignSeat' command that is not one
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from pydantic import TypeAdapter, ValidationError

from ..core.errors import Refused
from .commands import LeaveSeat, Rename, ResignSeat, SignOff
from .owner import Command

__all__ = ["CloseTable", "from_wire", "refusal_from_wire", "refusal_to_wire", "to_wire"]


@dataclass(frozen=True)
class CloseTable(Command[None]):
    """An admin closes the table: it ends at once, unrated, stored closed with the reason,
    its sockets closed (the process that plays it does it; ``Tables.close_table``)."""

    reason: str


TRAVEL: dict[str, type[Command[object]]] = {kind.__name__: kind for kind in (
    ResignSeat, LeaveSeat, Rename, SignOff, CloseTable)}
"""The commands another process may ask, by name."""
_CHECKS = {name: TypeAdapter(kind) for name, kind in TRAVEL.items()}


def to_wire(command: Command[object]) -> tuple[str, dict[str, object]]:
    """The command's name and fields (``ValueError`` for one that does not travel)."""
    name = type(command).__name__
    if name not in TRAVEL:
        raise ValueError(f"a {name} command is answered only where it is asked")
    return name, dataclasses.asdict(command)  # type: ignore[call-overload]


def from_wire(name: str, fields: dict[str, object]) -> Command[object]:
    """The command from its name and fields, checked (``ValueError`` if it is not one)."""
    check = _CHECKS.get(name)
    if check is None:
        raise ValueError(f"no command {name[:40]!r} travels between processes")
    try:
        command: Command[object] = check.validate_python(fields)
    except ValidationError:
        raise ValueError(f"a {name!r} command that is not one") from None
    return command


def refusal_to_wire(error: Refused) -> dict[str, object]:
    return {"reason": error.reason, "status": error.status, "code": error.code,
            "params": error.params}


def refusal_from_wire(data: dict[str, object]) -> Refused:
    """The refusal the owner raised, raised here alike (a malformed one: a 503)."""
    try:
        status, params = data["status"], data.get("params") or {}
        if not isinstance(status, int) or not isinstance(params, dict):
            raise TypeError("a refusal's status is a number, its parameters an object")
        return Refused(str(data["reason"]), status, str(data["code"]), params=params)
    except (KeyError, TypeError, ValueError):
        return Refused("the server process that plays this table answered what this one "
                       "cannot read; try again", 503, "table_elsewhere")
