"""A cardtable level against OpenSpiel's Python ISMCTS, given the same CPU time a move.

OpenSpiel's bot (``openspiel-ismcts``, ``cardtable.adapters.openspiel``) takes a number of
simulations, not seconds; give it the count that makes its CPU time a move about that of
the level, and this script reports both bots' CPU seconds a move (``time.process_time``,
measured around every ``choose``) beside the result, so the match-up can be checked.
Duplicate deals: every deal is played twice with the seats swapped.

    python benchmarks/versus_openspiel.py durak --deals 15 --level medium --simulations 30
    python benchmarks/versus_openspiel.py pasur --deals 15 --level medium --simulations 25

Durak: each side's durak rate and the duplicate margin (OpenSpiel's durak rate minus the
level's); Pasur: single hands, the level's points a hand minus OpenSpiel's.  Intervals
are 95% over deals (normal), Wilson for rates.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cardtable.adapters.openspiel  # noqa: F401  (registers openspiel-ismcts)
from cardtable import arena, bots, games


def play(game: str, specs: list[str], seed: int, cpu: dict[str, list[float]]) -> tuple:
    """One game (a single hand in Pasur) with ``specs`` seated in order: its measure."""
    spec = games.get(game)
    single = spec.single_hand if game == "pasur" else None
    rules = spec.rules()
    state = (single.start(rules, players=2, seed=seed) if single is not None
             else spec.start(rules, players=2, seed=seed))
    players = [bots.make(s, seed=seed * 2 + k) for k, s in enumerate(specs)]
    moves = 0
    while not state.is_over() and moves < 20_000:
        seat = state.to_move
        several = len(state.legal_moves()) > 1
        started = time.process_time()
        move = players[seat].choose(state)
        if several:
            cpu[specs[seat]].append(time.process_time() - started)
        state.push(move)
        moves += 1
    measure = single.measure if single is not None else spec.measure
    return measure(state) if state.outcome() is not None else (None, 1, None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=["pasur", "durak"])
    parser.add_argument("--deals", type=int, default=15)
    parser.add_argument("--level", default="medium")
    parser.add_argument("--simulations", type=int, default=30)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    mine, theirs = args.level, f"openspiel-ismcts:simulations={args.simulations}"
    cpu: dict[str, list[float]] = {mine: [], theirs: []}
    margins, durak = [], {mine: 0, theirs: 0}
    started = time.perf_counter()
    for deal in range(args.deals):
        seed = args.seed * 1000 + deal
        margin = 0.0
        for lineup in ([mine, theirs], [theirs, mine]):
            points, _, loser = play(args.game, lineup, seed, cpu)
            if args.game == "pasur":
                me = lineup.index(mine)
                margin += (points[me] - points[1 - me]) / 2
            else:
                if loser is not None:
                    durak[lineup[loser]] += 1
                    margin += (1 if lineup[loser] == theirs else -1) / 2
        margins.append(margin)
        print(f"deal {deal + 1}/{args.deals}: margin {margin:+.2f} "
              f"({time.perf_counter() - started:.0f} s)", flush=True)
    mean, ci = arena.mean_ci(margins)
    games_played = 2 * args.deals
    report = {"game": args.game, "level": mine, "openspiel": theirs, "deals": args.deals,
              "seed": args.seed, "margin": mean, "margin_ci95": list(ci),
              "cpu_seconds_a_move": {b: sum(t) / len(t) for b, t in cpu.items()},
              "median_cpu_seconds_a_move": {b: sorted(t)[len(t) // 2] for b, t in cpu.items()}}
    if args.game == "durak":
        report["durak_rate"] = {b: (n / games_played, arena.wilson(n, games_played))
                                for b, n in durak.items()}
    print(json.dumps(report, indent=1))
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
