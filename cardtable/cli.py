"""The ``cardtable`` command: play, serve, arena, replay, rules, bench, demo, admin."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.table import Table

from . import games as gamelib
from .bots import split_specs
from .game import GameSpec, rule_options
from .server.store.backup import register as register_backups

app = typer.Typer(
    name="cardtable",
    help="Pasur and Transfer Durak: play in the terminal, serve the web table, run bots.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

_GAMES_HELP = " or ".join(gamelib.names())


def _version(shown: bool) -> None:
    if shown:
        from . import __version__

        print(f"cardtable {__version__}")
        raise typer.Exit()


@app.callback()
def _everywhere(
    version: Annotated[bool, typer.Option(
        "--version", callback=_version, is_eager=True, help="print the version and stop")
    ] = False,
    ascii: Annotated[bool, typer.Option(
        "--ascii", help="cards as 10D in every command, for a terminal without the suit "
        "symbols")] = False,
) -> None:
    """Pasur and Transfer Durak: play in the terminal, serve the web table, run bots."""
    from .terminal.output import use_ascii

    use_ascii(ascii)
GameName = Annotated[str, typer.Argument(help=_GAMES_HELP)]


def _spec(name: str) -> GameSpec:
    try:
        return gamelib.get(name)
    except ValueError as error:
        _refuse(str(error))


def _refuse(reason: str, code: int = 2) -> NoReturn:
    """Refuse a bad input in one line on stderr, never a traceback or a box."""
    print(f"cardtable: {reason}", file=sys.stderr)
    raise typer.Exit(code)


def _console() -> Console:
    """The console for stdout: cards written ``10D`` where it cannot print the suits."""
    from .terminal.output import console

    return console()


def _out(path: Path | None) -> Path | None:
    """An output file checked before any work (``~`` expanded, its folder there)."""
    from .terminal.output import output_path

    return None if path is None else output_path(path)


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
        options[key.strip()] = _value(value)
    return options


def _value(text: str) -> Any:
    """A rule option's value: JSON where it reads as JSON, a comma list as a list
    (``player_counts=2,4``), else the text itself.

    >>> _value("2,4"), _value("[2, 4]"), _value("any"), _value("a, b")
    ([2, 4], [2, 4], 'any', ['a', 'b'])
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        pass
    if "," in text:
        return [_value(part.strip()) for part in text.split(",") if part.strip()]
    return text


@app.command()
def rules(
    game: GameName,
    preset: Annotated[str | None, typer.Option(help="show this preset's values")] = None,
) -> None:
    """List a game's presets and every rule option with its meaning."""
    from rich.padding import Padding
    from rich.text import Text

    spec = _spec(game)
    console = _console()
    options = rule_options(spec.rules_type)
    presets = [preset] if preset else list(spec.presets)
    for name in presets:
        if name not in spec.presets:
            _refuse(f"no preset {name!r}; the presets are " + ", ".join(spec.presets))
    values = {option.name: [_show(getattr(spec.presets[name], option.name))
                            for name in presets] for option in options}
    longest = max((len(option.name) for option in options), default=6)
    columns = [max([len(name), *(len(values[o.name][i]) for o in options)])
               for i, name in enumerate(presets)]
    if console.width >= longest + sum(columns) + 3 * len(presets) + 34:
        table = Table(title=f"{spec.title}: rule options")
        # an option's name is what one types after -o: never wrapped or cut
        table.add_column("option", no_wrap=True, min_width=longest)
        for name, width in zip(presets, columns, strict=True):
            table.add_column(name, no_wrap=True, min_width=min(width, 12))
        table.add_column("meaning", ratio=1)
        for option in options:
            table.add_row(option.name, *values[option.name], option.doc)
        console.print(table)
        return
    # too narrow for a table: one block per option, its name on a line of its own
    console.print(Text(f"{spec.title}: rule options", style="bold"))
    for option in options:
        console.print()
        console.print(Text(option.name, style="bold"), soft_wrap=True)
        for name, value in zip(presets, values[option.name], strict=True):
            console.print(f"  {name}: {value}", soft_wrap=True)
        console.print(Padding(Text(option.doc, style="dim"), (0, 0, 0, 2)))


def _show(value: object) -> str:
    if isinstance(value, tuple | list | frozenset):
        return ",".join(str(v) for v in value)
    return str(value)


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True,
                              "help_option_names": []})
def serve(ctx: typer.Context) -> None:
    """Start the web table on http://HOST:PORT (every flag: cardtable serve --help)."""
    from .terminal.output import needs

    try:
        for module in ("fastapi", "uvicorn", "sqlalchemy"):
            needs(module, "the web table", "pip install 'cardtable[server]'")
    except ValueError as error:
        _refuse(str(error))
    try:
        from .server.__main__ import main as run_server
    except ImportError as error:
        print(f"the web table needs the server extras: pip install 'cardtable[server]' "
              f"({error})", file=sys.stderr)
        raise typer.Exit(2) from None
    # the flags are the server's own (made from its settings): one command, two names
    run_server(list(ctx.args), prog="cardtable serve")


@app.command("push-keys")
def push_keys() -> None:
    """Make a Web Push key pair (VAPID) for the server's settings (docs/social.md)."""
    from .terminal.output import needs

    try:
        needs("cryptography", "push-keys", "pip install 'cardtable[server]'")
    except ValueError as error:
        _refuse(str(error))
    from .server.core.vapid import new_keys

    private, public = new_keys()
    print(f"CARDTABLE_VAPID_PRIVATE_KEY={private}")
    print(f"CARDTABLE_VAPID_PUBLIC_KEY={public}")
    print("# and CARDTABLE_VAPID_SUBJECT=mailto:you@example.org. Keep the private key "
          "secret and the same on every process: with a new pair each browser turns "
          "notifications on again")


@app.command("watch-table")
def watch_table(
    url: Annotated[str, typer.Argument(help="the table's page, e.g. http://HOST:PORT/table/ID")],
    token: Annotated[str | None, typer.Option(help="a seat's token (default: watch)")] = None,
) -> None:
    """Follow a web table: a line per state, with the clock of the seat to move."""
    from .terminal.output import needs

    try:
        needs("websockets", "watch-table", "pip install 'cardtable[server]'")
        from .server.viewer import watch
    except ImportError as error:
        _refuse(f"watching a web table needs the server extras ({error})")
    except ValueError as error:
        _refuse(str(error))
    watch(url, token)


@app.command()
def play(
    game: Annotated[str | None, typer.Argument(
        help=_GAMES_HELP + " (not needed with --resume)")] = None,
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
    resume: Annotated[Path | None, typer.Option(
        help="continue the saved game in this record (it is saved back there)")] = None,
    no_color: Annotated[bool, typer.Option("--no-color", help="plain text")] = False,
    ascii: Annotated[bool, typer.Option(
        "--ascii", help="cards as 10D, for a terminal without the suit symbols")] = False,
    hint: Annotated[str, typer.Option(
        help="h hints the move the analysis's judge ranks best (the one `cardtable "
        "analyse` uses), with why; this bot hints only in a game the judge does not "
        "know")] = "greedy",
) -> None:
    """Play in the terminal against bots (or friends, with --hotseat); continue a saved
    game with --resume."""
    from .records import Record, RecordError
    from .terminal import Session, seat_plan
    from .terminal.output import console as make_console
    from .terminal.playing import may_write, plan_of
    from .terminal.replay import read_record

    record: Record | None = None
    try:
        save = _out(save)
        if resume is not None:
            record = read_record(resume)
            spec = record.spec
            if game is not None and gamelib.get(game).name != spec.name:
                raise ValueError(f"{resume} is a game of {spec.title}, not {game}")
            chosen = record.rules_object()
            count = record.players
            plan = plan_of(record, split_specs(seats) if seats else ())
        else:
            if game is None:
                raise ValueError("name the game to play (" + _GAMES_HELP + "), "
                                 "or continue one with --resume GAME.json")
            spec = _spec(game)
            chosen = spec.rules(rules, parse_options(option))
            count = spec.default_players if players is None else players
            spec.check_players(chosen, count)
            levels = split_specs(vs)
            if not levels and not seats and not hotseat:
                raise ValueError("--vs names no bot: give bot levels, e.g. --vs medium, "
                                 "or play with friends with --hotseat")
            plan = seat_plan(count, vs=levels, seats=split_specs(seats) if seats else (),
                             hotseat=hotseat)
        console = make_console(no_color=no_color, ascii=ascii)

        def sitting(number: int) -> Any:
            """The ``number``-th game of this sitting: the saved one, then rematches."""
            deal = None if seed is None else seed + number - 1
            session = Session(spec, chosen, players=count, plan=plan, seed=deal,
                              console=console, hint=hint,
                              start=record.start() if record and number == 1 else None)
            if record is not None and number == 1:
                session.resume(record.moves)
            return session

        session = sitting(1)
        target = save if save is not None else _writable(resume)
        confirmed = None
        if save is not None and save.exists():
            # a record this game continues (the one resumed) is written over unasked
            if not may_write(save, session.record() if record is not None else None,
                             say=console.print):
                raise ValueError(f"left {save} as it was: give --save another file")
            confirmed = save
    except RecordError as error:
        _refuse(f"{resume}: {error}", 1)
    except ValueError as error:
        _refuse(str(error))
    number = 1
    while True:
        _play_one(session, target, console, confirmed=confirmed)
        if not session.state.is_over() or not _rematch(console):
            return
        number += 1
        session = sitting(number)
        from .terminal.playing import numbered

        target = None if save is None else numbered(save, number)
        confirmed = None


def _writable(path: Path | None) -> Path | None:
    """A resumed game's own file, where it is saved back, if it can be written."""
    if path is None:
        return None
    try:
        return _out(path)
    except ValueError:
        return None


def _play_one(session: Any, target: Path | None, console: Any, *,
              confirmed: Path | None) -> None:
    """One game: played, then written (to ``target``, or where the player says)."""
    from .terminal.playing import save_game

    try:
        session.run()
    except KeyboardInterrupt:
        console.print("\nStopped (Ctrl-C).")
        if session.played_here:
            save_game(session.record(), target, console, confirmed=confirmed)
        raise typer.Exit(130) from None
    if not session.played_here:
        if not session.state.is_over():
            console.print("Nothing played: nothing saved.")
        return
    # played here, finished or left: written to ``target``, or the player is asked where
    # (before any rematch is offered, so a finished game is never lost to a "Play again?")
    save_game(session.record(), target, console, confirmed=confirmed)


def _rematch(console: Any) -> bool:
    """A finished game offers another, the same seats on a new deal."""
    from .terminal.prompt import ask_yes

    return ask_yes("Play again (a rematch on a new deal)?", say=console.print)


@app.command()
def replay(
    path: Annotated[Path, typer.Argument(help="a game record (JSON)")],
    check: Annotated[bool, typer.Option(
        help="only replay and check the result, without stepping")] = False,
    no_color: Annotated[bool, typer.Option("--no-color", help="plain text")] = False,
    ascii: Annotated[bool, typer.Option(
        "--ascii", help="cards as 10D, for a terminal without the suit symbols")] = False,
) -> None:
    """Step through a recorded game (next, back, jump), or check that it replays."""
    from .records import RecordError
    from .terminal.output import console as make_console
    from .terminal.replay import read_record

    try:
        record = read_record(path)
        if check:
            record.replay()
            print(f"{path}: {len(record.moves)} moves replay to the recorded result"
                  if record.result is not None else
                  f"{path}: {len(record.moves)} moves replay (the game is unfinished)")
            return
    except RecordError as error:
        _refuse(f"{path}: {error}", 1)
    from .terminal.replay import replay as step

    try:
        step(record, console=make_console(no_color=no_color, ascii=ascii))
    except RecordError as error:
        _refuse(f"{path}: {error}", 1)
    except KeyboardInterrupt:
        raise typer.Exit(130) from None


@app.command()
def demo(
    game: Annotated[str, typer.Argument(help=_GAMES_HELP)] = gamelib.names()[0],
    bots: Annotated[str, typer.Option(
        help="the bots, comma separated: one per seat, or one for every seat")
    ] = "greedy",
    seed: Annotated[int | None, typer.Option(help="seed for the deal")] = None,
    rules: Annotated[str | None, typer.Option("--rules", help="preset name")] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="override one rule option: name=value (repeatable)")] = None,
    players: Annotated[int | None, typer.Option(help="number of players")] = None,
    ascii: Annotated[bool, typer.Option(
        "--ascii", help="cards as 10D, for a terminal without the suit symbols")] = False,
) -> None:
    """Watch bots play a whole game, printed move by move."""
    from . import bots as botlib
    from .terminal import watch
    from .terminal.output import console as make_console

    spec = _spec(game)
    try:
        names = split_specs(bots)
        if not names:
            raise ValueError("--bots names no bot, e.g. --bots greedy,medium")
        for name in dict.fromkeys(names):
            botlib.make(name)
        chosen = spec.rules(rules, parse_options(option))
        if players is None:
            count = len(names) if len(names) > 1 else spec.default_players
        else:
            count = players
            if len(names) not in (1, count):
                raise ValueError(f"--bots names {len(names)} bots for {count} players: "
                                 f"name one per seat, or one for every seat")
        spec.check_players(chosen, count)
    except ValueError as error:
        _refuse(str(error))
    try:
        watch(spec, names, players=count, rules=chosen, seed=seed,
              console=make_console(ascii=ascii))
    except KeyboardInterrupt:
        raise typer.Exit(130) from None


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
    force: Annotated[bool, typer.Option(
        "--force", help="write over --json and --plot unasked")] = False,
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

    console = _console()
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
        json_path, plot = _out(json_path), _out(plot)
        if plot is not None:
            from .terminal.output import needs

            needs("matplotlib", "--plot", "pip install 'cardtable[arena]'")
        from .terminal.output import may_replace, same_file

        if json_path is not None and plot is not None and same_file(json_path, plot):
            raise ValueError("--json and --plot name one file: give two")

        for path, flag in ((json_path, "--json"), (plot, "--plot")):
            if path is not None:    # asked before the games, never after them
                may_replace(path, flag, force=force)
        if save_games is not None:
            from .terminal.output import folder_path

            save_games = folder_path(save_games)
        tasks = arenalib.plan(game, names, games=count, rules=chosen, players=players,
                              seed=seed, hands=hands is not None, save_dir=save_games)
    except ValueError as error:
        _refuse(str(error))
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn(), TimeRemainingColumn())
    from .terminal.output import console as make_console

    # the progress on stderr: stdout keeps the figures alone, to pipe or redirect
    with Progress(*columns, console=make_console(stream=sys.stderr),
                  transient=False) as progress:
        bar = progress.add_task(f"{spec.title}: {', '.join(names)}", total=len(tasks))
        try:
            outcome = arenalib.play_plan(tasks, names, seed=seed, jobs=jobs, ray=ray,
                                         on_result=lambda _: progress.advance(bar))
        except RuntimeError as error:
            console.print(f"[red]{error}[/red]")
            raise typer.Exit(2) from None
    console.print(outcome.table())
    for warning in outcome.warnings:
        console.print(f"[yellow]warning: {warning}[/yellow]", soft_wrap=True)
    if json_path is not None:
        json_path.write_text(json.dumps(outcome.to_json(), indent=1), encoding="utf-8")
        console.print(f"Wrote the figures to {json_path}")
    if plot is not None:
        outcome.plot(plot)
        console.print(f"Wrote the plot to {plot}")
    if save_games is not None:
        console.print(f"Wrote {len(outcome.results)} game records to {save_games}")


@app.command("ladder")
def ladder(
    game: GameName,
    agent: Annotated[str, typer.Option(
        "--agent", help="the entrant: module:function returning a pyspiel.Bot, or a bot spec")],
    levels: Annotated[str | None, typer.Option(
        "--levels", help="the rungs, comma separated (default: every level)")] = None,
    deals: Annotated[int, typer.Option(
        "--deals", help="duplicate deals against each rung (each played in both seats)")] = 20,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="parallel processes")] = 1,
    seed: Annotated[int, typer.Option("--seed", help="seed for the deals and the bots")] = 0,
    json_path: Annotated[Path | None, typer.Option(
        "--json", help="write the figures here")] = None,
) -> None:
    """An agent against every level on duplicate deals: one table, and its rating."""
    from . import bots as botlib
    from .arena.ladder import MAX_DEALS, RUNGS, climb, published

    console = _console()
    try:
        gamelib.get(game)
        rungs = split_specs(levels) if levels else list(RUNGS)
        if not 1 <= deals <= MAX_DEALS:
            raise ValueError(f"--deals is 1 to {MAX_DEALS}")
        if not 1 <= jobs <= 64:
            raise ValueError("--jobs is 1 to 64")
        json_path = _out(json_path)
        for name in [agent, *rungs]:
            botlib.make(name, seed=0)
    except ValueError as error:
        _refuse(str(error))
    spec = gamelib.get(game)
    console.print(f"{spec.title}: {agent} against {', '.join(rungs)}, {deals} deals each",
                  style="bold")
    try:
        outcome = climb(game, agent, levels=rungs, deals=deals, seed=seed, jobs=jobs,
                        on_rung=lambda rung: console.print(
                            f"  {rung.level}: {rung.games} games, score {rung.score:.2f}",
                            highlight=False))
    except (ValueError, RuntimeError) as error:
        _refuse(str(error))
    table = Table(title=f"{agent} on the {spec.title} ladder")
    table.add_column("level")
    table.add_column("games", justify="right")
    loser = spec.loser
    table.add_column("points a hand (agent less level)" if not loser
                     else f"agent's {loser} rate", justify="right")
    table.add_column("95% interval", justify="right")
    table.add_column("score", justify="right")
    table.add_column("level's rating", justify="right")
    for rung in outcome["rungs"]:
        if rung["loss_rate"] is not None:
            value, ci = f"{rung['loss_rate']:.0%}", rung["loss_ci95"]
            interval = f"{ci[0]:.0%} to {ci[1]:.0%}"
        else:
            value = "-" if rung["points"] is None else f"{rung['points']:+.2f}"
            ci = rung["points_ci95"]
            interval = "-" if ci is None else f"{ci[0]:+.2f} to {ci[1]:+.2f}"
        rated = rung["rung_rating"]
        table.add_row(rung["level"], str(rung["games"]), value, interval,
                      f"{rung['score']:.2f}", "-" if rated is None else f"{rated:.0f}")
    console.print(table)
    rating = outcome["rating"]
    if published(game) is None:
        console.print("no published ladder for this game: no rating")
    elif rating is None:
        console.print("rating: none (it won every game or lost every game against the "
                      "rated levels; play more deals or other levels)")
    else:
        console.print(f"rating: {rating:.0f} on the ladder's scale (random 0, Elo points)")
    if json_path is not None:
        json_path.write_text(json.dumps(outcome, indent=1), encoding="utf-8")
        console.print(f"Wrote the figures to {json_path}")


def _school() -> None:
    """The school's commands (analyse, learn, puzzle) live in cardtable.terminal.school."""
    from .terminal.school import register

    register(app)


_school()
register_backups(app)   # backup and restore (cardtable.server.store.backup)


admin_app = typer.Typer(help="the site's admins: grant, revoke, list (docs/players.md)",
                        no_args_is_help=True)
app.add_typer(admin_app, name="admin")
AdminName = Annotated[str, typer.Argument(help="the account's username")]
AdminDataDir = Annotated[Path | None, typer.Option(
    help="the server's data folder (default: $CARDTABLE_DATA_DIR, else ./data)")]
AdminUrl = Annotated[str | None, typer.Option(
    help="the server's database URL (default: $CARDTABLE_DATABASE_URL)")]


def _moderation(data_dir: Path | None, database_url: str | None) -> Any:
    """The sanctions' store on the server's database (migrated first, as a start does)."""
    import getpass

    from .server.store.backup import settings_of
    from .server.store.sanctions import SanctionStore
    from .server.store.storage import Storage, sqlite_url

    chosen = settings_of(data_dir, database_url)
    storage = Storage(chosen.revealed("database_url") or sqlite_url(chosen.data_dir),
                      threads=1)
    storage.migrate()
    return SanctionStore(storage), f"command line ({getpass.getuser()})"


def _role(name: str, role: str | None, data_dir: Path | None, url: str | None) -> None:
    from .server.core.errors import Refused

    store, who = _moderation(data_dir, url)
    try:
        player = store.grant(name, role, who)
    except Refused as error:
        _refuse(error.reason)
    finally:
        store.storage.close()
    print(f"{player.username}: {'admin' if role else 'no longer an admin'}")


@admin_app.command("grant")
def admin_grant(name: AdminName, data_dir: AdminDataDir = None,
                database_url: AdminUrl = None) -> None:
    """Make an account an admin (it may mute, ban, close tables, rename; audited)."""
    _role(name, "admin", data_dir, database_url)


@admin_app.command("revoke")
def admin_revoke(name: AdminName, data_dir: AdminDataDir = None,
                 database_url: AdminUrl = None) -> None:
    """Take an account's admin role back."""
    _role(name, None, data_dir, database_url)


@admin_app.command("list")
def admin_list(data_dir: AdminDataDir = None, database_url: AdminUrl = None) -> None:
    """The admins' usernames, one a line."""
    store, _ = _moderation(data_dir, database_url)
    try:
        for name in store.admins():
            print(name)
    finally:
        store.storage.close()


def _failed(error: BaseException) -> int:
    """Say in one line on stderr what went wrong where nothing else caught it (a
    traceback helps nobody at a card table); the exit code is 1."""
    strerror, filename = getattr(error, "strerror", None), getattr(error, "filename", None)
    reason = (f"{strerror}: {filename}" if strerror and filename else strerror
              or str(error) or type(error).__name__)
    reason = " ".join(str(reason).split())
    print(f"cardtable: failed: {reason} ({type(error).__name__})", file=sys.stderr)
    return 1


def main() -> None:
    """The ``cardtable`` command: a mistake on the command line (an unknown option, a
    value of the wrong kind) is told in one line too, never a box or a traceback."""
    try:
        code = app(standalone_mode=False)
    except typer.Abort:
        print("cardtable: stopped", file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        print("cardtable: stopped (Ctrl-C)", file=sys.stderr)
        sys.exit(130)
    except typer.TyperException as error:     # click's errors, as Typer raises them
        formatted = getattr(error, "format_message", None)
        message = formatted() if callable(formatted) else str(error)
        where = getattr(getattr(error, "ctx", None), "command_path", None)
        hint = f" (see {where} --help)" if where else ""
        print(f"cardtable: {message}{hint}", file=sys.stderr)
        sys.exit(getattr(error, "exit_code", 2))
    except Exception as error:                # anything left: one line, no traceback
        sys.exit(_failed(error))
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
