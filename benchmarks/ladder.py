"""The published ladder: cardtable's levels and OpenSpiel's baselines on one rating scale.

Each pair below plays duplicate deals two-handed (Pasur one hand at a time, Durak whole
games) through the arena, which also times each seat's thinking (CPU seconds).  The
ratings are Bradley-Terry on the Elo scale (400 · log10), fitted to every game played
(a game won scores 1, a draw 0.5), with ``random`` at 0 and one virtual draw added for
each pair played (so that an entrant that won every game gets a finite rating).  The
figures of each pair are the first entrant's points a hand less the second's (Pasur) or
each entrant's durak rate (Durak), with 95% intervals.

    nice -n 5 python benchmarks/ladder.py --out cardtable/arena/ladder.json

``cardtable ladder`` reads the ratings of the levels from that file to rate an agent.
The file is written after every pair, so a run cut short keeps what it measured;
``--resume`` then plays only the pairs the file lacks and fits the ratings to all of them
(the earlier pairs' scores and CPU figures are read back from the file).
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

from cardtable import arena, games
from cardtable.arena.ladder import RUNGS
from cardtable.arena.statistics import t_mean_ci, wilson

BASELINES = {
    "uniform random (OpenSpiel)": "cardtable.adapters.agents:uniform_random",
    "MCTS, 100 simulations, one resampled deal (OpenSpiel)": "cardtable.adapters.agents:mcts",
    "IS-MCTS, 100 simulations (OpenSpiel, Python)": "cardtable.adapters.agents:ismcts",
}
"""OpenSpiel's baselines as outside agents (cardtable.adapters.agents)."""

CHEAP = ("random", "beginner", "easy", "learned", BASELINES["uniform random (OpenSpiel)"])

COST = {"medium": 2, BASELINES["MCTS, 100 simulations, one resampled deal (OpenSpiel)"]: 2,
        "hard": 3, BASELINES["IS-MCTS, 100 simulations (OpenSpiel, Python)"]: 3, "expert": 4}
"""Which pairs to play first (the quick ones), so that a run cut short has them."""


def pairs(extra: list[str]) -> list[tuple[str, str]]:
    """Neighbouring levels, each level against the one two below, and the baselines
    against the lower levels."""
    out = [(RUNGS[k + 1], RUNGS[k]) for k in range(len(RUNGS) - 1)]
    out += [(RUNGS[k + 2], RUNGS[k]) for k in range(len(RUNGS) - 2)]
    for agent in [*BASELINES.values(), *extra]:
        out += [(agent, "random"), (agent, "beginner"), (agent, "easy")]
    return sorted(out, key=lambda pair: max(COST.get(name, 1) for name in pair))


def fit(games_played: list[tuple[str, str, float]], anchor: str = "random"
        ) -> dict[str, float]:
    """Bradley-Terry ratings (Elo scale) by minorization-maximization, ``anchor`` at 0;
    ``games_played`` is (first, second, first's score)."""
    names = sorted({n for a, b, _ in games_played for n in (a, b)})
    wins = dict.fromkeys(names, 0.0)
    meetings: dict[tuple[str, str], float] = {}
    for a, b, score in games_played:
        wins[a] += score
        wins[b] += 1.0 - score
        key = (min(a, b), max(a, b))
        meetings[key] = meetings.get(key, 0.0) + 1.0
    for a, b in list(meetings):                    # one virtual draw per pair played
        wins[a] += 0.5
        wins[b] += 0.5
        meetings[(a, b)] += 1.0
    strength = dict.fromkeys(names, 1.0)
    for _ in range(2000):
        new = {}
        for name in names:
            denominator = sum(n / (strength[a] + strength[b])
                              for (a, b), n in meetings.items() if name in (a, b))
            new[name] = wins[name] / denominator if denominator else strength[name]
        scale = new.get(anchor, 1.0)
        new = {k: v / scale for k, v in new.items()}
        done = max(abs(math.log(new[k] / strength[k])) for k in names) < 1e-9
        strength = new
        if done:
            break
    return {k: round(400 * math.log10(v), 1) for k, v in strength.items()}


def score(result: Any, seat: int) -> float:
    mine, other = result.returns[seat], result.returns[1 - seat]
    return 1.0 if mine > other else 0.5 if mine == other else 0.0


def deals_for(first: str, second: str, args: argparse.Namespace) -> int:
    """The duplicate deals a pair plays: many for quick players, fewer with a search."""
    if first in CHEAP and second in CHEAP:
        return int(args.deals)
    searches = set(COST) - set(RUNGS)
    if args.baseline_deals is not None and {first, second} & searches:
        return int(args.baseline_deals)
    return int(args.search_deals)


def _label(name: str) -> str:
    labels = {agent: label for label, agent in BASELINES.items()}
    return labels.get(name, f"`{name}`")


def table(data: dict[str, Any]) -> str:
    """The published tables in Markdown: each entrant's rating and CPU a move per game
    (in the order of its Pasur rating), then every pair played."""
    records = data["games"]
    names = sorted({n for r in records.values() for n in r["ratings"]},
                   key=lambda n: records.get("pasur", {}).get("ratings", {}).get(n, 1e9))
    head = ["entrant"]
    for game in records:
        head += [f"{game.title()} rating", f"{game.title()} CPU ms a move"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name in names:
        row = [_label(name)]
        for record in records.values():
            rating = record["ratings"].get(name)
            ms = record["cpu_ms_per_move"].get(name)
            row += ["-" if rating is None else f"{rating:+.0f}",
                    "-" if ms is None else ("<0.1" if ms < 0.1 else f"{ms:.1f}")]
        lines.append("| " + " | ".join(row) + " |")
    lines += ["", "| game | pair (first against second) | games | first's points a hand less "
              "second's (95%), or first's and second's durak rates |", "|---|---|---|---|"]
    for game, record in records.items():
        for entry in record["pairs"]:
            if "points" in entry:
                ci = entry.get("points_ci95") or [None, None]
                figure = (f"{entry['points']:+.2f} ({ci[0]:+.1f} to {ci[1]:+.1f})"
                          if ci[0] is not None else f"{entry['points']:+.2f}")
            else:
                figure = (f"{entry['first_loss'][0]:.0%} and "
                          f"{entry['second_loss'][0]:.0%}")
            lines.append(f"| {game} | {_label(entry['first'])} against "
                         f"{_label(entry['second'])} | {entry['games']} | {figure} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="pasur,durak")
    parser.add_argument("--deals", type=int, default=40,
                        help="deals for pairs of quick players")
    parser.add_argument("--search-deals", type=int, default=8,
                        help="deals for pairs with a searching level")
    parser.add_argument("--baseline-deals", type=int, default=None,
                        help="deals for pairs with an OpenSpiel search (default: "
                             "--search-deals)")
    parser.add_argument("--extra", default="", help="more entrants, comma separated")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", default="ladder.json")
    parser.add_argument("--resume", action="store_true",
                        help="keep the pairs already in --out and play only the others")
    parser.add_argument("--only", default="",
                        help="play only the pairs with one of these entrants (comma "
                             "separated; 'none': play nothing, just fit and write)")
    parser.add_argument("--merge", default="",
                        help="with --resume: also keep the pairs of this other file")
    parser.add_argument("--table", action="store_true",
                        help="print --out's tables in Markdown and stop")
    args = parser.parse_args()
    out = Path(args.out)
    if args.table:
        print(table(json.loads(out.read_text())))
        return
    data = json.loads(out.read_text()) if out.exists() else {"games": {}}
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True, check=False).stdout.strip()
    extra = [e for e in args.extra.split(",") if e]
    for game in args.games.split(","):
        spec = games.get(game)
        played: list[tuple[str, str, float]] = []
        record: dict[str, Any] = {
            "measured": {"date": datetime.date.today().isoformat(), "commit": commit,
                         "command": "python benchmarks/ladder.py " + " ".join(sys.argv[1:])},
            "pairs": [], "cpu_ms_per_move": {}, "ratings": {}}
        cpu: dict[str, list[float]] = {}
        done: set[tuple[str, str]] = set()
        before = data["games"].get(game) if args.resume else None
        kept: list[dict[str, Any]] = []
        if before and args.merge:
            other = json.loads(Path(args.merge).read_text())["games"].get(game)
            if other:
                before = dict(before)
                known = {(p["first"], p["second"]) for p in before["pairs"]}
                before["pairs"] = before["pairs"] + [
                    p for p in other["pairs"] if (p["first"], p["second"]) not in known]
                totals = dict(before.get("cpu_totals") or {})
                for who, (spent, moves) in (other.get("cpu_totals") or {}).items():
                    mine = totals.get(who, [0.0, 0])
                    totals[who] = [mine[0] + spent, mine[1] + moves]
                before["cpu_totals"] = totals
        only = {name for name in args.only.split(",") if name}
        if before:
            record["pairs"] = kept
            record["measured"]["resumed_from"] = before["measured"]
            for pair in before["pairs"]:
                first, second = pair["first"], pair["second"]
                if pair["games"] < 2 * deals_for(first, second, args):
                    continue    # fewer games than this run plays: played again
                done.add((first, second))
                kept.append(pair)
                # Bradley-Terry reads only each pair's total score
                played += [(first, second, pair["first_score"])] * pair["games"]
            totals = before.get("cpu_totals") or {
                who: [ms / 1000, 1.0] for who, ms in before["cpu_ms_per_move"].items()}
            cpu = {who: list(pair) for who, pair in totals.items()}
        for first, second in pairs(extra):
            if (first, second) in done or (only and not only & {first, second}):
                continue
            deals = deals_for(first, second, args)
            run = arena.run(game, [first, second], games=2 * deals, players=2,
                            seed=args.seed, jobs=args.jobs,
                            hands=spec.single_hand is not None)
            per_deal: dict[int, list[float]] = {}
            losses = {first: 0, second: 0}
            for result in run.results:
                seat = result.lineup.index(first)
                played.append((first, second, score(result, seat)))
                for s, who in enumerate(result.lineup):
                    spent, moves = cpu.setdefault(who, [0.0, 0.0])
                    cpu[who] = [spent + result.cpu[s], moves + result.seat_moves[s]]
                    if result.loser == s:
                        losses[who] += 1
                if result.points is not None:
                    per_deal.setdefault(result.deal, []).append(
                        (result.points[seat] - result.points[1 - seat]) / result.hands)
            n = len(run.results)
            entry: dict[str, Any] = {"first": first, "second": second, "games": n,
                                     "first_score": sum(score(r, r.lineup.index(first))
                                                        for r in run.results) / n}
            if per_deal:
                mean, ci = t_mean_ci([sum(v) / len(v) for v in per_deal.values()])
                entry["points"] = round(mean, 2)
                entry["points_ci95"] = None if ci is None else [round(c, 2) for c in ci]
            if spec.loser:
                for who in (first, second):
                    low, high = wilson(losses[who], n)
                    entry[f"{'first' if who == first else 'second'}_loss"] = [
                        round(losses[who] / n, 3), round(low, 3), round(high, 3)]
            record["pairs"].append(entry)
            record["ratings"] = fit(played)
            record["cpu_ms_per_move"] = {who: round(1000 * s / m, 2) for who, (s, m)
                                         in cpu.items() if m}
            record["cpu_totals"] = {who: [round(s, 3), m] for who, (s, m) in cpu.items()}
            data["games"][game] = record
            out.write_text(json.dumps(data, indent=1) + "\n")
            print(json.dumps(entry), flush=True)
        record["ratings"] = fit(played) if played else {}
        record["cpu_ms_per_move"] = {who: round(1000 * s / m, 2) for who, (s, m)
                                     in cpu.items() if m}
        record["cpu_totals"] = {who: [round(s, 3), m] for who, (s, m) in cpu.items()}
        data["games"][game] = record
        out.write_text(json.dumps(data, indent=1) + "\n")
        print(f"{game}: " + ", ".join(f"{k} {v:+.0f}" for k, v in
                                      sorted(record["ratings"].items(), key=lambda kv: kv[1])))


if __name__ == "__main__":
    main()
