"""Hints that explain: the move the analysis's own judge ranks best now, and why.

``hint(state)`` asks the judge (``cardtable.analysis.weighing``: every legal move played on
the same deals of the unseen cards, or the exact solver where nothing is hidden) for every
move's value, names the move those values rank first, so a hint never names a move its own
figures rank lower, and words it with the game's ``learn`` plug-in: Pasur, what the move
takes now (points, clubs, a sur) and what the next player's best reply takes; Durak, the
beat and the trumps kept, and the chance of being the durak.  ``why`` says in a sentence
how sure the ranking is.  The two or three best moves come with their values.  The server
calls ``hint`` as it is (a function of a state, JSON-able result).  A Pasur hint judges the
hand being played, whose reward is points, not the match (whose reward the score shapes).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from ..game import GameState
from .search import DEFAULT_ITERATIONS, learn_of
from .weighing import smallest_budget, weigh

__all__ = ["Hint", "hint"]

HINT_ITERATIONS = DEFAULT_ITERATIONS
"""The judge's budget behind a hint: the analysis's own, so that a hint and the analysis of
the same position name the same best move (the hint runs the judge's choice alone, half
the budget at most: an answer within a second, docs/learn.md has the figures)."""


@dataclass
class Hint:
    """A hint: the move, what it does (``text``), why it is ranked first (``why``), and the
    best moves with their values in ``unit``."""

    move: str
    level: str
    text: str
    unit: str
    choices: list[dict[str, Any]] = field(default_factory=list)
    why: str = ""
    sure: bool = False
    """The move stands clear of every other (or the exact solver proved it)."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def lines(self) -> list[str]:
        """The hint as lines of text for a terminal."""
        out = [f"{self.move}: {self.text}", *([self.why] if self.why else [])]
        for choice in self.choices:
            out.append(f"  {choice['move']:<24} {choice['shown']}")
        return out


def hint(state: GameState[Any], bot: Any = None, *, lang: str = "en", top: int = 3,
         seed: int | None = 0, budget: int = HINT_ITERATIONS) -> Hint:
    """The move the judge ranks best now for the seat to move, explained in ``lang``.

    ``bot`` (a level such as ``"medium"``, or a bot) is who asked: its name is kept in
    ``level``; at every level the move and its values are the judge's, the same as the
    analysis's: with the same ``budget`` and ``seed``, the analysis of this position names
    this move as the best, whatever move was played.  Raises ``ValueError`` when the game
    is over or has no ``learn`` plug-in.
    """
    if state.to_move is None:
        raise ValueError("there is no move to hint: the game is over")
    learn = learn_of(state)
    position = learn.searched(state)   # a Pasur hint judges the hand (in points), not the match
    choices_here = len(position.legal_moves())
    found = weigh(position, budget=max(budget, smallest_budget(choices_here)),
                  seed=seed if seed is not None else 0)
    worth = {m: learn.expected(v) for m, v in found.values.items()}
    ranked = sorted(found.values, key=lambda m: (m != found.best, -found.values[m]))
    move = ranked[0]   # the best by the judge's own figures, which rank no move above it
    choices = [{"move": str(m), "value": round(worth[m], 3), "shown": learn.show(worth[m]),
                "text": learn.explain(position, m, worth[m], lang=lang, others=worth)}
               for m in ranked[:top]]
    # sure: the exact solver's, or every other move left the race as clearly worse
    sure = found.exact or found.contenders == 1
    words = _WHY.get(lang, _WHY["en"])
    key = "forced" if len(ranked) == 1 else "exact" if found.exact else (
        "clear" if sure else "close")
    why = words[key].format(n=len(ranked), deals=found.choice_deals or found.deals)
    name = bot if isinstance(bot, str) else getattr(bot, "name", None) or "judge"
    return Hint(move=str(move), level=name, text=choices[0]["text"], unit=learn.unit,
                choices=choices, why=why, sure=sure)


_WHY: dict[str, dict[str, str]] = {
    "en": {"forced": "It is the only move you can make.",
           "exact": "The best of your {n} moves: every card is known now, so each move was "
                    "played out to the end.",
           "clear": "The best of your {n} moves: each was tried on the same {deals} guesses at "
                    "the cards you cannot see, and this one came out clearly ahead.",
           "close": "The best of your {n} moves, by a little: on the same {deals} guesses at "
                    "the cards you cannot see, the next best did almost as well, so either is "
                    "a good move."},
    "ru": {"forced": "Другого хода у вас нет.",
           "exact": "Лучший из ваших {n} ходов: все карты уже известны, и каждый ход разыгран "
                    "до конца.",
           "clear": "Лучший из ваших {n} ходов: каждый проверен на одних и тех же {deals} "
                    "догадках о картах, которых вы не видите, и этот явно впереди.",
           "close": "Лучший из ваших {n} ходов, но ненамного: на тех же {deals} догадках о "
                    "картах, которых вы не видите, следующий почти так же хорош, так что "
                    "годится любой."},
    "pt": {"forced": "É o único lance que você pode fazer.",
           "exact": "O melhor dos seus {n} lances: todas as cartas já são conhecidas, e cada "
                    "lance foi jogado até o fim.",
           "clear": "O melhor dos seus {n} lances: cada um foi testado nos mesmos {deals} "
                    "palpites sobre as cartas que você não vê, e este ficou claramente à "
                    "frente.",
           "close": "O melhor dos seus {n} lances, por pouco: nos mesmos {deals} palpites sobre "
                    "as cartas que você não vê, o segundo foi quase tão bem; qualquer um é "
                    "bom."},
    "fa": {"forced": "این تنها حرکتی است که می‌توانید بکنید.",
           "exact": "بهترینِ {n} حرکت شما: همهٔ کارت‌ها اکنون معلوم‌اند و هر حرکت تا پایان "
                    "بازی شد.",
           "clear": "بهترینِ {n} حرکت شما: هر حرکت روی همان {deals} حدس از کارت‌هایی که "
                    "نمی‌بینید آزموده شد و این یکی آشکارا جلوتر است.",
           "close": "بهترینِ {n} حرکت شما، با اختلاف کم: روی همان {deals} حدس از کارت‌هایی "
                    "که نمی‌بینید، حرکت بعدی تقریباً همان‌قدر خوب بود؛ هر دو خوب‌اند."},
}
