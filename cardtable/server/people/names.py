"""The one rule for a name shown to others: a seat's, a guest's, an account's.

A name is put beside cards, in the lobby and in chat, for everyone at a table, so it must
read as what it is: text that shows, that cannot reorder the page around it and that
stays on its line.  ``shown_name`` is the rule; it answers the name as kept, or raises
``NameRefused`` with a stable code from ``cardtable.server.core.codes``:

- ``invalid_name``: not text, empty (or only spaces), or over ``MAX_NAME`` characters
  (as sent, and once normalised);
- ``name_control``: a control character (NUL, BEL, a newline, a line separator) or a
  format character (a bidi override or isolate, a zero-width space, a soft hyphen),
  ``char`` naming it as ``U+XXXX``.  The zero-width joiner and non-joiner stay where they
  join two characters (Persian words and emoji sequences need them; not between two
  Latin, Greek or Cyrillic letters, where they show nothing), and tag characters after a
  black flag (the flags of Scotland or Wales);
- ``name_invisible``: nothing in it shows: no letter, digit, symbol or punctuation but
  the blank ones (the Hangul fillers, the blank Braille pattern);
- ``name_marks``: more than ``MAX_MARKS`` combining marks on one character;
- ``name_mixed_scripts``: a word mixing letters of scripts that are not written together
  (``Dаrya`` with a Cyrillic ``а``, ``Αdmin`` with a Greek ``Α``): UTS #39's "highly
  restrictive" level, word by word, so ``Игорь Igor`` stays, and Latin with Han, kana or
  Hangul does too.

``reserved`` compares by confusable skeleton as well (``core.confusables.name_key``), so
``M0derator`` and ``Admın`` (a dotless i) pass for the site as ``Moderator`` does.

The name is NFC-normalised, its ends stripped and its runs of spaces made one space.
``username_key`` gives what a name must not equal to pose as an account: the name
NFKC-normalised and case-folded, so ``ＤＡＲＹＡ`` poses as ``darya``.

>>> shown_name("  Zoe\\u0308  Kh ")
'Zoë Kh'
>>> shown_name("می\\u200cخواهم")
'می\\u200cخواهم'
>>> [shown_name_or_code(bad) for bad in ("Darya\\u202e", "\\u3164", "e" + "\\u0301" * 5)]
['name_control', 'name_invisible', 'name_marks']
>>> [shown_name_or_code(bad) for bad in ("D\\u0430rya", "\\u0391dmin")]
['name_mixed_scripts', 'name_mixed_scripts']
>>> username_key("ＤＡＲＹＡ")
'darya'
"""

from __future__ import annotations

import unicodedata

from ..core.confusables import name_key, script
from ..core.errors import Refused

__all__ = ["MAX_MARKS", "MAX_NAME", "RESERVED", "NameRefused", "mixed_word", "reserved",
           "shown_name", "shown_name_or_code", "username_key"]

MAX_NAME = 24
"""The longest name, in characters once normalised (names sit beside cards)."""

MAX_MARKS = 3
"""The most combining marks on one character.  Two cover Vietnamese and Devanagari;
pointed Hebrew puts three on a letter (a dagesh, the shin dot and a vowel), which NFC
does not compose; a pile of twenty is there only to spill over the lines around it."""

JOINERS = frozenset({"\u200c", "\u200d"})
"""Zero-width non-joiner and joiner: part of how Persian is written, and of emoji
sequences; kept between two characters, refused anywhere else."""

BLACK_FLAG = "\U0001f3f4"
TAGS = range(0xE0020, 0xE0080)
"""Tag characters: they spell a region after a black flag (England, Scotland, Wales)."""

BLANKS = frozenset({
    "\u115f", "\u1160", "\u3164", "\uffa0",   # the Hangul fillers (letters that show nothing)
    "\u2800",                                  # the blank Braille pattern
    "\U0001d159",                              # the musical null notehead
})
"""Characters of the visible categories that draw nothing."""

REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Control, format, surrogate, private-use and unassigned characters, and the line and
paragraph separators: none of them is a name's."""

VISIBLE = frozenset("LNSP")
"""The first letters of the categories that show: letters, numbers, symbols, punctuation."""


class NameRefused(Refused):
    """A name that may not be shown (422): ``code`` from ``cardtable.server.core.codes``,
    with its ``params``; the message is the reason in English."""

    def __init__(self, reason: str, code: str, **params: object) -> None:
        super().__init__(reason, 422, code, params=params)


def shown_name(text: object) -> str:
    """The name as it is kept and shown, or ``NameRefused`` (see the module)."""
    if not isinstance(text, str):
        raise NameRefused("a name is text", "invalid_name")
    if len(text) > MAX_NAME:   # as sent, as the API's schema says (maxLength)
        raise NameRefused(f"a name is at most {MAX_NAME} characters", "invalid_name")
    name = unicodedata.normalize("NFC", text)
    for index, char in enumerate(name):
        if unicodedata.category(char) in REFUSED_CATEGORIES and not _allowed_format(
                name, index):
            raise NameRefused("a name may not hold the control or format character "
                              f"U+{ord(char):04X}", "name_control", char=f"U+{ord(char):04X}")
    name = " ".join(name.split())
    if not name:
        raise NameRefused("a name needs at least one letter", "invalid_name")
    for index, char in enumerate(name):   # a joiner beside a space is beside nothing
        if char in JOINERS and not _joins(name, index):
            raise NameRefused("a name may not hold the control or format character "
                              f"U+{ord(char):04X}", "name_control", char=f"U+{ord(char):04X}")
    if not any(unicodedata.category(char)[0] in VISIBLE and char not in BLANKS
               for char in name):
        raise NameRefused("a name needs at least one character that shows (a letter, a "
                          "digit, a sign)", "name_invisible")
    run = 0
    for char in name:
        run = run + 1 if unicodedata.category(char) in ("Mn", "Me") else 0
        if run > MAX_MARKS:
            raise NameRefused(f"a name may put at most {MAX_MARKS} combining marks on one "
                              "character", "name_marks", limit=MAX_MARKS)
    if len(name) > MAX_NAME:
        raise NameRefused(f"a name is at most {MAX_NAME} characters", "invalid_name")
    mixed = mixed_word(name)
    if mixed is not None:
        raise NameRefused(f"the word {mixed!r} mixes letters of different alphabets that "
                          "look alike (a Cyrillic or Greek letter among Latin ones): write "
                          "each word in one alphabet", "name_mixed_scripts", word=mixed)
    return name


TOGETHER = (frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
            frozenset({"LATIN", "HAN", "BOPOMOFO"}), frozenset({"LATIN", "HAN", "HANGUL"}))
"""Scripts written together in one word (UTS #39's highly restrictive level)."""


def mixed_word(name: str) -> str | None:
    """The first word of ``name`` whose letters come from scripts not written together."""
    for word in name.split():
        scripts = {script(char) for char in word} - {"COMMON", "INHERITED", "UNKNOWN"}
        if len(scripts) > 1 and not any(scripts <= allowed for allowed in TOGETHER):
            return word
    return None


def shown_name_or_code(text: object) -> str:
    """The name kept, or the code of its refusal (for doctests and quick checks)."""
    try:
        return shown_name(text)
    except NameRefused as refused:
        return refused.code


def username_key(name: str) -> str:
    """What a name is compared with usernames by (they are kept in lower case)."""
    return unicodedata.normalize("NFKC", name).casefold()


def _allowed_format(name: str, index: int) -> bool:
    """The format characters a name may keep: joiners (placed later) and a flag's tags."""
    char = name[index]
    if char in JOINERS:
        return True
    if ord(char) in TAGS:
        before = name[:index].rstrip("".join(map(chr, TAGS)))
        return before.endswith(BLACK_FLAG)
    return False


def _joins(name: str, index: int) -> bool:
    """A joiner with a character on each side that is neither a space nor a joiner, nor
    both of a script that never joins (Latin, Greek, Cyrillic, ASCII digits: a joiner
    there changes nothing shown, and makes ``dar\u200dya`` pass for ``darya``)."""
    if index == 0 or index == len(name) - 1:
        return False
    sides = (name[index - 1], name[index + 1])
    return (all(not side.isspace() and side not in JOINERS for side in sides)
            and not all(_never_joins(side) for side in sides))


def _never_joins(char: str) -> bool:
    return char.isascii() or unicodedata.name(char, "").startswith(
        ("LATIN ", "GREEK ", "CYRILLIC "))


RESERVED = frozenset({"admin", "administrator", "moderator", "mod", "mods", "system",
                      "cardtable", "support", "staff", "root", "official", "server",
                      "deletedplayer", "anonymous", "bot", "nobody"})
"""Names that would pass for the site's own voice or for a deleted account: refused as a
name, a username or the start of one (``reserved``)."""

RESERVED_STARTS = ("admin", "moderator", "deletedplayer", "cardtable", "system")


def reserved(name: str) -> str | None:
    """The reserved word ``name`` poses as, if any: compared without case, width, spaces
    or punctuation, so ``Mod_erator``, ``ＡＤＭＩＮ`` and ``Deleted player 3f9a`` are
    caught.

    >>> reserved("Mod-erator"), reserved("Deleted player 3f9a"), reserved("Darya")
    ('moderator', 'deletedplayer', None)
    """
    key = "".join(char for char in username_key(name) if char.isalnum())
    if key in RESERVED:
        return key
    found = next((word for word in RESERVED_STARTS if key.startswith(word)), None)
    if found is None:   # as it looks: M0derator, Admın
        alike = name_key(key)
        found = next((word for word in RESERVED if name_key(word) == alike), None) or next(
            (word for word in RESERVED_STARTS if alike.startswith(name_key(word))), None)
    return found
