"""Deciding what a command does to a table, before anything is stored or sent.

Each function here is given the table (and what the command says, and the time where the
time matters) and answers what should happen: a refusal, or what to store and how the
table changes.  None stores, sends or assigns anything: ``dealer.Dealer`` runs what they
decide, store first, then the table, then what is sent.  One thing is done in place, for
speed: a move that may be played is left pushed on the game's state (``move``), and the
dealer pops it if it cannot be stored; the engine's states are
made to be stepped both ways, and pushing a move twice a move cost a tenth of the
server's time a move.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...game import IllegalMove
from ..core import protocol
from ..core.codes import Refusal, refused
from ..core.errors import Refused
from ..core.wire import plain
from ..store.ratings import Tally
from .live import (
    WAITING,
    Life,
    LiveSeat,
    LiveTable,
    against_bots_only,
    check_help,
    undo,
)
from .results import movers, tally_of

__all__ = ["EngineFailed", "Played", "abandoned", "aborts", "against_bots_only",
           "annotate", "check_help", "check_hint", "check_leave", "check_playing", "check_rematch",
           "last_move", "move", "played", "resigned", "side_of", "spent", "takeovers_to",
           "unattended", "undo"]


@dataclass(frozen=True)
class Played:
    """A move that may be played: what to store, and what the table becomes."""

    seat: int
    version: int
    move: object
    """The engine's move, already pushed on the table's state (popped if not stored)."""
    text: str
    over: bool
    new_decks: list[tuple[int, list[str]]]
    """Decks dealt by this move (index, cards), stored with it."""
    decks: int
    """How many decks the game has dealt after the move."""
    summary: dict[str, object] | None
    tally: Tally | None
    """The results, counted in the transaction that stores the end."""


class EngineFailed(Exception):
    """The engine failed on a move (a fault, not a refusal): its state may be half-changed,
    so the table is read again from the database."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(str(refusal))
        self.refusal = refusal


def move(table: LiveTable, seat: int, version: int, text: str) -> Refusal | Played:
    """What playing ``text`` for ``seat`` stores and makes of the table, or why not (the
    table's own checks, ``LiveTable.refusal``, come first and are the caller's).  A move
    that may be played is left pushed on the game's state; a refusal leaves it as it was."""
    state = table.state
    try:
        chosen = state.parse_move(text)
    except IllegalMove as error:   # a move of the game, not legal now
        return refused("illegal_move", f"{text!r} cannot be played now: {error}", move=text)
    except ValueError as error:
        return refused("not_a_move", f"{text!r} is not a move here: {error}", move=text)
    try:
        state.push(chosen)
    except ValueError as error:  # IllegalMove and every other refusal of the engine
        return refused("illegal_move", f"{text!r} cannot be played now: {error}", move=text)
    except Exception as error:
        raise EngineFailed(refused(
            "engine_failed", f"the game could not play {text!r} ({type(error).__name__}: "
            f"{error}); nothing changed", move=text)) from error
    try:
        over = state.is_over()
        dealt = table.spec.deals(state)
        new_decks = [(index, [card.text for card in dealt[index]])
                     for index in range(table.decks_stored, len(dealt))]
        summary = annotate(table, plain(table.spec.summary(state))) if over else None
        tally = tally_of(table, summary) if over else None   # read from the state after it
    except BaseException:
        state.pop()
        raise
    return Played(seat=seat, version=version, move=chosen, text=str(chosen), over=over,
                  new_decks=new_decks, decks=len(dealt), summary=summary, tally=tally)


def spent(life: Life, seat: int, version: int, at: float) -> float | None:
    """The bank ``seat`` has left after its move at ``version`` made at ``at`` (``None``:
    its clock was not running)."""
    if not life.clocked or life.turn != (version, seat):
        return None
    assert life.move is not None
    used = max(0.0, at - life.started)
    return max(0.0, life.banks[seat] - max(0.0, used - life.move))


def unattended(table: LiveTable) -> bool:
    """A table whose people may come back, none of them connected: its bots wait for one
    (a table of bots alone plays for whoever watches, or for nobody; one whose people
    all left or forfeited is played to its end by the bots, for its result)."""
    life = table.life
    people = [seat for seat in table.seats if seat.kind == "human"
              and not (life is not None and life.gone(seat.index))]
    return bool(people) and not any(seat.connections for seat in people)


# -- the end without a move --------------------------------------------------------------
def check_playing(table: LiveTable, what: str) -> None:
    """Refuse (``Refused``) what cannot be done to a game over or not started."""
    if table.over:
        raise Refused(f"the game is over: there is nothing to {what}", 409, "game_over")
    if table.status == WAITING:
        raise Refused(f"the game has not started: nothing to {what} yet (every seat "
                      "must be taken first)", 409, "not_started")


def check_rematch(table: LiveTable, seat: int | None) -> None:
    """Refuse (``Refused``) a rematch asked before the end, or by a watcher of people."""
    if not table.over:
        raise Refused("a rematch can be asked for once the game is over", 409,
                      "rematch_not_over")
    if seat is None and any(s.kind == "human" for s in table.seats):
        raise Refused("only the players at this table can ask for a rematch", 409,
                      "rematch_not_player")


def aborts(table: LiveTable, seat: int) -> bool:
    """Whether ``seat`` leaving or resigning now aborts the game: a rated table where that
    seat has not moved yet (the abort window: nobody gains or loses a rating by a game
    one side never played)."""
    return (table.life is not None and table.life.rated
            and seat not in movers(table.state, table.players))


def check_leave(table: LiveTable, seat: int) -> None:
    """Refuse a leave the table does not allow: a rated game past the seat's first move,
    or a seat already left."""
    check_playing(table, "leave")
    life = table.life
    assert life is not None
    if life.rated and not aborts(table, seat):
        raise Refused("this game is rated: you may resign, not leave", 409, "rated_table")
    if life.gone(seat):
        raise Refused("you have already left this seat", 409, "already_left")


def resigned(table: LiveTable, seat: int) -> dict[str, object]:
    """The summary of a game ``seat`` resigns: its side loses (before its first move at a
    rated table: the game is aborted)."""
    check_playing(table, "resign")
    if aborts(table, seat):
        return aborted(table, seat)
    losers = side_of(table, seat)
    summary = plain(table.spec.summary(table.state))
    summary.update(over=True, ended="resigned", resigned=seat, losers=losers,
                   winners=[s for s in range(table.players) if s not in losers])
    if table.spec.has_loser:
        summary["loser"] = seat
    elif "winner" in summary:   # the game names its winning side
        summary["winner"] = _winning_side(table, losers)
    return annotate(table, summary)


def abandoned(table: LiveTable) -> dict[str, object]:
    """The summary of a game nobody came back to: it ends, unrated."""
    summary = plain(table.spec.summary(table.state))
    summary.update(over=True, ended="abandoned", abandoned=True)
    summary = annotate(table, summary)
    summary["rated"] = False
    return summary


def aborted(table: LiveTable, seat: int) -> dict[str, object]:
    """The summary of a rated game ``seat`` left or resigned before its first move: over,
    nobody won or lost, unrated."""
    summary = plain(table.spec.summary(table.state))
    summary.update(over=True, ended="aborted", aborted=True, aborted_by=seat)
    summary = annotate(table, summary)
    summary["rated"] = False
    return summary


def annotate(table: LiveTable, summary: dict[str, object]) -> dict[str, object]:
    """The summary of a finished game, with the seats that forfeited or left (their
    players lost, for ratings) and ``rated`` when it was (the rest is the game's own
    result, as its record has it)."""
    life: Life | None = table.life
    if life is None:
        return summary
    if life.forfeits:
        summary["forfeits"] = sorted(life.forfeits)
    if life.left:
        summary["left"] = sorted(life.left)
    if life.rated:
        summary["rated"] = True
    return summary


def side_of(table: LiveTable, seat: int) -> list[int]:
    """The seats that win or lose with ``seat``: its team where the rules seat teams
    (``seat % sides``, as both games' rules put it), else the seat alone."""
    count = table.players
    for name in ("sides", "teams"):
        method = getattr(table.rules, name, None)
        if callable(method):
            count = int(method(table.players))
            break
    if count >= table.players or count < 1:
        return [seat]
    return [s for s in range(table.players) if s % count == seat % count]


def _winning_side(table: LiveTable, losers: list[int]) -> int | None:
    """The one side left when ``losers`` resign, as the game numbers its sides (``seat %
    sides``); ``None`` when more than one side is left (no single winner)."""
    sides = table.players // len(losers)
    left = {s % sides for s in range(table.players) if s not in losers}
    return left.pop() if len(left) == 1 else None


def renamed_seats(table: LiveTable, player_id: str, becomes: str | None) -> list[LiveSeat]:
    """The seats of ``player_id`` that a new name (and, for a guest signing in, the
    account ``becomes``) reaches: none where that account sits too."""
    if becomes is not None and any(seat.player_id == becomes for seat in table.seats):
        return []
    return [seat for seat in table.seats if seat.player_id == player_id]


# -- help against bots (whether one may help: live, where a state says so) -----------
def check_hint(table: LiveTable, seat: int | None) -> Refusal | None:
    """Why ``seat`` may not have a hint now: a hint is for its own turn, one at a time."""
    reason = check_help(table, seat)
    if reason is None and table.state.to_move != seat:
        reason = refused("not_your_turn", "a hint is for your own turn",
                         seat=table.state.to_move)
    if reason is None and table.seats[seat].hinting:   # type: ignore[index]
        reason = refused("hint_thinking", "a hint for this seat is being thought: wait "
                         "for it")
    return reason


def last_move(table: LiveTable) -> protocol.LastMove | None:
    """The move before the table's current state, as ``state_message`` sends it."""
    if not table.version:
        return None
    trial = table.state.copy()
    move = trial.pop()
    return played(table.version - 1, trial.to_move, str(move),
                  table.version - 1 in table.takeovers)


def played(index: int, seat: int | None, text: str, takeover: bool) -> protocol.LastMove:
    """A table's ``last_move``; ``takeover`` when a bot made it for the seat's person, so
    the page logs it as "Bot for NAME" (and only then is it sent)."""
    if takeover:
        return protocol.LastMove(index=index, seat=seat, move=text, takeover=True)
    return protocol.LastMove(index=index, seat=seat, move=text)


def takeovers_to(takeovers: frozenset[int], version: int,
                 takeover: bool = False) -> frozenset[int]:
    """The takeover bots' moves among the first ``version`` moves (those of an undo
    forgotten), with move ``version`` itself when ``takeover``."""
    kept = frozenset(index for index in takeovers if index < version)
    return kept | {version} if takeover else kept
