"""Helpers for the Durak tests: explicit positions and decks, and the legal moves as text."""

from __future__ import annotations

import random

from cardtable.cards import Card, pack, parse_cards
from cardtable.durak import Game
from cardtable.durak.moves import Move


def legal(game: Game) -> set[str]:
    """The legal moves as their text, for readable assertions."""
    return {str(move) for move in game.legal_moves()}


def play(game: Game, *moves: str) -> Game:
    """Push moves given as text, in order."""
    for move in moves:
        game.push(game.parse_move(move))
    return game


def deck_for(hands: list[str], trump_card: str, *, dealer: int = 0,
             size: int = 36, stock: str = "") -> list[Card]:
    """A deck that deals ``hands[seat]`` to each seat (seat order, not deal order), then
    turns ``trump_card``; ``stock`` (top first) follows it, then the rest of the pack."""
    players = len(hands)
    order: list[Card] = []
    for i in range(players):
        order += parse_cards(hands[(dealer + 1 + i) % players])
    turned = parse_cards(trump_card)
    order += turned
    order += parse_cards(stock)
    order += [card for card in pack(size) if card not in order]
    assert len(order) == len(set(order)) == size
    return order


def state(game: Game) -> tuple:
    """Everything a game holds, public and hidden, to compare before and after."""
    return (game.hands, game.stock, game.table, game.discard, game.to_move, game.phase,
            game.attacker, game.defender, game.original_attacker, game.limit,
            game.round_number, game.loser, game.out, game.trump_card,
            tuple(game.known_cards(s) for s in range(game.players)),
            tuple(map(str, game.legal_moves())), len(game.move_stack))


def random_move(rng: random.Random, size: int) -> Move:
    """Any move at all, legal or not, over the cards of the pack."""
    cards = pack(size)
    kind = rng.choice(["attack", "defend", "transfer", "show", "take", "pass", "exchange"])
    if kind in ("take", "pass"):
        return Move(kind)
    if kind == "defend":
        return Move(kind, rng.sample(cards, 2))
    if kind in ("show", "exchange"):
        return Move("transfer" if kind == "show" else kind, [rng.choice(cards)],
                    shown=kind == "show")
    rank = rng.choice(cards).rank
    same = [c for c in cards if c.rank == rank]
    return Move(kind, rng.sample(same, rng.randint(1, len(same))))
