"""A reference judge, and how far the default judge is from it.

``build`` picks positions from the recorded games (``tests/data/analysis``: the basic and
greedy players and two flat searches, 2 to 4 players; ``tests/data/judge``: ``random``
against ``hard``, and ``hard`` with deliberate random slips), every ``--every``-th judged
move of every record, and judges the move played there with ``DEEP`` times the default
budget, at least ``LEAST`` deals in each of its steps, and a seed of its own (the exact
solver's values where nothing is hidden from the player), and stores the verdicts in
``tests/data/judge_reference.json``.  ``measure``
judges the same moves with the default budget (seeds 0 and 1) and reports, per game and
in all: the precision and the recall of "mistake or worse" against the reference, the mean
absolute error of the loss, and the share of moves ``unsure``; and per game and level of
the player who moved, the mean of the default loss less the reference's (its bias, with
two standard errors): a best move's value inflated by its choice (the winner's curse)
would charge the strong players' moves a loss the reference does not.

The reference is the same judge with a far larger budget: it measures the default judge's
statistical error (deals too few, a best chosen wrongly), not the error of its playout
policy or its evaluation, which the two share.

    nice -n 5 python benchmarks/judge_reference.py build [--every 5]
    nice -n 5 python benchmarks/judge_reference.py measure
    nice -n 5 python benchmarks/judge_reference.py horizons [--every 10] [--game pasur]

``horizons`` measures what the reference cannot: the playouts cut at a round's end and
valued by the evaluation (Durak's, or ``--game pasur``'s count of what is taken), against
playouts to the game's (the Pasur hand's) end.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cardtable import analysis, records

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
SETS = (DATA / "analysis", DATA / "judge")
OUT = DATA / "judge_reference.json"
DEEP = 30
"""The reference's budget, in default budgets."""
LEAST = 256
"""Deals the reference plays in each step at least (choosing the best, and measuring the
move played against it) before it may stop for being sure: the default judge stops at 8."""
SEED = 9001
"""The reference's seed: deals of its own, not the default judge's."""
END = 20
"""The budget of ``horizons``' judge with playouts to the game's end, in default budgets."""
END_CUT: dict[str, int | None] = {"durak": None, "pasur": 99}
"""The horizon that plays a game to its end (a Pasur hand has 6 deal rounds at most; a Pasur
horizon of ``None`` is the kit's default, 1)."""


def positions(every: int) -> list[tuple[str, Any, int, str, Any]]:
    """(record's path, the record, the move's index, the move, the state before it), every
    ``every``-th move with a choice of each record."""
    found = []
    for folder in SETS:
        for path in sorted(folder.glob("*.json")):
            record = records.load(path)
            learn = analysis.learn_of(record.game)
            state = record.start()
            judged = 0
            for index, move in enumerate(record.moves, 1):
                if len(learn.searched(state).legal_moves()) > 1:
                    judged += 1
                    if judged % every == 0:
                        found.append((f"{folder.name}/{path.name}", record, index, move,
                                      state.copy()))
                state.push(move)
    return found


def build(every: int) -> None:
    budget = DEEP * analysis.DEFAULT_ITERATIONS
    out = []
    began = time.process_time()
    for name, record, index, move, state in positions(every):
        judged = analysis.judge(state, state.parse_move(move), index, iterations=budget,
                                seed=SEED, hindsight=False, least=LEAST)
        out.append({"record": name, "game": record.game, "index": index, "move": judged.move,
                    "best": judged.best, "loss": judged.loss, "loss_low": judged.loss_low,
                    "loss_high": judged.loss_high, "label": judged.label,
                    "unsure": judged.unsure, "deals": judged.deals,
                    "exact": judged.uncertainty == 0.0 and not judged.deals})
        print(json.dumps(out[-1], ensure_ascii=False), flush=True)
    OUT.write_text(json.dumps({
        "budget": budget, "least": LEAST, "seed": SEED, "every": every,
        "cpu_seconds": round(time.process_time() - began, 1),
        "command": f"python benchmarks/judge_reference.py build --every {every}",
        "verdicts": out}, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")


def _mistake(label: str | None) -> bool:
    return label in ("mistake", "blunder")


def measure() -> None:
    stored = json.loads(OUT.read_text(encoding="utf-8"))
    verdicts = stored["verdicts"]
    by_record: dict[str, Any] = {}
    rows: dict[str, list[dict[str, Any]]] = {}
    began = time.process_time()
    for ref in verdicts:
        record = by_record.get(ref["record"])
        if record is None:
            record = by_record[ref["record"]] = records.load(DATA / ref["record"])
        state = record.start()
        for move in record.moves[:ref["index"] - 1]:
            state.push(move)
        for seed in (0, 1):
            judged = analysis.judge(state, state.parse_move(ref["move"]), ref["index"],
                                    seed=seed, hindsight=False)
            level = str(record.seats[state.to_move].get("level", "")).split(":")[0]
            rows.setdefault(ref["game"], []).append({"ref": ref, "judged": judged,
                                                     "level": level})
    cpu = time.process_time() - began
    every = [row for game in rows.values() for row in game]
    for game, found in [*rows.items(), ("all", every)]:
        print(json.dumps({"game": game, **_figures(found)}), flush=True)
    for game, found in rows.items():   # a winner's curse would show as a bias by level
        for level in sorted({r["level"] for r in found}):
            diffs = [r["judged"].loss - r["ref"]["loss"] for r in found if r["level"] == level]
            mean = sum(diffs) / len(diffs)
            spread = (sum((d - mean) ** 2 for d in diffs) / max(len(diffs) - 1, 1)) ** 0.5
            print(json.dumps({"game": game, "level": level, "judgements": len(diffs),
                              "bias": round(mean, 4),
                              "bias_2se": round(2 * spread / len(diffs) ** 0.5, 4)}),
                  flush=True)
    print(json.dumps({"positions": len(verdicts), "default_cpu_seconds": round(cpu, 1)}))


def _figures(rows: list[dict[str, Any]]) -> dict[str, Any]:
    hits = sum(_mistake(r["ref"]["label"]) and _mistake(r["judged"].label) for r in rows)
    said = sum(_mistake(r["judged"].label) for r in rows)
    truth = sum(_mistake(r["ref"]["label"]) for r in rows)
    error = sum(abs(r["judged"].loss - r["ref"]["loss"]) for r in rows) / max(len(rows), 1)
    return {"judgements": len(rows), "mistake_or_worse_reference": truth,
            "mistake_or_worse_default": said,
            "precision": round(hits / said, 3) if said else None,
            "recall": round(hits / truth, 3) if truth else None,
            "mean_absolute_error": round(error, 4),
            "unsure_share": round(sum(r["judged"].unsure is not None for r in rows)
                                  / max(len(rows), 1), 3),
            "same_best": round(sum(r["judged"].best == r["ref"]["best"] for r in rows)
                               / max(len(rows), 1), 3)}


def horizons(every: int, game: str = "durak") -> None:
    """The playout's cut against playouts to the game's end: ``game``'s positions (every
    ``every``-th judged move, as ``build`` picks them) judged with playouts to the end
    (``END`` budgets, at least ``LEAST`` deals, the reference's seed), and with the cut at
    the end of the round being played (horizon 0) and of the next (1) at the default
    budget (seed 0); per cut, the mean absolute difference of the loss from the end's, its
    mean (the cut's bias), the moves labelled mistake or worse by each, and how often the
    best move is the same.  It measures what the evaluation at the cut gets wrong, which
    ``measure`` (the same judge with more deals) cannot."""
    learn = analysis.learn_of(game)
    kept = learn.horizon
    rows: list[dict[str, Any]] = []
    try:
        for name, record, index, move, state in positions(every):
            if record.game != game:
                continue
            row: dict[str, Any] = {"record": name, "index": index, "move": str(move)}
            for cut, budget, least, seed in ((END_CUT[game], END * analysis.DEFAULT_ITERATIONS,
                                              LEAST, SEED), (0, analysis.DEFAULT_ITERATIONS, 0, 0),
                                             (1, analysis.DEFAULT_ITERATIONS, 0, 0)):
                learn.horizon = cut
                began = time.process_time()
                judged = analysis.judge(state, state.parse_move(move), index, iterations=budget,
                                        seed=seed, hindsight=False, least=least)
                row["end" if cut == END_CUT[game] else f"cut {cut}"] = {
                    "best": judged.best, "loss": judged.loss, "label": judged.label,
                    "cpu": round(time.process_time() - began, 2)}
            rows.append(row)
            print(json.dumps(row, ensure_ascii=False), flush=True)
    finally:
        learn.horizon = kept
    for cut in ("cut 0", "cut 1"):
        n = max(len(rows), 1)
        print(json.dumps({
            "cut": cut, "positions": len(rows),
            "mean_absolute_difference": round(sum(abs(r[cut]["loss"] - r["end"]["loss"])
                                                  for r in rows) / n, 4),
            "bias": round(sum(r[cut]["loss"] - r["end"]["loss"] for r in rows) / n, 4),
            "mistake_or_worse_end": sum(_mistake(r["end"]["label"]) for r in rows),
            "mistake_or_worse_cut": sum(_mistake(r[cut]["label"]) for r in rows),
            "both": sum(_mistake(r["end"]["label"]) and _mistake(r[cut]["label"])
                        for r in rows),
            "same_best": round(sum(r[cut]["best"] == r["end"]["best"] for r in rows) / n, 3),
            "cpu_seconds": round(sum(r[cut]["cpu"] for r in rows), 1)}), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=["build", "measure", "horizons"])
    parser.add_argument("--every", type=int, default=5)
    parser.add_argument("--game", default="durak", choices=sorted(END_CUT),
                        help="horizons: the game whose cuts are measured")
    args = parser.parse_args()
    if args.what == "build":
        build(args.every)
    elif args.what == "horizons":
        horizons(args.every, args.game)
    else:
        measure()


if __name__ == "__main__":
    main()
