"""How much the Pasur ``infer`` sampler learns about a hidden hand, per temperature.

Plays single 2-player hands between two seeded bots, then, at every decision where the
other player has already moved this deal round, draws deals with the plain sampler and
with ``infer`` at several temperatures and measures the share of the other hand the
samples put on the cards it really holds (0.25 would be one card in four right; the
plain sampler's share is the hand size over the cards unseen).  The bots never see
this: it reads the true hand only to score the samples.

    python benchmarks/inference.py [--hands 16] [--bots medium:seconds=60] [--samples 150]
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cardtable import bots, pasur
from cardtable.bots.pasur_kit import KIT, _Evidence


def positions(hands: int, spec: str, seed: int) -> list[tuple[pasur.Hand, int]]:
    """Every decision with something to read, from ``hands`` hands of ``spec`` self-play."""
    found = []
    for k in range(hands):
        hand = pasur.Hand.new(pasur.PRESETS["standard"], seed=seed + k)
        players = [bots.make(spec, seed=seed * 7 + k), bots.make(spec, seed=seed * 11 + k)]
        while not hand.is_over():
            seat = hand.to_move
            if _Evidence(hand, seat).moves and hand.hands[1 - seat]:
                found.append((hand.copy(), seat))
            hand.push(players[seat].choose(hand))
    return found


def score(found: list[tuple[pasur.Hand, int]], temper: float | None,
          samples: int) -> tuple[float, float]:
    """Mean share of samples' cards that are right, and mean log-chance of each true card."""
    share = loglik = 0.0
    if temper is not None:
        _Evidence.TEMPER = temper
    for i, (hand, seat) in enumerate(found):
        rng = random.Random(i)
        sample = KIT.sampler(hand, seat, infer=temper is not None)
        other = 1 - seat
        true = set(hand.hands[other])
        count: dict = {}
        for _ in range(samples):
            for card in sample(rng).hands[other]:
                count[card] = count.get(card, 0) + 1
        share += sum(count.get(card, 0) for card in true) / (samples * len(true))
        loglik += sum(math.log(min(0.99, max(0.01, count.get(card, 0) / samples)))
                      for card in true) / len(true)
    return share / len(found), loglik / len(found)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=16)
    parser.add_argument("--bots", default="medium:seconds=60")
    parser.add_argument("--samples", type=int, default=150)
    parser.add_argument("--seed", type=int, default=500)
    parser.add_argument("--tempers", default="0.5,0.75,1,1.5,3")
    args = parser.parse_args()
    found = positions(args.hands, args.bots, args.seed)
    print(f"{len(found)} positions from {args.hands} hands of {args.bots}")
    default = _Evidence.TEMPER
    rows = [("plain", None)] + [(f"infer, T={t}", float(t)) for t in args.tempers.split(",")]
    for label, temper in rows:
        share, loglik = score(found, temper, args.samples)
        print(f"{label:<16} share right {share:.4f}   mean log-chance {loglik:.4f}")
    _Evidence.TEMPER = default


if __name__ == "__main__":
    main()
