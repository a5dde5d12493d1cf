"""Transfer Durak's part of the school (``cardtable.analysis``): units, hint wording.

The search's reward is +1 for not being the durak and -1 for the durak, so a move's mean
reward ``r`` is a chance of ``(1 - r) / 2`` of being the durak: the analysis reports that
chance, and a move's loss is how much it adds to it.  The lessons are in
``durak/lessons.py``.
"""

from __future__ import annotations

from typing import Any

from ..cards import Card
from .engine import Game
from .moves import Move, MoveKind

__all__ = ["LEARN", "DurakLearn"]


class DurakLearn:
    """The Durak entry of the school's plug-ins."""

    name = "durak"
    unit = "chance of being the durak"
    thresholds = (0.05, 0.10, 0.20)
    """Expected loss (added chance of being the durak) for an inaccuracy, a mistake and a
    blunder: 5, 10 and 20 percentage points."""
    puzzle_margin = 0.5
    """A puzzle's answer beats every other move by at least this chance of being the durak
    (with nothing hidden, the only move that does not lose)."""
    higher_is_better = False
    horizon = 1
    """The judge's playouts stop at the end of the round after the one being played, valued
    there by the evaluation (``durak/evaluation``): most of the later draws' luck is left
    out of a move's worth, and the next round shows what a take or a card spent costs."""

    def searched(self, state: Game) -> Game:
        return state

    def expected(self, reward: float) -> float:
        """A search reward as the chance of being the durak."""
        return (1.0 - reward) / 2.0

    def loss(self, best: float, played: float) -> float:
        return (best - played) / 2.0

    def other_side(self, value: float) -> float:
        """The other player's chance of being the durak, with two (draws aside)."""
        return 1.0 - value

    def show(self, value: float) -> str:
        """An expected result as text."""
        return f"{100 * value:.0f}% durak"

    def show_loss(self, loss: float) -> str:
        """A loss (chance of being the durak added) as percentage points.

        >>> LEARN.show_loss(0.125), LEARN.show_loss(0.0)
        ('12.5%', '0.0%')
        """
        return f"{100 * loss:.1f}%"

    def hindsight_ready(self, game: Game) -> bool:
        """With every card known, the exact solver reaches once the stock is empty and two
        players still hold cards (no partners)."""
        holding = sum(1 for hand in game.hands if hand)
        return not game.stock and holding <= 2 and not game.rules.partners

    def lessons(self) -> list[dict[str, Any]]:
        """The course (``cardtable.analysis.lessons.Step`` fields), in order."""
        from .lessons import steps

        return steps()

    # -- hints ---------------------------------------------------------------------------

    def explain(self, state: Game, move: Move, value: float, *, lang: str = "en",
                others: dict[Move, float] | None = None) -> str:
        """Why ``move`` (with a chance ``value`` of being the durak after it), in words;
        ``others`` (every move's chance) lets a defender's hint weigh taking against
        beating."""
        words = _WORDS.get(lang, _WORDS["en"])
        trump = state.trump
        seat = state.to_move
        assert seat is not None
        held = state.hand(seat)
        trumps = sum(1 for card in held if card.suit is trump)
        kind = move.kind
        if kind is MoveKind.DEFEND:
            attack, beater = move.cards
            cheapest = _cheapest_beater(attack, held, trump)
            text = words["beat"].format(attack=attack, card=beater)
            if beater.suit is trump:
                text += words["with_trump"]
            if cheapest is not None and beater == cheapest:
                text += words["cheapest"]
        elif kind is MoveKind.ATTACK:    # a card added to a running attack: a throw-in
            text = words["throw_in" if state.table else "attack"].format(
                cards=words["and"].join(map(str, move.cards)))
        elif kind is MoveKind.TRANSFER:
            text = words["transfer"].format(card=move.cards[0])
        elif kind is MoveKind.TAKE:
            text = words["take"]
        elif kind is MoveKind.PASS:
            text = words["pass"]
        else:
            text = str(move)
        spent = sum(1 for card in held if card.suit is trump and card.mask & move._own)
        kept = trumps - spent
        text += words["trump" if kept == 1 else "trumps"].format(kept=kept)
        text += words["value"].format(chance=round(100 * value))
        if others and kind in (MoveKind.DEFEND, MoveKind.TAKE, MoveKind.TRANSFER):
            take = [v for m, v in others.items() if m.kind is MoveKind.TAKE]
            beat = [v for m, v in others.items() if m.kind is MoveKind.DEFEND]
            if take and beat:
                text += words["versus"].format(take=round(100 * take[0]),
                                               beat=round(100 * min(beat)))
        return text


def _cheapest_beater(attack: Card, held: tuple[Card, ...], trump: Any) -> Card | None:
    """The lowest card that beats ``attack``: same suit and higher, else the lowest trump."""
    same = [c for c in held if c.suit is attack.suit and _strength(c) > _strength(attack)]
    if same:
        return min(same, key=_strength)
    if attack.suit is trump:
        return None
    trumps = [c for c in held if c.suit is trump]
    return min(trumps, key=_strength) if trumps else None


def _strength(card: Card) -> int:
    """Aces are high in Durak."""
    return 14 if card.rank == 1 else card.rank


_WORDS: dict[str, dict[str, str]] = {
    "en": {"beat": "beats {attack} with {card}", "with_trump": ", a trump",
           "cheapest": ", the cheapest card that beats it",
           "attack": "attacks with {cards}", "throw_in": "throws in {cards}",
           "transfer": "transfers with {card}",
           "take": "takes the cards", "pass": "ends the attack",
           "trump": "; keeps 1 trump", "trumps": "; keeps {kept} trumps", "and": " and ",
           "value": "; chance of being the durak after it: {chance}%.",
           "versus": " Taking: {take}%, the best beat: {beat}%."},
    "ru": {"beat": "бьёт {attack} картой {card}", "with_trump": ", козырем",
           "cheapest": ", самой дешёвой подходящей картой",
           "attack": "ходит {cards}", "throw_in": "подкидывает {cards}",
           "transfer": "переводит картой {card}",
           "take": "берёт карты", "pass": "бито",
           "trump": "; остаётся козырей: {kept}", "trumps": "; остаётся козырей: {kept}",
           "and": " и ",
           "value": "; шанс остаться дураком после хода: {chance}%.",
           "versus": " Взять: {take}%, лучшая защита: {beat}%."},
    "pt": {"beat": "bate {attack} com {card}", "with_trump": ", um trunfo",
           "cheapest": ", a carta mais barata que o bate",
           "attack": "ataca com {cards}", "throw_in": "junta {cards} ao ataque",
           "transfer": "transfere com {card}",
           "take": "pega as cartas", "pass": "encerra o ataque",
           "trump": "; fica com 1 trunfo", "trumps": "; fica com {kept} trunfos", "and": " e ",
           "value": "; chance de ser o durak depois: {chance}%.",
           "versus": " Pegar: {take}%, a melhor defesa: {beat}%."},
    "fa": {"beat": "{attack} را با {card} می‌زند", "with_trump": "، با حکم",
           "cheapest": "، ارزان‌ترین کارتی که آن را می‌زند",
           "attack": "با {cards} حمله می‌کند", "throw_in": "{cards} را اضافه می‌کند",
           "transfer": "با {card} حمله را منتقل می‌کند",
           "take": "کارت‌ها را برمی‌دارد", "pass": "حمله را تمام می‌کند",
           "trump": "؛ {kept} حکم نگه می‌دارد", "trumps": "؛ {kept} حکم نگه می‌دارد", "and": " و ",
           "value": "؛ احتمال دوراک شدن پس از آن: {chance}٪.",
           "versus": " برداشتن: {take}٪، بهترین دفاع: {beat}٪."},
}

LEARN = DurakLearn()
