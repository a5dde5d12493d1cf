"""What a table's decisions are made of: the effects ``decide.decide`` answers and the
dealer does, and the further commands that carry back what a write came to.

Each effect is a small frozen dataclass; the dealer matches on each kind, so what a
decision can do to the world is written here, once: rows to write, changes to the table,
messages to send (and lines for the log), timers to start or stop.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import NamedTuple

from ..core import protocol
from ..core.errors import Refused
from ..store.ratings import Tally
from .live import Connection, LiveTable
from .steps import Played

__all__ = [
    "After",
    "Broadcast",
    "Change",
    "CloseSockets",
    "Decision",
    "Ended",
    "Evict",
    "FreeSeat",
    "Further",
    "Grace",
    "HistoryRead",
    "Hold",
    "Join",
    "Kick",
    "LoadRatings",
    "MakeRematch",
    "MarkSeen",
    "Moment",
    "Note",
    "Part",
    "Plan",
    "PopMoves",
    "Reload",
    "RematchMade",
    "SeatFreed",
    "SeatStored",
    "Seated",
    "Send",
    "SendAll",
    "SendHistory",
    "SendRefusal",
    "SendRoom",
    "SendState",
    "SendTo",
    "Set",
    "StartClock",
    "StopBots",
    "StopClock",
    "StoreChat",
    "StoreChatOff",
    "StoreEnd",
    "StoreLife",
    "StoreMove",
    "StoreSeat",
    "Stored",
    "TakeBackRows",
    "Timer",
    "Watch",
    "Write",
]

class Moment(NamedTuple):
    """When a command is decided: the tables' clock (``clock.Clock.time``) and the wall
    clock's stamp that rows and summaries carry (``storage.now``)."""

    time: float
    stamp: str


# -- rows to write -------------------------------------------------------------------------
@dataclass(frozen=True)
class StoreMove:
    """The move (its decks, and the end with its results): answered by ``Stored``."""

    step: Played
    takeover: bool
    by_bot: bool


@dataclass(frozen=True)
class StoreLife:
    """The table's life as the decision leaves it (a failure is logged only)."""

    life: dict[str, object]


@dataclass(frozen=True)
class StoreEnd:
    """The end without a move, its results counted: answered by ``Ended``; with
    ``unavailable``, the database being away answers that instead of raising."""

    why: str
    was: str
    finished: str
    summary: dict[str, object]
    tally: Tally | None
    unavailable: bool | None = None


@dataclass(frozen=True)
class StoreSeat:
    """The seat taken in the database, if it is still free: answered by ``SeatStored``."""

    seat: int
    token_hash: str
    name: str | None
    player_id: str | None
    player_kind: str | None


@dataclass(frozen=True)
class MarkSeen:
    """The seat's token came (kept in memory if the database is away)."""

    seat: int


@dataclass(frozen=True)
class FreeSeat:
    """The seat freed in the database unless it was claimed: answered by ``SeatFreed``."""

    seat: int
    token_hash: str


@dataclass(frozen=True)
class TakeBackRows:
    """The moves from ``keep`` on deleted."""

    keep: int


@dataclass(frozen=True)
class MakeRematch:
    """The rematch table made: answered by ``RematchMade``."""


@dataclass(frozen=True)
class StoreChat:
    """A chat line kept."""

    room: str
    seat: int | None
    name: str
    text: str | None
    phrase: str | None
    at: str
    player_id: str | None = None
    """Who said it (a block leaves it out of their history)."""


@dataclass(frozen=True)
class StoreChatOff:
    off: bool


@dataclass(frozen=True)
class Reload:
    """Read the table again from the database (the engine failed on a move)."""


Write = (StoreMove | StoreLife | StoreEnd | StoreSeat | MarkSeen | FreeSeat | TakeBackRows
         | MakeRematch | StoreChat | StoreChatOff | Reload)


# -- changes to the table ------------------------------------------------------------------
@dataclass(frozen=True)
class Set:
    """Fields set: of the table (``part`` "table"), of its life ("life"), of its chat
    ("chat") or of a seat (its index)."""

    part: str | int
    values: tuple[tuple[str, object], ...]


@dataclass(frozen=True)
class Join:
    connection: Connection


@dataclass(frozen=True)
class Part:
    connection: Connection


@dataclass(frozen=True)
class PopMoves:
    """Take moves back off the game's state."""

    count: int


Change = Set | Join | Part | PopMoves


# -- messages ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Broadcast:
    """The state to every connection, each seat its own view."""


@dataclass(frozen=True)
class SendTo:
    """A message, built as its model, to one connection."""

    connection: Connection
    message: protocol.Outgoing


@dataclass(frozen=True)
class SendAll:
    """A message, built as its model, to every connection."""

    message: protocol.Outgoing


@dataclass(frozen=True)
class SendRoom:
    """A chat line to the connections of a room that were sent its history."""

    room: str
    message: protocol.ChatLine
    skip: frozenset[str] = frozenset()
    """Players whose connections are not sent it (a block between them and its sender)."""


@dataclass(frozen=True)
class SendState:
    connection: Connection


@dataclass(frozen=True)
class SendRefusal:
    """An error to one connection, then a fresh state."""

    connection: Connection
    reason: str
    code: str | None
    params: tuple[tuple[str, object], ...] = ()


@dataclass(frozen=True)
class SendHistory:
    """The room's newest chat lines, read from the database: answered by ``HistoryRead``."""

    connection: Connection


@dataclass(frozen=True)
class CloseSockets:
    """Ask the connections to close (``player_id``: that player's only)."""

    reason: str
    player_id: str | None = None


@dataclass(frozen=True)
class Note:
    """A line for the server's log."""

    text: str
    level: str = "info"


Send = (Broadcast | SendTo | SendAll | SendRoom | SendState | SendRefusal | SendHistory
        | CloseSockets | Note)


# -- timers --------------------------------------------------------------------------------
@dataclass(frozen=True)
class StartClock:
    turn: tuple[int, int]
    limit: float


@dataclass(frozen=True)
class StopClock:
    """The move's clock stops (and with ``watch``, the abandonment watch)."""

    watch: bool = False


@dataclass(frozen=True)
class Watch:
    """The abandonment watch starts (``False``: stops)."""

    on: bool


@dataclass(frozen=True)
class Grace:
    """The seat's grace starts (``False``: stops)."""

    seat: int
    on: bool


@dataclass(frozen=True)
class Hold:
    """The seat is held for its token (``False``: the hold stops)."""

    seat: int
    on: bool
    token_hash: str | None = None


@dataclass(frozen=True)
class Kick:
    """The bots play if one is to move."""


@dataclass(frozen=True)
class StopBots:
    pass


@dataclass(frozen=True)
class LoadRatings:
    pass


@dataclass(frozen=True)
class Evict:
    """A finished table nobody watches leaves memory."""


Timer = StartClock | StopClock | Watch | Grace | Hold | Kick | StopBots | LoadRatings | Evict


@dataclass(frozen=True)
class Decision:
    """What a command comes to, in the order it is done."""

    answer: object = None
    error: Refused | None = None
    """Raised to the asker, after the effects (there are none with it)."""
    writes: tuple[Write, ...] = ()
    changes: tuple[Change, ...] = ()
    sends: tuple[Send, ...] = ()
    timers: tuple[Timer, ...] = ()
    then: Further | None = None
    """A further command decided once these effects are done (``After``)."""


# -- further commands ----------------------------------------------------------------------
@dataclass(frozen=True)
class After:
    """The part of a decision that reads the table once changed: its clock re-armed,
    the watch started or stopped (``presence``), everyone sent the state, the bots kicked,
    a finished table evicted, a connection sent its room's history; answers ``answer``."""

    answer: object = None
    clock: bool = True
    presence: bool = False
    broadcast: bool = True
    kick: bool = True
    evict: bool = False
    history: Connection | None = None
    hold: bool = False
    graces: bool = False
    ratings: bool = False


@dataclass(frozen=True)
class Seated:
    """A seat was taken (or the seats read again): once every seat is, the game starts."""

    answer: object = None


@dataclass(frozen=True)
class Stored:
    """A move was stored at ``at``."""

    step: Played
    takeover: bool
    at: str


@dataclass(frozen=True)
class Ended:
    """The end without a move was stored (``stored``: the summary as stored; ``None``: the
    table changed meanwhile)."""

    why: str
    finished: str
    stored: dict[str, object] | None


@dataclass(frozen=True)
class SeatStored:
    store: StoreSeat
    taken: bool


@dataclass(frozen=True)
class SeatFreed:
    seat: int
    freed: bool


@dataclass(frozen=True)
class RematchMade:
    table_id: str


@dataclass(frozen=True)
class HistoryRead:
    connection: Connection
    lines: tuple[protocol.ChatLine, ...]
    off: bool | None
    """``None``: it could not be read (the table plays on without it)."""


Further = After | Seated | Stored | Ended | SeatStored | SeatFreed | RematchMade | HistoryRead


# -- making a decision -------------------------------------------------------------------
@dataclass
class Plan:
    """A decision being made: its effects in the order they come, and the table's life as
    it leaves it (stored once, when ``store_life``)."""

    table: LiveTable
    writes: list[Write] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)
    sends: list[Send] = field(default_factory=list)
    timers: list[Timer] = field(default_factory=list)
    life: dict[str, object] = field(default_factory=dict)
    store_life: bool = False

    def set(self, part: str | int, **values: object) -> None:
        self.changes.append(Set(part, tuple(values.items())))
        if part == "life":
            self.life.update(values)

    def forfeits_now(self) -> list[int]:
        """The table's forfeited seats as this decision leaves them."""
        forfeits = self.life.get("forfeits")
        if isinstance(forfeits, list):
            return [seat for seat in forfeits if isinstance(seat, int)]
        return list(self.table.life.forfeits) if self.table.life is not None else []

    def decision(self, answer: object = None, then: Further | None = None) -> Decision:
        writes = list(self.writes)
        if self.store_life and self.table.life is not None:
            kept = {k: v for k, v in self.life.items() if k in _STORED_LIFE}
            life = dataclasses.replace(self.table.life)
            for name, value in kept.items():
                setattr(life, name, value)
            stored = life.to_dict()
            if stored != self.table.life.stored:
                writes.insert(0, StoreLife(stored))
        return Decision(answer=answer, writes=tuple(writes), changes=tuple(self.changes),
                        sends=tuple(self.sends), timers=tuple(self.timers), then=then)


_STORED_LIFE = {"banks", "timeouts", "forfeits", "left"}
