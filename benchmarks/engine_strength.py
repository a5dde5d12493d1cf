"""Does a bot on the compiled Pasur core play as well as on the pure engine, at equal
iterations?  Duplicate deals: each deal is played twice with the seats swapped, the same
bot spec on both seats, one seat's searches on the core (its playouts, endgame search and
shuffle) and the other's on the pure engine; a pair's result is the core seat's points
minus the pure seat's, summed over the two hands.

    python benchmarks/engine_strength.py [--pairs 60] [--spec medium:iterations=300] [--first 0]

Prints the mean difference a hand and its 95% interval (normal, over pairs).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=60)
    parser.add_argument("--spec", default="medium:iterations=300")
    parser.add_argument("--first", type=int, default=0, help="the first deal's seed")
    args = parser.parse_args(argv)
    from cardtable import bots, pasur
    from cardtable.bots import pasur_kit
    from cardtable.pasur import hand as hand_module

    core = pasur_kit._core()
    if core is None:
        print("no compiled Pasur core here: nothing to compare")
        return {}
    shuffle = hand_module._CORE

    def use(compiled: bool) -> None:
        pasur_kit._CORE[:] = [core if compiled else None]
        hand_module._CORE = shuffle if compiled else None

    diffs = []
    for deal in range(args.first, args.first + args.pairs):
        pair = 0.0
        for core_seat in (0, 1):
            hand = pasur.Hand.new(pasur.PRESETS["standard"], seed=deal)
            players = [bots.make(args.spec, seed=1000 * deal + seat) for seat in (0, 1)]
            while not hand.is_over():
                seat = hand.to_move
                use(seat == core_seat)
                hand.push(players[seat].choose(hand))
            points = hand.score()
            pair += points[core_seat] - points[1 - core_seat]
        diffs.append(pair / 2)
        print(f"deal {deal}: {pair / 2:+.1f}", flush=True)
    use(True)
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5
    print(f"{args.spec}, {args.pairs} duplicate pairs: core seat minus pure seat "
          f"{mean:+.2f} points a hand, 95% interval {mean - half:+.2f} to {mean + half:+.2f}")
    return {"mean": mean, "low": mean - half, "high": mean + half, "pairs": args.pairs}


if __name__ == "__main__":
    main()
