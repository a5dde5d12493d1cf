"""Transfer Durak in the terminal: trump, stock, who attacks whom, the table, the durak.

Trumps are underlined wherever they are; every move is told in the game's words (a card
added to a running attack is a throw-in), with where each round ends and who leads the
next, and the end gives the finishing order and the viewer's own result.

>>> ordinal(1), ordinal(2), ordinal(3), ordinal(11)
('1st', '2nd', '3rd', '11th')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from .text import card_text, cards_line, log_lines, plural

PHASE_WORDS = {
    "lead": "{attacker} leads",
    "lead you": "You lead",
    "defend": "{defender} to beat, transfer or take",
    "defend you": "your turn to beat, transfer or take",
    "throw-in": "every card beaten: throw in more or pass",
    "taking": "{defender} takes: throw in more or pass",
}


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th ..."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _verb(name: str, verb: str) -> str:
    """"You attack", "Medium attacks"."""
    return f"{name} {verb}" if name == "You" else f"{name} {verb}s"


def _object(name: str) -> str:
    return "you" if name == "You" else name


def screen(view: dict, names: Sequence[str], spec: Any, *,
           log: Sequence[tuple[Any, ...]] = (), rules: Any = None) -> list[RenderableType]:
    """The screen for one seat (or a spectator), in at most about 16 lines."""
    trump = view.get("trump_card") or view["trump"]
    suit = view["trump"][-1:]

    def is_trump(card: str) -> bool:
        return card.endswith(suit)

    head = Text.assemble(("Transfer Durak", "bold"), " · trump ", card_text(trump, mark=True),
                         f" · stock {view['stock']} · discard {view['discard']}"
                         f" · round {view['round']}")
    out: list[RenderableType] = [head]
    if view.get("attacker") is not None:
        attacker, defender = names[view["attacker"]], names[view["defender"]]
        limit = f" (at most {plural(view['limit'], 'card')})" if view.get("limit") else ""
        key = view["phase"]
        if (key == "defend" and defender == "You") or (key == "lead" and attacker == "You"):
            key += " you"
        phase = PHASE_WORDS.get(key, view["phase"]).format(attacker=attacker,
                                                           defender=defender)
        out.append(Text(f"{_verb(attacker, 'attack')} {_object(defender)}{limit} · {phase}",
                        style="cyan"))
    grid = Table.grid(padding=(0, 2))
    for _ in range(3):
        grid.add_column()
    for seat in range(view["players"]):
        if seat == view.get("seat"):
            continue
        status = "out" if seat in view.get("out", []) else plural(view["hand_sizes"][seat],
                                                                   "card")
        known = view["known"][seat] if view.get("known") else []
        note = (Text.assemble("known: ", cards_line(known, marked=is_trump)) if known
                else Text(""))
        turn = Text(" ◀ to play", style="yellow") if view["to_move"] == seat else Text("")
        grid.add_row(Text(names[seat], style="bold"), Text(status), Text.assemble(note, turn))
    out.append(grid)
    out.extend(log_lines(log, names))
    table = Text("Table: ", style="bold")
    if not view["table"]:
        table.append("(empty)", style="dim")
    for attack, defence in view["table"]:
        table.append_text(card_text(attack, mark=is_trump(attack)))
        table.append("/")
        table.append_text(card_text(defence, mark=is_trump(defence)) if defence
                          else Text("  ", style="dim"))
        table.append("  ")
    out.append(table)
    if view.get("hand") is not None:
        mine = Text.assemble((f"{names[view['seat']]}: ", "bold"),
                             cards_line(view["hand"], marked=is_trump))
        if view["to_move"] == view["seat"] and view.get("loser") is None:
            mine.append("   your turn", style="yellow")
        out.append(mine)
    return out


def move_words(view: dict, move: str) -> str:
    """A legal move as the player says it: a card added to a running attack is a
    throw-in (typing either form plays it).

    >>> move_words({"table": [["6♦", None]]}, "attack 6♣")
    'throw in 6♣'
    """
    kind, _, rest = move.partition(" ")
    return f"throw in {rest}" if kind == "attack" and view.get("table") else move


def narrate(before: dict, state: Any, seat: int, move: str,
            names: Sequence[str]) -> tuple[str, list[str]]:
    """A move in words (a card added to a running attack is a throw-in), with what it
    caused: a transfer's new defender, a round's end and who leads the next, a player
    going out, the durak."""
    after = state.view(None)
    kind, _, rest = move.partition(" ")
    words = move
    if kind == "attack" and before["table"]:
        words = move_words(before, move)
    elif kind == "transfer" and after.get("defender") is not None:
        words = f"{move} → {names[after['defender']]} defends"
    notes: list[str] = []
    if after["round"] > before["round"] or (after.get("loser") is not None
                                            or after.get("draw")):
        defender = before["defender"]
        if kind == "take" or before["phase"] == "taking":
            cards = [card for pair in before["table"] for card in pair if card]
            cards += rest.split() if kind == "attack" else []
            notes.append(f"{_verb(names[defender], 'take')} {plural(len(cards), 'card')}: "
                         + " ".join(cards))
        elif after["discard"] > before["discard"]:
            notes.append(f"Beaten off: {plural(after['discard'] - before['discard'], 'card')} "
                         "to the discard")
    for out in after.get("out", []):
        if out not in before.get("out", []):
            notes.append(f"{names[out]} {'have' if names[out] == 'You' else 'has'} "
                         "no cards left: out")
    if after["round"] > before["round"] and after.get("attacker") is not None:
        notes.append(round_start(after, names))
    return words, notes


def round_start(view: dict, names: Sequence[str]) -> str:
    """The line that opens a round: "Round 4: Medium attacks You".

    >>> round_start({"round": 4, "attacker": 1, "defender": 2}, ["You", "Easy", "Hard"])
    'Round 4: Easy attacks Hard'
    """
    return (f"Round {view['round']}: {_verb(names[view['attacker']], 'attack')} "
            f"{_object(names[view['defender']])}")


def opening(state: Any, names: Sequence[str]) -> list[str]:
    """What the game's start says: who attacks whom in the first round."""
    view = state.view(None)
    return [round_start(view, names)] if view.get("attacker") is not None else []


def finished_seats(view: dict) -> list[int]:
    """The seats out of the game (no cards left, the stock empty)."""
    return list(view.get("out", []))


def final(view: dict, names: Sequence[str], spec: Any, *,
          order: Sequence[int] = ()) -> RenderableType:
    """How the game ended: the finishing order, the durak, and the viewer's own result."""
    me = view.get("seat")
    if view.get("draw"):
        lines = [Text("The game is a draw: the last defence emptied every hand.",
                      style="bold")]
        if order:
            lines.append(Text("Finishing order: " + ", ".join(
                f"{ordinal(i)} {names[s]}" for i, s in enumerate(order, 1))))
        return Group(*lines)
    loser = view.get("loser")
    if loser is None:
        return Text("The game was left unfinished.")
    finishers = [s for s in order if s != loser]
    finishers += [s for s in range(view["players"]) if s not in finishers and s != loser]
    ranking = [*finishers, loser]
    lines = [Text("Finishing order: " + ", ".join(
        f"{ordinal(i)} {names[s]}" for i, s in enumerate(ranking, 1)) + " (the durak)")]
    teams = view.get("teams")
    if teams:
        partners = [names[s] for s in range(view["players"]) if teams[s] == teams[loser]]
        lines.append(Text(f"{names[loser]} is the durak: team {' & '.join(partners)} loses.",
                          style="bold red"))
        if me is not None:
            lost = teams[me] == teams[loser]
            lines.append(Text("Your team loses." if lost else "Your team wins.",
                              style="bold red" if lost else "bold green"))
    else:
        if me is not None and me == loser:
            lines.append(Text("You are the durak: you lost.", style="bold red"))
        else:
            lines.append(Text(f"{names[loser]} is the durak.", style="bold red"))
        if me is not None and me != loser:
            place = ranking.index(me) + 1
            lines.append(Text(f"You finished {ordinal(place)} of {view['players']}: "
                              "not the durak.", style="bold green"))
    return Group(*lines)
