"""ISMCTS iterations per CPU second of the levels, on the compiled core and on the pure
engine (``CARDTABLE_PURE=1``), in one run with the same positions and the same seeds.

Each round starts one worker process per engine, the pure one with ``CARDTABLE_PURE=1``
in its environment (so ``import cardtable`` gives the pure engine, as a user gets it),
one after the other.  A worker asks each level, made with a fixed seed, for its move in
the same positions of both games (dealt from fixed seeds, a few moves of random play in,
where the search samples rather than solves), at the level's own budget, and reports
the iterations made, its CPU seconds (``time.process_time``) and the moves chosen.  It
then asks a second bot made with the same seed in the same positions: the moves must be
the same (a bot is reproducible from its seed on either engine).  The figures are the
median of the rounds' ratios, with every round's ratio beside it, and the load.

    nice python benchmarks/search_speed.py [--rounds 3] [--positions 6] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

LEVELS = ("medium", "expert")
GAMES = ("pasur", "durak")


def positions(game: str, count: int) -> list:
    """The same positions on either engine: a deal, then a few random moves (fixed seeds)."""
    from cardtable import games

    spec = games.get(game)
    out = []
    for seed in range(count):
        state = spec.start(spec.presets[spec.default_preset], players=2, seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(8)):
            if state.is_over():
                break
            state.push(rng.choice(state.legal_moves()))
        if not state.is_over() and len(state.legal_moves()) > 1:
            out.append(state)
    return out


def worker(count: int) -> dict:
    import cardtable
    from cardtable import bots

    out: dict = {"engine": cardtable.ENGINE}
    for game in GAMES:
        states = positions(game, count)
        for level in LEVELS:
            iterations, spent, moves, again = 0, 0.0, [], []
            for index, state in enumerate(states):
                bot = bots.make(level, seed=100 + index)
                start = time.process_time()
                move = bot.choose(state)
                spent += time.process_time() - start
                iterations += bot.stats.get("iterations", 0)
                moves.append(str(move))
                again.append(str(bots.make(level, seed=100 + index).choose(state)))
            out[f"{game} {level}"] = {"iterations": iterations, "seconds": round(spent, 4),
                                      "per_s": iterations / spent if spent else 0.0,
                                      "moves": moves, "reproducible": moves == again}
    return out


def run_worker(pure: bool, count: int) -> dict:
    env = dict(os.environ)
    env.pop("CARDTABLE_PURE", None)
    if pure:
        env["CARDTABLE_PURE"] = "1"
    done = subprocess.run([sys.executable, __file__, "--worker", "--positions", str(count)],
                          env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--positions", type=int, default=6, help="positions a game")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(worker(args.positions)))
        return {}
    loads = [os.getloadavg()[0]]
    rounds = []
    for _ in range(args.rounds):
        compiled, pure = run_worker(False, args.positions), run_worker(True, args.positions)
        if compiled["engine"] != "compiled" or pure["engine"] != "pure":
            print(f"engines {compiled['engine']} and {pure['engine']}: the compiled core "
                  "is not built here, nothing to compare")
            return {}
        rounds.append((compiled, pure))
        loads.append(os.getloadavg()[0])
    out: dict = {"load": [round(min(loads), 1), round(max(loads), 1)], "rows": {}}
    print(f"load average {min(loads):.1f} to {max(loads):.1f}; {args.rounds} rounds, "
          f"{args.positions} positions a game, each level at its own budget")
    print("| game, level | compiled it/CPU s | pure it/CPU s | ratio (median) | per round "
          "| same moves from a seed |")
    print("|---|---:|---:|---:|---|---|")
    for key in rounds[0][0]:
        if key == "engine":
            continue
        ratios = sorted(c[key]["per_s"] / p[key]["per_s"] for c, p in rounds)
        core = statistics.median(c[key]["per_s"] for c, _ in rounds)
        pure = statistics.median(p[key]["per_s"] for _, p in rounds)
        same = all(c[key]["reproducible"] and p[key]["reproducible"] for c, p in rounds)
        steady = all(c[key]["moves"] == rounds[0][0][key]["moves"] for c, _ in rounds)
        row = {"compiled_per_s": round(core), "pure_per_s": round(pure),
               "ratio": round(statistics.median(ratios), 2),
               "rounds": [round(r, 2) for r in ratios], "reproducible": same and steady}
        out["rows"][key] = row
        print(f"| {key} | {row['compiled_per_s']:,} | {row['pure_per_s']:,} | "
              f"**{row['ratio']:.2f}x** | {' '.join(f'{r:.2f}' for r in row['rounds'])} | "
              f"{'yes' if row['reproducible'] else 'NO'} |")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1) + "\n")
    return out


if __name__ == "__main__":
    main()
