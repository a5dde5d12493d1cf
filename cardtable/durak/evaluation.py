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

FEATURES = ("cards", "cards_no_stock", "over_six", "cards_stock", "high_trumps",
            "high_trumps_no_stock", "low_trumps", "low_trumps_no_stock", "plain_aces_kings",
            "plain_aces_kings_no_stock", "plain_low", "plain_low_no_stock", "defends", "leads",
            "leads_no_stock")
"""What each seat's score reads: its cards (again once the stock is gone, the cards past six
that it took and has not played off, and the cards times the share of the 24 cards past the
first deal still in the stock), its trumps from the jack up and its lower trumps, its plain
aces and kings, its plain cards of eight and below (each again once the stock is gone), and
whether it defends or leads the next round (leading again once the stock is gone: while
the stock lasts, leading is worth little, fitted at 0.01)."""

_TRUMPS = tuple(sum(c.mask for c in CARDS if c.suit == trump) for trump in Suit)
"""``_TRUMPS[trump]``: the trump suit's cards as a mask."""

_HIGH = sum(c.mask for c in CARDS if strength(c) >= 11)
"""Jacks, queens, kings and aces."""

_ACES_KINGS = sum(c.mask for c in CARDS if strength(c) >= 13)

_LOW = sum(c.mask for c in CARDS if strength(c) <= 8)
"""Sixes, sevens and eights (and lower, in a longer pack)."""

_DEFAULT = (0.66, 0.02, -0.56, -0.12, -0.28, -0.34, -0.17, -0.29, -0.04, -0.05, 0.05, 0.09,
            0.03, -0.01, -0.64)
"""Weights to fall back on where the fitted file is missing (a fit's, rounded)."""


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
    trumps_mask = _TRUMPS[game._trump]
    stock = len(game._stock) - game._drawn
    empty = 1.0 if stock == 0 else 0.0
    share = stock / 24.0
    defender, leader = game._defender, game._attacker
    out: list[list[float] | None] = []
    for seat, hand in enumerate(hands):
        if not hand and not stock:
            out.append(None)
            continue
        cards = hand.bit_count()
        trumps = hand & trumps_mask
        high = (trumps & _HIGH).bit_count()
        low = trumps.bit_count() - high
        plain = hand & ~trumps_mask
        aces_kings = (plain & _ACES_KINGS).bit_count()
        small = (plain & _LOW).bit_count()
        leads = 1.0 if seat == leader else 0.0
        out.append([float(cards), cards * empty, float(max(0, cards - 6)), cards * share,
                    float(high), high * empty, float(low), low * empty, float(aces_kings),
                    aces_kings * empty, float(small), small * empty,
                    1.0 if seat == defender else 0.0, leads, leads * empty])
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
