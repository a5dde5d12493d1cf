"""Durak moves: small interned values with a text form that round-trips, and reading a
move's text (in full, or a short form in the context of the legal moves).

There is exactly one object per move, so the engine keeps them in tables and compares
them by identity.

>>> move = Move.parse("attack 9c 9d")
>>> move.kind, move.cards
(<MoveKind.ATTACK: 'attack'>, (Card.parse('9♣'), Card.parse('9♦')))
>>> str(move)
'attack 9♣ 9♦'
>>> str(Move.parse("beat 9♣ J♣")), str(Move.parse("transfer show 9s")), str(Move.parse("TAKE"))
('defend 9♣ with J♣', 'transfer show 9♠', 'take')
>>> Move.parse(str(move)) is move
True
>>> Move.parse("attack 9♣ 10♦")
Traceback (most recent call last):
...
cardtable.game.InvalidMove: 'attack 9♣ 10♦' is not a move: the cards of one attack share one rank...
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Iterable, Sequence
from typing import ClassVar

from ..cards import CARDS, Card, CardError
from ..game import AmbiguousMove, InvalidMove

__all__ = ["Move", "MoveKind", "read_move", "split_move_text"]


class MoveKind(enum.StrEnum):
    """What a move does; compares equal to its text ("attack", "defend", ...)."""

    ATTACK = "attack"
    """A lead, or a throw-in: one card or several of one rank."""
    DEFEND = "defend"
    """The defender beats one attack card; ``cards`` is (attack card, beating card)."""
    TRANSFER = "transfer"
    """The defender passes the attack on with cards of its rank (or shows a trump)."""
    TAKE = "take"
    """The defender gives up and will take every card on the table."""
    PASS = "pass"
    """A thrower adds nothing (now)."""
    EXCHANGE = "exchange"
    """The lowest trump is swapped for the face-up trump card (an option)."""


_WORDS: dict[str, tuple[MoveKind, bool]] = {}
for _kind, _words in (
    (MoveKind.ATTACK, ("attack", "lead", "throw", "add", "throw-in", "throwin", "play")),
    (MoveKind.DEFEND, ("defend", "beat", "cover")),
    (MoveKind.TRANSFER, ("transfer", "pass-on")),
    (MoveKind.TAKE, ("take", "pickup", "pick-up")),
    (MoveKind.PASS, ("pass", "done", "bito")),
    (MoveKind.EXCHANGE, ("exchange", "swap")),
):
    for _word in _words:
        _WORDS[_word] = (_kind, False)
_WORDS["show"] = (MoveKind.TRANSFER, True)
_FILLER = {"with", "by", "using", "on", "up"}


class Move:
    """One Durak move: ``kind`` and ``cards`` (for a defence: attack card, beating card).

    ``shown`` marks a passport transfer: the trump is shown and stays in the hand.  Equal
    moves are the same object, so equality and hashing are by identity (and fast).
    """

    __slots__ = ("_group", "_hit", "_own", "_text", "cards", "kind", "mask", "shown")

    kind: MoveKind
    cards: tuple[Card, ...]
    shown: bool
    mask: int
    _text: str
    _own: int
    """For the engine: the cards that leave the hand (a mask; none for a passport)."""
    _hit: int
    """For the engine: the attack card a defence beats (a mask; else 0)."""
    _group: int
    """For the engine: the four cards of the rank the move puts on the table (a mask)."""

    _interned: ClassVar[dict[tuple[MoveKind, tuple[int, ...], bool], Move]] = {}

    def __new__(cls, kind: MoveKind | str, cards: Iterable[Card] = (), *,
                shown: bool = False) -> Move:
        try:
            kind = MoveKind(kind)
        except ValueError:
            raise InvalidMove(f"{kind!r} is not a kind of Durak move") from None
        cards = tuple(cards)
        if kind is not MoveKind.DEFEND:
            cards = tuple(sorted(set(cards)))
        key = (kind, tuple(card.index for card in cards), shown)
        move = cls._interned.get(key)
        if move is not None:
            return move
        _check_shape(kind, cards, shown)
        move = object.__new__(cls)
        mask = 0
        for card in cards:
            mask |= card.mask
        if kind is MoveKind.DEFEND:
            text = f"defend {cards[0]} with {cards[1]}"
        elif kind is MoveKind.TRANSFER and shown:
            text = f"transfer show {cards[0]}"
        else:
            text = " ".join([kind.value, *(card.text for card in cards)])
        own, hit = mask, 0
        if kind is MoveKind.DEFEND:
            own, hit = cards[1].mask, cards[0].mask
        elif shown or kind is MoveKind.TAKE or kind is MoveKind.PASS:
            own = 0
        group = 15 << (cards[-1].index & ~3) if cards else 0
        for attr, value in (("kind", kind), ("cards", cards), ("shown", shown), ("mask", mask),
                            ("_text", text), ("_own", own), ("_hit", hit), ("_group", group)):
            object.__setattr__(move, attr, value)
        cls._interned[key] = move
        return move

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("moves are immutable")

    def __reduce__(self) -> tuple[Callable[[str, tuple[int, ...], bool], Move],
                                  tuple[str, tuple[int, ...], bool]]:
        return (_rebuild, (self.kind.value, tuple(c.index for c in self.cards), self.shown))

    def __copy__(self) -> Move:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Move:
        return self

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Move.parse({self._text!r})"

    @property
    def card(self) -> Card:
        """The card that leaves the hand for a defence, else the first card."""
        return self.cards[-1] if self.kind is MoveKind.DEFEND else self.cards[0]

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read a move: ``attack 9♣ 9♦`` (or ``throw in 9♣ 9♦``), ``defend 9♣ with J♣`` (or
        ``beat 9c jc``), ``transfer 9♠``, ``transfer show 9♠``, ``take``, ``pass``,
        ``exchange 6♠``."""
        kind, shown, cards = split_move_text(text)
        if kind is None:
            raise InvalidMove(f"{text!r} is not a move: start with attack, defend, transfer, "
                            "take or pass (e.g. 'attack 9♣', 'defend 9♣ with J♣')")
        try:
            return cls(kind, cards, shown=shown)
        except InvalidMove as error:
            raise InvalidMove(f"{text!r} is not a move: {error}") from None


def split_move_text(text: str) -> tuple[MoveKind | None, bool, list[Card]]:
    """The keyword (if any), the passport mark and the cards of a move's text."""
    if not isinstance(text, str):
        raise InvalidMove(f"{text!r} is not a move: expected text such as 'attack 9♣'")
    words = [w for w in re.split(r"[\s,]+", text.strip().lower()) if w]
    if not words:
        raise InvalidMove("an empty text is not a move")
    kind: MoveKind | None = None
    shown = False
    if words[0] == "pick" and len(words) > 1 and words[1] == "up":
        words = ["take", *words[2:]]
    if words[0] == "throw" and len(words) > 1 and words[1] == "in":
        words = ["throw", *words[2:]]        # "throw in 7♦", as a throw-in is offered
    if words[0] in _WORDS:
        kind, shown = _WORDS[words.pop(0)]
        if words and words[0] == "show" and kind is MoveKind.TRANSFER:
            shown = True
            words.pop(0)
    cards = []
    for word in words:
        if word in _FILLER:
            continue
        try:
            cards.append(Card.parse(word))
        except CardError as error:
            raise InvalidMove(f"{text!r} is not a move: {error}") from None
    return kind, shown, cards


def _check_shape(kind: MoveKind, cards: tuple[Card, ...], shown: bool) -> None:
    if shown and kind is not MoveKind.TRANSFER:
        raise InvalidMove("only a transfer can be made by showing a card")
    if kind in (MoveKind.TAKE, MoveKind.PASS):
        if cards:
            raise InvalidMove(f"{kind.value} names no cards")
    elif kind is MoveKind.DEFEND:
        if len(cards) != 2:
            raise InvalidMove("a defence names the attack card and the card that beats it, "
                            "e.g. 'defend 9♣ with J♣'")
        if cards[0] is cards[1]:
            raise InvalidMove(f"{cards[0]} cannot beat itself")
    elif kind is MoveKind.EXCHANGE or shown:
        if len(cards) != 1:
            raise InvalidMove(f"{'a passport transfer' if shown else 'an exchange'} "
                            "names exactly one card")
    else:
        if not cards:
            raise InvalidMove(f"{kind.value} needs at least one card")
        if len({card.rank for card in cards}) != 1:
            raise InvalidMove(f"the cards of one {kind.value} share one rank, not "
                            + " ".join(card.text for card in cards))


def _rebuild(kind: str, indexes: tuple[int, ...], shown: bool) -> Move:
    return Move(kind, [CARDS[i] for i in indexes], shown=shown)


def read_move(text: str, legal: Sequence[Move]) -> Move | None:
    """The move ``text`` names: a full form names one move, legal or not (the game says
    why not); a short form (a bare ``9d``, ``beat J♣``, ``defend 9♣``) names the one legal
    move it fits, or ``None`` if none fits.

    Raises ``InvalidMove`` if the text is not a move and ``AmbiguousMove`` if a short form
    fits several legal moves.

    >>> legal = [Move.parse(t) for t in ("defend 9♣ with J♣", "defend 9♣ with Q♣", "take")]
    >>> read_move("Q♣", legal), read_move("pass", legal), read_move("K♣", legal)
    (Move.parse('defend 9♣ with Q♣'), Move.parse('pass'), None)
    >>> read_move("defend 9♣", legal)
    Traceback (most recent call last):
    ...
    cardtable.game.AmbiguousMove: 'defend 9♣' could mean defend 9♣ with J♣, defend 9♣ with Q♣: ...
    """
    kind, shown, cards = split_move_text(text)
    if kind is not None and not (kind is MoveKind.DEFEND and len(cards) < 2) and (
            cards or kind not in (MoveKind.ATTACK, MoveKind.TRANSFER, MoveKind.EXCHANGE)):
        return Move(kind, cards, shown=shown)   # a full form
    fits = [move for move in legal if _fits(move, kind, shown, cards)]
    if len(fits) > 1:
        raise AmbiguousMove(f"{text!r} could mean " + ", ".join(map(str, fits))
                            + ": say which")
    return fits[0] if fits else None


def _fits(move: Move, kind: MoveKind | None, shown: bool, cards: list[Card]) -> bool:
    """Whether a short text (keyword and/or some cards) describes ``move``."""
    if kind is not None and (move.kind is not kind or move.shown != shown):
        return False
    if not cards:
        return kind is not None
    if move.kind is MoveKind.DEFEND:
        if len(cards) == 2:
            return tuple(cards) == move.cards
        return len(cards) == 1 and (cards[0] is move.cards[1]
                                    or (kind is MoveKind.DEFEND and cards[0] is move.cards[0]))
    return set(cards) == set(move.cards)
