"""Web Push: a notice sent to the browsers a player allowed (RFC 8030, 8291, 8292).

A page whose player allows it subscribes its browser with the server's VAPID public key
(``vapid_public_key``) and sends the subscription (``POST /api/push/subscriptions``); a
kind of notice the player routes to ``push`` (their social settings) is then sent to each
of their browsers' push services, encrypted to the browser (``aes128gcm``) and signed
with the server's VAPID key, by ``pywebpush`` (maintained; it encrypts with ``http_ece``
and signs with ``py_vapid``).  The page's service worker shows it and opens its link.

A subscription names its push service's address, to which the server then posts: only
an https address on one of ``push_services``' hosts is taken (``push_not_allowed``), so
nobody makes the server post to an address of their choosing.  A subscription the push
service says is gone (404, 410) is forgotten.  Nothing is sent without the VAPID keys and
subject (``push_on``).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import logging
from collections.abc import Mapping
from urllib.parse import urlsplit

from ..core.account_settings import AccountSettings
from ..store.social import SocialStore
from ..store.storage import StorageUnavailable
from .digest import WORDS, _Blank

__all__ = ["Pushes", "allowed_endpoint"]

log = logging.getLogger("cardtable.server")

_PUSH_THREADS = concurrent.futures.ThreadPoolExecutor(4, thread_name_prefix="cardtable-push")

TIMEOUT = 10.0
"""Seconds a push service may take to answer."""

TTL = 24 * 3600
"""Seconds a push service keeps a push for a browser that is away."""

PENDING = 1000
"""Pushes under way at most (each a task waiting for the push threads): a bound on the
memory a burst of notices takes while push services are slow."""


def allowed_endpoint(endpoint: str, services: str) -> bool:
    """Whether a subscription's address is on one of ``services`` (comma-separated
    hosts, each https and the host or under it; an entry starting http: a prefix)."""
    if len(endpoint) > 1000:
        return False
    parts = urlsplit(endpoint)
    for entry in (e.strip() for e in services.split(",")):
        if not entry:
            continue
        if entry.startswith("http"):
            if endpoint.startswith(entry):
                return True
        elif parts.scheme == "https" and parts.hostname is not None and (
                parts.hostname == entry or parts.hostname.endswith("." + entry)):
            return True
    return False


PAYLOAD_MAX = 3000
"""Bytes of a push's JSON at most (push services take 4096 once encrypted): past it the
notice's ``data`` is left out, and the English ``body`` alone is shown."""


def _payload(kind: str, text: str, words: Mapping[str, str]) -> str:
    """What a push carries: the English words (``title``, ``body``), the notice's
    ``kind`` and ``data`` (the service worker words them in the page's language) and the
    page it leads to (``url``: a path on the site, never another site's ``//host``).

    >>> json.loads(_payload("invite", "x", {"url": "//evil.example/"}))["url"]
    '/#inbox'
    >>> "data" in json.loads(_payload("invite", "x", {"from": "y" * 4000}))
    False
    """
    url = words.get("url") or "/#inbox"
    url = url if url.startswith("/") and not url.startswith("//") else "/#inbox"
    shown: dict[str, object] = {"title": "cardtable", "body": text[:200], "kind": kind,
                                "url": url, "data": dict(words)}
    payload = json.dumps(shown, ensure_ascii=False)
    if len(payload.encode()) > PAYLOAD_MAX:
        del shown["data"]
        payload = json.dumps(shown, ensure_ascii=False)
    return payload


class Pushes:
    """Sends a notice to a player's subscribed browsers."""

    def __init__(self, settings: AccountSettings, private_key: str, store: SocialStore) -> None:
        self.settings = settings
        self.store = store
        from py_vapid import Vapid02

        key = private_key.strip()
        self.vapid = (Vapid02.from_file(key) if key.endswith(".pem")
                      else Vapid02.from_string(key))
        self.tasks: set[asyncio.Task[int]] = set()
        self.dropped = 0
        """Pushes dropped because ``PENDING`` were under way."""

    def start_push(self, player_id: str, kind: str, data: Mapping[str, object]) -> None:
        """``push`` in the background (a notice is not held up by a push service); past
        ``PENDING`` pushes under way (push services slow or away) it is dropped and
        logged: the inbox still has the notice."""
        if len(self.tasks) >= PENDING:
            self.dropped += 1
            log.warning("a %s push was dropped: %d are under way", kind, len(self.tasks))
            return
        task = asyncio.get_running_loop().create_task(self.push(player_id, kind, data))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def push(self, player_id: str, kind: str, data: Mapping[str, object]) -> int:
        """Send the notice to each of the player's browsers; how many took it."""
        try:
            subscriptions = await asyncio.to_thread(self.store.pushes_of, player_id)
        except StorageUnavailable:
            return 0
        words = {key: str(value) for key, value in data.items()}
        try:   # the digest's words (English: the service worker has no language table)
            text = WORDS.get(kind, kind).format_map(_Blank(words))
        except (ValueError, IndexError):
            text = kind
        payload = _payload(kind, text, words)
        loop = asyncio.get_running_loop()
        sent = 0
        for endpoint, p256dh, auth in subscriptions:
            if not allowed_endpoint(endpoint, self.settings.push_services):
                continue
            try:
                status = await loop.run_in_executor(_PUSH_THREADS, self._send, endpoint,
                                                    p256dh, auth, payload)
            except Exception as error:   # the network, the service: logged, never raised
                log.warning("a push was not sent: %s", type(error).__name__)
                continue
            if status in (404, 410):   # the browser unsubscribed: forget it
                with contextlib.suppress(StorageUnavailable):
                    await asyncio.to_thread(self.store.remove_push, endpoint)
            elif 200 <= status < 300:
                sent += 1
            else:
                log.warning("a push service answered %d", status)
        return sent

    def _send(self, endpoint: str, p256dh: str, auth: str, payload: str) -> int:
        from pywebpush import WebPushException, webpush

        try:
            answer = webpush({"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}},
                             payload, vapid_private_key=self.vapid,
                             vapid_claims={"sub": self.settings.vapid_subject},
                             timeout=TIMEOUT, ttl=TTL)
        except WebPushException as error:
            if error.response is None:
                raise
            return int(error.response.status_code)
        return int(getattr(answer, "status_code", 201))
