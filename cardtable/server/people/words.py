"""The word list names and chat pass: the shipped ``words.txt`` and the operator's own file
(``AccountSettings.word_list``), one word a line.

A text offends when one of its words is on the list (any case or width), or, for a name,
when its letters alone, run together, are (``F.u.c.k``, ``fu_ck``), or when a word of it
looks like a listed one (the same confusable skeleton, UTS #39: ``fսck`` with an
Armenian ``ս``): a name is looked at closely because it is shown everywhere; a chat
line only word by word.  Whole words only, so ``Scunthorpe`` and ``Dickens`` pass.  A
name that offends is refused (422 ``name_word``), and so is a chat line (``chat_word``):
the sender sees why, nobody else sees anything.

>>> offending("Brave Otter 42"), offending("F.U.C.K", name=True), offending("oh shit!")
(None, 'fuck', 'shit')
>>> offending("Scunthorpe United"), offending("f u c k"), offending("f\u057dck", name=True)
(None, None, 'fuck')
"""

from __future__ import annotations

import functools
import re
import unicodedata
from importlib import resources
from pathlib import Path

from ..core.confusables import name_key

__all__ = ["FILE", "check_file", "listed", "offending"]

FILE = "words.txt"

_WORD = re.compile(r"[^\W_](?:[\w\-\u200c]*[^\W_])?")
"""A run of letters and digits, with the hyphens and zero-width non-joiners inside it
that some words are written with (``foda-se``, Persian compounds)."""


def _key(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def _read(text: str) -> frozenset[str]:
    return frozenset(_key(line.strip()) for line in text.splitlines()
                     if line.strip() and not line.lstrip().startswith("#"))


@functools.cache
def _shipped() -> frozenset[str]:
    return _read(resources.files(__package__).joinpath(FILE).read_text(encoding="utf-8"))


@functools.cache
def _operators(path: str, stamp: float) -> frozenset[str]:
    """The operator's file as of its modification time ``stamp`` (an edit is read anew)."""
    return _read(Path(path).read_text(encoding="utf-8"))


def check_file(path: str) -> None:
    """The operator's file can be read (checked when the app is made): ``ValueError``
    naming the setting otherwise."""
    if path:
        try:
            Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise ValueError(f"--word-list (CARDTABLE_WORD_LIST) {path!r} cannot be read: "
                             f"{error}") from None


def listed(extra: str = "") -> frozenset[str]:
    """The words: the shipped ones and those of the operator's file ``extra``."""
    if not extra:
        return _shipped()
    try:
        stamp = Path(extra).stat().st_mtime
        return _shipped() | _operators(extra, stamp)
    except (OSError, UnicodeDecodeError):   # checked at the start; gone since: shipped
        return _shipped()


def offending(text: str, extra: str = "", *, name: bool = False) -> str | None:
    """The first listed word ``text`` holds, or ``None``."""
    words = listed(extra)
    key = _key(text)
    found: list[str] = _WORD.findall(key)
    for word in found:
        if word in words:
            return word
    if name:
        letters = "".join(char for char in key if char.isalnum())
        if letters in words:
            return letters
        alike = _skeletons(words)
        for reading in (*found, letters):
            listed_word = alike.get(name_key(reading))
            if listed_word is not None:
                return listed_word
    return None


@functools.cache
def _skeletons(words: frozenset[str]) -> dict[str, str]:
    """Each listed word by its confusable key: a name is read as it looks."""
    return {name_key(word): word for word in words}
