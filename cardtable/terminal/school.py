"""The school's commands in ``cardtable``: ``analyse`` (and ``learn``, ``puzzle``).

``register(app)`` adds them to the Typer app of ``cardtable/cli.py``, so that file needs
one line for all of them.  They draw on the terminal, so they live in it: the analysis
they call stays free of the terminal.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.table import Table

from .. import records
from ..analysis import (
    DEFAULT_ITERATIONS,
    LABELS,
    BudgetTooSmall,
    analyse_record,
    learn_of,
    series,
    smallest_iterations,
    sparkline,
    summary,
)
from ..bots.ismcts import kit_of
from .output import console as output_console

__all__ = ["register"]


def _refuse(reason: str) -> NoReturn:
    """Refuse in one line on stderr, before any work."""
    print(f"cardtable: {reason}", file=sys.stderr)
    raise typer.Exit(2)


def _outputs(json_out: Path | None, plot: Path | None) -> tuple[Path | None, Path | None]:
    """``--json`` and ``--plot`` checked before a long analysis, never after it."""
    from .output import needs, output_path

    try:
        json_out = None if json_out is None else output_path(json_out)
        if plot is not None:
            plot = output_path(plot)
            needs("matplotlib", "--plot", "pip install matplotlib")
    except ValueError as error:
        _refuse(str(error))
    return json_out, plot


def _answer(prompt: str) -> str | None:
    """An answer typed at the prompt; None when the input has ended (Ctrl-D)."""
    from .prompt import line_editing

    line_editing()
    try:
        return str(typer.prompt(prompt, default="", show_default=False)).strip()
    except (typer.Abort, EOFError):
        return None


def _said(screen: object, view: dict[str, object], move: str) -> str:
    """A move as the game's screen says it (a Durak throw-in, not "attack")."""
    say = getattr(screen, "move_words", None)
    return str(say(view, move)) if callable(say) else move


def analyse(
    path: Annotated[Path, typer.Argument(help="a game record (JSON), as play --save writes")],
    seat: Annotated[int | None, typer.Option(help="judge only this seat's moves")] = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="write the judgements "
                                                  "here as JSON")] = None,
    iterations: Annotated[int, typer.Option(help="the judge's playouts per move at most "
                                            "(fewer where the verdict is clear)")]
    = DEFAULT_ITERATIONS,
    seed: Annotated[int, typer.Option(help="the search's seed (same seed, same "
                                      "analysis)")] = 0,
    hindsight: Annotated[bool, typer.Option(help="also solve exactly with every card "
                                            "known, where the solver reaches")] = True,
    plot: Annotated[Path | None, typer.Option(help="draw the expected result over the "
                                              "game to this image (needs matplotlib)")] = None,
) -> None:
    """Judge every move of a finished game: from what the player knew, and in hindsight."""
    json_out, plot = _outputs(json_out, plot)
    console = output_console()
    try:
        record = records.load(path)
        start = record.start()
    except (OSError, records.RecordError, ValueError) as error:
        raise typer.BadParameter(str(error)) from None
    if seat is not None and not 0 <= seat < record.players:
        raise typer.BadParameter(f"seat must be 0 to {record.players - 1}")
    learn = learn_of(record.game)
    seats = None if seat is None else [seat]
    try:
        smallest, where = smallest_iterations(start, record.moves, seats=seats)
    except ValueError as error:
        raise typer.BadParameter(str(error)) from None
    if iterations < smallest:   # refused before any work, with the least that judges
        _refuse(f"--iterations: {BudgetTooSmall(iterations, smallest, f' move {where}')}")
    with console.status("analysing") as status:
        def progress(done: int, total: int) -> None:
            status.update(f"analysing: move {done} of {total}")
        try:
            judged = analyse_record(record, seats=seats, iterations=iterations, seed=seed,
                                    hindsight=hindsight, progress=progress)
        except (records.RecordError, ValueError) as error:
            raise typer.BadParameter(str(error)) from None
    names = record.names()
    table = Table(title=f"{record.spec.title}: loss in {learn.unit}")
    for column in ("#", "player", "move", "best", "loss", "±", "label", "hindsight best",
                   "hindsight loss"):
        table.add_column(column)
    for j in judged:
        if j.choices == 1:
            continue
        style = {"blunder": "bold red", "mistake": "red", "inaccuracy": "yellow"}.get(
            j.label or "", "")
        said = (j.label or "") + (f" (unsure: {j.unsure}?)" if j.unsure else "")
        table.add_row(str(j.index), names[j.seat], j.move, j.best, f"{j.loss:.2f}",
                      f"{j.uncertainty or 0:.2f}", said.strip(), j.hindsight_best or "",
                      "" if j.hindsight_loss is None else f"{j.hindsight_loss:.2f}",
                      style=style)
    console.print(table)
    kit = kit_of(start)
    sides = [kit.side_of(start, s) for s in range(record.players)]
    who = seat if seat is not None else 0
    line = series(record.game, judged, who, sides)
    console.print(f"expected result for {names[who]} ({learn.unit}): {sparkline(line)}")
    players = summary(judged, names)
    plural = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}
    for player in players:
        if seat is not None and player["seat"] != seat:
            continue
        counts = ", ".join(f"{player[label]} {label if player[label] == 1 else plural[label]}"
                           for label in LABELS)
        accuracy = ("" if player["accuracy"] is None
                    else f"; accuracy {player['accuracy']:g}%")
        console.print(f"{player['name']}: {player['judged']} judged moves, {counts}{accuracy}")
    if json_out is not None:
        json_out.write_text(json.dumps({"game": record.game, "unit": learn.unit,
                                        "record": {"name": path.name,
                                                   "sha256": _digest(path)},
                                        "thresholds": list(learn.thresholds),
                                        "iterations": iterations, "seed": seed,
                                        "players": players,
                                        "moves": [{**j.to_dict(), "player": names[j.seat]}
                                                  for j in judged]},
                                       ensure_ascii=False, indent=1), encoding="utf-8")
    if plot is not None:
        _plot(line, plot, f"{names[who]}: {learn.unit}")


def _digest(path: Path) -> str:
    """The record file's SHA-256, so an analysis names exactly the record it judged."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _plot(line: list[float], path: Path, label: str) -> None:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise typer.BadParameter("--plot needs matplotlib (pip install matplotlib)") from None
    figure, axes = plt.subplots(figsize=(8, 3))
    axes.plot(range(1, len(line) + 1), line)
    axes.set_xlabel("judged move")
    axes.set_ylabel(label)
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)


def learn(
    game: Annotated[str, typer.Argument(help="the game to learn")],
    lang: Annotated[str, typer.Option(help="en, ru, pt or fa")] = "en",
    reset: Annotated[bool, typer.Option(help="start the course again")] = False,
) -> None:
    """Take a game's course, step by step: find the move each position asks for.

    Progress is kept in a JSON file (``$CARDTABLE_HOME``, ``$XDG_DATA_HOME/cardtable`` or
    ``~/.cardtable``).  Type a move (or its number), ``a`` for the answer, ``q`` to stop.
    """
    from ..analysis.lessons import LANGS, Progress, check, course
    from ..games import get
    from .screens import screen_module
    from .text import move_text

    if lang not in LANGS:
        raise typer.BadParameter(f"lang is one of {', '.join(LANGS)}")
    try:
        spec = get(game)
        steps = course(game)
    except ValueError as error:
        raise typer.BadParameter(str(error)) from None
    console = output_console()
    progress = Progress()
    if reset:
        progress.reset(game)
    index = progress.next_step(game, steps)
    if index == len(steps):
        console.print(f"Every step of the {spec.title} course is done (--reset to start "
                      "again).")
        return
    screen = screen_module(spec)
    while index < len(steps):
        step = steps[index]
        state = step.position()
        seat = state.to_move
        assert seat is not None
        console.rule(f"{index + 1}/{len(steps)} · {step.title.get(lang, step.title['en'])}")
        names = ["You" if s == seat else f"Player {s + 1}" for s in range(state.players)]
        for part in screen.screen(state.view(seat), names, spec):
            console.print(part)
        console.print(step.text.get(lang, step.text["en"]))
        moves = [str(m) for m in state.legal_moves()]
        view = state.view(seat)
        console.print("  ".join(f"{n}) {_said(screen, view, m)}"
                                for n, m in enumerate(moves, 1)))
        while True:
            typed = _answer("your move (a: answer, q: stop)")
            if typed is None or typed.lower() in ("q", "quit"):
                return
            answer = typed
            if not answer:
                console.print(f"Type a move, or its number 1 to {len(moves)} "
                              "(a: the answer, q: stop).", style="yellow")
                continue
            if answer.lower() in ("a", "answer"):
                console.print(move_text(step.goals[0]))
                continue
            if answer.isdigit() and 1 <= int(answer) <= len(moves):
                answer = moves[int(answer) - 1]
            elif not _readable(state, answer):
                console.print(f"{answer!r} is not a move here: type a move, or its number "
                              f"1 to {len(moves)}.", style="yellow")
                continue
            verdict = check(step, answer, lang=lang)
            console.print(verdict.reason, style="green" if verdict.right else "yellow")
            if verdict.right:
                progress.mark(game, step.key)
                break
        index += 1
    console.print(f"The {spec.title} course is done.")


def puzzle(
    game: Annotated[str | None, typer.Argument(help="only this game's puzzles")] = None,
    today: Annotated[bool, typer.Option("--daily", help="the puzzle of the day")] = False,
    make: Annotated[list[Path] | None, typer.Option(
        help="make puzzles from these game records instead (with --out)")] = None,
    out: Annotated[Path | None, typer.Option(help="where --make writes the puzzles")] = None,
    search: Annotated[bool, typer.Option(help="with --make: also positions with hidden "
                                         "cards, by a large margin of the search")] = False,
    choices: Annotated[int, typer.Option(help="with --make: only positions with at least "
                                         "this many legal moves")] = 3,
) -> None:
    """Solve a puzzle: a position from a real game where one move is clearly best."""
    from ..analysis.lessons import Progress
    from ..analysis.puzzles import daily, find, load, position
    from ..games import get
    from .screens import screen_module

    console = output_console()
    if make:
        if out is None:
            raise typer.BadParameter("--make needs --out FILE")
        out, _ = _outputs(out, None)
        assert out is not None
        made: list[dict[str, object]] = []
        for path in make:
            try:
                made += find(records.load(path), search=search, choices=choices)
            except (OSError, records.RecordError, ValueError) as error:
                raise typer.BadParameter(f"{path}: {error}") from None
        lines = ",\n".join(json.dumps(p, ensure_ascii=False) for p in made)
        out.write_text(f'{{"puzzles": [\n{lines}\n]}}\n', encoding="utf-8")
        console.print(f"Wrote {len(made)} puzzles to {out}")
        return
    try:
        puzzles = load(game=game)
        spec = get(game) if game else None
    except ValueError as error:
        raise typer.BadParameter(str(error)) from None
    if not puzzles:
        raise typer.BadParameter("no puzzles stored for that game")
    progress = Progress()
    solved = set(progress.done.get("puzzles", []))
    chosen = daily(puzzles) if today else next(
        (p for p in puzzles if p["id"] not in solved), puzzles[0])
    state = position(chosen)
    spec = get(chosen["game"])
    seat = chosen["seat"]
    learn = learn_of(chosen["game"])
    console.rule(f"{spec.title} puzzle {chosen['id']}")
    names = ["You" if s == seat else f"Player {s + 1}" for s in range(state.players)]
    for part in screen_module(spec).screen(state.view(seat), names, spec):
        console.print(part)
    console.print("One move is clearly best. Find it.")
    searched = learn.searched(state)
    moves = [str(m) for m in searched.legal_moves()]
    screen, view = screen_module(spec), state.view(seat)
    console.print("  ".join(f"{n}) {_said(screen, view, m)}"
                            for n, m in enumerate(moves, 1)))
    played = ""
    while True:     # asked again until it is a move: a slip never gives the answer away
        answer = _answer("your move (a: the answer)")
        if answer is None or answer.lower() in ("a", "answer"):
            break
        if answer.isdigit() and 1 <= int(answer) <= len(moves):
            answer = moves[int(answer) - 1]
        if not answer:
            console.print(f"Type a move, or its number 1 to {len(moves)} (a: the answer).",
                          style="yellow")
            continue
        try:
            played = str(searched.parse_move(answer))
        except ValueError as error:
            console.print(f"Not a move here: {error}. Try again.", style="yellow")
            continue
        break
    right = played == chosen["answer"]
    console.print("Right." if right else f"The answer is {chosen['answer']}.",
                  style="green" if right else "yellow")
    if right:
        progress.mark("puzzles", chosen["id"])
    console.print(f"Why ({'exact' if chosen['proof'] == 'exact' else 'search'}, "
                  f"{learn.unit}):")
    ranked = sorted(chosen["values"].items(), key=lambda kv: kv[1],
                    reverse=learn.higher_is_better)
    for move, value in ranked:
        console.print(f"  {move:<28} {learn.show(value)}")


def _readable(state: object, answer: str) -> bool:
    """Whether ``answer`` reads as a move of the game (right or wrong)."""
    parse = getattr(state, "parse_move", None)
    try:
        return parse is not None and parse(answer) is not None
    except ValueError:
        return False


def register(app: typer.Typer) -> None:
    """Add the school's commands to ``app``."""
    app.command("analyse")(analyse)
    app.command("learn")(learn)
    app.command("puzzle")(puzzle)
