"""Actions a second through pyspiel, random play, for both games on the compiled core and
on the pure engine, beside OpenSpiel's C++ ``go_fish`` played by the same loop.

Each round runs one process per engine (``CARDTABLE_PURE=1`` for the pure one), one after
the other, each timing every game on its own CPU seconds; ratios are taken per round
(core over pure, and each over go_fish in the same process).  Every action counts, chance
outcomes (the deal) included, as the research adapters' figures do.

    python benchmarks/engine_pyspiel.py [--seconds 2] [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time

GAMES = {"pasur": "python_pasur", "durak": "python_transfer_durak", "go_fish": "go_fish"}


def actions_a_second(name: str, seconds: float) -> float:
    import pyspiel

    import cardtable.adapters.openspiel  # noqa: F401 - registers the games

    game = pyspiel.load_game(name)
    rng = random.Random(0)
    actions = 0
    began = time.process_time()
    while time.process_time() - began < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
            actions += 1
    return actions / (time.process_time() - began)


def one_process(seconds: float) -> dict[str, float]:
    import cardtable

    out = {name: actions_a_second(game, seconds) for name, game in GAMES.items()}
    out["engine"] = cardtable.ENGINE  # type: ignore[assignment]
    return out


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(one_process(args.seconds)))
        return {}
    rows: dict[str, list[dict]] = {"core": [], "pure": []}
    for _ in range(args.rounds):
        for label in ("core", "pure"):
            env = dict(os.environ)
            env.pop("CARDTABLE_PURE", None)
            if label == "pure":
                env["CARDTABLE_PURE"] = "1"
            done = subprocess.run([sys.executable, __file__, "--one", "--seconds",
                                   str(args.seconds)], env=env, capture_output=True,
                                  text=True, check=True)
            rows[label].append(json.loads(done.stdout.splitlines()[-1]))
    print(f"engines: core process {rows['core'][0]['engine']}, "
          f"pure process {rows['pure'][0]['engine']}")
    summary = {}
    for game in ("pasur", "durak"):
        core = [r[game] for r in rows["core"]]
        pure = [r[game] for r in rows["pure"]]
        ratios = sorted(c / p for c, p in zip(core, pure, strict=True))
        fish = sorted(r[game] / r["go_fish"] for r in rows["core"])
        summary[game] = {"core": statistics.median(core), "pure": statistics.median(pure),
                         "ratio": statistics.median(ratios), "rounds": ratios,
                         "go_fish": statistics.median(fish)}
        print(f"{GAMES[game]}: core {statistics.median(core):,.0f} actions/s, pure "
              f"{statistics.median(pure):,.0f}: core/pure {statistics.median(ratios):.2f}x "
              f"(rounds {' '.join(f'{r:.2f}' for r in ratios)}); core/go_fish "
              f"{statistics.median(fish):.2f}x")
    print(f"go_fish: {statistics.median(r['go_fish'] for r in rows['core']):,.0f} actions/s")
    return summary


if __name__ == "__main__":
    main()
