"""Pasur, the Persian and Turkish "make 11" fishing game: rules, hands and matches.

>>> from cardtable import pasur
>>> match = pasur.SPEC.start(pasur.PRESETS["standard"], players=2, seed=1)
>>> match.to_move
0
"""

from __future__ import annotations

from ..game import GameSpec
from .captures import Move, capture_options
from .hand import Hand
from .match import Match, deals, summary
from .rules import DEFAULT_PRESET, PRESETS, Rules
from .scoring import bonus_side, card_points, hand_points, score_sheet, sur_points

__all__ = [
    "DEFAULT_PRESET",
    "PRESETS",
    "SPEC",
    "Hand",
    "Match",
    "Move",
    "Rules",
    "bonus_side",
    "capture_options",
    "card_points",
    "hand_points",
    "score_sheet",
    "sur_points",
]

SPEC = GameSpec(
    name="pasur",
    title="Pasur",
    rules_type=Rules,
    presets=PRESETS,
    default_preset=DEFAULT_PRESET,
    player_counts=(2, 3, 4),
    default_players=2,
    start=Match.new,
    deals=deals,
    summary=summary,
    move_type=Move,
)
