"""A match of Pasur: hands until a side wins, as the rules say.

A ``Match`` has the same move API as a ``Hand``: it moves straight on to the next hand
when one ends, and ``pop`` can undo back across a hand boundary.

>>> match = Match.new(PRESETS["standard"], seed=3)
>>> match.totals, match.winner, match.hand.leader
([0, 0], None, 0)
>>> import random
>>> rng = random.Random(0)
>>> while not match.is_over():
...     match.push(rng.choice(match.legal_moves()))
>>> max(match.totals) >= 62, match.winner in (0, 1)
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from ..cards import Card
from ..game import IllegalMove, Outcome, make_rng
from .engine import Hand
from .moves import Move
from .rules import PRESETS, Rules

__all__ = ["Match", "deals", "summary"]


class Match:
    """Hands of Pasur until one side wins, or the match is drawn: after ``max_hands`` hands
    with no winner, or at once when the rules score no point at all (``_draw``).

    Seat 0 leads the first hand and the lead passes to the next seat each hand (in every
    source the next dealer, and so the next leader, is the next player in turn order).
    """

    __slots__ = ("_decks", "_done", "_drawn", "_finished", "_hand", "_rng", "_totals", "_winner",
                 "players", "rules", "sides")

    rules: Rules
    players: int
    sides: int
    _rng: random.Random
    _decks: list[Sequence[Card]]
    """The deck of each hand dealt (or given) so far."""
    _finished: list[Hand]
    _hand: Hand
    _totals: list[int]
    _winner: int | None
    _drawn: str | None
    """Why the match ended without a winner (``DRAWN``), or ``None``."""
    _done: bool
    """The match is over: won or drawn."""

    def __init__(self) -> None:
        raise TypeError("start a match with Match.new(rules, ...)")

    @classmethod
    def new(cls, rules: Rules = PRESETS["standard"], *, players: int = 2,
            seed: int | random.Random | None = None,
            decks: Sequence[Iterable[Card]] | None = None) -> Match:
        """Start a match.  ``decks`` gives the explicit deck of each hand in turn; later
        hands are dealt from the match's generator ``make_rng(seed)``."""
        rules.check_players(players)
        self = object.__new__(cls)
        self.rules = rules
        self.players = players
        self.sides = rules.sides(players)
        self._rng = make_rng(seed)
        self._decks = [list(deck) for deck in decks or ()]
        self._finished = []
        self._totals = [0] * self.sides
        self._winner = None
        self._drawn = None
        self._done = False
        self._hand = self._deal(0)
        return self

    def _deal(self, number: int) -> Hand:
        """Deal hand ``number`` (from 0): its known deck if any, else the generator."""
        leader = number % self.players
        totals = tuple(self._totals)
        known = number < len(self._decks)
        if known:
            hand = Hand.new(self.rules, players=self.players, deck=self._decks[number],
                            leader=leader, totals=totals)
        else:
            hand = Hand.new(self.rules, players=self.players,
                            seed=self._rng.getrandbits(64), leader=leader, totals=totals)
        deck = hand.deck
        assert deck is not None   # (a dealt hand keeps its deck)
        if known:
            self._decks[number] = deck
        else:
            self._decks.append(deck)
        return hand

    def copy(self, *, stack: bool = True) -> Match:
        """An independent copy; without ``stack`` the moves of the hand in play cannot be
        undone on it (``Hand.copy``)."""
        other = object.__new__(Match)
        for name in Match.__slots__:
            setattr(other, name, getattr(self, name))
        other._rng = random.Random()
        other._rng.setstate(self._rng.getstate())
        other._decks = self._decks[:]
        other._finished = self._finished[:]
        other._totals = self._totals[:]
        other._hand = self._hand.copy(stack=stack)
        return other

    # -- playing ------------------------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        return None if self._done else self._hand._to_move

    def is_over(self) -> bool:
        return self._done

    def legal_moves(self) -> list[Move]:
        return [] if self._done else self._hand.legal_moves()

    def push(self, move: Move | str, *, seat: int | None = None) -> None:
        """Play a move in the current hand; a finished hand is scored and the next dealt."""
        if self._done:
            raise IllegalMove(self._over_text())
        hand = self._hand
        hand.push(move, seat=seat)
        if hand._to_move is None:
            self._finish(hand)

    def _finish(self, hand: Hand) -> None:
        for side, points in enumerate(hand.score()):
            self._totals[side] += points
        self._finished.append(hand)
        self._winner = self._decide()
        self._drawn = None if self._winner is not None else self._draw()
        self._done = self._winner is not None or self._drawn is not None
        if not self._done:
            self._hand = self._deal(len(self._finished))

    def _decide(self) -> int | None:
        """The winning side after a hand, or ``None`` to play on (ties play on)."""
        totals = self._totals
        best = max(totals)
        if totals.count(best) > 1:
            return None
        if self.rules.fixed_hands is not None:
            done = len(self._finished) >= self.rules.fixed_hands
        else:
            done = best >= self.rules.target
        return totals.index(best) if done else None

    def _draw(self) -> str | None:
        """Why the match ends drawn after a hand with no winner, or ``None`` to play on:
        the rules score no point at all, so nothing could ever change (after the fixed
        number of hands, if there is one), or ``max_hands`` hands have been played."""
        rules, played = self.rules, len(self._finished)
        if not rules.scores_points and played >= (rules.fixed_hands or 1):
            return "no_points"
        if played >= rules.max_hands:
            return "max_hands"
        return None

    def _over_text(self) -> str:
        if self._winner is not None:
            return f"the match is over: side {self._winner} won"
        return f"the match is over: {self.draw_reason}"

    def pop(self) -> Move:
        """Undo the last move, back into the previous hand if this one has just begun."""
        hand = self._hand
        if self._done or (not hand.move_stack and self._finished):
            hand = self._finished[-1].copy()
            self._unfinish(hand)
        self._hand = hand
        return hand.pop()

    def _unfinish(self, hand: Hand) -> None:
        self._finished.pop()
        for side, points in enumerate(hand.score()):
            self._totals[side] -= points
        self._winner = self._drawn = None
        self._done = False

    def parse_move(self, text: str) -> Move:
        if self._done:
            raise IllegalMove(self._over_text())
        return self._hand.parse_move(text)

    # -- what is where ------------------------------------------------------------------

    @property
    def hand(self) -> Hand:
        """The hand in play (the last hand once the match is over)."""
        return self._finished[-1] if self._done else self._hand

    @property
    def finished_hands(self) -> list[Hand]:
        """The hands played to the end, in order (``hand`` is the one in play)."""
        return self._finished[:]

    @property
    def move_stack(self) -> list[Move]:
        """Every move of the match so far, across hands, in the order played."""
        moves = [move for hand in self._finished for move in hand.move_stack]
        if not self._done:
            moves += self._hand.move_stack
        return moves

    @property
    def totals(self) -> list[int]:
        """Match points per side so far (finished hands only)."""
        return self._totals[:]

    @property
    def winner(self) -> int | None:
        """The winning side, or ``None`` while the match goes on (or once it is drawn)."""
        return self._winner

    @property
    def draw_reason(self) -> str | None:
        """Why a drawn match ended, in words (``None`` unless it is drawn)."""
        if self._drawn == "no_points":
            return "drawn: these rules score no points, so no hand could change the totals"
        if self._drawn == "max_hands":
            return (f"drawn: the hand limit ({self.rules.max_hands}, the rule option "
                    f"max_hands) was reached with no winner")
        return None

    @property
    def decks(self) -> list[tuple[Card, ...]]:
        """The effective deck of every hand dealt so far: ``Match.new(rules,
        players=..., decks=match.decks)`` replays the same deals."""
        dealt = len(self._finished) + (0 if self._done else 1)
        return [tuple(deck) for deck in self._decks[:dealt]]

    def side_of(self, seat: int) -> int:
        return self._hand.side_of(seat)

    def outcome(self) -> Outcome | None:
        """Each winning seat +1, each other seat -k/(n-k) for k winning seats: sum zero;
        a drawn match is 0 for every seat."""
        if not self._done:
            return None
        if self._winner is None:
            reason = self.draw_reason
            assert reason is not None   # (over without a winner: drawn)
            return Outcome(returns=(0.0,) * self.players, winners=(), reason=reason,
                           points=tuple(self._totals))
        winners = tuple(seat for seat in range(self.players)
                        if self._hand.side_of(seat) == self._winner)
        k, n = len(winners), self.players
        returns = tuple(1.0 if seat in winners else -k / (n - k) for seat in range(n))
        others = [t for side, t in enumerate(self._totals) if side != self._winner]
        reason = (f"side {self._winner} won {self._totals[self._winner]} to "
                  + ", ".join(str(t) for t in others))
        return Outcome(returns=returns, winners=winners, reason=reason,
                       points=tuple(self._totals))

    # -- hidden information -------------------------------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        """The current hand's view, with the match's totals and finished hands' points."""
        out = self.hand.view(seat)
        out.update({
            "match": {
                "totals": self._totals[:],
                "target": self.rules.target,
                "fixed_hands": self.rules.fixed_hands,
                "hand_number": len(self._finished) + (0 if self._done else 1),
                "hand_points": [hand.score() for hand in self._finished],
                # what each finished hand's points are made of (every capture is public)
                "hand_sheets": [hand.score_sheet() for hand in self._finished],
                "winner": self._winner,
                "over": self._done,
            },
        })
        if self._drawn is not None:   # (only then: the views of other matches stay as they were)
            out["match"]["drawn"] = self.draw_reason
        if self._done:
            out["to_move"] = None
            out["legal_moves"] = []
        return out

    def determinize(self, seat: int, rng: random.Random) -> Match:
        """A full match consistent with what ``seat`` has seen: the current hand is
        determinized, and later hands are dealt from a fresh generator drawn from ``rng``."""
        other = self.copy()
        other._rng = random.Random(rng.getrandbits(64))
        dealt = len(self._finished) + (0 if self._done else 1)
        if not self._done:
            other._hand = self._hand.determinize(seat, rng)
            deck = other._hand.deck
            assert deck is not None   # (a match's hands are dealt, not set up)
            other._decks = [*self._decks[:dealt - 1], deck]
        else:
            other._decks = self._decks[:dealt]
        return other

    def __repr__(self) -> str:
        state = (f"side {self._winner} won" if self._winner is not None
                 else "drawn" if self._done
                 else f"hand {len(self._finished) + 1}, seat {self._hand._to_move} to move")
        return f"<Match {self.players} players, totals {self._totals}, {state}>"


def deals(match: Match) -> list[list[Card]]:
    """The decks dealt so far, as ``Match.new(decks=...)`` takes them."""
    return [list(deck) for deck in match.decks]


def summary(match: Match) -> dict[str, Any]:
    """A JSON-able result: totals, winner, and each hand's points and score sheet; a drawn
    match also says why (``drawn``: only then, so the results of other matches stay as
    they were recorded)."""
    outcome = match.outcome()
    out = {
        "game": "pasur",
        "players": match.players,
        "sides": match.sides,
        "totals": match.totals,
        "winner": match.winner,
        "winners": list(outcome.winners) if outcome is not None else [],
        "over": match.is_over(),
        "hands": [{"leader": hand.leader, "dealer": hand.dealer, "points": hand.score(),
                   "surs": hand.surs, "sheet": hand.score_sheet()}
                  for hand in match.finished_hands],
    }
    if match.draw_reason is not None:
        out["drawn"] = match.draw_reason
    return out
