"""What pytest collects where a compiled core was not built (no C compiler): the modules
that exist only to wrap a core are left out of the doctests, as their tests skip."""

from __future__ import annotations

import importlib.util

collect_ignore = [
    f"cardtable/{game}/compiled.py" for game in ("durak", "pasur")
    if importlib.util.find_spec(f"cardtable.{game}._core") is None]
