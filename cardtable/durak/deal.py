"""The start of a game: a pack dealt, or a position read card by card.

Both end in a ``Deal`` (the hands, the cards everyone knows to be in them, the stock and
who leads), from which ``Game`` starts its first round.  Everything a caller passes in is
checked here, with a reason a person understands.

>>> from cardtable.cards import cards_of, pack
>>> start = deal(pack(36), players=2, dealer=0, loser=None)
>>> [hand.bit_count() for hand in start.hands], len(start.stock), start.trump_card
([6, 6], 24, Card.parse('8♣'))
>>> start.leader, cards_of(start.known[1])   # the lowest trump, shown to lead
(1, [Card.parse('6♣')])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from ..cards import Card, Suit, parse_cards
from .rules import HAND_SIZE, Rules
from .tables import MASK, NOT_ACES, SUIT_MASK, pack_facts

__all__ = ["Deal", "deal", "first_dealer", "read_deck", "read_position"]


class Deal(NamedTuple):
    """A game's first state, before its first round starts."""

    hands: list[int]
    """Each seat's cards (a mask)."""
    known: list[int]
    """The cards everyone knows to be in each hand (a mask): a trump shown to lead, or
    the trump card a dealer keeps when the whole pack is dealt."""
    stock: tuple[Card, ...]
    """Top first; the last card is the face-up trump card."""
    trump: Suit
    trump_card: Card | None
    discard: int
    leader: int


def read_deck(deck: Sequence[Card | str], full: Sequence[Card]) -> list[Card]:
    """A deck given by the caller, checked to hold each card of the pack once."""
    order = [Card.parse(c) if isinstance(c, str) else c for c in deck]
    if len(order) != len(full) or set(order) != set(full):
        raise ValueError(f"the deck must hold each card of the {len(full)}-card pack "
                         f"exactly once (got {len(order)} cards)")
    return order


def first_dealer(players: int, dealer: int | None, loser: int | None) -> int:
    """Who deals: the last game's durak if there was one, else ``dealer`` (seat 0)."""
    for name, seat in (("dealer", dealer), ("loser", loser)):
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)
                                 or not 0 <= seat < players):
            raise ValueError(f"the {name} must be a seat from 0 to {players - 1}, "
                             f"not {seat!r}")
    if loser is not None:
        if dealer is not None and dealer != loser:
            raise ValueError(f"the loser of the last game (seat {loser}) deals, "
                             f"not seat {dealer}")
        return loser
    return 0 if dealer is None else dealer


def deal(order: Sequence[Card], *, players: int, dealer: int, loser: int | None) -> Deal:
    """Deal ``order`` from the front: six each clockwise from the dealer's left, then the
    trump card.  The last game's durak (``loser``) deals and their left neighbour leads;
    without one the holder of the lowest trump leads, showing it."""
    hands = [0] * players
    for i in range(players):   # each card its own bit: the sum of the masks is the hand
        hands[(dealer + 1 + i) % players] = sum(map(MASK, order[HAND_SIZE * i:
                                                                 HAND_SIZE * (i + 1)]))
    rest = order[HAND_SIZE * players:]
    known = [0] * players
    if rest:
        trump_card = rest[0]
        stock = (*rest[1:], rest[0])
    else:
        trump_card = order[HAND_SIZE * players - 1]   # the dealer's last card, kept
        known[dealer] |= trump_card.mask
        stock = ()
    trump = trump_card.suit
    if loser is not None:
        leader = (loser + 1) % players
    else:
        leader = (dealer + 1) % players
        held = sum(hands) & SUIT_MASK[trump]   # every trump dealt
        if held:
            lowest = held & NOT_ACES or held   # the ace is the highest
            lowest &= -lowest
            leader = next(seat for seat in range(players) if hands[seat] & lowest)
            known[leader] |= lowest   # shown to claim the lead
    return Deal(hands, known, stock, trump, trump_card, 0, leader)


def read_position(rules: Rules, *, hands: Sequence[Iterable[Card] | str],
                  trump: Suit | str, stock: Iterable[Card] | str, attacker: int,
                  discard: Iterable[Card] | str, round_number: int) -> Deal:
    """A round about to start, given card by card (see ``Game.from_position``)."""
    players = len(hands)
    trump = Suit.parse(trump) if isinstance(trump, str) else Suit(trump)
    full, pack_mask, _ = pack_facts(rules.pack_size)
    seen: set[Card] = set()

    def cards(value: Iterable[Card] | str, what: str) -> list[Card]:
        out = parse_cards(value) if isinstance(value, str) else list(value)
        for card in out:
            if not isinstance(card, Card):
                raise ValueError(f"{what}: {card!r} is not a card")
            if card not in full:
                raise ValueError(f"{what}: {card} is not in the {rules.pack_size}-card pack")
            if card in seen:
                raise ValueError(f"{what}: {card} appears twice in the position")
            seen.add(card)
        return out

    hand_masks = [sum(c.mask for c in cards(h, f"seat {i}'s hand"))
                  for i, h in enumerate(hands)]
    stock_cards = tuple(cards(stock, "the stock"))
    cards(discard, "the discard pile")
    if stock_cards and stock_cards[-1].suit != trump:
        raise ValueError(f"the last card of the stock ({stock_cards[-1]}) is the face-up "
                         f"trump card, so trump is {stock_cards[-1].suit}, not {trump}")
    if not isinstance(attacker, int) or not 0 <= attacker < players:
        raise ValueError(f"the attacker must be a seat from 0 to {players - 1}")
    if not hand_masks[attacker]:
        raise ValueError(f"seat {attacker} holds no cards and cannot attack")
    if not isinstance(round_number, int) or round_number < 1:
        raise ValueError("the round number counts from 1")
    discard_mask = pack_mask & ~(sum(hand_masks) | sum(c.mask for c in stock_cards))
    return Deal(hand_masks, [0] * players, stock_cards, trump,
                stock_cards[-1] if stock_cards else None, discard_mask, attacker)
