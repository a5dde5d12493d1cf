"""Why a move is not legal now, in words a player understands.

The engine finds legal moves by table look-ups and never asks why a move is missing; this
module answers that question only when a move is refused, by reading the game's state
(it changes nothing).

>>> from cardtable.durak import Game, Move
>>> game = Game.from_position(hands=["9♣ 7♦", "10♦ 6♠"], trump="♥", attacker=0)
>>> why_illegal(game, Move.parse("defend 9♣ with 10♦"))
'seat 0 leads this round: attack with one card or several of one rank (there is nothing...'
>>> why_illegal(game, Move.parse("attack 10♦"))
'seat 0 does not hold 10♦'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import Suit, cards_of
from .moves import Move, MoveKind
from .tables import DEFEND, LEAD, OVER, RANK_SHIFT, STRENGTH, THROW

if TYPE_CHECKING:
    from .state import State

__all__ = ["why_illegal"]


def why_illegal(game: State, move: Move) -> str:
    """Why ``move`` is not legal now (``move`` is known not to be among the legal moves)."""
    if game._phase == OVER:
        return "the game is over"
    seat, phase, kind = game._to_move, game._phase, move.kind
    hand = game._hands[seat]
    defender = game._defender
    trump = Suit(game._trump)
    missing = move.mask & ~hand
    if kind is MoveKind.EXCHANGE:
        if not game.rules.trump_six_exchange:
            return "the trump-six exchange is not played under these rules"
        card = move.cards[0]
        if card.suit != trump or STRENGTH[card.index] != game._lowest:
            return f"only the lowest trump can be exchanged, not {card}"
        if missing:
            return f"seat {seat} does not hold {card}"
        return ("the face-up trump card can no longer be exchanged: it is the last card "
                "of the stock")
    if phase == LEAD:
        if kind is not MoveKind.ATTACK:
            return (f"seat {seat} leads this round: attack with one card or several of "
                    f"one rank (there is nothing to {kind.value} yet)")
        if missing:
            return f"seat {seat} does not hold {_text(missing)}"
        count = len(move.cards)
        held = game._hands[defender].bit_count()
        if count > held:
            return (f"the attack would be {count} cards but seat {defender} holds "
                    f"only {held}")
        return f"the attack would be {count} cards; the limit this round is {game._cap_now}"
    if phase == DEFEND:
        if kind is MoveKind.ATTACK or kind is MoveKind.PASS:
            return (f"seat {defender} must beat, transfer or take now; cards can be "
                    "added once every attack card is beaten or the defender takes")
        if kind is MoveKind.DEFEND:
            attack, beater = move.cards
            if attack not in game._att:
                return f"{attack} is not an attack card on the table"
            beaten = dict(game._beats).get(attack)
            if beaten is not None:
                return f"{attack} is already beaten by {beaten}"
            if beater.mask & ~hand:
                return f"seat {seat} does not hold {beater}"
            if attack.suit == trump and beater.suit != trump:
                return (f"{beater} does not beat {attack}: a trump is beaten only by a "
                        f"higher trump (trump is {trump})")
            if beater.suit == attack.suit:
                return f"{beater} does not beat {attack}: it is lower"
            return f"{beater} does not beat {attack}: trump is {trump}"
        return _why_no_transfer(game, move, seat, hand)
    # THROW or TAKING
    if kind is not MoveKind.ATTACK:
        if phase == THROW:
            return f"every attack card is beaten: seat {seat} may add cards or pass"
        return f"seat {defender} takes: seat {seat} may add cards or pass"
    if missing:
        return f"seat {seat} does not hold {_text(missing)}"
    if not move.mask & game._tranks:
        ranks = sorted({STRENGTH[c.index] for c in cards_of(game._tmask)})
        names = ", ".join(_rank_name(1 if r == 14 else r) for r in ranks)
        return (f"{move.cards[0]} cannot be added: only ranks on the table ({names}) "
                "may be added")
    return (f"the attack would be {len(game._att) + len(move.cards)} cards; the limit "
            f"this round is {game._limit}")


def _why_no_transfer(game: State, move: Move, seat: int, hand: int) -> str:
    rules = game.rules
    if move.shown and not rules.passport:
        return ("a transfer by showing a trump (passport) is not played under these "
                "rules: play the card")
    if game._round == 1 and not rules.first_round_transfer:
        return "you cannot transfer in the first round under these rules"
    rank = game._transfer_rank()
    if rank < 0:
        if not rules.late_transfer or not game._open:
            return "you cannot transfer: an attack card is already beaten"
        return "you cannot transfer: the unbeaten attack cards are not all of one rank"
    name = _rank_name(rank + 1)
    if any(RANK_SHIFT[c.index] >> 2 != rank for c in move.cards):
        return f"you cannot transfer with {move.cards[0]}: the attack is of {name}s"
    missing = move.mask & ~hand
    if missing:
        return f"seat {seat} does not hold {_text(missing)}"
    if move.shown:
        card = move.cards[0]
        if card.suit != game._trump:
            return f"{card} is not a trump: only a trump can be shown to transfer"
        if game._shown & card.mask:
            return f"{card} was already shown this round"
    nd = game._defender_after(seat)
    if nd is None:
        return "you cannot transfer: no one can take over the defence"
    faced = game._open.bit_count() + (0 if move.shown else len(move.cards))
    total = len(game._att) + (0 if move.shown else len(move.cards))
    held = game._hands[nd].bit_count()
    if faced > held:
        return (f"you cannot transfer: seat {nd} holds {held} "
                f"card{'s' if held != 1 else ''} and the attack would be {faced}")
    return (f"you cannot transfer: the attack would be {total} cards and the limit this "
            f"round is {game._cap_now}")


def _text(mask: int) -> str:
    return " ".join(c.text for c in cards_of(mask))


def _rank_name(rank: int) -> str:
    return {1: "ace", 11: "jack", 12: "queen", 13: "king"}.get(rank, str(rank))
