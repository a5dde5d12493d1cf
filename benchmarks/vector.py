"""Steps a second of one Gymnasium environment against a vector of 16 (CPU time, one
process, interleaved rounds): random legal actions against the random bot.  The ratio is
of the environments' own CPU time (inside ``step`` and the single one's ``reset``); the
figures with the actions drawn count the drawing too.

Both draw their actions the way a batched policy does, in one pass over all the masks in
hand (the single environment's one mask, the vector's sixteen): a legal action uniformly
at random per row.

    nice -n 5 python benchmarks/vector.py --steps 3000 --rounds 3
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

from cardtable.adapters.gymnasium import CardtableEnv
from cardtable.adapters.vector import CardtableVectorEnv


def pick(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """A uniformly random legal action per row of ``masks`` (0 where none is legal), from
    one scan of all the masks."""
    rows, cols = np.nonzero(masks)
    counts = np.bincount(rows, minlength=len(masks))
    starts = np.cumsum(counts) - counts
    chosen = starts + (rng.random(len(masks)) * counts).astype(np.int64)
    out = np.zeros(len(masks), np.int64)
    some = counts > 0
    out[some] = cols[chosen[some]]
    return out


def single(game: str, steps: int) -> tuple[float, float]:
    """Steps a second of one environment: the environment's own CPU time alone, and with
    the actions drawn."""
    rng = np.random.default_rng(0)
    env = CardtableEnv(game, opponent="random")
    obs, _ = env.reset(seed=0)
    inside = 0.0
    began = time.process_time()
    for _ in range(steps):
        action = int(pick(rng, obs["action_mask"][None])[0])
        start = time.process_time()
        obs, _, done, cut, _ = env.step(action)
        if done or cut:
            obs, _ = env.reset()
        inside += time.process_time() - start
    return steps / inside, steps / (time.process_time() - began)


def vector(game: str, steps: int, n: int) -> tuple[float, float]:
    """The same for a vector of ``n`` (it resets each ended game itself)."""
    rng = np.random.default_rng(0)
    env = CardtableVectorEnv(game, num_envs=n, opponent="random")
    obs, _ = env.reset(seed=0)
    inside = 0.0
    began = time.process_time()
    for _ in range(steps // n):
        actions = pick(rng, obs["action_mask"])
        start = time.process_time()
        obs, *_ = env.step(actions)
        inside += time.process_time() - start
    done = steps // n * n
    return done / inside, done / (time.process_time() - began)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--envs", type=int, default=16)
    parser.add_argument("--games", nargs="+", default=["pasur", "durak"])
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}")
    for game in args.games:
        ratios, drawn = [], []
        for _ in range(args.rounds):
            one, one_drawn = single(game, args.steps)
            many, many_drawn = vector(game, args.steps, args.envs)
            ratios.append(many / one)
            drawn.append(many_drawn / one_drawn)
            print(f"{game}: one {one:.0f} steps/s, {args.envs} together {many:.0f} steps/s "
                  f"(with the actions drawn: {one_drawn:.0f} and {many_drawn:.0f})")
        print(f"load average {os.getloadavg()[0]:.1f}")
        print(f"{game}: ratio median {statistics.median(ratios):.2f} "
              f"(from {min(ratios):.2f} to {max(ratios):.2f}); with the actions drawn "
              f"{statistics.median(drawn):.2f} (from {min(drawn):.2f} to {max(drawn):.2f})")


if __name__ == "__main__":
    main()
