"""Tensors in one call: the compiled writer where it was built, numpy where not.

An episode that can say its tensor as card masks and values at offsets
(``Episode.pieces``) is encoded by ``encode``: the buffer is zeroed and every piece
written in one C call (``cardtable/adapters/_tensor.c``), instead of a Python step per
card; ``as_list`` gives the same tensor as the list of floats pyspiel returns, its zeros
and ones shared objects rather than a new float each.  ``outcomes`` lists a chance
node's cards the same way.  Without the compiled module (no C compiler, or
``CARDTABLE_PURE=1``) all of them run in Python and give the same results.

>>> import numpy as np
>>> out = np.ones(8, np.float32)
>>> encode(out, (0, 0b101), (7, 2.0))
>>> out.tolist()
[1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 2.0]
>>> as_list(4, (1, 0b11), (0, 0.5))
[0.5, 1.0, 1.0, 0.0]
>>> outcomes(0b1010)
[(1, 0.5), (3, 0.5)]
>>> nth_card(0b101100, 1), nth_card(0b101100, 3)
(3, -1)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .._engine import load_core

__all__ = ["COMPILED", "as_list", "encode", "nth_card", "outcomes"]

_core: Any = load_core("cardtable.adapters._tensor")
COMPILED = _core is not None
"""Whether the compiled writer runs here."""


def _encode(out: np.ndarray, masks: tuple[int, ...], values: tuple[Any, ...]) -> None:
    out.fill(0.0)
    size = out.shape[0]
    if len(masks) % 2 or len(values) % 2:
        raise ValueError("masks and values are flat (offset, item) pairs")
    for k in range(0, len(masks), 2):
        at, mask = masks[k], masks[k + 1]
        if mask and (at < 0 or at + mask.bit_length() > size):
            raise ValueError("a piece falls outside the tensor")
        while mask:
            low = mask & -mask
            out[at + low.bit_length() - 1] = 1.0
            mask ^= low
    for k in range(0, len(values), 2):
        at = values[k]
        if not 0 <= at < size:
            raise ValueError("a piece falls outside the tensor")
        out[at] = values[k + 1]


def _outcomes(mask: int) -> list[tuple[int, float]]:
    n = mask.bit_count()
    out = []
    while mask:
        low = mask & -mask
        out.append((low.bit_length() - 1, 1.0 / n))
        mask ^= low
    return out


def _nth_card(mask: int, n: int) -> int:
    while n:
        mask &= mask - 1
        n -= 1
    return (mask & -mask).bit_length() - 1


nth_card: Callable[[int, int], int] = getattr(_core, "nth_card", _nth_card)
"""``nth_card(mask, n)``: the index of the ``n``-th card (from 0, lowest first) of a card
mask, -1 past its last (a chance node's card drawn by number, in one C call where built)."""


def encode(out: np.ndarray, masks: tuple[int, ...], values: tuple[Any, ...]) -> None:
    """Zero the float32 vector ``out``, then set ``out[offset + i] = 1`` for every card
    ``i`` of each ``(offset, mask)`` pair of ``masks`` and ``out[offset] = value`` for each
    ``(offset, value)`` pair of ``values`` (both flat tuples)."""
    if out.dtype != np.float32 or out.ndim != 1 or not out.flags.c_contiguous:
        raise ValueError("the tensor must be a contiguous float32 vector")
    if _core is not None:
        _core.encode(out, masks, values)
    else:
        _encode(out, masks, values)


def as_list(size: int, masks: tuple[int, ...], values: tuple[Any, ...]) -> list[float]:
    """The tensor ``encode`` writes into a vector of ``size``, as a list of Python floats
    (each value a float32's, as pyspiel's tensors are)."""
    if _core is not None:
        out: list[float] = _core.as_list(size, masks, values)
        return out
    tensor = np.zeros(size, np.float32)
    _encode(tensor, masks, values)
    return tensor.tolist()


def outcomes(mask: int) -> list[tuple[int, float]]:
    """``[(card index, probability), ...]``: the cards of ``mask``, lowest first, equally
    likely (a chance node dealing one of them)."""
    return _core.outcomes(mask) if _core is not None else _outcomes(mask)
