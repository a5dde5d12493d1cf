"""A Pasur move: a card played, and the table cards it takes.

A move is a small immutable value: it compares, hashes and sorts by value (card, then
the cards taken) and reads and prints its own text.  Moves are interned, so the engine
hands out one object per (card, cards taken) and most comparisons stop at identity.

>>> move = Move.parse("7c x 4d 2s")
>>> move
Move.parse('7♣ x 2♠ 4♦')
>>> move.card, sorted(move.captured), move.is_capture
(Card.parse('7♣'), [Card.parse('2♠'), Card.parse('4♦')], True)
>>> from cardtable.cards import parse_cards
>>> Move(Card.parse("7♣"), parse_cards("2♠ 4♦")) is move
True
>>> Move.parse("7c") < move
True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NoReturn

from ..cards import CARDS, Card, CardError, cards_of, format_cards, mask_of
from ..game import InvalidMove

__all__ = ["Move", "move_of"]

_USAGE = "write a card, or a card, 'x' and the cards it takes, e.g. 7♣ x 4♦"


class _Fields:
    """A move's fields, writable: a move is made as these and then becomes a ``Move``,
    whose fields are read-only (cheaper than writing each through ``object.__setattr__``,
    and the engine makes moves often)."""

    __slots__ = ("bit", "index", "taken")

    index: int
    taken: int
    bit: int


class Move(_Fields):
    """One play: a card from the hand, and the table cards it takes (none: it stays).

    ``index`` is the card's index (``card.index``), ``taken`` the mask of the cards taken
    and ``bit`` the card's own mask: the engine works on these ints.  ``str(move)`` is
    ``7♣`` for a card left on the table and ``7♣ x 2♠ 4♦`` for a capture (taken cards in
    card order); ``Move.parse`` reads both, in ASCII too.
    """

    __slots__ = ()

    def __new__(cls, card: Card, captured: Iterable[Card] = ()) -> Move:
        if not isinstance(card, Card):
            raise TypeError(f"a move plays a Card, not {card!r}")
        taken = mask_of(captured)
        if taken & card.mask:
            raise ValueError(f"{card} cannot take itself")
        return move_of(card.index, taken)

    # -- a value: immutable, compared, hashed and sorted by (card, taken) ----------------

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError("moves are immutable")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError("moves are immutable")

    def __eq__(self, other: object) -> bool:
        # (Interned: equal moves are almost always one object, and containers look at
        # identity first.  A tuple with a move's numbers is not a move.)
        if type(other) is Move:
            return self.index == other.index and self.taken == other.taken
        return NotImplemented

    def __hash__(self) -> int:
        # As the named tuple a move once was: sets of moves iterate as they did.
        return hash((self.index, self.taken, self.bit))

    def __lt__(self, other: Move) -> bool:
        if type(other) is not Move:
            return NotImplemented
        return (self.index, self.taken) < (other.index, other.taken)

    def __le__(self, other: Move) -> bool:
        if type(other) is not Move:
            return NotImplemented
        return (self.index, self.taken) <= (other.index, other.taken)

    def __gt__(self, other: Move) -> bool:
        if type(other) is not Move:
            return NotImplemented
        return (self.index, self.taken) > (other.index, other.taken)

    def __ge__(self, other: Move) -> bool:
        if type(other) is not Move:
            return NotImplemented
        return (self.index, self.taken) >= (other.index, other.taken)

    def __reduce__(self) -> tuple[Any, ...]:
        return (move_of, (self.index, self.taken))

    def __copy__(self) -> Move:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Move:
        return self

    # -- what it is ------------------------------------------------------------------------

    @property
    def card(self) -> Card:
        """The card played."""
        return CARDS[self.index]

    @property
    def captured(self) -> frozenset[Card]:
        """The table cards taken (empty: the card stays on the table)."""
        return frozenset(cards_of(self.taken))

    @property
    def is_capture(self) -> bool:
        return self.taken != 0

    @property
    def text(self) -> str:
        card = CARDS[self.index].text
        return card + " x " + format_cards(cards_of(self.taken)) if self.taken else card

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Move.parse({self.text!r})"

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read ``7♣``, ``7♣ x 4♦ 2♠``, ``7c x 4d 2s``, ``TD x AS`` or ``jh``.

        This reads the text alone (``InvalidMove`` if it is no move at all);
        ``Hand.parse_move`` also checks it against the hand and turns a bare card into
        the capture it must make.
        """
        if not isinstance(text, str):
            raise InvalidMove(f"{text!r} is not a move: {_USAGE}")
        head, sep, tail = text.strip().replace("×", "x").replace("X", "x").partition("x")
        try:
            card = Card.parse(head.strip())
            taken = [Card.parse(word) for word in tail.replace(",", " ").split()]
        except CardError as error:
            raise InvalidMove(f"{text!r} is not a move: {error}") from None
        if sep and not taken:
            raise InvalidMove(f"{text!r} is not a move: name the cards after 'x', "
                              f"or write just {card} to leave it on the table")
        taken_mask = mask_of(taken)
        if len(taken) != taken_mask.bit_count():
            raise InvalidMove(f"{text!r} is not a move: a card is named twice")
        if taken_mask & card.mask:
            raise InvalidMove(f"{text!r} is not a move: {card} cannot take itself")
        return move_of(card.index, taken_mask)


_MOVES: dict[int, Move] = {}
"""The interned moves of every card but the jacks, by ``taken << 6 | index``."""
_JACK_MOVES: tuple[dict[int, Move], ...] = ({}, {}, {}, {})
"""The interned moves of each jack, by the mask taken (a sweeping jack makes many)."""
_MOVES_KEPT = 100_000
_JACK_MOVES_KEPT = 50_000
"""How many moves each memory keeps before it forgets them all (the engine's option
memories keep their own moves alive, and equality does not rest on identity)."""
_new = object.__new__


def move_of(index: int, taken: int) -> Move:
    """The interned move of the card with index ``index`` taking the cards of mask
    ``taken`` (unchecked: the caller knows the card does not take itself)."""
    if 40 <= index < 44:
        moves = _JACK_MOVES[index - 40]
        return moves.get(taken) or _intern(moves, taken, _JACK_MOVES_KEPT, index, taken)
    key = taken << 6 | index
    return _MOVES.get(key) or _intern(_MOVES, key, _MOVES_KEPT, index, taken)


def _intern(memory: dict[int, Move], key: int, limit: int, index: int, taken: int) -> Move:
    """Make a move and keep it under ``key``, forgetting them all once ``limit`` are kept."""
    if len(memory) >= limit:
        memory.clear()
    fields: Any = _new(_Fields)
    fields.index = index
    fields.taken = taken
    fields.bit = 1 << index
    fields.__class__ = Move
    move: Move = fields
    memory[key] = move
    return move

