"""The server's garbage collector settings: the modules' objects out of the full passes."""

from __future__ import annotations

import gc

from cardtable.server.web.collector import GC_YOUNG_THRESHOLD, quiet_collector


def test_quiet_collector_freezes_what_is_loaded_and_collects_the_young_less_often() -> None:
    before = gc.get_threshold()
    try:
        quiet_collector()
        assert gc.get_freeze_count() > 10_000   # the imported modules' objects, at least
        assert gc.get_threshold() == (GC_YOUNG_THRESHOLD, before[1], before[2])
        assert before[0] < GC_YOUNG_THRESHOLD
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
