"""The table's WebSocket protocol, typed: every message the page sends and every message
the server sends is a pydantic model in one of two discriminated unions.

``ClientMessage`` is what ``wire.decode`` reads a page's text into (a refused message is a
``MessageError`` whose sentence says what was expected); ``ServerMessage`` is what the
server sends.  ``GET /api/protocol.json`` serves both as JSON Schema, and docs/server.md
names every message and field of them (a test keeps the two in step).

Every outgoing message is built as its model (``Outgoing``), so a field of the wrong type
fails where the message is made, and mypy checks every builder's fields; ``wire.encode``
writes it out.  A state is the hot path: built from the seats' and the last move's models
made once a broadcast, it costs about what the plain dict it replaced did
(benchmarks/paired_load.sh).

>>> from pydantic import TypeAdapter
>>> TypeAdapter(ClientMessage).validate_python({"type": "move", "version": 3, "move": "take"})
Move(type='move', version=3, move='take')
>>> sorted(CLIENT_TYPES)
['chat', 'chat_off', 'decline_rematch', 'hint', 'leave', 'move', 'ping', 'rematch', 'resign',
 'undo']
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Annotated, Literal, Union, get_args

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, TypeAdapter

__all__ = [
    "CLIENT_TYPES",
    "SERVER_TYPES",
    "ClientMessage",
    "Outgoing",
    "ServerMessage",
    "client_adapter",
    "schema",
    "server_adapter",
]

MAX_MOVE = 200
HINT_LANGS = ("en", "ru", "pt", "fa")
Lang = Literal["en", "ru", "pt", "fa"]


class _Client(BaseModel):
    """A page's message: fields past the ones named are ignored (a newer page may send
    more), a field of the wrong JSON type is refused, never coerced."""

    model_config = ConfigDict(extra="ignore", frozen=True)


class Move(_Client):
    """A move, as text, chosen at the table's ``version`` (a stale one is refused)."""

    type: Literal["move"]
    version: StrictInt = Field(description="the version of the state it was chosen in (an "
                               "older one is refused as stale)")
    move: StrictStr = Field(min_length=1, max_length=MAX_MOVE,
                            pattern=r"\S", description='one of the state\'s "legal_moves"')


class Rematch(_Client):
    """Offer a new game with the same seats, once the game is over, or accept the offer
    another seat made; the game is made when every person's seat has."""

    type: Literal["rematch"]


class DeclineRematch(_Client):
    """Say no to the rematch offered: the offer is withdrawn, and every seat is told."""

    type: Literal["decline_rematch"]


class Resign(_Client):
    """The seat's side loses; the game ends."""

    type: Literal["resign"]


class Leave(_Client):
    """Leave an unrated table: the takeover bot plays the seat on."""

    type: Literal["leave"]


class Hint(_Client):
    """At a table against bots only: the move a bot would play, worded in ``lang``."""

    type: Literal["hint"]
    lang: Lang = Field(default="en", description="the language the hint is worded in")


class Undo(_Client):
    """At a table against bots only: back to the seat's last decision."""

    type: Literal["undo"]


class Ping(_Client):
    """Answered with a pong (the page's keep-alive)."""

    type: Literal["ping"]


class Chat(_Client):
    """A chat line: free ``text`` (cleaned and bounded by ``cardtable.server.play.chat``) or a
    quick ``phrase`` by its key."""

    type: Literal["chat"]
    text: StrictStr | None = Field(default=None, description="what is said")
    phrase: StrictStr | None = Field(default=None, max_length=32,
                                     description="instead of text: a quick phrase's key")


class ChatOff(_Client):
    """The table's creator turns the players' chat off (or on again)."""

    type: Literal["chat_off"]
    off: StrictBool = Field(description="true: off; false: on again")


ClientMessage = Annotated[
    Union[Move, Rematch, DeclineRematch, Resign, Leave, Hint, Undo, Ping, Chat,  # noqa: UP007
          ChatOff],
    Field(discriminator="type")]
"""Every message a page may send on a table's socket."""


# -- server to page ---------------------------------------------------------------------------
class _Server(BaseModel):
    model_config = ConfigDict(extra="forbid")


class LastMove(BaseModel):
    model_config = ConfigDict(extra="forbid")
    index: int
    seat: int | None
    move: str
    takeover: bool = Field(default=False, description="a bot made it for the seat's "
                           "player (their time ran out, or they are away or gone); "
                           "present only then, and only live")


class SeatInfo(BaseModel):
    """A seat as every viewer sees it."""

    model_config = ConfigDict(extra="forbid")
    seat: int
    kind: Literal["human", "bot"]
    bot: str | None
    name: str | None
    taken: bool
    connected: bool
    bot_playing: bool = Field(description="a bot plays the human's seat (away, or taken over)")
    player: str | None = Field(description="the account or guest id sitting here")
    player_kind: str | None
    gone: Literal["forfeited", "left"] | None = Field(
        default=None, description="its player forfeited or left: a bot plays it to the end")


class ClockView(BaseModel):
    """The time control, each seat's bank, and the seat whose time runs."""

    model_config = ConfigDict(extra="forbid")
    move: float
    bank: float
    banks: list[float]
    timeouts: list[int] = Field(default_factory=list,
                                description="each seat's time-outs in a row: a bot moved for it")
    forfeit_after: int | None = Field(default=None,
                                      description="time-outs in a row that forfeit the seat")
    seat: int | None
    move_left: float | None
    bank_left: float | None
    days: int | None = None
    """Days a move (a correspondence clock: ``move`` is that many days, no bank)."""


class State(_Server):
    """What one seat (or a watcher) may know now; sent after every change.  ``view`` is the
    engine's ``view(seat)`` without the fields given beside it (``game``, ``seat``,
    ``to_move``, ``over``, ``legal_moves``): one shape, each fact in one place."""

    type: Literal["state"]
    table: str = Field(description="the table's id")
    game: str = Field(description="the game's name in cardtable.games")
    version: int = Field(description="the moves played (an undo lowers it)")
    status: Literal["waiting", "playing", "over"]
    over: bool
    to_move: int | None = Field(description="the seat to move; null: nobody (over)")
    seat: int | None = Field(description="the receiver's seat; null: watching")
    view: dict[str, object] = Field(description="the game's own view of the table from "
                                             "this seat (the engine's view, see docs)")
    legal_moves: list[str] = Field(description="the receiver's moves, when it is theirs "
                                               "to play; else empty")
    last_move: LastMove | None = Field(description="the move before this state, public "
                                                   "to all: {index, seat, move}")
    seats: list[SeatInfo] = Field(description="every seat: {seat, kind, bot, name, taken, "
                                              "connected, bot_playing, player, player_kind}")
    rated: bool | None = Field(default=None, description="the game counts for ratings")
    ratings: dict[str, int] | None = Field(default=None,
                                           description="each rated seat's rating, by seat")
    clock: ClockView | None = Field(default=None, description="a clocked table: {move, "
                                    "bank, banks, seat, move_left, bank_left}")
    undo: bool | None = Field(default=None, description="to a seat, while the game is "
                              "played: whether an undo would take back its last decision "
                              "now (only against bots; not before it has made one, nor "
                              "once cards were dealt or drawn since)")
    summary: dict[str, object] | None = Field(default=None, description="once over")
    rematch: str | None = Field(default=None, description="once over: the rematch's table")
    rematch_asked: list[int] | None = Field(
        default=None, description="once over, while a rematch is offered and not yet made: "
        "the seats that offered or accepted it (it is made when every person's seat has)")


class Error(_Server):
    """A refused message or request: ``code`` (cardtable.server.core.codes) and its parameters
    beside it, ``reason`` in English.  A refused move is followed by a fresh state."""

    model_config = ConfigDict(extra="allow")
    type: Literal["error"]
    reason: str = Field(description="what was wrong, in English")
    code: str = Field(description="a code of cardtable.server.core.codes; its parameters "
                                  "beside it")

    @classmethod
    def of(cls, reason: str, code: str, params: Mapping[str, object] | None = None) -> Error:
        """The error for ``code``, its parameters beside it (never in place of a field)."""
        return cls.model_validate({**(params or {}), "type": "error", "reason": reason,
                                   "code": code})


class RematchOffer(_Server):
    """The rematch's table is made: connect to it."""

    type: Literal["rematch"]
    table: str = Field(description="the new table: the same token holds the same seat")
    seat: int | None


class RematchDeclined(_Server):
    """The rematch offered was declined by ``seat``: the offer is withdrawn."""

    type: Literal["rematch_declined"]
    seat: int


class Pong(_Server):
    """The answer to a ping."""

    type: Literal["pong"]


class HintChoice(BaseModel):
    model_config = ConfigDict(extra="forbid")
    move: str
    value: float
    text: str


class HintAnswer(_Server):
    """The answer to a hint: the move, why, and how the other choices compare."""

    type: Literal["hint"]
    version: int = Field(description="the state it was thought for")
    move: str = Field(description="the move the bot would play")
    level: str = Field(description="the bot level that thought it")
    lang: Lang
    text: str = Field(description="why, in words")
    unit: str = Field(description="what a choice's value counts")
    choices: list[HintChoice] = Field(description="the best moves: {move, value, text}")
    why: str = Field("", description="why the judge ranks the move first, in lang")
    sure: bool = Field(False, description="the move stands clear of the next best")


class ChatLine(_Server):
    """A chat line of the receiver's room."""

    type: Literal["chat"]
    room: Literal["players", "spectators"]
    seat: int | None = Field(description="the speaker's seat; null: a spectator")
    name: str
    text: str | None
    phrase: str | None = Field(description="a quick phrase's key (the page words it)")
    at: str = Field(description="when it was said (ISO 8601)")


class ChatSetting(_Server):
    """The players' chat was turned off or on (and, to a new socket, that it is off)."""

    type: Literal["chat_setting"]
    off: bool


Outgoing = (State | Error | RematchOffer | RematchDeclined | Pong | HintAnswer | ChatLine
            | ChatSetting)
"""Every message the server sends on a table's socket, as built."""

ServerMessage = Annotated[
    Union[State, Error, RematchOffer, RematchDeclined, Pong, HintAnswer, ChatLine,  # noqa: UP007
          ChatSetting],
    Field(discriminator="type")]
"""Every message the server sends on a table's socket, as a page reads it."""

client_adapter: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)
server_adapter: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)


def _types(union: object) -> tuple[str, ...]:
    members = get_args(get_args(union)[0])
    return tuple(get_args(member.model_fields["type"].annotation)[0] for member in members)


CLIENT_TYPES = _types(ClientMessage)
SERVER_TYPES = _types(ServerMessage)

VIEW_BESIDE = ("game", "seat", "to_move", "over", "legal_moves")
"""Fields of an engine's view that a state message gives beside the view, not in it."""


def page_view(view: dict[str, object]) -> dict[str, object]:
    """An engine's view as the page gets it: without what the message gives beside it."""
    return {key: value for key, value in view.items() if key not in VIEW_BESIDE}


def schema() -> dict[str, object]:
    """Both unions as JSON Schema (``GET /api/protocol.json``)."""
    return {"client": client_adapter.json_schema(), "server": server_adapter.json_schema()}


def _type_name(annotation: object) -> str:
    """A field's type as the docs write it (``int or null``, ``"en", "ru"``)."""
    text = str(annotation) if not isinstance(annotation, type) else annotation.__name__
    for noise in ("typing.", "cardtable.server.core.protocol.", "<class '", "'>"):
        text = text.replace(noise, "")
    text = re.sub(r"Annotated\[(\w+), Strict\(strict=True\)\]", r"\1", text)
    text = re.sub(r"Optional\[(.+)\]", r"\1 | None", text)
    text = re.sub(r"Literal\[(.+)\]", lambda m: "one of " + m.group(1).replace("'", '"'), text)
    return text.replace(" | None", " or null").replace(" | ", " or ")


def reference() -> str:
    """Markdown tables of every message and field, both directions (docs/server.md holds
    this text between its protocol markers; a test keeps the two the same)."""
    lines: list[str] = []
    for title, union in (("The page sends", ClientMessage), ("The server sends", ServerMessage)):
        lines += [f"{title}:", "", "| `type` | field | type | default | meaning |",
                  "|---|---|---|---|---|"]
        for member in get_args(get_args(union)[0]):
            kind = get_args(member.model_fields["type"].annotation)[0]
            doc = " ".join((member.__doc__ or "").split()).replace("``", "`")
            fields = [(name, info) for name, info in member.model_fields.items()
                      if name != "type"]
            lines.append(f"| `{kind}` | | | | {doc} |")
            for name, info in fields:
                default = "required" if info.is_required() else f"`{json.dumps(info.default)}`"
                lines.append(f"| | `{name}` | {_type_name(info.annotation)} | {default} | "
                             f"{info.description or ''} |")
        lines.append("")
    return "\n".join(lines).replace("`None`", "`null`").rstrip() + "\n"
