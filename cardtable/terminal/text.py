"""The words and cards every screen draws: coloured cards, moves and logs.

Kept apart from the package so that the screens and the session can share them
without importing the package that holds them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rich.text import Text

__all__ = ["MARK", "SUIT_STYLE", "card_text", "cards_line", "log_lines", "move_text",
           "plural"]

SUIT_STYLE = {"♣": "bold green", "♦": "bold blue", "♥": "bold red", "♠": "bold"}
"""The four-colour deck: every suit a colour of its own (♦ is not a second red)."""

MARK = "underline"
"""How a card that matters is marked: a trump, a card that counts in Pasur."""


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 club``, ``2 clubs``: a count with its noun.

    >>> plural(1, "club"), plural(0, "card"), plural(3, "sur")
    ('1 club', '0 cards', '3 surs')
    """
    return f"{count} {word if count == 1 else many or word + 's'}"


def card_text(card: str, *, highlight: bool = False, mark: bool = False) -> Text:
    """A card as coloured text, each suit its own colour; ``mark`` underlines a card that
    matters (a trump, a counting card)."""
    style = SUIT_STYLE.get(card[-1:], "")
    if mark:
        style += " " + MARK
    if highlight:
        style += " reverse"
    return Text(card, style=style.strip())


def cards_line(cards: Sequence[str], *, empty: str = "—",
               marked: Callable[[str], bool] | None = None) -> Text:
    """Cards in a row; those ``marked`` says matter are underlined."""
    if not cards:
        return Text(empty, style="dim")
    return Text(" ").join(card_text(c, mark=bool(marked and marked(c))) for c in cards)


def log_lines(log: Sequence[tuple[Any, ...]], names: Sequence[str]) -> list[Text]:
    """The moves given (``(seat, words)`` or ``(seat, words, notes)``), in flowing lines
    ``Name: words · Name: words``, each note (a sur, a round's end) on a line of its own."""
    out: list[Text] = []
    run: list[Text] = []
    for entry in log:
        seat, words = entry[0], entry[1]
        notes = entry[2] if len(entry) > 2 else ()
        if seat is not None:    # None: what the game's start says, no move
            run.append(Text.assemble((f"{names[seat]}: ", "bold"), move_text(words)))
        if notes:
            if run:
                out.append(Text("  ") + Text(" · ").join(run))
            run = []
            out.extend(Text.assemble("  ", ("» ", "cyan"), move_text(note)) for note in notes)
    if run:
        out.append(Text("  ") + Text(" · ").join(run))
    return out


def move_text(move: str) -> Text:
    """A move's text with its cards coloured."""
    out = Text()
    for i, word in enumerate(move.split(" ")):
        if i:
            out.append(" ")
        card = word.rstrip(",.;:)")
        if card[-1:] in SUIT_STYLE and len(card) >= 2:
            out.append_text(card_text(card))
            out.append(word[len(card):])
        else:
            out.append(word)
    return out
