"""uvicorn's protocols as this server runs them: what a connection may hold before the app
sees a request, and how many files the process may open.

uvicorn bounds the wait between two requests on a connection (``timeout_keep_alive``) and
nothing else: a connection that never sends, or sends its headers a byte a second, or
starts a body and stops, holds a file descriptor for ever, and with httptools the headers
of one request may grow without end.  ``guarded`` makes the HTTP protocol that closes
them:

- a request's line and headers must arrive within ``header_timeout`` seconds of the
  connection (or of the request's first byte, after an earlier answer) and hold at most
  ``max_header_bytes``: past either, 408 ``request_timeout`` or 431
  ``headers_too_large`` (a connection that sent nothing at all is closed without a word);
- its body must arrive within ``body_timeout`` seconds of the headers (408
  ``request_timeout``); how large it may be is ``border.TextBorder``'s;
- one peer address may hold at most ``per_peer`` connections at once (WebSockets
  included): one more is closed as soon as it is made, before a byte of it is read.  The
  peer is the address the connection comes from: a proxy named in ``--trusted-proxies``
  is not counted (every client behind it shares its address; the proxy bounds them, as
  nginx's ``limit_conn`` does).

``announce_file_limit`` lifts the process's soft limit of open files to its hard limit at
start (``raise_file_limit``) and logs how many connections that leaves (``capacity``).
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, Literal

from uvicorn.protocols.utils import get_remote_addr

if TYPE_CHECKING:
    from uvicorn._types import ASGISendEvent

try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as _HTTP
except ImportError:  # pragma: no cover - uvicorn without httptools
    from uvicorn.protocols.http.h11_impl import H11Protocol as _HTTP  # type: ignore[assignment]

__all__ = ["Guard", "PeerCounter", "announce_file_limit", "capacity", "guarded",
           "raise_file_limit", "websocket_protocol"]

log = logging.getLogger("cardtable.server")

RESERVED_FILES = 64
"""Files the process holds besides its connections: the database, the logs, Redis, the
bots' processes and their pipes."""

LOW_FILE_LIMIT = 4096
"""Below this many open files the start says the limit is low."""

Networks = tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]


class PeerCounter:
    """The connections open from each peer address; one past ``limit`` is refused (0: no
    limit).  Connections from ``trusted`` networks (the proxies) are not counted."""

    def __init__(self, limit: int, trusted: Networks = ()) -> None:
        self.limit = limit
        self.trusted = trusted
        self._open: dict[str, set[asyncio.BaseTransport]] = {}
        self._peer_of: dict[asyncio.BaseTransport, str] = {}
        self._warned: set[str] = set()

    def admit(self, transport: asyncio.BaseTransport) -> bool:
        """Count a new connection; ``False``: the peer holds as many as it may already."""
        remote = get_remote_addr(transport)  # type: ignore[arg-type]
        if self.limit == 0 or remote is None or self._is_trusted(remote[0]):
            return True
        peer = remote[0]
        held = self._open.setdefault(peer, set())
        # a transport some protocol did not hand back (another uvicorn's WebSocket) but
        # closed meanwhile no longer counts
        for gone in [item for item in held if item.is_closing()]:
            self._forget(gone)
        if len(held) >= self.limit:
            if peer not in self._warned:   # once, until it is under the limit again
                self._warned.add(peer)
                log.warning("%s holds %d connections, as many as one address may (the "
                            "--connections-per-peer setting): more are closed at once",
                            peer, self.limit)
            return False
        held.add(transport)
        self._peer_of[transport] = peer
        return True

    def release(self, transport: asyncio.BaseTransport) -> None:
        """The connection is closed (a transport never admitted: nothing to do)."""
        self._forget(transport)

    def held(self, peer: str) -> int:
        """How many connections ``peer`` holds now."""
        return len(self._open.get(peer, ()))

    def _forget(self, transport: asyncio.BaseTransport) -> None:
        peer = self._peer_of.pop(transport, None)
        if peer is None:
            return
        held = self._open.get(peer, set())
        held.discard(transport)
        if len(held) < self.limit:
            self._warned.discard(peer)
        if not held:
            self._open.pop(peer, None)

    def _is_trusted(self, host: str) -> bool:
        if not self.trusted:
            return False
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(address in network for network in self.trusted)


@dataclass(frozen=True)
class Guard:
    """What a connection may hold before the app has its request (the module's account)."""

    header_timeout: float = 10.0
    body_timeout: float = 20.0
    max_header_bytes: int = 32 * 1024
    peers: PeerCounter = field(default_factory=lambda: PeerCounter(64))


def _answer(status: int, phrase: str, code: str, detail: str) -> bytes:
    """A whole HTTP answer in the server's shape of refusal, closing the connection."""
    body = json.dumps({"detail": detail, "code": code}).encode()
    head = (f"HTTP/1.1 {status} {phrase}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n")
    return head.encode("ascii") + body


class GuardedHTTP(_HTTP):
    """uvicorn's HTTP protocol with the timeouts, the header bound and the count per peer
    of ``guard`` (a subclass made by ``guarded`` sets it)."""

    guard: ClassVar[Guard] = Guard()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._phase = "headers"   # then "body", "app", "idle" (between requests), "upgraded"
        self._header_bytes = 0
        self._timer: asyncio.TimerHandle | None = None
        if not self.guard.peers.admit(transport):
            self._phase = "refused"
            transport.close()
            return
        self._arm(self.guard.header_timeout)

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel()
        self.guard.peers.release(self.transport)
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._phase == "refused":
            return
        if self._phase == "idle":   # the first byte of the connection's next request
            self._phase, self._header_bytes = "headers", 0
            self._arm(self.guard.header_timeout)
        if self._phase == "headers":
            # measured before the parser reads them: a request that arrives whole in one
            # read (line, headers, blank line) would be answered before it was measured
            end = data.find(b"\r\n\r\n")
            self._header_bytes += len(data) if end < 0 else end + 4
            if self._header_bytes > self.guard.max_header_bytes:
                self._refuse(431, "Request Header Fields Too Large",
                             code="headers_too_large",
                             detail=f"the request's line and headers are over "
                                    f"{self.guard.max_header_bytes} bytes")
                return
        before = self.cycle
        super().data_received(data)
        if self._phase == "upgraded" or self.transport.is_closing():
            self._cancel()
        elif self.cycle is not before:   # a request's headers are in
            if self.cycle.more_body:
                self._phase = "body"
                self._arm(self.guard.body_timeout)
            else:
                self._phase = "app"
                self._cancel()
        elif self._phase == "body" and not self.cycle.more_body:
            self._phase = "app"
            self._cancel()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self._phase == "app":
            self._phase = "idle"   # uvicorn's keep-alive timeout holds until the next byte

    def handle_websocket_upgrade(self, *args: object) -> None:
        # the socket's protocol releases the connection's count when it closes
        self._phase = "upgraded"
        self._cancel()
        super().handle_websocket_upgrade(*args)

    def _arm(self, seconds: float) -> None:
        self._cancel()
        self._timer = self.loop.call_later(seconds, self._timed_out)

    def _cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _timed_out(self) -> None:
        self._timer = None
        if self.transport.is_closing():
            return
        if self._phase == "headers":
            if self._header_bytes == 0:
                self.transport.close()   # nothing asked: nothing to answer
            else:
                self._refuse(408, "Request Timeout", code="request_timeout",
                             detail=f"the request's headers did not arrive within "
                             f"{self.guard.header_timeout:g} seconds")
        elif self._phase == "body":
            self._refuse(408, "Request Timeout", code="request_timeout",
                         detail=f"the request's body did not arrive within "
                         f"{self.guard.body_timeout:g} seconds")

    def _refuse(self, status: int, phrase: str, *, code: str, detail: str) -> None:
        """Answer (unless the app has begun to) and close; the app, if it runs, is told
        the client is gone."""
        self._cancel()
        # while headers are read, ``cycle`` is still the connection's previous request
        cycle = self.cycle if self._phase == "body" else None
        self._phase = "refused"
        if cycle is not None and not cycle.response_complete:
            cycle.disconnected = True
            cycle.message_event.set()
        if cycle is None or not cycle.response_started:
            self.transport.write(_answer(status, phrase, code, detail))
        self.transport.close()


def guarded(guard: Guard) -> type[asyncio.Protocol]:
    """uvicorn's ``http`` protocol with ``guard``."""
    return type("GuardedHTTP", (GuardedHTTP,), {"guard": guard})


def websocket_protocol(peers: PeerCounter) -> type[asyncio.Protocol] | Literal["auto"]:
    """uvicorn's WebSocket protocol (websockets, sans I/O), made to answer a handshake it
    refuses, and to give back its connection's count to ``peers`` when it closes: as
    uvicorn 0.54 ships it, a WebSocket request whose line is over 8 KB (a long URL) or
    whose headers are too large gets its 414/431 answer made but never sent, and the
    client waits forever; and a socket refused with an HTTP answer (429 for too many
    connections) is logged as an error of the app.  Any other uvicorn: its own choice
    (a closed socket's count is then given back when its peer next connects)."""
    try:
        from uvicorn.protocols.websockets.websockets_sansio_impl import (
            WebSocketsSansIOProtocol,
        )
    except ImportError:  # pragma: no cover - another uvicorn
        return "auto"

    class AnsweringProtocol(WebSocketsSansIOProtocol):
        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if (not self.handshake_initiated and self.conn.handshake_exc is not None
                    and not self.transport.is_closing()):
                self.transport.write(b"".join(self.conn.data_to_send()))
                self.transport.close()

        async def send(self, message: ASGISendEvent) -> None:
            await super().send(message)
            if message["type"] == "websocket.http.response.body" and not message.get(
                    "more_body", False):
                self.handshake_complete = True   # refused with an answer: done, no error

        def connection_lost(self, exc: Exception | None) -> None:
            peers.release(self.transport)
            super().connection_lost(exc)

    return AnsweringProtocol


def raise_file_limit() -> tuple[int, int]:
    """Lift the soft limit of open files to the hard one (where the system has them);
    the limit before and after (-1 for no limit)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not a Unix
        return -1, -1
    infinity = resource.RLIM_INFINITY
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == infinity:
        return -1, -1
    # an unlimited hard limit is still bounded by the kernel (nr_open): try high, then lower
    for wanted in [hard] if hard != infinity else [1 << 20, 1 << 18, 1 << 16]:
        if wanted <= soft:
            break
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        except (ValueError, OSError):
            continue
        break
    after = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return soft, -1 if after == infinity else after


def capacity(files: int, before: int | None = None) -> str:
    """What ``files`` open files leave for connections, as the start says it.

    >>> capacity(1024)
    'open files: at most 1024, so about 960 connections at once (WebSockets included); \
that is low: raise the hard limit (ulimit -Hn, or LimitNOFILE= in a systemd unit) to 4096 or more'
    >>> capacity(65536, before=1024)
    'open files: at most 65536 (raised from 1024), so about 65472 connections at once \
(WebSockets included)'
    """
    if files < 0:
        return "open files: no limit"
    raised = f" (raised from {before})" if before is not None and before != files else ""
    said = (f"open files: at most {files}{raised}, so about "
            f"{max(files - RESERVED_FILES, 0)} connections at once (WebSockets included)")
    if files < LOW_FILE_LIMIT:
        said += (f"; that is low: raise the hard limit (ulimit -Hn, or LimitNOFILE= in a "
                 f"systemd unit) to {LOW_FILE_LIMIT} or more")
    return said


def announce_file_limit(logger: logging.Logger) -> int:
    """``raise_file_limit``, and say what it leaves (a warning when it is low)."""
    before, files = raise_file_limit()
    (logger.warning if 0 <= files < LOW_FILE_LIMIT else logger.info)(capacity(files, before))
    return files
