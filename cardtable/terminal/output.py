"""What the terminal writes to: checked output paths, and a console that falls back to
``10D``-style cards where the terminal cannot print the suit symbols.

A game must never be played and then lost to a path, so ``--save``, ``--json`` and
``--plot`` are checked before anything starts:

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> output_path(str(folder / "game.json")) == folder / "game.json"
True
>>> output_path(str(folder / "missing" / "game.json"))
Traceback (most recent call last):
...
ValueError: there is no folder ... to write .../missing/game.json in
>>> output_path(str(folder))
Traceback (most recent call last):
...
ValueError: ... is a folder: give a file name in it
>>> ascii_cards("10♦ x 2♣ · A♠ — 7♥")
'10D x 2C - AS - 7H'
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TextIO, cast

__all__ = [
    "ASCII",
    "AsciiCards",
    "ascii_cards",
    "can_print",
    "console",
    "folder_path",
    "may_replace",
    "needs",
    "output_path",
    "use_ascii",
]

ASCII = str.maketrans({"♣": "C", "♦": "D", "♥": "H", "♠": "S", "·": "-", "—": "-",
                       "–": "-", "◀": "<", "✓": "x", "…": "...", "μ": "mu", "±": "+-",
                       "σ": "s", "×": "x", "⋯": "...", "★": "*", "●": "*"})
"""Card suits as letters and the few other symbols the screens use, as plain ASCII."""

SYMBOLS = "♣♦♥♠·—◀"


def ascii_cards(text: str) -> str:
    """``text`` with the card suits written as letters (``10♦`` -> ``10D``)."""
    return text.translate(ASCII)


def can_print(stream: Any, symbols: str = SYMBOLS) -> bool:
    """Whether ``stream``'s encoding can write the card symbols."""
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        symbols.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


class AsciiCards(io.TextIOBase):
    """A text stream that writes suits as letters and anything else it cannot encode as
    ``?``: a terminal without the symbols shows ``10D`` instead of a traceback."""

    def __init__(self, stream: TextIO) -> None:
        super().__init__()
        self.stream = stream
        self._encoding = getattr(stream, "encoding", None) or "ascii"

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self._encoding

    def write(self, text: str) -> int:
        plain = ascii_cards(text).encode(self._encoding, "replace").decode(self._encoding)
        self.stream.write(plain)
        return len(text)

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return self.stream.isatty()

    def fileno(self) -> int:
        return self.stream.fileno()


_ascii = False


def use_ascii(on: bool = True) -> None:
    """Write cards as ``10D`` on every console made from now on (``--ascii``), for a
    terminal whose encoding claims the suit symbols but whose font has none."""
    global _ascii
    _ascii = on


def console(*, no_color: bool = False, stream: TextIO | None = None, ascii: bool = False,
            **options: Any) -> Any:
    """A Rich console for ``stream`` (stdout): cards as ``10D`` where it has no suits,
    or where ``ascii`` (or ``use_ascii``) asks for it."""
    from rich.console import Console

    stream = stream if stream is not None else sys.stdout
    plain = ascii or _ascii or not can_print(stream)
    # AsciiCards is a text stream in all Rich uses, though not a typing.TextIO by descent
    out = cast(TextIO, AsciiCards(stream)) if plain else stream
    if no_color:
        options.setdefault("no_color", True)
        options.setdefault("force_terminal", False)
    options.setdefault("highlight", False)
    return Console(file=out, **options)


def output_path(text: str | os.PathLike[str]) -> Path:
    """A file to write, checked before any work: ``~`` expanded, its folder there, and
    not itself a folder.  Raises ``ValueError`` with the reason, in one line."""
    path = Path(text).expanduser()
    if not str(text).strip():
        raise ValueError("the file name is empty")
    if path.is_dir():
        raise ValueError(f"{path} is a folder: give a file name in it")
    folder = path.parent
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"{folder} is a file, not a folder: cannot write {path}")
    if not folder.exists():
        # a path through a file (a.txt/b/c.json) is a file given as a folder
        for parent in folder.parents:
            if parent.exists():
                if not parent.is_dir():
                    raise ValueError(f"{parent} is a file, not a folder: cannot write {path}")
                break
        raise ValueError(f"there is no folder {folder} to write {path} in")
    if not os.access(folder, os.W_OK):
        raise ValueError(f"cannot write in the folder {folder}")
    if path.exists() and not os.access(path, os.W_OK):
        raise ValueError(f"cannot write over {path}")
    _probe(path)
    return path


def _probe(path: Path) -> None:
    """Open ``path`` for writing without changing it (a new file is made and removed):
    the only sure test, where a read-only disk or ``/proc`` pass every permission check
    (as they do for root)."""
    try:
        if path.exists():
            with path.open("a", encoding="utf-8"):
                pass
        else:
            with path.open("x", encoding="utf-8"):
                pass
            path.unlink()
    except OSError as error:
        raise ValueError(f"cannot write {path} ({error.strerror or error})") from None


def same_file(one: Path, other: Path) -> bool:
    """Whether two paths name one file (through ``..``, a link or a second name)."""
    try:
        if one.exists() and other.exists():
            return os.path.samefile(one, other)
        return one.resolve() == other.resolve()
    except OSError:
        return False


def ask_on_stderr(prompt: str) -> str:
    """Read an answer with its question on stderr: stdout keeps a command's figures."""
    print(prompt, end="", file=sys.stderr, flush=True)
    return input()


def may_replace(path: Path, flag: str, *, reads: Iterable[Path] = (), force: bool = False,
                read: Callable[[str], str] = ask_on_stderr,
                say: Callable[[str], object] | None = None) -> Path:
    """Refuse (``ValueError``, one line) to write ``path`` over a file the command reads
    (``reads``: ``analyse g.json --json g.json`` would replace the game with its
    analysis), and write over any other file only with ``force`` or the player's yes;
    the end of input is a no.  Called before the work, so nothing is computed and lost.

    >>> import tempfile, pathlib
    >>> game = pathlib.Path(tempfile.mkdtemp()) / "g.json"
    >>> _ = game.write_text("{}")
    >>> may_replace(game, "--json", reads=[game], force=True)
    Traceback (most recent call last):
    ...
    ValueError: --json .../g.json is the record this command reads: give another file
    >>> may_replace(game, "--json", read=lambda question: "n")
    Traceback (most recent call last):
    ...
    ValueError: left .../g.json as it was: give --json another file, or --force
    """
    from .prompt import ask_yes

    for source in reads:
        if same_file(path, Path(source).expanduser()):
            raise ValueError(f"{flag} {path} is the record this command reads: "
                             "give another file")
    if path.exists() and not force:
        def tell(text: str) -> None:
            print(text, file=sys.stderr)

        if not ask_yes(f"{path} already exists: write over it?", read=read,
                       say=say or tell):
            raise ValueError(f"left {path} as it was: give {flag} another file, or --force")
    return path


def needs(module: str, what: str, install: str) -> None:
    """Refuse, before any work, a use whose optional extra is not installed (ValueError,
    one line): ``needs("matplotlib", "--plot", "pip install matplotlib")``."""
    import importlib.util

    try:
        found = importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        found = False
    if not found:
        raise ValueError(f"{what} needs {module}, which is not installed ({install})")


def folder_path(text: str | os.PathLike[str]) -> Path:
    """A folder to write files into (made if missing): ``~`` expanded, not a file."""
    path = Path(text).expanduser()
    if path.exists() and not path.is_dir():
        raise ValueError(f"{path} is a file, not a folder")
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                raise ValueError(f"{parent} is a file, not a folder: cannot make {path}")
            if not os.access(parent, os.W_OK) and not path.exists():
                raise ValueError(f"cannot make the folder {path} in {parent}")
            break
    try:        # made and removed again, or a file made in it: the only sure test
        if path.is_dir():
            with (path / ".cardtable-probe").open("x", encoding="utf-8"):
                pass
            (path / ".cardtable-probe").unlink()
        elif path.parent.is_dir():
            path.mkdir()
            path.rmdir()
    except OSError as error:
        raise ValueError(f"cannot write in the folder {path} "
                         f"({error.strerror or error})") from None
    return path
