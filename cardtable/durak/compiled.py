"""Transfer Durak on the compiled core: the hot half in C, the cold half the pure engine's.

``_core.Core`` (``_core.c``) holds a game's state as card masks in one C struct and makes
the moves: ``legal_moves``, ``push``, ``pop``, ``copy`` and playouts to the end.  ``Game``
here adds everything else by borrowing the pure engine's own code (``state.py``,
``game.py``): views, outcomes, dealing, reading a move's text and saying why a move is
refused all read the core's fields under the pure engine's names, so both engines answer
with the same words.  ``cardtable.durak.Game`` is this class where the core was built and
says it is complete (``cardtable._engine.load_core``), else the pure one.

Importing this module needs the built core (``ImportError`` where it was not built).

>>> from cardtable.durak import Rules
>>> game = Game.new(Rules(), players=3, seed=7)
>>> while not game.is_over():
...     game.push(game.legal_moves()[0])
>>> game.outcome().returns
(0.5, -1.0, 0.5)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, cast

from ..cards import CARDS, Card
from ..game import InvalidMove
from . import _core, evaluation
from .deal import Deal
from .game import Game as PureGame
from .game import deal_unseen
from .moves import Move, MoveKind
from .state import State
from .tables import DEFENCES, EXCHANGES, PASS, SHOWS, TAKE, pack_facts

__all__ = ["MOVES", "Game"]


def _numbered() -> tuple[Move | None, ...]:
    """Every move by the number the core (and the research adapters) give it."""
    moves: list[Move | None] = [TAKE, PASS]
    for kind in (MoveKind.ATTACK, MoveKind.TRANSFER):
        moves += [Move(kind, [CARDS[4 * rank + suit] for suit in range(4) if suits >> suit & 1])
                  for rank in range(13) for suits in range(1, 16)]
    moves += SHOWS
    moves += EXCHANGES
    moves += [DEFENCES[a][d] if a != d else None for a in range(52) for d in range(52)]
    return tuple(moves)


MOVES = _numbered()
"""The pure engine's Move objects by the core's move numbers (``None``: no such move)."""
_core.bind(tuple(CARDS), MOVES)
_core.weights(tuple(evaluation.weights()[name] for name in evaluation.FEATURES))


_PURE_NEW: Callable[..., Any] = PureGame.new.__func__  # type: ignore[attr-defined]
_PURE_FROM_POSITION: Callable[..., Any] = PureGame.from_position.__func__  # type: ignore[attr-defined]


class Game(_core.Core):
    """One game of Transfer Durak on the compiled core: the pure ``Game``'s interface,
    with the moves made in C.  Build one with ``Game.new`` or ``Game.from_position``."""

    __slots__ = ()

    new = classmethod(_PURE_NEW)
    from_position = classmethod(_PURE_FROM_POSITION)

    # The cold half: the pure engine's own code, reading the core's fields.
    trump = State.trump
    trump_card = State.trump_card
    stock = State.stock
    hands = State.hands
    hand = State.hand
    known_cards = State.known_cards
    attacker = State.attacker
    original_attacker = State.original_attacker
    defender = State.defender
    table = State.table
    discard = State.discard
    phase = State.phase
    round_number = State.round_number
    limit = State.limit
    out = State.out
    move_stack = State.move_stack
    teams = State.teams
    team_of = State.team_of
    loser = State.loser
    losing_team = State.losing_team
    is_draw = State.is_draw
    draw_reason = State.draw_reason
    outcome = State.outcome
    view = State.view
    __repr__ = State.__repr__
    _round_cap = State._round_cap
    _exchange_card = State._exchange_card
    parse_move = PureGame.parse_move

    @property
    def _pack(self) -> tuple[Card, ...]:
        return pack_facts(self.rules.pack_size)[0]

    def _setup(self, start: Deal, *, round_number: int) -> None:
        """The state before the first round (of a game, or of a position) starts."""
        self._start(list(start.hands), list(start.known), tuple(start.stock),
                    int(start.trump), start.trump_card, start.discard, start.leader,
                    round_number)

    def _refused(self, move: object, seat: object) -> Move:
        """What ``push`` does with anything but a legal ``Move`` and no seat: the pure
        engine's checks, which raise what it raises or return the legal move meant."""
        legal = self.legal_moves()
        if seat is not None or move not in legal:
            move = PureGame._checked(cast(PureGame, self), move, cast("int | None", seat), legal)
        try:
            move.kind  # noqa: B018 - the pure engine's check
        except AttributeError:
            raise InvalidMove(f"{move!r} is not a Durak move") from None
        return move

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as the core's state in bytes (a bot worker process gets the game so):
        unpickled by the same build, undo history and all."""
        return (_unpickled, (type(self), self.rules, self.players, self.deck, self.dealer,
                             self.previous_loser, self._getstate()))

    def _not_a_move(self, move: object) -> None:
        raise InvalidMove(f"{move!r} is not a Durak move")

    def determinize(self, seat: int, rng: random.Random) -> Game:
        """A full game consistent with what ``seat`` has seen (the pure engine's deal of
        the unseen cards, drawn from ``rng`` alike); it cannot undo past this point."""
        new_hands, stock = deal_unseen(cast(PureGame, self), seat, rng)
        other: Game = self.copy(stack=False)
        other.deck = None
        other._redeal(new_hands, stock)
        return other


def _unpickled(cls: type[Game], rules: Any, players: int, deck: Any, dealer: Any,
               previous_loser: Any, state: bytes) -> Game:
    game = cls(rules, players)
    game.deck, game.dealer, game.previous_loser = deck, dealer, previous_loser
    game._setstate(state)
    return game
