"""Which process nginx sends a table to: its consistent hash, computed here.

nginx's ``hash $key consistent`` (``deploy/nginx/cardtable.conf``) puts 160 points a
server on a ring, each the CRC-32 of the server's host, a zero byte, its port and the
point before it (the scheme of Cache::Memcached::Fast), and sends a key to the first
point at or after the key's CRC-32.  A process that knows the ring (``ring`` and
``ring_address`` in the settings) deals each new table an id that nginx sends to itself, so
that the table's players reach the process that made it and no handover is needed.  A
ring that differs from nginx's costs nothing but that handover.

>>> ring = Ring(["127.0.0.1:8001", "127.0.0.1:8002"])
>>> sorted({ring.server(f"table{n}") for n in range(50)})
['127.0.0.1:8001', '127.0.0.1:8002']
>>> ring.server("abc") == Ring(["127.0.0.1:8002", "127.0.0.1:8001"]).server("abc")
True
"""

from __future__ import annotations

import bisect
import struct
import zlib
from collections.abc import Callable, Sequence

__all__ = ["POINTS", "Ring", "choose_id"]

POINTS = 160
"""Points a server of weight 1 has on nginx's ring."""


class Ring:
    """nginx's consistent-hash ring over ``servers`` ("host:port", as in the upstream)."""

    def __init__(self, servers: Sequence[str]) -> None:
        points: dict[int, str] = {}
        for server in servers:
            host, _, port = server.rpartition(":") if ":" in server else (server, "", "")
            base = host.encode() + b"\0" + port.encode()
            previous = 0
            for _ in range(POINTS):
                point = zlib.crc32(base + struct.pack("<I", previous))
                points.setdefault(point, server)   # nginx keeps one of equal points
                previous = point
        self.hashes = sorted(points)
        self.servers = [points[point] for point in self.hashes]

    def server(self, key: str) -> str:
        """The server nginx sends ``key`` to while every server answers."""
        at = bisect.bisect_left(self.hashes, zlib.crc32(key.encode()))
        return self.servers[at % len(self.servers)]


def choose_id(new_id: Callable[[], str], ring: Ring | None, me: str,
              tries: int = 64) -> str:
    """A new id that ``ring`` sends to ``me`` (after ``tries`` draws, any id: the table
    is handed over on its first connection, as without a ring)."""
    table_id = new_id()
    if ring is None or not me:
        return table_id
    for _ in range(tries):
        if ring.server(table_id) == me:
            break
        table_id = new_id()
    return table_id
