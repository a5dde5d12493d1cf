"""Which engine runs: the compiled cores where they were built, else the pure-Python one.

Each game's hot loop may have a compiled core (``cardtable/pasur/_core.c``,
``cardtable/durak/_core.c``), built by ``pip install`` where a C compiler is present.  The
pure-Python engine is the reference the compiled one is held to, and what runs where no
compiler was found or when the environment sets ``CARDTABLE_PURE=1``.

>>> engine() in ("compiled", "pure")
True
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

__all__ = ["describe", "engine", "load_core", "pure_requested"]


def pure_requested() -> bool:
    """``CARDTABLE_PURE`` set to anything but empty or ``0``: use the pure engine."""
    return os.environ.get("CARDTABLE_PURE", "").strip() not in ("", "0")


def load_core(module: str) -> ModuleType | None:
    """A game's compiled core, or ``None`` (not built here, or the pure engine asked for).

    A core counts only once it says it is complete (``READY``), so that a partly built
    tree never mixes the engines silently.
    """
    if pure_requested():
        return None
    try:
        core = importlib.import_module(module)
    except ImportError:
        return None
    return core if getattr(core, "READY", False) else None


_CORES = ("cardtable.pasur._core", "cardtable.durak._core")


def engine() -> str:
    """``"compiled"`` when every game runs on its compiled core, else ``"pure"``."""
    return "compiled" if all(load_core(name) is not None for name in _CORES) else "pure"


def describe() -> str:
    """One line saying which engine runs and, for the pure one, why (``make`` prints it)."""
    which = engine()
    if which == "compiled":
        return "cardtable: the compiled engine"
    if pure_requested():
        return "cardtable: the pure-Python engine (CARDTABLE_PURE is set)"
    built = [name for name in _CORES if _built(name)]
    if not built:
        why = "no compiled core was built here (no C compiler?): bots and analysis are slower"
    else:
        ready = [name.split(".")[1] for name in _CORES if load_core(name) is not None]
        why = (f"compiled core{'s' if len(ready) > 1 else ''} for {', '.join(ready)} only"
               if ready else "the compiled cores are built but not complete yet")
    return f"cardtable: the pure-Python engine ({why})"


def _built(module: str) -> bool:
    """Whether a core's module was built here at all (complete or not)."""
    try:
        importlib.import_module(module)
    except ImportError:
        return False
    return True
