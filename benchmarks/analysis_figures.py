"""How long a whole game takes to analyse, and how often two seeds agree on a label.

Plays whole games between two bots (a Pasur match and a Durak game, 2 players), analyses
every move twice with different seeds (the default search budget unless ``--iterations``),
and prints the CPU seconds of each analysis and, over the judged moves (forced moves left
out), the share whose label (none, inaccuracy, mistake, blunder) the two runs agree on,
and of the moves either run labelled, how many both labelled alike.

    nice -n 10 python benchmarks/analysis_figures.py [--games 2] [--iterations 1500]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cardtable import analysis, bots, games


def play(game: str, seed: int) -> tuple[object, list[str]]:
    spec = games.get(game)
    state = spec.start(spec.presets[spec.default_preset], players=2, seed=seed)
    start = state.copy()
    players = [bots.make("greedy"), bots.make("medium:iterations=300", seed=seed)]
    moves = []
    while not state.is_over():
        move = players[state.to_move].choose(state)
        moves.append(str(move))
        state.push(move)
    return start, moves


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--iterations", type=int, default=analysis.DEFAULT_ITERATIONS)
    parser.add_argument("--only", default=None)
    args = parser.parse_args()
    for game in [args.only] if args.only else games.names():
        agree = judged = 0
        for seed in range(1, args.games + 1):
            start, moves = play(game, seed)
            runs, seconds = [], []
            for run_seed in (0, 1):
                t = time.process_time()
                runs.append(analysis.analyse(start, moves, iterations=args.iterations,
                                             seed=run_seed))
                seconds.append(time.process_time() - t)
            pairs = [(a, b) for a, b in zip(*runs, strict=True) if a.choices > 1]
            judged += len(pairs)
            agree += sum(a.label == b.label for a, b in pairs)
            hindsight = sum(a.hindsight_loss is not None for a, _ in pairs)
            print(json.dumps({"game": game, "seed": seed, "moves": len(moves),
                              "judged": len(pairs), "with_hindsight": hindsight,
                              "cpu_seconds": [round(s, 1) for s in seconds],
                              "labels": [sum(a.label is not None for a, _ in pairs),
                                         sum(b.label is not None for _, b in pairs)],
                              "agree": sum(a.label == b.label for a, b in pairs),
                              "labelled_by_either": sum(1 for a, b in pairs
                                                        if a.label or b.label),
                              "labelled_alike": sum(1 for a, b in pairs
                                                    if a.label and a.label == b.label)}),
                  flush=True)
        print(json.dumps({"game": game, "judged": judged, "agree": agree,
                          "agreement": round(agree / max(judged, 1), 3)}), flush=True)


if __name__ == "__main__":
    main()
