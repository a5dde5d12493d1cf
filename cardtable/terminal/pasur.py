"""Pasur in the terminal: the table, your hand, the piles, hand summaries, the match."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from . import cards_line, move_text


def side_names(view: dict, names: Sequence[str]) -> list[str]:
    sides = view["sides"]
    players = view["players"]
    return [" & ".join(names[s] for s in range(players) if s % sides == side)
            for side in range(sides)]


def screen(view: dict, names: Sequence[str], spec: Any, *,
           log: Sequence[tuple[int, str]] = ()) -> list[RenderableType]:
    """The screen for one seat (or a spectator), in at most about 16 lines."""
    match = view.get("match") or {}
    sides = side_names(view, names)
    totals = match.get("totals")
    head = Text.assemble(
        ("Pasur", "bold"),
        f" · hand {match.get('hand_number', 1)} · deal {view['deal_round']}/"
        f"{view['deal_rounds']} · stock {view['stock_size']}",
    )
    if totals is not None:
        goal = (f"{match['fixed_hands']} hands" if match.get("fixed_hands")
                else f"to {match.get('target')}")
        head.append(f" · match {goal}: ")
        head.append(", ".join(f"{sides[i]} {t}" for i, t in enumerate(totals)))
    out: list[RenderableType] = [head]

    piles = Table.grid(padding=(0, 2))
    piles.add_column()
    piles.add_column(justify="right")
    piles.add_column()
    for seat in range(view["players"]):
        if seat == view.get("seat"):
            continue
        turn = " ◀ to play" if view["to_move"] == seat else ""
        piles.add_row(Text(names[seat], style="bold"), f"{view['hand_sizes'][seat]} cards",
                      Text(turn, style="yellow"))
    out.append(piles)
    for side, captured in enumerate(view["captured"]):
        clubs = sum(1 for c in captured if c.endswith("♣"))
        out.append(Text(f"  {sides[side]} took {len(captured)} cards, {clubs} clubs, "
                        f"surs {view['surs'][side]}", style="dim"))
    out.append(Text.assemble(("Table: ", "bold"), cards_line(view["table"], empty="(empty)")))
    for seat, move in list(log)[-3:]:
        out.append(Text.assemble(f"  {names[seat]}: ", move_text(move)))
    if view.get("hand") is not None:
        mine = Text.assemble((f"{names[view['seat']]}: ", "bold"), cards_line(view["hand"]))
        if view["to_move"] == view["seat"] and not view["over"]:
            mine.append("   your turn", style="yellow")
        out.append(mine)
    return out


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
    caption = f"{sides[winner]} won the match." if winner is not None else "The match goes on."
    table.caption = caption
    return table
