"""Decisions a second through pyspiel with the observation tensor read at every decision,
cardtable's games beside OpenSpiel's C++ ``go_fish`` (CPU time, one process, interleaved
rounds; chance outcomes drawn with ``rng.choice`` for every game alike).

    nice -n 5 python benchmarks/research_speed.py --seconds 2 --rounds 3 [--pettingzoo]

With ``--pettingzoo`` each round also plays both games through PettingZoo's wrapped AEC
environments (``pasur_v0.env()``, ``transfer_durak_v0.env()``): the usual
``agent_iter``/``last``/``step`` loop, a random legal action from the mask, steps a second
beside go_fish's decisions a second of the same round.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

import pyspiel

import cardtable
import cardtable.adapters.openspiel  # registers the games

GAMES = {"pasur": "python_pasur", "durak": "python_transfer_durak", "go_fish": "go_fish"}


def decisions_a_second(name: str, seconds: float) -> float:
    game = pyspiel.load_game(name)
    rng = random.Random(0)
    decisions = 0
    began = time.process_time()
    while time.process_time() - began < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choice(outcomes)[0])
                continue
            state.observation_tensor(state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
    return decisions / (time.process_time() - began)


def pettingzoo_steps(game: str, seconds: float) -> float:
    from cardtable.adapters.pettingzoo import pasur_v0, transfer_durak_v0

    env = {"pasur": pasur_v0, "durak": transfer_durak_v0}[game].env()
    rng = random.Random(0)
    steps = 0
    began = time.process_time()
    while time.process_time() - began < seconds:
        env.reset(seed=rng.getrandbits(32))
        for _agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                action = None
            else:
                legal = observation["action_mask"].nonzero()[0]
                action = int(legal[rng.randrange(len(legal))])
            env.step(action)
            steps += 1
    return steps / (time.process_time() - began)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--pettingzoo", action="store_true")
    args = parser.parse_args()
    print(f"engine: {cardtable.ENGINE}; load average {os.getloadavg()[0]:.1f}")
    ratios: dict[str, list[float]] = {"pasur": [], "durak": []}
    zoo: dict[str, list[float]] = {"pasur": [], "durak": []}
    for _ in range(args.rounds):
        peer = decisions_a_second(GAMES["go_fish"], args.seconds)
        for game in ratios:
            ours = decisions_a_second(GAMES[game], args.seconds)
            ratios[game].append(ours / peer)
            print(f"{game}: {ours:.0f} decisions/s, go_fish {peer:.0f}")
            if args.pettingzoo:
                steps = pettingzoo_steps(game, args.seconds)
                zoo[game].append(steps / peer)
                print(f"{game}: PettingZoo {steps:.0f} steps/s")
    print(f"load average {os.getloadavg()[0]:.1f}")
    for game, values in ratios.items():
        print(f"{game}: {statistics.median(values):.2f}x go_fish "
              f"(from {min(values):.2f} to {max(values):.2f})")
        if zoo[game]:
            print(f"{game}: PettingZoo steps {statistics.median(zoo[game]):.3f}x go_fish's "
                  f"decisions (from {min(zoo[game]):.3f} to {max(zoo[game]):.3f})")


if __name__ == "__main__":
    main()
