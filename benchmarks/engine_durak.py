"""Transfer Durak's speed on the compiled core and on the pure engine, beside OpenSpiel.

    python benchmarks/engine_durak.py [--seconds 1] [--rounds 5] [--json FILE]

Four comparisons, each measured in interleaved rounds in this one process (CPU seconds of
this process, ``time.process_time``) and given as the median of the rounds' ratios with
every round's ratio beside it:

1. Random play through a Python loop (ask for the legal moves, pick one, push it), against
   OpenSpiel's ``go_fish`` played by the same loop through pyspiel: the compiled core and
   the pure engine.  The loop itself costs a few hundred nanoseconds a decision, so this
   ratio is bounded by Python, not by the engine.
2. Whole games in compiled code: the core's playouts (``Core.playouts``) against
   OpenSpiel's C++ ``evaluate_bots`` with uniform random bots (its all-C++ path).
3. The research adapter: actions per second (chance deals included) of
   ``python_transfer_durak`` through pyspiel, the compiled core against the pure engine.
4. ISMCTS iterations per CPU second for the medium and expert bots: the compiled core with
   the kit's ``fast_playout`` against the pure engine's Python playouts.

Reuses ``engine.py``'s ``measure`` and OpenSpiel players.
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
from typing import Any

sys.path[:0] = [str(Path(__file__).resolve().parents[1]), str(Path(__file__).resolve().parent)]

from engine import measure, openspiel_compiled_player, openspiel_player  # noqa: E402

from cardtable.durak import PRESETS  # noqa: E402
from cardtable.durak.engine import CompiledGame, PureGame  # noqa: E402

Player = Callable[[random.Random], int]


def loop_player(game_type: Any, players: int) -> Player:
    """Random play through a Python loop, as engine.py's ``durak_game_player``."""
    rules = PRESETS["transfer"]

    def play(rng: random.Random) -> int:
        game = game_type.new(rules, players=players, seed=rng)
        decisions = 0
        while not game.is_over():
            moves = game.legal_moves()
            game.push(moves[rng.randrange(len(moves))])
            decisions += 1
        return decisions

    return play


def core_player(players: int, *, deal: bool) -> Player:
    """Whole games in the core: dealt by ``Game.new`` (Python) each time, or copies of 64
    games dealt before the clock starts (the playout alone)."""
    assert CompiledGame is not None
    rules = PRESETS["transfer"]
    dealt = random.Random(64)
    games = [CompiledGame.new(rules, players=players, seed=dealt) for _ in range(64)]

    def play(rng: random.Random) -> int:
        game = (CompiledGame.new(rules, players=players, seed=rng) if deal
                else games[rng.randrange(64)])
        return game.playouts(rng.getrandbits(64), 1)[1]

    return play


def pyspiel_player(game_type: Any, players: int) -> Player | None:
    """Random play of ``python_transfer_durak`` through pyspiel, counting every action
    (the deal's chance actions too, as the research docs count them)."""
    try:
        import pyspiel

        from cardtable.adapters import durak as adapter
        from cardtable.adapters import openspiel  # noqa: F401 - registers the games
    except ImportError:
        return None
    game = pyspiel.load_game(f"python_transfer_durak(players={players})")

    def play(rng: random.Random) -> int:
        saved = adapter.Game
        adapter.Game = game_type   # the adapter deals with the engine under test
        try:
            state = game.new_initial_state()
            actions = 0
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[rng.randrange(len(legal))])
                actions += 1
            return actions
        finally:
            adapter.Game = saved

    return play


def search_positions(game_type: Any) -> list[Any]:
    """The same ten positions on either engine: dealt, then a few moves of the tactics."""
    from cardtable.bots.durak_kit import KIT

    out = []
    for seed in range(10):
        game = game_type.new(PRESETS["transfer"], players=2 + seed % 2, seed=seed)
        for _ in range(seed % 7):
            game.push(KIT.tactics(game))
        out.append(game)
    return out


def search_round(seconds: float) -> dict[str, dict]:
    """ISMCTS on the compiled core (``fast_playout``) and on the pure engine, each level
    at least ``seconds`` of CPU."""
    from cardtable import bots

    out = {}
    for level in ("medium", "expert"):
        for label, game_type in (("core", CompiledGame), ("pure", PureGame)):
            positions = search_positions(game_type)
            iterations, spent, seed = 0, 0.0, 0
            while spent < seconds:
                bot = bots.make(f"{level}:iterations=200", seed=seed)
                position = positions[seed % len(positions)]
                start = time.process_time()
                bot.choose(position)
                spent += time.process_time() - start
                iterations += bot.stats.get("iterations", 0)
                seed += 1
            out[f"{level} {label}"] = {"iterations": iterations, "seconds": spent,
                                       "per_s": iterations / spent}
    return out


def ratios(runs: list[dict], peers: list[dict], key: str) -> list[float]:
    return sorted(run[key] / peer[key] for run, peer in zip(runs, peers, strict=True))


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per row a round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)
    if CompiledGame is None:
        print("the compiled Durak core is not built here (or CARDTABLE_PURE is set)")
        return {}
    go_fish, go_fish_cpp = openspiel_player("go_fish"), openspiel_compiled_player("go_fish")
    if go_fish is None or go_fish_cpp is None:
        print("open-spiel is not installed: no peer to compare with (pip install open-spiel)")
        return {}
    rows: dict[str, tuple[Player, str, str]] = {   # label: (player, peer, what is counted)
        "go_fish, Python loop": (go_fish, "", "decisions"),
        "durak 2p, core, Python loop": (loop_player(CompiledGame, 2), "go_fish, Python loop",
                                        "decisions"),
        "durak 2p, pure, Python loop": (loop_player(PureGame, 2), "go_fish, Python loop",
                                        "decisions"),
        "durak 4p, core, Python loop": (loop_player(CompiledGame, 4), "go_fish, Python loop",
                                        "decisions"),
        "durak 4p, pure, Python loop": (loop_player(PureGame, 4), "go_fish, Python loop",
                                        "decisions"),
        "go_fish, C++ evaluate_bots": (go_fish_cpp, "", "decisions"),
        "durak 2p, core: deal + playout": (core_player(2, deal=True),
                                           "go_fish, C++ evaluate_bots", "decisions"),
        "durak 2p, core: playout alone": (core_player(2, deal=False),
                                          "go_fish, C++ evaluate_bots", "decisions"),
    }
    for game_type, label in ((PureGame, "pure"), (CompiledGame, "core")):
        player = pyspiel_player(game_type, 2)
        if player is not None:
            rows[f"pyspiel durak 2p, {label}"] = (
                player, "pyspiel durak 2p, pure" if label == "core" else "", "actions")
    runs: dict[str, list[dict]] = {label: [] for label in rows}
    searches: dict[str, list[dict]] = {}
    for _ in range(args.rounds):
        for label, (player, _, _) in rows.items():
            runs[label].append(measure(player, args.seconds))
        for label, figures in search_round(args.seconds).items():
            searches.setdefault(label, []).append(figures)

    print(f"Python {platform.python_version()} on {platform.machine()}, {args.seconds:g} s "
          f"of CPU per row in each of {args.rounds} rounds")
    print(f"{'':34} {'games/s':>9} {'per s':>11} {'ratio':>7}  (each round, against)")
    out: dict[str, Any] = {}
    for label, (_, peer, counted) in rows.items():
        seconds = sum(run["seconds"] for run in runs[label])
        per_s = sum(run["decisions"] for run in runs[label]) / seconds
        games = sum(run["games"] for run in runs[label]) / seconds
        row: dict[str, Any] = {"games_per_s": games, f"{counted}_per_s": per_s}
        text = ""
        if peer:
            each = ratios(runs[label], runs[peer], "decisions_per_s")
            row.update(ratio=statistics.median(each), ratio_per_round=each, against=peer)
            text = (f"{row['ratio']:6.2f}x  ({' '.join(f'{r:.2f}' for r in each)}; "
                    f"against {peer})")
        print(f"{label:34} {games:9.0f} {per_s:11.0f} {text}")
        out[label] = row
    print("ISMCTS iterations per CPU second (200 iterations a move; the same positions):")
    for level in ("medium", "expert"):
        core, pure = searches[f"{level} core"], searches[f"{level} pure"]
        each = ratios(core, pure, "per_s")
        core_rate = sum(r["iterations"] for r in core) / sum(r["seconds"] for r in core)
        pure_rate = sum(r["iterations"] for r in pure) / sum(r["seconds"] for r in pure)
        print(f"  {level:8} core {core_rate:8.0f}/s  pure {pure_rate:8.0f}/s  "
              f"{statistics.median(each):5.2f}x  ({' '.join(f'{r:.2f}' for r in each)})")
        out[f"ismcts {level}"] = {"core_per_s": core_rate, "pure_per_s": pure_rate,
                                  "ratio": statistics.median(each), "ratio_per_round": each}
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2))
    return out


if __name__ == "__main__":
    main()
