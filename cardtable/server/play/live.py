"""A live table: its authoritative game, its seats and connections, and what each is sent.

Each connection has its own bounded outbox, so a slow client can fall behind (and skip
to the newest state) without holding up the table.  Everything here is changed by
the table's one owner, ``cardtable.server.play.dealer``; the rest only reads it.
"""

from __future__ import annotations

import asyncio
import collections
import random
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from ...bots import Bot
from ...game import GameRules, GameSpec
from ...records import Record, record_of, rules_to_dict
from ..core import protocol
from ..core.clock import Clock
from ..core.codes import Refusal, refused
from ..core.errors import Refused
from ..core.protocol import page_view
from ..core.shapes import TableState, flag, number, numbers, obj, whole, wholes
from ..core.wire import encode, plain
from ..store.storage import OVER, PLAYING, WAITING, hash_token
from .owner import Owner

__all__ = [
    "OVER",
    "PLAYING",
    "TIMEOUTS_TO_FORFEIT",
    "WAITING",
    "ChatRoom",
    "Connection",
    "Life",
    "LiveSeat",
    "LiveTable",
    "Outbox",
    "SecureRandom",
    "against_bots_only",
    "check_help",
    "send",
    "undo",
]


TIMEOUTS_TO_FORFEIT = 3
"""Timeouts in a row that forfeit the seat."""


@dataclass(eq=False)
class Life:
    """A table's clock and the seats that are gone (forfeited or left).

    ``banks`` and ``timeouts`` are per seat; ``turn`` is the (version, seat) whose clock
    runs, since ``started`` (on ``clock``, the tables' clock).

    A correspondence clock (``days``: 1 to 14 days a move, no bank) counts only while a
    server plays the table: what the running turn has spent is stored with the life
    (``spent``, at each ``CHECKPOINT`` and when the process stops), and a process that
    takes the table on (a restart) starts that turn's clock from there (``carried``),
    so a server down for a week costs nobody a second.  Such a table has no grace period
    and no abandonment watch: its players come and go for days.
    """

    players: int
    move: float | None = None
    """Seconds for each move (``None``: no clock)."""
    bank: float = 0.0
    days: int | None = None
    """Days for each move: a correspondence clock (``move`` is that many days)."""
    carried: tuple[tuple[int, int], float] | None = None
    """The turn whose clock ran before this process took the table, and its seconds spent."""
    rated: bool = False
    banks: list[float] = field(default_factory=list)
    timeouts: list[int] = field(default_factory=list)
    forfeits: list[int] = field(default_factory=list)
    left: list[int] = field(default_factory=list)
    turn: tuple[int, int] | None = None
    started: float = 0.0
    timer: asyncio.Task[None] | None = None
    abandon: asyncio.Task[None] | None = None
    timing_out: tuple[int, int] | None = None
    """The (version, seat) whose move the takeover bot is playing after a timeout."""
    ratings: dict[int, int] = field(default_factory=dict)
    """The rating each account's seat has in the table's pool (shown with the seat)."""
    clock: Clock = field(default_factory=Clock, repr=False)
    """What the time is (the tables' clock, given by ``Lifecycle.attach``)."""
    stored: dict[str, object] | None = field(default=None, repr=False)
    """The life as the database holds it (``to_dict``'s form; ``None``: unknown): a
    decision leaving it so writes nothing (a move inside its move time changes no bank)."""

    def __post_init__(self) -> None:
        if len(self.banks) != self.players:
            self.banks = [float(self.bank)] * self.players
        if len(self.timeouts) != self.players:
            self.timeouts = [0] * self.players

    @property
    def clocked(self) -> bool:
        return self.move is not None

    @property
    def correspondence(self) -> bool:
        """Days a move: no grace, no abandonment, time counted while a server runs."""
        return self.days is not None

    def gone(self, seat: int) -> bool:
        """The seat is played by the bot for good (forfeited, or its player left)."""
        return seat in self.forfeits or seat in self.left

    @classmethod
    def from_dict(cls, data: Mapping[str, object] | None, players: int) -> Life:
        """A life as ``to_dict`` stored it (``ValueError`` for one it did not)."""
        data = data or {}
        clock = obj(data.get("clock"))
        days = None if clock is None or "days" not in clock else whole(clock, "days", 0)
        carried = None
        turn = data.get("turn")
        if (days is not None and isinstance(turn, list) and len(turn) == 2
                and isinstance(turn[0], int) and isinstance(turn[1], int)):
            carried = ((turn[0], turn[1]), max(0.0, number(data, "spent", 0.0)))
        return cls(players=players,
                   move=(None if clock is None else float(days * DAY) if days is not None
                         else number(clock, "move", 0.0)),
                   bank=0.0 if clock is None or days is not None else number(clock, "bank", 0.0),
                   days=days, carried=carried, rated=flag(data, "rated"),
                   banks=numbers(data, "banks"), timeouts=wholes(data, "timeouts"),
                   forfeits=wholes(data, "forfeits"), left=wholes(data, "left"))

    def time_control(self) -> dict[str, float] | None:
        """The clock as it was chosen (``{"days": N}``, or a move's and the bank's seconds);
        ``None``: no clock."""
        if self.move is None:
            return None
        if self.days is not None:
            return {"days": self.days}
        return {"move": _whole(self.move), "bank": _whole(self.bank)}

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"clock": self.time_control(), "rated": self.rated,
                                  "banks": [round(b, 3) for b in self.banks],
                                  "timeouts": list(self.timeouts),
                                  "forfeits": list(self.forfeits), "left": list(self.left)}
        if self.days is not None and self.turn is not None:
            # the running turn's time so far: a process taking the table on goes on from it
            out["turn"] = list(self.turn)
            out["spent"] = round(max(0.0, self.clock.time() - self.started), 3)
        return out

    def time_left(self, at: float) -> tuple[float, float]:
        """(seconds of the move, seconds of the bank) the running turn has left at ``at``."""
        if self.turn is None or self.move is None:
            return 0.0, 0.0
        spent = max(0.0, at - self.started)
        bank = self.banks[self.turn[1]]
        return max(0.0, self.move - spent), max(0.0, bank - max(0.0, spent - self.move))

    def view(self, at: float) -> protocol.ClockView | None:
        """The clock as every viewer sees it: the time control, each bank, each seat's
        time-outs in a row (and how many forfeit the seat), and the seat whose time runs
        with what it has left (seconds, counted from when it is sent)."""
        if self.move is None:
            return None
        seat = move_left = bank_left = None
        if self.turn is not None:
            seat = self.turn[1]
            move, bank = self.time_left(at)
            move_left, bank_left = round(move, 1), round(bank, 1)
        return protocol.ClockView(move=self.move, bank=self.bank,
                                  banks=[round(b, 1) for b in self.banks],
                                  timeouts=list(self.timeouts),
                                  forfeit_after=TIMEOUTS_TO_FORFEIT, seat=seat,
                                  move_left=move_left, bank_left=bank_left, days=self.days)


DAY = 86_400
"""Seconds in a day of a correspondence clock."""
CHECKPOINT = 600.0
"""Seconds between two stores of a correspondence turn's time spent."""


def _whole(seconds: float) -> float | int:
    """Whole seconds as an int (``20``, not ``20.0``), as the time control was given."""
    return int(seconds) if float(seconds).is_integer() else seconds


class SecureRandom(random.SystemRandom):
    """Shuffles from the operating system's secure source.

    It has no state: copies share it, and an engine that copies a state by
    ``Random().setstate(rng.getstate())`` gets a generator seeded from the secure source
    (a copy is for thinking ahead, and must not know the real future deals anyway).
    """

    def getstate(self) -> tuple[object, ...]:  # type: ignore[override]
        return random.Random(secrets.randbits(256)).getstate()

    def setstate(self, state: object) -> None:  # type: ignore[override]
        """Nothing to restore: every draw comes from the operating system."""

    def __deepcopy__(self, memo: dict[int, object]) -> SecureRandom:
        return self

    def __copy__(self) -> SecureRandom:
        return self

    def __reduce__(self) -> tuple[object, ...]:
        return (SecureRandom, ())


class Outbox:
    """A bounded queue of encoded messages for one connection.

    State messages are whole snapshots, so when the queue is full the oldest state is
    dropped: the client still ends at the newest state.
    """

    def __init__(self, limit: int) -> None:
        self.limit = max(2, limit)
        self.items: collections.deque[tuple[str, str]] = collections.deque()
        self.ready = asyncio.Event()
        self.dropped = 0

    def put(self, kind: str, text: str) -> None:
        if len(self.items) >= self.limit:
            for position, (queued_kind, _) in enumerate(self.items):
                if queued_kind == "state":
                    del self.items[position]
                    break
            else:
                self.items.popleft()
            self.dropped += 1
        self.items.append((kind, text))
        self.ready.set()

    async def get_item(self) -> tuple[str, str]:
        """The next (kind, text); kind "close" asks the connection to close."""
        while not self.items:
            self.ready.clear()
            await self.ready.wait()
        return self.items.popleft()


@dataclass(eq=False)
class Connection:
    """One open WebSocket: the seat it plays (``None``: watching) and its outbox."""

    seat: int | None
    outbox: Outbox
    speaker: str | None = None
    """The account a watcher is signed in as (only accounts chat among the spectators)."""
    token_hash: str | None = None
    """The hash of the key the seat was found by (``None``: found otherwise, or not
    checked): the socket reads the seats before its ``Connect`` reaches the dealer, and a
    seat freed (never claimed) or taken anew in between is not the key's any more."""
    owner: str | None = None
    """The player a seat asked for by number (``?seat=N``) was found to be held by."""


def send(message: protocol.Outgoing, connections: Iterable[Connection]) -> None:
    """A message to a page, built as its model, to each of ``connections``, encoded once:
    the one way a table's message reaches a page (a cluster's relay carries the text on)."""
    text = encode(message)
    for connection in list(connections):
        connection.outbox.put(message.type, text)


@dataclass(eq=False)
class ChatRoom:
    """A table's chat as its owner keeps it: whether the players' chat is off (as last
    read or set: the database has it), when each connection (and, among the spectators,
    each account, however many sockets it opens) last chatted, within the rate's window,
    and the connections sent their room's history (only they are sent new lines)."""

    off: bool = False
    sent: dict[Connection, tuple[float, ...]] = field(default_factory=dict)
    spoken: dict[str, tuple[float, ...]] = field(default_factory=dict)
    ready: frozenset[Connection] = frozenset()


@dataclass(eq=False)
class LiveSeat:
    index: int
    kind: str
    bot_spec: str | None = None
    name: str | None = None
    token_hash: str | None = None
    bot: Bot | None = None
    """The bot playing this seat: its own bot, or a takeover bot for a dropped player."""
    bot_playing: str | None = None
    """The spec of ``bot`` (what a bot process makes its own copy from)."""
    connections: int = 0
    grace_task: asyncio.Task[None] | None = None
    seen: bool = False
    """A connection has come with this seat's token (``SeatRow.seen``)."""
    claim_task: asyncio.Task[None] | None = None
    hinting: bool = False
    """A hint for this seat is being thought (``assist``: one at a time)."""
    """Frees the seat if it is taken but nobody connects (``effects.Hold``)."""
    player_id: str | None = None
    """The player who took the seat (``players``), if known: they may come back to it
    from any device with their session."""
    player_kind: str | None = None
    """``guest``, ``account`` or ``bot`` (an account a program plays): shown with the seat."""

    @property
    def taken(self) -> bool:
        return self.kind == "bot" or self.token_hash is not None

    @property
    def played_by_bot(self) -> bool:
        return self.bot is not None

    def public(self, gone: Literal["forfeited", "left"] | None = None) -> protocol.SeatInfo:
        """The seat as every viewer sees it; ``gone`` only when its player is."""
        seat = protocol.SeatInfo(
            seat=self.index, kind="bot" if self.kind == "bot" else "human", bot=self.bot_spec,
            name=self.name, taken=self.taken,
            connected=self.kind == "human" and self.connections > 0,
            bot_playing=self.kind == "human" and self.bot is not None, player=self.player_id,
            player_kind=self.player_kind)
        if gone is not None:
            seat.gone = gone
        return seat

    def record_entry(self) -> dict[str, object]:
        entry: dict[str, object] = {"seat": self.index, "kind": self.kind}
        if self.bot_spec:
            entry["bot"] = self.bot_spec
        if self.name:
            entry["name"] = self.name
        return entry


@dataclass(eq=False)
class LiveTable:
    id: str
    game: str
    spec: GameSpec
    preset: str | None
    rules: GameRules
    players: int
    state: TableState
    seats: list[LiveSeat]
    status: str
    created: str
    takeover: str | None = None
    finished: str | None = None
    summary: dict[str, object] | None = None
    rematch_of: str | None = None
    rematch: str | None = None
    rematch_asked: set[int] = field(default_factory=set)
    """The seats that offered or accepted a rematch not made yet (kept in memory only)."""
    version: int = 0
    decks_stored: int = 0
    last_move: protocol.LastMove | None = None
    takeovers: frozenset[int] = frozenset()
    """The moves (by index) a takeover bot made for a person's seat: the move log says
    "Bot for NAME" for them, not "You" (stored as ``MoveRow.takeover``)."""
    connections: set[Connection] = field(default_factory=set)
    bot_task: asyncio.Task[None] | None = None
    life: Life | None = None
    """Its clocks, forfeits and seats left."""
    dealer: Owner = None   # type: ignore[assignment]  # given by the Dealer it is made with
    """Its one owner (``dealer.Dealer``): every change to the table goes through it."""
    budget: tuple[str, ...] = ()
    """Whose bot thinking its bots count against (``Limits.bots_thinking_per_address``):
    the address and the account that made it; none known (a table resumed after a
    restart, or made by quick play): the table alone."""
    chat: ChatRoom = field(default_factory=ChatRoom)
    """Its chat's setting, rates and the connections sent its history."""
    stale: bool = False
    """A move's write failed without an answer (the database went away): it may have
    been stored all the same, so the table is read again before the next move."""

    @property
    def over(self) -> bool:
        return self.status == OVER

    def seat_of_token(self, token: str) -> int | None:
        digest = hash_token(token)
        for seat in self.seats:
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                return seat.index
        return None

    def free_seats(self) -> list[LiveSeat]:
        return [seat for seat in self.seats if not seat.taken]

    def bot_to_move(self) -> int | None:
        """The seat a bot must play now, if any."""
        if self.status != PLAYING:
            return None
        seat = self.state.to_move
        if seat is None or not self.seats[seat].played_by_bot:
            return None
        return seat

    def refusal(self, seat: int, version: int, by_bot: bool) -> Refusal | None:
        """Why ``seat`` may not move now at ``version`` (``None``: it may)."""
        if self.over:
            return refused("game_over", "the game is over")
        if self.status == WAITING:
            free = len(self.free_seats())
            return refused("waiting_for_players",
                           f"the game starts when every seat is taken ({free} still free: "
                           f"share the invite link /table/{self.id})", free=free)
        if version != self.version:
            return refused("stale_version",
                           f"your move was chosen at version {version}, but the table is at "
                           f"version {self.version}: here is the current state",
                           version=version, current=self.version)
        if self.state.to_move != seat:
            return refused("not_your_turn",
                           f"it is not your turn: seat {self.state.to_move} is to move",
                           seat=self.state.to_move)
        if self.seats[seat].played_by_bot != by_bot:
            if not by_bot:
                return refused("bot_plays_seat", "a bot plays this seat now")
            return refused("player_back", "the player is back")
        return None

    # -- what is sent ---------------------------------------------------------------------
    def state_message(self, seat: int | None,
                      seats: list[protocol.SeatInfo] | None = None) -> protocol.State:
        """What ``seat`` may know now (``None``: a watcher), with ``seats`` when they were
        made for the whole broadcast.  Call it from the dealer."""
        to_move = self.state.to_move
        legal: list[str] = []
        if (seat is not None and seat == to_move and self.status == PLAYING
                and not self.seats[seat].played_by_bot):
            legal = [str(move) for move in self.state.legal_moves()]
        status: Literal["waiting", "playing", "over"] = (
            "over" if self.over else "playing" if self.status == PLAYING else "waiting")
        message = protocol.State(
            type="state", table=self.id, game=self.game, version=self.version, status=status,
            over=self.over, to_move=to_move, seat=seat,
            # plain JSON by the contract (test_contract); what is beside it, not in it too
            view=page_view(self.state.view(seat)), legal_moves=legal,
            last_move=self.last_move,
            seats=self.public_seats() if seats is None else seats)
        if seat is not None and self.status == PLAYING:
            # the Undo button only where an undo works
            message.undo = isinstance(undo(self, seat), int)
        if self.life is not None:
            message.rated = self.life.rated
            message.ratings = {str(seat): value for seat, value in self.life.ratings.items()}
            if self.life.clocked:
                message.clock = self.life.view(self.life.clock.time())
        if self.over:
            message.summary = self.summary
            message.rematch = self.rematch
            if self.rematch is None and self.rematch_asked:
                message.rematch_asked = sorted(self.rematch_asked)
        return message

    def public_seats(self) -> list[protocol.SeatInfo]:
        """Every seat as every viewer sees it, with ``gone`` for a seat a bot plays to the
        end because its player forfeited or left (the page says so, not "online")."""
        life = self.life
        if life is None:
            return [s.public() for s in self.seats]
        return [s.public("forfeited" if s.index in life.forfeits
                         else "left" if s.index in life.left else None) for s in self.seats]

    def broadcast(self) -> None:
        """The new state to every connection, each seat its own view.  Call it from the dealer."""
        by_seat: dict[int | None, list[Connection]] = {}
        for connection in self.connections:
            by_seat.setdefault(connection.seat, []).append(connection)
        if by_seat:
            seats = self.public_seats()
            for seat, connections in by_seat.items():
                send(self.state_message(seat, seats), connections)

    def refuse(self, connection: Connection, reason: str, code: str | None = None,
               params: Mapping[str, object] | None = None) -> None:
        """An error for one connection (its code's parameters beside the code), then a
        fresh state.  Call it from the dealer."""
        if isinstance(reason, Refusal):
            code = code or reason.code
            params = {**reason.params, **(params or {})}
        send(protocol.Error.of(str(reason), code or "refused", params), (connection,))
        send(self.state_message(connection.seat), (connection,))

    def creator_seat(self) -> int | None:
        """The seat ``Seating.create`` gives the creator: the first person's."""
        return next((seat.index for seat in self.seats if seat.kind == "human"), None)

    def closing(self, player_id: str | None = None) -> list[Connection]:
        """Every connection, or with ``player_id`` only that player's (a seat's or a
        spectator's)."""
        return [c for c in self.connections if player_id is None or player_id == (
            self.seats[c.seat].player_id if c.seat is not None else c.speaker)]

    def close_all(self, reason: str, player_id: str | None = None) -> int:
        """Ask every connection to close (and reconnect, to wherever the table is now), or
        with ``player_id`` only that player's, a seat's or a spectator's; answers how many."""
        closing = self.closing(player_id)
        for connection in closing:
            connection.outbox.put("close", reason)
        return len(closing)

    def describe(self) -> dict[str, object]:
        """The public summary of the table (the GET endpoints)."""
        out: dict[str, object] = {
            "id": self.id,
            "game": self.game,
            "title": self.spec.title,
            "preset": self.preset,
            "rules": rules_to_dict(self.rules),
            "players": self.players,
            "status": self.status,
            "over": self.over,
            "version": self.version,
            "to_move": self.state.to_move if self.status == PLAYING else None,
            "seats": [seat.model_dump(exclude_unset=True) for seat in self.public_seats()],
            "free_seats": len(self.free_seats()),
            "takeover": self.takeover,
            "created": self.created,
            "finished": self.finished,
            "invite": f"/table/{self.id}",
            "rematch_of": self.rematch_of,
            "rematch": self.rematch,
        }
        if self.life is not None:
            out["clock"] = self.life.time_control()
            out["rated"] = self.life.rated
            out["gone"] = sorted(self.life.forfeits + self.life.left)
        if self.over:
            out["summary"] = self.summary
        return out

    def record(self) -> Record:
        """The game record; the decks are in it, so only once the game is over."""
        if not self.over:
            raise Refused("the game is not over yet: its record (which holds the decks) "
                             "is given once it has ended", 409, "not_over")
        record = record_of(self.state, self.game, seats=[s.record_entry() for s in self.seats],
                           started=self.created, table=self.id)
        record.finished = self.finished
        if record.result is None and self.summary:
            # ended by the table, not by the rules (resigned, abandoned): its summary says
            # how, and is the game's result
            record.result = plain(self.summary)
        return record


# -- help against bots: what a state message tells a seat, and steps refuses by -----
def against_bots_only(table: LiveTable, seat: int) -> bool:
    """Whether every seat but ``seat`` is a bot's (a person's seat played by a takeover
    bot is still a person's)."""
    return all(other.kind == "bot" for other in table.seats if other.index != seat)


def check_help(table: LiveTable, seat: int | None) -> Refusal | None:
    """Why ``seat`` may not have a hint or an undo here (``None``: it may)."""
    if seat is None:
        return refused("watching", "you are watching this table: only seated players ask")
    if table.life is not None and table.life.gone(seat):
        return refused("seat_gone", "a bot plays your seat to the end (you forfeited or "
                       "left): there is nothing of yours to take back or hint")
    if not against_bots_only(table, seat):
        return refused("not_against_bots", "hints and undo are only for tables where every "
                       "other seat is a bot")
    if table.status == OVER:
        return refused("game_over", "the game is over")
    if table.status != PLAYING:
        return refused("waiting_for_players", "the game has not started", free=0)
    return None


def undo(table: LiveTable, seat: int | None) -> Refusal | int:
    """How many moves an undo for ``seat`` takes back (its own last decision and the
    bots' answers to it, within the current deal), or why it may not."""
    reason = check_help(table, seat)
    if reason is not None:
        return reason
    trial = table.state.copy()
    dealt = len(table.spec.deals(trial))
    taken: list[object] = []
    while True:
        if not trial.move_stack:
            return refused("nothing_to_undo", "you have made no move to take back")
        taken.append(trial.pop())
        if trial.to_move == seat:
            break
    assert seat is not None   # check_help refused a watcher
    if len(table.spec.deals(trial)) != dealt or _drew(trial, seat, taken[::-1]):
        return refused("undo_past_deal", "a move before cards were last dealt or drawn "
                       "cannot be taken back (you have seen the cards since)")
    return len(taken)


def _drew(before: TableState, seat: int, moves: list[object]) -> bool:
    """Whether ``seat`` got a card into its hand, playing ``moves`` on from ``before``,
    that it could not see at ``before`` (drawn from the stock, or dealt): undoing them
    would let it play again knowing what comes next."""
    seen = set(_cards_in(before.view(seat)))
    trial = before.copy()
    for move in moves:
        trial.push(move)
        hand = trial.view(seat).get("hand")
        if isinstance(hand, list) and any(card not in seen for card in hand):
            return True
    return False


def _cards_in(value: object) -> list[str]:
    """Every text in a view (cards are texts there; other texts match no card)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for item in value.values() for text in _cards_in(item)]
    if isinstance(value, list | tuple):
        return [text for item in value for text in _cards_in(item)]
    return []
