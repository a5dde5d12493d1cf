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

Beyond that list, ``guessable`` asks zxcvbn (Dropbox's estimator, a maintained package)
how many guesses a password would take, against its lists of passwords from real
breaches, words, names and keyboard patterns, and the account's own username: under
``GUESSES`` it is refused too (``Abcd@1234``, ``12qwaszx``, ``azertyui``, ``ghbdtnbr``,
which this project's own list lacked).

>>> [guessable(p) for p in ("Abcd@1234", "ghbdtnbr", "correct horse battery")]
[True, True, False]
"""

from __future__ import annotations

import functools
import logging
import re
from importlib import resources

__all__ = ["ENDING", "FILE", "GUESSES", "common", "guessable", "is_common"]

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


GUESSES = 1e8
"""Guesses below which a password is refused: ten a second from each of a thousand
addresses for over a day, past every throttle (zxcvbn's score 3)."""

ESTIMATED = 64
"""Characters of a password zxcvbn looks at (its work grows with the length; a password
longer than this is not guessed from a list anyway)."""


def guessable(password: str, *context: str) -> bool:
    """Whether zxcvbn guesses ``password`` (with ``context``: the username, say) in
    fewer than ``GUESSES`` tries."""
    try:
        from zxcvbn import zxcvbn
    except ImportError:   # an install from before it was a dependency: said once
        _without_estimator()
        return False
    found = zxcvbn(password[:ESTIMATED], user_inputs=[c for c in context if c])
    return bool(found["guesses"] < GUESSES)


@functools.cache
def _without_estimator() -> None:
    logging.getLogger("cardtable.server").warning(
        "zxcvbn is not installed (pip install 'cardtable[server]' again): passwords are "
        "checked against the project's own list only")

