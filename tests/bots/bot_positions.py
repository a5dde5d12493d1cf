"""Positions for the bot tests: games played part way, and the same games re-dealt with the
cards a seat cannot see moved about (everything public kept)."""

from __future__ import annotations

import random
from collections.abc import Callable

from cardtable import durak, games, pasur
from cardtable.game import IllegalMove


def play_part_way(state, moves: int, seed: int) -> list:
    """Play ``moves`` random moves (fewer if the game ends); return them."""
    rng = random.Random(seed)
    played = []
    for _ in range(moves):
        if state.is_over():
            break
        move = rng.choice(state.legal_moves())
        state.push(move)
        played.append(move)
    return played


def pasur_hidden_places(match: pasur.Match, seat: int) -> list[int]:
    """Places in the current hand's deck holding cards ``seat`` cannot see: the other
    hands' cards not yet played, and the stock."""
    hand = match.hand
    deck = hand.deck
    hidden = {card for s, cards in enumerate(hand.hands) if s != seat for card in cards}
    hidden |= set(hand.stock)
    return [place for place, card in enumerate(deck) if card in hidden]


def durak_hidden_places(game: durak.Game, seat: int) -> list[int]:
    """Places in the deck holding cards ``seat`` cannot see: other hands' cards not known
    to all, and the stock but for its face-up bottom card."""
    hidden = set()
    for s, cards in enumerate(game.hands):
        if s != seat:
            hidden |= set(cards) - set(game.known_cards(s))
    hidden |= set(game.stock[:-1])
    return [place for place, card in enumerate(game.deck) if card in hidden]


def redeal(deck: tuple, places: list[int], rng: random.Random) -> list:
    """The deck with the cards at ``places`` shuffled among those places."""
    cards = [deck[place] for place in places]
    rng.shuffle(cards)
    out = list(deck)
    for place, card in zip(places, cards, strict=True):
        out[place] = card
    return out


def twins(game: str, *, players: int, seed: int, moves: int, preset: str | None = None,
          tries: int = 30) -> tuple | None:
    """Two states of one game after the same moves, the second dealt with the hidden
    cards of the seat to move shuffled; the seat sees exactly the same in both.

    ``None`` if no shuffle kept the public facts (say, it changed who leads).
    """
    spec = games.get(game)
    rules = spec.rules(preset)
    first = spec.start(rules, players=players, seed=seed)
    played = play_part_way(first, moves, seed)
    if first.is_over():
        return None
    seat = first.to_move
    if game == "pasur":
        decks = first.decks
        places = pasur_hidden_places(first, seat)
        deck = decks[-1]
        remake: Callable = lambda d: pasur.Match.new(rules, players=players,  # noqa: E731
                                                    decks=[*decks[:-1], d])
    else:
        places = durak_hidden_places(first, seat)
        deck = first.deck
        remake = lambda d: durak.Game.new(rules, players=players, deck=d,  # noqa: E731
                                          dealer=first.dealer)
    rng = random.Random(seed + 1)
    for _ in range(tries):
        second = remake(redeal(deck, places, rng))
        try:
            for move in played:
                second.push(move)
        except IllegalMove:
            continue
        if second.view(seat) == first.view(seat) and _differs(first, second, seat):
            return first, second, seat
    return None


def _differs(first, second, seat: int) -> bool:
    """Whether some hidden card really lies elsewhere in the second state."""
    if isinstance(first, pasur.Match):
        a, b = first.hand, second.hand
        return a.hands != b.hands or a.stock != b.stock
    return first.hands != second.hands or first.stock != second.stock


def bot_specs_small() -> list[str]:
    """Every kind and level, at budgets small enough for tests."""
    return ["random", "basic", "greedy", "ismcts:iterations=40",
            "ismcts:iterations=30,playout=random", "ismcts:iterations=30,infer=1",
            "ismcts:iterations=30,paired=1",
            "beginner", "easy",
            "medium:iterations=30", "hard:iterations=40",
            "expert:iterations=30,solver_nodes=3000"]
