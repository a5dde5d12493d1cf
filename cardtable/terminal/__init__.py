"""The terminal game: ``cardtable play`` and ``cardtable replay``.

The screen is drawn from ``state.view(seat)`` of the seat whose turn it is, so a human
sees exactly what the engine lets that seat see.  A game's ``GameSpec.screen`` names its
drawing module: ``screen(view, names, spec, *, log) -> list of Rich renderables`` and
``final(view, names, spec)``, and optionally ``hand_marker`` and ``finished_part`` for a
game made of hands, ``narrate(before, state, seat, move, names) -> (words, notes)`` to tell
a move and what it caused in the game's own words, and ``finished_seats(view)`` with a
``final(..., order=)`` for a game where players go out one by one.  A game that names
none is drawn by ``cardtable.terminal.generic`` (its hand, its table and the view's other
fields); this module holds what every game shares, and the moves are always listed by
number.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
import re
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
from .prompt import ask_yes, line_editing
from .screens import screen_module
from .text import SUIT_STYLE, card_text, cards_line, log_lines, move_text, plural

__all__ = ["SUIT_STYLE", "Quit", "Session", "card_text", "cards_line", "log_lines",
           "move_text", "play", "plural", "screen_module", "seat_names", "seat_plan", "watch"]

HELP = "number or move text · h hint · u undo · r rules · l log · q quit"


@dataclasses.dataclass
class Seat:
    kind: str  # "human" or a bot spec
    name: str
    bot: Any = None

    @property
    def human(self) -> bool:
        return self.kind == "human"


def seat_names(plan: Sequence[str]) -> list[str]:
    """A name for every seat, without seat numbers: "You", a bot's level ("Medium"), and
    letters where a level sits more than once ("Medium A", "Medium B"); with several
    humans, "Player 1", "Player 2".

    >>> seat_names(["human", "medium", "random", "medium"])
    ['You', 'Medium A', 'Random', 'Medium B']
    """
    humans = sum(1 for kind in plan if kind == "human")
    titles = [kind.split(":")[0].title() for kind in plan]
    count: dict[str, int] = {}
    names = []
    for seat, (kind, title) in enumerate(zip(plan, titles, strict=True)):
        if kind == "human":
            names.append("You" if humans == 1 else f"Player {seat + 1}")
            continue
        if titles.count(title) == 1:
            names.append(title)
            continue
        count[title] = count.get(title, 0) + 1
        names.append(f"{title} {chr(ord('A') + count[title] - 1)}")
    return names


def name_seats(text: str, names: Sequence[str]) -> str:
    """An engine's reason with "seat 2" written as the player's name.

    >>> name_seats("it is seat 1's turn, not seat 0's", ["You", "Medium"])
    "it is Medium's turn, not your"
    >>> name_seats("seat 0 leads this round and seat 0 has 6 cards", ["You", "Medium"])
    'You lead this round and You have 6 cards'
    """
    def name(found: re.Match[str]) -> str:
        seat = int(found.group(1))
        return names[seat] if 0 <= seat < len(names) else found.group(0)

    named = re.sub(r"\bseat (\d+)\b", name, text).replace("You's", "your")
    return re.sub(r"\bYou (\w+s)\b", _you, named)


_YOU = {"has": "have", "is": "are", "does": "do", "was": "were"}


def _you(found: re.Match[str]) -> str:
    """"You leads" as "You lead": the verb after a seat that is the player."""
    verb = found.group(1)
    return "You " + _YOU.get(verb, verb[:-1])


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


def _explained(state: GameState, bot: Any, words: Callable[[str], str]) -> list[str]:
    """The move the analysis's judge ranks best, what it does and why it ranks first, with
    the best moves' values (the school's ``hint``); empty for a game without it (the
    caller then asks the hint bot alone).  Each move is said as the screen says it (a
    Durak throw-in, not "attack")."""
    from ..analysis.hints import hint

    try:
        explained = hint(state, bot)
    except ValueError:   # a game with no learn plug-in, or no kit
        return []
    choices = getattr(explained, "choices", None) or []
    why = getattr(explained, "why", "")
    if all(isinstance(c, dict) and "move" in c and "shown" in c for c in choices):
        lines = [f"  {words(c['move']):<24} {c['shown']}" for c in choices]
    else:
        lines = [line for line in explained.lines()[1:] if line != why]
    return [explained.move, "\n" + "\n".join([explained.text, *([why] if why else []), *lines])]


class Quit(Exception):
    """The player asked to leave the game."""


class Session:
    """One game in the terminal: draws the screen, reads moves, lets bots play."""

    def __init__(self, spec: GameSpec, rules: Any, *, players: int, plan: Sequence[str],
                 seed: int | None = None, console: Console | None = None,
                 read: Callable[[str], str] | None = None, hint: str = "greedy",
                 hotseat_pause: bool | None = None, start: GameState | None = None) -> None:
        self.spec = spec
        self.rules = rules
        self.players = players
        self.console = console or Console()
        self.read = read or _read_line
        self.screen = screen_module(spec)
        self.seats: list[Seat] = []
        humans = sum(1 for kind in plan if kind == "human")
        for seat, (kind, name) in enumerate(zip(plan, seat_names(plan), strict=True)):
            if kind == "human":
                self.seats.append(Seat("human", name))
            else:
                bot = botlib.make(kind, seed=None if seed is None else seed * 31 + seat)
                self.seats.append(Seat(kind, name, bot))
        self.hotseat = humans > 1
        self.pause = self.hotseat if hotseat_pause is None else hotseat_pause
        self.practice = not self.hotseat
        self.hint_bot = botlib.make(hint, seed=seed)
        self.state: GameState = (start if start is not None
                                 else spec.start(rules, players=players, seed=seed))
        self.message: Text | None = None
        self.log: list[tuple[int, str]] = []
        """Every move as played: (seat, the move's text)."""
        self.story: list[tuple[int, str, list[str]]] = []
        """Every move told: (seat, its words, what it caused), beside ``log``."""
        self.order: list[int] = []
        """Seats in the order they went out (games where players go out one by one)."""
        self._shown_for: int | None = None
        self._base = seed if seed is not None else random.getrandbits(32)
        self._bot_moves: dict[tuple[str, ...], str] = {}
        self._last_part: Any = None
        self.resumed = 0
        self._saved_log: list[tuple[int, str]] = []
        """How many moves came from a saved game (``resume``), not played here."""
        opening = getattr(self.screen, "opening", None)
        self.opening: list[str] = list(opening(self.state, self.names)) if opening else []
        """What the game's start says (the first hand's leader, the first attack)."""

    def resume(self, moves: Sequence[str]) -> None:
        """Play a saved game's moves again, exactly, and go on from there; a move the
        game refuses raises ``ValueError`` with its number."""
        for number, text in enumerate(moves, 1):
            seat = self.state.to_move
            try:
                if seat is None:
                    raise ValueError("the game was already over")
                move = self.state.parse_move(text)
                if move not in self.state.legal_moves():
                    raise ValueError("not legal there")
            except (IllegalMove, CardError, ValueError) as error:
                raise ValueError(f"move {number} ({text!r}) cannot be played: {error}") \
                    from None
            before = self._hand_marker()
            self._push(seat, move)
            finished = getattr(self.screen, "finished_part", None)
            if finished is not None and self.state.is_over():
                self._last_part = finished(self.state, before, self.names)
        self.resumed = len(self.log)
        self._saved_log = list(self.log)

    @property
    def played_here(self) -> bool:
        """Whether a human has moved in this sitting (after what was resumed, or instead
        of it after an undo): a game left at its first prompt (Ctrl-D, q) has nothing
        worth writing over a record."""
        same = 0
        for mine, saved in zip(self.log, self._saved_log, strict=False):
            if mine != saved:
                break
            same += 1
        return any(self.seats[seat].human for seat, _ in self.log[same:])

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
        if self._last_part is not None:      # the last hand's table, after the last screen
            self.console.print(self._last_part)
        self.console.print(self.final())
        return self.state

    def final(self) -> Any:
        """The end of the game, from the viewer's side (with the finishing order where
        players go out one by one)."""
        view = self.state.view(self._viewer())
        if hasattr(self.screen, "finished_seats"):
            return self.screen.final(view, self.names, self.spec, order=self.order)
        return self.screen.final(view, self.names, self.spec)

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]

    def _viewer(self) -> int | None:
        humans = [i for i, seat in enumerate(self.seats) if seat.human]
        return humans[0] if len(humans) == 1 else None

    def _bot_turn(self, seat: int) -> None:
        """The bot decides; the same position always gets the same move, so an undo
        does not deal the player a different game (seeded per position, and remembered)."""
        before = self._hand_marker()
        key = tuple(text for _, text in self.log)
        known = self._bot_moves.get(key)
        move = None
        if known is not None:
            move = next((m for m in self.state.legal_moves() if str(m) == known), None)
        if move is None:
            bot = self.seats[seat].bot
            rng = getattr(bot, "rng", None)
            if isinstance(rng, random.Random):
                digest = hashlib.sha256(repr((self._base, seat, key)).encode()).digest()
                rng.seed(int.from_bytes(digest[:8], "big"))
            if self.console.is_terminal:
                with self.console.status(f"{self.names[seat]} is thinking ...",
                                         spinner="dots"):
                    move = bot.choose(self.state.copy())
            else:
                move = bot.choose(self.state.copy())
            self._bot_moves[key] = str(move)
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
        narrate = getattr(self.screen, "narrate", None)
        before = self.state.view(None) if narrate else None
        self.state.push(move)
        self.log.append((seat, str(move)))
        words, notes = (narrate(before, self.state, seat, str(move), self.names) if narrate
                        else (str(move), []))
        self.story.append((seat, words, list(notes)))
        finished = getattr(self.screen, "finished_seats", None)
        if finished is not None:
            for out in finished(self.state.view(None)):
                if out not in self.order:
                    self.order.append(out)

    def _pop(self) -> None:
        self.state.pop()
        self.log.pop()
        self.story.pop()
        finished = getattr(self.screen, "finished_seats", None)
        if finished is not None:
            now = set(finished(self.state.view(None)))
            self.order = [seat for seat in self.order if seat in now]

    def _hand_marker(self) -> Any:
        marker = getattr(self.screen, "hand_marker", None)
        return marker(self.state) if marker else None

    def _after_move(self, before: Any) -> None:
        """Show a summary when a part of the game (a Pasur hand) has just ended, the
        last one of the game too."""
        finished = getattr(self.screen, "finished_part", None)
        if finished is None:
            return
        summary = finished(self.state, before, self.names)
        if summary is None:
            return
        if self.state.is_over():
            self._last_part = summary        # shown under the game's last screen
            return
        # how the part ended (the last moves, who took the cards left), then its table
        self.console.print(Group(*log_lines(self.since_last_turn(self._viewer()),
                                            self.names)))
        self.console.print(summary)
        if sys.stdin.isatty() and self.read is _read_line:
            self.read("Press Enter for the next hand ")

    # -- input ----------------------------------------------------------------------------
    def _command(self, seat: int, answer: str) -> bool:
        word = answer.lower()
        if word in ("q", "quit"):
            if ask_yes("Leave the game?", read=self.read, say=self.console.print):
                raise Quit
            self.message = Text("Back to the game.", style="cyan")
            return True
        if word in ("h", "hint"):
            view = self.state.view(seat)
            why = _explained(self.state.copy(), self.hint_bot,
                             lambda move: self.words(view, move))
            try:
                move = why[0] if why else self.hint_bot.choose(self.state.copy())
            except ValueError as error:   # e.g. a game the hint bot has no kit for
                self.message = Text(f"No hint: {error}", style="yellow")
                return True
            source = ("ranked best by the analysis's judge" if why
                      else f"from the {self.hint_bot.name} bot")
            self.message = Text.assemble(("Hint: ", "bold"),
                                         move_text(self.words(self.state.view(seat), move)),
                                         f"  ({source})", *why[1:])
            return True
        if word in ("r", "rules"):
            self.message = None
            self.page(rules_table(self.spec, self.rules), "rules")
            return True
        if word in ("l", "log"):
            self.message = None
            self.page(Group(Text("Every move so far", style="bold"),
                            *log_lines(self.story, self.names)), "log")
            return True
        if word in ("u", "undo"):
            self._undo(seat)
            return True
        if word in ("?", "help"):
            self.message = Text(HELP)
            return True
        return False

    def page(self, renderable: Any, what: str) -> None:
        """Show something longer than the screen a page at a time (Enter: next page)."""
        lines = self.console.render_lines(renderable, self.console.options, pad=False)
        height = max(5, self.console.height - 2) if self.console.is_terminal else len(lines)
        for start in range(0, max(1, len(lines)), height):
            self.console.clear()
            for line in lines[start:start + height]:
                self.console.print(Text("").join(Text(seg.text, style=seg.style or "")
                                                 for seg in line), soft_wrap=True)
            more = start + height < len(lines)
            answer = self.read(f"Enter: next page of the {what}, q: back to the game "
                               if more else "Press Enter to go back to the game ")
            if not more or answer.strip().lower() in ("q", "b", "back"):
                return

    def _undo(self, seat: int) -> None:
        """Back to this seat's own last decision: it and every move after it are taken
        back; bots' moves alone are never taken back."""
        if not self.practice:
            self.message = Text("Undo is for practice games only (not with several humans).",
                                style="yellow")
            return
        mine = [i for i, (who, _) in enumerate(self.log) if who == seat]
        if not mine:
            self.message = Text("Nothing to undo yet: you have not moved.", style="yellow")
            return
        undone, text = len(self.log) - mine[-1], self.story[mine[-1]][1]
        while len(self.log) > mine[-1]:
            self._pop()
        self.message = Text.assemble(("Took back your move ", "cyan"), move_text(text),
                                     (f" ({plural(undone, 'move')} in all).", "cyan"))
        while not self.state.is_over():
            mover = self.state.to_move
            assert mover is not None, "a game not over has a seat to move"
            if self.seats[mover].human:
                break
            self._bot_turn(mover)

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
            self.message = Text(f"{answer!r}: {name_seats(str(error), self.names)}",
                                style="red")
            return None

    # -- output ---------------------------------------------------------------------------
    def since_last_turn(self, seat: int | None) -> Sequence[tuple[int | None, str, list[str]]]:
        """The moves to show ``seat``: its own last move and every move since."""
        if seat is None:
            return self.story[-3:]
        mine = [i for i, (who, _, _) in enumerate(self.story) if who == seat]
        if mine:
            return self.story[mine[-1]:]
        # not moved yet: the game's start too (who leads the first hand, attacks first)
        start = [(None, "", self.opening)] if self.opening and not self.resumed else []
        return [*start, *self.story]

    def draw(self, seat: int | None) -> None:
        """Clear the terminal and draw the screen.  In a small terminal the oldest moves
        give way first, then the help line, so the header always stays on screen."""
        view = self.state.view(seat)
        story = self.since_last_turn(seat)
        parts = self._parts(seat, view, story, 0, compact=False)
        if self.console.is_terminal:
            room = self.console.height - 1          # the prompt's line
            tries = [(skipped, compact) for compact in (False, True)
                     for skipped in range(len(story) + 1)]
            for skipped, compact in tries:
                parts = self._parts(seat, view, story, skipped, compact=compact)
                lines = self.console.render_lines(Group(*parts), self.console.options,
                                                  pad=False)
                if len(lines) <= room:
                    break
        self.console.clear()
        self.console.print(Group(*parts))

    def _parts(self, seat: int | None, view: dict[str, Any],
               story: Sequence[tuple[int | None, str, list[str]]], skipped: int, *,
               compact: bool) -> list[Any]:
        parts: list[Any] = self.screen.screen(view, self.names, self.spec,
                                              log=story[skipped:], rules=self.rules)
        if skipped and not compact:
            parts.insert(1, Text(f"  ({plural(skipped, 'earlier move')} not shown: "
                                 "l shows them all)", style="dim"))
        if seat is not None and self.state.to_move == seat and not self.state.is_over():
            # numbered as ``_understand`` reads a number: the state's own list
            parts.append(moves_table([self.words(view, move)
                                      for move in self.state.legal_moves()]))
        if self.message is not None:
            parts.append(self.message)
        elif seat is not None and self.state.to_move == seat and not compact:
            parts.append(Text(HELP, style="dim"))
        return parts

    def words(self, view: dict[str, Any], move: Any) -> str:
        """A legal move as the game's players say it (a Durak throw-in, not "attack")."""
        say = getattr(self.screen, "move_words", None)
        return say(view, str(move)) if say else str(move)

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
    line_editing()
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
    """Bots play a whole game, printed readably: the deal (and the trump), every move in
    the game's words with what it caused (a sur, a round's end and who leads the next,
    the last sweep of a hand), hand summaries, the result."""
    console = console or Console()
    players = players or len(bot_specs) or spec.default_players
    rules = rules if rules is not None else spec.rules()
    specs = [bot_specs[i % len(bot_specs)] for i in range(players)]
    players_bots = [botlib.make(s, seed=None if seed is None else seed + 7 * i)
                    for i, s in enumerate(specs)]
    names = seat_names(specs)
    state = spec.start(rules, players=players, seed=seed)
    screen = screen_module(spec)
    marker = getattr(screen, "hand_marker", None)
    finished = getattr(screen, "finished_part", None)
    narrate = getattr(screen, "narrate", None)
    out_seats = getattr(screen, "finished_seats", None)
    order: list[int] = []
    held = -1
    console.print(Text(f"{spec.title}: {', '.join(names)}", style="bold"))
    opening = getattr(screen, "opening", None)
    for note in opening(state, names) if opening else []:
        console.print(Text.assemble(("» ", "cyan"), move_text(note)))
    while not state.is_over():
        views = [state.view(seat) for seat in range(players)]
        total = sum(len(v.get("hand") or []) for v in views)
        if total > held:
            first = views[0]
            table = first.get("table") or []
            line = Text.assemble(("Table: ", "bold"), cards_line(table)) if all(
                isinstance(card, str) for card in table) and table else Text("")
            if first.get("trump_card") or first.get("trump"):
                line = Text.assemble(("Trump: ", "bold"),
                                     card_text(first.get("trump_card") or first["trump"],
                                               mark=True), "  ", line)
            if line.plain:
                console.print(line)
            for seat, view in enumerate(views):
                console.print(Text.assemble(f"  {names[seat]} holds ",
                                            cards_line(view.get("hand") or [])))
        held = total
        mover = state.to_move
        assert mover is not None, "a game not over has a seat to move"
        before = marker(state) if marker else None
        told = state.view(None) if narrate else None
        move = players_bots[mover].choose(state)
        state.push(move)
        words, notes = (narrate(told, state, mover, str(move), names) if narrate
                        else (str(move), []))
        console.print(Text.assemble(f"{names[mover]}: ", move_text(words)))
        for note in notes:
            console.print(Text.assemble(("» ", "cyan"), move_text(note)))
        if out_seats is not None:
            order.extend(s for s in out_seats(state.view(None)) if s not in order)
        if finished is not None:
            summary = finished(state, before, names)
            if summary is not None:
                console.print(summary)
                held = -1
    if out_seats is not None:
        console.print(screen.final(state.view(None), names, spec, order=order))
    else:
        console.print(screen.final(state.view(None), names, spec))
    return state
