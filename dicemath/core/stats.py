"""Confidence intervals for the simulations that back the advisors' claims (float64)."""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""


def mean_confidence_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float]:
    """The sample mean and the half-width ``z * s / sqrt(n)`` of its normal interval.

    Returns ``(nan, nan)`` for no values and ``(mean, nan)`` for one.

    Example:
        >>> mean, half = mean_confidence_interval([1.0, 2.0, 3.0, 4.0])
        >>> mean, round(half, 4)
        (2.5, 1.2652)
    """
    n = len(values)
    if n == 0:
        return math.nan, math.nan
    mean = math.fsum(values) / n
    if n < 2:
        return mean, math.nan
    variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, z * math.sqrt(variance / n)


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion (draws may count as half a success).

    Example:
        >>> low, high = wilson_interval(50, 100)
        >>> round(low, 4), round(high, 4)
        (0.4038, 0.5962)
    """
    if trials <= 0:
        raise ValueError(f"trials must be positive, got {trials}")
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)
