"""Does the analysis say only what it knows, and how long does it take?

``make`` plays the recorded games the figures are measured on (``tests/data/analysis``:
ten Pasur matches and ten Durak games, 2 to 4 players, a mix of bot levels, each seeded,
so the same command plays the same games: the same decks and moves, only the records'
dates differ).  The default run analyses every recorded game
twice, with the seeds 0 and 1 (the default budget unless ``--iterations``), and prints per
game the CPU seconds of each analysis (this process's), the judged moves (forced ones left
out), how many labels each run gave and how many the two runs agree on (the same label,
or none in both), the labelled moves whose loss's interval does not clear the label's
threshold (0: no move is labelled within the judge's own uncertainty), and a summary per
game (agreement over all judged moves, the median and the largest CPU seconds).
``--web`` times the server's way instead: one job per move in the bot processes'
niced background worker (``cardtable.server.play.bot_workers``), wall-clock seconds from
the first job to the last, then the puzzles' job.

    python benchmarks/analysis_stability.py make
    nice -n 10 python benchmarks/analysis_stability.py [--only durak] [--iterations N]
    nice -n 10 python benchmarks/analysis_stability.py --web [--only durak] [--games 2]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cardtable import analysis, bots, games, records

GAMES = Path(__file__).resolve().parents[1] / "tests" / "data" / "analysis"

LEVELS = ["beginner", "easy", "ismcts:iterations=150,depth=1",
          "ismcts:iterations=300,depth=1,solver=1,solver_nodes=20000"]
"""The bots of the recorded games, by seat in turn: the basic and greedy players and two
flat searches (seeded, with no time cap, so a game is the same on every machine)."""

PLAN = {"pasur": [("standard", 2)] * 5 + [("wikipedia", 3)] * 3 + [("wikipedia", 4)] * 2,
        "durak": [("transfer", 2)] * 4 + [("transfer", 3)] * 3 + [("transfer", 4)] * 3}
"""Each game's ten records: (preset, players)."""


def make() -> None:
    """Play and save the recorded games (the same games every time)."""
    GAMES.mkdir(parents=True, exist_ok=True)
    for game, plan in PLAN.items():
        spec = games.get(game)
        for number, (preset, players) in enumerate(plan, 1):
            seed = 100 * number + players
            state = spec.start(spec.presets[preset], players=players, seed=seed)
            levels = [LEVELS[(number + seat) % len(LEVELS)] for seat in range(players)]
            seated = [bots.make(level, seed=seed * 7 + seat) for seat, level in enumerate(levels)]
            moves = []
            while not state.is_over():
                move = seated[state.to_move].choose(state)
                moves.append(str(move))
                state.push(move)
            # the finished game's record: every hand's deck, every move
            record = records.record_of(state, game, seats=[
                {"name": f"{level.split(':')[0]} {seat + 1}", "kind": "bot", "level": level}
                for seat, level in enumerate(levels)])
            assert record.moves == moves
            path = GAMES / f"{game}-{number:02d}.json"
            record.save(path)
            print(json.dumps({"file": path.name, "players": players, "moves": len(moves),
                              "levels": levels}), flush=True)


def recorded(only: str | None, count: int | None) -> list[Path]:
    paths = sorted(GAMES.glob("*.json"))
    if only:
        paths = [p for p in paths if p.name.startswith(f"{only}-")]
    if count:
        paths = [p for name in games.names()
                 for p in [q for q in paths if q.name.startswith(f"{name}-")][:count]]
    return paths


def stability(paths: list[Path], iterations: int) -> None:
    judged_of: dict[str, int] = {}
    agree_of: dict[str, int] = {}
    cpu_of: dict[str, list[float]] = {}
    for path in paths:
        record = records.load(path)
        learn = analysis.learn_of(record.game)
        runs, seconds = [], []
        for run_seed in (0, 1):
            began = time.process_time()
            runs.append(analysis.analyse_record(record, iterations=iterations, seed=run_seed))
            seconds.append(time.process_time() - began)
        pairs = [(a, b) for a, b in zip(*runs, strict=True) if a.choices > 1]
        agree = sum(a.label == b.label for a, b in pairs)
        unsure_labels = sum(
            1 for run in runs for j in run
            if j.label and (j.loss_low or 0.0) < learn.thresholds[analysis.LABELS.index(
                j.label)] - 1e-9)
        print(json.dumps({
            "file": path.name, "players": record.players, "moves": len(record.moves),
            "judged": len(pairs), "cpu_seconds": [round(s, 1) for s in seconds],
            "labels": [sum(a.label is not None for a, _ in pairs),
                       sum(b.label is not None for _, b in pairs)],
            "unsure": [sum(a.unsure is not None for a, _ in pairs),
                       sum(b.unsure is not None for _, b in pairs)],
            "agree": agree, "agreement": round(agree / max(len(pairs), 1), 3),
            "labelled_within_uncertainty": unsure_labels,
            "with_hindsight": sum(a.hindsight_loss is not None for a, _ in pairs)}),
            flush=True)
        judged_of[record.game] = judged_of.get(record.game, 0) + len(pairs)
        agree_of[record.game] = agree_of.get(record.game, 0) + agree
        cpu_of.setdefault(record.game, []).extend(seconds)
    for game, cpu in cpu_of.items():
        judged, agree = judged_of[game], agree_of[game]
        print(json.dumps({"game": game, "judged": judged, "agree": agree,
                          "agreement": round(agree / max(judged, 1), 3),
                          "cpu_median": round(statistics.median(cpu), 1),
                          "cpu_max": round(max(cpu), 1)}), flush=True)


def web(paths: list[Path], iterations: int | None) -> None:
    """The server's analysis: a job per move in the niced background worker, timed."""
    import asyncio

    from cardtable.server.play import analyses as learn_api
    from cardtable.server.play.bot_workers import BotWorkers, PuzzleJob

    async def run(path: Path) -> dict[str, object]:
        text = path.read_text(encoding="utf-8")
        kept = learn_api.Analyses(Path("/nonexistent"), lambda: None,  # type: ignore[arg-type, return-value]
                                  iterations=iterations or learn_api.ANALYSIS_ITERATIONS)
        workers = BotWorkers(1)
        try:
            record, jobs = kept._jobs(text)
            await workers.background(jobs[0], learn_api.ANALYSIS_MOVE_LIMIT)   # warm up
            began = time.perf_counter()
            for job in jobs:
                await workers.background(job, learn_api.ANALYSIS_MOVE_LIMIT)
            judged = time.perf_counter() - began
            await workers.background(PuzzleJob(text, learn_api.ANALYSIS_NODES),
                                     learn_api.ANALYSIS_MOVE_LIMIT)
            puzzles = time.perf_counter() - began - judged
        finally:
            workers.close()
            kept.close()
        return {"file": path.name, "moves": len(record.moves),
                "wall_seconds": round(judged, 1), "puzzles_wall_seconds": round(puzzles, 1)}

    for path in paths:
        print(json.dumps(asyncio.run(run(path))), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("what", nargs="?", default="measure", choices=["measure", "make"])
    parser.add_argument("--iterations", type=int, default=None)
    parser.add_argument("--only", default=None, help="one game: pasur or durak")
    parser.add_argument("--games", type=int, default=None, help="the first N of each game")
    parser.add_argument("--web", action="store_true", help="time the server's way")
    args = parser.parse_args()
    if args.what == "make":
        make()
        return
    paths = recorded(args.only, args.games)
    if args.web:
        web(paths, args.iterations)
    else:
        stability(paths, args.iterations or analysis.DEFAULT_ITERATIONS)


if __name__ == "__main__":
    main()
