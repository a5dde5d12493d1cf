"""Transfer Durak in the terminal: trump, stock, who attacks whom, the table, the durak."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from . import card_text, cards_line, move_text


def screen(view: dict, names: Sequence[str], spec: Any, *,
           log: Sequence[tuple[int, str]] = ()) -> list[RenderableType]:
    """The screen for one seat (or a spectator), in at most about 16 lines."""
    trump = view.get("trump_card") or view["trump"]
    head = Text.assemble(("Transfer Durak", "bold"), " · trump ", card_text(trump),
                         f" · stock {view['stock']} · discard {view['discard']}"
                         f" · round {view['round']}")
    out: list[RenderableType] = [head]
    if view.get("attacker") is not None:
        limit = f" (limit {view['limit']})" if view.get("limit") else ""
        out.append(Text(f"{names[view['attacker']]} attacks {names[view['defender']]}"
                        f"{limit} · {view['phase']}", style="cyan"))
    grid = Table.grid(padding=(0, 2))
    for _ in range(3):
        grid.add_column()
    for seat in range(view["players"]):
        if seat == view.get("seat"):
            continue
        status = "out" if seat in view.get("out", []) else f"{view['hand_sizes'][seat]} cards"
        known = view["known"][seat] if view.get("known") else []
        note = Text.assemble("known: ", cards_line(known)) if known else Text("")
        turn = Text(" ◀ to play", style="yellow") if view["to_move"] == seat else Text("")
        grid.add_row(Text(names[seat], style="bold"), Text(status), Text.assemble(note, turn))
    out.append(grid)
    table = Text("Table: ", style="bold")
    if not view["table"]:
        table.append("(empty)", style="dim")
    for attack, defence in view["table"]:
        table.append_text(card_text(attack))
        table.append("/")
        table.append_text(card_text(defence) if defence else Text("  ", style="dim"))
        table.append("  ")
    out.append(table)
    for seat, move in list(log)[-3:]:
        out.append(Text.assemble(f"  {names[seat]}: ", move_text(move)))
    if view.get("hand") is not None:
        mine = Text.assemble((f"{names[view['seat']]}: ", "bold"), cards_line(view["hand"]))
        if view["to_move"] == view["seat"] and view.get("loser") is None:
            mine.append("   your turn", style="yellow")
        out.append(mine)
    return out


def final(view: dict, names: Sequence[str], spec: Any) -> RenderableType:
    if view.get("draw"):
        return Text("The game is a draw: the last defence emptied every hand.", style="bold")
    loser = view.get("loser")
    if loser is None:
        return Text("The game was left unfinished.")
    teams = view.get("teams")
    if teams:
        partners = [names[s] for s in range(view["players"]) if teams[s] == teams[loser]]
        return Text(f"{names[loser]} is the durak: team {' & '.join(partners)} loses.",
                    style="bold red")
    return Text(f"{names[loser]} is the durak.", style="bold red")
