"""Durak's fixed facts, computed once at import: the phases, what beats what, and every
move by the cards it uses.

Card sets are 52-bit masks (``card.mask``); the four cards of a rank are four adjacent
bits, so the cards of one rank in a hand are a 4-bit group and the moves that use some of
them are a table look-up, never a search.  ``game.py`` reads these tables on its hot path.

>>> from cardtable.cards import Card
>>> [str(m) for m in attacks(Card.parse("9♣").mask | Card.parse("9♦").mask, room=6)]
['attack 9♣', 'attack 9♦', 'attack 9♣ 9♦']
>>> [str(m) for m in attacks(Card.parse("9♣").mask | Card.parse("9♦").mask, room=1)]
['attack 9♣', 'attack 9♦']
>>> from cardtable.cards import Suit, cards_of
>>> [str(c) for c in cards_of(BEATERS[Suit.SPADES][Card.parse("Q♣").index])]
['A♣', 'A♠', '2♠', '3♠', '4♠', '5♠', '6♠', '7♠', '8♠', '9♠', '10♠', 'J♠', 'Q♠', 'K♣', 'K♠']
"""

from __future__ import annotations

from functools import cache
from operator import attrgetter
from typing import cast

from ..cards import CARDS, Card, Suit, pack
from .moves import Move, MoveKind

__all__ = [
    "ATTACKS_OF", "BEATERS", "DEFENCES", "DEFEND", "EXCHANGES", "GROUP", "LEAD", "MASK",
    "NOT_ACES", "OVER", "PASS", "PHASES", "RANK_SHIFT", "SHOWS", "STRENGTH", "SUIT_MASK",
    "TAKE", "TAKING", "THROW", "TRANSFERS_OF", "Seating", "attacks", "pack_facts", "seating",
    "strength",
]

LEAD, DEFEND, THROW, TAKING, OVER = range(5)
"""The phases as the engine keeps them: small ints, compared on every move."""
PHASES = ("lead", "defend", "throw-in", "taking", "over")
"""The phase names ``view()`` and ``phase`` use, indexed by the internal phase number."""


def strength(card: Card) -> int:
    """A card's place in its suit in Durak: 2..10, J=11, Q=12, K=13, A=14."""
    return 14 if card.rank == 1 else card.rank


# -- cards ---------------------------------------------------------------------------------
STRENGTH = tuple(strength(card) for card in CARDS)
"""``strength`` by ``card.index``."""
MASK = attrgetter("mask")
NOT_ACES = sum(c.mask for c in CARDS if c.rank != 1)
SUIT_MASK = tuple(sum(c.mask for c in CARDS if c.suit == s) for s in Suit)
_HIGHER = tuple(sum(o.mask for o in CARDS if o.suit == c.suit and STRENGTH[o.index]
                    > STRENGTH[c.index]) for c in CARDS)
BEATERS = tuple(tuple(_HIGHER[c.index] | (SUIT_MASK[t] if c.suit != t else 0) for c in CARDS)
                for t in Suit)
"""``BEATERS[trump][card.index]``: every card that beats ``card`` (a mask)."""
RANK_SHIFT = tuple((c.rank - 1) * 4 for c in CARDS)
"""The bit where a card's rank group starts, by ``card.index``."""
GROUP = tuple(15 << (4 * r) for r in range(13))
"""The four cards of a rank, by rank - 1."""


# -- moves ---------------------------------------------------------------------------------
_SUBSETS = tuple(sorted(((sub, sub.bit_count()) for sub in range(1, 16) if sub & g == sub),
                        key=lambda item: (item[1], item[0])) for g in range(16))
"""Non-empty subsets of a 4-bit suit group, fewest cards first."""

ByRoom = tuple[tuple[Move, ...], ...]
"""Moves by ``room``: ``[room]`` holds the moves that use at most ``room`` cards."""


def _moves_by_group(kind: MoveKind) -> tuple[dict[int, Move], ...]:
    """``[rank - 1][subset]``: the move of ``kind`` with the cards of a 4-bit subset."""
    return tuple({sub: Move(kind, [CARDS[4 * r + s] for s in range(4) if sub >> s & 1])
                  for sub in range(1, 16)} for r in range(13))


def _lists_by_room(by_group: tuple[dict[int, Move], ...]) -> tuple[tuple[ByRoom, ...], ...]:
    """``[rank - 1][group][room]``: the moves of that rank using at most ``room`` cards."""
    return tuple(tuple(tuple(tuple(row[sub] for sub, count in _SUBSETS[group] if count <= room)
                             for room in range(7)) for group in range(16)) for row in by_group)


_ATTACKS = _lists_by_room(_moves_by_group(MoveKind.ATTACK))
_TRANSFERS = _lists_by_room(_moves_by_group(MoveKind.TRANSFER))
ATTACKS_OF: dict[int, ByRoom] = {group << (4 * r): _ATTACKS[r][group]
                                 for r in range(13) for group in range(1, 16)}
"""The attacks with some cards of one rank (a mask), by room: ``[mask][room]``."""
TRANSFERS_OF: dict[int, ByRoom] = {group << (4 * r): _TRANSFERS[r][group]
                                   for r in range(13) for group in range(1, 16)}
"""The transfers with some cards of one rank (a mask), by room: ``[mask][room]``."""

_BY_BYTE = tuple(tuple(tuple(_ATTACKS[2 * k][byte & 15][room]
                             + (_ATTACKS[2 * k + 1][byte >> 4][room] if k < 6 else ())
                             for byte in range(256)) for k in range(7)) for room in range(7))
"""``_BY_BYTE[room][k][byte]``: the attacks with the cards of ``byte``, the ``k``-th byte of
a mask (the ranks ``2k`` and ``2k + 1``, counted from 0), using at most ``room`` cards: the
moves of a whole hand are seven lookups with no loop (``attacks``)."""


def attacks(mask: int, room: int) -> list[Move]:
    """Every attack with cards of ``mask`` (of one rank a move), using at most ``room``."""
    b0, b1, b2, b3, b4, b5, b6 = mask.to_bytes(7, "little")
    t0, t1, t2, t3, t4, t5, t6 = _BY_BYTE[room]
    return [*t0[b0], *t1[b1], *t2[b2], *t3[b3], *t4[b4], *t5[b5], *t6[b6]]


SHOWS = tuple(Move(MoveKind.TRANSFER, [c], shown=True) for c in CARDS)
"""The passport transfer showing each card, by ``card.index``."""
EXCHANGES = tuple(Move(MoveKind.EXCHANGE, [c]) for c in CARDS)
DEFENCES = cast(tuple[tuple[Move, ...], ...],
                tuple(tuple(Move(MoveKind.DEFEND, [a, d]) if a is not d else None for d in CARDS)
                      for a in CARDS))
"""``DEFENCES[attack.index][beater.index]``.  The diagonal (a card beating itself) holds
``None`` and is never read: only cards of ``BEATERS`` are looked up."""
TAKE = Move(MoveKind.TAKE)
PASS = Move(MoveKind.PASS)


# -- per table -----------------------------------------------------------------------------
Seating = tuple[tuple[int, ...], tuple[tuple[tuple[int, ...], ...], ...]]
"""Each seat's team, and ``[start][skip]``: from seat ``start`` (or ``players``, the same
as 0) the seats in turn clockwise, but those in the mask ``skip``."""


@cache
def seating(players: int, teams: int) -> Seating:
    """The seating tables of ``players`` in ``teams`` teams (``team = seat % teams``)."""
    return (tuple(seat % teams for seat in range(players)),
            tuple(tuple(tuple(seat for seat in ((start + k) % players for k in range(players))
                              if not skip >> seat & 1) for skip in range(1 << players))
                  for start in range(players + 1)))


@cache
def pack_facts(size: int) -> tuple[tuple[Card, ...], int, int]:
    """A pack's cards in index order, their mask, and the lowest strength in it."""
    cards = tuple(pack(size))
    return cards, sum(c.mask for c in cards), min(STRENGTH[c.index] for c in cards)
