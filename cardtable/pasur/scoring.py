"""Points at the end of a hand: counting cards, the big bonus, and surs.

Everything here works on captured masks and sur counts per side, so a finished hand, a
puzzle position or a UI's score sheet can all use it.

>>> from cardtable.cards import parse_cards, mask_of
>>> from cardtable.pasur.rules import PRESETS
>>> rules = PRESETS["standard"]
>>> card_points(mask_of(parse_cards("A♠ 2♣ 10♦ J♥ 5♣")), rules)
7
>>> sur_points([3, 1], rules)
[10, 0]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cards import Card, Suit
from .captures import ALL_MASK, JACK_MASK, NUMBER_MASK, RANK_MASKS
from .rules import Rules

__all__ = [
    "CLUBS_MASK",
    "bonus_side",
    "card_points",
    "hand_points",
    "score_sheet",
    "sur_cards",
    "sur_points",
]

CLUBS_MASK = sum(1 << index for index in range(0, 52, 4))
"""The 13 clubs."""
ACE_MASK = RANK_MASKS[1]
TWO_CLUBS = Card(2, Suit.CLUBS).mask
TEN_DIAMONDS = Card(10, Suit.DIAMONDS).mask
SEVEN_DIAMONDS = Card(7, Suit.DIAMONDS).mask


_SUR_CARDS = {"number": NUMBER_MASK, "number_or_jack": NUMBER_MASK | JACK_MASK,
              "not_jack": ALL_MASK & ~JACK_MASK, "any": ALL_MASK}


def sur_cards(rules: Rules) -> int:
    """The cards (a mask) that make a sur when their capture clears the table
    (``rules.sur_by``); the last deal round's surs also need ``sur_in_last_deal``.

    >>> from cardtable.pasur.rules import PRESETS
    >>> from cardtable.cards import cards_of
    >>> sorted({card.rank for card in cards_of(sur_cards(PRESETS["wikipedia"]))})
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13]
    """
    return _SUR_CARDS[rules.sur_by]


def card_points(captured: int, rules: Rules) -> int:
    """The points of the counting cards in a captured mask (aces, jacks, 2♣, 10♦, 7♦)."""
    return ((captured & ACE_MASK).bit_count() * rules.ace_points
            + (captured & JACK_MASK).bit_count() * rules.jack_points
            + (rules.two_clubs_points if captured & TWO_CLUBS else 0)
            + (rules.ten_diamonds_points if captured & TEN_DIAMONDS else 0)
            + (rules.seven_diamonds_points if captured & SEVEN_DIAMONDS else 0))


def bonus_side(captured: Sequence[int], rules: Rules) -> int | None:
    """The side that wins the big bonus (most clubs, or most cards), or ``None``.

    A tie for the most gives it to nobody, and so does falling short of
    ``rules.bonus_minimum``.
    """
    counts = [(mask & CLUBS_MASK if rules.bonus == "clubs" else mask).bit_count()
              for mask in captured]
    best = max(counts)
    if counts.count(best) != 1 or best < rules.bonus_minimum or best == 0:
        return None
    return counts.index(best)


def sur_points(surs: Sequence[int], rules: Rules,
               totals: Sequence[int] | None = None) -> list[int]:
    """The points each side scores for its surs.

    ``net``: each side scores for the surs it has beyond the most of any other side
    (with two sides, the opponent's surs cancel one's own one for one).  ``each``: every
    sur scores.  Under ``sur_cap`` a side whose match total (``totals``, before this hand)
    has reached the cap scores nothing for surs; its surs still cancel the others'.
    """
    if rules.sur_scoring == "net":
        most = max(surs)
        points = [0] * len(surs)
        if surs.count(most) == 1:
            side = surs.index(most)
            others = list(surs)
            del others[side]
            points[side] = (most - max(others)) * rules.sur_points
    else:
        value = rules.sur_points
        points = list(surs)
        for side in range(len(points)):
            points[side] *= value
    if rules.sur_cap is not None and totals is not None:
        points = [0 if total >= rules.sur_cap else p
                  for p, total in zip(points, totals, strict=True)]
    return points


def score_sheet(captured: Sequence[int], surs: Sequence[int], rules: Rules,
                totals: Sequence[int] | None = None) -> list[dict[str, Any]]:
    """A line per side: what it took and what each part is worth (JSON-able)."""
    bonus = bonus_side(captured, rules)
    surs_scored = sur_points(surs, rules, totals)
    sheet = []
    for side, mask in enumerate(captured):
        cards = card_points(mask, rules)
        won_bonus = rules.bonus_points if side == bonus else 0
        sheet.append({
            "cards": mask.bit_count(),
            "clubs": (mask & CLUBS_MASK).bit_count(),
            "aces": (mask & ACE_MASK).bit_count(),
            "jacks": (mask & JACK_MASK).bit_count(),
            "two_clubs": bool(mask & TWO_CLUBS),
            "ten_diamonds": bool(mask & TEN_DIAMONDS),
            "seven_diamonds": bool(mask & SEVEN_DIAMONDS),
            "card_points": cards,
            "bonus": won_bonus,
            "surs": surs[side],
            "sur_points": surs_scored[side],
            "points": cards + won_bonus + surs_scored[side],
        })
    return sheet


def hand_points(captured: Sequence[int], surs: Sequence[int], rules: Rules,
                totals: Sequence[int] | None = None) -> list[int]:
    """Points per side for a hand: counting cards, the bonus and surs.

    (``card_points`` and ``bonus_side`` in one pass: every finished hand is scored.)
    """
    points = sur_points(surs, rules, totals) if any(surs) else [0] * len(surs)
    aces, jacks = rules.ace_points, rules.jack_points
    two_clubs, ten_diamonds = rules.two_clubs_points, rules.ten_diamonds_points
    seven_diamonds = rules.seven_diamonds_points
    counted = CLUBS_MASK if rules.bonus == "clubs" else -1
    best, top, ties = -1, 0, 0
    for side, mask in enumerate(captured):
        points[side] += ((mask & ACE_MASK).bit_count() * aces
                         + (mask & JACK_MASK).bit_count() * jacks
                         + (two_clubs if mask & TWO_CLUBS else 0)
                         + (ten_diamonds if mask & TEN_DIAMONDS else 0)
                         + (seven_diamonds if mask & SEVEN_DIAMONDS else 0))
        count = (mask & counted).bit_count()
        if count > best:
            best, top, ties = count, side, 1
        elif count == best:
            ties += 1
    if ties == 1 and best >= rules.bonus_minimum and best:
        points[top] += rules.bonus_points
    return points
