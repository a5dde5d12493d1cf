"""Dealing a hand: the shuffle, the blocks of four cards, and the opening-table rule.

A deal order is the 52 card indexes in the order they are dealt: the leader's 4 cards,
each following player's 4, the 4 opening table cards, then 4 to each player per later deal
round.  ``opening_step`` is the opening-table rule, once for the engine and the research
adapter (which deals card by card):

>>> from cardtable.cards import parse_cards
>>> from cardtable.pasur.rules import PRESETS
>>> opening_step(PRESETS["standard"], parse_cards("5♣ J♠ 7♣ 8♣"))
OpeningStep(action='replace', slot=1)
>>> opening_step(PRESETS["wikipedia"], parse_cards("5♣ J♠ 7♣ 8♣"), replaced=True)
OpeningStep(action='redeal', slot=None)
>>> opening_step(PRESETS["standard"], parse_cards("5♣ Q♠ 7♣ 8♣"))
OpeningStep(action='keep', slot=None)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import starmap
from operator import itemgetter
from typing import Any, Literal, NamedTuple

from ..cards import CARDS, Card, format_cards, mask_of
from .rules import Rules

__all__ = ["OpeningStep", "fix_opening", "opening_step"]


class OpeningStep(NamedTuple):
    """What the opening-table rule does with the 4 table cards just dealt."""

    action: Literal["keep", "replace", "redeal", "redeal_table"]
    """keep: play on; replace: the jack in ``slot`` goes back into the stock and the next
    card of the stock takes its place; redeal: shuffle the whole pack and deal again;
    redeal_table: the 4 table cards go back into the stock, which is shuffled, and 4 are
    dealt to the table again (the hands stay)."""
    slot: int | None = None
    """For replace: the place (0 to 3, in deal order) of the jack that goes back."""


_KEEP = OpeningStep("keep")
_REDEAL = OpeningStep("redeal")
_REDEAL_TABLE = OpeningStep("redeal_table")
_REPLACE = tuple(OpeningStep("replace", slot) for slot in range(4))


def opening_step(rules: Rules, table: Sequence[Card], *, replaced: bool = False) -> OpeningStep:
    """The opening-table rule: what to do with ``table``, the 4 opening table cards in deal
    order.  ``replaced`` says that a jack has already been replaced in this deal (under
    ``opening_jacks="replace_one"`` a second jack redeals).

    Queens and kings (``opening_same_face_redeal``) and any face card
    (``opening_any_face_redeal``) redeal the whole pack; a jack does what
    ``opening_jacks`` says.
    """
    ranks = [card.rank for card in table]
    jacks, queens, kings = ranks.count(11), ranks.count(12), ranks.count(13)
    same = rules.opening_same_face_redeal
    jack_rule = rules.opening_jacks
    if ((same and (queens >= same or kings >= same))
            or (rules.opening_any_face_redeal and jacks + queens + kings)
            or (jacks and jack_rule == "redeal")
            or (jacks and jack_rule == "replace_one" and (jacks > 1 or replaced))):
        return _REDEAL
    if not jacks or jack_rule == "stay":
        return _KEEP
    if jack_rule == "redeal_table":
        return _REDEAL_TABLE
    return _REPLACE[ranks.index(11)]


def fix_opening(order: list[int], players: int, rules: Rules, rng: random.Random) -> list[int]:
    """Apply the opening-table rule to a deal order until its 4 table cards are acceptable.

    A replaced jack goes back into the stock at a place drawn from ``rng`` and the next
    card from the front of the stock takes its place; a redeal reshuffles the whole pack;
    a table redeal shuffles the table cards back into the stock and deals the table from
    it again.
    """
    start = 4 * players
    replaced = False
    while True:
        step = opening_step(rules, list(map(CARDS.__getitem__, order[start:start + 4])),
                            replaced=replaced)
        action = step.action
        if action == "keep":
            return order
        if action == "redeal":
            order = shuffled(rng)
            replaced = False
        elif action == "redeal_table":
            rest = order[start:]
            rng.shuffle(rest)
            order[start:] = rest
        else:
            assert step.slot is not None
            slot = start + step.slot
            jack = order[slot]
            order[slot] = order.pop(start + 4)
            order.insert(start + 4 + rng.randrange(len(order) - start - 3), jack)
            replaced = True


_NO_ARGS_52 = ((),) * 52


def shuffled(rng: random.Random) -> list[int]:
    """The 52 card indexes in a random order drawn from ``rng``.

    Sorting by 52 random keys costs one C call per card, where ``rng.shuffle`` runs a
    Python loop; two equal keys (the only bias) come up about once in 10**13 deals.
    """
    keys = list(starmap(rng.random, _NO_ARGS_52))   # 52 draws in a C loop
    return sorted(range(52), key=keys.__getitem__)


def _block_sorter() -> Callable[[Sequence[int]], tuple[bytes, ...]]:
    """A function that cuts a deal order of 52 card indexes into its 13 blocks of 4 cards
    (every hand dealt, and the opening table, is one) and returns each block as the bytes
    of its cards in card order.  It is an unrolled sorting network made once here: a
    ``sorted`` call per block costs about twice as much."""
    names = [f"c{at}" for at in range(52)]
    lines = ["def sort_blocks(order):", f"    {', '.join(names)} = order"]
    blocks = []
    for at in range(0, 52, 4):
        a, b, c, d = names[at:at + 4]
        for x, y in ((a, b), (c, d), (a, c), (b, d), (b, c)):
            lines += [f"    if {x} > {y}:", f"        {x}, {y} = {y}, {x}"]
        blocks.append(f"bytes(({a}, {b}, {c}, {d}))")
    lines.append(f"    return ({', '.join(blocks)})")
    space: dict[str, Any] = {}
    exec("\n".join(lines), space)  # the text above, made here from fixed parts only
    sorter: Callable[[Sequence[int]], tuple[bytes, ...]] = space["sort_blocks"]
    return sorter


sort_blocks = _block_sorter()

_DEALS: dict[int, tuple[itemgetter[Any], ...]] = {}
"""Per seating (``4 * players + leader``): for each deal round, what picks the seats'
blocks (in seat order) out of ``sort_blocks``'s 13."""


def slot(players: int, leader: int, number: int, seat: int) -> int:
    """Where in a deal order the 4 cards of deal round ``number`` for ``seat`` begin."""
    base = 0 if number == 1 else 4 * players + 4 + (number - 2) * 4 * players
    return base + 4 * ((seat - leader) % players)


def deal_getters(players: int, leader: int) -> tuple[itemgetter[Any], ...]:
    """For each deal round, an ``itemgetter`` of the seats' blocks (in seat order) among
    ``sort_blocks``'s 13."""
    getters = _DEALS.get(4 * players + leader)
    if getters is None:
        getters = _DEALS[4 * players + leader] = tuple(
            itemgetter(*[slot(players, leader, number, seat) // 4 for seat in range(players)])
            for number in range(1, 48 // (4 * players) + 1))
    return getters


def check_distinct(cards: Sequence[object]) -> None:
    """Refuse a position with something that is not a card, or a card in two places."""
    if any(not isinstance(card, Card) for card in cards):
        raise ValueError("positions are made of Cards (or card text)")
    if mask_of(cards).bit_count() != len(cards):  # type: ignore[arg-type]
        seen: set[object] = set()
        twice: set[Card] = set()
        for card in cards:
            if card in seen:
                twice.add(card)  # type: ignore[arg-type]
            seen.add(card)
        raise ValueError(f"{format_cards(sorted(twice))} appear(s) in two places")
