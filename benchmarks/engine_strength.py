"""Does a bot on the compiled Pasur core play as well as on the pure engine, at equal
iterations?  Duplicate deals: each deal is played twice with the seats swapped, the same
bot spec on both seats, one seat's searches on the core (its playouts, endgame search and
shuffle) and the other's on the pure engine; a pair's result is the core seat's points
minus the pure seat's, summed over the two hands.

    python benchmarks/engine_strength.py [--pairs 60] [--spec medium:iterations=300] [--first 0]

Prints the mean difference a hand and its 95% interval (normal, over pairs).

``--arena GAME`` does it through the arena, for either game, with the pure engine as a
user gets it: the same duplicate deals (``benchmarks/duel.py``: ``--spec`` against
``--opponent``) played in one process on the compiled core and in another with
``CARDTABLE_PURE=1``, one after the other; each deal's edge of the spec over the
opponent on the core less its edge on the pure engine, with its 95% interval (Student-t
over deals; Durak's edge a game is +1 when the opponent is the durak, -1 when the spec is).

    python benchmarks/engine_strength.py --arena durak --spec medium:iterations=200 \
        --opponent greedy --pairs 60 [--jobs 2]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=60)
    parser.add_argument("--spec", default="medium:iterations=300")
    parser.add_argument("--first", type=int, default=0, help="the first deal's seed")
    parser.add_argument("--arena", choices=("pasur", "durak"), help="through the arena, "
                        "the pure engine in a process of its own")
    parser.add_argument("--opponent", default="greedy")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--edges", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.edges:
        return _edges(args)
    if args.arena:
        return _through_arena(args)
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


def _edges(args: argparse.Namespace) -> dict:
    """(In a worker) each deal's edge of the spec over the opponent, on this engine."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from duel import duel

    import cardtable

    edges: dict[int, list[float]] = {}
    figures = duel(args.arena, args.spec, args.opponent, deals=args.pairs, jobs=args.jobs,
                   seed=args.first, edges=edges)
    out = {"engine": cardtable.ENGINE, "figures": figures,
           "edges": {str(deal): statistics.fmean(v) for deal, v in edges.items()}}
    print(json.dumps(out))
    return out


def _through_arena(args: argparse.Namespace) -> dict:
    from cardtable.arena.statistics import t_mean_ci

    runs = {}
    for pure in (False, True):
        env = {k: v for k, v in os.environ.items() if k != "CARDTABLE_PURE"}
        if pure:
            env["CARDTABLE_PURE"] = "1"
        done = subprocess.run([sys.executable, __file__, "--edges", "--arena", args.arena,
                               "--spec", args.spec, "--opponent", args.opponent,
                               "--pairs", str(args.pairs), "--first", str(args.first),
                               "--jobs", str(args.jobs)],
                              env=env, capture_output=True, text=True, check=True)
        runs[pure] = json.loads(done.stdout.strip().splitlines()[-1])
        print(f"{runs[pure]['engine']}: {json.dumps(runs[pure]['figures'])}", flush=True)
    if runs[False]["engine"] != "compiled":
        print("no compiled core here: nothing to compare")
        return {}
    core, pure_edges = runs[False]["edges"], runs[True]["edges"]
    diffs = [core[deal] - pure_edges[deal] for deal in core if deal in pure_edges]
    mean, ci = t_mean_ci(diffs)
    low, high = ci if ci is not None else (float("nan"), float("nan"))
    unit = "points a hand" if args.arena == "pasur" else "a game (+1 the opponent the durak)"
    print(f"{args.arena}, {args.spec} against {args.opponent}, {len(diffs)} duplicate deals: "
          f"edge on the core less edge on the pure engine {mean:+.3f} {unit}, "
          f"95% interval {low:+.3f} to {high:+.3f}")
    return {"mean": mean, "low": low, "high": high, "deals": len(diffs),
            "core": runs[False]["figures"], "pure": runs[True]["figures"]}


if __name__ == "__main__":
    main()
