"""Engine speed: random games, decisions per second, beside OpenSpiel's C++ card games.

Every figure is measured in this run and printed as a ratio against OpenSpiel's
``go_fish`` (and ``crazy_eights``) played the same way from Python: ask for the legal
actions, pick one at random, apply it, until the game ends.  Chance nodes (OpenSpiel
deals card by card) are sampled in the loop and count towards its time, as our
shuffles and deals count towards ours.

A second table sets the all-compiled paths side by side: OpenSpiel's ``evaluate_bots``
with uniform random bots (the whole game in C++, chance included) against the Pasur core's
playout (``_core.Board.playout``: every decision in C; the deal before it is
``Hand.new``'s, called from Python, and counts).  "The loop alone" plays the Python loop
with nothing in it (C callables that do nothing): the floor under any engine called so.
``--search`` adds ISMCTS iterations per CPU second of the medium and expert bots with the
kit's compiled hooks and without them (the Python playouts), in the same rounds.

    python benchmarks/engine.py [--seconds 3] [--rounds 3] [--search] [--json FILE]

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


def measure(play_one: Callable[[random.Random], int | Callable[[], int]],
            seconds: float) -> dict:
    """Play games until ``seconds`` of this process's CPU time pass; return games/s and
    decisions/s per CPU second (so other work on the machine counts against neither side;
    both sides run single-threaded in this process).  ``play_one`` gives the game's
    decisions, or a function that counts them, called with the clock stopped (counting a
    C++ game's decisions from Python costs as much as playing it)."""
    rng = random.Random(2026)
    play_one(rng)  # warm caches, as the peers' first game warms theirs
    games = decisions = 0
    clock = time.process_time
    start = clock()
    counting = 0.0
    while True:
        played = play_one(rng)
        if callable(played):
            paused = clock()
            decisions += played()
            counting += clock() - paused
        else:
            decisions += played
        games += 1
        elapsed = clock() - start - counting
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


def openspiel_compiled_player(name: str) -> Callable[[random.Random], Callable[[], int]] | None:
    """Whole games in OpenSpiel's C++ (``evaluate_bots`` with uniform random bots): no
    Python between two decisions.  The decisions are counted off the clock (reading the
    history back through pyspiel took longer than the game: 36 us against 30 us a game)."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(name)
    bots = [pyspiel.make_uniform_random_bot(player, 1000 + player)
            for player in range(game.num_players())]

    def play(rng: random.Random) -> Callable[[], int]:
        state = game.new_initial_state()
        pyspiel.evaluate_bots(state, bots, rng.getrandbits(31))
        return lambda: sum(1 for entry in state.full_history() if entry.player >= 0)

    return play


def pasur_compiled_player(players: int = 2, preset: str = "standard"):
    """A hand dealt by ``Hand.new`` (called from Python), then played out by the core."""
    from cardtable import pasur
    from cardtable.pasur import _core

    rules = pasur.PRESETS[preset]

    def play(rng: random.Random) -> int:
        hand = pasur.Hand.new(rules, players=players, seed=rng)
        board = _core.Board(hand)
        return int(board.playout("random", rng.getrandbits(64)))

    return play


def pasur_playout_player(players: int = 2, preset: str = "standard"):
    """The core's playout alone: 64 hands dealt before the clock starts (by ``Hand.new``),
    each game a copy of one of them played out in C (the deal is not timed)."""
    from cardtable import pasur
    from cardtable.pasur import _core

    rules = pasur.PRESETS[preset]
    deal = random.Random(64)
    boards = [_core.Board(pasur.Hand.new(rules, players=players, seed=deal))
              for _ in range(64)]

    def play(rng: random.Random) -> int:
        board = boards[rng.randrange(64)].copy()
        return int(board.playout("random", rng.getrandbits(64)))

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


def loop_alone_player(decisions: int = 48, moves: int = 4):
    """The loop with no game in it: ``is_over``, ``legal_moves`` and ``push`` are C
    callables that do nothing (a list's copy, an iterator, a list's append), so what is
    timed is the loop's own Python and ``rng.randrange``: the floor any engine called from
    a Python loop stands on."""

    class Nothing:
        __slots__ = ("is_over", "legal_moves", "push")

    listed = list(range(moves))
    ends = [False] * decisions + [True]

    def play(rng: random.Random) -> int:
        hand = Nothing()
        hand.is_over = iter(ends).__next__
        hand.legal_moves = listed.copy
        hand.push = [].append
        played = 0
        while not hand.is_over():
            moves = hand.legal_moves()
            hand.push(moves[rng.randrange(len(moves))])
            played += 1
        return played

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
    parser.add_argument("--search", action="store_true",
                        help="also ISMCTS iterations per CPU second, core hooks on and off")
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
        "the loop alone (no game)": loop_alone_player(),
    })
    compiled: dict[str, Callable[[random.Random], int | Callable[[], int]]] = {}
    peer = openspiel_compiled_player("go_fish")
    if peer is not None:
        compiled["openspiel go_fish, C++ evaluate_bots"] = peer
    if _pasur_core() is not None:
        compiled["pasur hand, 2 players, core playout"] = pasur_compiled_player(2)
        compiled["pasur hand, 4 players, core playout"] = pasur_compiled_player(
            4, "multicapture")
        compiled["pasur, 2 players, playout alone"] = pasur_playout_player(2)
    peer_name = "openspiel go_fish"
    compiled_peer = "openspiel go_fish, C++ evaluate_bots"
    everything = {**players, **compiled}
    per_round: dict[str, list[dict]] = {label: [] for label in everything}
    searches: dict[str, list[dict]] = {}
    for _ in range(args.rounds):
        for label, player in everything.items():
            per_round[label].append(measure(player, args.seconds / args.rounds))
        if args.search:
            for label, figures in search_round(args.seconds / args.rounds).items():
                searches.setdefault(label, []).append(figures)

    rows: dict[str, dict] = {}
    for label, runs in per_round.items():
        seconds = sum(run["seconds"] for run in runs)
        games = sum(run["games"] for run in runs)
        decisions = sum(run["decisions"] for run in runs)
        row = {"games": games, "decisions": decisions, "seconds": seconds,
               "games_per_s": games / seconds, "decisions_per_s": decisions / seconds}
        against = compiled_peer if label in compiled else peer_name
        if against in per_round:
            # The ratio of each round (both measured minutes apart at most), then the median.
            ratios = sorted(run["decisions_per_s"] / peer["decisions_per_s"]
                            for run, peer in zip(runs, per_round[against], strict=True))
            row["ratio_per_round"] = ratios
            row["ratio"] = statistics.median(ratios)
        rows[label] = row

    print(f"Python {platform.python_version()} on {platform.machine()}, "
          f"{args.seconds:g} s per engine in {args.rounds} rounds, random play")
    print(f"{'engine':34} {'games/s':>10} {'decisions/s':>13} {'vs go_fish':>11} "
          f"{'(per round)':>20}")
    for label, row in rows.items():
        if label == compiled_peer:
            print("all compiled (against go_fish's evaluate_bots):")
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
    if searches:
        print("ISMCTS iterations per CPU second, on the same positions, hooks on against off "
              "(the median of the rounds' ratios):")
        for level in ("medium", "expert"):
            on, off = searches[f"{level} core"], searches[f"{level} python"]
            ratios = sorted(a["per_s"] / b["per_s"] for a, b in zip(on, off, strict=True))
            rate_on = statistics.median(r["per_s"] for r in on)
            rate_off = statistics.median(r["per_s"] for r in off)
            print(f"  {level:7} core {rate_on:8.0f}/s  python {rate_off:8.0f}/s  "
                  f"{statistics.median(ratios):.2f}x  ({' '.join(f'{r:.2f}' for r in ratios)})")
            rows[f"ismcts {level}"] = {"core_per_s": rate_on, "python_per_s": rate_off,
                                       "ratio_per_round": ratios,
                                       "ratio": statistics.median(ratios)}
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return rows


def _pasur_core():
    from cardtable.bots import pasur_kit

    return pasur_kit._core()


def search_positions() -> list:
    """Pasur positions in the first deal rounds (where the search samples, not solves)."""
    from cardtable import pasur

    positions = []
    for seed in range(6):
        hand = pasur.Hand.new(pasur.PRESETS["standard"], seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(24)):
            hand.push(rng.choice(hand.legal_moves()))
        positions.append(hand)
    return positions


def search_round(seconds: float) -> dict[str, dict]:
    """One round: each level's search on the positions with the kit's core hooks, then
    with the core switched off (the Python playouts), ``seconds`` of CPU each at least."""
    from cardtable import bots
    from cardtable.bots import pasur_kit
    from cardtable.pasur import hand as hand_module

    out = {}
    positions = search_positions()
    real = pasur_kit._CORE[:] if pasur_kit._CORE else [pasur_kit._core()]
    shuffle = hand_module._CORE
    for level in ("medium", "expert"):
        for mode in ("core", "python"):
            # (off: the kit's hooks and determinize's shuffle both, as on the pure engine)
            pasur_kit._CORE[:] = real if mode == "core" else [None]
            hand_module._CORE = shuffle if mode == "core" else None
            iterations, spent, seed = 0, 0.0, 0
            while spent < seconds:
                bot = bots.make(f"{level}:iterations=200", seed=seed)
                position = positions[seed % len(positions)]
                start = time.process_time()
                bot.choose(position)
                spent += time.process_time() - start
                iterations += bot.stats.get("iterations", 0)
                seed += 1
            out[f"{level} {mode}"] = {"iterations": iterations, "seconds": spent,
                                      "per_s": iterations / spent}
    pasur_kit._CORE[:] = real
    hand_module._CORE = shuffle
    return out


if __name__ == "__main__":
    main()
