"""Games of Transfer Durak one after another: the durak deals the next game.

>>> from cardtable.durak import Rules, Series
>>> series = Series(Rules(), players=3, seed=5)
>>> for _ in range(3):
...     game = series.next_game()
...     while not game.is_over():
...         game.push(game.legal_moves()[0])
>>> sum(series.losses) + series.draws
3
>>> series.next_game().dealer == (game.loser if game.loser is not None else game.dealer)
True
"""

from __future__ import annotations

import random

from ..game import make_rng
from .engine import Game
from .rules import Rules

__all__ = ["Series"]


class Series:
    """A run of games: the loser deals the next one (after a draw the dealer stays), and
    losses are counted per player.  The source keeps no other score."""

    def __init__(self, rules: Rules | None = None, *, players: int = 2,
                 seed: int | random.Random | None = None, dealer: int = 0) -> None:
        self.rules = Rules() if rules is None else rules
        self.rules.check_players(players)
        self.players = players
        self.first_dealer = dealer
        self.games: list[Game] = []
        self._rng = make_rng(seed)

    @property
    def current(self) -> Game | None:
        """The game being played (or the last one), if any."""
        return self.games[-1] if self.games else None

    def next_game(self) -> Game:
        """Deal the next game; the current one must be over."""
        last = self.current
        if last is None:
            game = Game.new(self.rules, players=self.players, seed=self._rng,
                            dealer=self.first_dealer)
        elif not last.is_over():
            raise ValueError("the current game is not over yet")
        elif last.loser is None:   # a draw: the same dealer deals again
            game = Game.new(self.rules, players=self.players, seed=self._rng,
                            dealer=last.dealer)
        else:
            game = Game.new(self.rules, players=self.players, seed=self._rng,
                            loser=last.loser)
        self.games.append(game)
        return game

    @property
    def losses(self) -> list[int]:
        """How many finished games each seat lost as the durak."""
        counts = [0] * self.players
        for game in self.games:
            if game.is_over() and game.loser is not None:
                counts[game.loser] += 1
        return counts

    @property
    def draws(self) -> int:
        return sum(1 for game in self.games if game.is_draw)
