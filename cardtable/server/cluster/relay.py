"""Several server processes on one database, joined through Redis.

Each unfinished table is owned by exactly one process, which holds its authoritative game
object; ownership is a Redis key with a lease that the owner keeps renewing.  A player
may connect to any process: a process that does not own the table relays, passing the
player's messages to the owner and the owner's messages back, each process listening on
its own Redis channel.  When an owner dies its leases run out, and another process adopts
its tables (dealing the stored decks and replaying the stored moves, as after a restart);
relayed players are disconnected and reconnect to the new owner.

The messages between processes are typed in ``cluster_messages``.

Two owners can never both write move N of a table: the moves table's primary key refuses
the second, and the process that lost drops the table.  Beyond that, a process plays a
table only while it knows its lease holds: until the lease's length after the last
renewal that Redis granted.

Few connections, waited for
    Every call goes through one bounded pool (``pool_size`` connections; a call waits up
    to ``pool_timeout`` seconds for one, and never opens more).  One connection listens
    (one channel per process); every message to other processes goes out through one
    sender that publishes whatever has queued up in one pipeline; the leases, the
    relayed tables' owners and the other processes' liveness are renewed and read in
    one pipeline per period, however many tables there are.

When Redis goes away
    The first failure (the listener's connection drops, a renewal or a publish fails)
    starts an outage, logged once: the process stops playing every table (it cannot renew
    their leases), closes every socket it relays or serves with 1012 so that the page
    connects again, refuses new tables and claims with ``ClusterUnavailable`` (503,
    ``cluster_unavailable``), and ``/api/health`` answers 503.  The listener connects
    again with backoff; once it has subscribed again the process claims tables again,
    each rebuilt from the database, whichever process gets it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar, cast

from ..core.cluster_messages import (
    Anonymized,
    Ask,
    Bye,
    ClusterMessage,
    Deliver,
    Gone,
    HandedOver,
    Handover,
    Hello,
    Intent,
    Reply,
    Seats,
    SignedOff,
    decode,
    encode,
)
from ..core.codes import Refusal, refused
from ..core.errors import ClusterUnavailable, NotHere, Refused
from ..core.wire import plain
from ..play.live import Connection, LiveTable, Outbox
from ..play.owner import Command
from ..play.remote import CloseTable, from_wire, refusal_from_wire, refusal_to_wire, to_wire
from ..store.storage import StorageUnavailable, periodically

if TYPE_CHECKING:
    from redis.asyncio.client import PubSub

    from ..play.tables import Tables

__all__ = ["REDIS_LOST", "Cluster", "Relay", "RemoteConnection"]

R = TypeVar("R")

log = logging.getLogger("cardtable.server")

REDIS_LOST = "the servers lost their connection to Redis; connect again"
UNAVAILABLE = ("Redis, which joins the server processes, cannot be reached: nothing was "
               "done; try again shortly")
MOVED = "the table moved to another server"
NO_ANSWER = "the server playing this table did not answer; connect again"
LAPSED = "this server could not renew its hold on the table in time; connect again"
RESTARTING = "the server is restarting: connect again (another server plays on)"
GONE = ("the server process that played this table is gone; another takes it over "
        "shortly: try again")
NO_REPLY = "the server process that plays this table did not answer in time; try again"
ASK_WAIT = 5.0
SEEN_FOR = 3600.0
"""Seconds a player's last visit is kept in Redis (a friends list asks about the last
minute; the rest is taken out as visits are written)."""
"""Seconds a process waits for the owner's answer to a command it asked of a table."""
HANDOVER_WAIT = 2.0
"""Seconds a process waits for an owner to hand a table over before it relays instead."""

_CLAIM = """
if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
    return 1
end
if redis.call('get', KEYS[1]) == ARGV[1] then
    return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
"""
_RENEW = """
local kept = {}; for i, key in ipairs(KEYS) do
    kept[i] = redis.call('get', key) == ARGV[1] and redis.call('pexpire', key, ARGV[2]) or 0
end
return kept
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
    return redis.call('del', KEYS[1])
end
return 0
"""

_QUEUED = 10_000
"""Messages waiting for the sender; past this, whoever sends waits."""
_BATCH = 1_000
"""Messages published in one pipeline at most."""


@dataclass(eq=False)
class RemoteConnection(Connection):
    """A player connected to another process, as the owner of the table sees them.

    Their messages wait in ``inbox`` (``None``: the socket closed) and are handled in
    order by ``worker``; ``pump`` forwards what the table says to them."""

    origin: str = ""
    conn: str = ""
    table: str = ""
    inbox: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue, repr=False)
    pump: asyncio.Task[None] | None = field(default=None, repr=False)
    worker: asyncio.Task[None] | None = field(default=None, repr=False)


@dataclass(eq=False)
class Relay:
    """A player connected here at a table another process owns."""

    connection: Connection
    table: str
    owner: str
    waiting: float | None
    """Since when (``time.monotonic()``) the owner owes an answer: every message to it
    (the Hello, a move, a ping) is answered.  A relay left without one is closed."""


class Cluster:
    """This process's membership of the cluster: leases, its channel, relays."""

    def __init__(self, url: str, tables: Tables, *, prefix: str = "cardtable",
                 lease: float = 15.0, pool_size: int = 20, pool_timeout: float = 5.0) -> None:
        import redis.asyncio as redis
        from redis.asyncio.retry import Retry
        from redis.backoff import ExponentialWithJitterBackoff, NoBackoff

        # Every failure shows at once (no retries inside redis-py): the loops below back
        # off themselves, and a request that meets an outage is answered 503.
        timeout = max(1.0, min(5.0, lease / 3))
        pool = redis.BlockingConnectionPool.from_url(
            url, decode_responses=True, max_connections=max(2, pool_size),
            timeout=pool_timeout, socket_timeout=timeout, socket_connect_timeout=timeout,
            socket_keepalive=True, retry=Retry(NoBackoff(), 0))
        self.redis = redis.Redis.from_pool(pool)
        self.tables = tables
        self.prefix = prefix
        self.lease = lease
        self.process = secrets.token_hex(8)
        self.problem: str | None = "not started"
        """Why Redis cannot be reached now, in short (the kind of error: the log has the
        rest, which names addresses no client needs to see); ``None`` while it can."""
        self.owned: dict[str, float] = {}
        """The tables this process owns, each with the ``time.monotonic()`` its lease is
        sure to last until."""
        self.relayed: dict[str, Relay] = {}
        """Connections to this process whose table another process owns, by id."""
        self.remote: dict[str, RemoteConnection] = {}
        """Connections to other processes at tables this process owns, by id."""
        self._claim = self.redis.register_script(_CLAIM)
        self._renew_script = self.redis.register_script(_RENEW)
        self._release = self.redis.register_script(_RELEASE)
        self._backoff = ExponentialWithJitterBackoff(cap=2.0, base=0.05)
        self._queue: asyncio.Queue[tuple[str, str]] = asyncio.Queue(_QUEUED)
        self._outages = 0
        self._stopping = False
        """Outages so far: a call that spans one must not trust its answer."""
        self.draining = False
        """Set by ``hand_off_all`` while the process stops: it claims nothing more."""
        self._asked: dict[str, asyncio.Future[Reply]] = {}
        """The commands this process asked of other processes' tables, by id."""
        self._handovers: dict[str, asyncio.Future[None]] = {}
        """The tables this process asked their owners for, each with the answer's future."""
        self._lapsing: set[str] = set()
        """Tables whose owner did not answer a handover: claimed when their lease ends."""
        self._tasks: list[asyncio.Task[None]] = []

    # -- names ----------------------------------------------------------------------------
    def _owner_key(self, table_id: str) -> str:
        return f"{self.prefix}:owner:{table_id}"

    def _alive_key(self, process: str) -> str:
        return f"{self.prefix}:alive:{process}"

    def _channel(self, process: str) -> str:
        return f"{self.prefix}:process:{process}"

    @property
    def _lease_ms(self) -> int:
        return int(self.lease * 1000)

    # -- life -----------------------------------------------------------------------------
    async def start(self) -> None:
        """Subscribe and start the loops; Redis must be reachable now."""
        pubsub = await self._subscribe()
        self.problem = None
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen(pubsub)), loop.create_task(self._renew()),
                       loop.create_task(self._adopt_loop()), loop.create_task(self._sender())]

    async def stop(self) -> None:
        self._stopping = True
        for task in self._tasks:
            task.cancel()
        with contextlib.suppress(asyncio.QueueFull):
            self._queue.put_nowait(("", ""))  # wakes the sender, should it miss the cancel
        if self._tasks:
            # a cancel that lands inside redis-py's pipeline can be lost: never wait forever
            await asyncio.wait(self._tasks, timeout=5)
        for remote in list(self.remote.values()):
            self._end_remote(remote)
        with contextlib.suppress(Exception):
            async with self.redis.pipeline(transaction=False) as pipe:
                for table_id in self.owned:
                    await self._release(keys=[self._owner_key(table_id)],
                                        args=[self.process], client=pipe)
                pipe.delete(self._alive_key(self.process))
                await pipe.execute()
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    # -- Redis reachable or not -----------------------------------------------------------
    def check(self) -> None:
        """``ClusterUnavailable`` (503) while Redis cannot be reached."""
        if self.problem is not None:
            raise self._unavailable()

    def _unavailable(self) -> ClusterUnavailable:
        return ClusterUnavailable(UNAVAILABLE)

    def _lost(self, error: BaseException) -> None:
        """An outage starts (once): stop playing, tell every socket, refuse new work."""
        if self.problem is not None:
            return
        self.problem = type(error).__name__
        self._outages += 1
        tables = [t for t in self.tables.live.values() if not t.over]
        log.warning("Redis cannot be reached (%s: %s): this process stops playing its %d "
                    "tables and relaying %d players until it is back", self.problem, error,
                    len(tables), len(self.relayed))
        self.owned.clear()
        for relay in self.relayed.values():
            relay.connection.outbox.put("close", REDIS_LOST)
        self.relayed.clear()
        for remote in list(self.remote.values()):
            self._end_remote(remote)
        for table in tables:
            self.tables.spawn(self.tables.drop(table.id, REDIS_LOST))
        while not self._queue.empty():  # every relay was told to connect again
            self._queue.get_nowait()
        for waiter in self._asked.values():   # their answers cannot come now
            if not waiter.done():
                waiter.set_exception(self._unavailable())

    def _back(self) -> None:
        if self.problem is not None:
            log.warning("Redis can be reached again: this process plays tables again")
            self.problem = None

    # -- who is on the site -------------------------------------------------------------------
    async def mark_seen(self, player_id: str, at: float) -> None:
        """A player's page asked this process at ``at`` (the wall clock's seconds): every
        process's friends lists see it (one sorted set, the long unseen taken out as it
        is written).  ``ClusterUnavailable`` while Redis cannot be reached."""
        self.check()
        key = f"{self.prefix}:seen"
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.zadd(key, {player_id: at})
                pipe.zremrangebyscore(key, "-inf", at - SEEN_FOR)
                await pipe.execute()
        except Exception:
            raise ClusterUnavailable(UNAVAILABLE) from None

    async def seen(self, player_ids: Sequence[str]) -> dict[str, float]:
        """When each player's page last asked any process (the wall clock's seconds; a
        player not seen for ``SEEN_FOR`` is left out).  ``ClusterUnavailable`` while Redis
        cannot be reached."""
        self.check()
        if not player_ids:
            return {}
        try:
            found = await self.redis.zmscore(f"{self.prefix}:seen", list(player_ids))
        except Exception:
            raise ClusterUnavailable(UNAVAILABLE) from None
        return {player: float(at) for player, at in zip(player_ids, found, strict=True)
                if at is not None}

    # -- ownership ------------------------------------------------------------------------
    async def claim(self, table_id: str) -> bool:
        """Own the table if nobody does (or this process already does, for a full lease).

        ``ClusterUnavailable`` while Redis cannot be reached; nothing while this process
        stops (``draining``)."""
        self.check()
        if self.draining:
            return False
        started, outages = time.monotonic(), self._outages
        try:
            owned = await self._claim(keys=[self._owner_key(table_id)],
                                      args=[self.process, self._lease_ms])
        except Exception:
            raise ClusterUnavailable(UNAVAILABLE) from None
        if self.problem is not None or self._outages != outages:
            raise self._unavailable()  # an outage began meanwhile: this process owns nothing
        if owned:
            self.owned[table_id] = started + self.lease
            return True
        return False

    async def owner(self, table_id: str) -> str | None:
        try:
            return await self.redis.get(self._owner_key(table_id))  # type: ignore[return-value]
        except Exception:
            raise self._unavailable() from None

    async def others(self) -> list[str]:
        """The other processes alive now (each keeps a lease on its name in Redis)."""
        skip = len(self._alive_key(""))
        try:
            names = [key[skip:] async for key in self.redis.scan_iter(
                match=self._alive_key("*"), count=1000)]
        except Exception:
            raise self._unavailable() from None
        return sorted(name for name in names if name != self.process)

    async def release(self, table_id: str) -> None:
        self.owned.pop(table_id, None)
        with contextlib.suppress(Exception):
            await self._release(keys=[self._owner_key(table_id)], args=[self.process])

    def holds(self, table_id: str) -> bool:
        """Whether this process may play the table now: its lease surely still runs."""
        return self.problem is None and self.owned.get(table_id, 0.0) > time.monotonic()

    def refusal(self, table: LiveTable) -> Refusal | None:
        """Why a move at this live table may not be played here (``None``: it may).

        A table whose lease could not be renewed in time is dropped: its players connect
        again and whoever owns it then plays on from the database."""
        if self.tables.live.get(table.id) is not table:
            return refused("moved", "this server no longer plays this table; connect again")
        if not self.holds(table.id):
            self.owned.pop(table.id, None)
            self.tables.spawn(self.tables.drop(table.id, LAPSED))
            return refused("lease_lapsed", f"{LAPSED} (nothing changed)")
        return None

    # -- handing tables over ---------------------------------------------------------------
    async def take_over(self, table_id: str, owner: str, wait: float = HANDOVER_WAIT) -> None:
        """Ask the owner to hand the table to this process (the proxy sends its players
        here: ``route_by_table``) and wait up to ``wait`` seconds for the answer.  Then the
        caller claims it; should that fail (no answer: the owner is gone or busy), the
        player is relayed, and the lease decides."""
        self.check()
        if self.draining:
            return
        waiter = self._handovers.get(table_id)
        if waiter is None:
            waiter = asyncio.get_running_loop().create_future()
            self._handovers[table_id] = waiter
            await self.send(owner, Handover(table=table_id, origin=self.process))
        try:
            await asyncio.wait_for(asyncio.shield(waiter), wait)
        except TimeoutError:
            if self._handovers.get(table_id) is waiter:
                del self._handovers[table_id]
            if table_id not in self._lapsing:
                self._lapsing.add(table_id)
                self.tables.spawn(self._claim_when_lapsed(table_id))

    async def _claim_when_lapsed(self, table_id: str) -> None:
        """The owner did not answer (killed, say): claim the table the moment its lease
        runs out, rather than at the next renewal, and send the players relayed to the old
        owner to connect again, here.  An owner that is only slow renews its lease, and
        the claim fails: its players stay relayed."""
        try:
            left = await self.redis.pttl(self._owner_key(table_id))
            if left > 0:
                await asyncio.sleep(left / 1000 + 0.05)
            if self.draining or self.problem is not None:
                return
            try:
                await self.tables.get(table_id)   # claims it, then loads it
            except (NotHere, Refused, ClusterUnavailable):
                return
            if self.tables.live.get(table_id) is None:
                return
            for conn, relay in list(self.relayed.items()):
                if relay.table == table_id:
                    del self.relayed[conn]
                    relay.connection.outbox.put("close", MOVED)
        except asyncio.CancelledError:
            raise
        except Exception as error:   # Redis or the database away: the renewals handle it
            log.info("table %s: not claimed when its lease ran out: %s", table_id, error)
        finally:
            self._lapsing.discard(table_id)

    def _handed_over(self, table_id: str) -> None:
        waiter = self._handovers.pop(table_id, None)
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def _hand_over(self, table_id: str, origin: str) -> None:
        """Another process is sent this table's players: let it have the table now."""
        if not self.draining:
            await self.hand_off([table_id], MOVED)
        await self.send(origin, HandedOver(table=table_id))

    async def hand_off(self, table_ids: list[str], reason: str) -> int:
        """Stop playing these tables here and give up their leases at once, so that the
        next process to be asked for them takes them without waiting for a lease to run
        out: what was acknowledged is stored first, the leases are released (in one
        pipeline), then the tables' sockets close (1012) and their pages connect again."""
        leaving = await self.tables.leave(table_ids)
        held = [t for t in table_ids if self.owned.pop(t, None) is not None]
        if held:
            with contextlib.suppress(Exception):  # a lease not released runs out by itself
                async with self.redis.pipeline(transaction=False) as pipe:
                    for table_id in held:
                        await self._release(keys=[self._owner_key(table_id)],
                                            args=[self.process], client=pipe)
                    await pipe.execute()
        await self.tables.close(leaving, reason)
        return len(leaving)

    async def hand_off_all(self) -> int:
        """This process stops: it claims nothing more and hands off every table it plays."""
        self.draining = True
        ids = [t for t, table in self.tables.live.items() if not table.over]
        count = await self.hand_off(ids, RESTARTING)
        await self.tables.close_finished(RESTARTING)
        for conn, relay in list(self.relayed.items()):  # their owners play on
            del self.relayed[conn]
            await self.send(relay.owner, Bye(table=relay.table, conn=conn))
            relay.connection.outbox.put("close", RESTARTING)
        return count

    async def _renew(self) -> None:
        while True:
            await asyncio.sleep(self.lease / 3)
            if self.problem is None:
                await self.renew()

    async def renew(self) -> None:
        """Renew every lease (one script call for all), read the owners of the tables
        relayed here and whether the processes relaying to this one live: one pipeline."""
        started, outages = time.monotonic(), self._outages
        finished = [t for t in self.owned if (live := self.tables.live.get(t)) is not None
                    and live.over]
        playing = [t for t in self.owned if t not in finished]
        watched = sorted({relay.table for relay in self.relayed.values()})
        origins = sorted({remote.origin for remote in self.remote.values()})
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.set(self._alive_key(self.process), "1", px=self._lease_ms)
                if playing:
                    await self._renew_script(keys=[self._owner_key(t) for t in playing],
                                             args=[self.process, self._lease_ms], client=pipe)
                for table_id in finished:  # a finished table needs no owner
                    await self._release(keys=[self._owner_key(table_id)], args=[self.process],
                                        client=pipe)
                if watched:
                    pipe.mget([self._owner_key(t) for t in watched])
                if origins:
                    pipe.mget([self._alive_key(p) for p in origins])
                results = await pipe.execute()
        except asyncio.CancelledError:
            raise
        except Exception as error:
            self._lost(error)
            return
        if self._outages != outages:
            return  # an outage began meanwhile: whatever was owned then is dropped
        results = results[1:]
        for table_id, kept in zip(playing, results.pop(0) if playing else [], strict=True):
            if kept:
                if table_id in self.owned:
                    self.owned[table_id] = started + self.lease
            elif self.owned.pop(table_id, None) is not None:
                log.warning("lost table %s to another process", table_id)
                await self.tables.drop(table_id, MOVED)
        for table_id in finished:
            self.owned.pop(table_id, None)
        results = results[len(finished):]
        if watched:
            owners = dict(zip(watched, results.pop(0), strict=True))
            for conn, relay in list(self.relayed.items()):
                if relay.table not in owners:
                    continue  # opened meanwhile: judged next time
                if owners[relay.table] != relay.owner:
                    reason = MOVED
                elif relay.waiting is not None and started - relay.waiting > self.lease / 3:
                    reason = NO_ANSWER  # the owner forgot the player (it lost Redis a while)
                else:
                    continue
                del self.relayed[conn]
                relay.connection.outbox.put("close", reason)
        if origins:
            alive = dict(zip(origins, results.pop(0), strict=True))
            for remote in list(self.remote.values()):
                if remote.origin in alive and alive[remote.origin] is None:
                    remote.inbox.put_nowait(None)  # that process is gone: so is its player

    async def _adopt_loop(self) -> None:
        """Take over the unfinished tables whose owner has gone (or that have none)."""
        await periodically(self.lease / 2, self.adopt, "adopting tables")

    async def adopt(self) -> None:
        if self.problem is not None or self.draining:
            return
        ids = await asyncio.to_thread(self.tables.storage.unfinished_ids)
        ids = [t for t in ids if t not in self.tables.live and t not in self.tables.broken]
        for start in range(0, len(ids), 500):
            chunk = ids[start:start + 500]
            try:
                owners = await self.redis.mget([self._owner_key(t) for t in chunk])
            except Exception:
                return  # the listener or the renewals see the outage
            for table_id, owner in zip(chunk, owners, strict=True):
                if owner is None or owner == self.process:
                    with contextlib.suppress(NotHere, Refused):
                        await self.tables.get(table_id)  # claims it, then loads it

    # -- messages between processes -------------------------------------------------------
    async def send(self, process: str, message: ClusterMessage) -> None:
        """Queue a message for another process (dropped while Redis cannot be reached:
        everyone it concerns has been told to connect again)."""
        if self.problem is None:
            await self._queue.put((self._channel(process), encode(message)))

    async def _sender(self) -> None:
        """Publish what has queued up, in order, in one pipeline at a time."""
        while not self._stopping:
            batch = [await self._queue.get()]
            while len(batch) < _BATCH and not self._queue.empty():
                batch.append(self._queue.get_nowait())
            if self.problem is not None or self._stopping:
                continue
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for channel, text in batch:
                        pipe.publish(channel, text)
                    await pipe.execute()
            except asyncio.CancelledError:
                raise
            except Exception as error:
                self._lost(error)

    async def _subscribe(self) -> PubSub:
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        try:
            await pubsub.subscribe(self._channel(self.process))
            await self.redis.set(self._alive_key(self.process), "1", px=self._lease_ms)
        except BaseException:
            with contextlib.suppress(Exception):
                await pubsub.aclose()
            raise
        return pubsub

    async def _listen(self, pubsub: PubSub | None) -> None:
        """Hand on every message to this process; after a failure, connect again (with
        backoff) and subscribe again."""
        failures = 0
        while True:
            if pubsub is None:
                try:
                    # connections left idle by an outage may lead to a Redis that is gone
                    await self.redis.connection_pool.disconnect(inuse_connections=False)
                    pubsub = await self._subscribe()
                except asyncio.CancelledError:
                    raise
                except Exception as error:
                    self._lost(error)
                    failures += 1
                    await asyncio.sleep(self._backoff.compute(failures))
                    continue
                failures = 0
                self._back()
            try:
                while self.problem is None:
                    item = await pubsub.get_message(ignore_subscribe_messages=True,
                                                    timeout=1.0)
                    if item is not None and item.get("type") == "message":
                        self._receive(item["data"])
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                raise
            except Exception as error:
                self._lost(error)
            with contextlib.suppress(Exception):
                await pubsub.aclose()
            pubsub = None

    def _receive(self, data: str) -> None:
        try:
            message = decode(data)
        except ValueError:
            log.exception("cannot read a message from another process")
            return
        match message:
            case Deliver(conn=conn, text=text, outbox_kind=kind):  # to a player connected here
                relay = self.relayed.get(conn)
                if relay is not None:
                    relay.waiting = None
                    relay.connection.outbox.put(kind, text)
            case Gone(conn=conn, reason=reason):
                relay = self.relayed.pop(conn, None)
                if relay is not None:
                    relay.connection.outbox.put("close", reason)
            case Hello():  # a player connected elsewhere, at a table owned here
                self._hello(message)
            case Intent(conn=conn, text=text):
                remote = self.remote.get(conn)
                if remote is not None:
                    remote.inbox.put_nowait(text)
            case Bye(conn=conn):
                remote = self.remote.get(conn)
                if remote is not None:
                    remote.inbox.put_nowait(None)
            case Seats(table=table_id):
                self.tables.spawn(self.tables.seating.reload_seats(table_id))
            case Ask():   # a command for a table played here
                self.tables.spawn(self._answer(message))
            case Reply(id=asked):
                waiter = self._asked.get(asked)
                if waiter is not None and not waiter.done():
                    waiter.set_result(message)
            case SignedOff(player=player, reason=reason):
                self.tables.spawn(self.tables.sign_off_here(player, reason))
            case Anonymized(player=player, name=name):
                self.tables.spawn(self.tables.anonymize_here(player, name))
            case Handover(table=table_id, origin=origin):
                self.tables.spawn(self._hand_over(table_id, origin))
            case HandedOver(table=table_id):
                self._handed_over(table_id)

    def _hello(self, message: Hello) -> None:
        remote = RemoteConnection(
            seat=message.seat, outbox=Outbox(self.tables.settings.queue_limit),
            origin=message.origin, conn=message.conn, table=message.table,
            speaker=message.speaker)
        self.remote[remote.conn] = remote
        remote.worker = self.tables.spawn(self._serve(remote))

    async def _serve(self, remote: RemoteConnection) -> None:
        """Seat a relayed player at the table and handle their messages in order."""
        table = None
        with contextlib.suppress(NotHere, Refused):
            table = await self.tables.get(remote.table)
        if table is None or (not table.over and not self.holds(table.id)):
            self.remote.pop(remote.conn, None)
            await self.send(remote.origin, Gone(conn=remote.conn, reason=MOVED))
            return
        remote.pump = asyncio.get_running_loop().create_task(self._pump(remote))
        await self.tables.connect(table, remote)
        try:
            while (text := await remote.inbox.get()) is not None:
                await self.tables.receive(table, remote, text)
        finally:
            if self.remote.get(remote.conn) is remote:
                del self.remote[remote.conn]
            if remote.pump is not None:
                remote.pump.cancel()
        await self.tables.disconnect(table, remote)

    def _end_remote(self, remote: RemoteConnection) -> None:
        """Forget a relayed player at once (their table is being dropped, or this process
        stops)."""
        self.remote.pop(remote.conn, None)
        for task in (remote.pump, remote.worker):
            if task is not None:
                task.cancel()

    async def _pump(self, connection: RemoteConnection) -> None:
        """Forward what the table says to a relayed player, in order."""
        while True:
            kind, text = await connection.outbox.get_item()
            if kind == "close":
                await self.send(connection.origin, Gone(conn=connection.conn, reason=text))
                connection.inbox.put_nowait(None)  # the relay forgets it: so does this side
                return
            await self.send(connection.origin,
                            Deliver(conn=connection.conn, text=text, outbox_kind=kind))

    # -- asking the owner of a table --------------------------------------------------------
    async def request(self, owner: str, table_id: str, command: Command[R],
                      wait: float = ASK_WAIT) -> R:
        """``command``'s answer from the process that plays the table: an ``Ask`` with an
        id of its own, answered by the ``Reply`` with the same id, within ``wait`` seconds
        (else ``Refused`` 503 ``table_elsewhere``: nothing is known to be done); the
        owner's refusal is raised here alike."""
        self.check()
        name, fields = to_wire(command)
        try:
            alive = await self.redis.exists(self._alive_key(owner))
        except Exception:
            raise self._unavailable() from None
        if not alive:
            raise Refused(GONE, 503, "table_elsewhere")
        asked = secrets.token_hex(8)
        waiter: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        self._asked[asked] = waiter
        try:
            await self.send(owner, Ask(id=asked, origin=self.process, table=table_id,
                                       command=name, fields=fields))
            reply = await asyncio.wait_for(waiter, wait)
        except TimeoutError:
            raise Refused(NO_REPLY, 503, "table_elsewhere") from None
        finally:
            self._asked.pop(asked, None)
        if reply.refused is not None:
            raise refusal_from_wire(reply.refused)
        # the commands that travel (remote.TRAVEL) answer JSON, read back as the owner gave it
        return cast(R, reply.answer)

    async def _answer(self, message: Ask) -> None:
        """Do what another process asked of a table played here and tell it the answer."""
        reply: Reply
        try:
            command = from_wire(message.command, message.fields)
            if isinstance(command, CloseTable):
                if message.table not in self.tables.live:
                    raise Refused(MOVED, 503, "table_elsewhere")
                await self.tables.close_here(message.table, command.reason)
                answer = None
            else:
                table = self.tables.live.get(message.table)
                if table is None:   # moved on meanwhile: the asker asks again
                    raise Refused(MOVED, 503, "table_elsewhere")
                answer = await table.dealer.ask(command)
            reply = Reply(id=message.id, answer=plain(answer))
        except Refused as error:
            reply = Reply(id=message.id, refused=refusal_to_wire(error))
        except StorageUnavailable as error:
            reply = Reply(id=message.id, refused=refusal_to_wire(
                Refused(error.reason, 503, error.code)))
        except ValueError as error:   # a command this process cannot read
            log.warning("a command from another process was not read: %s", error)
            reply = Reply(id=message.id, refused=refusal_to_wire(Refused(
                "the server process that plays this table could not read the request",
                503, "table_elsewhere")))
        await self.send(message.origin, reply)

    # -- relaying a player connected here -------------------------------------------------
    async def relay_open(self, owner: str, table_id: str, seat: int | None,
                         connection: Connection) -> str:
        """Ask the owner to seat a player connected here; ``ClusterUnavailable`` while
        Redis cannot be reached."""
        self.check()
        conn = secrets.token_hex(8)
        self.relayed[conn] = Relay(connection=connection, table=table_id, owner=owner,
                                   waiting=time.monotonic())
        await self.send(owner, Hello(table=table_id, conn=conn, origin=self.process, seat=seat,
                                     speaker=connection.speaker))
        return conn

    async def relay_message(self, conn: str, text: str | bytes) -> None:
        relay = self.relayed.get(conn)
        if relay is None:
            return  # the socket is being closed (the owner moved, or Redis went away)
        if isinstance(text, bytes):
            text = text.decode("utf-8", errors="replace")
        if relay.waiting is None:
            relay.waiting = time.monotonic()
        await self.send(relay.owner, Intent(table=relay.table, conn=conn, text=text))

    async def relay_close(self, conn: str) -> None:
        relay = self.relayed.pop(conn, None)
        if relay is not None:
            await self.send(relay.owner, Bye(table=relay.table, conn=conn))
