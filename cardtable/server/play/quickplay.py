"""Quick play: a queue that seats people of similar rating at a new table.

A ticket waits in a pool (the game, its rule set and the number of players).  Each
round of matching (at every poll, and twice a second) looks at the oldest tickets first:
one whose rating window (``width`` + ``widen`` a second of waiting, on both sides) holds
enough others of its pool gets a table of people; one that said ``bots_after`` seconds
and has waited that long gets a table with the people at hand and bots in the other
seats.  Tables made by the queue have a clock (``lifecycle.DEFAULT_CLOCK``) and a
takeover bot.  A ticket is matched only while its player polls it (last polled within
``fresh`` seconds), and one not polled for ``poll_timeout`` seconds is cancelled: a page
that left, left the queue, and a ticket whose answer was lost seats nobody.

Without Redis the queue lives in this process (``LocalTickets``); with it every process
shares it (``RedisTickets``), and whichever process matches (under a short lock in
Redis) makes the table and owns it.  While Redis cannot be reached every request is
refused with 503 (``cluster_unavailable``) and leaves nothing behind; the rounds say so in
one log line (again each minute, and once when it is back).  A waiting ticket Redis forgot
(it restarted) is put back when its player polls the process that entered it (which keeps
a copy); polled elsewhere it answers 404 ``ticket_gone``: the player is told to join again.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import functools
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, ParamSpec, TypedDict, TypeVar

from ... import games
from ..core.errors import ClusterUnavailable, Refused
from ..store.players import Player, PublicPlayer
from ..store.storage import StorageUnavailable
from .bot_runner import default_bot
from .lifecycle import DEFAULT_CLOCK, DEFAULT_TAKEOVER
from .seating import plan_table

if TYPE_CHECKING:
    from redis.asyncio import Redis

    from .tables import Tables

__all__ = ["Entry", "LocalTickets", "QuickPlay", "RedisTickets", "Ticket", "match"]

log = logging.getLogger("cardtable.server")

APART_FRESH = 5.0
"""Seconds the blocks among the same waiting players are trusted before read again."""
SCAN = 64
"""Tickets of its pool a round looks at for each waiting one (a flood of tickets costs a
round no more than this many checks a ticket)."""
AWAY = "the quick-play queue cannot be reached just now (Redis is away); try again shortly"

P = ParamSpec("P")
R = TypeVar("R")


def reached(method: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
    """A Redis call whose failure is ``ClusterUnavailable`` (503), never a 500."""
    @functools.wraps(method)
    async def call(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return await method(*args, **kwargs)
        except (asyncio.CancelledError, Refused):
            raise
        except Exception as error:  # the client's errors: refused, reset, timed out
            raise ClusterUnavailable(AWAY) from error
    return call


class Ticket(enum.StrEnum):
    """Where a quick-play ticket is."""

    WAITING = "waiting"
    MATCHED = "matched"
    """Seated at ``table``."""
    CANCELLED = "cancelled"
    """By its player, or for want of a poll (``poll_timeout``)."""


class TicketAnswer(TypedDict):
    """A ticket as its holder is told it (``Entry.answer``)."""

    ticket: str
    status: str
    table: str | None
    seat: int | None
    token: str | None
    waited: float


@dataclass
class Entry:
    """One ticket in the queue, and (once matched) the seat it got."""

    ticket: str
    game: str
    preset: str
    players: int
    bots_after: float | None
    entered: float
    polled: float
    name: str | None = None
    rating: float | None = None
    address: str = "unknown"
    player: PublicPlayer | None = None
    """The player who asked (``players.Player.public()``): the seat is theirs."""
    days: int | None = None
    """Days a move: the correspondence pool of its game (none: the quick clock)."""
    status: str = Ticket.WAITING
    """A ``Ticket`` status (its text: a ticket is stored as JSON)."""
    table: str | None = None
    seat: int | None = None
    token: str | None = None

    @property
    def pool(self) -> tuple[str, str, int, int | None]:
        return self.game, self.preset, self.players, self.days

    def answer(self, at: float) -> TicketAnswer:
        return {"ticket": self.ticket, "status": self.status, "table": self.table,
                "seat": self.seat, "token": self.token,
                "waited": round(max(0.0, at - self.entered), 1)}


def match(entries: list[Entry], at: float, *, width: float = 100.0,
          widen: float = 10.0, apart: frozenset[frozenset[str]] = frozenset()
          ) -> list[tuple[list[Entry], int]]:
    """The tables to make now: each a list of waiting entries (oldest first) and how many
    bots fill the rest.  Unrated entries (rating ``None``) sit with anyone, except that
    two players of a pair in ``apart`` (one blocks the other) never sit together.

    >>> a = Entry("a", "durak", "transfer", 2, None, entered=0, polled=0, rating=1500)
    >>> b = Entry("b", "durak", "transfer", 2, None, entered=1, polled=0, rating=1900)
    >>> match([a, b], at=2)          # 400 apart: too far for a 2-second wait
    []
    >>> [[e.ticket for e in group] for group, _ in match([a, b], at=40)]
    [['a', 'b']]
    """
    def window(entry: Entry) -> float:
        return width + widen * max(0.0, at - entry.entered)

    def near(one: Entry, other: Entry) -> bool:
        if apart and one.player and other.player and frozenset(
                (one.player["id"], other.player["id"])) in apart:
            return False
        if one.rating is None or other.rating is None:
            return True
        gap = abs(one.rating - other.rating)
        return gap <= window(one) and gap <= window(other)

    pools: dict[tuple[str, str, int, int | None], list[Entry]] = {}
    for entry in sorted((e for e in entries if e.status == Ticket.WAITING),
                        key=lambda e: (e.entered, e.ticket)):
        pools.setdefault(entry.pool, []).append(entry)
    taken: set[str] = set()
    tables: list[tuple[list[Entry], int]] = []
    for first in sorted((e for pool in pools.values() for e in pool),
                        key=lambda e: (e.entered, e.ticket)):
        if first.ticket in taken:
            continue
        group: list[Entry] = [first]
        for looked, other in enumerate(pools[first.pool]):
            if len(group) == first.players or looked >= SCAN:
                break
            if (other.ticket not in taken and other is not first
                    and all(near(member, other) for member in group)):
                group.append(other)
        if len(group) == first.players:
            tables.append((group, 0))
        elif first.bots_after is not None and at - first.entered >= first.bots_after:
            group = [first] + [e for e in group[1:] if e.bots_after is not None]
            tables.append((group, first.players - len(group)))
        else:
            continue
        taken.update(e.ticket for e in group)
    return tables


class LocalTickets:
    """The queue of this process alone."""

    def __init__(self) -> None:
        self.entries: dict[str, Entry] = {}
        self._lock = asyncio.Lock()

    async def get(self, ticket: str) -> Entry | None:
        return self.entries.get(ticket)

    async def put(self, entry: Entry) -> None:
        self.entries[entry.ticket] = entry

    async def touch(self, ticket: str, at: float) -> None:
        entry = self.entries.get(ticket)
        if entry is not None:
            entry.polled = at

    async def delete(self, ticket: str) -> None:
        self.entries.pop(ticket, None)

    async def all(self) -> list[Entry]:
        return list(self.entries.values())

    async def empty(self) -> bool:
        return not self.entries

    @contextlib.asynccontextmanager
    async def matching(self) -> AsyncIterator[bool]:
        if self._lock.locked():
            yield False
            return
        async with self._lock:
            yield True

    async def close(self) -> None:
        """Nothing to let go of."""


class RedisTickets:
    """The queue shared by every process, as one Redis hash of JSON tickets."""

    def __init__(self, redis: Redis, prefix: str) -> None:
        self.redis = redis
        self.key = f"{prefix}:quickplay:tickets"
        self.polled_key = f"{prefix}:quickplay:polled"
        """When each ticket was last polled, apart, so a poll never overwrites a match."""
        self.lock_key = f"{prefix}:quickplay:lock"

    @reached
    async def get(self, ticket: str) -> Entry | None:
        text = await self.redis.hget(self.key, ticket)
        if text is None:
            return None
        entry = Entry(**json.loads(text))
        polled = await self.redis.hget(self.polled_key, ticket)
        if polled is not None:
            entry.polled = max(entry.polled, float(polled))
        return entry

    @reached
    async def put(self, entry: Entry) -> None:
        await self.redis.hset(self.key, entry.ticket, json.dumps(asdict(entry)))

    @reached
    async def touch(self, ticket: str, at: float) -> None:
        await self.redis.hset(self.polled_key, ticket, repr(at))

    @reached
    async def delete(self, ticket: str) -> None:
        await self.redis.hdel(self.key, ticket)
        await self.redis.hdel(self.polled_key, ticket)

    @reached
    async def all(self) -> list[Entry]:
        texts = await self.redis.hgetall(self.key)
        polled = await self.redis.hgetall(self.polled_key)
        entries = []
        for ticket, text in texts.items():
            entry = Entry(**json.loads(text))
            when = polled.get(ticket)
            if when is not None:
                entry.polled = max(entry.polled, float(when))
            entries.append(entry)
        return entries

    @reached
    async def empty(self) -> bool:
        """No ticket at all (one call: an idle queue's rounds cost no more)."""
        return not await self.redis.exists(self.key)

    @contextlib.asynccontextmanager
    async def matching(self) -> AsyncIterator[bool]:
        """One process matches at a time (a lock that expires, should it die holding it)."""
        mine = secrets.token_hex(8)
        if not await self._lock(mine):
            yield False
            return
        try:
            yield True
        finally:
            await self._unlock(mine)

    @reached
    async def _lock(self, mine: str) -> bool:
        return bool(await self.redis.set(self.lock_key, mine, nx=True, px=5000))

    @reached
    async def _unlock(self, mine: str) -> None:
        if await self.redis.get(self.lock_key) in (mine, mine.encode()):
            await self.redis.delete(self.lock_key)

    async def close(self) -> None:
        """The cluster closes its Redis connection."""


class QuickPlay:
    """The quick-play queue of the app: tickets in, tables out."""

    def __init__(self, tables: Tables, store: LocalTickets | RedisTickets, *,
                 poll_timeout: float = 8.0, keep: float = 60.0, width: float = 100.0,
                 widen: float = 10.0, max_tickets: int = 1000,
                 per_address: int = 4, fresh: float = 3.0) -> None:
        self.tables = tables
        self.store = store
        self.poll_timeout = poll_timeout
        """Seconds a waiting ticket lives without a poll."""
        self.keep = keep
        """Seconds a matched or cancelled ticket can still be read."""
        self.width, self.widen = width, widen
        self.max_tickets = max_tickets
        """Tickets waiting at most, in all (a round of matching looks at every one)."""
        self.per_address = per_address
        """Tickets waiting at most from one address."""
        self.fresh = min(fresh, poll_timeout)
        """Seconds since its last poll within which a ticket may be matched."""
        self.entered: dict[str, Entry] = {}
        """Copies of the waiting tickets this process entered, as last polled here: a
        ticket a Redis restart forgot is put back when its player polls here."""
        self.waiting: dict[str, int] = {}
        """Tickets waiting by address, as the last round saw them (and the ones entered
        since): a flood is refused from here, without reading the queue."""
        self._last_round = float("-inf")
        self._failing: float | None = None
        """Since when (this process's monotonic time) the rounds fail, and were last told."""
        self._back = float("-inf")
        """When (wall time) the rounds last came back from failing: an outage's end."""
        self._task: asyncio.Task[None] | None = None
        self._apart_read: tuple[frozenset[str], float, frozenset[frozenset[str]]] | None = None
        """The waiting players last asked about, when (monotonic), and their blocks."""

    def clock(self) -> float:
        return self.tables.clock.wall()  # wall time: several processes compare it

    def start(self) -> None:
        self._task = self.tables.spawn(self._rounds())

    async def _rounds(self) -> None:
        while True:
            await self.tables.clock.sleep(0.5)
            try:
                await self.round()
            except asyncio.CancelledError:
                raise
            except Exception as error:  # Redis or the database away: the next round tries
                self._failed(error)
            else:
                if self._failing is not None:
                    self._failing = None
                    self._back = self.clock()
                    log.warning("quick play matches again")

    def _failed(self, error: Exception) -> None:
        """One log line when the rounds start failing, and one a minute while they do
        (not a traceback every half second)."""
        at = self.tables.clock.time()
        if self._failing is None or at - self._failing >= 60:
            self._failing = at
            log.warning("quick-play rounds fail (%s: %s); they go on every 0.5 s",
                        type(error).__name__, str(error)[:200])

    # -- the endpoints ------------------------------------------------------------------
    async def enter(self, game: str, preset: str | None, players: int | None,
                    bots_after: float | None, *, name: str | None = None,
                    rating: float | None = None, address: str = "unknown",
                    player: PublicPlayer | None = None,
                    days: int | None = None) -> TicketAnswer:
        try:
            plan = plan_table(game, preset, None, players)
        except (ValueError, KeyError) as error:
            raise Refused(str(error).strip("'\""), 422) from None
        self._check_room(address)   # from counts in memory: a flood costs no read
        waiting = [e for e in await self.store.all() if e.status == Ticket.WAITING]
        self._count(waiting)
        self._check_room(address)
        at = self.clock()
        entry = Entry(ticket=secrets.token_urlsafe(18), game=plan.spec.name,
                      preset=plan.preset or games.get(game).default_preset,
                      players=plan.players, bots_after=bots_after, entered=at, polled=at,
                      name=name, rating=rating, address=address, player=player, days=days)
        await self.store.put(entry)
        self.waiting[address] = self.waiting.get(address, 0) + 1
        try:
            await self.round()
            fresh = await self.store.get(entry.ticket)
        except (StorageUnavailable, ClusterUnavailable):
            seated = await self._withdraw(entry.ticket)
            if seated is None:
                raise   # refused: the ticket is gone with it
            fresh = seated
        fresh = fresh or entry
        if fresh.status == Ticket.WAITING:
            self.entered[fresh.ticket] = fresh
        return fresh.answer(self.clock())

    def _check_room(self, address: str) -> None:
        if sum(self.waiting.values()) >= self.max_tickets:
            raise Refused("the quick-play queue is full just now; try again in a minute",
                          429, "queue_full", retry_after=30)
        if self.waiting.get(address, 0) >= self.per_address:
            raise Refused(f"you already have {self.per_address} tickets waiting in the "
                          "quick-play queue: cancel one first", 429, "too_many_tickets",
                          retry_after=10)

    def _count(self, waiting: list[Entry]) -> None:
        counts: dict[str, int] = {}
        for entry in waiting:
            counts[entry.address] = counts.get(entry.address, 0) + 1
        self.waiting = counts

    async def _withdraw(self, ticket: str) -> Entry | None:
        """Take back a ticket whose request is refused (nothing may seat its player later);
        the entry if a round seated it meanwhile (then it is answered, not refused).  With
        Redis away it may stay, but unpolled it is never matched and soon cancelled."""
        with contextlib.suppress(ClusterUnavailable):
            entry = await self.store.get(ticket)
            if entry is not None and entry.status == Ticket.MATCHED:
                return entry
            await self.store.delete(ticket)
        return None

    async def poll(self, ticket: str) -> TicketAnswer:
        kept = self.entered.get(ticket)
        if kept is not None:   # its player is here now, even if Redis is not: keep the copy
            kept.polled = self.clock()
        entry = await self._restored(ticket)
        if entry.status == Ticket.WAITING:
            await self.store.touch(ticket, self.clock())
            if (sum(self.waiting.values()) <= SCAN
                    or time.monotonic() - self._last_round >= 0.25):
                # a long queue's polls make no more than 4 rounds a second
                await self.round()
                entry = await self._entry(ticket)
        return entry.answer(self.clock())

    async def _restored(self, ticket: str) -> Entry:
        """The ticket, put back in the queue if Redis forgot it (a restart) while this
        process holds its copy (it entered it, and it waited, polled, meanwhile)."""
        entry = None if len(ticket) > 64 else await self.store.get(ticket)
        kept = self.entered.get(ticket)
        if entry is None and kept is not None and self.clock() - kept.polled <= self.poll_timeout:
            entry = kept
            await self.store.put(entry)
            log.warning("quick play: a ticket the queue had lost was put back")
        if entry is None or entry.status != Ticket.WAITING:
            self.entered.pop(ticket, None)
        else:
            entry.polled = self.clock()
            self.entered[ticket] = entry
        return entry if entry is not None else await self._entry(ticket)

    async def cancel(self, ticket: str) -> TicketAnswer:
        async with self._matching_wait() as mine:
            entry = await self._entry(ticket)
            if entry.status == Ticket.WAITING and mine:
                entry.status = Ticket.CANCELLED
                await self.store.put(entry)
                if self.waiting.get(entry.address, 0) > 0:
                    self.waiting[entry.address] -= 1
        return entry.answer(self.clock())

    async def _entry(self, ticket: str) -> Entry:
        entry = None if len(ticket) > 64 else await self.store.get(ticket)
        if entry is None:
            raise Refused("this ticket is no longer in the quick-play queue (cancelled a "
                          "while ago, or the queue restarted): join the queue again", 404,
                          "ticket_gone")
        return entry

    @contextlib.asynccontextmanager
    async def _matching_wait(self) -> AsyncIterator[bool]:
        """The matching lock, waited for (at most a few seconds)."""
        deadline = time.monotonic() + 5   # a bound on waiting for a lock: the real time
        while True:
            async with self.store.matching() as mine:
                if mine or time.monotonic() > deadline:
                    yield mine
                    return
            await asyncio.sleep(0.05)

    # -- matching -----------------------------------------------------------------------
    async def round(self) -> None:
        """Forget old tickets, cancel the unpolled, and make the tables that match."""
        if not self.entered and await self.store.empty():
            # nothing waits anywhere: no lock taken, nothing read (with Redis, a round of
            # an idle queue was five calls every half second in every process)
            self.waiting = {}
            return
        async with self.store.matching() as mine:
            if not mine:
                return  # another process (or task) is matching just now
            self._last_round = time.monotonic()   # a bound on work: the real time
            at = self.clock()
            entries = await self.store.all()
            for entry in entries:
                if entry.status != Ticket.WAITING and at - entry.polled > self.keep:
                    await self.store.delete(entry.ticket)
                elif (entry.status == Ticket.WAITING
                      and at - max(entry.polled, self._back) > self.poll_timeout):
                    # unpolled; while Redis was away no poll could be counted, so a ticket
                    # has ``poll_timeout`` seconds from the end of an outage to be polled
                    entry.status = Ticket.CANCELLED
                    await self.store.put(entry)
            polling = [e for e in entries if at - e.polled <= self.fresh]
            apart = await self._apart(polling)
            for group, bots in match(polling, at, width=self.width, widen=self.widen,
                                     apart=apart):
                try:
                    await self._seat(group, bots)
                except (asyncio.CancelledError, StorageUnavailable):
                    raise  # the database is away for everyone: the round ends, told as 503
                except Exception:
                    # a fault of this group's tickets must not stop the others' matching:
                    # its tickets leave the queue, and the round goes on
                    log.exception("quick play could not seat %s",
                                  [entry.ticket[:6] for entry in group])
                    for entry in group:
                        entry.status = Ticket.CANCELLED
                        await self.store.put(entry)
            self._count([e for e in entries if e.status == Ticket.WAITING])
            now_is = {e.ticket: e.status for e in entries}
            for ticket, kept in list(self.entered.items()):   # matched, cancelled or gone
                if (now_is.get(ticket, kept.status) != Ticket.WAITING
                        or at - kept.polled > self.poll_timeout):
                    del self.entered[ticket]

    async def _apart(self, entries: list[Entry]) -> frozenset[frozenset[str]]:
        """The pairs of waiting players where one blocks the other (read again when the
        players waiting change, or every ``APART_FRESH`` seconds)."""
        notices = self.tables.notices
        ids = frozenset(e.player["id"] for e in entries
                        if e.status == Ticket.WAITING and e.player and e.player.get("id"))
        if notices is None or len(ids) < 2:
            return frozenset()
        held = self._apart_read
        if held is not None and held[0] == ids and time.monotonic() - held[1] < APART_FRESH:
            return held[2]
        pairs = await asyncio.to_thread(notices.store.blocking_any, sorted(ids))
        found = frozenset(frozenset(pair) for pair in pairs)
        self._apart_read = (ids, time.monotonic(), found)
        return found

    async def _seat(self, group: list[Entry], bots: int) -> None:
        """A table for the group (bots in the seats left), each entry given its seat."""
        first = group[0]
        seats = ["human"] * len(group) + [f"bot:{default_bot()}"] * bots
        rated = bots == 0 and all(e.rating is not None for e in group)
        seating = self.tables.seating
        try:
            table, seat, token = await seating.create(
                first.game, preset=first.preset, players=first.players, seats=seats,
                takeover=f"bot:{DEFAULT_TAKEOVER}", name=first.name, address=first.address,
                clock={"days": first.days} if first.days else dict(DEFAULT_CLOCK),
                rated=rated, player=_player(first))
            given = [(seat, token)]
            for other in group[1:]:
                _, other_seat, other_token = await seating.join(table.id, other.name,
                                                                player=_player(other))
                given.append((other_seat, other_token))
        except Refused as error:
            log.warning("quick play could not make a table: %s", error.reason)
            return
        for entry, (seat_index, seat_token) in zip(group, given, strict=True):
            entry.status, entry.table = Ticket.MATCHED, table.id
            entry.seat, entry.token = seat_index, seat_token
            entry.polled = self.clock()
            self.tables.metrics.waited("quick_play", entry.polled - entry.entered)
            await self.store.put(entry)
        log.info("quick play: table %s for %d people and %d bots", table.id, len(group), bots)


def _player(entry: Entry) -> Player | None:
    """The ``players.Player`` a ticket was taken by (``None``: nobody known)."""
    return None if entry.player is None else Player(**entry.player)
