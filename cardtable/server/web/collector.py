"""The garbage collector of a running server, tuned for steady move latency."""

from __future__ import annotations

import gc

__all__ = ["GC_YOUNG_THRESHOLD", "quiet_collector"]

GC_YOUNG_THRESHOLD = 5_000
"""Allocations between two collections of the youngest generation in a running server
(Python's default is 700): a move allocates thousands of short-lived objects and few
cycles, so collecting it less often costs nothing and saves passes (``quiet_collector``)."""


def quiet_collector() -> None:
    """Keep the garbage collector's full passes short, for a server's steady latency.

    A full collection walks every tracked object, and most of a fresh server's are the
    modules it imported (about 150,000 objects: two thirds of the heap at 500 tables),
    which live as long as the process; walking them made every full pass a pause of 50 to
    400 ms in the middle of the moves (the tail of the latency at 500 tables). They are
    moved out of the collector's sight once (``gc.freeze``), and the youngest generation
    is collected less often, since a move makes few cycles.
    """
    gc.collect()
    gc.freeze()
    _, middle, oldest = gc.get_threshold()
    gc.set_threshold(GC_YOUNG_THRESHOLD, middle, oldest)
