"""A hand of Pasur on the compiled core: the hot half in C, the cold half the pure engine's.

``_core.HandCore`` (``_core.c``) holds a hand's state as card masks in one C struct, deals
it from a deal order, lists the legal moves (the pure engine's interned ``Move`` objects,
in its order) and plays and undoes them.  ``Hand`` here adds everything else by borrowing
the pure engine's own code (``hand.py``): views, scores, outcomes, reading a move's text,
saying why a move is refused and determinizing all read the core's fields under the pure
engine's names, so both engines answer alike.  ``cardtable.pasur.Hand`` is this class
where the core was built and says it is complete (``cardtable._engine.load_core``), else
the pure one; ``tests/pasur/test_pasur_compiled.py`` holds the two to each other.

Importing this module needs the built core (``ImportError`` where it was not built).

>>> from cardtable.pasur import PRESETS
>>> hand, pure = Hand.new(seed=7), PureHand.new(seed=7)
>>> while not hand.is_over():
...     assert hand.legal_moves() == pure.legal_moves()
...     hand.push(hand.legal_moves()[0]); pure.push(pure.legal_moves()[0])
>>> hand.outcome() == pure.outcome()
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from ..cards import Card
from ..game import make_rng
from . import _core
from ._setup import SETUPS, Setup
from .deal import fix_opening
from .hand import Hand as PureHand
from .moves import Move, move_of
from .rules import PRESETS, Rules

__all__ = ["Hand"]

_core.bind_hand(move_of)

_PURE_NEW: Any = PureHand.new.__func__  # type: ignore[attr-defined]
_PURE_FROM_POSITION: Any = PureHand.from_position.__func__  # type: ignore[attr-defined]
_PURE_BLANK: Any = PureHand._blank.__func__  # type: ignore[attr-defined]


class Hand(_core.HandCore):
    """A hand of Pasur on the compiled core: the pure ``Hand``'s interface, with the deal
    and the moves made in C.  Start one with ``Hand.new`` or ``Hand.from_position``."""

    __slots__ = ()

    def __init__(self) -> None:
        raise TypeError("start a hand with Hand.new(rules, ...) or Hand.from_position(...)")

    _blank: Any = classmethod(_PURE_BLANK)
    from_position: Any = classmethod(_PURE_FROM_POSITION)
    from_masks: Any = classmethod(PureHand.from_masks.__func__)  # type: ignore[attr-defined]

    @classmethod
    def _fresh(cls, setup: Setup, players: int) -> Hand:
        self = _core.HandCore.__new__(cls)
        self._bind(setup)
        return self

    @classmethod
    def new(cls, rules: Rules = PRESETS["standard"], *, players: int = 2,
            seed: int | random.Random | None = None, deck: Iterable[Card] | None = None,
            leader: int = 0, totals: Sequence[int] | None = None) -> Hand:
        """Deal a new hand: the pure ``Hand.new``, with the shuffle and the deal in C (the
        same draws from the same generator, so the same hand)."""
        if deck is not None:
            hand: Hand = _PURE_NEW(cls, rules, players=players, seed=seed, deck=deck,
                                   leader=leader, totals=totals)
            return hand
        self: Hand = cls._blank(rules, players, leader, totals)
        rng = make_rng(seed)
        order = _core.shuffled(rng, type(rng) is random.Random)
        if not self._deal(order, SETUPS[id(rules) << 3 | players].opening):
            # (the opening-table rule may change this deal: a jack, or a face that redeals)
            self._deal(bytes(fix_opening(list(order), players, rules, rng)), 0)
        return self

    def history(self) -> list[tuple[int, Move, bool]]:
        """(seat, move, whether it was a sur) for every move played this hand."""
        return list(self._history) + self._stack()

    @property
    def move_stack(self) -> list[Move]:
        """Every move played this hand, in order."""
        return [entry[1] for entry in self._history] + [entry[1] for entry in self._stack()]

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as the core's state in bytes (a bot worker process gets the hand so):
        unpickled by the same build, undo history and all."""
        return (_unpickled, (type(self), self._getstate()))

    # The cold half: the pure engine's own code, reading the core's fields.
    side_of = PureHand.side_of
    hands = PureHand.hands
    table = PureHand.table
    captured = PureHand.captured
    _slot = PureHand._slot
    stock = PureHand.stock
    _dealt = PureHand._dealt
    deck = PureHand.deck
    totals = PureHand.totals
    swept = PureHand.swept
    score = PureHand.score
    score_sheet = PureHand.score_sheet
    outcome = PureHand.outcome
    view = PureHand.view
    determinize = PureHand.determinize
    parse_move = PureHand.parse_move
    _vet = PureHand._vet
    __repr__ = PureHand.__repr__


def _unpickled(cls: type[Hand], state: tuple[Any, ...]) -> Hand:
    hand = _core.HandCore.__new__(cls)
    hand._setstate(state)
    return hand
