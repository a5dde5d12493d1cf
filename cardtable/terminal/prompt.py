"""Reading answers at the terminal: yes/no questions that mean yes or no, and line
editing with a history where the standard library's ``readline`` is there.

A question asks again until it is answered; the end of input (Ctrl-D) is "no", so
that closing the input never says yes to overwriting or leaving anything:

>>> answers = iter(["maybe", "Y"])
>>> ask_yes("Overwrite it?", read=lambda prompt: next(answers), say=print)
Please answer y (yes) or n (no).
True
>>> def closed(prompt):
...     raise EOFError
>>> ask_yes("Overwrite it?", read=closed)
False
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable

__all__ = ["NO", "YES", "ask_yes", "line_editing", "yes_or_no"]

YES = frozenset({"y", "yes"})
NO = frozenset({"n", "no"})


def yes_or_no(answer: str) -> bool | None:
    """True for y/yes, False for n/no (any case, spaces around), None for anything else.

    >>> yes_or_no(" Yes "), yes_or_no("n"), yes_or_no("game.json")
    (True, False, None)
    """
    word = answer.strip().lower()
    return True if word in YES else False if word in NO else None


def ask_yes(question: str, *, read: Callable[[str], str] = input,
            say: Callable[[str], object] = print, tries: int = 5) -> bool:
    """Ask ``question`` until the answer is y or n; the end of input or Ctrl-C is no,
    and so is ``tries`` answers in a row that are neither (input that is not a person)."""
    for _ in range(tries):
        try:
            answer = read(f"{question} (y/n) ")
        except (EOFError, KeyboardInterrupt):
            return False
        verdict = yes_or_no(answer)
        if verdict is not None:
            return verdict
        say("Please answer y (yes) or n (no).")
    return False


_editing: bool | None = None


def line_editing() -> bool:
    """Turn on line editing and a history of answers for ``input()`` (arrow keys,
    Ctrl-R), once, where the standard library has ``readline`` and the input is a
    terminal; says whether it is on."""
    global _editing
    if _editing is None:
        _editing = False
        if sys.stdin is not None and sys.stdin.isatty():
            try:
                importlib.import_module("readline")   # importing it is what turns it on
            except ImportError:                        # e.g. Windows without pyreadline
                pass
            else:
                _editing = True
    return _editing
