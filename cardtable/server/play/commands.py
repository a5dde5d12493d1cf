"""What may be asked of a live table: one typed command for each thing that can happen to it.

A live table has one owner, its ``dealer.Dealer``; everything else sends it these and
awaits the answer (``await table.dealer.ask(Play(seat=0, version=3, text="7C"))``).  The
dealer takes them one at a time, in the order they came, in a task of its own, so no two
ever see the table half-changed and an asker that gives up never stops one half-way.
Each command is a small frozen dataclass typed by its answer (``Command[R]``: ``ask``
answers an ``R``, which mypy checks), so what the house may ask of a table, and what it
is told back, is written here, once.  No command shares a name with a message of the
socket's protocol (``protocol.Move`` is what a page sends; ``Play`` is what the table is
asked).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from ...bots import Bot
from ...records import Record
from ..core.codes import Refusal
from ..core.shapes import TableState
from ..store.storage import SeatRow
from .live import Connection
from .owner import Command

__all__ = [
    "Abandon",
    "AnyCommand",
    "Begin",
    "BotPosition",
    "BotTurn",
    "Checkpoint",
    "Close",
    "Command",
    "Connect",
    "Counted",
    "Describe",
    "Disconnect",
    "GraceOver",
    "HintDone",
    "LeaveSeat",
    "OfferRematch",
    "Play",
    "Position",
    "RatingsRead",
    "RecordOf",
    "Refuse",
    "RefuseRematch",
    "Rename",
    "ResignSeat",
    "Say",
    "SeatsRead",
    "SetChatOff",
    "Settle",
    "SignOff",
    "StartHint",
    "TakeBack",
    "TakeSeat",
    "Takeover",
    "TimeUp",
    "TimedOut",
    "Unclaimed",
]

class Takeover(NamedTuple):
    """What a timed-out turn's takeover move is thought from."""

    bot: Bot
    spec: str
    snapshot: TableState


class BotPosition(NamedTuple):
    """What a bot's move is thought from: its seat, bot and spec, a copy of the state and
    the version the move is for."""

    seat: int
    bot: Bot
    spec: str | None
    snapshot: TableState
    version: int


# -- playing ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Play(Command[Refusal | None]):
    """``seat`` plays ``text``, chosen at ``version``; ``by_bot`` when its bot chose it,
    ``timed_out`` when the takeover bot chose it because the player's time ran out."""

    seat: int
    version: int
    text: str
    by_bot: bool = False
    timed_out: bool = False


@dataclass(frozen=True)
class ResignSeat(Command[dict[str, object]]):
    """``seat`` resigns: its side loses and the game ends (answers the stored summary)."""

    seat: int


@dataclass(frozen=True)
class LeaveSeat(Command[dict[str, object] | None]):
    """``seat``'s player leaves an unrated table: the takeover bot plays on for good
    (answers the summary when leaving aborted a rated game, else ``None``)."""

    seat: int


@dataclass(frozen=True)
class TakeBack(Command[Refusal | None]):
    """``seat`` takes back the moves since its own last decision (bots-only tables)."""

    seat: int | None


@dataclass(frozen=True)
class StartHint(Command[Refusal | tuple[TableState, int]]):
    """``seat`` asks for a hint: answers a refusal, or (a copy of the state to think the
    hint from, the version it is for)."""

    seat: int | None


@dataclass(frozen=True)
class HintDone(Command[None]):
    """The hint for ``seat`` was thought (or failed): the seat may ask again."""

    seat: int


@dataclass(frozen=True)
class OfferRematch(Command[str | None]):
    """A rematch offered or accepted by ``seat`` (``None``: a watcher of a table of bots);
    answers the new table's id once every person's seat has, else ``None``."""

    seat: int | None


@dataclass(frozen=True)
class RefuseRematch(Command[None]):
    """``seat`` says no to the rematch offered."""

    seat: int | None


# -- people coming and going ----------------------------------------------------------------
@dataclass(frozen=True)
class Connect(Command[None]):
    """A WebSocket opened at the table (seated or watching); a watcher is refused past
    ``watchers`` (0: no limit)."""

    connection: Connection
    watchers: int = 0


@dataclass(frozen=True)
class Disconnect(Command[None]):
    """A WebSocket closed."""

    connection: Connection


@dataclass(frozen=True)
class TakeSeat(Command[int]):
    """A person takes the first free seat (answers the seat, or raises ``Refused``)."""

    token_hash: str
    name: str | None
    player_id: str | None
    player_kind: str | None


@dataclass(frozen=True)
class SeatsRead(Command[None]):
    """The seats as the database has them (taken through another process)."""

    rows: tuple[SeatRow, ...]


@dataclass(frozen=True)
class Rename(Command[None]):
    """A player's display name changed: their seats here show the new one.  With
    ``becomes``, the player was a guest who signed in to that account: their seats are the
    account's now, unless the account sits here too (never a game against oneself)."""

    player_id: str
    name: str
    becomes: str | None = None


@dataclass(frozen=True)
class SignOff(Command[int]):
    """Every session of this player ended (banned, signed out everywhere, deleted): close
    their sockets at this table, a seat's and a spectator's (answers how many).  The pages
    connect again and are refused (a seat's key plays only with its account signed in) or
    watch as anyone."""

    player_id: str
    reason: str


@dataclass(frozen=True)
class Unclaimed(Command[bool]):
    """A seat taken with ``token_hash`` was held ``claim_grace`` and never connected to:
    free it.  Answers ``False`` when the database could not be reached (try later)."""

    seat: int
    token_hash: str
    timer: object
    """The task that held the seat: a hold started since makes this one void."""


@dataclass(frozen=True)
class GraceOver(Command[None]):
    """The seat's player stayed away past the grace period: the takeover bot plays."""

    seat: int


# -- the clock ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Checkpoint(Command[None]):
    """Store a correspondence table's life now, with what its running turn has spent."""


@dataclass(frozen=True)
class TimeUp(Command[Takeover | None]):
    """The time of ``turn`` (version, seat) ran out; answers what to think the takeover
    move from, or ``None`` when the turn is no longer running."""

    turn: tuple[int, int]


@dataclass(frozen=True)
class TimedOut(Command[None]):
    """The takeover move of a timed-out ``turn`` was played (or not): the third timeout
    in a row forfeits the seat."""

    turn: tuple[int, int]


@dataclass(frozen=True)
class Abandon(Command[bool]):
    """No seated person came back for ``abandon_after``; answers ``False`` to try later."""

    timer: object
    """The task that watched: a watch started since makes this one void."""


# -- bots ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class BotTurn(Command[BotPosition | None]):
    """Answers what a bot's move is thought from when a bot is to move, else ``None``."""


# -- chat ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Say(Command[None]):
    """A chat line from a connection, to its room: its ``text`` as kept or a quick
    ``phrase``, whether its sender is ``muted`` or it is ``offending`` (both read before it
    is asked), and the rate it is held to (``rate``: messages, seconds; ``rate_text``:
    as the settings say it)."""

    connection: Connection
    text: str | None
    phrase: str | None
    rate: tuple[int, float]
    rate_text: str
    muted: bool = False
    offending: bool = False
    apart: frozenset[str] = frozenset()
    """Players who block the sender or whom the sender blocks: the line is not sent to
    their connections."""


@dataclass(frozen=True)
class SetChatOff(Command[None]):
    """The creator turns the players' chat off or on."""

    connection: Connection
    off: bool


# -- reading ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Describe(Command[dict[str, object]]):
    """The table's public summary (``LiveTable.describe``), read between commands."""


@dataclass(frozen=True)
class RecordOf(Command[Record]):
    """The finished game's record; refused (``not_over``, saying ``why`` it waits for
    the end) while it is played."""

    why: str = "its record (which holds the decks) is given once it has ended"


@dataclass(frozen=True)
class Position(Command[tuple[int, TableState, frozenset[int]]]):
    """(the version, a copy of the state, the takeover bots' moves), read together."""


@dataclass(frozen=True)
class Settle(Command[None]):
    """Answers once the commands asked before it are done (a table leaving this process
    waits for what was under way)."""


# -- from the house ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Begin(Command[None]):
    """The table is played by this process now (made, resumed or adopted)."""


@dataclass(frozen=True)
class Close(Command[None]):
    """The table is played elsewhere now: its timers and bots stop, its sockets close."""

    reason: str


@dataclass(frozen=True)
class RatingsRead(Command[None]):
    """The ratings of the accounts seated (player id to rating), as read for ``wanted``."""

    wanted: tuple[tuple[int, str], ...]
    found: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Counted(Command[None]):
    """A finished game was counted after its end: its summary gains the changes."""

    added: tuple[tuple[str, object], ...]


@dataclass(frozen=True)
class Refuse(Command[None]):
    """Tell one connection why its message was refused, then send it a fresh state."""

    connection: Connection
    reason: str | Refusal
    code: str | None = None
    params: tuple[tuple[str, object], ...] = ()


AnyCommand = (Play | ResignSeat | LeaveSeat | TakeBack | StartHint | HintDone | OfferRematch
              | RefuseRematch | Connect | Disconnect | TakeSeat | SeatsRead | Rename | SignOff
              | Unclaimed | GraceOver | TimeUp | TimedOut | Abandon | BotTurn | Say
              | SetChatOff | Describe | RecordOf | Position | Settle | Begin | Close
              | RatingsRead | Counted | Refuse | Checkpoint)
"""Every command a table's dealer takes (its dispatch is a ``match`` over these)."""
