"""What a process counts for Prometheus: moves, their latency, bots, waits, refusals.

Each ``Tables`` (so each app) has a ``Metrics`` of its own, with its own
``CollectorRegistry``: no module-level state, so a test that makes several apps in one
process reads each one's figures apart.  The live figures (tables, sockets, storage and
Redis health, leases) are read when ``/metrics`` is asked for (``render``); the rest are
counted where they happen.  A refusal is counted under its code only if ``codes.CODES``
lists it ("refused" else), so a label never grows past that list.

>>> metrics = Metrics()
>>> metrics.refused("not_your_turn"); metrics.refused("no such code")
>>> text = metrics.render(Gauges(live_tables=2)).decode()
>>> 'cardtable_refusals_total{code="not_your_turn"} 1.0' in text
True
>>> 'cardtable_refusals_total{code="refused"} 1.0' in text
True
>>> "cardtable_live_tables 2.0" in text
True
"""

from __future__ import annotations

from dataclasses import dataclass

from prometheus_client import CONTENT_TYPE_LATEST as CONTENT_TYPE
from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    ProcessCollector,
    generate_latest,
)

from .codes import CODES

__all__ = ["CONTENT_TYPE", "Gauges", "Metrics"]

FAST = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
"""Seconds: a move's way through the server (p99 16-21 ms at 500 tables on one core)."""

SLOW = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0)
"""Seconds: a bot's thought (stopped at ``bot_time_limit``), a wait in a queue."""

QUEUES = ("table", "bot_turn", "quick_play")
"""The waits counted: a command for a busy table's dealer, a bot for a turn of its
address's thinking budget, a quick-play ticket until it is seated."""


@dataclass
class Gauges:
    """The figures read at the moment ``/metrics`` is asked for."""

    live_tables: int = 0
    sockets: int = 0
    storage_up: bool = True
    storage_problem: str | None = None
    """``unreachable`` or ``cannot_store`` (a full disk) while storage is not up."""
    redis_up: bool | None = None
    """``None``: no Redis (one process)."""
    leases: int = 0
    relayed: int = 0
    draining: bool = False


class Metrics:
    """One process's instruments, in a registry of its own."""

    def __init__(self) -> None:
        self.registry = registry = CollectorRegistry()
        self.moves = Counter("cardtable_moves", "moves played and stored here, by people "
                             "or by bots", ["by"], registry=registry)
        self.move_seconds = Histogram(
            "cardtable_move_seconds", "seconds from a move received on a socket to its "
            "state handed to every connection at the table", buckets=FAST, registry=registry)
        self.bot_seconds = Histogram(
            "cardtable_bot_thinking_seconds", "seconds a bot thought about a move (its turn "
            "of the budget waited for apart)", buckets=SLOW, registry=registry)
        self.waits = Histogram(
            "cardtable_queue_wait_seconds", "seconds waited in a queue: table (a command "
            "for a busy table), bot_turn (a bot for its budget), quick_play (a ticket until "
            "seated)", ["queue"], buckets=SLOW, registry=registry)
        self.refusals = Counter("cardtable_refusals", "refusals sent, by code (sockets "
                                "and HTTP)", ["code"], registry=registry)
        self._live = Gauge("cardtable_live_tables", "tables being played in this process",
                           registry=registry)
        self._sockets = Gauge("cardtable_sockets", "WebSockets open to this process",
                              registry=registry)
        self._storage = Gauge("cardtable_storage_up", "1 while the database answers and "
                              "stores", registry=registry)
        self._storage_problem = Gauge(
            "cardtable_storage_problem", "1 for what is wrong with the database now: "
            "unreachable, or cannot_store (it answers, but a write fails: a full disk)",
            ["problem"], registry=registry)
        self._redis: Gauge | None = None
        """Made the first time Redis is asked about: one process has no such series."""
        self._leases = Gauge("cardtable_leases_held", "tables whose lease this process "
                             "holds (several processes)", registry=registry)
        self._relayed = Gauge("cardtable_relayed_sockets", "sockets open here to tables "
                              "another process plays (behind a proxy that routes by table: "
                              "near 0)", registry=registry)
        self._draining = Gauge("cardtable_draining", "1 while the process stops: it takes "
                               "no new players", registry=registry)
        # the children bound once (each series shows from the start, at zero): a label
        # looked up on every move costs more than the count itself
        self._waits = {queue: self.waits.labels(queue) for queue in QUEUES}
        self._by_bot = self.moves.labels("bot")
        self._by_person = self.moves.labels("person")
        self._refusals: dict[str, Counter] = {}
        self._process = ProcessCollector(registry=registry)

    def moved(self, by_bot: bool) -> None:
        (self._by_bot if by_bot else self._by_person).inc()

    def refused(self, code: str | None) -> None:
        known = code if code in CODES else "refused"
        child = self._refusals.get(known)
        if child is None:
            child = self._refusals[known] = self.refusals.labels(known)
        child.inc()

    def waited(self, queue: str, seconds: float) -> None:
        self._waits[queue].observe(max(0.0, seconds))

    def render(self, gauges: Gauges) -> bytes:
        """The text format Prometheus scrapes, with the live figures of ``gauges``."""
        self._live.set(gauges.live_tables)
        self._sockets.set(gauges.sockets)
        self._storage.set(1 if gauges.storage_up else 0)
        for problem in ("unreachable", "cannot_store"):
            self._storage_problem.labels(problem).set(
                1 if gauges.storage_problem == problem else 0)
        if gauges.redis_up is not None:
            if self._redis is None:
                self._redis = Gauge("cardtable_redis_up", "1 while Redis answers (several "
                                    "processes)", registry=self.registry)
            self._redis.set(1 if gauges.redis_up else 0)
        self._leases.set(gauges.leases)
        self._relayed.set(gauges.relayed)
        self._draining.set(1 if gauges.draining else 0)
        text: bytes = generate_latest(self.registry)
        return text
