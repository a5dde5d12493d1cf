"""Helpers for the Pasur tests: explicit decks and positions, random play, state capture."""

from __future__ import annotations

import dataclasses
import random

from cardtable.cards import Card, mask_of, pack, parse_cards
from cardtable.pasur import PRESETS, Hand, Rules

PRESET_NAMES = list(PRESETS)


def deck(*parts: str) -> list[Card]:
    """The cards of ``parts`` in order, then the rest of the pack in index order."""
    front = [card for part in parts for card in parse_cards(part)]
    used = mask_of(front)
    assert used.bit_count() == len(front), "a card is named twice"
    return front + [card for card in pack(52) if not used & card.mask]


def rules(preset: str, **changes: object) -> Rules:
    return dataclasses.replace(PRESETS[preset], **changes)


def cards(text: str) -> frozenset[Card]:
    return frozenset(parse_cards(text))


def play_randomly(hand: Hand, rng: random.Random, moves: int | None = None) -> Hand:
    """Play random legal moves until the hand ends (or ``moves`` have been played)."""
    while not hand.is_over() and (moves is None or moves > 0):
        hand.push(rng.choice(hand.legal_moves()))
        if moves is not None:
            moves -= 1
    return hand


def state(hand: Hand) -> tuple:
    """Everything a hand holds, for comparing two hands (or one hand at two times)."""
    return (hand.players, hand.to_move, tuple(map(tuple, hand.hands)), tuple(hand.table),
            tuple(map(tuple, hand.captured)), tuple(hand.surs), hand.last_capturer,
            hand.deal_round, hand.deal_rounds, tuple(hand.stock), tuple(hand.move_stack),
            tuple(hand.swept), tuple(hand.legal_moves()), tuple(hand.score()))


def all_cards(hand: Hand) -> list[Card]:
    """Every card the hand knows of: in hands, on the table, in the stock, captured."""
    return ([card for held in hand.hands for card in held] + hand.table + hand.stock
            + [card for pile in hand.captured for card in pile])
