"""Pasur's part of the school (``cardtable.analysis``): units, hint wording, lessons.

The analysis searches a Pasur hand (not the match): its reward is the points difference
over 50, so a move's expected result reads in points ahead of the other side.  Hints
explain a move by what it takes now (points, clubs, a sur) and what it leaves the next
player; the lessons are in ``pasur/lessons.py``.
"""

from __future__ import annotations

import random
from typing import Any

from ..cards import cards_of
from .engine import Hand
from .match import Match
from .moves import Move
from .scoring import CLUBS_MASK, card_points

__all__ = ["LEARN", "PasurLearn"]

_SCALE = 50.0
"""The search's reward is the points difference over 50 (``bots/pasur_kit``)."""


class PasurLearn:
    """The Pasur entry of the school's plug-ins."""

    name = "pasur"
    unit = "points"
    thresholds = (1.0, 2.5, 5.0)
    """Expected loss in points (ahead of the other side) for an inaccuracy, a mistake and
    a blunder: a point is an ace or a jack, 2.5 the 2♣ and a half, 5 a sur or a 10♦ and
    more."""
    puzzle_margin = 2.0
    """A puzzle's answer beats every other move by at least this many points."""
    higher_is_better = True
    horizon = 0
    """The judge's playouts stop at the end of the deal round being played, valued there
    by the cards and surs taken and the clubs race (``bots/pasur_kit``)."""
    playout = "steady"
    """The judge's playout policy: the kit's, without the one move in twenty it plays at
    random for a search's variety.  The judge compares moves on the same deals, so a random
    move in the rest of the hand only adds noise to their differences (and charges every
    move for a slip nobody meant): steady playouts settle a verdict on fewer deals."""

    def searched(self, state: Any) -> Hand:
        """What the analysis searches: the hand being played."""
        return state.hand if isinstance(state, Match) else state

    def expected(self, reward: float) -> float:
        """A search reward as points ahead of the other side."""
        return reward * _SCALE

    def loss(self, best: float, played: float) -> float:
        return (best - played) * _SCALE

    def other_side(self, value: float) -> float:
        """Points ahead for the other of two sides."""
        return -value

    def show(self, value: float) -> str:
        """An expected result as text."""
        return f"{value:+.1f} points"

    def hindsight_ready(self, hand: Hand) -> bool:
        """With every card known, the exact solver reaches from the second-to-last deal of a
        2-player hand on (a few thousand positions); earlier, or with more players, no."""
        stock = hand.view(None)["stock_size"]
        return hand.players == 2 and stock <= 4 * hand.players

    def lessons(self) -> list[dict[str, Any]]:
        """The course (``cardtable.analysis.lessons.Step`` fields), in order."""
        from .lessons import steps

        return steps()

    # -- hints ---------------------------------------------------------------------------

    def facts(self, state: Any, move: Move, *, samples: int = 60,
              seed: int = 0) -> dict[str, Any]:
        """What a move does now and leaves: points and clubs taken, a sur made, the
        next player's best reply's expected points (over deals of the hidden cards)."""
        hand = self.searched(state)
        seat = hand.to_move
        assert seat is not None
        rules = hand.rules
        taken = move.taken | (move.bit if move.taken else 0)
        after = hand.copy(stack=False)
        surs_before = list(after.surs)
        after.push(move)
        side = hand.side_of(seat)
        sur = after.surs[side] > surs_before[side]
        reply = 0.0
        rng = random.Random(seed)
        nxt = after.to_move
        if nxt is not None and hand.side_of(nxt) != side and samples:
            total = 0.0
            for _ in range(samples):
                deal = hand.determinize(seat, rng)
                deal.push(move)
                if deal.to_move != nxt:
                    break
                total += max(_gain(deal, m) for m in deal.legal_moves())
            else:
                reply = total / samples
        return {"points": card_points(taken, rules), "clubs": (taken & CLUBS_MASK).bit_count(),
                "cards": len(cards_of(taken)), "sur": sur,
                "table_left": len(after.table), "reply": round(reply, 2)}

    def explain(self, state: Any, move: Move, value: float, *, lang: str = "en",
                others: dict[Move, float] | None = None) -> str:
        """Why ``move`` (worth ``value`` points ahead, as the search sees it), in words."""
        f = self.facts(state, move)
        words = _WORDS.get(lang, _WORDS["en"])
        parts = []
        if move.taken:
            counted = _COUNTED.get(lang, _COUNTED["en"])
            parts.append(words["takes"].format(**{
                noun: _counted(counted[noun], f[noun]) for noun in ("cards", "points", "clubs")}))
        else:
            parts.append(words["lays"].format(card=move.card))
        if f["sur"]:
            parts.append(words["sur"])
        parts.append(words["reply"].format(reply=f["reply"]))
        parts.append(words["value"].format(value=value))
        return words.get("and", "; ").join(parts) + "."


def _gain(hand: Hand, move: Move) -> float:
    """The points a move takes now, a sur counted as 5 (the quick value players use)."""
    taken = move.taken | (move.bit if move.taken else 0)
    gain = card_points(taken, hand.rules) + 0.3 * (taken & CLUBS_MASK).bit_count()
    if move.taken and move.taken == hand.table_mask and move.card.rank != 11:
        gain += 5
    return gain


def _counted(forms: tuple[str, ...], n: int) -> str:
    """``n`` with its noun in the right form: one form (Persian), one and other (English,
    Portuguese), or one, few and many (Russian: 1 карту, 2 карты, 5 карт)."""
    if len(forms) == 1:
        return forms[0].format(n=n)
    if len(forms) == 2:
        return forms[0 if n == 1 else 1].format(n=n)
    if n % 10 == 1 and n % 100 != 11:
        return forms[0].format(n=n)
    return forms[1 if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else 2].format(n=n)


_COUNTED: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {"cards": ("{n} card", "{n} cards"), "points": ("{n} point", "{n} points"),
           "clubs": ("{n} club", "{n} clubs")},
    "ru": {"cards": ("{n} карту", "{n} карты", "{n} карт"),
           "points": ("{n} очко", "{n} очка", "{n} очков"),
           "clubs": ("{n} трефу", "{n} трефы", "{n} треф")},
    "pt": {"cards": ("{n} carta", "{n} cartas"), "points": ("{n} ponto", "{n} pontos"),
           "clubs": ("{n} carta de paus", "{n} cartas de paus")},
    "fa": {"cards": ("{n} کارت",), "points": ("{n} امتیاز",), "clubs": ("{n} خاج",)},
}
"""The nouns a capture is counted in, in each language's forms (``_counted``)."""

_WORDS: dict[str, dict[str, str]] = {
    "en": {"takes": "takes {cards} now: {points}, {clubs}",
           "lays": "lays {card} on the table, taking nothing",
           "sur": "clears the table: a sur",
           "reply": "the next player's best reply takes about {reply} points",
           "value": "expected {value:+.1f} points ahead by the end of the hand"},
    "ru": {"takes": "берёт {cards}: {points}, {clubs}",
           "lays": "кладёт {card} на стол, ничего не беря",
           "sur": "очищает стол: сур",
           "reply": "лучший ответ следующего игрока берёт около {reply} очков",
           "value": "ожидается {value:+.1f} очков разницы к концу сдачи"},
    "pt": {"takes": "leva {cards} agora: {points}, {clubs}",
           "lays": "põe {card} na mesa sem levar nada",
           "sur": "limpa a mesa: um sur",
           "reply": "a melhor resposta do próximo jogador leva cerca de {reply} pontos",
           "value": "espera {value:+.1f} pontos de vantagem no fim da mão"},
    "fa": {"takes": "اکنون {cards} می‌برد: {points}، {clubs}",
           "lays": "{card} را روی میز می‌گذارد و چیزی نمی‌برد",
           "sur": "میز را پاک می‌کند: یک سور",
           "reply": "بهترین پاسخ بازیکن بعدی حدود {reply} امتیاز می‌برد",
           "value": "انتظار {value:+.1f} امتیاز برتری در پایان دست", "and": "؛ "},
}

LEARN = PasurLearn()
