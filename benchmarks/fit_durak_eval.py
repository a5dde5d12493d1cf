"""Fit the Durak evaluation (``cardtable/durak/evaluation.py``) from games the engine plays.

Plays Transfer Durak games of 2, 3 and 4 players with the search's playout policy (the
tactics player, now and then a random move) against itself, keeps every position at the
start of a round with the seat that ended the durak, fits the conditional logit's weights
by Newton's method (maximum likelihood), and measures it on games it was not fitted on:
the log loss and the Brier score of the chance it gives the seat that was the durak,
against the chance of knowing nothing (one over the seats still in).

    nice -n 5 python benchmarks/fit_durak_eval.py [--games 20000] [--write]

The fit needs numpy (the ``research`` extra, in ``make test``'s install); the shipped
evaluation reads the weights with the standard library alone.

``--write`` stores the weights and the figures in ``cardtable/durak/evaluation.json``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cardtable import durak
from cardtable.bots.durak_kit import KIT
from cardtable.durak import evaluation as durak_eval

OUT = Path(durak_eval.__file__).with_name("evaluation.json")

Sample = tuple[list[list[float]], int]
"""The live seats' features at a round's start, and which of them ended the durak."""


def play(seed: int, players: int) -> list[Sample]:
    game = durak.Game.new(durak.PRESETS["transfer"], players=players, seed=seed)
    luck = random.Random(seed)
    seen: list[tuple[list[list[float] | None]]] = []
    last_round = -1
    steps = 0
    while game.to_move is not None and steps < 2000:
        if game._round != last_round:
            last_round = game._round
            seen.append((durak_eval.features(game),))
        game.push(KIT.playout(game, luck))
        steps += 1
    loser = game.loser
    if loser is None:
        return []
    out = []
    for (rows,) in seen:
        live = [(seat, x) for seat, x in enumerate(rows) if x is not None]
        if len(live) < 2 or all(seat != loser for seat, _ in live):
            continue
        out.append(([x for _, x in live], next(i for i, (s, _) in enumerate(live)
                                                if s == loser)))
    return out


def fit(samples: list[Sample], steps: int = 15, ridge: float = 1.0) -> list[float]:
    """Maximum likelihood by Newton's method (with a small ridge), the positions grouped by
    the seats still in so that each group is one array."""
    import numpy as np

    k = len(durak_eval.FEATURES)
    groups: dict[int, tuple[list[list[list[float]]], list[int]]] = {}
    for xs, y in samples:
        rows, ys = groups.setdefault(len(xs), ([], []))
        rows.append(xs)
        ys.append(y)
    arrays = [(np.array(rows, dtype=float), np.array(ys)) for rows, ys in groups.values()]
    w = np.zeros(k)
    for _ in range(steps):
        grad = -ridge * w
        hess = ridge * np.eye(k)
        for x, y in arrays:
            s = x @ w
            p = np.exp(s - s.max(axis=1, keepdims=True))
            p /= p.sum(axis=1, keepdims=True)
            mean = np.einsum("ns,nsk->nk", p, x)
            grad += (x[np.arange(len(y)), y] - mean).sum(axis=0)
            d = x - mean[:, None, :]
            hess += np.einsum("ns,nsi,nsj->ij", p, d, d)
        w = w + np.linalg.solve(hess, grad)
    return [float(v) for v in w]


def _probs(w: list[float], xs: list[list[float]]) -> list[float]:
    scores_ = [sum(a * b for a, b in zip(w, x, strict=True)) for x in xs]
    top = max(scores_)
    e = [math.exp(s - top) for s in scores_]
    total = sum(e)
    return [v / total for v in e]


def scores(w: list[float] | None, samples: list[Sample]) -> dict[str, float]:
    """Log loss and Brier score over the seats (``w`` None: one over the seats still in)."""
    log_loss = brier = 0.0
    for xs, y in samples:
        p = [1.0 / len(xs)] * len(xs) if w is None else _probs(w, xs)
        log_loss -= math.log(max(p[y], 1e-12))
        brier += sum((q - (1.0 if s == y else 0.0)) ** 2 for s, q in enumerate(p))
    n = max(len(samples), 1)
    return {"log_loss": round(log_loss / n, 4), "brier": round(brier / n, 4)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    began = time.process_time()
    train: list[Sample] = []
    test: list[Sample] = []
    for number in range(args.games):
        players = 2 + number % 3
        (test if number % 5 == 4 else train).extend(play(10_000 + number, players))
    played = time.process_time() - began
    w = fit(train)
    found = {"weights": {name: round(v, 4) for name, v in zip(durak_eval.FEATURES, w,
                                                                strict=True)},
             "games": args.games, "positions": len(train), "held_out_positions": len(test),
             "held_out": scores(w, test), "knowing_nothing": scores(None, test),
             "held_out_two_players": scores(w, [t for t in test if len(t[0]) == 2]),
             "command": "python benchmarks/fit_durak_eval.py --games "
                        f"{args.games} --write"}
    print(json.dumps(found, indent=1))
    print(f"CPU seconds: playing {played:.1f}, fitting {time.process_time() - began - played:.1f}",
          file=sys.stderr)
    if args.write:
        OUT.write_text(json.dumps(found, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
