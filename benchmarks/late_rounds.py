"""Two Pasur bots head to head from a chosen deal round on: where does one gain?

A whole-hand arena run mixes every round's decisions with the luck of all six deals
(about 3.6 points a deal of spread, so a gain of 0.2 points a hand needs 1,000 deals).
This plays the first rounds of each 2-player hand with one lead bot (``--lead``, greedy by
default), then plays the rest twice from the same position, once with A in seat 0 and B
in seat 1 and once swapped: a duplicate deal of the late rounds only.  The margin is A's
points minus B's, per hand, over the two plays of each deal; the early rounds' points
cancel, so the spread is that of the rounds played, and the cost is theirs alone.

    python benchmarks/late_rounds.py A B [--deals 30] [--round 5] [--seed 1] [--jobs 2]
    python benchmarks/late_rounds.py "expert:seconds=60" "hard:seconds=60" --round 5
    python benchmarks/late_rounds.py "expert:seconds=60,solver_seconds=60" "hard:seconds=60" \
        --round 1 --deals 300 --seed 2031 --log expert-hard.jsonl

``--round 1`` plays whole hands: the same duplicate deals as ``cardtable arena --hands``.
``--log FILE`` appends a JSON line per deal as it ends (deal, margin, the bots), so a long
run stopped part way still counts, and runs of the same pair can be pooled deal by deal.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cardtable import arena, bots, pasur
from cardtable.bots import pasur_kit  # noqa: F401  (loaded before forking)


def late_margin(a: str, b: str, *, deal: int, round_: int, lead: str) -> float:
    """A's points minus B's in one deal: the hand led to ``round_``, then played both ways."""
    hand = pasur.Hand.new(pasur.PRESETS["standard"], seed=deal)
    leads = [bots.make(lead, seed=deal), bots.make(lead, seed=deal + 1)]
    while hand.deal_round < round_ and not hand.is_over():
        hand.push(leads[hand.to_move].choose(hand))
    margins = []
    for a_seat in (0, 1):
        play = hand.copy()
        names = [a, b] if a_seat == 0 else [b, a]
        seats = [bots.make(names[s], seed=deal * 7 + s) for s in range(2)]
        while not play.is_over():
            play.push(seats[play.to_move].choose(play))
        score = play.score()
        margins.append(score[a_seat] - score[1 - a_seat])
    return sum(margins) / 2


def _one(job: tuple[str, str, int, int, str]) -> float:
    a, b, deal, round_, lead = job
    return late_margin(a, b, deal=deal, round_=round_, lead=lead)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--round", type=int, default=5, dest="round_",
                        help="the deal round A and B take over at (1 plays whole hands)")
    parser.add_argument("--lead", default="greedy", help="the bot that plays the rounds before")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--log", type=Path, help="append a JSON line per deal here")
    args = parser.parse_args()
    started = time.perf_counter()
    jobs = [(args.a, args.b, args.seed * 100_000 + k, args.round_, args.lead)
            for k in range(args.deals)]
    margins = []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for (_, _, deal, _, _), margin in zip(jobs, pool.map(_one, jobs), strict=True):
            margins.append(margin)
            if args.log:
                with args.log.open("a") as log:
                    log.write(json.dumps({"a": args.a, "b": args.b, "round": args.round_,
                                          "lead": args.lead, "deal": deal,
                                          "margin": margin}) + "\n")
    mean, (lo, hi) = arena.mean_ci(margins)
    spread = (sum((m - mean) ** 2 for m in margins) / max(1, len(margins) - 1)) ** 0.5
    print(json.dumps({"a": args.a, "b": args.b, "round": args.round_, "lead": args.lead,
                      "seed": args.seed, "deals": args.deals, "margin": round(mean, 3),
                      "ci95": [round(lo, 3), round(hi, 3)], "spread": round(spread, 3),
                      "seconds": round(time.perf_counter() - started)}))


if __name__ == "__main__":
    main()
