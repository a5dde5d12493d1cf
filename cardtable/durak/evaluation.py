"""An evaluation of a Durak position between rounds: each seat's chance of being the durak.

A playout cut at the end of a round (``horizon`` in ``DurakKit.context``) is valued here
instead of being played to the end: most of the luck of the later draws is left out of
the reward, so moves compared on the same deals differ far more steadily.

The model is a conditional logit: each seat still holding cards (or still to draw) gets a
score ``w . x`` from what its hand holds and its role in the next round, and its chance of
being the durak is ``exp(score)`` over the sum of the seats' (a seat that is out is never
the durak).  The weights are fitted by ``benchmarks/fit_durak_eval.py`` from games the
tactics playout plays against itself, and shipped as ``evaluation.json`` beside this
module (its held-out log loss and Brier score are in that file and in docs/learn.md).

>>> from cardtable import durak
>>> game = durak.Game.from_position(hands=["6♠ 7♠", "A♥ K♥ Q♥ 10♠ 9♦ 8♦ 8♣ 9♣"],
...                                 trump="♥", attacker=0)
>>> chances = durak_chances(game)
>>> chances[1] > chances[0], round(sum(chances), 6)
(True, 1.0)
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from ..cards import CARDS, Suit
from .tables import strength

__all__ = ["FEATURES", "durak_chances", "features", "weights"]

FEATURES = ("cards", "cards_no_stock", "over_six", "trumps", "trumps_no_stock", "strength",
            "defends", "leads")
"""What each seat's score reads: its cards, again once the stock is gone, the cards past
six (taken, not yet played off), its trumps (and again once the stock is gone), its cards'
worth over an average card, and whether it defends or leads the next round."""

_WORTH = tuple(tuple((strength(c) + (7 if c.suit == trump else 0) - 11) / 4.0 for c in CARDS)
               for trump in Suit)
"""``_WORTH[trump][card.index]``: a card's worth over an average one (a plain ten or so)."""

_TRUMPS = tuple(sum(c.mask for c in CARDS if c.suit == trump) for trump in Suit)
"""``_TRUMPS[trump]``: the trump suit's cards as a mask."""

_DEFAULT = (0.35, 0.25, 0.1, -0.3, -0.3, -0.3, 0.2, -0.1)
"""Weights to fall back on where the fitted file is missing (hand-set, rough)."""


def _load() -> tuple[float, ...]:
    path = Path(__file__).with_name("evaluation.json")
    try:
        found = json.loads(path.read_text(encoding="utf-8"))
        values = tuple(float(found["weights"][name]) for name in FEATURES)
    except (OSError, ValueError, KeyError, TypeError):
        return _DEFAULT
    return values


_WEIGHTS = _load()


def weights() -> dict[str, float]:
    """The evaluation's weights by feature name."""
    return dict(zip(FEATURES, _WEIGHTS, strict=True))


def features(game: Any) -> list[list[float] | None]:
    """Each seat's features (``FEATURES``), ``None`` for a seat that is out (no cards and
    nothing left to draw).  Read from the engine's own fields, as the playout does."""
    hands = game._hands
    trump = game._trump
    worth = _WORTH[trump]
    trumps_mask = _TRUMPS[trump]
    stock = len(game._stock) - game._drawn
    empty = 1.0 if stock == 0 else 0.0
    defender, leader = game._defender, game._attacker
    out: list[list[float] | None] = []
    for seat, hand in enumerate(hands):
        if not hand and not stock:
            out.append(None)
            continue
        cards = hand.bit_count()
        trumps = (hand & trumps_mask).bit_count()
        total = 0.0
        rest = hand
        while rest:
            low = rest & -rest
            total += worth[low.bit_length() - 1]
            rest ^= low
        out.append([float(cards), cards * empty, float(max(0, cards - 6)), float(trumps),
                    trumps * empty, total, 1.0 if seat == defender else 0.0,
                    1.0 if seat == leader else 0.0])
    return out


def durak_chances(game: Any, w: tuple[float, ...] | None = None) -> list[float]:
    """Each seat's chance of being the durak by the evaluation (0 for a seat that is out)."""
    w = _WEIGHTS if w is None else w
    scores = []
    for x in features(game):
        scores.append(None if x is None else sum(a * b for a, b in zip(w, x, strict=True)))
    live = [s for s in scores if s is not None]
    if not live:
        return [0.0] * len(scores)
    top = max(live)
    weights_ = [0.0 if s is None else math.exp(s - top) for s in scores]
    total = sum(weights_)
    return [v / total for v in weights_]
