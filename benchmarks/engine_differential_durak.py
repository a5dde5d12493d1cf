"""The Durak differential test at benchmark size: the compiled core against the pure engine.

    python benchmarks/engine_differential_durak.py [--positions 100000]

Runs tests/durak/test_durak_compiled.py's comparison (random games under option sets
hypothesis draws from every rule choice, every player count; legal moves in order, views,
outcomes, fields, refusals of bad input, copies, pops back to the start, determinizations)
with enough games for ``positions`` positions, and stops with the first difference.  The
tests run the same comparison on fewer; benchmarks/engine_sanitize.sh runs this under
AddressSanitizer.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "durak")]

POSITIONS_A_GAME = 150
"""About how many positions a game of the comparison holds (measured: 180 over 300 games)."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=100_000)
    args = parser.parse_args(argv)
    try:
        from cardtable.durak import _core
    except ImportError:
        print("no compiled Durak core is built here: nothing to compare")
        return 1
    os.environ["DURAK_DIFFERENTIAL_GAMES"] = str(max(10, args.positions // POSITIONS_A_GAME))
    import test_durak_compiled as differential

    started = time.perf_counter()
    while differential.COUNTED[0] < args.positions:
        differential.test_random_games_are_the_same_in_both_engines()
        differential.test_positions_are_the_same_in_both_engines()
    differential.test_reference_counts_stay_flat_over_a_million_pushes_and_pops()
    took = time.perf_counter() - started
    print(f"core: {_core.__file__}")
    print(f"durak: {differential.COUNTED[0]:,} positions identical on both engines "
          f"({took:.1f} s); reference counts flat over a million pushes and pops")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
