"""The limits enforced while the server runs (``bounds.Limits`` says how far each goes).

- ``MessageRate``: one WebSocket's token bucket.  A socket that sends faster than the rate
  past its burst is warned once; if it sends a burst's worth more without slowing down
  it is closed (1008).  Other sockets are not affected.
- ``Guard``: per client address, the WebSockets open at once and the new tables made (a
  moving window of the ``limits`` library, in memory by default), and the unfinished
  tables of bots only, per address and in all.

Every refusal is a ``Refused`` with a status, a reason a person can read and a stable
``code``, and changes nothing.
"""

from __future__ import annotations

import asyncio
import collections
import ipaddress
import math
import time
from collections.abc import Callable, Iterable
from typing import NoReturn

from limits import RateLimitItem, parse_many
from limits.aio.strategies import MovingWindowRateLimiter
from limits.errors import StorageError
from limits.storage import storage_from_string
from limits.util import WindowStats

from ..core.bounds import Limits
from ..core.errors import ClusterUnavailable, Refused
from .live import LiveTable

__all__ = ["LIMITS_AWAY", "Guard", "Limiter", "MessageRate", "Windows", "address_of",
           "network_of"]


def network_of(address: str, ipv6_prefix: int = 64) -> str:
    """The network one client holds, which per-address limits count as one address: an
    IPv4 address itself, an IPv6 address's ``ipv6_prefix`` (a subscriber gets a /64, a
    site a /48, and may use any address in it); anything else as it is.

    >>> network_of("2001:db8:1:2:3:4:5:6")
    '2001:db8:1:2::/64'
    >>> network_of("2001:db8:1:2:3:4:5:6", ipv6_prefix=48)
    '2001:db8:1::/48'
    >>> network_of("203.0.113.9"), network_of("::ffff:203.0.113.9"), network_of("unknown")
    ('203.0.113.9', '203.0.113.9', 'unknown')
    """
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if parsed.version == 4:
        return address
    assert isinstance(parsed, ipaddress.IPv6Address)
    if parsed.ipv4_mapped is not None:
        return str(parsed.ipv4_mapped)
    return str(ipaddress.ip_network(f"{parsed}/{ipv6_prefix}", strict=False))


def address_of(connection: object) -> str:
    """The client's address of a request or WebSocket, as uvicorn gives it: the address
    it connects from, or behind a proxy named in ``--trusted-proxies`` the one that
    proxy's ``X-Forwarded-For`` names."""
    client = getattr(connection, "client", None)
    return client.host if client is not None and client.host else "unknown"


class MessageRate:
    """A token bucket for one WebSocket: ``per_second`` messages on average, ``burst`` at
    once.

    ``admit()`` says what to do with the next message: ``"ok"`` (handle it), ``"warn"``
    (drop it and tell the client to slow down: the first message over), ``"drop"``
    (drop it quietly), ``"close"`` (the client sent a whole burst more after the warning).
    A client that slows down until the bucket is full again starts afresh.  A rate of 0
    admits everything.
    """

    def __init__(self, per_second: float, burst: int,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.per_second = per_second
        self.burst = max(1, burst)
        self.clock = clock
        self.tokens = float(self.burst)
        self.at = clock()
        self.over = 0

    def admit(self) -> str:
        if self.per_second <= 0:
            return "ok"
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.per_second)
        self.at = now
        if self.tokens >= self.burst:
            self.over = 0
        if self.tokens >= 1:
            self.tokens -= 1
            return "ok"
        self.over += 1
        if self.over == 1:
            return "warn"
        return "close" if self.over > self.burst else "drop"


class Guard:
    """The per-address quotas and the count of tables of bots only, for one process."""

    def __init__(self, limits: Limits, storage: str | None = None,
                 prefix: str = "LIMITS") -> None:
        self.limits = limits
        self.sockets: collections.Counter[str] = collections.Counter()
        self._limiter = Windows(storage or limits.rate_limit_storage, prefix)
        rates = limits.tables_per_address.strip()
        self._table_rates = parse_many(rates) if rates else []
        self._bot_tables: dict[str, set[str]] = collections.defaultdict(set)
        self.bot_tables_lock = asyncio.Lock()
        """Held from counting the tables of bots only to registering a new one, so two
        requests at once cannot both take the last place."""

    # -- WebSockets ---------------------------------------------------------------------
    def open_socket(self, address: str) -> Refused | None:
        """Count a new socket from ``address``, or say why it is refused (it is then not
        counted)."""
        address = network_of(address)
        if self.sockets[address] >= self.limits.connections_per_address:
            return Refused(
                f"too many connections from your address ({self.sockets[address]} open; at "
                f"most {self.limits.connections_per_address}): close some and try again",
                429, "too_many_connections",
                params={"limit": self.limits.connections_per_address})
        self.sockets[address] += 1
        return None

    def close_socket(self, address: str) -> None:
        address = network_of(address)
        self.sockets[address] -= 1
        if self.sockets[address] <= 0:
            del self.sockets[address]

    def message_rate(self) -> MessageRate:
        return MessageRate(self.limits.ws_messages_per_second, self.limits.ws_message_burst)

    # -- new tables -----------------------------------------------------------------------
    async def check_table_rate(self, address: str) -> None:
        """``Refused`` (429) if ``address`` has made as many new tables as it may for
        now; ``count_table`` counts one once it is made."""
        for rate in self._table_rates:
            if not await self._limiter.test(rate, "tables", address):
                stats = await self._limiter.get_window_stats(rate, "tables", address)
                wait = max(1, math.ceil(stats.reset_time - time.time()))
                raise Refused(
                    f"too many new tables from your address (at most {rate}); try again in "
                    f"{wait} s", 429, "rate_limited", retry_after=wait)

    async def count_table(self, address: str) -> None:
        for rate in self._table_rates:
            await self._limiter.hit(rate, "tables", address)

    def check_bot_table(self, address: str | None, live: Iterable[LiveTable]) -> None:
        """Refuse one more unfinished table of bots only, from ``address`` (``None``: a
        rematch, counted in all only).  Call under ``bot_tables_lock``."""
        running = {table.id for table in live if not table.over and _bots_only(table)}
        if len(running) >= self.limits.bot_tables:
            raise Refused(
                f"this server is already playing {len(running)} tables of bots only (at most "
                f"{self.limits.bot_tables}); watch one of them, or seat a person",
                429, "too_many_bot_tables", params={"limit": self.limits.bot_tables})
        for someone in list(self._bot_tables):   # forget the tables that have ended
            self._bot_tables[someone] &= running
            if not self._bot_tables[someone]:
                del self._bot_tables[someone]
        if address is None:
            return
        mine = self._bot_tables.get(address, set())
        if len(mine) >= self.limits.bot_tables_per_address:
            raise Refused(
                f"you already have {len(mine)} unfinished tables of bots only (at most "
                f"{self.limits.bot_tables_per_address}); wait for one to end",
                429, "too_many_bot_tables",
                params={"limit": self.limits.bot_tables_per_address})

    def note_bot_table(self, address: str, table_id: str) -> None:
        self._bot_tables[address].add(table_id)


def _bots_only(table: LiveTable) -> bool:
    return all(seat.kind == "bot" for seat in table.seats)


LIMITS_AWAY = ("the server cannot count requests just now (the Redis that keeps its rate "
               "limits cannot be reached): nothing was done; try again in a few seconds")


class Windows:
    """Moving windows of the ``limits`` library kept at ``url`` (``memory://`` or a Redis),
    whose store failing is a 503 ``cluster_unavailable`` with a sentence, never a 500: a
    request that cannot be counted is not granted."""

    def __init__(self, url: str, prefix: str = "LIMITS") -> None:
        url = url.removeprefix("async+")
        options: dict[str, float | str | bool] = {"wrap_exceptions": True}
        if url.startswith("redis"):
            # redis-py (the server's own Redis client), not limits' default coredis; a
            # Redis that does not answer is given up on after 2 s, not waited for; the
            # keys under the processes' own prefix (several sites may share a Redis)
            options.update(implementation="redispy", socket_timeout=2,
                           socket_connect_timeout=2, key_prefix=prefix)
        self._windows = MovingWindowRateLimiter(storage_from_string(f"async+{url}", **options))

    async def test(self, item: RateLimitItem, *keys: str) -> bool:
        keys = _networks(keys)
        try:
            return await self._windows.test(item, *keys)
        except (StorageError, OSError) as error:
            raise ClusterUnavailable(LIMITS_AWAY) from error

    async def hit(self, item: RateLimitItem, *keys: str) -> bool:
        keys = _networks(keys)
        try:
            return await self._windows.hit(item, *keys)
        except (StorageError, OSError) as error:
            raise ClusterUnavailable(LIMITS_AWAY) from error

    async def get_window_stats(self, item: RateLimitItem, *keys: str) -> WindowStats:
        keys = _networks(keys)
        try:
            return await self._windows.get_window_stats(item, *keys)
        except (StorageError, OSError) as error:
            raise ClusterUnavailable(LIMITS_AWAY) from error


def _networks(keys: tuple[str, ...]) -> tuple[str, ...]:
    """A limit's keys with each address as the network its client holds (an IPv6 /64):
    one client cannot pass a per-address limit by changing addresses within its own."""
    return tuple(network_of(key) if ":" in key else key for key in keys)


class Limiter:
    """Moving-window counts of sign-in attempts (one per app)."""

    def __init__(self, url: str, prefix: str = "LIMITS") -> None:
        self.limiter = Windows(url, prefix)

    async def hit(self, rates: str, *keys: str, code: str = "rate_limited") -> None:
        """Count an attempt against every rate of ``rates`` (``;`` between; empty: none),
        or refuse it with ``code`` (429 with when to try again) and count nothing."""
        items = parse_many(rates) if rates else []
        for item in items:
            if not await self.limiter.test(item, "players", *keys):
                await self._refuse(item, keys, code)
        for item in items:
            if not await self.limiter.hit(item, "players", *keys):
                await self._refuse(item, keys, code)

    async def _refuse(self, item: RateLimitItem, keys: tuple[str, ...], code: str) -> NoReturn:
        stats = await self.limiter.get_window_stats(item, "players", *keys)
        wait = max(1, math.ceil(stats.reset_time - time.time()))
        sign_in = code == "sign_in_throttled"   # the page says the wait: it is a parameter
        what = "too many sign-in attempts from your address" if sign_in else "too many attempts"
        raise Refused(f"{what} (at most {item}); try again in {wait} s", 429, code,
                      retry_after=wait, params={"retry_after": wait} if sign_in else None)
