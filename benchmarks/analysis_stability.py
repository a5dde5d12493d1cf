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
niced background workers (``cardtable.server.play.bot_workers``; ``--processes`` of them,
2 as the server), wall-clock seconds from the first job to the last, then the puzzles' job,
with the load average before and after.

``make-duels`` plays the judge's own set (``tests/data/judge``): per game, ``random``
against ``hard`` (2 players, seats in turn, as the arena plays them), and ``hard`` against
``hard`` where one seat makes a random move now and then (one in ``SLIP``): deliberate
errors the judge should label, standing in for a person's records (no record of a person's
game is stored in the repository).  ``--set judge`` measures that set, and per record the
aims' figures: the judged moves ``unsure`` in each run, of the moves labelled in either run
those labelled alike in both, each player's mean loss a judged move and accuracy (the
ratio of ``random``'s mean loss to ``hard``'s and the accuracy gap, per record and pooled).

``make-duels --count N --set DIR`` plays N random-against-hard games of each game (or of
``--only``'s) into a folder of its own, numbered on from the set's (``--first``): the few
records kept in the repository are too few to tell an aim met by a fraction of a point,
and the measure reports the spread of the records' accuracy gaps and the 95% interval of
their mean beside the pooled figure.

``make-scripted`` plays the person-like records of that set (``*-scripted-*.json``): a
script that plays the hint's move but for marked, deliberate errors, against ``hard``
(scripted, not a person's play); the measure reports how many of the marked errors each
run labels, and per game each aim met or not.

    python benchmarks/analysis_stability.py make
    python benchmarks/analysis_stability.py make-duels [--count 20 --only pasur --set DIR]
    python benchmarks/analysis_stability.py make-scripted [--only pasur]
    nice -n 10 python benchmarks/analysis_stability.py [--set judge] [--only durak] [--iterations N]
    nice python benchmarks/analysis_stability.py --web [--only durak] [--games 2] [--processes 2]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cardtable import analysis, bots, games, records

GAMES = Path(__file__).resolve().parents[1] / "tests" / "data" / "analysis"
DUELS = GAMES.parent / "judge"
SLIP = 8
"""In a game with slips, the slipping seat plays a random move instead of its own one move
in ``SLIP`` (where it has a choice)."""
DUEL_PLAN = {"pasur": ("standard", 3, 1), "durak": ("transfer", 4, 2)}
"""Per game: the preset, the random-against-hard games, and the games with slips."""

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


def make_duels(folder: Path = DUELS, only: str | None = None, count: int | None = None,
               first: int = 0) -> None:
    """Play and save the judge's set: random against hard, and hard with slips.  With
    ``count``, only random against hard: ``count`` games numbered from ``first`` + 1 (the
    same numbers play the same games as the set's own), a larger set to measure on than
    the few kept in the repository."""
    import random

    folder.mkdir(parents=True, exist_ok=True)
    for game, (preset, duels, slips) in DUEL_PLAN.items():
        if only and game != only:
            continue
        spec = games.get(game)
        plan = [("random", n) for n in range(duels)] + [("slips", n) for n in range(slips)]
        if count is not None:
            plan = [("random", n) for n in range(first, first + count)]
        for kind, number in plan:
            seed = 7000 + 10 * number + (5 if kind == "slips" else 0)
            state = spec.start(spec.presets[preset], players=2, seed=seed)
            if kind == "random":
                levels = ["random", "hard"] if number % 2 == 0 else ["hard", "random"]
            else:
                levels = ["hard", "hard"]
            seated = [bots.make(level, seed=seed * 7 + seat) for seat, level in enumerate(levels)]
            slipper = number % 2
            luck = random.Random(seed)
            slipped = 0
            while not state.is_over():
                seat = state.to_move
                move = seated[seat].choose(state)
                legal = state.legal_moves()
                if kind == "slips" and seat == slipper and len(legal) > 1 and (
                        luck.randrange(SLIP) == 0):
                    move = legal[luck.randrange(len(legal))]
                    slipped += 1
                state.push(move)
            names = [f"{level} {seat + 1}" for seat, level in enumerate(levels)]
            if kind == "slips":
                names[slipper] = f"hard with slips {slipper + 1}"
            record = records.record_of(state, game, seats=[
                {"name": name, "kind": "bot", "level": level}
                for name, level in zip(names, levels, strict=True)])
            path = folder / f"{game}-{kind}-{number + 1}.json"
            record.save(path)
            print(json.dumps({"file": path.name, "moves": len(record.moves), "seats": names,
                              "slips": slipped}), flush=True)


SCRIPTED_PLAN = {"pasur": ("standard", 6), "durak": ("transfer", 4)}
"""Per game: the preset and the scripted games."""
ERROR_GAP = 3
"""The script's own moves between two of its deliberate errors at least."""


def _scripted_error(game: str, state: Any, advised: Any) -> tuple[Any, str] | None:
    """A deliberate, known error the script may make instead of the hint's move: Durak,
    leading a trump king or ace while the stock lasts and a plain lead is there, or beating
    with a trump king or ace (else taking) where the hint beats with a plain card below
    the queen; Pasur,
    laying a card that takes nothing when the hint takes 2 points or more with a card other
    than a jack.  ``None`` when none fits."""
    legal = state.legal_moves()
    if game == "durak":
        view = state.view(state.to_move)
        trump = view["trump"]
        if view["stock"] < 2:
            return None
        if view["phase"] == "lead":
            plain = [m for m in legal if m.kind == "attack" and trump not in str(m)]
            dear = [m for m in legal if m.kind == "attack" and len(m.cards) == 1
                    and m.cards[0].suit.symbol == trump and m.cards[0].text[:-1] in ("K", "A")]
            if plain and dear:
                return dear[0], "leads a trump king or ace while the stock lasts"
        cheap = advised.kind == "defend" and advised.cards[1].text[:-1] not in ("Q", "K", "A")
        if cheap and advised.cards[1].suit.symbol != trump:
            dear = [m for m in legal if m.kind == "defend" and m.cards[0] == advised.cards[0]
                    and m.cards[1].suit.symbol == trump and m.cards[1].text[:-1] in ("K", "A")]
            if dear:
                return dear[0], "beats with a trump king or ace where a plain card beats"
            take = next((m for m in legal if m.kind == "take"), None)
            if take is not None:
                return take, "takes where a plain card beats the attack"
        return None
    from cardtable.pasur.scoring import card_points

    hand = state.hand if hasattr(state, "hand") else state
    worth = card_points(advised.taken | advised.bit, hand.rules) if advised.taken else 0
    lays = [m for m in legal if not m.taken]
    jack = str(advised).startswith("J")   # a jack sweeps: held, it takes as much later
    if lays and worth >= 2 and not jack:
        cheapest = min(lays, key=lambda m: card_points(m.bit, hand.rules))
        return cheapest, f"lays a card that takes nothing, missing a capture of {worth} points"
    return None


def make_scripted(only: str | None = None) -> None:
    """Play the person-like set: a script that plays the hint's move (the judge's choice at
    the hint's budget) except at marked moves, where it makes a deliberate, known error
    (``_scripted_error``), against ``hard``; the marked moves are kept in the record
    (``scripted_errors``).  Scripted, not a person's play: named so."""
    from cardtable.analysis.hints import hint

    DUELS.mkdir(parents=True, exist_ok=True)
    for game, (preset, count) in SCRIPTED_PLAN.items():
        if only and game != only:
            continue
        spec = games.get(game)
        for number in range(count):
            seed = 8000 + 10 * number
            state = spec.start(spec.presets[preset], players=2, seed=seed)
            script = number % 2
            other = bots.make("hard", seed=seed * 7 + 1 - script)
            errors: list[dict[str, Any]] = []
            since = ERROR_GAP
            while not state.is_over():
                seat = state.to_move
                if seat != script:
                    state.push(other.choose(state))
                    continue
                if len(state.legal_moves()) == 1:
                    state.push(state.legal_moves()[0])
                    continue
                advised = state.parse_move(hint(state).move)
                error = _scripted_error(game, state, advised) if since >= ERROR_GAP else None
                since += 1
                if error is not None:
                    move, why = error
                    errors.append({"index": len(records.record_of(state, game).moves) + 1,
                                   "seat": seat, "move": str(move), "hint": str(advised),
                                   "error": why})
                    since = 0
                    state.push(move)
                else:
                    state.push(advised)
            names = ["", ""]
            names[script] = "script: the hint's moves, marked errors"
            names[1 - script] = "hard"
            record = records.record_of(state, game, seats=[
                {"name": names[s], "kind": "bot", "level": "scripted" if s == script else "hard"}
                for s in range(2)], scripted_errors=errors)
            path = DUELS / f"{game}-scripted-{number + 1}.json"
            record.save(path)
            print(json.dumps({"file": path.name, "moves": len(record.moves),
                              "errors": len(errors)}, ensure_ascii=False), flush=True)


def recorded(only: str | None, count: int | None, folder: Path = GAMES) -> list[Path]:
    paths = sorted(folder.glob("*.json"))
    if only:
        paths = [p for p in paths if p.name.startswith(f"{only}-")]
    if count:
        paths = [p for name in games.names()
                 for p in [q for q in paths if q.name.startswith(f"{name}-")][:count]]
    return paths


def stability(paths: list[Path], iterations: int) -> None:
    judged_of: dict[str, int] = {}
    agree_of: dict[str, int] = {}
    unsure_of: dict[str, int] = {}
    labelled_of: dict[str, int] = {}
    same_of: dict[str, int] = {}
    cpu_of: dict[str, list[float]] = {}
    pooled: dict[str, dict[str, list[float]]] = {}
    scripted: dict[str, list[int]] = {}
    gapped: dict[str, list[float]] = {}
    """Per game, each random-against-hard record's accuracy gap (the mean of its runs)."""
    for path in paths:
        record = records.load(path)
        learn = analysis.learn_of(record.game)
        names = record.names()
        runs, seconds = [], []
        for run_seed in (0, 1):
            began = time.process_time()
            runs.append(analysis.analyse_record(record, iterations=iterations, seed=run_seed))
            seconds.append(time.process_time() - began)
        pairs = [(a, b) for a, b in zip(*runs, strict=True) if a.choices > 1]
        agree = sum(a.label == b.label for a, b in pairs)
        labelled = [(a, b) for a, b in pairs if a.label or b.label]
        same = sum(a.label == b.label for a, b in labelled)
        unsure = [sum(a.unsure is not None for a, _ in pairs),
                  sum(b.unsure is not None for _, b in pairs)]
        unsure_labels = sum(
            1 for run in runs for j in run
            if j.label and (j.loss_low or 0.0) < learn.thresholds[analysis.LABELS.index(
                j.label)] - 1e-9)
        players = [analysis.summary(run, names, record.game) for run in runs]
        levels = [seat.get("level", "") if isinstance(seat, dict) else "" for seat in record.seats]
        row: dict[str, object] = {
            "file": path.name, "players": record.players, "moves": len(record.moves),
            "judged": len(pairs), "cpu_seconds": [round(s, 1) for s in seconds],
            "labels": [sum(a.label is not None for a, _ in pairs),
                       sum(b.label is not None for _, b in pairs)],
            "unsure": unsure,
            "unsure_share": [round(u / max(len(pairs), 1), 3) for u in unsure],
            "labelled_either": len(labelled), "labelled_alike": same,
            "agree": agree, "agreement": round(agree / max(len(pairs), 1), 3),
            "labelled_within_uncertainty": unsure_labels,
            "with_hindsight": sum(a.hindsight_loss is not None for a, _ in pairs),
            "mean_loss": [[p["mean_loss"] for p in run] for run in players],
            "accuracy": [[p["accuracy"] for p in run] for run in players]}
        marked = record.extra.get("scripted_errors") or []
        if marked:   # the script's deliberate errors: how many each run labels
            at = {e["index"] for e in marked}
            row["scripted_errors"] = len(marked)
            row["scripted_labelled"] = [sum(j.index in at and j.label is not None for j in run)
                                        for run in runs]
            row["scripted_labels"] = [[j.label for j in run if j.index in at] for run in runs]
            into_marked = scripted.setdefault(record.game, [0, 0, 0])
            into_marked[0] += len(marked)
            into_marked[1] += row["scripted_labelled"][0]
            into_marked[2] += row["scripted_labelled"][1]
        if "random" in levels and "hard" in levels:
            weak, strong = levels.index("random"), levels.index("hard")
            ratios, gaps = [], []
            for run in players:
                w, h = run[weak], run[strong]
                ratios.append(round(w["mean_loss"] / h["mean_loss"], 2) if h["mean_loss"]
                              else None)
                gaps.append(round(h["accuracy"] - w["accuracy"], 1))
                into = pooled.setdefault(record.game, {"random": [], "hard": [],
                                                       "random_acc": [], "hard_acc": []})
                into["random"].append(w["mean_loss"])
                into["hard"].append(h["mean_loss"])
                into["random_acc"].append(w["accuracy"])
                into["hard_acc"].append(h["accuracy"])
            row["random_to_hard_loss"] = ratios
            row["hard_accuracy_above_random"] = gaps
            gapped.setdefault(record.game, []).append(statistics.mean(gaps))
        print(json.dumps(row), flush=True)
        game = record.game
        judged_of[game] = judged_of.get(game, 0) + len(pairs)
        agree_of[game] = agree_of.get(game, 0) + agree
        unsure_of[game] = unsure_of.get(game, 0) + sum(unsure)
        labelled_of[game] = labelled_of.get(game, 0) + len(labelled)
        same_of[game] = same_of.get(game, 0) + same
        cpu_of.setdefault(game, []).extend(seconds)
    for game, cpu in cpu_of.items():
        judged, agree = judged_of[game], agree_of[game]
        out: dict[str, object] = {
            "game": game, "judged": judged, "agree": agree,
            "agreement": round(agree / max(judged, 1), 3),
            "unsure_share": round(unsure_of[game] / max(2 * judged, 1), 3),
            "labelled_either": labelled_of[game], "labelled_alike": same_of[game],
            "label_agreement": round(same_of[game] / max(labelled_of[game], 1), 3),
            "cpu_median": round(statistics.median(cpu), 1), "cpu_max": round(max(cpu), 1)}
        if game in pooled:
            p = pooled[game]
            out["random_mean_loss"] = round(statistics.mean(p["random"]), 4)
            out["hard_mean_loss"] = round(statistics.mean(p["hard"]), 4)
            out["random_to_hard_loss"] = round(
                statistics.mean(p["random"]) / max(statistics.mean(p["hard"]), 1e-9), 2)
            out["hard_accuracy_above_random"] = round(
                statistics.mean(p["hard_acc"]) - statistics.mean(p["random_acc"]), 1)
            out.update(_spread(gapped[game]))
        if game in scripted:
            out["scripted_errors"], *labelled = scripted[game]
            out["scripted_labelled"] = labelled
        out["aims"] = _aims(out)
        print(json.dumps(out), flush=True)


def _spread(gaps: list[float]) -> dict[str, Any]:
    """The records' accuracy gaps (hard's above random's, each the mean of its runs): how
    many, the least and the most, their standard deviation, and the 95% interval of their
    mean (Student's t over the records: the games differ far more than the seeds)."""
    out: dict[str, Any] = {"gap_records": len(gaps), "gap_least": round(min(gaps), 1),
                           "gap_most": round(max(gaps), 1)}
    if len(gaps) > 1:
        from cardtable.analysis.weighing import t_quantile

        spread = statistics.stdev(gaps)
        half = t_quantile(1.96, len(gaps) - 1) * spread / len(gaps) ** 0.5
        mean = statistics.mean(gaps)
        out.update({"gap_sd": round(spread, 2),
                    "gap_interval_95": [round(mean - half, 1), round(mean + half, 1)]})
    return out


def _aims(out: dict[str, Any]) -> dict[str, bool]:
    """Each aim, met or not, by a game's summary (those it has figures for)."""
    aims = {"unsure_at_most_10%": float(out["unsure_share"]) <= 0.10,
            "labels_alike_at_least_90%": float(out["label_agreement"]) >= 0.90,
            "cpu_at_most_15s_a_game": float(out["cpu_max"]) <= 15.0}
    if "random_to_hard_loss" in out:
        aims["random_loss_at_least_2x_hard"] = float(out["random_to_hard_loss"]) >= 2.0
        aims["hard_accuracy_10_points_above"] = float(out["hard_accuracy_above_random"]) >= 10
    if "scripted_errors" in out:
        aims["every_scripted_error_labelled"] = all(
            n == out["scripted_errors"] for n in out["scripted_labelled"])
    return aims


def _cpu_of(pid: int) -> float:
    """A process's CPU seconds so far (user and system, from /proc)."""
    import os

    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def web(paths: list[Path], iterations: int | None, processes: int) -> None:
    """The server's analysis: a job per move in ``processes`` niced background workers
    (``Analyses.judge_moves``), timed from the first job to the last; then the puzzles'.
    Each worker's CPU seconds for the moves too: the largest is the wall time the analysis
    would take with a free core for each worker (the machine's other work left out)."""
    import asyncio
    import os

    from cardtable.server.play import analyses as learn_api
    from cardtable.server.play.bot_workers import BotWorkers, PuzzleJob

    async def run(path: Path) -> dict[str, object]:
        text = path.read_text(encoding="utf-8")
        kept = learn_api.Analyses(Path("/nonexistent"), lambda: None,  # type: ignore[arg-type, return-value]
                                  iterations=iterations or learn_api.ANALYSIS_ITERATIONS)
        workers = BotWorkers(1, background=processes)
        try:
            record, jobs = kept._jobs(text)
            # warm up: every background process started and its imports done
            await asyncio.gather(*(workers.background(job, learn_api.ANALYSIS_MOVE_LIMIT)
                                   for job in jobs[:processes]))
            load = os.getloadavg()[0]
            pids = sorted(workers.background_pids())
            before = [_cpu_of(pid) for pid in pids]
            began = time.perf_counter()
            await kept.judge_moves(jobs, workers)
            judged = time.perf_counter() - began
            spent = [_cpu_of(pid) - was for pid, was in zip(pids, before, strict=True)]
            await workers.background(PuzzleJob(text, learn_api.ANALYSIS_NODES),
                                     learn_api.ANALYSIS_MOVE_LIMIT)
            puzzles = time.perf_counter() - began - judged
        finally:
            workers.close()
            kept.close()
        return {"file": path.name, "moves": len(record.moves), "processes": processes,
                "wall_seconds": round(judged, 1), "puzzles_wall_seconds": round(puzzles, 1),
                "cpu_seconds_each": [round(x, 1) for x in spent],
                "load_before": round(load, 1), "load_after": round(os.getloadavg()[0], 1)}

    for path in paths:
        print(json.dumps(asyncio.run(run(path))), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("what", nargs="?", default="measure",
                        choices=["measure", "make", "make-duels", "make-scripted"])
    parser.add_argument("--set", default="analysis",
                        help="the records measured: analysis (tests/data/analysis), judge "
                             "(tests/data/judge) or a folder; make-duels writes there with "
                             "--count")
    parser.add_argument("--count", type=int, default=None,
                        help="make-duels: play this many random-against-hard games of each "
                             "game (with --only, one), numbered from --first + 1, into --set")
    parser.add_argument("--first", type=int, default=0,
                        help="make-duels --count: the number the games start after")
    parser.add_argument("--iterations", type=int, default=None)
    parser.add_argument("--doubt", type=int, default=None,
                        help="the judge's weighing.DOUBT (the measure's budget in doubt)")
    parser.add_argument("--horizon", type=int, default=None,
                        help="with --only: the game's learn.horizon (where the judge's "
                             "playouts are cut), to measure another cut against the default")
    parser.add_argument("--playout", default=None,
                        help="with --only: the game's learn.playout (the judge's playout "
                             "policy: basic, steady), to measure another against the default")
    parser.add_argument("--only", default=None, help="one game: pasur or durak")
    parser.add_argument("--games", type=int, default=None, help="the first N of each game")
    parser.add_argument("--web", action="store_true", help="time the server's way")
    parser.add_argument("--processes", type=int, default=2,
                        help="with --web: the background processes (the server's default: 2)")
    args = parser.parse_args()
    if args.what == "make":
        make()
        return
    folder = {"analysis": GAMES, "judge": DUELS}.get(args.set) or Path(args.set)
    if args.what == "make-duels":
        make_duels(DUELS if args.count is None else folder, args.only, args.count, args.first)
        return
    if args.what == "make-scripted":
        make_scripted(args.only)
        return
    paths = recorded(args.only, args.games, folder)
    if args.horizon is not None:
        if not args.only:
            parser.error("--horizon needs --only")
        analysis.learn_of(args.only).horizon = args.horizon
    if args.playout is not None:
        if not args.only:
            parser.error("--playout needs --only")
        analysis.learn_of(args.only).playout = args.playout
    if args.doubt is not None:
        from cardtable.analysis import weighing

        weighing.DOUBT = args.doubt
    if args.web:
        web(paths, args.iterations, args.processes)
    else:
        stability(paths, args.iterations or analysis.DEFAULT_ITERATIONS)


if __name__ == "__main__":
    main()
