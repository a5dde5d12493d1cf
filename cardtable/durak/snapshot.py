"""What ``pop`` restores: a ``Snapshot`` of the fields a move may change.

The model is python-chess's ``_BoardState``: a small slotted record, saved by ``push``
(once a game has been undone; see ``Game.pop``) and put back by ``pop``.  Snapshots never
change, so copies of a game share them.  The fields only a round's end or a trump
exchange changes sit in a ``BetweenRounds`` record that every snapshot of the round
shares, which keeps a search's snapshots small; the game drops its saved one
(``_between``) whenever one of those fields changes.

>>> from cardtable.durak.game import Game
>>> game = Game.from_position(hands=["9♣ 7♦", "10♦ 6♠"], trump="♥", attacker=0)
>>> saved = Snapshot.save(game, None)   # what push saves, once the game has been undone
>>> game.push("attack 9♣")
>>> game.phase
'defend'
>>> saved.restore(game)   # what pop does, before it drops the move from the stack
>>> game.phase, game.hand(0)
('lead', (Card.parse('7♦'), Card.parse('9♣')))
"""

from __future__ import annotations

from typing import Protocol

from ..cards import Card
from .moves import Move

__all__ = ["BetweenRounds", "Fields", "Snapshot"]


class Fields(Protocol):
    """The fields of a game's ``State`` that a snapshot saves and puts back: described
    here, so that this module need not import ``state`` (which holds snapshots)."""

    _hands: list[int]
    _known: list[int]
    _stock: tuple[Card, ...]
    _prefix: tuple[int, ...]
    _drawn: int
    _trump_card: Card | None
    _discard: int
    _round: int
    _out: int
    _loser: int | None
    _phase: int
    _attacker: int
    _defender: int
    _orig: int
    _to_move: int
    _cap_now: int
    _att: tuple[Card, ...]
    _open: int
    _beats: tuple[tuple[Card, Card], ...]
    _tmask: int
    _tranks: int
    _limit: int
    _passed: int
    _shown: int
    _legal: list[Move] | None
    _between: BetweenRounds | None
    _moves: list[Move]


class BetweenRounds:
    """The fields that only a round's end (or a trump exchange) changes, saved once and
    shared by the snapshots of the moves in between: a search's snapshots stay small."""

    __slots__ = ("cap_now", "discard", "drawn", "loser", "orig", "out", "prefix", "round",
                 "stock", "trump_card")

    cap_now: int
    discard: int
    drawn: int
    loser: int | None
    orig: int
    out: int
    prefix: tuple[int, ...]
    round: int
    stock: tuple[Card, ...]
    trump_card: Card | None

    @classmethod
    def save(cls, game: Fields) -> BetweenRounds:
        """These fields of ``game`` now; ``game._between`` holds them until one changes."""
        saved = cls()
        saved.cap_now = game._cap_now
        saved.discard = game._discard
        saved.drawn = game._drawn
        saved.loser = game._loser
        saved.orig = game._orig
        saved.out = game._out
        saved.prefix = game._prefix
        saved.round = game._round
        saved.stock = game._stock
        saved.trump_card = game._trump_card
        game._between = saved
        return saved

    def restore(self, game: Fields) -> None:
        game._cap_now = self.cap_now
        game._discard = self.discard
        game._drawn = self.drawn
        game._loser = self.loser
        game._orig = self.orig
        game._out = self.out
        game._prefix = self.prefix
        game._round = self.round
        game._stock = self.stock
        game._trump_card = self.trump_card
        game._between = self


class Snapshot:
    """Everything ``push`` changes, saved so that ``pop`` can put it back (the model is
    python-chess's ``_BoardState``): the state after ``moves`` moves, with its legal moves
    if they were known.  Snapshots never change, so copies of a game share them."""

    __slots__ = ("att", "attacker", "beats", "between", "defender", "hands", "known", "legal",
                 "limit", "moves", "open", "passed", "phase", "shown", "tmask", "to_move",
                 "tranks")

    moves: int
    """How many moves had been played."""
    hands: tuple[int, ...]
    known: tuple[int, ...]
    phase: int
    attacker: int
    defender: int
    to_move: int
    att: tuple[Card, ...]
    open: int
    beats: tuple[tuple[Card, Card], ...]
    tmask: int
    tranks: int
    limit: int
    passed: int
    shown: int
    between: BetweenRounds
    legal: list[Move] | None

    @classmethod
    def save(cls, game: Fields, legal: list[Move] | None) -> Snapshot:
        """The state of ``game`` now (``legal``: its legal moves, if known)."""
        snapshot = cls()
        snapshot.moves = len(game._moves)
        snapshot.hands = tuple(game._hands)
        snapshot.known = tuple(game._known)
        snapshot.phase = game._phase
        snapshot.attacker = game._attacker
        snapshot.defender = game._defender
        snapshot.to_move = game._to_move
        snapshot.att = game._att
        snapshot.open = game._open
        snapshot.beats = game._beats
        snapshot.tmask = game._tmask
        snapshot.tranks = game._tranks
        snapshot.limit = game._limit
        snapshot.passed = game._passed
        snapshot.shown = game._shown
        between = game._between
        snapshot.between = BetweenRounds.save(game) if between is None else between
        snapshot.legal = legal
        return snapshot

    def restore(self, game: Fields) -> None:
        """Put ``game`` back in this state (``pop`` trims its moves)."""
        game._hands = list(self.hands)
        game._known = list(self.known)
        game._phase = self.phase
        game._attacker = self.attacker
        game._defender = self.defender
        game._to_move = self.to_move
        game._att = self.att
        game._open = self.open
        game._beats = self.beats
        game._tmask = self.tmask
        game._tranks = self.tranks
        game._limit = self.limit
        game._passed = self.passed
        game._shown = self.shown
        between = self.between
        if between is not game._between:   # else those fields have not changed since
            between.restore(game)
        game._legal = self.legal

