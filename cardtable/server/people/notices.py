"""Telling a player something while they are elsewhere: the inbox.

``Notices.notify(player_id, kind, data)`` is the one call every feature makes (a
challenge, "your move" at a correspondence table, a tournament starting, a followed
player's game): the notice goes where the player chose for its kind (their social
settings' ``routes``; by default the inbox, which the page shows at once on any page by
asking ``GET /api/inbox`` with ``wait``: an answer held until a notice comes).

A kind may also go to ``email``: the daily digest (``people.digest``; off by default,
at most a mail a day, one-click unsubscribe).  Web Push is not built (a route may not
name it, so no player chooses a way that never delivers).

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
from collections.abc import Mapping

from ..store.social import NoticeView, SocialStore
from ..store.storage import StorageUnavailable

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
RECHECK = 5.0
"""Seconds between reads of the inbox while an answer waits (a notice another process
wrote wakes no waiter here: it is found at the next read)."""


class Notices:
    """The inbox's writer, and the waits of the pages asking for new notices."""

    def __init__(self, store: SocialStore) -> None:
        self.store = store
        self._waiting: dict[str, set[asyncio.Event]] = {}
        self.closed = False
        """The app is stopping: a held answer comes now, and none is held any more."""
        self.seen: dict[str, float] = {}
        """When (monotonic) each player last asked for their inbox here: a page open on
        the site asks every ``MAX_WAIT`` seconds or sooner (online, to their friends)."""

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

    async def wait(self, player_id: str, after: int, limit: int,
                   wait: float) -> list[NoticeView]:
        """The player's notices newer than ``after``; if there are none, up to ``wait``
        seconds for one (the real time: a page's question, not a table's clock)."""
        if self.closed:
            return []
        self.seen[player_id] = time.monotonic()
        if len(self.seen) > SEEN_KEPT:   # the oldest half goes: a bound on memory
            for gone in sorted(self.seen, key=self.seen.__getitem__)[:SEEN_KEPT // 2]:
                del self.seen[gone]
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

    def close(self) -> None:
        """The app stops: every held answer is given now (before the database's threads
        end, which a held answer's next read would need)."""
        self.closed = True
        for events in self._waiting.values():
            for event in events:
                event.set()
