"""Playing cards: ranks, suits, packs, and their text forms.

Cards are interned: there is exactly one object per card, so ``is`` and ``==`` agree
and a card is as cheap to pass around as an int.  Engines keep sets of cards as
52-bit masks (``card.mask``); ``cards_of(mask)`` and ``mask_of(cards)`` convert.

>>> card = Card.parse("TD")
>>> card, card.rank, card.suit
(Card.parse('10♦'), 10, <Suit.DIAMONDS: 1>)
>>> str(card), card.ascii
('10♦', '10D')
>>> parse_cards("A♠ 2♣ 10d qh")
[Card.parse('A♠'), Card.parse('2♣'), Card.parse('10♦'), Card.parse('Q♥')]
>>> len(pack(52)), len(pack(36)), len(pack(24))
(52, 36, 24)
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable

__all__ = [
    "ACE",
    "CARDS",
    "JACK",
    "KING",
    "QUEEN",
    "Card",
    "CardError",
    "Suit",
    "cards_of",
    "format_cards",
    "mask_of",
    "pack",
    "parse_cards",
]

ACE, JACK, QUEEN, KING = 1, 11, 12, 13
RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}


class Suit(enum.IntEnum):
    """The four suits, in bridge order; the value is the low part of a card's index."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self]

    @property
    def letter(self) -> str:
        return "CDHS"[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    def __str__(self) -> str:
        return self.symbol

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Accept a symbol (♣ or ♧), a letter (c) or a name (clubs)."""
        key = text.strip().lower()
        suit = _SUIT_WORDS.get(key)
        if suit is None:
            raise CardError(f"{text!r} is not a suit: use ♣ ♦ ♥ ♠ or C D H S")
        return suit


_SUIT_WORDS: dict[str, Suit] = {}
for _suit in Suit:
    for _word in (_suit.symbol, _suit.letter.lower(), _suit.name.lower()):
        _SUIT_WORDS[_word] = _suit
for _word, _suit in (("♧", Suit.CLUBS), ("♢", Suit.DIAMONDS), ("♡", Suit.HEARTS),
                     ("♤", Suit.SPADES), ("\u2666\ufe0f", Suit.DIAMONDS),
                     ("\u2665\ufe0f", Suit.HEARTS), ("\u2663\ufe0f", Suit.CLUBS),
                     ("\u2660\ufe0f", Suit.SPADES)):
    _SUIT_WORDS[_word] = _suit


class CardError(ValueError):
    """A text that does not name a card (or a suit), with the reason why."""


class Card:
    """One playing card.  ``rank`` is 1..13 (A=1, J=11, Q=12, K=13).

    Cards order by rank, then suit, which is also the order of their indexes.
    """

    __slots__ = ("ascii", "index", "mask", "rank", "suit", "text")

    rank: int
    suit: Suit
    index: int
    mask: int
    text: str
    ascii: str

    def __new__(cls, rank: int, suit: Suit | int) -> Card:
        if isinstance(rank, int) and isinstance(suit, int) and 1 <= rank <= 13 and 0 <= suit <= 3:
            return CARDS[(rank - 1) * 4 + suit]
        raise CardError(f"no card has rank {rank!r} and suit {suit!r}: "
                        "ranks are 1..13 (A=1, J=11, Q=12, K=13), suits are Suit members")

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[int, int]]:
        return (Card, (self.rank, int(self.suit)))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Card:
        return self

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card.parse({self.text!r})"

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        return self is other

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __le__(self, other: Card) -> bool:
        return self.index <= other.index

    def __gt__(self, other: Card) -> bool:
        return self.index > other.index

    def __ge__(self, other: Card) -> bool:
        return self.index >= other.index

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``10♦``, ``10D``, ``TD``, ``td``, ``A♠``, ``as``, ``QH`` and the like."""
        if not isinstance(text, str):
            raise CardError(f"{text!r} is not a card: expected text such as 10♦ or TD")
        card = _PARSED.get(text)
        if card is not None:
            return card
        match = _CARD_RE.fullmatch(text.strip())
        if not match:
            raise CardError(
                f"{text!r} is not a card: write a rank (A 2-10 J Q K, or T for 10) "
                "and a suit (♣ ♦ ♥ ♠ or C D H S), e.g. 10♦ or TD"
            )
        rank_text, suit_text = match.groups()
        rank = _RANK_WORDS.get(rank_text.upper())
        if rank is None:
            raise CardError(f"{text!r} is not a card: {rank_text!r} is not a rank "
                            "(A 2 3 4 5 6 7 8 9 10 J Q K, or T for 10)")
        suit = _SUIT_WORDS.get(suit_text.lower())
        if suit is None:
            raise CardError(f"{text!r} is not a card: {suit_text!r} is not a suit "
                            "(♣ ♦ ♥ ♠ or C D H S)")
        return CARDS[(rank - 1) * 4 + suit]


def _build(rank: int, suit: Suit) -> Card:
    card = object.__new__(Card)
    name = RANK_NAMES.get(rank, str(rank))
    for attr, value in (("rank", rank), ("suit", suit), ("index", (rank - 1) * 4 + suit),
                        ("mask", 1 << ((rank - 1) * 4 + suit)), ("text", name + suit.symbol),
                        ("ascii", name + suit.letter)):
        object.__setattr__(card, attr, value)
    return card


CARDS: tuple[Card, ...] = tuple(_build(rank, suit) for rank in range(1, 14) for suit in Suit)
"""Every card, indexed by ``card.index``."""

_RANK_WORDS = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13, "1": None}
_RANK_WORDS.update({str(n): n for n in range(2, 11)})
_RANK_WORDS = {k: v for k, v in _RANK_WORDS.items() if v is not None}
_CARD_RE = re.compile(r"([0-9]{1,2}|[A-Za-z])\s*([^\sA-Za-z0-9]+|[A-Za-z])")
_PARSED = {form: card for card in CARDS
           for form in (card.text, card.ascii, card.ascii.lower(),
                        card.ascii.replace("10", "T"), card.ascii.replace("10", "t").lower())}


def parse_cards(text: str) -> list[Card]:
    """Read a list of cards separated by spaces or commas."""
    return [Card.parse(word) for word in re.split(r"[\s,]+", text.strip()) if word]


def format_cards(cards: Iterable[Card]) -> str:
    """The text form of several cards, separated by spaces."""
    return " ".join(card.text for card in cards)


def pack(size: int = 52) -> list[Card]:
    """A fresh pack in index order: 52 cards (2..A), 36 (6..A) or 24 (9..A)."""
    lowest = {52: 2, 36: 6, 32: 7, 24: 9}.get(size)
    if lowest is None:
        raise ValueError(f"no pack of {size} cards: choose 52, 36, 32 or 24")
    return [card for card in CARDS if card.rank == ACE or card.rank >= lowest]


def mask_of(cards: Iterable[Card]) -> int:
    """The bit mask of a set of cards."""
    mask = 0
    for card in cards:
        mask |= card.mask
    return mask


def cards_of(mask: int) -> list[Card]:
    """The cards in a mask, lowest index first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return out
