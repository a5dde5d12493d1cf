"""Live tables: one authoritative game per table, its seats, its watchers and its bots.

Every change to a table happens under the table's asyncio lock, in this order: check the
move against the current version and the rules, apply it, write it to the database, and
only then tell everyone.  If the write fails the move is taken back and nobody hears of
it.  Each connection has its own bounded outbox, so a slow client can fall behind (and
skip to the newest state) without holding up the table.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
import random
import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.exc import IntegrityError

from .. import bots, games
from ..cards import Card
from ..game import GameSpec, GameState, IllegalMove
from ..records import Record, record_of, rules_from_dict, rules_to_dict
from .storage import (
    RematchExists,
    SeatRow,
    Storage,
    StoredTable,
    TableRow,
    hash_token,
    now,
)
from .wire import MessageError, decode, encode, plain

__all__ = [
    "Connection",
    "LiveSeat",
    "LiveTable",
    "NotHere",
    "Outbox",
    "SecureRandom",
    "Settings",
    "TableError",
    "Tables",
]

log = logging.getLogger("cardtable.server")

WAITING, PLAYING, OVER = "waiting", "playing", "over"


class NotHere(Exception):
    """The table is owned by another server process (see ``cluster``)."""

    def __init__(self, table_id: str, owner: str | None) -> None:
        super().__init__(f"table {table_id} is played by server process {owner}")
        self.table_id = table_id
        self.owner = owner


class TableError(ValueError):
    """A request about a table that cannot be granted; ``status`` is the HTTP status."""

    def __init__(self, reason: str, status: int = 409) -> None:
        super().__init__(reason)
        self.reason = reason
        self.status = status


@dataclass
class Settings:
    """How the live tables behave; the tests set the delays to zero."""

    bot_delay: float = 0.8
    """Seconds a bot waits before it plays, so people can follow the game."""
    bot_time_limit: float = 30.0
    """A bot that thinks longer than this plays a random legal move instead."""
    grace: float = 60.0
    """Seconds a dropped player keeps the seat before a takeover bot may play for them."""
    queue_limit: int = 64
    """Messages waiting for one connection; past this the oldest state is dropped."""
    bot_processes: int = 0
    """Processes bots think in (0: threads of the server process)."""


class SecureRandom(random.SystemRandom):
    """Shuffles from the operating system's secure source.

    It has no state: copies share it, and an engine that copies a state by
    ``Random().setstate(rng.getstate())`` gets a generator seeded from the secure source
    (a copy is for thinking ahead, and must not know the real future deals anyway).
    """

    def getstate(self) -> tuple:
        return random.Random(secrets.randbits(256)).getstate()

    def setstate(self, state: object) -> None:
        """Nothing to restore: every draw comes from the operating system."""

    def __deepcopy__(self, memo: dict) -> SecureRandom:
        return self

    def __copy__(self) -> SecureRandom:
        return self

    def __reduce__(self) -> tuple:
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


@dataclass(eq=False)
class LiveSeat:
    index: int
    kind: str
    bot_spec: str | None = None
    name: str | None = None
    token_hash: str | None = None
    bot: Any = None
    """The bot playing this seat: its own bot, or a takeover bot for a dropped player."""
    bot_playing: str | None = None
    """The spec of ``bot`` (what a bot process makes its own copy from)."""
    connections: int = 0
    grace_task: asyncio.Task | None = None

    @property
    def taken(self) -> bool:
        return self.kind == "bot" or self.token_hash is not None

    @property
    def played_by_bot(self) -> bool:
        return self.bot is not None

    def public(self) -> dict[str, Any]:
        return {"seat": self.index, "kind": self.kind, "bot": self.bot_spec, "name": self.name,
                "taken": self.taken, "connected": self.kind == "human" and self.connections > 0,
                "bot_playing": self.kind == "human" and self.bot is not None}

    def record_entry(self) -> dict[str, Any]:
        entry: dict[str, Any] = {"seat": self.index, "kind": self.kind}
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
    rules: Any
    players: int
    state: GameState
    seats: list[LiveSeat]
    status: str
    created: str
    takeover: str | None = None
    finished: str | None = None
    summary: dict | None = None
    rematch_of: str | None = None
    rematch: str | None = None
    version: int = 0
    decks_stored: int = 0
    last_move: dict | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: set[Connection] = field(default_factory=set)
    bot_task: asyncio.Task | None = None

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

    def state_message(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know now (``None``: a watcher).  Call under the lock."""
        to_move = self.state.to_move
        legal: list[str] = []
        if (seat is not None and seat == to_move and self.status == PLAYING
                and not self.seats[seat].played_by_bot):
            legal = [str(move) for move in self.state.legal_moves()]
        message: dict[str, Any] = {
            "type": "state",
            "table": self.id,
            "game": self.game,
            "version": self.version,
            "status": self.status,
            "over": self.over,
            "to_move": to_move,
            "seat": seat,
            "view": plain(self.state.view(seat)),
            "legal_moves": legal,
            "last_move": self.last_move,
            "seats": [s.public() for s in self.seats],
        }
        if self.over:
            message["summary"] = self.summary
            message["rematch"] = self.rematch
        return message

    def describe(self) -> dict[str, Any]:
        """The public summary of the table (the GET endpoints)."""
        out: dict[str, Any] = {
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
            "seats": [s.public() for s in self.seats],
            "free_seats": len(self.free_seats()),
            "takeover": self.takeover,
            "created": self.created,
            "finished": self.finished,
            "invite": f"/table/{self.id}",
            "rematch_of": self.rematch_of,
            "rematch": self.rematch,
        }
        if self.over:
            out["summary"] = self.summary
        return out

    def record(self) -> Record:
        """The game record; the decks are in it, so only once the game is over."""
        if not self.over:
            raise TableError("the game is not over yet: its record (which holds the decks) "
                             "is given once it has ended")
        record = record_of(self.state, self.game, seats=[s.record_entry() for s in self.seats],
                           started=self.created, table=self.id)
        record.finished = self.finished
        return record


ID_LETTERS = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"


_WORKER_BOTS: dict[str, Any] = {}


def watch_parent(parent: int) -> None:
    """In a bot process: end when the server process is gone (even killed with -9)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="watch-parent").start()


def choose_in_worker(spec: str, state: GameState) -> str:
    """In a bot process: this process's own bot of that spec chooses a move."""
    bot = _WORKER_BOTS.get(spec)
    if bot is None:
        bot = _WORKER_BOTS[spec] = bots.make(spec, seed=secrets.randbits(64))
    return str(bot.choose(state))


def new_id() -> str:
    """A table id for invite links: 10 letters and digits, none that look alike."""
    return "".join(secrets.choice(ID_LETTERS) for _ in range(10))


def new_token() -> str:
    return secrets.token_urlsafe(24)


def parse_seat(text: str) -> tuple[str, str | None]:
    """``"human"`` or ``"bot:SPEC"`` (the spec as ``bots.make`` reads it)."""
    if not isinstance(text, str):
        raise ValueError(f"a seat is \"human\" or \"bot:NAME\", not {text!r}")
    word = text.strip()
    if word == "human":
        return "human", None
    kind, colon, bot_spec = word.partition(":")
    if kind != "bot":
        raise ValueError(f"a seat is \"human\" or \"bot:NAME\" (the bots are: "
                         f"{', '.join(bots.specs())}), not {text!r}")
    bot_spec = bot_spec.strip() if colon else ""
    if not bot_spec:
        bot_spec = default_bot()
    try:
        bots.make(bot_spec, seed=0)
    except ValueError as error:
        raise ValueError(f"seat {text!r}: {error}") from None
    return "bot", bot_spec


def default_bot() -> str:
    return "medium" if "medium" in bots.specs() else "random"


def _options_for(base: Any, options: dict[str, Any]) -> dict[str, Any]:
    """JSON lists become tuples where the rules hold tuples."""
    out = {}
    for name, value in options.items():
        current = getattr(base, name, None)
        if isinstance(current, tuple | frozenset) and isinstance(value, list):
            value = type(current)(value)
        out[name] = value
    return out


class Tables:
    """Every live table of this server process."""

    def __init__(self, storage: Storage, settings: Settings | None = None) -> None:
        self.storage = storage
        self.settings = settings or Settings()
        self.live: dict[str, LiveTable] = {}
        self._loading: dict[str, asyncio.Lock] = collections.defaultdict(asyncio.Lock)
        self._tasks: set[asyncio.Task] = set()
        self.broken: dict[str, str] = {}
        self.cluster: Any = None
        """A ``cluster.Cluster`` when several processes share the tables, else ``None``."""
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None

    # -- start and stop -----------------------------------------------------------------
    async def start(self) -> None:
        """Load every unfinished table: deal its stored decks and replay its moves."""
        stored = await asyncio.to_thread(self.storage.unfinished)
        for item in stored:
            if self.cluster is not None and not await self.cluster.claim(item.row.id):
                continue  # another process plays it
            try:
                table = self._rebuild(item)
            except Exception as error:  # a table that cannot be rebuilt must not stop the rest
                self.broken[item.row.id] = str(error)
                log.error("table %s cannot be resumed: %s", item.row.id, error)
                continue
            self.live[table.id] = table
            self._start_graces(table)
            self._kick(table)
        log.info("resumed %d unfinished tables", len(self.live))

    async def stop(self) -> None:
        tasks = list(self._tasks)
        for table in self.live.values():
            if table.bot_task is not None:
                tasks.append(table.bot_task)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)

    def _spawn(self, coroutine: Any) -> asyncio.Task:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # -- building tables ----------------------------------------------------------------
    def _rebuild(self, stored: StoredTable) -> LiveTable:
        row = stored.row
        spec = games.get(row.game)
        rules = rules_from_dict(spec, row.rules)
        decks = [[Card.parse(text) for text in deck] for deck in stored.decks]
        state = spec.start(rules, players=row.players, seed=SecureRandom(), decks=decks)
        last_move = None
        for stored_move in stored.moves:
            move = state.parse_move(stored_move.move)
            state.push(move)
            last_move = {"index": stored_move.index, "seat": stored_move.seat,
                         "move": stored_move.move}
        dealt = [[card.text for card in deck] for deck in spec.deals(state)]
        if dealt != stored.decks:
            raise RuntimeError(f"replaying the moves dealt {len(dealt)} decks, not the "
                               f"{len(stored.decks)} stored ones")
        seats = [self._live_seat(seat_row, row.takeover) for seat_row in stored.seats]
        status = row.status
        if status != OVER and state.is_over():
            status = OVER
        return LiveTable(
            id=row.id, game=row.game, spec=spec, preset=row.preset, rules=rules,
            players=row.players, state=state, seats=seats, status=status, created=row.created,
            takeover=row.takeover, finished=row.finished, summary=row.summary,
            rematch_of=row.rematch_of, rematch=row.rematch, version=len(stored.moves),
            decks_stored=len(stored.decks), last_move=last_move)

    @staticmethod
    def _live_seat(row: SeatRow, takeover: str | None) -> LiveSeat:
        seat = LiveSeat(index=row.seat, kind=row.kind, bot_spec=row.bot, name=row.name,
                        token_hash=row.token_hash)
        if row.kind == "bot":
            seat.bot_playing = row.bot or default_bot()
            seat.bot = bots.make(seat.bot_playing, seed=secrets.randbits(64))
        return seat

    def validate(self, game: str, preset: str | None, options: dict[str, Any] | None,
                 players: int | None, seats: list[str] | None,
                 takeover: str | None) -> tuple[GameSpec, Any, int, list[tuple[str, str | None]]]:
        """Check a new table's settings; a ``ValueError`` says what is wrong."""
        spec = games.get(game)
        base = spec.rules(preset)
        rules = spec.rules(preset, _options_for(base, options or {}))
        if players is None:
            players = len(seats) if seats else spec.default_players
        if players not in spec.player_counts:
            raise ValueError(f"{spec.title} is played by "
                             f"{' or '.join(map(str, spec.player_counts))} players, "
                             f"not {players}")
        if seats is None:
            seats = ["human"] + [f"bot:{default_bot()}"] * (players - 1)
        if len(seats) != players:
            raise ValueError(f"the seats list has {len(seats)} entries for {players} players: "
                             "give one per player (\"human\" or \"bot:NAME\")")
        parsed = [parse_seat(seat) for seat in seats]
        if takeover is not None:
            kind, _ = parse_seat(takeover)
            if kind != "bot":
                raise ValueError("takeover must name a bot, such as \"bot:easy\"")
        return spec, rules, players, parsed

    async def create(self, game: str, *, preset: str | None = None,
                     options: dict[str, Any] | None = None, players: int | None = None,
                     seats: list[str] | None = None, takeover: str | None = None,
                     name: str | None = None) -> tuple[LiveTable, int | None, str | None]:
        """A new table; the creator takes the first human seat (none: a table to watch)."""
        spec, rules, players, parsed = self.validate(game, preset, options, players, seats,
                                                     takeover)
        try:
            state = spec.start(rules, players=players, seed=SecureRandom())
        except (ValueError, TypeError) as error:
            raise ValueError(f"these rules cannot be played: {error}") from None
        takeover_spec = parse_seat(takeover)[1] if takeover else None
        table_id = new_id()
        token = None
        creator = None
        seat_rows = []
        for index, (kind, bot_spec) in enumerate(parsed):
            token_hash = None
            seat_name = None
            if kind == "human" and creator is None:
                creator = index
                token = new_token()
                token_hash = hash_token(token)
                seat_name = name
            seat_rows.append(SeatRow(table_id=table_id, seat=index, kind=kind, bot=bot_spec,
                                     name=seat_name, token_hash=token_hash))
        free = sum(1 for row in seat_rows if row.kind == "human" and row.token_hash is None)
        status = WAITING if free else PLAYING
        created = now()
        decks = [[card.text for card in deck] for deck in spec.deals(state)]
        row = TableRow(id=table_id, game=spec.name, preset=spec.preset_of(rules),
                       rules=rules_to_dict(rules), players=players, takeover=takeover_spec,
                       status=status, created=created)
        await asyncio.to_thread(self.storage.create_table, row, seat_rows, decks)
        if self.cluster is not None:
            await self.cluster.claim(table_id)
        table = LiveTable(
            id=table_id, game=spec.name, spec=spec, preset=row.preset, rules=rules,
            players=players, state=state,
            seats=[self._live_seat(seat_row, takeover_spec) for seat_row in seat_rows],
            status=status, created=created, takeover=takeover_spec, decks_stored=len(decks))
        self.live[table_id] = table
        self._start_graces(table)
        self._kick(table)
        return table, creator, token

    async def get(self, table_id: str) -> LiveTable | None:
        """A table by id, loading it from the database if it is not live (a finished one).

        A table whose stored moves cannot be replayed raises ``TableError`` (503).
        """
        table = self.live.get(table_id)
        if table is not None:
            return table
        if len(table_id) > 32:
            return None
        if table_id in self.broken:
            raise TableError(f"table {table_id} cannot be resumed: {self.broken[table_id]}", 503)
        lock = self._loading[table_id]
        try:
            async with lock:
                table = self.live.get(table_id)
                if table is not None:
                    return table
                stored = await asyncio.to_thread(self.storage.load, table_id)
                if stored is None:
                    return None
                if self.cluster is not None and stored.row.status != OVER:
                    # own it first, then read it again: the last owner may have just moved
                    if not await self.cluster.claim(table_id):
                        raise NotHere(table_id, await self.cluster.owner(table_id))
                    stored = await asyncio.to_thread(self.storage.load, table_id)
                    assert stored is not None
                try:
                    table = self._rebuild(stored)
                except Exception as error:
                    self.broken[table_id] = str(error)
                    log.error("table %s cannot be resumed: %s", table_id, error)
                    raise TableError(f"table {table_id} cannot be resumed: {error}",
                                     503) from None
                self.live[table_id] = table
                if table.over:
                    self._trim()
                else:  # adopted from a process that stopped: its bots and graces go on here
                    self._start_graces(table)
                    self._kick(table)
                return table
        finally:
            if not lock.locked():
                self._loading.pop(table_id, None)

    async def snapshot(self, table_id: str) -> LiveTable | None:
        """The table to read from: the live one, or (when another process plays it) a copy
        rebuilt from the database, not kept."""
        try:
            return await self.get(table_id)
        except NotHere:
            stored = await asyncio.to_thread(self.storage.load, table_id)
            return None if stored is None else self._rebuild(stored)

    async def drop(self, table_id: str, reason: str) -> None:
        """Stop playing a table here (another process owns it now); its players reconnect."""
        table = self.live.pop(table_id, None)
        if table is None:
            return
        if table.bot_task is not None:
            table.bot_task.cancel()
        for seat in table.seats:
            if seat.grace_task is not None:
                seat.grace_task.cancel()
        for connection in list(table.connections):
            connection.outbox.put("close", reason)

    async def reload_seats(self, table_id: str) -> None:
        """Someone took a seat through another process: read the seats again."""
        table = self.live.get(table_id)
        if table is None:
            return
        rows = await asyncio.to_thread(self.storage.seats_of, table_id)
        async with table.lock:
            for row in rows:
                seat = table.seats[row.seat]
                seat.token_hash, seat.name = row.token_hash, row.name
            if table.status == WAITING and not table.free_seats():
                table.status = PLAYING
                await asyncio.to_thread(self.storage.set_status, table.id, PLAYING)
                self._start_graces(table)
            self._broadcast(table)
        self._kick(table)

    def _evict_if_idle(self, table: LiveTable) -> None:
        """A finished table nobody watches leaves memory; the database still has it."""
        if table.over and not table.connections and table.bot_task is None:
            self.live.pop(table.id, None)

    def _trim(self, keep: int = 256) -> None:
        """Keep at most ``keep`` finished tables that nobody watches (oldest leave first)."""
        idle = [t for t in self.live.values()
                if t.over and not t.connections and t.bot_task is None]
        for table in idle[:max(0, len(idle) - keep)]:
            self.live.pop(table.id, None)

    async def join(self, table_id: str, name: str | None = None) -> tuple[LiveTable, int, str]:
        """Give the first free human seat to a new player."""
        try:
            table = await self.get(table_id)
        except NotHere as elsewhere:
            return await self._join_elsewhere(elsewhere, name)
        if table is None:
            raise TableError(f"there is no table {table_id!r}", 404)
        async with table.lock:
            if table.over:
                raise TableError("this game is over: there is no seat to take")
            free = table.free_seats()
            if not free:
                raise TableError("every seat at this table is taken; you can still watch")
            seat = free[0]
            token = new_token()
            digest = hash_token(token)
            if not await asyncio.to_thread(self.storage.take_seat, table.id, seat.index,
                                           digest, name):
                raise TableError("that seat was just taken by someone else; try again")
            seat.token_hash = digest
            seat.name = name
            if not table.free_seats():
                table.status = PLAYING
                await asyncio.to_thread(self.storage.set_status, table.id, PLAYING)
                self._start_graces(table)
            self._broadcast(table)
        self._kick(table)
        return table, seat.index, token

    async def _join_elsewhere(self, elsewhere: NotHere,
                              name: str | None) -> tuple[LiveTable, int, str]:
        """Take a seat in the database and tell the owning process to read the seats."""
        table = await self.snapshot(elsewhere.table_id)
        if table is None:
            raise TableError(f"there is no table {elsewhere.table_id!r}", 404)
        if table.over:
            raise TableError("this game is over: there is no seat to take")
        for seat in table.free_seats():
            token = new_token()
            if await asyncio.to_thread(self.storage.take_seat, table.id, seat.index,
                                       hash_token(token), name):
                if len(table.free_seats()) == 1:
                    await asyncio.to_thread(self.storage.set_status, table.id, PLAYING)
                if elsewhere.owner is not None:
                    await self.cluster.send(elsewhere.owner,
                                            {"kind": "seats", "table": table.id})
                return table, seat.index, token
        raise TableError("every seat at this table is taken; you can still watch")

    # -- playing --------------------------------------------------------------------------
    async def play(self, table: LiveTable, seat: int, version: int, text: str, *,
                   by_bot: bool = False) -> str | None:
        """Play a move for ``seat``; returns why not (nothing changes then), or ``None``."""
        async with table.lock:
            reason = self._refusal(table, seat, version, by_bot)
            if reason:
                return reason
            state = table.state
            try:
                move = state.parse_move(text)
            except ValueError as error:
                return f"{text!r} is not a move here: {error}"
            try:
                state.push(move)
            except (IllegalMove, ValueError) as error:
                return f"{text!r} cannot be played now: {error}"
            except Exception as error:  # a fault in the engine: the state may be half-changed
                log.exception("table %s: the engine failed on %r", table.id, text)
                await self._restore(table)
                return (f"the game could not play {text!r} ({type(error).__name__}: {error}); "
                        "nothing changed")
            move_text = str(move)
            over = state.is_over()
            dealt = table.spec.deals(state)
            new_decks = [(index, [card.text for card in dealt[index]])
                         for index in range(table.decks_stored, len(dealt))]
            summary = plain(table.spec.summary(state)) if over else None
            try:
                at = await asyncio.to_thread(
                    self.storage.append_move, table.id, table.version, seat, move_text,
                    new_decks=new_decks, over=over, summary=summary)
            except Exception as error:
                state.pop()
                log.exception("table %s: move %d could not be saved", table.id, table.version)
                if self.cluster is not None and isinstance(error, IntegrityError):
                    # another process wrote this move: it owns the table now
                    self._spawn(self.drop(table.id, "the table moved to another server"))
                return f"the move could not be saved ({type(error).__name__}); nothing changed"
            table.last_move = {"index": table.version, "seat": seat, "move": move_text}
            table.version += 1
            table.decks_stored = len(dealt)
            if over:
                table.status = OVER
                table.finished = at
                table.summary = summary
                for live_seat in table.seats:
                    if live_seat.grace_task is not None:
                        live_seat.grace_task.cancel()
            self._broadcast(table)
        if table.over:
            self._evict_if_idle(table)
        else:
            self._kick(table)
        return None

    async def _restore(self, table: LiveTable) -> None:
        """Deal and replay the table again from the database.  Call under the lock."""
        stored = await asyncio.to_thread(self.storage.load, table.id)
        if stored is not None:
            table.state = self._rebuild(stored).state

    @staticmethod
    def _refusal(table: LiveTable, seat: int, version: int, by_bot: bool) -> str | None:
        if table.over:
            return "the game is over"
        if table.status == WAITING:
            free = len(table.free_seats())
            return (f"the game starts when every seat is taken ({free} still free: share the "
                    f"invite link /table/{table.id})")
        if version != table.version:
            return (f"your move was chosen at version {version}, but the table is at version "
                    f"{table.version}: here is the current state")
        if table.state.to_move != seat:
            return f"it is not your turn: seat {table.state.to_move} is to move"
        if table.seats[seat].played_by_bot != by_bot:
            return "a bot plays this seat now" if not by_bot else "the player is back"
        return None

    def _bot_pool(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._pool is None:
            self._pool = concurrent.futures.ProcessPoolExecutor(
                max_workers=self.settings.bot_processes,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=watch_parent, initargs=(os.getpid(),))
        return self._pool

    def _kick(self, table: LiveTable) -> None:
        """Start the table's bot loop if a bot is to move and none is running."""
        if table.bot_task is None and table.bot_to_move() is not None:
            table.bot_task = self._spawn(self._bot_loop(table))

    async def _bot_loop(self, table: LiveTable) -> None:
        """Play for the bots while it is a bot's turn; each move goes through ``play``."""
        try:
            while True:
                async with table.lock:
                    seat = table.bot_to_move()
                    if seat is None:
                        return
                    bot, spec = table.seats[seat].bot, table.seats[seat].bot_playing
                    snapshot = table.state.copy()
                    version = table.version
                if self.settings.bot_delay > 0:
                    await asyncio.sleep(self.settings.bot_delay)
                text = await self._bot_move(table, bot, spec, snapshot)
                reason = await self.play(table, seat, version, text, by_bot=True)
                if reason:
                    log.info("table %s: bot move %r for seat %d not played: %s",
                             table.id, text, seat, reason)
        except asyncio.CancelledError:
            raise
        except Exception:
            # the next move or connection at this table starts the loop again
            log.exception("table %s: the bot loop stopped", table.id)
        finally:
            table.bot_task = None
            self._evict_if_idle(table)

    async def _bot_move(self, table: LiveTable, bot: Any, spec: str | None,
                        snapshot: GameState) -> str:
        """The bot's move as text: thought in a bot process if there are any (so a long
        search does not hold the server's interpreter), else in a thread."""
        try:
            if self.settings.bot_processes and spec:
                thinking = asyncio.get_running_loop().run_in_executor(
                    self._bot_pool(), choose_in_worker, spec, snapshot)
            else:
                thinking = asyncio.to_thread(lambda: str(bot.choose(snapshot)))
            return await asyncio.wait_for(thinking, timeout=self.settings.bot_time_limit)
        except TimeoutError:
            log.warning("table %s: bot %s took longer than %.1fs; playing a random move",
                        table.id, getattr(bot, "name", bot), self.settings.bot_time_limit)
        except Exception:
            log.exception("table %s: bot %s failed; playing a random move", table.id,
                          getattr(bot, "name", bot))
        moves = snapshot.legal_moves()
        return str(moves[secrets.randbelow(len(moves))])

    # -- connections ------------------------------------------------------------------------
    async def connect(self, table: LiveTable, connection: Connection) -> None:
        async with table.lock:
            table.connections.add(connection)
            if connection.seat is not None:
                seat = table.seats[connection.seat]
                seat.connections += 1
                if seat.grace_task is not None:
                    seat.grace_task.cancel()
                    seat.grace_task = None
                if seat.kind == "human" and seat.bot is not None:
                    seat.bot = seat.bot_playing = None  # the player is back
            self._broadcast(table)

    async def disconnect(self, table: LiveTable, connection: Connection) -> None:
        async with table.lock:
            table.connections.discard(connection)
            if connection.seat is not None:
                seat = table.seats[connection.seat]
                seat.connections -= 1
                if seat.connections == 0 and table.takeover and not table.over:
                    self._start_grace(table, seat)
            self._broadcast(table)
            self._evict_if_idle(table)

    def _start_graces(self, table: LiveTable) -> None:
        """A game with a takeover bot starts: each person not here yet has the grace period
        to connect, or the bot plays for them."""
        if table.takeover and table.status == PLAYING:
            for seat in table.seats:
                if seat.kind == "human" and seat.connections == 0:
                    self._start_grace(table, seat)

    def _start_grace(self, table: LiveTable, seat: LiveSeat) -> None:
        if seat.grace_task is not None:
            seat.grace_task.cancel()
        seat.grace_task = self._spawn(self._grace(table, seat))

    async def _grace(self, table: LiveTable, seat: LiveSeat) -> None:
        await asyncio.sleep(self.settings.grace)
        async with table.lock:
            seat.grace_task = None
            if seat.connections or table.over or not table.takeover or seat.bot is not None:
                return
            seat.bot = bots.make(table.takeover, seed=secrets.randbits(64))
            seat.bot_playing = table.takeover
            log.info("table %s: %s takes over seat %d", table.id, table.takeover, seat.index)
            self._broadcast(table)
        self._kick(table)

    async def receive(self, table: LiveTable, connection: Connection, text: str | bytes) -> None:
        """Handle one client message; a refused one gets an error and a fresh state."""
        try:
            message = decode(text)
        except MessageError as error:
            await self._refuse(table, connection, str(error))
            return
        kind = message["type"]
        if kind == "ping":
            connection.outbox.put("pong", encode({"type": "pong"}))
        elif kind == "move":
            if connection.seat is None:
                await self._refuse(table, connection,
                                   "you are watching this table: only seated players move")
                return
            reason = await self.play(table, connection.seat, message["version"],
                                     message["move"])
            if reason:
                await self._refuse(table, connection, reason)
        elif kind == "rematch":
            try:
                await self.rematch(table, connection.seat)
            except TableError as error:
                await self._refuse(table, connection, error.reason)

    async def _refuse(self, table: LiveTable, connection: Connection, reason: str) -> None:
        async with table.lock:
            connection.outbox.put("error", encode({"type": "error", "reason": reason}))
            connection.outbox.put("state", encode(table.state_message(connection.seat)))

    def _broadcast(self, table: LiveTable) -> None:
        """The new state to every connection, each seat its own view.  Call under the lock."""
        texts: dict[int | None, str] = {}
        for connection in list(table.connections):
            text = texts.get(connection.seat)
            if text is None:
                text = texts[connection.seat] = encode(table.state_message(connection.seat))
            connection.outbox.put("state", text)

    # -- rematch ----------------------------------------------------------------------------
    async def rematch(self, table: LiveTable, seat: int | None) -> str:
        """A new table with the same rules and the same people in the same seats.

        Each person's token works at the new table too (the seat keeps its token hash),
        so a client only has to connect to the new table with the token it holds.
        """
        async with table.lock:
            if not table.over:
                raise TableError("a rematch can be asked for once the game is over")
            humans = [s for s in table.seats if s.kind == "human"]
            if humans and seat is None:
                raise TableError("only the players at this table can ask for a rematch")
            if table.rematch is None:
                table.rematch = await self._create_rematch(table)
            for connection in list(table.connections):
                connection.outbox.put("rematch", encode(
                    {"type": "rematch", "table": table.rematch, "seat": connection.seat}))
            self._broadcast(table)
            return table.rematch

    async def _create_rematch(self, old: LiveTable) -> str:
        spec = old.spec
        state = spec.start(old.rules, players=old.players, seed=SecureRandom())
        table_id = new_id()
        seat_rows = [SeatRow(table_id=table_id, seat=s.index, kind=s.kind, bot=s.bot_spec,
                             name=s.name, token_hash=s.token_hash) for s in old.seats]
        free = sum(1 for s in seat_rows if s.kind == "human" and s.token_hash is None)
        status = WAITING if free else PLAYING
        created = now()
        decks = [[card.text for card in deck] for deck in spec.deals(state)]
        row = TableRow(id=table_id, game=old.game, preset=old.preset,
                       rules=rules_to_dict(old.rules), players=old.players,
                       takeover=old.takeover, status=status, created=created,
                       rematch_of=old.id)
        try:
            await asyncio.to_thread(self.storage.create_table, row, seat_rows, decks, old.id)
        except RematchExists:
            # another server process made the rematch first: use that one
            stored = await asyncio.to_thread(self.storage.load, old.id)
            if stored is None or stored.row.rematch is None:
                raise TableError("the rematch could not be made; ask again") from None
            return stored.row.rematch
        if self.cluster is not None:
            await self.cluster.claim(table_id)
        table = LiveTable(
            id=table_id, game=old.game, spec=spec, preset=old.preset, rules=old.rules,
            players=old.players, state=state,
            seats=[self._live_seat(seat_row, old.takeover) for seat_row in seat_rows],
            status=status, created=created, takeover=old.takeover, rematch_of=old.id,
            decks_stored=len(decks))
        self.live[table_id] = table
        self._start_graces(table)
        self._kick(table)
        return table_id

