"""The arena's statistics: a rate's Wilson interval and a mean's normal interval.

>>> wilson(8, 10)
(0.490162..., 0.943317...)
>>> mean_ci([1.0, 2.0, 3.0, 4.0])[0]
2.5
"""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["Z95", "mean_ci", "wilson"]

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a success rate (95% by default).

    Unlike the plain normal interval it stays inside [0, 1] and is sound for small
    samples and rates near 0 or 1.
    """
    if trials <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must be between 0 and {trials}, not {successes}")
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_ci(values: Sequence[float], z: float = Z95) -> tuple[float, tuple[float, float]]:
    """The mean and its normal 95% interval (values are independent units, e.g. deals)."""
    n = len(values)
    if n == 0:
        return (math.nan, (math.nan, math.nan))
    mean = sum(values) / n
    if n == 1:
        return (mean, (math.nan, math.nan))
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return (mean, (mean - half, mean + half))
