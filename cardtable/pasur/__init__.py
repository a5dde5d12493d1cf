"""Pasur, the Persian and Turkish "make 11" fishing game: rules, hands and matches.

>>> from cardtable import pasur
>>> match = pasur.SPEC.start(pasur.PRESETS["standard"], players=2, seed=1)
>>> match.to_move
0
"""

from __future__ import annotations

from typing import Any

from ..game import GameSpec, Measure, SingleHand
from ._options import move_options
from .captures import capture_options
from .deal import OpeningStep, opening_step
from .engine import Hand
from .match import Match, deals, summary
from .moves import Move
from .rules import DEFAULT_PRESET, PRESETS, Rules
from .scoring import bonus_side, card_points, hand_points, score_sheet, sur_cards, sur_points

__all__ = [
    "DEFAULT_PRESET",
    "PRESETS",
    "SPEC",
    "Hand",
    "Match",
    "Move",
    "OpeningStep",
    "Rules",
    "bonus_side",
    "capture_options",
    "card_points",
    "hand_points",
    "move_options",
    "opening_step",
    "score_sheet",
    "sur_cards",
    "sur_points",
]


def measure(match: Match) -> Measure:
    """Each seat's side's points over the match, and the hands it took."""
    totals = match.totals
    return (tuple(totals[match.side_of(s)] for s in range(match.players)),
            max(1, len(match.finished_hands)), None)


def _hand_measure(hand: Hand) -> Measure:
    points = hand.score()
    return tuple(points[hand.side_of(s)] for s in range(hand.players)), 1, None


def _single_hand(rules: Rules, *, players: int, seed: Any = None) -> Hand:
    return Hand.new(rules, players=players, seed=seed)


def _hand_deals(hand: Hand) -> list[list[Any]]:
    return [list(hand.deck)] if hand.deck is not None else []


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
    kit="cardtable.bots.pasur_kit:KIT",
    screen="cardtable.terminal.pasur",
    episode="cardtable.adapters.pasur:PasurEpisode",
    openspiel_name="python_pasur",
    pettingzoo_name="pasur_v0",
    learn="cardtable.pasur.learn:LEARN",
    measure=measure,
    single_hand=SingleHand(start=_single_hand, measure=_hand_measure, deals=_hand_deals),
)
