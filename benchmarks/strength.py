"""How strong the bots are: duplicate-dealt matchups with 95% intervals, and search speed.

Each matchup is an arena run (every deal played again with the seats rotated); the
figures go to the terminal and, one matchup at a time, to a JSON file, so a long run
that is stopped keeps what it measured.  The aims it checks are in docs/bots.md.

    python benchmarks/strength.py [--jobs 2] [--scale 1.0] [--only NAME ...] [--json FILE]
    python benchmarks/strength.py --list

``--scale`` multiplies every sample size (0.1 for a quick look).  Sizes were chosen for a
2-core machine; the intervals printed say how far each figure can be trusted.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cardtable import arena, bots, games
from cardtable.bots import durak_kit, pasur_kit  # noqa: F401  (loaded before forking)


@dataclass(frozen=True)
class Matchup:
    name: str
    game: str
    bots: tuple[str, ...]
    games: int
    aim: str
    players: int = 2
    hands: bool = False
    rules: str | None = None
    options: dict = field(default_factory=dict)


BEFORE = ("ismcts:iterations=8000,seconds=60,infer=1,paired=1,solver=1,solver_nodes=50000,"
          "solver_seconds=60,playout=plain")
"""The expert as it was before commit 1cfd1bf (4 s a move at most), time caps lifted."""

MATCHUPS = [
    Matchup("pasur-greedy-random", "pasur", ("greedy", "random"), 400, hands=True,
            aim="greedy beats random by 6 points per hand or more"),
    Matchup("durak-greedy-random", "durak", ("greedy", "random"), 400,
            aim="greedy is the durak in 20% of games or fewer"),
    Matchup("pasur-easy-beginner", "pasur", ("easy", "beginner"), 600, hands=True,
            aim="easy beats beginner"),
    Matchup("durak-easy-beginner", "durak", ("easy", "beginner"), 1000,
            aim="easy beats beginner"),
    Matchup("pasur-medium-greedy", "pasur", ("medium", "greedy"), 200, hands=True,
            aim="medium beats greedy by 2 points per hand or more"),
    Matchup("durak-medium-greedy", "durak", ("medium", "greedy"), 200,
            aim="medium is the durak in 20% of games or fewer"),
    Matchup("pasur-medium-greedy-matches", "pasur", ("medium", "greedy"), 80,
            aim="medium wins 60% of 62-point matches or more"),
    Matchup("durak3-medium-greedy", "durak", ("medium", "greedy", "greedy"), 150, players=3,
            aim="medium is the durak less often than any greedy seat"),
    Matchup("durak4-medium-greedy", "durak", ("medium", "greedy", "greedy", "greedy"), 120,
            players=4, aim="medium is the durak less often than any greedy seat"),
    # the levels' time caps lifted, so their iteration budgets decide whatever the load
    # Pasur's levels since 7 December 2026 (docs/bots.md, "The ladder's order in Pasur"):
    # gaps of about 0.8 points a hand against ~4.4 of spread a deal, shown in 400 deals
    # (800 hands, a few minutes of both cores on the compiled core)
    Matchup("pasur-hard-medium", "pasur", ("hard:seconds=60", "medium:seconds=60"), 800,
            hands=True, aim="hard beats medium"),
    Matchup("pasur-expert-hard", "pasur",
            ("expert:seconds=60,solver_seconds=60", "hard:seconds=60"), 800, hands=True,
            aim="expert beats hard"),
    Matchup("durak-hard-medium", "durak", ("hard:seconds=60", "medium:seconds=60"), 80,
            aim="hard beats medium"),
    Matchup("durak-expert-hard", "durak",
            ("expert:seconds=60,solver_seconds=60", "hard:seconds=60"), 60,
            aim="expert beats hard"),
    # the expert of commit 74c9918 (8000 iterations, up to 4 s a move; Durak's basic playouts)
    # against today's (3000, 2500 in Durak), time caps lifted: within the noise is the aim
    Matchup("pasur-expert-before", "pasur", ("expert:seconds=60,solver_seconds=60", BEFORE),
            400, hands=True, aim="expert within 0.2 points a hand of the expert before"),
    Matchup("durak-expert-before", "durak", ("expert:seconds=60,solver_seconds=60", BEFORE),
            200, aim="expert within 3 points of durak rate of the expert before"),
]


def iterations_per_second(game: str, *, decisions: int = 12, budget: int = 1000) -> dict:
    """ISMCTS iterations per second over the first decisions of a few deals (one process),
    and the same search with random playouts beside it."""
    spec = games.get(game)
    out = {}
    for playout in ("basic", "random"):
        total_iterations, total_seconds = 0, 0.0
        for seed in range(3):
            state = spec.start(spec.rules(), players=2, seed=seed)
            searcher = bots.make(f"ismcts:iterations={budget},playout={playout}", seed=seed)
            other = bots.make("greedy")
            made = 0
            rng = random.Random(seed)
            while not state.is_over() and made < decisions:
                if state.to_move == 0 and len(state.legal_moves()) > 1:
                    move = searcher.choose(state)
                    total_iterations += searcher.stats["iterations"]
                    total_seconds += searcher.stats["seconds"]
                    made += 1
                else:
                    move = other.choose(state) if rng.random() < 0.9 else state.legal_moves()[0]
                state.push(move)
        out[playout] = total_iterations / total_seconds
    return out


def level_speed(game: str, level: str, *, deals: int = 3, decisions: int = 8) -> dict:
    """How long a level's move takes: CPU seconds (``time.process_time``, which a loaded
    machine inflates far less than the wall clock) and iterations per CPU second, over the
    first ``decisions`` decisions with a choice of ``deals`` deals against greedy, its time
    cap lifted so that its iteration budget alone stops it.  The load average is reported
    beside it: on 2 shared cores it changes the figures by a third or more."""
    import os

    spec = games.get(game)
    cpu, iterations = [], 0
    loads = [os.getloadavg()[0]]
    for seed in range(deals):
        state = spec.start(spec.rules(), players=2, seed=seed)
        searcher = bots.make(level + ("," if ":" in level else ":") + "seconds=600", seed=seed)
        other = bots.make("greedy")
        made = 0
        while not state.is_over() and made < decisions:
            if state.to_move == 0 and len(state.legal_moves()) > 1:
                started = time.process_time()
                move = searcher.choose(state)
                cpu.append(time.process_time() - started)
                iterations += searcher.stats.get("iterations", 0)
                made += 1
            else:
                move = other.choose(state)
            state.push(move)
        loads.append(os.getloadavg()[0])
    cpu.sort()
    return {"game": game, "level": level, "moves": len(cpu),
            "median_cpu_seconds": cpu[len(cpu) // 2], "p90_cpu_seconds": cpu[9 * len(cpu) // 10],
            "iterations_per_cpu_second": iterations / sum(cpu),
            "load_average": [min(loads), max(loads)]}


def endgame_regret(game: str, *, positions: int, seed: int, searcher: str = "hard") -> dict:
    """How much the sampling search gives away where the expert solves exactly.

    Positions come from greedy self-play, taken at the first decision where nothing is
    hidden (Pasur: the last deal of a 2-player hand; Durak: the stock empty, two players
    holding cards).  Each legal move is valued exactly (the solver on the position after
    it); the regret of ``searcher`` is the best value minus the value of its move.  Values
    are the search's own rewards (Pasur: the shaped points difference over 20; Durak: +1
    not the durak, -1 the durak, 0 a draw).  Positions the solver cannot finish within
    its budget are left out and counted.
    """
    from cardtable.bots.ismcts import kit_of
    from cardtable.bots.solver import OutOfBudget

    spec = games.get(game)
    rng = random.Random(seed)
    regrets, lost, skipped, tried = [], 0, 0, 0
    started = time.perf_counter()
    while len(regrets) < positions and tried < positions * 20:
        tried += 1
        state = spec.start(spec.rules(), players=2, seed=rng.getrandbits(63))
        players = [bots.make("greedy"), bots.make("greedy")]
        kit = kit_of(state)
        while not state.is_over():
            seat = state.to_move
            if len(state.legal_moves()) > 1 and kit.perfect(state, seat):
                break
            state.push(players[seat].choose(state))
        if state.is_over():
            continue
        seat = state.to_move
        position = kit.sampler(state, seat)(rng)
        context = kit.context(state, seat)
        solver = _exact(kit, position, seat, context)
        values = {}
        try:
            for move in position.legal_moves():
                position.push(move)
                values[move] = (solver.solve(position)[0] if not position.is_over()
                                else kit.rewards(position, context)[seat])
                position.pop()
        except OutOfBudget:
            skipped += 1
            continue
        choice = bots.make(searcher, seed=len(regrets)).choose(state)
        regret = max(values.values()) - values[choice]
        regrets.append(regret)
        lost += regret > 1e-9
    mean, ci = arena.mean_ci(regrets)
    return {"game": game, "searcher": searcher, "positions": len(regrets),
            "skipped_over_budget": skipped, "mean_regret": mean, "mean_regret_ci95": list(ci),
            "worse_than_exact": lost, "worse_rate": lost / max(1, len(regrets)),
            "worse_rate_ci95": list(arena.wilson(lost, len(regrets))),
            "seconds": time.perf_counter() - started}


def _exact(kit, position, seat: int, context):
    """A solver valuing positions for ``seat`` (the other side minimises)."""
    from cardtable.bots.solver import Solver

    side = kit.side_of(position, seat)
    return Solver(kit, lambda final: kit.rewards(final, context)[seat],
                  lambda s: kit.side_of(position, s) == side, max_nodes=200_000)


ENDGAMES = {"pasur-endgame": ("pasur", 120), "durak-endgame": ("durak", 80)}


def run_matchup(m: Matchup, *, jobs: int, scale: float, seed: int) -> dict:
    count = max(m.players, math.ceil(m.games * scale))
    started = time.perf_counter()
    done = [0]

    def tick(_: arena.GameResult) -> None:
        done[0] += 1
        if done[0] % max(1, count // 10) == 0:
            print(f"  {m.name}: {done[0]}/{count} in {time.perf_counter() - started:.0f} s",
                  flush=True)

    result = arena.run(m.game, list(m.bots), games=count, rules=m.rules, players=m.players,
                       jobs=jobs, seed=seed, hands=m.hands, on_result=tick)
    data = result.to_json()
    data.update({"name": m.name, "aim": m.aim, "seconds": time.perf_counter() - started,
                 "unfinished": sum(1 for r in result.results if not r.finished)})
    return data


def describe(data: dict) -> str:
    lines = [f"{data['name']}: {data['games']} {data['unit']}s in {data['deals']} deals "
             f"({data['seconds']:.0f} s) - aim: {data['aim']}"]
    for bot, f in data["results"].items():
        parts = [f"  {bot:>10}: wins {f['wins']}/{f['games']} = {f['win_rate']:.1%} "
                 f"[{f['ci95'][0]:.1%}, {f['ci95'][1]:.1%}]"]
        if f["mean_points"] is not None:
            ci = f["mean_points_ci95"]
            parts.append(f"points/hand {f['mean_points']:.2f}"
                         + (f" [{ci[0]:.2f}, {ci[1]:.2f}]" if ci else ""))
        if f["durak_rate"] is not None:
            parts.append(f"durak {f['durak_rate']:.1%} "
                         f"[{f['durak_ci95'][0]:.1%}, {f['durak_ci95'][1]:.1%}]")
        lines.append(", ".join(parts))
    m = data.get("margin")
    if m and m["ci95"]:
        lines.append(f"  margin ({m['measure']}): {m['mean']:+.3f} "
                     f"[{m['ci95'][0]:+.3f}, {m['ci95'][1]:+.3f}] over {m['deals']} deals")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--only", nargs="*",
                        help="matchup names (see --list), 'speed' or 'levels'")
    parser.add_argument("--json", type=Path, default=Path("strength.json"))
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args()
    if args.list:
        for m in MATCHUPS:
            print(f"{m.name:30} {m.games:5} {'hands' if m.hands else 'games'}  {m.aim}")
        for name, (_, count) in ENDGAMES.items():
            print(f"{name:30} {count:5} positions  hard's regret against exact play")
        return
    chosen = args.only or ["speed", *[m.name for m in MATCHUPS], *ENDGAMES]
    report = json.loads(args.json.read_text()) if args.json.exists() else {}
    if "levels" in chosen:
        report["levels"] = [level_speed(g, level) for g in ("pasur", "durak")
                            for level in ("medium", "hard", "expert")]
        for row in report["levels"]:
            print(f"{row['game']:6} {row['level']:7} median {row['median_cpu_seconds']:.3f} s, "
                  f"90% {row['p90_cpu_seconds']:.3f} s CPU a move, "
                  f"{row['iterations_per_cpu_second']:.0f} iterations a CPU second "
                  f"(load {row['load_average'][0]:.1f} to {row['load_average'][1]:.1f})",
                  flush=True)
        args.json.write_text(json.dumps(report, indent=1))
    if "speed" in chosen:
        report["iterations_per_second"] = {g: iterations_per_second(g) for g in ("pasur",
                                                                                 "durak")}
        print("ISMCTS iterations per second (one process):",
              json.dumps(report["iterations_per_second"]), flush=True)
        args.json.write_text(json.dumps(report, indent=1))
    for m in MATCHUPS:
        if m.name not in chosen:
            continue
        data = run_matchup(m, jobs=args.jobs, scale=args.scale, seed=args.seed)
        report.setdefault("matchups", {})[m.name] = data
        args.json.write_text(json.dumps(report, indent=1))
        print(describe(data), flush=True)
    for name, (game, count) in ENDGAMES.items():
        if name not in chosen:
            continue
        data = endgame_regret(game, positions=max(2, math.ceil(count * args.scale)),
                              seed=args.seed)
        report.setdefault("endgames", {})[name] = data
        args.json.write_text(json.dumps(report, indent=1))
        print(f"{name}: hard against the exact solution in {data['positions']} positions "
              f"({data['skipped_over_budget']} left out, over budget): mean regret "
              f"{data['mean_regret']:.3f} {[round(x, 3) for x in data['mean_regret_ci95']]}, "
              f"worse than exact in {data['worse_rate']:.1%} "
              f"{[round(x, 3) for x in data['worse_rate_ci95']]}", flush=True)


if __name__ == "__main__":
    main()
