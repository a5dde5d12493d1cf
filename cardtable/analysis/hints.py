"""Hints that explain: the move a level would play, and why, from a search's values.

``hint(state, bot)`` asks the bot (a level, e.g. ``medium``) for its move, then words it
with the game's ``learn`` plug-in: Pasur, what the move takes now (points, clubs, a sur)
and what the next player's best reply takes; Durak, the beat and the trumps kept, and the
chance of being the durak.  The values are the search's: the bot's own when it searched
the position itself (``stats["moves"]``), else a paired search of the seat's information
set.  The two or three best moves come with their values.  The server calls ``hint`` as
it is (a function of a state and a bot, JSON-able result).  A Pasur hint asks the bot
about the hand being played, whose reward is points, not about the match (whose reward is
shaped by the score): the values then read in points.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field
from typing import Any

from .. import bots
from ..game import GameState
from .search import learn_of, values

__all__ = ["Hint", "hint"]

HINT_ITERATIONS = 800
"""The search behind a hint when the bot did not search (basic, greedy) or searched a
different reward (a Pasur match's, shaped by the match score)."""


@dataclass
class Hint:
    """A hint: the move, why (``text``), and the best moves with their values in ``unit``."""

    move: str
    level: str
    text: str
    unit: str
    choices: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def lines(self) -> list[str]:
        """The hint as lines of text for a terminal."""
        out = [f"{self.move}: {self.text}"]
        for choice in self.choices:
            out.append(f"  {choice['move']:<24} {choice['shown']}")
        return out


def hint(state: GameState[Any], bot: Any = "medium", *, lang: str = "en", top: int = 3,
         seed: int | None = 0) -> Hint:
    """The move ``bot`` (a bot or a spec such as ``"medium"``) would play now, explained.

    Raises ``ValueError`` when the game is over or has no ``learn`` plug-in.
    """
    if state.to_move is None:
        raise ValueError("there is no move to hint: the game is over")
    learn = learn_of(state)
    if isinstance(bot, str):
        bot = bots.make(bot, seed=seed)
    position = learn.searched(state)
    move = bot.choose(position)   # a Pasur hint searches the hand (in points), not the match
    stats = getattr(bot, "stats", {}) or {}
    legal = {str(m): m for m in position.legal_moves()}
    if stats.get("moves") and len(stats["moves"]) == len(legal):
        found = {legal[text]: mean for text, (_, mean) in stats["moves"].items()}
    else:
        found = values(position, iterations=HINT_ITERATIONS,
                       seed=random.Random(seed if seed is not None else 0))
    ranked = sorted(found, key=lambda m: -found[m])[:top]
    if move not in ranked:
        ranked = [*ranked[:top - 1], move]
    others = {m: learn.expected(v) for m, v in found.items()}
    choices = [{"move": str(m), "value": round(learn.expected(found.get(m, 0.0)), 3),
                "shown": learn.show(learn.expected(found.get(m, 0.0))),
                "text": learn.explain(position, m, learn.expected(found.get(m, 0.0)),
                                      lang=lang, others=others)}
               for m in ranked]
    text = next(c["text"] for c in choices if c["move"] == str(move))
    return Hint(move=str(move), level=getattr(bot, "name", str(bot)), text=text,
                unit=learn.unit, choices=choices)
