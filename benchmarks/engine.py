"""Engine speed: random games, decisions per second, beside OpenSpiel's C++ card games.

Every figure is measured in this run and printed as a ratio against OpenSpiel's
``go_fish`` (and ``crazy_eights``) played the same way from Python: ask for the legal
actions, pick one at random, apply it, until the game ends.  Chance nodes (OpenSpiel
deals card by card) are sampled in the loop and count towards its time, as our
shuffles and deals count towards ours.

    python benchmarks/engine.py [--seconds 3] [--rounds 3] [--json FILE]

Times are CPU seconds of this process (``time.process_time``), so the machine's other work
weighs on neither side; caches shared with other processes still can.  The hands and games
are dealt from the benchmark's own generator (``seed=rng``), as
OpenSpiel's chance nodes are sampled from it: neither side seeds a new generator per game.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def measure(play_one: Callable[[random.Random], int], seconds: float) -> dict:
    """Play games until ``seconds`` of this process's CPU time pass; return games/s and
    decisions/s per CPU second (so other work on the machine counts against neither side;
    both sides run single-threaded in this process)."""
    rng = random.Random(2026)
    play_one(rng)  # warm caches, as the peers' first game warms theirs
    games = decisions = 0
    clock = time.process_time
    start = clock()
    while True:
        decisions += play_one(rng)
        games += 1
        elapsed = clock() - start
        if elapsed >= seconds:
            break
    return {"games": games, "decisions": decisions, "seconds": elapsed,
            "games_per_s": games / elapsed, "decisions_per_s": decisions / elapsed}


def openspiel_player(name: str) -> Callable[[random.Random], int] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(name)

    def play(rng: random.Random) -> int:
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                r = rng.random()
                chosen = outcomes[-1][0]
                for action, p in outcomes:
                    r -= p
                    if r <= 0:
                        chosen = action
                        break
                state.apply_action(chosen)
            else:
                actions = state.legal_actions()
                state.apply_action(actions[rng.randrange(len(actions))])
                decisions += 1
        return decisions

    return play


def pasur_hand_player(players: int = 2, preset: str = "standard"):
    from cardtable import pasur

    rules = pasur.PRESETS[preset]

    def play(rng: random.Random) -> int:
        hand = pasur.Hand.new(rules, players=players, seed=rng)
        decisions = 0
        while not hand.is_over():
            moves = hand.legal_moves()
            hand.push(moves[rng.randrange(len(moves))])
            decisions += 1
        hand.score()
        return decisions

    return play


def durak_game_player(players: int = 2, preset: str = "transfer"):
    from cardtable import durak

    rules = durak.PRESETS[preset]

    def play(rng: random.Random) -> int:
        game = durak.Game.new(rules, players=players, seed=rng)
        decisions = 0
        while not game.is_over():
            moves = game.legal_moves()
            game.push(moves[rng.randrange(len(moves))])
            decisions += 1
        return decisions

    return play


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0,
                        help="time per engine, split over the rounds")
    parser.add_argument("--rounds", type=int, default=3,
                        help="rounds; each measures every engine once, in turn, so a change "
                             "in the machine's load falls on all of them")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.seconds <= 0:
        parser.error("--rounds must be 1 or more and --seconds more than 0")

    players: dict[str, Callable[[random.Random], int]] = {}
    for name in ("go_fish", "crazy_eights"):
        player = openspiel_player(name)
        if player is not None:
            players[f"openspiel {name}"] = player
    players.update({
        "pasur hand, 2 players": pasur_hand_player(2),
        "pasur hand, 4 players (teams)": pasur_hand_player(4, "multicapture"),
        "durak, 2 players": durak_game_player(2),
        "durak, 4 players": durak_game_player(4),
    })
    peer_name = "openspiel go_fish"
    per_round: dict[str, list[dict]] = {label: [] for label in players}
    for _ in range(args.rounds):
        for label, player in players.items():
            per_round[label].append(measure(player, args.seconds / args.rounds))

    rows: dict[str, dict] = {}
    for label, runs in per_round.items():
        seconds = sum(run["seconds"] for run in runs)
        games = sum(run["games"] for run in runs)
        decisions = sum(run["decisions"] for run in runs)
        row = {"games": games, "decisions": decisions, "seconds": seconds,
               "games_per_s": games / seconds, "decisions_per_s": decisions / seconds}
        if peer_name in per_round:
            # The ratio of each round (both measured minutes apart at most), then the median.
            ratios = sorted(run["decisions_per_s"] / peer["decisions_per_s"]
                            for run, peer in zip(runs, per_round[peer_name], strict=True))
            row["ratio_per_round"] = ratios
            row["ratio"] = statistics.median(ratios)
        rows[label] = row

    print(f"Python {platform.python_version()} on {platform.machine()}, "
          f"{args.seconds:g} s per engine in {args.rounds} rounds, random play")
    print(f"{'engine':34} {'games/s':>10} {'decisions/s':>13} {'vs go_fish':>11} "
          f"{'(per round)':>20}")
    for label, row in rows.items():
        if "ratio" in row:
            ratio = f"{row['ratio']:.2f}x"
            spread = " ".join(f"{r:.2f}" for r in row["ratio_per_round"])
        else:
            ratio, spread = "n/a", ""
        print(f"{label:34} {row['games_per_s']:10.0f} {row['decisions_per_s']:13.0f} "
              f"{ratio:>11} {spread:>20}")
    if peer_name not in rows:
        print("open-spiel is not installed: no peer to compare with (pip install open-spiel)")
    else:
        print("vs go_fish: the median over rounds of (our decisions/s) / (go_fish's), each "
              "pair measured in the same round")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return rows


if __name__ == "__main__":
    main()
