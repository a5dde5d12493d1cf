"""Helpers for the adapter tests: explicit decks, and playing episodes at random."""

from __future__ import annotations

import random

from cardtable.adapters.base import Episode
from cardtable.cards import Card, mask_of, pack, parse_cards


def deck(*parts: str, size: int = 52) -> list[Card]:
    """The cards of ``parts`` in order, then the rest of the pack in index order."""
    front = [card for part in parts for card in parse_cards(part)]
    used = mask_of(front)
    return front + [card for card in pack(size) if not used & card.mask]


def deal(episode: Episode, cards: list[Card]) -> Episode:
    """Apply ``cards`` as chance outcomes while the episode is at chance nodes."""
    for card in cards:
        if not episode.is_chance_node():
            break
        episode.apply(card.index)
    return episode


def actions(episode: Episode, *texts: str) -> list[int]:
    """The actions whose text (``episode.action_text``) is each of ``texts``."""
    by_text = {episode.action_text(a): a for a in range(episode.num_actions)}
    return [by_text[text] for text in texts]


def advance(episode: Episode, rng: random.Random, decisions: int) -> Episode:
    """Deal and make up to ``decisions`` random legal decisions (stops at the end)."""
    while not episode.is_terminal():
        if episode.is_chance_node():
            episode.apply(episode.sample_chance(rng))
        elif decisions <= 0:
            break
        else:
            episode.apply(rng.choice(episode.legal_actions()))
            decisions -= 1
    return episode


def card(text: str) -> Card:
    return parse_cards(text)[0]


