"""Pasur in the terminal: the table, your hand, the piles, hand summaries, the match.

The cards that score under the rules in force (aces, jacks, 2♣, 10♦, and the 7♦ where it
counts) are underlined, and every move is told with what it caused: a sur, a new deal
round, and at a hand's end who took the cards left on the table.

>>> from cardtable import pasur
>>> counting(pasur.PRESETS["standard"])("10♦"), counting(pasur.PRESETS["standard"])("9♦")
(True, False)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from .text import cards_line, log_lines, plural


def counting(rules: Any) -> Callable[[str], bool]:
    """Whether a card scores points when captured, under ``rules``."""
    def counts(card: str) -> bool:
        rank = card[:-1]
        return ((rank == "A" and rules.ace_points > 0) or (rank == "J" and rules.jack_points > 0)
                or (card == "2♣" and rules.two_clubs_points > 0)
                or (card == "10♦" and rules.ten_diamonds_points > 0)
                or (card == "7♦" and rules.seven_diamonds_points > 0))
    return counts


def side_names(view: dict, names: Sequence[str]) -> list[str]:
    sides = view["sides"]
    players = view["players"]
    return [" & ".join(names[s] for s in range(players) if s % sides == side)
            for side in range(sides)]


def screen(view: dict, names: Sequence[str], spec: Any, *,
           log: Sequence[tuple[Any, ...]] = (), rules: Any = None) -> list[RenderableType]:
    """The screen for one seat (or a spectator), in at most about 16 lines."""
    match = view.get("match") or {}
    sides = side_names(view, names)
    totals = match.get("totals")
    marked = counting(rules) if rules is not None else _marker(spec)
    head = Text.assemble(
        ("Pasur", "bold"),
        f" · hand {match.get('hand_number', 1)} · deal {view['deal_round']}/"
        f"{view['deal_rounds']} · stock {view['stock_size']}",
    )
    if totals is not None:
        goal = (f"{match['fixed_hands']} hands" if match.get("fixed_hands")
                else f"to {match.get('target')}")
        head.append(f" · match {goal}")
    out: list[RenderableType] = [head]
    if totals is not None:
        out.append(Text("Match points: " + " · ".join(
            f"{sides[i]} {t}" for i, t in enumerate(totals)), style="bold"))

    piles = Table.grid(padding=(0, 2))
    piles.add_column()
    piles.add_column(justify="right")
    piles.add_column()
    for seat in range(view["players"]):
        if seat == view.get("seat"):
            continue
        turn = " ◀ to play" if view["to_move"] == seat else ""
        piles.add_row(Text(names[seat], style="bold"),
                      plural(view["hand_sizes"][seat], "card"), Text(turn, style="yellow"))
    out.append(piles)
    for side, captured in enumerate(view["captured"]):
        out.append(Text(f"  {took(sides[side], captured, view['surs'][side])}", style="dim"))
    out.extend(log_lines(log, names))
    out.append(Text.assemble(("Table: ", "bold"),
                             cards_line(view["table"], empty="(empty)", marked=marked)))
    if view.get("hand") is not None:
        mine = Text.assemble((f"{names[view['seat']]}: ", "bold"),
                             cards_line(view["hand"], marked=marked))
        if view["to_move"] == view["seat"] and not view["over"]:
            mine.append("   your turn", style="yellow")
        out.append(mine)
    return out


def took(who: str, captured: Sequence[str], surs: int) -> str:
    """What a side has taken this hand, in words.

    >>> took("You", ["2♣", "5♥"], 1)
    'You took 2 cards, 1 club, 1 sur'
    """
    clubs = sum(1 for c in captured if c.endswith("♣"))
    return (f"{who} took {plural(len(captured), 'card')}, {plural(clubs, 'club')}, "
            f"{plural(surs, 'sur')}")


def _marker(spec: Any) -> Callable[[str], bool]:
    presets = getattr(spec, "presets", None) or {}
    rules = presets.get(getattr(spec, "default_preset", "standard")) if presets else None
    return counting(rules) if rules is not None else (lambda card: False)


def narrate(before: dict, state: Any, seat: int, move: str,
            names: Sequence[str]) -> tuple[str, list[str]]:
    """A move in words, with what it caused: a sur, a new deal, the end of a hand (and
    who took the cards left on the table)."""
    hands = getattr(state, "finished_hands", [])
    ended = len(hands) > (before.get("match") or {}).get("hand_number", 1) - 1
    after = hands[-1].view(None) if ended else state.view(None)
    sides = side_names(after, names)
    notes: list[str] = []
    for side, (old, new) in enumerate(zip(before["surs"], after["surs"], strict=True)):
        if new > old:
            notes.append(f"Sur! {names[seat]} cleared the table "
                         f"({sides[side]}: {plural(new, 'sur')})")
    if ended:
        number = len(hands)
        swept = after.get("swept") or []
        last = after.get("last_capturer")
        if swept and last is not None:
            cards = "card" if len(swept) == 1 else plural(len(swept), "card")
            notes.append(f"Hand {number} is over: {names[last]} took the {cards} left "
                         f"on the table: {' '.join(swept)}")
        else:
            notes.append(f"Hand {number} is over: no cards were left on the table")
        if not state.is_over():
            notes.append(hand_start(state, names))
    elif after["deal_round"] > before["deal_round"]:
        notes.append(f"Deal {after['deal_round']} of {after['deal_rounds']}: "
                     f"{plural(after['hand_sizes'][0], 'new card')} each")
    return move, notes


def hand_start(state: Any, names: Sequence[str]) -> str:
    """The line that opens a hand: its number, who leads, the cards dealt to the table.

    >>> from cardtable import games
    >>> spec = games.get("pasur")
    >>> hand_start(spec.start(spec.rules(), players=2, seed=3), ["You", "Medium"])
    'Hand 1: You lead; table A♥ 4♣ 8♦ Q♠'
    """
    view = state.view(None)
    number = (view.get("match") or {}).get("hand_number", 1)
    leader = state.to_move
    who = "You lead" if leader is not None and names[leader] == "You" else (
        f"{names[leader]} leads" if leader is not None else "nobody leads")
    table = " ".join(view["table"]) or "empty"
    return f"Hand {number}: {who}; table {table}"


def opening(state: Any, names: Sequence[str]) -> list[str]:
    """What the game's start says: the first hand's line."""
    return [hand_start(state, names)]


def hand_marker(state: Any) -> int:
    """How many hands have finished: a change means a hand summary is due."""
    return len(getattr(state, "finished_hands", []))


def sheet_table(sheet: Sequence[dict], sides: Sequence[str], title: str) -> Table:
    table = Table(title=title, title_justify="left")
    table.add_column("")
    for name in sides:
        table.add_column(name, justify="right")
    rows = [("cards", "cards"), ("clubs", "clubs"), ("aces", "aces"), ("jacks", "jacks"),
            ("2♣", "two_clubs"), ("10♦", "ten_diamonds"), ("surs", "surs"),
            ("card points", "card_points"), ("bonus", "bonus"), ("sur points", "sur_points"),
            ("points", "points")]
    for label, key in rows:
        values = []
        for line in sheet:
            value = line[key]
            values.append("✓" if value is True else "" if value is False else str(value))
        table.add_row(label, *values, style="bold" if key == "points" else None)
    return table


def finished_part(state: Any, before: int, names: Sequence[str]) -> RenderableType | None:
    """The summary of a hand that has just ended, with the match table."""
    hands = getattr(state, "finished_hands", [])
    if len(hands) == before or not hands:
        return None
    view = state.view(None)
    sides = side_names(view, names)
    hand = hands[-1]
    return sheet_table(hand.score_sheet(), sides, f"Hand {len(hands)} is over")


def final(view: dict, names: Sequence[str], spec: Any) -> RenderableType:
    match = view.get("match") or {}
    sides = side_names(view, names)
    table = Table(title="The match", title_justify="left")
    table.add_column("hand")
    for name in sides:
        table.add_column(name, justify="right")
    for number, points in enumerate(match.get("hand_points", []), 1):
        table.add_row(str(number), *[str(p) for p in points])
    table.add_row("total", *[str(t) for t in match.get("totals", [])], style="bold")
    winner = match.get("winner")
    caption = (f"{sides[winner]} won the match." if winner is not None
               else "The match is drawn." if match.get("over") else "The match goes on.")
    table.caption = caption
    return table
