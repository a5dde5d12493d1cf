"""The differential test at benchmark size: the compiled cores against the pure engine.

    python benchmarks/engine_differential.py [--positions 100000] [--seed 45]

Plays random hands under every preset and player count and under option sets drawn from
every rule choice, on the pure ``pasur.Hand`` and the compiled core's ``Board`` side by
side (tests/pasur_differential.py: legal moves in order, positions, views, records,
outcomes, mid-hand copies, determinizations, pops back to the start, playouts the core ran
alone replayed on the pure engine), then on the pure ``Hand`` and the compiled one
(``play_twins``: the same, plus refused input, pickles and hands from positions), and
stops with the first difference.  The tests run
the same comparison on fewer positions; benchmarks/engine_sanitize.sh runs this under
AddressSanitizer.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=45)
    args = parser.parse_args(argv)
    try:
        from cardtable.pasur import _core
    except ImportError:
        print("no compiled Pasur core is built here: nothing to compare")
        return 1
    if not hasattr(_core, "Board"):
        print("the compiled Pasur core has no Board yet: nothing to compare")
        return 1
    from pasur_differential import positions_of, twins_of

    print(f"core: {_core.__file__}")
    for label, compare in (("Board", positions_of), ("Hand", twins_of)):
        started = time.perf_counter()
        positions, hands = compare(args.positions, args.seed)
        took = time.perf_counter() - started
        print(f"pasur ({label}): {positions:,} positions in {hands:,} hands, identical on "
              f"both engines ({took:.1f} s, seed {args.seed})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
