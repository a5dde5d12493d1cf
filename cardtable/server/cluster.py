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
the second, and the process that lost drops the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .cluster_messages import (
    Bye,
    ClusterMessage,
    Deliver,
    Gone,
    Hello,
    Intent,
    Seats,
    decode,
    encode,
)
from .live import Connection, Outbox
from .storage import StorageUnavailable

if TYPE_CHECKING:
    from .tables import Tables

__all__ = ["Cluster", "RemoteConnection"]

log = logging.getLogger("cardtable.server")

_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
    return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
    return redis.call('del', KEYS[1])
end
return 0
"""


@dataclass(eq=False)
class RemoteConnection(Connection):
    """A player connected to another process, as the owner of the table sees them."""

    origin: str = ""
    conn: str = ""
    table: str = ""
    pump: asyncio.Task[None] | None = field(default=None, repr=False)


class Cluster:
    """This process's membership of the cluster: leases, its channel, relays."""

    def __init__(self, url: str, tables: Tables, *, prefix: str = "cardtable",
                 lease: float = 15.0) -> None:
        import redis.asyncio as redis

        self.redis = redis.from_url(url, decode_responses=True)
        self.tables = tables
        self.prefix = prefix
        self.lease = lease
        self.process = secrets.token_hex(8)
        self.owned: set[str] = set()
        self.relayed: dict[str, Connection] = {}
        """Connections to this process whose table another process owns, by id."""
        self.remote: dict[str, RemoteConnection] = {}
        """Connections to other processes at tables this process owns, by id."""
        self._tasks: list[asyncio.Task[None]] = []
        self._pubsub: Any = None

    # -- names ----------------------------------------------------------------------------
    def _owner_key(self, table_id: str) -> str:
        return f"{self.prefix}:owner:{table_id}"

    def _channel(self, process: str) -> str:
        return f"{self.prefix}:process:{process}"

    # -- life -----------------------------------------------------------------------------
    async def start(self) -> None:
        await self.redis.ping()
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(self._channel(self.process))
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen()), loop.create_task(self._renew()),
                       loop.create_task(self._adopt_loop())]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        for connection in list(self.remote.values()):
            if connection.pump is not None:
                connection.pump.cancel()
        with contextlib.suppress(Exception):
            for table_id in list(self.owned):
                await self.redis.eval(_RELEASE, 1, self._owner_key(table_id), self.process)
            if self._pubsub is not None:
                await self._pubsub.aclose()
            await self.redis.aclose()

    # -- ownership ------------------------------------------------------------------------
    async def claim(self, table_id: str) -> bool:
        """Own the table if nobody does (or this process already does)."""
        key = self._owner_key(table_id)
        if await self.redis.set(key, self.process, nx=True, px=int(self.lease * 1000)):
            self.owned.add(table_id)
            return True
        if await self.redis.get(key) == self.process:
            self.owned.add(table_id)
            return True
        return False

    async def owner(self, table_id: str) -> str | None:
        return await self.redis.get(self._owner_key(table_id))  # type: ignore[return-value]

    async def release(self, table_id: str) -> None:
        self.owned.discard(table_id)
        with contextlib.suppress(Exception):
            await self.redis.eval(_RELEASE, 1, self._owner_key(table_id), self.process)

    async def _renew(self) -> None:
        while True:
            await asyncio.sleep(self.lease / 3)
            for table_id in list(self.owned):
                table = self.tables.live.get(table_id)
                if table is not None and table.over:
                    await self.release(table_id)  # a finished table needs no owner
                    continue
                try:
                    kept = await self.redis.eval(_RENEW, 1, self._owner_key(table_id),
                                                 self.process, int(self.lease * 1000))
                except Exception:
                    log.exception("cannot renew the lease of table %s", table_id)
                    continue
                if not kept:
                    log.warning("lost table %s to another process", table_id)
                    self.owned.discard(table_id)
                    await self.tables.drop(table_id, "the table moved to another server")

    async def _adopt_loop(self) -> None:
        """Take over the unfinished tables whose owner has gone (or that have none)."""
        while True:
            await asyncio.sleep(self.lease / 2)
            try:
                await self.adopt()
            except StorageUnavailable:
                pass  # the storage logged the outage; the next round tries again
            except Exception:
                log.exception("adopting tables failed")

    async def adopt(self) -> None:
        ids = await asyncio.to_thread(self.tables.storage.unfinished_ids)
        for table_id in ids:
            if table_id in self.tables.live or table_id in self.tables.broken:
                continue
            if await self.redis.exists(self._owner_key(table_id)):
                continue
            if await self.claim(table_id):
                with contextlib.suppress(Exception):
                    await self.tables.get(table_id)

    # -- messages between processes -------------------------------------------------------
    async def send(self, process: str, message: ClusterMessage) -> None:
        await self.redis.publish(self._channel(process), encode(message))

    async def _listen(self) -> None:
        async for item in self._pubsub.listen():
            if item.get("type") != "message":
                continue
            try:
                await self._handle(decode(item["data"]))
            except Exception:
                log.exception("cannot handle a message from another process")

    async def _handle(self, message: ClusterMessage) -> None:
        match message:
            case Deliver(conn=conn, text=text, outbox_kind=kind):  # to a player connected here
                connection = self.relayed.get(conn)
                if connection is not None:
                    connection.outbox.put(kind, text)
            case Gone(conn=conn, reason=reason):
                connection = self.relayed.get(conn)
                if connection is not None:
                    connection.outbox.put("close", reason)
            case Hello():  # a player connected elsewhere, at a table owned here
                await self._hello(message)
            case Intent(table=table_id, conn=conn, text=text):
                remote = self.remote.get(conn)
                table = self.tables.live.get(table_id)
                if remote is not None and table is not None:
                    await self.tables.receive(table, remote, text)
            case Bye(table=table_id, conn=conn):
                remote = self.remote.pop(conn, None)
                table = self.tables.live.get(table_id)
                if remote is not None:
                    if remote.pump is not None:
                        remote.pump.cancel()
                    if table is not None:
                        await self.tables.disconnect(table, remote)
            case Seats(table=table_id):
                await self.tables.seating.reload_seats(table_id)

    async def _hello(self, message: Hello) -> None:
        table = self.tables.live.get(message.table)
        if table is None or message.table not in self.owned:
            await self.send(message.origin, Gone(conn=message.conn, reason="the table moved"))
            return
        connection = RemoteConnection(
            seat=message.seat, outbox=Outbox(self.tables.settings.queue_limit),
            origin=message.origin, conn=message.conn, table=message.table)
        connection.pump = asyncio.get_running_loop().create_task(self._pump(connection))
        self.remote[connection.conn] = connection
        await self.tables.connect(table, connection)

    async def _pump(self, connection: RemoteConnection) -> None:
        """Forward what the table says to a relayed player, in order."""
        while True:
            kind, text = await connection.outbox.get_item()
            if kind == "close":
                await self.send(connection.origin, Gone(conn=connection.conn, reason=text))
                return
            await self.send(connection.origin,
                            Deliver(conn=connection.conn, text=text, outbox_kind=kind))

    # -- relaying a player connected here -------------------------------------------------
    async def relay_open(self, owner: str, table_id: str, seat: int | None,
                         connection: Connection) -> str:
        conn = secrets.token_hex(8)
        self.relayed[conn] = connection
        await self.send(owner, Hello(table=table_id, conn=conn, origin=self.process, seat=seat))
        return conn

    async def relay_message(self, owner: str, table_id: str, conn: str,
                            text: str | bytes) -> None:
        if isinstance(text, bytes):
            text = text.decode("utf-8", errors="replace")
        await self.send(owner, Intent(table=table_id, conn=conn, text=text))

    async def relay_close(self, owner: str, table_id: str, conn: str) -> None:
        self.relayed.pop(conn, None)
        with contextlib.suppress(Exception):
            await self.send(owner, Bye(table=table_id, conn=conn))

    async def watch_owner(self, table_id: str, owner: str, connection: Connection) -> None:
        """Close a relayed player's socket when the owner changes, so they reconnect."""
        while True:
            await asyncio.sleep(self.lease / 3)
            if await self.owner(table_id) != owner:
                connection.outbox.put("close", "the table moved to another server")
                return

