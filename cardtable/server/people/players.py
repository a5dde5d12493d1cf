"""What a player's name, username and password may be (the rows are ``store.players``).
"""

from __future__ import annotations

import re

from ..core.errors import Refused
from .names import NameRefused, reserved, shown_name
from .passwords import guessable, is_common

__all__ = ["check_display_name", "check_password", "check_username", "holds_username"]

USERNAME = re.compile(r"[A-Za-z0-9_]{3,20}")
MIN_PASSWORD = 8
MAX_PASSWORD = 256
"""A longer password is refused before hashing: a megabyte of password is only work."""



def check_display_name(text: object) -> str:
    """A display name as it is kept (the one rule of ``names.shown_name``), or
    ``Refused`` (422) with the rule's code.

    >>> check_display_name("  Darya  Kh ")
    'Darya Kh'
    >>> try:
    ...     check_display_name("Darya\\u202e")
    ... except Refused as refused:
    ...     print(refused.status, refused.code, refused.params)
    422 name_control {'char': 'U+202E'}
    """
    try:
        name = shown_name(text)
    except NameRefused as refused:
        raise Refused(refused.reason, 422, refused.code, params=refused.params) from None
    _not_reserved(name)
    return name


def _not_reserved(name: str) -> None:
    word = reserved(name)
    if word is not None:
        raise Refused(f"{name!r} would pass for the site's own voice ({word!r}): choose "
                      "another name", 422, "name_reserved", params={"word": word})


def check_username(text: object) -> str:
    """A username: 3 to 20 letters, digits or ``_`` (unique without regard to case)."""
    if not isinstance(text, str) or not USERNAME.fullmatch(text):
        raise Refused("a username is 3 to 20 letters (a-z), digits or _", 422,
                      "invalid_username")
    _not_reserved(text)
    return text


_MARKS = re.compile(r"[\W_]+")


def holds_username(password: str, username: str) -> bool:
    """Whether ``password`` holds ``username`` (3 characters or more) forwards or
    backwards, in any case and read without marks or spaces, or is itself part of it.

    >>> [holds_username(p, "vasher") for p in ("Vasher2024", "velvet rehsav", "v-a-s-h-e-r!",
    ...                                          "vash", "tulip velvet")]
    [True, True, True, True, False]
    """
    name = _MARKS.sub("", username.casefold())
    if len(name) < 3:
        return False
    text = password.casefold()
    bare = _MARKS.sub("", text)
    return any(form in reading for form in (name, name[::-1]) for reading in (text, bare)) or (
        bool(bare) and bare in name)


def check_password(text: object, username: str | None = None) -> str:
    """A password an account may have: long enough, not too long, not a common one, and
    not holding the account's own username (the first thing an attacker tries)."""
    if not isinstance(text, str) or len(text) < MIN_PASSWORD:
        raise Refused(f"a password is at least {MIN_PASSWORD} characters", 422,
                      "weak_password")
    if len(text) > MAX_PASSWORD:
        raise Refused(f"a password is at most {MAX_PASSWORD} characters", 422,
                      "invalid_password")
    if is_common(text):
        raise Refused("this password is one of the most common ones, the first an "
                      "attacker tries: choose another (a few words of your own make a "
                      "good one)", 422, "password_common")
    if username and holds_username(text, username):
        raise Refused("a password may not hold the account's username, the first thing an "
                      "attacker tries: choose another", 422, "password_common")
    if guessable(text, username or ""):
        raise Refused("this password would be guessed soon: it is on the lists of "
                      "passwords from real breaches, or a short pattern of keys or a word "
                      "with digits; choose another (a few words of your own make a good "
                      "one)", 422, "password_common")
    return text


