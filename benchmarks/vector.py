"""Steps a second of one Gymnasium environment against a vector of 16 (CPU time, one
process, interleaved rounds): random legal actions against the random bot.

    nice -n 5 python benchmarks/vector.py --steps 3000 --rounds 3
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from cardtable.adapters.gymnasium import CardtableEnv
from cardtable.adapters.vector import CardtableVectorEnv


def pick(rng: np.random.Generator, mask: np.ndarray) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))]) if len(legal) else 0


def single(game: str, steps: int) -> float:
    rng = np.random.default_rng(0)
    env = CardtableEnv(game, opponent="random")
    obs, _ = env.reset(seed=0)
    began = time.process_time()
    for _ in range(steps):
        obs, _, done, cut, _ = env.step(pick(rng, obs["action_mask"]))
        if done or cut:
            obs, _ = env.reset()
    return steps / (time.process_time() - began)


def vector(game: str, steps: int, n: int) -> float:
    rng = np.random.default_rng(0)
    env = CardtableVectorEnv(game, num_envs=n, opponent="random")
    obs, _ = env.reset(seed=0)
    began = time.process_time()
    for _ in range(steps // n):
        obs, *_ = env.step([pick(rng, mask) for mask in obs["action_mask"]])
    return (steps // n * n) / (time.process_time() - began)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--envs", type=int, default=16)
    args = parser.parse_args()
    for game in ("pasur", "durak"):
        ratios = []
        for _ in range(args.rounds):
            one = single(game, args.steps)
            many = vector(game, args.steps, args.envs)
            ratios.append(many / one)
            print(f"{game}: one {one:.0f} steps/s, {args.envs} together {many:.0f} steps/s")
        print(f"{game}: ratio median {statistics.median(ratios):.2f} "
              f"(from {min(ratios):.2f} to {max(ratios):.2f})")


if __name__ == "__main__":
    main()
