"""The arena's statistics: a rate's Wilson interval and a mean's normal interval.

>>> wilson(8, 10)
(0.490162..., 0.943317...)
>>> mean_ci([1.0, 2.0, 3.0, 4.0])[0]
2.5

An interval must never claim more than the data can say: a mean of values known to lie
in a range stays in that range and has a width even from two equal units, and a mean of
unbounded values from few units uses Student's t, not the normal quantile.

>>> bounded_mean_ci([0.0, 0.0], -1.0, 1.0)       # two deals, both even: not [0, 0]
(0.0, (-0.81..., 0.81...))
>>> bounded_mean_ci([1.0, 1.0, 1.0], -1.0, 1.0)[1][1]
1.0
>>> t_mean_ci([3.0, 3.0])                         # no spread seen: no interval
(3.0, None)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["Z95", "bounded_mean_ci", "mean_ci", "t95", "t_mean_ci", "wilson"]

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
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


_T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
        2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
        2.060, 2.056, 2.052, 2.048, 2.045, 2.042)
"""Student's t quantile of a two-sided 95% interval, 1 to 30 degrees of freedom."""


def t95(df: int) -> float:
    """Student's t quantile for a two-sided 95% interval (a series past 30 degrees)."""
    if df < 1:
        raise ValueError("a t interval needs at least two units")
    if df <= len(_T95):
        return _T95[df - 1]
    z = Z95
    return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df * df)


def t_mean_ci(values: Sequence[float]) -> tuple[float, tuple[float, float] | None]:
    """The mean and its Student-t 95% interval over independent units (deals).

    ``None`` for the interval where it would say nothing true: fewer than two units, or
    units that all came out the same (a spread of zero from a few deals is luck, not a
    width of zero).
    """
    n = len(values)
    if n == 0:
        return (math.nan, None)
    mean = sum(values) / n
    if n == 1:
        return (mean, None)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    if var <= 0.0:
        return (mean, None)
    half = t95(n - 1) * math.sqrt(var / n)
    return (mean, (mean - half, mean + half))


def bounded_mean_ci(values: Sequence[float], low: float, high: float,
                    z: float = Z95) -> tuple[float, tuple[float, float]]:
    """The mean of values that lie in [low, high] (a rate, a difference of two rates)
    and a 95% interval inside that range.

    The values are scaled to [0, 1] and given the Wilson interval of a rate with as many
    trials as units: a value in [0, 1] with mean p varies at most as much as a yes/no
    with rate p, so the interval is never narrower than the data allow, never leaves the
    range and has a width even when every unit came out the same.
    """
    if not low < high:
        raise ValueError(f"the range [{low}, {high}] is empty")
    n = len(values)
    if n == 0:
        return (math.nan, (low, high))
    span = high - low
    scaled = [(v - low) / span for v in values]
    if not all(-1e-9 <= v <= 1 + 1e-9 for v in scaled):
        raise ValueError(f"values must lie in [{low}, {high}]")
    share = min(max(sum(scaled), 0.0), float(n))
    lo, hi = wilson(share, n, z)
    mean = sum(values) / n
    return (mean, (max(low, low + lo * span), min(high, low + hi * span)))
