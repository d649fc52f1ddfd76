"""Intervals for bot runs: the Wilson interval of a win rate, the normal interval of a mean.

Kept apart from :mod:`solvers.simulate` (which can reach every game's solvers through the OpenSpiel
arena) so that a game's own solver code can use them and stay independent of the other games.
"""

from __future__ import annotations

import math

Z95 = 1.959964


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval: honest near 0 and 1, where the normal one is not."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(xs: list[float]) -> tuple[float, float | None, float | None]:
    """The mean with a 95% normal interval (``None`` bounds under two values: no spread to measure)."""
    n = len(xs)
    if not n:
        return 0.0, None, None
    m = sum(xs) / n
    if n < 2:
        return m, None, None
    h = Z95 * math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1) / n)
    return m, m - h, m + h
