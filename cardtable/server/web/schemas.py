"""The request and response bodies of the web table's HTTP API (pydantic models)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, field_validator

from ... import games
from ..core.shapes import JSON
from ..play.live import LiveTable
from ..store.storage import SeatRow, TableRow
from .spec import Name, seating

__all__ = [
    "CreateTable",
    "DaysControl",
    "GameInfo",
    "Health",
    "HistoryEntry",
    "JoinTable",
    "LogStep",
    "MoveLog",
    "OptionInfo",
    "Problem",
    "Replay",
    "ReplayStep",
    "SeatInfo",
    "Seated",
    "TableInfo",
    "TableListing",
    "TimeControl",
    "listing_of",
    "rated_table",
    "seat_info_of",
]



def _whole(cls: type[BaseModel], value: object) -> object:
    """``5.0`` is the whole number 5 (JSON Schema's ``integer`` takes it, and so must the
    API that publishes one); ``True``, ``"5"`` and ``5.5`` stay refused."""
    if isinstance(value, float) and value.is_integer() and abs(value) <= 2**63:
        return int(value)
    return value


def whole_numbers(*fields: str) -> object:
    """A model's validator taking ``2.0`` for its ``StrictInt`` ``fields`` (a validator
    of the model's, not of the type: the fields' bounds stay in the schema as bounds)."""
    return field_validator(*fields, mode="before")(classmethod(_whole))

class TimeControl(BaseModel):
    """A clock: seconds for each move, then a bank that the seat's slow moves spend."""

    model_config = ConfigDict(extra="forbid")

    move: StrictInt = Field(20, ge=1, le=3600, description="seconds for each move")
    bank: StrictInt = Field(60, ge=0, le=36000, description="seconds in reserve, per seat")
    _whole_numbers = whole_numbers("move", "bank")


class DaysControl(BaseModel):
    """A correspondence clock: days for each move, no bank; it runs only while the server
    does (a restart costs nobody time)."""

    model_config = ConfigDict(extra="forbid")

    days: Literal[1, 2, 3, 5, 7, 14] = Field(description="days for each move")


class CreateTable(BaseModel):
    """A new table.  The creator takes the first human seat; only bots: a table to watch."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=seating(seats=True, examples=[
        {"game": games.names()[-1], "players": 2, "seats": ["human", "bot:random"]}]))

    game: str = Field(description="a game name from GET /api/games")
    preset: str | None = Field(None, description="a preset of that game; none: its default")
    options: dict[str, object] = Field(default_factory=dict,
                                    description="rule options changed from the preset")
    players: StrictInt | None = Field(None, description="number of players; none: the "
                                      "length of seats, or the game's default")
    _whole_numbers = whole_numbers("players")

    @field_validator("options", mode="before")
    @classmethod
    def _whole_options(cls, value: object) -> object:
        """A rule option's whole number written 2.0 is one (as JSON Schema's integer)."""
        return ({name: _whole(cls, item) for name, item in value.items()}
                if isinstance(value, dict) else value)

    seats: list[str] | None = Field(None, description='one per player: "human" or '
                                    '"bot:NAME" (NAME from GET /api/games bots)')
    takeover: str | None = Field(None, description='a bot ("bot:easy") that plays for a '
                                 "player who stays away past the grace period")
    name: Name | None = Field(None, description="the creator's name at the table")
    clock: TimeControl | DaysControl | None = Field(
        None, description="a time control, or days a move (none: no clock); a table with "
        "one has a takeover bot, easy by default")
    rated: StrictBool = Field(False, description="the game counts for ratings (a signed-in "
                              "account's choice: every seat a person's, and only accounts "
                              "may take them); false: casual")


class JoinTable(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: Name | None = None


class Seated(BaseModel):
    """A seat at a table and the token that plays it (keep it: it is shown only once)."""

    table: str
    seat: int | None
    token: str | None
    invite: str


class SeatInfo(BaseModel):
    seat: int
    kind: str
    bot: str | None = None
    name: str | None = None
    taken: bool
    connected: bool
    bot_playing: bool
    player: str | None = None
    """The id of the player in the seat (their profile: ``/api/players/{id}``)."""
    player_kind: str | None = None
    """``guest``, ``account``, or ``bot`` for an account a program plays."""


class TableInfo(BaseModel):
    id: str
    game: str
    title: str
    preset: str | None
    rules: dict[str, object]
    players: int
    status: str
    over: bool
    version: int
    to_move: int | None
    seats: list[SeatInfo]
    free_seats: int
    takeover: str | None
    created: str
    finished: str | None
    invite: str
    rematch_of: str | None
    rematch: str | None
    summary: dict[str, object] | None = None
    clock: dict[str, object] | None = None
    rated: bool = False
    gone: list[int] = Field(default_factory=list, description="seats the takeover bot plays "
                            "for good (forfeited, or their players left)")


class TableListing(BaseModel):
    id: str
    game: str
    title: str
    preset: str | None
    players: int
    status: str
    seats: list[SeatInfo]
    taken: int
    free_seats: int
    created: str
    invite: str
    watch: str
    version: int | None
    rated: bool = Field(False, description="the game counts for ratings (its creator's "
                        "choice); false: casual")


class HistoryEntry(BaseModel):
    id: str
    game: str
    preset: str | None
    players: int
    seats: list[SeatInfo]
    created: str
    finished: str | None
    summary: dict[str, object] | None
    record: str
    invite: str
    rated: bool = Field(False, description="the table was rated (its summary says whether "
                        "the game counted: ``rated``, and ``unrated`` for why not)")


class ReplayStep(BaseModel):
    """The table after the deal (index 0) or after one move, with every hand face up."""

    index: int = Field(description="moves played so far: 0 is the deal")
    seat: int | None = Field(description="the seat that made this step's move (none: the deal)")
    move: str | None = Field(description="the move as text (none: the deal)")
    to_move: int | None = Field(description="the seat to move next (none: the game is over)")
    view: dict[str, object] = Field(description="what a watcher saw: the game's view(None)")
    hands: list[list[str] | None] = Field(description="every seat's hand, seat by seat")
    result: dict[str, object] | None = Field(description="the game's result, on the last step")


class LogStep(BaseModel):
    """One move of a game being played, with the public table after it."""

    index: int = Field(description="the move's number, from 0 (the state's last_move.index)")
    seat: int | None = Field(description="the seat that made it")
    move: str = Field(description="the move as text")
    over: bool = Field(description="whether the game's rules ended it with this move")
    takeover: bool = Field(False, description="a takeover bot made it for the seat's "
                           "person (their time ran out, or they left)")
    view: dict[str, object] = Field(description="what a watcher saw after it (the state "
                                 "message's view)")


class MoveLog(BaseModel):
    """Every move so far, for the page's move log (no hand, no stock, no seed)."""

    table: str
    game: str
    version: int = Field(description="the table's version: moves played so far")
    deal: dict[str, object] = Field(description="what a watcher saw after the deal")
    steps: list[LogStep]


class Replay(BaseModel):
    """A finished game to watch again: its record and the table at every step."""

    table: str
    game: str
    players: int
    record: dict[str, object] = Field(description="the game record (cardtable.records format)")
    steps: list[ReplayStep] = Field(description="the deal, then one step per move")


class OptionInfo(BaseModel):
    name: str
    type: str
    default: JSON
    doc: str
    choices: list[JSON] | None = None
    maximum: int | None = Field(None, description="the largest value a table made here may "
                                "have (the server's bound; none: no bound)")
    minimum: int | None = Field(None, description="the least value a table made here may "
                                "have, for a whole-number option the server bounds")


class Problem(BaseModel):
    """Every refusal: a reason a person can read and a stable code a program can test,
    with the code's parameters beside them (``cardtable.server.core.codes``: e.g. ``table``
    with ``not_found``)."""

    model_config = ConfigDict(extra="allow")

    detail: str = Field(description="why the request was refused, in a sentence")
    code: str = Field(description="what kind of refusal, e.g. not_found, conflict, "
                      "invalid_request, rate_limited (cardtable/server/core/codes.py and "
                      "docs/server.md list them)")
    errors: list[dict[str, object]] | None = Field(
        None, description="with invalid_request: each field that is wrong (loc, msg, type)")


class GameInfo(BaseModel):
    name: str
    title: str
    default_preset: str
    presets: dict[str, dict[str, object]]
    player_counts: list[int]
    default_players: int
    options: list[OptionInfo]
    bots: list[str]


class Health(BaseModel):
    """``status`` is ``ok``, or ``unavailable`` (answered 503) while the database is down."""

    status: str
    version: str
    tables: int | None = Field(description="tables in the database (none: it is down)")
    live: int
    broken: list[str]
    process: str | None = None
    database: str = Field("ok", description="ok; down while it cannot be reached; failing "
                          "while it answers but stores nothing (a full disk)")
    redis: str | None = None
    """With Redis (several processes): "ok", or "down" (then the answer is 503)."""
    detail: str | None = None
    code: str | None = None


def seat_info_of(seat: SeatRow) -> SeatInfo:
    return SeatInfo(seat=seat.seat, kind=seat.kind, bot=seat.bot, name=seat.name,
                    taken=seat.kind == "bot" or seat.token_hash is not None,
                    connected=False, bot_playing=False)


def listing_of(row: TableRow, seats: list[SeatRow], live: LiveTable | None) -> TableListing:
    """A table as the lobby lists it: from its live copy when this process plays it."""
    infos = ([SeatInfo.model_validate(seat.public().model_dump()) for seat in live.seats]
             if live is not None else [seat_info_of(seat) for seat in seats])
    return TableListing(
        id=row.id, game=row.game, title=games.get(row.game).title, preset=row.preset,
        players=row.players, status=live.status if live is not None else row.status,
        seats=infos, taken=sum(1 for s in infos if s.taken),
        free_seats=sum(1 for s in infos if not s.taken), created=row.created,
        invite=f"/table/{row.id}", watch=f"/ws/tables/{row.id}",
        version=live.version if live is not None else None, rated=rated_table(row))


def rated_table(row: TableRow) -> bool:
    """Whether a stored table is rated: its creator's choice, kept in its life."""
    return bool((row.life or {}).get("rated"))

