"""Which texts look alike: Unicode's confusable skeletons (UTS #39, section 4) and the
scripts a character belongs to.

Two strings are confusable when their skeletons are equal: the skeleton of a text is the
text in NFD with each character replaced by its prototype (Cyrillic ``а`` by Latin ``a``,
Greek ``ο`` by ``o``, ``m`` by ``rn``), put in NFD again.  The mapping is Unicode's
``confusables.txt``, as shipped (with the ``Scripts.txt`` data) by the maintained
``confusable-homoglyphs`` package (MIT).  That package keeps each confusable pair both
ways round; the prototype of a pair is the character all the others of its group map to
(every group of the file is a star around its prototype, since a prototype is never
mapped), and in a group of two the one in ASCII, else the lower code point.  The choice in
a group of two changes no answer: confusable means equal skeletons either way.

``name_key`` is what names are compared by: the skeleton of the name folded for case, and
the skeleton of that, until it stays (``l`` and ``I`` are one prototype, so ``Bill`` and
``BiII`` have one key), without the characters that draw nothing (joiners, variation
selectors).

>>> skeleton("\\u0430dmin") == skeleton("admin"), skeleton("\\u0391dmin") == skeleton("Admin")
(True, True)
>>> name_key("D\\u0430ry\\u0430") == name_key("darya"), name_key("Bill") == name_key("BiII")
(True, True)
>>> script("\\u0430"), script("a"), script("1")
('CYRILLIC', 'LATIN', 'COMMON')
"""

from __future__ import annotations

import bisect
import functools
import json
import unicodedata
from importlib import resources
from typing import TypedDict

__all__ = ["name_key", "prototypes", "script", "skeleton"]

_MARKS = "\u200e\u200f"
"""Direction marks the package wraps right-to-left characters in (for showing them)."""


class _Glyph(TypedDict):
    """One character a key is confusable with (``confusables.json``), and its name."""

    c: str
    n: str


class _Scripts(TypedDict):
    """The package's ``categories.json``: the scripts' names, and each range of code
    points as (first, last, script's index, category's index)."""

    iso_15924_aliases: list[str]
    code_points_ranges: list[tuple[int, int, int, int]]


def _text(name: str) -> str:
    return resources.files("confusable_homoglyphs").joinpath(name).read_text(encoding="utf-8")


def _glyphs() -> dict[str, list[_Glyph]]:
    glyphs: dict[str, list[_Glyph]] = json.loads(_text("confusables.json"))
    return glyphs


def _scripts() -> _Scripts:
    scripts: _Scripts = json.loads(_text("categories.json"))
    return scripts


@functools.cache
def prototypes() -> dict[str, str]:
    """Each confusable character and the prototype it maps to (one or more characters)."""
    pairs: dict[str, set[str]] = {}
    mapping: dict[str, str] = {}
    for key, entries in _glyphs().items():
        key = key.strip(_MARKS)
        for entry in entries:
            other = entry["c"].strip(_MARKS)
            if not key or not other or key == other:
                continue
            if len(key) > 1 and len(other) == 1:
                mapping[other] = key            # one character looks like several
            elif len(key) == 1 and len(other) == 1:
                pairs.setdefault(key, set()).add(other)
    for char, others in pairs.items():
        if char in mapping:
            continue
        if len(others) > 1:                     # the centre of its star: the prototype
            continue
        [other] = others
        if len(pairs.get(other, ())) > 1:       # one of the star's points
            mapping[char] = other
        elif other not in mapping:              # a group of two
            keep = min((char, other), key=lambda c: (not c.isascii(), ord(c)))
            if char != keep:
                mapping[char] = keep
    return mapping


def skeleton(text: str) -> str:
    """UTS #39's skeleton of ``text``: NFD, each character to its prototype, NFD."""
    table = prototypes()
    mapped = "".join(table.get(char, char) for char in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def name_key(text: str) -> str:
    """What a name is compared by (see the module): skeleton and case fold, again until
    nothing changes (Greek ``Μ`` is ``M``, which folds to ``m``, whose prototype is
    ``rn``)."""
    key = "".join(char for char in unicodedata.normalize("NFKC", text)
                  if not _draws_nothing(char))
    for _ in range(4):
        folded = skeleton(key).casefold()
        if folded == key:
            break
        key = folded
    return unicodedata.normalize("NFC", key)


@functools.cache
def _ranges() -> tuple[list[int], list[tuple[int, int, str]]]:
    data = _scripts()
    aliases = data["iso_15924_aliases"]
    rows = sorted((low, high, aliases[alias]) for low, high, alias, _ in
                  data["code_points_ranges"])
    return [row[0] for row in rows], rows


def script(char: str) -> str:
    """The Unicode script of a character (``LATIN``, ``CYRILLIC``, ``COMMON`` for digits
    and signs, ``INHERITED`` for combining marks), ``UNKNOWN`` where none is listed."""
    starts, rows = _ranges()
    index = bisect.bisect_right(starts, ord(char)) - 1
    if index >= 0 and rows[index][0] <= ord(char) <= rows[index][1]:
        return rows[index][2]
    return "UNKNOWN"


def _draws_nothing(char: str) -> bool:
    """Format characters and variation selectors: they change how a neighbour is drawn,
    never add a shape of their own."""
    return unicodedata.category(char) == "Cf" or "\ufe00" <= char <= "\ufe0f"
