"""What may be asked of a live table: one typed command for each thing that can happen to it.

A live table has one owner, its ``dealer.Dealer``; everything else sends it these and
awaits the answer (``await table.dealer.ask(Move(seat=0, version=3, text="7C"))``).  The
dealer takes them one at a time, in the order they came, so no two ever see the table
half-changed.  Each is a small frozen dataclass, so what the house may ask of a table is
written here, once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.codes import Refusal
from .live import Connection

__all__ = [
    "Abandon",
    "Begin",
    "BotTurn",
    "Close",
    "Command",
    "Connect",
    "Counted",
    "DeclineRematch",
    "Disconnect",
    "GraceOver",
    "HintDone",
    "Leave",
    "Move",
    "RatingsRead",
    "Read",
    "Refuse",
    "Rematch",
    "Rename",
    "Resign",
    "Say",
    "SeatsRead",
    "SetChatOff",
    "SignOff",
    "StartHint",
    "TakeSeat",
    "TimeUp",
    "TimedOut",
    "Unclaimed",
    "Undo",
]


# -- playing ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Move:
    """``seat`` plays ``text``, chosen at ``version``; ``by_bot`` when its bot chose it,
    ``timed_out`` when the takeover bot chose it because the player's time ran out."""

    seat: int
    version: int
    text: str
    by_bot: bool = False
    timed_out: bool = False


@dataclass(frozen=True)
class Resign:
    """``seat`` resigns: its side loses and the game ends (answers the stored summary)."""

    seat: int


@dataclass(frozen=True)
class Leave:
    """``seat``'s player leaves an unrated table: the takeover bot plays on for good."""

    seat: int


@dataclass(frozen=True)
class Undo:
    """``seat`` takes back the moves since its own last decision (bots-only tables)."""

    seat: int | None


@dataclass(frozen=True)
class StartHint:
    """``seat`` asks for a hint: answers a refusal, or (a copy of the state to think the
    hint from, the version it is for)."""

    seat: int | None


@dataclass(frozen=True)
class HintDone:
    """The hint for ``seat`` was thought (or failed): the seat may ask again."""

    seat: int


@dataclass(frozen=True)
class Rematch:
    """A rematch offered or accepted by ``seat`` (``None``: a watcher of a table of bots);
    answers the new table's id once every person's seat has, else ``None``."""

    seat: int | None


@dataclass(frozen=True)
class DeclineRematch:
    """``seat`` says no to the rematch offered."""

    seat: int | None


# -- people coming and going ----------------------------------------------------------------
@dataclass(frozen=True)
class Connect:
    """A WebSocket opened at the table (seated or watching)."""

    connection: Connection


@dataclass(frozen=True)
class Disconnect:
    """A WebSocket closed."""

    connection: Connection


@dataclass(frozen=True)
class TakeSeat:
    """A person takes the first free seat (answers the seat, or raises ``Refused``)."""

    token_hash: str
    name: str | None
    player_id: str | None
    player_kind: str | None


@dataclass(frozen=True)
class SeatsRead:
    """The seats as the database has them (taken through another process)."""

    rows: tuple[Any, ...]


@dataclass(frozen=True)
class Rename:
    """A player's display name changed: their seats here show the new one.  With
    ``becomes``, the player was a guest who signed in to that account: their seats are the
    account's now, unless the account sits here too (never a game against oneself)."""

    player_id: str
    name: str
    becomes: str | None = None


@dataclass(frozen=True)
class SignOff:
    """Every session of this player ended (banned, signed out everywhere, deleted): close
    their sockets at this table, a seat's and a spectator's.  The pages connect again and
    are refused (a seat's key plays only with its account signed in) or watch as anyone."""

    player_id: str
    reason: str


@dataclass(frozen=True)
class Unclaimed:
    """A seat taken with ``token_hash`` was held ``claim_grace`` and never connected to:
    free it.  Answers ``False`` when the database could not be reached (try later)."""

    seat: int
    token_hash: str
    timer: Any
    """The task that held the seat: a hold started since makes this one void."""


@dataclass(frozen=True)
class GraceOver:
    """The seat's player stayed away past the grace period: the takeover bot plays."""

    seat: int


# -- the clock ----------------------------------------------------------------------------
@dataclass(frozen=True)
class TimeUp:
    """The time of ``turn`` (version, seat) ran out; answers the (bot, spec, snapshot) to
    think the takeover move from, or ``None`` when the turn is no longer running."""

    turn: tuple[int, int]


@dataclass(frozen=True)
class TimedOut:
    """The takeover move of a timed-out ``turn`` was played (or not): the third timeout
    in a row forfeits the seat."""

    turn: tuple[int, int]


@dataclass(frozen=True)
class Abandon:
    """No seated person came back for ``abandon_after``; answers ``False`` to try later."""

    timer: Any
    """The task that watched: a watch started since makes this one void."""


# -- bots ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class BotTurn:
    """Answers (seat, bot, spec, snapshot, version) when a bot is to move, else ``None``."""


# -- chat ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Say:
    """A chat line (``protocol.Chat``) from a connection, to its room."""

    connection: Connection
    message: Any


@dataclass(frozen=True)
class SetChatOff:
    """The creator turns the players' chat off or on."""

    connection: Connection
    off: Any


# -- from the house ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Begin:
    """The table is played by this process now (made, resumed or adopted)."""


@dataclass(frozen=True)
class Close:
    """The table is played elsewhere now: its timers and bots stop, its sockets close."""

    reason: str


@dataclass(frozen=True)
class RatingsRead:
    """The ratings of the accounts seated (player id to rating), as read for ``wanted``."""

    wanted: tuple[tuple[int, str], ...]
    found: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Counted:
    """A finished game was counted after its end: its summary gains the changes."""

    added: tuple[tuple[str, Any], ...]


@dataclass(frozen=True)
class Refuse:
    """Tell one connection why its message was refused, then send it a fresh state."""

    connection: Connection
    reason: str | Refusal
    code: str | None = None
    params: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True)
class Read:
    """Answers ``what(table)`` read while nothing changes the table (``describe``,
    ``record``): reading a live table goes through its owner too."""

    what: Any


Command = (Move | Resign | Leave | Undo | StartHint | HintDone | Rematch | DeclineRematch
           | Connect | Disconnect | TakeSeat | SeatsRead | Rename | SignOff | Unclaimed
           | GraceOver | TimeUp
           | TimedOut | Abandon | BotTurn | Say | SetChatOff | Begin | Close
           | RatingsRead | Counted | Refuse | Read)
"""Every command a table's dealer takes."""
