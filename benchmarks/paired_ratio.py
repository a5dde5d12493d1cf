"""The ratio benchmarks/paired_load.sh measures: the servers' CPU a move of this tree over
the one before, each row's rounds paired (both trees ran at the same time, on swapped
cores), as a geometric mean with its standard error and every round's figures.

    python benchmarks/paired_ratio.py OUT_DIR

A round that failed (no file, an error, a lost move) is named and left out of the mean.
"""

from __future__ import annotations

import json
import math
import statistics
import sys
from pathlib import Path


def cpu_a_move(path: Path) -> tuple[float | None, str]:
    """The servers' CPU ms a counted move of one run, or None with why it does not count."""
    if not path.exists():
        return None, "no figures (see its .log)"
    result = json.loads(path.read_text())
    if result.get("errors") or result.get("lost"):
        return None, f"{result.get('errors')} errors, {result.get('lost')} lost moves"
    servers = float(result["cpu_ms_per_move"]["servers"])
    if servers <= 0:
        return None, "no server CPU counted (no move was played)"
    return servers, ""


def rows(out: Path) -> dict[str, list[tuple[int, float, float]]]:
    """Each row's rounds: (round, before's CPU a move, this tree's)."""
    found: dict[str, list[tuple[int, float, float]]] = {}
    for log in sorted(out.glob("*.before.*.log")):
        row, _, number = log.name.removesuffix(".log").split(".")
        before, why_b = cpu_a_move(out / f"{row}.before.{number}.json")
        after, why_a = cpu_a_move(out / f"{row}.main.{number}.json")
        if before is None or after is None:
            print(f"  {row} round {number} left out: {why_b or why_a}")
            continue
        found.setdefault(row, []).append((int(number), before, after))
    return found


def main(out: Path) -> None:
    print(f"servers' CPU a move, this tree / the one before ({out}):")
    print(f"{'row':<14} {'rounds':>6} {'ratio':>6} {'s.e.':>6}  {'range (2 s.e.)':<15} "
          "CPU a move before / after (ms)")
    for row, pairs in sorted(rows(out).items()):
        logs = [math.log(after / before) for _, before, after in pairs]
        mean = statistics.fmean(logs)
        error = statistics.stdev(logs) / math.sqrt(len(logs)) if len(logs) > 1 else math.nan
        befores = [b for _, b, _ in pairs]
        afters = [a for _, _, a in pairs]
        print(f"{row:<14} {len(pairs):>6} {math.exp(mean):>6.3f} {100 * error:>5.1f}%  "
              f"{math.exp(mean - 2 * error):.2f} to {math.exp(mean + 2 * error):.2f}    "
              f"{min(befores):.3f}-{max(befores):.3f} / {min(afters):.3f}-{max(afters):.3f}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(Path(sys.argv[1]))
