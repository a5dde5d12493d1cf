"""The ``cardtable`` command: play, serve, arena, replay, rules, bench, demo."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from . import games as gamelib
from .bots import split_specs
from .game import GameSpec, rule_options

app = typer.Typer(
    name="cardtable",
    help="Pasur and Transfer Durak: play in the terminal, serve the web table, run bots.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

_GAMES_HELP = " or ".join(gamelib.names())
GameName = Annotated[str, typer.Argument(help=_GAMES_HELP)]


def _spec(name: str) -> GameSpec:
    try:
        return gamelib.get(name)
    except ValueError as error:
        raise typer.BadParameter(str(error)) from None


def parse_options(pairs: list[str] | None) -> dict[str, Any]:
    """``name=value`` rule options to a dict; values are read as JSON when they can be.

    >>> parse_options(["target=62", "sur_by=any", "forced_capture=false"])
    {'target': 62, 'sur_by': 'any', 'forced_capture': False}
    """
    options: dict[str, Any] = {}
    for pair in pairs or []:
        key, eq, value = pair.partition("=")
        if not eq:
            raise ValueError(f"rule option {pair!r} must look like name=value")
        try:
            options[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            options[key.strip()] = value
    return options


@app.command()
def rules(
    game: GameName,
    preset: Annotated[str | None, typer.Option(help="show this preset's values")] = None,
) -> None:
    """List a game's presets and every rule option with its meaning."""
    spec = _spec(game)
    console = Console()
    table = Table(title=f"{spec.title}: rule options")
    table.add_column("option")
    presets = [preset] if preset else list(spec.presets)
    for name in presets:
        if name not in spec.presets:
            raise typer.BadParameter(f"no preset {name!r}; the presets are "
                                     + ", ".join(spec.presets))
        table.add_column(name)
    table.add_column("meaning")
    for option in rule_options(spec.rules_type):
        values = [_show(getattr(spec.presets[name], option.name)) for name in presets]
        table.add_row(option.name, *values, option.doc)
    console.print(table)


def _show(value: object) -> str:
    if isinstance(value, tuple | list | frozenset):
        return ",".join(str(v) for v in value)
    return str(value)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on")] = 8000,
    data_dir: Annotated[Path, typer.Option(help="folder for the SQLite database")] = Path("data"),
    database_url: Annotated[str | None, typer.Option(
        help="SQLAlchemy URL, e.g. postgresql+psycopg://user@host/db (default: SQLite)")] = None,
    redis_url: Annotated[str | None, typer.Option(
        help="redis://host:port to join several server processes")] = None,
    bot_delay: Annotated[float, typer.Option(
        help="seconds a bot waits before it moves, so people can follow")] = 0.8,
    grace: Annotated[float, typer.Option(
        help="seconds a dropped player keeps the seat before a takeover bot plays")] = 60.0,
    bot_processes: Annotated[int, typer.Option(
        help="think in this many processes of their own (0: threads)")] = 0,
    bot_time_limit: Annotated[float, typer.Option(
        help="seconds a bot may think before a random legal move is played")] = 30.0,
    abandon_after: Annotated[float, typer.Option(
        help="seconds with no seated person connected before a table ends as "
             "abandoned")] = 600.0,
) -> None:
    """Start the web table on http://HOST:PORT."""
    try:
        from .server import serve as run_server
    except ImportError as error:
        print(f"the web table needs the server extras: pip install 'cardtable[server]' "
              f"({error})", file=sys.stderr)
        raise typer.Exit(2) from None
    run_server(host=host, port=port, data_dir=str(data_dir), database_url=database_url,
               redis_url=redis_url, bot_delay=bot_delay, grace=grace,
               bot_processes=bot_processes, bot_time_limit=bot_time_limit,
               abandon_after=abandon_after)


@app.command("watch-table")
def watch_table(
    url: Annotated[str, typer.Argument(help="the table's page, e.g. http://HOST:PORT/table/ID")],
    token: Annotated[str | None, typer.Option(help="a seat's token (default: watch)")] = None,
) -> None:
    """Follow a web table: a line per state, with the clock of the seat to move."""
    try:
        from .server.viewer import watch
    except ImportError as error:
        print(f"watching a web table needs the server extras ({error})", file=sys.stderr)
        raise typer.Exit(2) from None
    watch(url, token)


@app.command()
def play(
    game: GameName,
    rules: Annotated[str | None, typer.Option("--rules", help="preset name")] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="override one rule option: name=value (repeatable)")] = None,
    players: Annotated[int | None, typer.Option(help="number of players")] = None,
    vs: Annotated[str, typer.Option(
        help="bot levels for the other seats, comma separated")] = "medium",
    seats: Annotated[str | None, typer.Option(
        help="every seat in order, e.g. human,medium,human,medium")] = None,
    hotseat: Annotated[bool, typer.Option(
        help="seats past the --vs list are humans sharing this terminal")] = False,
    seed: Annotated[int | None, typer.Option(help="seed for the deal and the bots")] = None,
    save: Annotated[Path | None, typer.Option(help="write the game record here")] = None,
    no_color: Annotated[bool, typer.Option("--no-color", help="plain text")] = False,
    hint: Annotated[str, typer.Option(help="the bot that gives hints")] = "greedy",
) -> None:
    """Play in the terminal against bots (or friends, with --hotseat)."""
    from .terminal import Quit, Session, seat_plan

    spec = _spec(game)
    try:
        chosen = spec.rules(rules, parse_options(option))
        count = players or spec.default_players
        spec.check_players(chosen, count)
        plan = seat_plan(count, vs=split_specs(vs) if vs else [],
                         seats=split_specs(seats) if seats else (), hotseat=hotseat)
        console = Console(no_color=no_color, highlight=False,
                          force_terminal=None if not no_color else False)
        session = Session(spec, chosen, players=count, plan=plan, seed=seed, console=console,
                          hint=hint)
    except ValueError as error:
        raise typer.BadParameter(str(error)) from None
    session.run()
    if save is None and not session.state.is_over():
        try:
            answer = input("Save this game? Type a file name, or press Enter to leave: ")
        except (EOFError, Quit):
            answer = ""
        save = Path(answer.strip()) if answer.strip() else None
    if save is not None:
        session.record().save(save)
        console.print(f"Saved the game to {save}")


@app.command()
def replay(
    path: Annotated[Path, typer.Argument(help="a game record (JSON)")],
    check: Annotated[bool, typer.Option(
        help="only replay and check the result, without stepping")] = False,
    no_color: Annotated[bool, typer.Option("--no-color", help="plain text")] = False,
) -> None:
    """Step through a recorded game (next, back, jump), or check that it replays."""
    from .records import RecordError, load

    try:
        record = load(path)
        if check:
            state = record.replay()
            print(f"{path}: {len(record.moves)} moves replay to the recorded result"
                  if record.result is not None else
                  f"{path}: {len(record.moves)} moves replay (the game is unfinished)")
            del state
            return
    except (RecordError, OSError) as error:
        print(f"{path}: {error}", file=sys.stderr)
        raise typer.Exit(1) from None
    from .terminal.replay import replay as step

    try:
        step(record, console=Console(no_color=no_color, highlight=False))
    except RecordError as error:
        print(f"{path}: {error}", file=sys.stderr)
        raise typer.Exit(1) from None


@app.command()
def demo(
    game: Annotated[str, typer.Argument(help=_GAMES_HELP)] = gamelib.names()[0],
    bots: Annotated[str, typer.Option(help="the two bots, comma separated")] = "greedy,greedy",
    seed: Annotated[int | None, typer.Option(help="seed for the deal")] = None,
) -> None:
    """Watch bots play a whole game, printed move by move."""
    from .terminal import watch

    spec = _spec(game)
    watch(spec, split_specs(bots), seed=seed, console=Console(highlight=False))


@app.command()
def bench(
    seconds: Annotated[float, typer.Option(help="time per engine")] = 3.0,
) -> None:
    """Measure engine speed beside OpenSpiel's card games (needs open-spiel for the peer)."""
    root = Path(__file__).resolve().parents[1] / "benchmarks" / "engine.py"
    if not root.exists():
        print("benchmarks/engine.py is only in a source checkout", file=sys.stderr)
        raise typer.Exit(2)
    import runpy

    sys.argv = [str(root), "--seconds", str(seconds)]
    runpy.run_path(str(root), run_name="__main__")


@app.command("arena")
def arena(
    game: GameName,
    bots: Annotated[str, typer.Option(
        "--bots", help="the bots, comma separated, e.g. greedy,medium")],
    games: Annotated[int | None, typer.Option(
        "--games", help="games to play, rounded up to whole duplicate deals (default 100)")
    ] = None,
    rules: Annotated[str | None, typer.Option("--rules", help="rule preset")] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="override one rule option: name=value (repeatable)")] = None,
    players: Annotated[int | None, typer.Option("--players", help="players per game")] = None,
    hands: Annotated[int | None, typer.Option(
        "--hands", help="play this many single hands instead of whole games (Pasur)")] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="parallel processes")] = 1,
    seed: Annotated[int, typer.Option("--seed", help="seed for the deals and the bots")] = 0,
    json_path: Annotated[Path | None, typer.Option(
        "--json", help="write the figures here")] = None,
    plot: Annotated[Path | None, typer.Option(
        "--plot", help="write a PNG of win rates here")] = None,
    save_games: Annotated[Path | None, typer.Option(
        "--save-games", help="write every game's record into this folder")] = None,
    ray: Annotated[str | None, typer.Option(
        "--ray", metavar="ADDRESS",
        help="run on Ray: 'local' (a Ray started here), 'auto' or a cluster's host:port")
    ] = None,
) -> None:
    """Bots against bots on duplicate deals: win rates, points, durak rates, ratings."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from . import arena as arenalib

    console = Console()
    try:
        spec = gamelib.get(game)
        names = split_specs(bots)
        if hands is not None and games is not None:
            raise ValueError("give --games (whole games) or --hands (single hands), not both")
        count = hands if hands is not None else games if games is not None else 100
        if count < 1:
            raise ValueError("play at least one game")
        if jobs < 1:
            raise ValueError("--jobs is 1 or more")
        chosen = spec.rules(rules, parse_options(option))
        tasks = arenalib.plan(game, names, games=count, rules=chosen, players=players,
                              seed=seed, hands=hands is not None, save_dir=save_games)
    except ValueError as error:
        raise typer.BadParameter(str(error)) from None
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=False) as progress:
        bar = progress.add_task(f"{spec.title}: {', '.join(names)}", total=len(tasks))
        try:
            outcome = arenalib.play_plan(tasks, names, seed=seed, jobs=jobs, ray=ray,
                                         on_result=lambda _: progress.advance(bar))
        except RuntimeError as error:
            console.print(f"[red]{error}[/red]")
            raise typer.Exit(2) from None
    console.print(outcome.table())
    if json_path is not None:
        json_path.write_text(json.dumps(outcome.to_json(), indent=1), encoding="utf-8")
        console.print(f"Wrote the figures to {json_path}")
    if plot is not None:
        outcome.plot(plot)
        console.print(f"Wrote the plot to {plot}")
    if save_games is not None:
        console.print(f"Wrote {len(outcome.results)} game records to {save_games}")


def main() -> None:
    app()


if __name__ == "__main__":
    main()
