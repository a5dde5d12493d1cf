"""Telling a player something while they are elsewhere: the inbox.

``Notices.notify(player_id, kind, data)`` is the one call every feature makes (a
challenge, "your move" at a correspondence table, a tournament starting, a followed
player's game): the notice goes where the player chose for its kind (their social
settings' ``routes``; by default the inbox, which the page shows at once on any page by
asking ``GET /api/inbox`` with ``wait``: an answer held until a notice comes).

A kind may also go to ``email``: the daily digest (``people.digest``; off by default,
at most a mail a day, one-click unsubscribe), and to ``push``: the browsers the player
subscribed (``people.push``; only where the server has its VAPID keys).

A notice for a player nobody can reach (no such id) is stored all the same and read by
nobody; ``notify`` never raises for the database being away: it logs and gives ``None``
(a notice lost is better than a move, a challenge or a tournament refused for it).

>>> sorted(KINDS)
['challenge', 'challenge_answer', 'friend_game', 'invite', 'tournament', 'your_move']
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Mapping, Sequence
from typing import Protocol

from ..core.errors import ClusterUnavailable
from ..store.social import NoticeView, SocialStore
from ..store.storage import StorageUnavailable
from .push import Pushes

__all__ = ["CHANNELS", "KINDS", "MAX_WAIT", "Notices"]

log = logging.getLogger("cardtable.server")

KINDS: dict[str, str] = {
    "challenge": "a player challenged you (or a challenge of yours was accepted)",
    "challenge_answer": "your challenge was accepted, declined or expired",
    "your_move": "it is your move at a table with days a move",
    "tournament": "a tournament you joined starts, or pairs you",
    "friend_game": "a player you follow started a game (watch it)",
    "invite": "a player invites you to their table",
}
"""The kinds of notice, each a player may send where they choose."""

CHANNELS = ("inbox",)
"""Where a notice goes unless its player chose: the site's inbox (shown at once on any
page).  A player may add ``email``: the kind is in their daily digest (``digest``)."""

MAX_WAIT = 25.0
"""Seconds ``GET /api/inbox`` may hold its answer waiting for a notice."""

SEEN_KEPT = 100_000
"""Players whose last inbox question a process remembers."""

ONLINE = 60.0
"""Seconds since a player's page last asked for the inbox, on any process, within which
they count as online (a page open on the site asks every ``MAX_WAIT`` or sooner)."""

SHARE_EVERY = 10.0
"""Seconds between two writes of one player's visit to the processes' shared record (a
burst of notices makes a burst of questions; one write serves them all)."""


class Presence(Protocol):
    """Where the processes share who is on the site (``cluster.relay.Cluster``: Redis);
    either call raises ``ClusterUnavailable`` while it cannot be reached."""

    async def mark_seen(self, player_id: str, at: float) -> None: ...

    async def seen(self, player_ids: Sequence[str]) -> dict[str, float]: ...
RECHECK = 5.0
"""Seconds between reads of the inbox while an answer waits (a notice another process
wrote wakes no waiter here: it is found at the next read)."""


class Notices:
    """The inbox's writer, and the waits of the pages asking for new notices."""

    def __init__(self, store: SocialStore, presence: Presence | None = None,
                 pushes: Pushes | None = None) -> None:
        self.store = store
        self.pushes = pushes
        """Web Push (``None``: the server has no VAPID keys)."""
        self.presence = presence
        """The record every process shares of who is on the site (``None``: one process,
        whose own ``seen`` is the whole of it)."""
        self._shared: dict[str, float] = {}
        """When (monotonic) each player's visit was last written to ``presence``."""
        self._waiting: dict[str, set[asyncio.Event]] = {}
        self.closed = False
        """The app is stopping: a held answer comes now, and none is held any more."""
        self.seen: dict[str, float] = {}
        """When (monotonic) each player last asked for their inbox here: a page open on
        the site asks every ``MAX_WAIT`` seconds or sooner (``online``)."""

    async def notify(self, player_id: str, kind: str,
                     data: Mapping[str, object] | None = None) -> NoticeView | None:
        """Put a notice of ``kind`` (one of ``KINDS``) in the player's inbox, unless they
        chose not to have that kind there; the notice as stored, or ``None``."""
        if kind not in KINDS:
            raise ValueError(f"no kind of notice {kind!r}")
        try:
            _, routes = await asyncio.to_thread(self.store.settings, player_id)
            ways = routes.get(kind, CHANNELS)   # a list (the settings' model checks it)
            ways = ways if isinstance(ways, list | tuple) else CHANNELS
            if "push" in ways and self.pushes is not None:
                self.pushes.start_push(player_id, kind, dict(data or {}))
            if "inbox" not in ways and "email" not in ways:   # the digest mails the inbox's
                return None
            notice = await asyncio.to_thread(self.store.add_notice, player_id, kind,
                                             dict(data or {}))
        except StorageUnavailable:
            log.warning("a %s notice was not stored: the database is away", kind)
            return None
        for event in self._waiting.get(player_id, ()):
            event.set()
        return notice

    async def notify_many(self, notices: Sequence[tuple[str, str, Mapping[str, object]]]) -> None:
        """``notify`` for several (player, kind, data) at once: the players' settings read
        in one query and the notices stored in one transaction (a tournament's step tells
        every player it seated)."""
        for _, kind, _ in notices:
            if kind not in KINDS:
                raise ValueError(f"no kind of notice {kind!r}")
        if not notices:
            return
        try:
            routes = await asyncio.to_thread(self.store.routes_of,
                                             sorted({p for p, _, _ in notices}))
            kept: list[tuple[str, str, Mapping[str, object]]] = []
            for player_id, kind, data in notices:
                ways = routes.get(player_id, {}).get(kind, CHANNELS)
                ways = ways if isinstance(ways, list | tuple) else CHANNELS
                if "push" in ways and self.pushes is not None:
                    self.pushes.start_push(player_id, kind, dict(data))
                if "inbox" in ways or "email" in ways:   # the digest mails the inbox's
                    kept.append((player_id, kind, dict(data)))
            if kept:
                await asyncio.to_thread(self.store.add_notices, kept)
        except StorageUnavailable:
            log.warning("%d notices were not stored: the database is away", len(notices))
            return
        for player_id in {p for p, _, _ in notices}:
            for event in self._waiting.get(player_id, ()):
                event.set()

    async def wait(self, player_id: str, after: int, limit: int,
                   wait: float) -> list[NoticeView]:
        """The player's notices newer than ``after``; if there are none, up to ``wait``
        seconds for one (the real time: a page's question, not a table's clock)."""
        if self.closed:
            return []
        await self._visit(player_id)
        deadline = time.monotonic() + min(max(wait, 0.0), MAX_WAIT)
        event = asyncio.Event()
        self._waiting.setdefault(player_id, set()).add(event)
        try:
            while True:
                found = await asyncio.to_thread(self.store.notices, player_id, after=after,
                                                limit=limit)
                left = deadline - time.monotonic()
                if found or left <= 0 or self.closed:
                    return found
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(event.wait(), min(left, RECHECK))
                event.clear()
                if self.closed:
                    return []
        finally:
            waiting = self._waiting.get(player_id)
            if waiting is not None:
                waiting.discard(event)
                if not waiting:
                    del self._waiting[player_id]

    async def _visit(self, player_id: str) -> None:
        """The player's page asked here: kept here, and shared with the other processes
        (at most every ``SHARE_EVERY`` seconds a player)."""
        now = self.seen[player_id] = time.monotonic()
        for kept in (self.seen, self._shared):
            if len(kept) > SEEN_KEPT:   # the oldest half goes: a bound on memory
                for gone in sorted(kept, key=kept.__getitem__)[:SEEN_KEPT // 2]:
                    del kept[gone]
        if self.presence is None or now - self._shared.get(player_id, -1e9) < SHARE_EVERY:
            return
        try:
            await self.presence.mark_seen(player_id, time.time())
        except ClusterUnavailable:
            return   # the next question tries again; this process still knows
        self._shared[player_id] = now

    async def online(self, player_ids: Sequence[str]) -> set[str]:
        """Those of the players whose page asked for the inbox in the last ``ONLINE``
        seconds, here or on any process (Redis away: those seen here)."""
        now = time.monotonic()
        here = {p for p in player_ids if now - self.seen.get(p, -1e9) <= ONLINE}
        if self.presence is None:
            return here
        try:
            seen = await self.presence.seen([p for p in player_ids if p not in here])
        except ClusterUnavailable:
            return here
        wall = time.time()
        return here | {p for p, at in seen.items() if wall - at <= ONLINE}

    def close(self) -> None:
        """The app stops: every held answer is given now (before the database's threads
        end, which a held answer's next read would need)."""
        self.closed = True
        for events in self._waiting.values():
            for event in events:
                event.set()
