"""``cardtable backup`` and ``cardtable restore``: the SQLite database copied whole, while
the server runs, and put back.

``backup`` uses SQLite's online backup API (``sqlite3.Connection.backup``): it reads the
database as one snapshot, in a single step, so it finishes however busily the server
writes (the database is in WAL mode: the server's writers do not wait for it), and the
copy holds every move stored when it began (a move is stored before anyone is sent it, so
nobody saw a move the copy lacks at that moment).  The copy is written beside ``--out``
and renamed once it is whole and its integrity checked: a failed backup leaves no half
file.  It is one self-contained file (no ``-wal`` beside it).  ``restore`` checks that a
file is such a copy and writes it into the data folder through the same API; the server
resumes every unfinished table from it at its last stored move.  Stop the server first:
a server running on the database it replaces would keep playing its tables from memory,
so ``restore`` refuses, even with ``--force``, while one does (a server holds a shared
``flock`` on ``DATABASE.running`` beside the file for as long as it runs: ``serving``).

The copies, like the live database, hold the session secret and every account's e-mail:
each is written readable by its owner alone (0600), whatever the umask.

PostgreSQL is refused: it has its own tools, ``pg_dump`` and ``pg_restore``
(docs/deploy.md).

>>> import tempfile; folder = Path(tempfile.mkdtemp())
>>> db = folder / "cardtable.sqlite3"
>>> with sqlite3.connect(db) as made:
...     _ = made.execute("create table tables (id text)")
...     _ = made.execute("create table moves (table_id text)")
>>> backup(db, folder / "copy.sqlite3").tables
0
>>> backup(db, folder / "copy.sqlite3")
Traceback (most recent call last):
  ...
cardtable.server.store.backup.BackupRefused: ... exists: give --force to replace it
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sqlite3
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

__all__ = ["BackupRefused", "Copied", "backup", "create_private", "database_of", "register",
           "restore", "serving", "settings_of"]

DATABASE = "cardtable.sqlite3"
"""The database's file in the data folder (``store.engine.sqlite_url``)."""

NEEDED = ("tables", "moves")
"""The tables a cardtable database has, whatever its version."""

PG_DUMP = ("the database is PostgreSQL: back it up with its own tools, e.g. "
           "pg_dump --format=custom --file=FILE URL, and put it back with pg_restore "
           "(docs/deploy.md)")

if TYPE_CHECKING:
    from ..core.settings import ServerSettings


class BackupRefused(ValueError):
    """Why a backup or a restore is not done (nothing was written)."""


@dataclass(frozen=True)
class Copied:
    """What a backup or a restore copied."""

    path: Path
    tables: int
    moves: int
    size: int

    def __str__(self) -> str:
        return (f"{self.tables} tables, {self.moves} moves ({self.size / 1024:.0f} KB) "
                f"in {self.path}")


def database_of(data_dir: str | Path, database_url: str | None) -> Path:
    """The SQLite file the server uses with these settings; ``BackupRefused`` for
    PostgreSQL (or any database that is not a SQLite file)."""
    if not database_url:
        return Path(data_dir) / DATABASE
    scheme, _, rest = database_url.partition(":///")
    if scheme.split("+")[0] == "sqlite" and rest and rest != ":memory:":
        return Path(rest.split("?")[0])
    if database_url.startswith("postgres"):
        raise BackupRefused(PG_DUMP)
    raise BackupRefused("only a SQLite database in a file is backed up by cardtable backup")


def create_private(path: Path) -> None:
    """Make ``path`` an empty file only its owner may read (0600) if there is none (SQLite
    gives its ``-wal`` and ``-shm`` files the database's own mode)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


def _running_file(database: Path) -> Path:
    return database.with_name(database.name + ".running")


@contextlib.contextmanager
def serving(database_url: str) -> Iterator[None]:
    """Held by a server for as long as it runs on a SQLite file: a shared lock that
    ``restore`` sees (several processes may hold it at once); nothing for PostgreSQL."""
    try:
        database = database_of(".", database_url)
    except BackupRefused:
        yield
        return
    marker = _running_file(database)
    create_private(marker)
    with open(marker, "rb") as held:
        fcntl.flock(held, fcntl.LOCK_SH)
        try:
            yield
        finally:
            fcntl.flock(held, fcntl.LOCK_UN)


@contextlib.contextmanager
def _no_server(database: Path) -> Iterator[None]:
    """An exclusive lock on the database's running file for the restore, or
    ``BackupRefused`` while a server holds it."""
    marker = _running_file(database)
    create_private(marker)
    with open(marker, "rb") as held:
        try:
            fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise BackupRefused(f"a server is running on {database}: stop it first (a "
                                "running server would go on playing its tables from "
                                "memory)") from None
        try:
            yield
        finally:
            fcntl.flock(held, fcntl.LOCK_UN)


def backup(database: Path, out: Path, *, force: bool = False) -> Copied:
    """Copy the live database ``database`` into ``out`` (refused if it exists, unless
    ``force``)."""
    if not database.is_file():
        raise BackupRefused(f"there is no database at {database}")
    if out.exists() and not force:
        raise BackupRefused(f"{out} exists: give --force to replace it")
    if out.exists() and out.resolve() == database.resolve():
        raise BackupRefused("the backup cannot be the database itself")
    partial = out.with_name(out.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        create_private(partial)   # the copy holds the session secret: its owner's alone
        with contextlib.closing(sqlite3.connect(database, timeout=30)) as source, \
                contextlib.closing(sqlite3.connect(partial)) as copy:
            source.backup(copy)   # one step: one snapshot, however busy the server
            copy.execute("PRAGMA journal_mode=DELETE")   # one file, no -wal beside it
            tables, moves = _check(copy, partial)
        os.replace(partial, out)
    finally:
        partial.unlink(missing_ok=True)
    return Copied(out, tables, moves, out.stat().st_size)


def restore(file: Path, database: Path, *, force: bool = False) -> Copied:
    """Write the backup ``file`` into ``database``; a database that holds tables already
    is replaced only with ``force``, and never while a server runs on it."""
    if not file.is_file():
        raise BackupRefused(f"there is no file {file}")
    database.parent.mkdir(parents=True, exist_ok=True)
    with _no_server(database):
        return _restore(file, database, force=force)


def _restore(file: Path, database: Path, *, force: bool) -> Copied:
    try:
        with contextlib.closing(sqlite3.connect(f"file:{file}?mode=ro", uri=True)) as source:
            tables, moves = _check(source, file)
            if database.exists():
                with contextlib.closing(sqlite3.connect(database, timeout=30)) as old:
                    held = _count(old, "tables") if _has(old, "tables") else 0
                if held and not force:
                    raise BackupRefused(
                        f"{database} holds {held} tables already: stop its server, then "
                        "give --force to replace them with the backup's")
            create_private(database)
            with contextlib.closing(sqlite3.connect(database, timeout=30)) as target:
                source.backup(target)
    except sqlite3.DatabaseError as error:
        raise BackupRefused(f"{file} is not a cardtable backup ({error})") from None
    return Copied(database, tables, moves, database.stat().st_size)


def _check(db: sqlite3.Connection, path: Path) -> tuple[int, int]:
    """(tables, moves) of a whole cardtable database, or ``BackupRefused``."""
    try:
        verdict = db.execute("PRAGMA integrity_check").fetchone()[0]
    except sqlite3.DatabaseError as error:
        raise BackupRefused(f"{path} is not a SQLite database ({error})") from None
    if verdict != "ok":
        raise BackupRefused(f"{path} is damaged: {verdict}")
    missing = [name for name in NEEDED if not _has(db, name)]
    if missing:
        raise BackupRefused(f"{path} is not a cardtable database (no {', '.join(missing)})")
    return _count(db, "tables"), _count(db, "moves")


def _has(db: sqlite3.Connection, table: str) -> bool:
    return db.execute("select 1 from sqlite_master where type = 'table' and name = ?",
                      (table,)).fetchone() is not None


def _count(db: sqlite3.Connection, table: str) -> int:
    return int(db.execute(f"select count(*) from {table}").fetchone()[0])


# -- the commands ---------------------------------------------------------------------------

def settings_of(data_dir: Path | None, database_url: str | None) -> ServerSettings:
    """The server's settings, a command's ``--data-dir`` and ``--database-url`` first,
    then CARDTABLE_DATA_DIR, CARDTABLE_DATABASE_URL and .env, as ``cardtable serve``
    reads them (``backup``, ``restore``, ``admin``)."""
    from ..core.settings import ServerSettings

    given: dict[str, Any] = {}
    if data_dir is not None:
        given["data_dir"] = data_dir
    if database_url is not None:
        given["database_url"] = database_url
    return ServerSettings(**given)


def _where(data_dir: Path | None, database_url: str | None) -> Path:
    """The database the server's settings name."""
    chosen = settings_of(data_dir, database_url)
    url = chosen.database_url.get_secret_value() if chosen.database_url else None
    return database_of(chosen.data_dir, url)


DataDir = Annotated[Path | None, typer.Option(
    help="the server's data folder (default: $CARDTABLE_DATA_DIR, else ./data)")]
Url = Annotated[str | None, typer.Option(
    help="the server's database URL (default: $CARDTABLE_DATABASE_URL); PostgreSQL is "
         "refused: use pg_dump")]


def register(app: typer.Typer) -> None:
    """Add ``backup`` and ``restore`` to the ``cardtable`` command (a Typer app)."""

    def done(action: Callable[[], object]) -> None:
        try:
            print(action())
        except BackupRefused as refusal:
            print(f"cardtable: {refusal}", file=sys.stderr)
            raise typer.Exit(2) from None

    @app.command("backup")
    def backup_command(
        out: Annotated[Path, typer.Option("--out", help="the file to write the copy to")],
        force: Annotated[bool, typer.Option(help="replace --out if it exists")] = False,
        data_dir: DataDir = None, database_url: Url = None,
    ) -> None:
        """Copy the SQLite database while the server runs (SQLite's online backup)."""
        done(lambda: "backed up " + str(backup(_where(data_dir, database_url), out,
                                                  force=force)))

    @app.command("restore")
    def restore_command(
        file: Annotated[Path, typer.Argument(help="a file cardtable backup wrote")],
        force: Annotated[bool, typer.Option(help="replace a database that holds tables "
                                                 "(stop its server first)")] = False,
        data_dir: DataDir = None, database_url: Url = None,
    ) -> None:
        """Put a backup in the data folder; the server started on it resumes every table
        at its last stored move."""
        done(lambda: "restored " + str(restore(file, _where(data_dir, database_url),
                                                force=force)))
