"""``python -m cardtable.server`` with cProfile switched on and off by signals.

``benchmarks/load.py --profile DIR`` starts its servers through this file and sends
SIGUSR1 when it starts counting and SIGUSR2 when it stops, so the profile holds the
counted moves only (not the start, the seating or the warm-up), timed by the thread's own
CPU clock.  SIGUSR2 writes
``PROFILE_TO`` (a path, from the environment) in ``pstats``' format.  cProfile sees the
thread that took the signal: the event loop's, where the server's own work runs (the
storage's writer threads are measured apart, by ``load.py``'s per-thread CPU).

    python -m pstats DIR/server-0.prof
"""

from __future__ import annotations

import cProfile
import os
import signal
import sys
import time
from pathlib import Path
from types import FrameType

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardtable.server.__main__ import main  # noqa: E402

# the thread's CPU time, not the wall clock's: on a loaded machine the wall clock also
# counts the time other processes had the cores
_profile = cProfile.Profile(time.thread_time_ns, 1e-9)


def _start(signum: int, frame: FrameType | None) -> None:
    _profile.enable()


def _stop(signum: int, frame: FrameType | None) -> None:
    _profile.disable()
    target = os.environ["PROFILE_TO"]
    _profile.dump_stats(target + ".part")
    os.replace(target + ".part", target)   # whole, or not there: load.py waits for it


if __name__ == "__main__":
    signal.signal(signal.SIGUSR1, _start)
    signal.signal(signal.SIGUSR2, _stop)
    main(sys.argv[1:])
