"""Transfer Durak (Perevodnoy Durak): the rules engine.

>>> from cardtable import durak
>>> game = durak.Game.new(durak.PRESETS["transfer"], players=2, seed=1)
>>> game.to_move in (0, 1), len(game.legal_moves()) > 0
(True, True)
>>> durak.SPEC.name, durak.SPEC.default_preset
('durak', 'transfer')
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..cards import Card
from ..game import GameSpec, Measure
from .engine import Game
from .moves import Move, MoveKind
from .rules import DEFAULT_PRESET, PRESETS, Rules
from .series import Series
from .tables import PHASES, strength

__all__ = ["DEFAULT_PRESET", "PHASES", "PRESETS", "SPEC", "Game", "Move", "MoveKind", "Rules",
           "Series", "strength"]


def start(rules: Rules, *, players: int, seed: int | random.Random | None = None,
          decks: Sequence[Sequence[Card]] | None = None, dealer: int | None = None,
          loser: int | None = None) -> Game:
    """A whole game as a table plays it; ``decks[0]`` is the deck to deal."""
    return Game.new(rules, players=players, seed=seed, deck=decks[0] if decks else None,
                    dealer=dealer, loser=loser)


def setup(game: Game) -> dict[str, Any]:
    """Who dealt, and the previous game's durak: with the deck, they replay the deal."""
    return {"dealer": game.dealer, "loser": game.previous_loser}


def deals(game: Game) -> list[list[Card]]:
    """The deck dealt (a game built from a position has none)."""
    return [list(game.deck)] if game.deck is not None else []


def summary(game: Game) -> dict[str, Any]:
    """The result as JSON-able data, for records and the page; a draw at the round limit
    also says why (``drawn``: only then, so the results of other games stay as they were
    recorded)."""
    out: dict[str, Any] = {
        "over": game.is_over(),
        "loser": game.loser,
        "draw": game.is_draw,
        "losing_team": game.losing_team if game.rules.partners else None,
        "hands_left": [len(hand) for hand in game.hands],
        "rounds": game.round_number,
        "moves": len(game.move_stack),
    }
    if game.is_draw and any(game.hands):
        out["drawn"] = game.draw_reason
    return out


def measure(game: Game) -> Measure:
    """Durak scores no points: who was the durak."""
    return None, 1, game.loser


SPEC = GameSpec(
    name="durak",
    title="Transfer Durak",
    rules_type=Rules,
    presets=PRESETS,
    default_preset=DEFAULT_PRESET,
    player_counts=(2, 3, 4, 5, 6),
    default_players=2,
    start=start,
    deals=deals,
    summary=summary,
    move_type=Move,
    setup=setup,
    kit="cardtable.bots.durak_kit:KIT",
    screen="cardtable.terminal.durak",
    episode="cardtable.adapters.durak:DurakEpisode",
    openspiel_name="python_transfer_durak",
    pettingzoo_name="transfer_durak_v0",
    learn="cardtable.durak.learn:LEARN",
    measure=measure,
    loser="durak",
)
