"""Two bots head to head on duplicate deals: the first's edge, its 95% interval, the CPU.

Each deal is played twice, the seats swapped (the arena's duplicate plan), two-handed.
Pasur: single hands, the first bot's points a hand less the second's (Student-t over
deals).  Durak: whole games, each bot's durak rate (Wilson) and the margin between them
(Student-t over deals: +1 a game the second bot lost, -1 one the first lost).

    nice python benchmarks/duel.py pasur hard medium --deals 300 --jobs 2 [--seed 11]

Prints one JSON line with the figures, the CPU ms a move of each bot and the load.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def duel(game: str, first: str, second: str, *, deals: int, jobs: int = 1,
         seed: int = 11, edges: dict[int, list[float]] | None = None) -> dict:
    """The duel's figures; ``edges``, if given, gets each deal's edges of ``first``."""
    from cardtable import arena, games
    from cardtable.arena.statistics import t_mean_ci, wilson

    spec = games.get(game)
    load_before = os.getloadavg()[0]
    started = time.perf_counter()
    run = arena.run(game, [first, second], games=2 * deals, players=2, seed=seed,
                    jobs=jobs, hands=spec.single_hand is not None)
    per_deal: dict[int, list[float]] = {} if edges is None else edges
    cpu = {first: [0.0, 0], second: [0.0, 0]}
    losses = {first: 0, second: 0}
    for result in run.results:
        seat = result.lineup.index(first)
        for s, who in enumerate(result.lineup):
            cpu[who][0] += result.cpu[s]
            cpu[who][1] += result.seat_moves[s]
            if result.loser == s:
                losses[who] += 1
        if result.points is not None:
            edge = (result.points[seat] - result.points[1 - seat]) / result.hands
        else:
            edge = ((result.loser == 1 - seat) - (result.loser == seat)) * 1.0
        per_deal.setdefault(result.deal, []).append(edge)
    mean, ci = t_mean_ci([sum(v) / len(v) for v in per_deal.values()])
    n = len(run.results)
    out: dict = {"game": game, "first": first, "second": second, "deals": len(per_deal),
                 "games": n, "seed": seed, "edge": round(mean, 3),
                 "ci95": None if ci is None else [round(c, 3) for c in ci],
                 "cpu_ms_per_move": {who: round(1000 * s / max(m, 1), 2)
                                     for who, (s, m) in cpu.items()},
                 "wall_s": round(time.perf_counter() - started, 1),
                 "load": [round(load_before, 1), round(os.getloadavg()[0], 1)]}
    if spec.loser:
        out["durak_rate"] = {who: [round(k / n, 3), *(round(x, 3) for x in wilson(k, n))]
                             for who, k in losses.items()}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("first")
    parser.add_argument("second")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    print(json.dumps(duel(args.game, args.first, args.second, deals=args.deals,
                          jobs=args.jobs, seed=args.seed)), flush=True)


if __name__ == "__main__":
    main()
