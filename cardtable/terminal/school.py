"""The school's commands in ``cardtable``: ``analyse`` (and ``learn``, ``puzzle``).

``register(app)`` adds them to the Typer app of ``cardtable/cli.py``, so that file needs
one line for all of them.  They draw on the terminal, so they live in it: the analysis
they call stays free of the terminal.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich import box
from rich.table import Table
from rich.text import Text

from .. import records
from ..analysis import (
    DEFAULT_ITERATIONS,
    LABELS,
    BudgetTooSmall,
    Judgement,
    analyse_record,
    learn_of,
    series,
    smallest_iterations,
    sparkline,
    summary,
)
from ..bots.ismcts import kit_of
from .output import console as output_console
from .output import same_file
from .screens import screen_module

__all__ = ["register"]


def _refuse(reason: str) -> NoReturn:
    """Refuse in one line on stderr, before any work."""
    print(f"cardtable: {reason}", file=sys.stderr)
    raise typer.Exit(2)


def _outputs(json_out: Path | None, plot: Path | None, *, reads: Sequence[Path] = (),
             force: bool = False, flag: str = "--json") -> tuple[Path | None, Path | None]:
    """``--json`` (or ``flag``) and ``--plot`` checked before a long analysis, never after
    it: never one of the records it ``reads``, nor a file written over unasked."""
    from .output import may_replace, needs, output_path

    try:
        if json_out is not None:
            json_out = may_replace(output_path(json_out), flag, reads=reads, force=force)
        if plot is not None:
            plot = output_path(plot)
            needs("matplotlib", "--plot", "pip install 'cardtable[arena]'")
            if json_out is not None and same_file(plot, json_out):
                raise ValueError(f"{flag} and --plot name one file: give two")
            plot = may_replace(plot, "--plot", reads=reads, force=force)
    except ValueError as error:
        _refuse(str(error))
    return json_out, plot


def _answer(prompt: str) -> str | None:
    """An answer typed at the prompt; None when the input has ended (Ctrl-D) or the player
    pressed Ctrl-C (click's prompt turns both into ``Abort``)."""
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
    iterations: Annotated[int, typer.Option(help="the judge's playouts per move (fewer "
                                            "where the verdict is clear, up to 4 times "
                                            "as many for a close call)")]
    = DEFAULT_ITERATIONS,
    seed: Annotated[int, typer.Option(help="the search's seed (same seed, same "
                                      "analysis)")] = 0,
    hindsight: Annotated[bool, typer.Option(help="also solve exactly with every card "
                                            "known, where the solver reaches")] = True,
    plot: Annotated[Path | None, typer.Option(help="draw the expected result over the "
                                              "game to this image (needs matplotlib)")] = None,
    force: Annotated[bool, typer.Option(help="write over --json and --plot unasked (never "
                                        "over the record)")] = False,
) -> None:
    """Judge every move of a game: from what the player knew, and in hindsight.

    The record is checked as ``replay --check`` checks it (its types, every move, the
    result it says) before any work; an unfinished game is judged up to its last move,
    and said to be unfinished."""
    from .replay import read_record

    try:
        record = read_record(path)
        record.replay()
        start = record.start()
    except records.RecordError as error:
        print(f"cardtable: {path}: {error}", file=sys.stderr)
        raise typer.Exit(1) from None
    json_out, plot = _outputs(json_out, plot, reads=[path], force=force)
    console = output_console()
    if record.result is None:
        console.print(f"{path}: the game is unfinished ({len(record.moves)} moves, no "
                      "result): its moves are judged as far as it went")
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
    screen = screen_module(record.spec)
    words = _move_words(record, judged, screen)
    console.print(_table(record.spec.title, learn, judged, names, words))
    console.print("best: the judge's best move, where it is not the move played; "
                  "hindsight: the best with every card known, and by how much",
                  style="dim")
    kit = kit_of(start)
    sides = [kit.side_of(start, s) for s in range(record.players)]
    who = seat if seat is not None else 0
    line = series(record.game, judged, who, sides)
    console.print(f"expected result for {names[who]} ({learn.unit}): {sparkline(line)}")
    players = summary(judged, names, record.game)
    plural = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}
    show = getattr(learn, "show_loss", None) or _show_loss    # Durak's in percent
    for player in players:
        if seat is not None and player["seat"] != seat:
            continue
        counts = ", ".join(f"{player[label]} {label if player[label] == 1 else plural[label]}"
                           for label in LABELS)
        accuracy = ("" if player["accuracy"] is None
                    else f"; accuracy {player['accuracy']:g}%")
        mean = ("" if player["mean_loss_low"] is None else
                f"; mean loss {show(player['mean_loss'])} ({show(player['mean_loss_low'])} "
                f"to {show(player['mean_loss_high'])}, 95%)")
        console.print(f"{player['name']}: {player['judged']} judged moves, {counts}"
                      f"{mean}{accuracy}")
    if json_out is not None:
        json_out.write_text(json.dumps({"game": record.game, "unit": learn.unit,
                                        "record": {"name": path.name,
                                                   "sha256": _digest(path)},
                                        "thresholds": list(learn.thresholds),
                                        "iterations": iterations, "seed": seed,
                                        "players": players,
                                        "moves": [{**j.to_dict(), **words(j),
                                                   "player": names[j.seat]}
                                                  for j in judged]},
                                       ensure_ascii=False, indent=1), encoding="utf-8")
    if plot is not None:
        _plot(line, plot, f"{names[who]}: {learn.unit}")


def _move_words(record: records.Record, judged: Sequence[Judgement],
                screen: object) -> Callable[[Judgement], dict[str, str | None]]:
    """A judged move's ``move``, ``best`` and ``hindsight_best`` as the game's screen
    says them in the position they were judged in (a Durak throw-in, not "attack")."""
    wanted = {j.index for j in judged}
    views: dict[int, dict[str, object]] = {}
    for index, _, state in record.states():
        if index + 1 in wanted:
            views[index + 1] = state.view(state.to_move)

    def said(j: Judgement) -> dict[str, str | None]:
        view = views[j.index]
        return {"move": _said(screen, view, j.move), "best": _said(screen, view, j.best),
                "hindsight_best": None if j.hindsight_best is None
                else _said(screen, view, j.hindsight_best)}
    return said


def _table(title: str, learn: Any, judged: Sequence[Judgement], names: Sequence[str],
           words: Callable[[Judgement], dict[str, str | None]]) -> Table:
    """The judged moves, one a row, that read at 80 columns: under the move played, the
    judge's best where it differs and the hindsight solver's verdict where it reached;
    the loss and its spread in one column (Durak's as a percentage)."""
    show = getattr(learn, "show_loss", None) or _show_loss
    rows = [j for j in judged if j.choices > 1]
    said = {j.index: words(j) for j in rows}
    table = Table(title=f"{title}: loss in {learn.unit}", box=box.SIMPLE_HEAD,
                  padding=(0, 1))
    # the label and the player wrap within a narrow column each, so that the move column
    # takes the rest (Rich lets a min_width push a table past the terminal's edge)
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column("player", max_width=12)
    table.add_column("move")
    table.add_column("loss ±", justify="right", no_wrap=True)
    table.add_column("label", max_width=14)
    for j in rows:
        style = {"blunder": "bold red", "mistake": "red", "inaccuracy": "yellow"}.get(
            j.label or "", "")
        words_of = said[j.index]
        move = Text(words_of["move"] or "")
        if j.best != j.move and (j.loss or j.uncertainty):   # not a tie the solver proved
            move.append(f"\nbest: {words_of['best']}", style="dim")
        if j.hindsight_loss is not None:
            verdict = ("best" if j.hindsight_best == j.move
                       else f"{words_of['hindsight_best']} by {show(j.hindsight_loss)}")
            move.append(f"\nhindsight: {verdict}", style="dim")
        label = (j.label or "") + (f" (unsure: {j.unsure}?)" if j.unsure else "")
        table.add_row(str(j.index), names[j.seat], move,
                      f"{show(j.loss)} ±{show(j.uncertainty or 0)}", label.strip(),
                      style=style)
    return table


def _show_loss(loss: float) -> str:
    """A loss in the game's own unit, where the game says nothing of how to show it."""
    return f"{loss:.2f}"


def _digest(path: Path) -> str:
    """The record file's SHA-256, so an analysis names exactly the record it judged."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _plot(line: list[float], path: Path, label: str) -> None:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise typer.BadParameter("--plot needs matplotlib (pip install "
                                 "'cardtable[arena]')") from None
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
                console.print(move_text(_said(screen, view, step.goals[0])))
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
    force: Annotated[bool, typer.Option(help="with --make: write over --out unasked (never "
                                        "over a record it reads)")] = False,
) -> None:
    """Solve a puzzle: a position from a real game where one move is clearly best."""
    from ..analysis.lessons import Progress
    from ..analysis.puzzles import daily, find, load, position
    from ..games import get

    console = output_console()
    if make:
        if out is None:
            raise typer.BadParameter("--make needs --out FILE")
        out, _ = _outputs(out, None, reads=make, force=force, flag="--out")
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
        if answer is None:      # Ctrl-C or the input's end: left, the answer still hidden
            console.print("\nStopped: the answer stays hidden (cardtable puzzle shows this "
                          "puzzle again).")
            return
        if answer.lower() in ("a", "answer"):
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
    console.print("Right." if right else
                  f"The answer is {_said(screen, view, chosen['answer'])}.",
                  style="green" if right else "yellow")
    if right:
        progress.mark("puzzles", chosen["id"])
    console.print(f"Why ({'exact' if chosen['proof'] == 'exact' else 'search'}, "
                  f"{learn.unit}):")
    ranked = sorted(chosen["values"].items(), key=lambda kv: kv[1],
                    reverse=learn.higher_is_better)
    for move, value in ranked:
        console.print(f"  {_said(screen, view, move):<28} {learn.show(value)}")


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
