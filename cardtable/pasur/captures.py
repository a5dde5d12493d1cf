"""What a played card can take, by the rules' own words: the plain reference.

``capture_options`` reads like the rules and is checked against a brute-force search in
the tests; the engine's fast memory of options (``_options``) is checked against it.

>>> from cardtable.cards import parse_cards
>>> table = parse_cards("A♠ 2♣ 2♥ 4♦ 10♣")
>>> [format_cards(sorted(c)) for c in capture_options(Card.parse("9♦"), table)]
['2♣', '2♥']
>>> [format_cards(sorted(c)) for c in capture_options(Card.parse("7♦"), table)]
['2♣ 2♥', '4♦']
>>> capture_options(Card.parse("K♠"), table)
[]

Sets of cards are also 52-bit masks (``card.mask``): a rank's four cards are four
adjacent bits, so the masks below name whole ranks.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..cards import Card, cards_of, format_cards, mask_of
from .moves import Move
from .rules import PRESETS, Rules

__all__ = [
    "ALL_MASK",
    "FACE_MASK",
    "JACK_MASK",
    "KING_MASK",
    "NUMBER_MASK",
    "QUEEN_MASK",
    "RANK_MASKS",
    "capture_options",
    "why_not",
]

RANK_MASKS: tuple[int, ...] = (0, *(0xF << 4 * (rank - 1) for rank in range(1, 14)))
"""The four cards of each rank, indexed by rank (1..13)."""
NUMBER_MASK = (1 << 40) - 1
"""A to 10: the cards that count in sums."""
JACK_MASK, QUEEN_MASK, KING_MASK = RANK_MASKS[11], RANK_MASKS[12], RANK_MASKS[13]
FACE_MASK = JACK_MASK | QUEEN_MASK | KING_MASK
ALL_MASK = (1 << 52) - 1


def capture_options(card: Card, table: Iterable[Card],
                    rules: Rules = PRESETS["standard"]) -> list[frozenset[Card]]:
    """Every legal capture for playing ``card`` onto ``table``, as the table cards taken
    (each once, in the order of their masks).

    An empty list means the card can only stay on the table.
    """
    table = list(table)
    if card in table:
        raise ValueError(f"{card} cannot be both played and on the table")
    rank = card.rank
    if rank > 11:
        # A king takes a king, a queen a queen: one, or every one of them at once.
        same = [c for c in table if c.rank == rank]
        if not same:
            return []
        return [frozenset(same)] if rules.king_queen_take_all else _ordered(
            frozenset([c]) for c in same)
    if rank == 11 and rules.jack != "eleven":
        # A sweeping jack takes every number card and jack (every card: sweep_all).
        swept = frozenset(c for c in table if rules.jack == "sweep_all" or c.rank <= 11)
        return [swept] if swept else []
    # A number card, or a jack counting eleven: sets to take.
    if rules.kids:
        sets = [frozenset([c]) for c in table if c.rank == rank]
    else:
        numbers = [c for c in table if c.rank <= 10]
        sets = _sets_making(11 - rank if rank <= 10 else 11, numbers)
        if rank == 11:
            sets += [frozenset([c]) for c in table if c.rank == 11]
    if rules.multi_sets:
        sets = _disjoint_unions(sets)
    return _ordered(sets)


def _sets_making(total: int, numbers: Sequence[Card]) -> list[frozenset[Card]]:
    """Every set of the number cards ``numbers`` whose values add up to ``total``."""
    found: list[frozenset[Card]] = []

    def extend(chosen: list[Card], start: int, left: int) -> None:
        if left == 0:
            found.append(frozenset(chosen))
            return
        for at in range(start, len(numbers)):
            if numbers[at].rank <= left:
                extend([*chosen, numbers[at]], at + 1, left - numbers[at].rank)

    extend([], 0, total)
    return found


def _disjoint_unions(sets: Iterable[frozenset[Card]]) -> list[frozenset[Card]]:
    """Every union of one or more pairwise disjoint sets among ``sets`` (several sets taken
    at once, each making 11 with the played card)."""
    unions: set[frozenset[Card]] = {frozenset()}
    for part in sets:
        unions |= {union | part for union in unions if not union & part}
    unions.discard(frozenset())
    return list(unions)


def _ordered(sets: Iterable[frozenset[Card]]) -> list[frozenset[Card]]:
    return sorted(set(sets), key=mask_of)


def why_not(move: Move, table: Iterable[Card], rules: Rules) -> str:
    """Why ``move`` (with a card the player holds) is not legal on ``table``."""
    table = list(table)
    card = move.card
    taken = capture_options(card, table, rules)
    if not move.taken:
        return (f"{card} can take {format_cards(sorted(taken[0]))} from the table: a card "
                "that can capture must capture")
    missing = move.taken & ~mask_of(table)
    if missing:
        return (f"{format_cards(cards_of(missing))} "
                f"{'is' if missing.bit_count() == 1 else 'are'} not on the table")
    options = ", ".join(str(Move(card, cards)) for cards in taken)
    can = f" ({card} can: {options})" if taken else f" ({card} can take nothing here)"
    rank = card.rank
    if rank == 11 and rules.jack != "eleven":
        what = "every card" if rules.jack == "sweep_all" else "every number card and jack"
        return f"a jack takes {what} on the table at once{can}"
    if rank > 11:
        name = "king" if rank == 13 else "queen"
        if move.taken & ~RANK_MASKS[rank]:
            return f"a {name} takes only a {name}{can}"
        return (f"a {name} takes every {name} on the table at once{can}"
                if rules.king_queen_take_all else f"a {name} takes one {name} at a time{can}")
    if rules.kids:
        return f"in kids' pasur a card takes a card of its own rank{can}"
    picked = cards_of(move.taken)
    faces = [c for c in picked if c.rank > 10 and not (rank == 11 and c.rank == 11)]
    if faces:
        return f"{format_cards(faces)} cannot be taken by a sum to 11{can}"
    own = rank if rank <= 10 else 0
    total = own + sum(c.rank for c in picked)
    if total != 11:
        sums = " + ".join(str(v) for v in ([own] if own else []) + [c.rank for c in picked])
        return f"{sums} = {total}, not 11{can}"
    return f"each set taken must make 11 with {card}; take one set at a time{can}"
