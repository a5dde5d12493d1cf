"""Passwords too common to take.

Guessing a password online goes down a list of the passwords people choose most, so an
account whose password is near the top of such a list falls to a few guesses from each of
a few addresses, whatever the throttle.  Registration refuses them (422
``password_common``), without regard to case.

The list, ``common-passwords.txt`` beside this module (package data), was written for
cardtable from general knowledge of what people choose: digit runs and repeats, letter
repeats, keyboard rows and walks, and about a thousand words, names, teams, brands and the
site's own games.  A password is common when it is on the list, or when it is a word of the
list with at most ``ENDING`` digits, marks or spaces before and after it (``Password1``,
``dragon2000``, ``123qwerty!``), read also with the usual letter-for-digit swaps
(``p@ssw0rd``).

>>> [is_common(p) for p in ("12345678", "Password1", "P@ssw0rd2024", "correct horse battery")]
[True, True, True, False]
"""

from __future__ import annotations

import functools
import re
from importlib import resources

__all__ = ["ENDING", "FILE", "common", "is_common"]

FILE = "common-passwords.txt"
ENDING = 6
"""The most digits and marks on either side of a listed word that still make it common."""

_AROUND = re.compile(rf"[\W\d_]{{0,{ENDING}}}(.*?)[\W\d_]{{0,{ENDING}}}", re.DOTALL)
_SWAPS = (str.maketrans("0134578@$!|", "oieastbasil"), str.maketrans("0134578@$!|", "oleastbasil"))
"""Digits and marks read as the letters they stand for (``1`` as ``i`` and as ``l``)."""


@functools.cache
def common() -> frozenset[str]:
    """The shipped list, read once."""
    text = resources.files(__package__).joinpath(FILE).read_text(encoding="utf-8")
    return frozenset(line.strip() for line in text.splitlines()
                     if line.strip() and not line.startswith("#"))


def is_common(password: str) -> bool:
    """Whether a password is on the list, or a listed word with a short ending (any case,
    digits and marks read also as letters: before and after the ending is taken off)."""
    listed = common()
    text = password.casefold()
    word = _word(text)
    readings = {text, word, *(item.translate(swap) for swap in _SWAPS for item in (text, word))}
    readings |= {_word(item) for item in list(readings)}
    return not readings.isdisjoint(listed)


def _word(text: str) -> str:
    """The text without up to ``ENDING`` digits, marks and spaces at either end."""
    match = _AROUND.fullmatch(text)
    return match.group(1) if match else text
