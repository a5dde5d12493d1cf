"""High Card: a tiny trick game that lives only in the tests, to prove that a third game
needs one package and one line (a fixture registers it) and nothing else.

Each player is dealt a few cards from a shuffled 52-card pack; the rest stay face down.
The leader plays any card, then each player in turn; the highest card (ace high, then
suits in bridge order) takes the trick and leads the next.  When the hands are empty, the
most tricks win.

>>> game = start(Rules(), players=2, seed=1)
>>> game.to_move, len(game.legal_moves())
(0, 3)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cardtable.cards import Card, CardError, pack
from cardtable.game import GameSpec, IllegalMove, InvalidMove, Measure, Outcome, make_rng


@dataclass(frozen=True)
class Rules:
    """One way of playing High Card."""

    hand_size: int = field(default=3, metadata={
        "doc": "cards dealt to each player", "choices": (2, 3, 4, 5)})
    low_wins: bool = field(default=False, metadata={
        "doc": "the lowest card takes the trick instead of the highest"})

    @property
    def player_counts(self) -> tuple[int, ...]:
        return (2, 3, 4)

    def check_players(self, players: int) -> None:
        if players not in self.player_counts:
            raise ValueError(f"High Card is for 2 to 4 players, not {players}")


PRESETS = {"plain": Rules(), "quick": Rules(hand_size=2)}


@dataclass(frozen=True, slots=True)
class Play:
    """A card played to the trick; its text is the card's."""

    card: Card

    def __str__(self) -> str:
        return self.card.text

    @classmethod
    def parse(cls, text: str) -> Play:
        try:
            return cls(Card.parse(text))
        except CardError as error:
            raise InvalidMove(f"{text!r} is not a card: {error}") from None


def _strength(card: Card, low_wins: bool) -> int:
    value = (14 if card.rank == 1 else card.rank) * 4 + int(card.suit)
    return -value if low_wins else value


class Game:
    """A game of High Card: hands, the trick on the table, tricks won."""

    def __init__(self, rules: Rules, players: int, deck: list[Card], leader: int = 0) -> None:
        self.rules = rules
        self.players = players
        self.deck = deck
        size = rules.hand_size
        self.hands: list[list[Card]] = [deck[s * size:(s + 1) * size] for s in range(players)]
        self.trick: list[tuple[int, Card]] = []
        self.tricks = [0] * players
        self.leader = leader
        self._to_move: int | None = leader
        self.move_stack: list[Play] = []
        self._undo: list[tuple[Any, ...]] = []

    @classmethod
    def new(cls, rules: Rules, *, players: int, seed: int | random.Random | None = None,
            decks: Sequence[Sequence[Card]] | None = None) -> Game:
        rules.check_players(players)
        if decks:
            deck = list(decks[0])
        else:
            deck = pack(52)
            make_rng(seed).shuffle(deck)
        return cls(rules, players, deck)

    # -- the contract -------------------------------------------------------------------
    @property
    def to_move(self) -> int | None:
        return self._to_move

    def legal_moves(self) -> list[Play]:
        if self._to_move is None:
            return []
        return [Play(card) for card in self.hands[self._to_move]]

    def parse_move(self, text: str) -> Play:
        move = Play.parse(text)
        if move not in self.legal_moves():
            raise IllegalMove(f"{move} is not in the hand of the player to move")
        return move

    def push(self, move: Play | str, *, seat: int | None = None) -> None:
        if isinstance(move, str):
            move = self.parse_move(move)
        if self._to_move is None:
            raise IllegalMove("the game is over")
        if seat is not None and seat != self._to_move:
            raise IllegalMove(f"it is seat {self._to_move}'s turn, not seat {seat}'s")
        if not isinstance(move, Play) or move not in self.legal_moves():
            raise IllegalMove(f"{move} cannot be played now")
        player = self._to_move
        position = self.hands[player].index(move.card)
        self._undo.append((player, position, list(self.trick), self.tricks[:], self.leader))
        del self.hands[player][position]
        self.trick.append((player, move.card))
        self.move_stack.append(move)
        if len(self.trick) < self.players:
            self._to_move = (player + 1) % self.players
            return
        winner = max(self.trick, key=lambda t: _strength(t[1], self.rules.low_wins))[0]
        self.tricks[winner] += 1
        self.trick = []
        self.leader = winner
        self._to_move = winner if self.hands[winner] else None

    def pop(self) -> Play:
        move = self.move_stack.pop()
        to_move, position, trick, tricks, leader = self._undo.pop()
        self._to_move, self.trick, self.tricks, self.leader = to_move, trick, tricks, leader
        self.hands[to_move].insert(position, move.card)
        return move

    def copy(self, *, stack: bool = True) -> Game:
        other = Game.__new__(Game)
        other.rules, other.players, other.deck = self.rules, self.players, self.deck
        other.hands = [hand[:] for hand in self.hands]
        other.trick, other.tricks = self.trick[:], self.tricks[:]
        other.leader, other._to_move = self.leader, self._to_move
        other.move_stack = self.move_stack[:] if stack else []
        other._undo = self._undo[:] if stack else []
        return other

    def is_over(self) -> bool:
        return self._to_move is None

    def outcome(self) -> Outcome | None:
        if self._to_move is not None:
            return None
        best = max(self.tricks)
        winners = tuple(s for s in range(self.players) if self.tricks[s] == best)
        if len(winners) == self.players:
            return Outcome((0.0,) * self.players, (), "every player took as many tricks")
        share = 1 / len(winners)
        returns = tuple((share if s in winners else 0.0) - 1 / self.players
                        for s in range(self.players))
        return Outcome(returns, winners, "most tricks", tuple(self.tricks))

    def view(self, seat: int | None) -> dict[str, Any]:
        if seat is not None and seat not in range(self.players):
            raise ValueError(f"no seat {seat}")
        return {
            "game": "highcard",
            "players": self.players,
            "seat": seat,
            "to_move": self._to_move,
            "hand": None if seat is None else [c.text for c in self.hands[seat]],
            "hand_sizes": [len(hand) for hand in self.hands],
            "table": [c.text for _, c in self.trick],
            "tricks": self.tricks[:],
            "legal_moves": [str(m) for m in self.legal_moves()]
            if seat is not None and seat == self._to_move else [],
            "over": self._to_move is None,
        }

    def determinize(self, seat: int, rng: random.Random) -> Game:
        """The other hands and the face-down cards dealt afresh from the unseen cards."""
        other = self.copy(stack=False)
        seen = set(self.hands[seat]) | {c for _, c in self.trick} | set(self._played())
        unseen = [c for c in self.deck if c not in seen]
        rng.shuffle(unseen)
        for s in range(self.players):
            if s != seat:
                n = len(self.hands[s])
                other.hands[s], unseen = unseen[:n], unseen[n:]
        other.deck = self.deck
        return other

    def _played(self) -> list[Card]:
        return [move.card for move in self.move_stack]


def start(rules: Rules, *, players: int, seed: int | random.Random | None = None,
          decks: Sequence[Sequence[Card]] | None = None) -> Game:
    return Game.new(rules, players=players, seed=seed, decks=decks)


def deals(game: Game) -> list[list[Card]]:
    return [list(game.deck)]


def summary(game: Game) -> dict[str, Any]:
    return {"over": game.is_over(), "tricks": game.tricks[:], "moves": len(game.move_stack)}


def measure(game: Game) -> Measure:
    return tuple(game.tricks), 1, None


SPEC = GameSpec(
    name="highcard",
    title="High Card",
    rules_type=Rules,
    presets=PRESETS,
    default_preset="plain",
    player_counts=(2, 3, 4),
    default_players=2,
    start=start,
    deals=deals,
    summary=summary,
    move_type=Play,
    measure=measure,
)
