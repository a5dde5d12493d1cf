"""The terminal game: ``cardtable play`` and ``cardtable replay``.

The screen is drawn from ``state.view(seat)`` of the seat whose turn it is, so a human
sees exactly what the engine lets that seat see.  A game's ``GameSpec.screen`` names its
drawing module: ``screen(view, names, spec, *, log) -> list of Rich renderables`` and
``final(view, names, spec)``, and optionally ``hand_marker`` and ``finished_part`` for a
game made of hands.  A game that names none is drawn by ``cardtable.terminal.generic``
(its hand, its table and the view's other fields); this module holds what every game
shares, and the moves are always listed by number.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from .. import bots as botlib
from .. import games
from ..cards import CardError
from ..game import GameSpec, GameState, IllegalMove, rule_options
from ..records import Record, record_of

__all__ = ["Quit", "Session", "card_text", "play", "screen_module", "seat_plan", "watch"]

SUIT_STYLE = {"♣": "bold green", "♦": "bold red", "♥": "bold red", "♠": "bold blue"}

HELP = "number or move text · h hint · u undo · r rules · q quit"


def card_text(card: str, *, highlight: bool = False) -> Text:
    """A card as coloured text: red hearts and diamonds, and distinct clubs and spades."""
    style = SUIT_STYLE.get(card[-1:], "")
    if highlight:
        style += " reverse"
    return Text(card, style=style)


def cards_line(cards: Sequence[str], *, empty: str = "—") -> Text:
    if not cards:
        return Text(empty, style="dim")
    return Text(" ").join(card_text(c) for c in cards)


def move_text(move: str) -> Text:
    """A move's text with its cards coloured."""
    out = Text()
    for i, word in enumerate(move.split(" ")):
        if i:
            out.append(" ")
        out.append_text(card_text(word) if word[-1:] in SUIT_STYLE else Text(word))
    return out


def screen_module(spec: GameSpec) -> Any:
    """The drawing module a game's spec names, or the generic screen if it names none."""
    if spec.screen is None:
        from . import generic

        return generic
    return spec.plugin("screen")


@dataclasses.dataclass
class Seat:
    kind: str  # "human" or a bot spec
    name: str
    bot: Any = None

    @property
    def human(self) -> bool:
        return self.kind == "human"


def seat_plan(players: int, *, vs: Sequence[str] = (), seats: Sequence[str] = (),
              hotseat: bool = False) -> list[str]:
    """Who sits where: ``seats`` given whole, or seat 0 human and the others ``vs`` bots.

    Without ``hotseat`` the last ``vs`` level fills the remaining seats; with it, seats
    past the ``vs`` list are humans sharing the terminal.
    """
    if seats:
        if len(seats) != players:
            raise ValueError(f"--seats lists {len(seats)} seats for {players} players")
        return list(seats)
    levels = list(vs)
    if len(levels) > players - 1:
        others = players - 1
        raise ValueError(f"--vs names {len(levels)} bots for {others} other "
                         f"seat{'' if others == 1 else 's'} ({players} players)")
    plan = ["human"]
    for seat in range(1, players):
        if seat - 1 < len(levels):
            plan.append(levels[seat - 1])
        elif hotseat:
            plan.append("human")
        else:
            plan.append(levels[-1] if levels else "medium")
    return plan


class Quit(Exception):
    """The player asked to leave the game."""


class Session:
    """One game in the terminal: draws the screen, reads moves, lets bots play."""

    def __init__(self, spec: GameSpec, rules: Any, *, players: int, plan: Sequence[str],
                 seed: int | None = None, console: Console | None = None,
                 read: Callable[[str], str] | None = None, hint: str = "greedy",
                 hotseat_pause: bool | None = None) -> None:
        self.spec = spec
        self.rules = rules
        self.players = players
        self.console = console or Console()
        self.read = read or _read_line
        self.screen = screen_module(spec)
        self.seats: list[Seat] = []
        humans = sum(1 for kind in plan if kind == "human")
        for seat, kind in enumerate(plan):
            if kind == "human":
                name = "You" if humans == 1 else f"Player {seat + 1}"
                self.seats.append(Seat("human", name))
            else:
                bot = botlib.make(kind, seed=None if seed is None else seed * 31 + seat)
                self.seats.append(Seat(kind, f"{kind.split(':')[0].title()} {seat + 1}", bot))
        self.hotseat = humans > 1
        self.pause = self.hotseat if hotseat_pause is None else hotseat_pause
        self.practice = not self.hotseat
        self.hint_bot = botlib.make(hint, seed=seed)
        self.state: GameState = spec.start(rules, players=players, seed=seed)
        self.message: Text | None = None
        self.log: list[tuple[int, str]] = []
        self._shown_for: int | None = None

    # -- the loop -------------------------------------------------------------------------
    def run(self) -> GameState:
        try:
            while not self.state.is_over():
                seat = self.state.to_move
                assert seat is not None
                if self.seats[seat].human:
                    self._human_turn(seat)
                else:
                    self._bot_turn(seat)
        except Quit:
            return self.state
        self.draw(self._viewer())
        self.console.print(self.screen.final(self.state.view(self._viewer()), self.names,
                                             self.spec))
        return self.state

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]

    def _viewer(self) -> int | None:
        humans = [i for i, seat in enumerate(self.seats) if seat.human]
        return humans[0] if len(humans) == 1 else None

    def _bot_turn(self, seat: int) -> None:
        before = self._hand_marker()
        move = self.seats[seat].bot.choose(self.state)
        self._push(seat, move)
        self._after_move(before)

    def _human_turn(self, seat: int) -> None:
        if self.pause and self._shown_for != seat:
            self.console.clear()
            self.console.print(Panel(f"{self.names[seat]}'s turn: pass the terminal to "
                                     f"{self.names[seat]} and press Enter.", expand=False))
            self.read("")
        self._shown_for = seat
        while True:
            self.draw(seat)
            answer = self.read("> ").strip()
            if self._command(seat, answer):
                continue
            move = self._understand(seat, answer)
            if move is None:
                continue
            before = self._hand_marker()
            self._push(seat, move)
            self.message = None
            self._after_move(before)
            return

    def _push(self, seat: int, move: Any) -> None:
        self.state.push(move)
        self.log.append((seat, str(move)))

    def _hand_marker(self) -> Any:
        marker = getattr(self.screen, "hand_marker", None)
        return marker(self.state) if marker else None

    def _after_move(self, before: Any) -> None:
        """Show a summary when a part of the game (a Pasur hand) has just ended."""
        finished = getattr(self.screen, "finished_part", None)
        if finished is None:
            return
        summary = finished(self.state, before, self.names)
        if summary is not None and not self.state.is_over():
            self.console.print(summary)
            if sys.stdin.isatty() and self.read is _read_line:
                self.read("Press Enter for the next hand ")

    # -- input ----------------------------------------------------------------------------
    def _command(self, seat: int, answer: str) -> bool:
        word = answer.lower()
        if word in ("q", "quit"):
            raise Quit
        if word in ("h", "hint"):
            try:
                move = self.hint_bot.choose(self.state)
            except ValueError as error:   # e.g. a game the hint bot has no kit for
                self.message = Text(f"No hint: {error}", style="yellow")
                return True
            self.message = Text.assemble(("Hint: ", "bold"), move_text(str(move)),
                                         f"  (from the {self.hint_bot.name} bot)")
            return True
        if word in ("r", "rules"):
            self.message = None
            self.console.print(rules_table(self.spec, self.rules))
            self.read("Press Enter to go back to the game ")
            return True
        if word in ("u", "undo"):
            self._undo(seat)
            return True
        if word in ("?", "help"):
            self.message = Text(HELP)
            return True
        return False

    def _undo(self, seat: int) -> None:
        if not self.practice:
            self.message = Text("Undo is for practice games only (not with several humans).",
                                style="yellow")
            return
        undone = 0
        # Take back the moves since this seat's previous decision, and that decision.
        while self.log:
            who, _ = self.log[-1]
            self.state.pop()
            self.log.pop()
            undone += 1
            if who == seat:
                break
        if not undone:
            self.message = Text("Nothing to undo yet.", style="yellow")
        else:
            self.message = Text(f"Took back {undone} move(s).", style="cyan")
        while not self.state.is_over() and not self.seats[self.state.to_move].human:
            self._bot_turn(self.state.to_move)

    def _understand(self, seat: int, answer: str) -> Any:
        legal = self.state.legal_moves()
        if not answer:
            self.message = Text(HELP, style="yellow")
            return None
        if answer.isdigit():
            number = int(answer)
            if 1 <= number <= len(legal):
                return legal[number - 1]
            self.message = Text(f"There is no move {number}: choose 1 to {len(legal)}.",
                                style="red")
            return None
        try:
            move = self.state.parse_move(answer)
            if move not in legal:
                # Ask the engine why, without changing anything.
                probe = self.state.copy()
                probe.push(move)
                self.message = Text(f"{answer!r} is not legal now.", style="red")
                return None
            return move
        except (IllegalMove, CardError, ValueError) as error:
            self.message = Text(f"{answer!r}: {error}", style="red")
            return None

    # -- output ---------------------------------------------------------------------------
    def draw(self, seat: int | None) -> None:
        view = self.state.view(seat)
        parts = self.screen.screen(view, self.names, self.spec, log=self.log)
        if seat is not None and self.state.to_move == seat and not self.state.is_over():
            # numbered as ``_understand`` reads a number: the state's own list
            parts.append(moves_table([str(move) for move in self.state.legal_moves()]))
        if self.message is not None:
            parts.append(self.message)
        elif seat is not None and self.state.to_move == seat:
            parts.append(Text(HELP, style="dim"))
        self.console.clear()
        self.console.print(Group(*parts))

    def record(self) -> Record:
        seats = [{"name": s.name, "kind": s.kind} for s in self.seats]
        return record_of(self.state, self.spec.name, seats=seats)


def moves_table(moves: Sequence[str]) -> Table:
    """The legal moves, numbered, in as many columns as fit 80 characters."""
    width = max((len(m) for m in moves), default=4) + 5
    columns = max(1, min(4, 78 // width))
    grid = Table.grid(padding=(0, 2))
    for _ in range(columns):
        grid.add_column()
    cells = [Text.assemble((f"{i:>2} ", "bold"), move_text(m)) for i, m in enumerate(moves, 1)]
    rows = (len(cells) + columns - 1) // columns
    for r in range(rows):
        grid.add_row(*[cells[c * rows + r] if c * rows + r < len(cells) else Text("")
                       for c in range(columns)])
    return grid


def rules_table(spec: GameSpec, rules: Any) -> Table:
    preset = spec.preset_of(rules)
    table = Table(title=f"{spec.title} rules in force"
                  + (f" (preset {preset})" if preset else " (custom)"), show_lines=False)
    table.add_column("option", style="bold")
    table.add_column("value")
    table.add_column("meaning", style="dim")
    for option in rule_options(spec.rules_type):
        value = getattr(rules, option.name)
        table.add_row(option.name, _fmt(value), option.doc)
    return table


def _fmt(value: Any) -> str:
    if isinstance(value, tuple | list | frozenset):
        return ", ".join(str(v) for v in value)
    return str(value)


def _read_line(prompt: str) -> str:
    try:
        return input(prompt)
    except EOFError:
        raise Quit from None


def play(game: str, *, preset: str | None = None, options: dict | None = None,
         players: int | None = None, vs: Sequence[str] = (), seats: Sequence[str] = (),
         hotseat: bool = False, seed: int | None = None, console: Console | None = None,
         read: Callable[[str], str] | None = None, hint: str = "greedy") -> Session:
    """Set up and run a terminal game; returns the session (its state, record, log)."""
    spec = games.get(game)
    rules = spec.rules(preset, options)
    players = players or spec.default_players
    spec.check_players(rules, players)
    plan = seat_plan(players, vs=vs, seats=seats, hotseat=hotseat)
    session = Session(spec, rules, players=players, plan=plan, seed=seed, console=console,
                      read=read, hint=hint)
    session.run()
    return session


def watch(spec: GameSpec, bot_specs: Sequence[str], *, players: int | None = None,
          rules: Any = None, seed: int | None = None, console: Console | None = None) -> GameState:
    """Bots play a whole game, printed readably: deals, every move, summaries, the result."""
    console = console or Console()
    players = players or len(bot_specs) or spec.default_players
    rules = rules if rules is not None else spec.rules()
    specs = [bot_specs[i % len(bot_specs)] for i in range(players)]
    players_bots = [botlib.make(s, seed=None if seed is None else seed + 7 * i)
                    for i, s in enumerate(specs)]
    names = [f"{s.split(':')[0].title()} {i + 1}" for i, s in enumerate(specs)]
    state = spec.start(rules, players=players, seed=seed)
    screen = screen_module(spec)
    marker = getattr(screen, "hand_marker", None)
    finished = getattr(screen, "finished_part", None)
    held = -1
    console.print(Text(f"{spec.title}: {', '.join(names)}", style="bold"))
    while not state.is_over():
        views = [state.view(seat) for seat in range(players)]
        total = sum(len(v.get("hand") or []) for v in views)
        if total > held:
            console.print(Text.assemble(("Table: ", "bold"),
                                        cards_line(views[0].get("table") or [])
                                        if isinstance((views[0].get("table") or [""])[0], str)
                                        else Text("")))
            for seat, view in enumerate(views):
                console.print(Text.assemble(f"  {names[seat]} holds ",
                                            cards_line(view.get("hand") or [])))
        held = total
        seat = state.to_move
        before = marker(state) if marker else None
        move = players_bots[seat].choose(state)
        state.push(move)
        console.print(Text.assemble(f"{names[seat]}: ", move_text(str(move))))
        if finished is not None:
            summary = finished(state, before, names)
            if summary is not None:
                console.print(summary)
                held = -1
    console.print(screen.final(state.view(None), names, spec))
    return state
