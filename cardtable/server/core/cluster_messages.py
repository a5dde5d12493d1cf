"""The messages between server processes (over Redis pub/sub), typed.

Each message is a small frozen dataclass; ``encode`` and ``decode`` are the one place
that turns them into the JSON objects on the wire, ``{"kind": KIND, ...fields}``.
A process that owns a table talks to the processes that relay its players:

>>> text = encode(Deliver(conn="c1", text="...", outbox_kind="error"))
>>> text
'{"kind": "deliver", "conn": "c1", "text": "...", "as": "error"}'
>>> decode(text)
Deliver(conn='c1', text='...', outbox_kind='error')
>>> decode('{"kind": "seats", "table": "t1"}')
Seats(table='t1')
>>> decode(encode(Handover(table="t1", origin="p2")))
Handover(table='t1', origin='p2')
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import ClassVar

from pydantic import TypeAdapter, ValidationError

__all__ = [
    "Anonymized",
    "Ask",
    "Bye",
    "ClusterMessage",
    "Deliver",
    "Gone",
    "HandedOver",
    "Handover",
    "Hello",
    "Intent",
    "Reply",
    "Seats",
    "SignedOff",
    "decode",
    "encode",
]


# -- owner to relay -------------------------------------------------------------------------
@dataclass(frozen=True)
class Deliver:
    """A message of the table for a player connected to the receiving process."""

    KIND: ClassVar[str] = "deliver"
    conn: str
    text: str
    outbox_kind: str = "state"
    """The outbox's kind of ``text`` ("state", "error", ...); on the wire: ``"as"``."""


@dataclass(frozen=True)
class Gone:
    """The owner will not (or no longer) serve this relayed player: close its socket."""

    KIND: ClassVar[str] = "gone"
    conn: str
    reason: str = "the table moved"


# -- relay to owner -------------------------------------------------------------------------
@dataclass(frozen=True)
class Hello:
    """A player connected to process ``origin``, at a table the receiving process owns."""

    KIND: ClassVar[str] = "hello"
    table: str
    conn: str
    origin: str
    seat: int | None = None
    speaker: str | None = None
    """The account a watcher is signed in as (``Connection.speaker``)."""


@dataclass(frozen=True)
class Intent:
    """A relayed player's WebSocket message, as the player sent it."""

    KIND: ClassVar[str] = "intent"
    table: str
    conn: str
    text: str


@dataclass(frozen=True)
class Bye:
    """A relayed player's socket closed."""

    KIND: ClassVar[str] = "bye"
    table: str
    conn: str


@dataclass(frozen=True)
class Seats:
    """Someone took a seat at this table through another process: read the seats again."""

    KIND: ClassVar[str] = "seats"
    table: str


@dataclass(frozen=True)
class SignedOff:
    """Every session of a player ended through another process (banned, signed out
    everywhere, deleted): each process closes their sockets at the tables it plays, at
    their seats and among the spectators (``commands.SignOff``). Sent to every process,
    since any of them may play the player's tables or hold a spectator's socket."""

    KIND: ClassVar[str] = "signed_off"
    player: str
    reason: str


# -- between would-be owner and owner -------------------------------------------------------
@dataclass(frozen=True)
class Handover:
    """The proxy sends this table's players to process ``origin`` (``route_by_table``):
    the owner stores what it acknowledged, gives up its lease, and answers ``HandedOver``."""

    KIND: ClassVar[str] = "handover"
    table: str
    origin: str


@dataclass(frozen=True)
class Anonymized:
    """An account was deleted through another process: its seats at every table held in
    memory, finished ones too, show the anonymous name its games keep."""

    KIND: ClassVar[str] = "anonymized"
    player: str
    name: str


@dataclass(frozen=True)
class Ask:
    """A command for a table the receiving process plays (``Tables.ref(id).ask``): the
    owner answers ``Reply`` to ``origin`` with the same ``id``.  ``command`` is the
    command's name and ``fields`` its fields (``play.remote`` reads them, checked)."""

    KIND: ClassVar[str] = "ask"
    id: str
    origin: str
    table: str
    command: str
    fields: dict[str, object]


@dataclass(frozen=True)
class Reply:
    """The answer to ``Ask`` ``id``: its ``answer``, or the refusal it raised
    (``refused``: reason, status, code and params, as ``core.errors.Refused`` has them)."""

    KIND: ClassVar[str] = "reply"
    id: str
    answer: object = None
    refused: dict[str, object] | None = None


@dataclass(frozen=True)
class HandedOver:
    """The answer to ``Handover``: the sender no longer owns the table (or never did)."""

    KIND: ClassVar[str] = "handed_over"
    table: str


ClusterMessage = (Deliver | Gone | Hello | Intent | Bye | Seats | SignedOff | Anonymized
                  | Ask | Reply | Handover | HandedOver)

_TYPES: dict[str, type[ClusterMessage]] = {
    kind.KIND: kind for kind in (Deliver, Gone, Hello, Intent, Bye, Seats, SignedOff,
                                 Anonymized, Ask, Reply, Handover, HandedOver)}
_CHECKS = {kind: TypeAdapter(kind) for kind in _TYPES.values()}
"""Each message's fields checked against its types as it is read."""
_WIRE_NAMES = {"outbox_kind": "as"}
"""Fields whose wire key is not their name (``as`` is a Python keyword)."""
_FIELD_NAMES = {wire: name for name, wire in _WIRE_NAMES.items()}


def encode(message: ClusterMessage) -> str:
    """The message as the JSON text published on a process's channel."""
    data: dict[str, object] = {"kind": message.KIND}
    for field in dataclasses.fields(message):
        data[_WIRE_NAMES.get(field.name, field.name)] = getattr(message, field.name)
    return json.dumps(data, ensure_ascii=False)


def decode(text: str | bytes) -> ClusterMessage:
    """A message from its JSON text, every field checked against its type; ``ValueError``
    for one no process sends.

    >>> decode('{"kind": "hello", "table": "t1", "conn": "c1", "origin": 7}')
    Traceback (most recent call last):
    ...
    ValueError: a 'hello' message that is not one: 1 field(s) wrong or missing
    """
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError(f"a message between processes is a JSON object, not {data!r}")
    kind = _TYPES.get(data.get("kind"))  # type: ignore[arg-type]
    if kind is None:
        raise ValueError(f"unknown message kind {data.get('kind')!r}")
    fields = {f.name for f in dataclasses.fields(kind)}
    values = {_FIELD_NAMES.get(key, key): value for key, value in data.items() if key != "kind"}
    try:
        message: ClusterMessage = _CHECKS[kind].validate_python(
            {name: value for name, value in values.items() if name in fields})
    except ValidationError as error:
        raise ValueError(f"a {kind.KIND!r} message that is not one: "
                         f"{error.error_count()} field(s) wrong or missing") from None
    return message
