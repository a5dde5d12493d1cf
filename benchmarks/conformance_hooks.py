"""What the API schema's own formats mean, for schemathesis (``SCHEMATHESIS_HOOKS``, set by
``benchmarks/conformance.py``).

The schema states every rule a pattern or a length can say; the rest of a name's,
username's or new password's rule (one alphabet a word, no reserved or listed word, not
confusable with a name already taken, not a breached password) is named by the field's
``format`` and described beside it.  A validator treats an unknown format as a note; a
generator needs to be told what one looks like, which is what this module does.  Each is
drawn from a hash of a drawn number, so that even the simplest draw hypothesis shrinks
to is not a run of one letter (a password of one repeated key is rightly refused) and two
draws almost never collide (a name is not refused only for looking like one a previous
case took).
"""

from __future__ import annotations

import hashlib

import schemathesis
from hypothesis import strategies as st

_LATIN = "abcdefghijklmnopqrstuvwxyz"
_PERSIAN = "ابپتثجچحخدذرزژسشصضطظعغفقکگلمنوهی"


def _letters(number: int, alphabet: str, length: int, salt: str) -> str:
    digest = hashlib.sha256(f"{salt}{number}".encode()).digest()
    return "".join(alphabet[byte % len(alphabet)] for byte in digest[:length])


_NUMBER = st.integers(min_value=0, max_value=2**48)

# two Latin words, or one Persian (a script of the site's own languages): one alphabet a word
schemathesis.openapi.format("cardtable-name", st.one_of(
    _NUMBER.map(lambda n: (_letters(n, _LATIN, 7, "a").title() + " "
                           + _letters(n, _LATIN, 6, "b").title())),
    _NUMBER.map(lambda n: _letters(n, _PERSIAN, 9, "c"))))
schemathesis.openapi.format("cardtable-username",
                            _NUMBER.map(lambda n: "u" + _letters(n, _LATIN, 11, "d")))
schemathesis.openapi.format("password", _NUMBER.map(
    lambda n: hashlib.sha256(f"p{n}".encode()).hexdigest()[:24] + "-Kq!"))


@schemathesis.hook
def filter_case(context: object, case: schemathesis.Case) -> bool:
    """The coverage phase's boundary values do not draw from a format: a new password of
    the longest length is 256 zeros there, which the ``password`` format excludes (a run
    of one key, as its description says) and the server rightly refuses.  Such a body is
    left out; every other is sent."""
    body = case.body
    if not isinstance(body, dict):
        return True
    for key in ("password", "new_password"):
        value = body.get(key)
        if isinstance(value, str) and len(value) >= 8 and len(set(value)) == 1:
            return False
    return True
