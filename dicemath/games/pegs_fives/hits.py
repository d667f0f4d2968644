"""Hits: how a throw scores for a number 1..12 (docs/rules.md, the preamble; PEGS-4, FIVES-2).

For a target 1..6 the hits are the dice showing it; for a target 7..12 the largest number
of disjoint pairs of dice whose faces sum to the target. Distributions are exact
(:class:`dicemath.core.distribution.Distribution`, integer weights over ``6**n``), with a
float64 table view for the solvers.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from dicemath.core.dice import multiset_table, check_dice_count, face_counts
from dicemath.core.distribution import Distribution
from dicemath.core.errors import InvalidDiceError

TARGETS = tuple(range(1, 13))
"""The numbers a throw can hit."""

PAIR_TARGETS = tuple(range(7, 13))
"""The numbers hit by pairs of dice."""


def check_target(target: int) -> int:
    """Return ``target`` if it is a number 1..12, else raise."""
    if isinstance(target, bool) or not isinstance(target, (int, np.integer)) or not 1 <= target <= 12:
        raise InvalidDiceError(f"target must be a number 1..12, got {target!r}")
    return int(target)


def hits_from_counts(target: int, counts: Sequence[int]) -> int:
    """Hits for ``target`` given the face counts (index 0 holds the number of 1s).

    For a pair target t the pairs (a, t - a) with a < t - a are disjoint classes of faces,
    so the greedy count ``sum min(#a, #(t-a)) + floor(#(t/2) / 2)`` is the maximum.
    """
    if target <= 6:
        return counts[target - 1]
    total = 0
    for low in range(target - 6, (target + 1) // 2):
        total += min(counts[low - 1], counts[target - low - 1])
    if target % 2 == 0:
        total += counts[target // 2 - 1] // 2
    return total


def hits(target: int, faces: Sequence[int]) -> int:
    """The number of hits for ``target`` in a throw.

    Args:
        target: a number 1..12.
        faces: the faces thrown, each 1..6.

    Returns:
        For 1..6, how many dice show the target; for 7..12, the largest number of disjoint
        pairs summing to the target.

    Raises:
        InvalidDiceError: a face outside 1..6 or a target outside 1..12.

    Example:
        >>> hits(8, [6, 2, 5, 3, 4, 1])
        2
        >>> hits(3, [3, 3, 3, 5, 6, 2])
        3
    """
    check_target(target)
    return hits_from_counts(target, face_counts(faces))


@lru_cache(maxsize=None)
def _hit_weights(n: int) -> tuple[tuple[int, ...], ...]:
    """Weights of 0..max hits for every target, computed in one pass over the multisets."""
    max_hits = [n if t <= 6 else n // 2 for t in TARGETS]
    weights = [[0] * (m + 1) for m in max_hits]
    for _, counts, weight in multiset_table(n):
        for index, target in enumerate(TARGETS):
            weights[index][hits_from_counts(target, counts)] += weight
    return tuple(tuple(w) for w in weights)


def hit_distribution(n: int, target: int) -> Distribution:
    """The exact distribution of the number of hits for ``target`` with ``n`` dice.

    Returns a :class:`Distribution` of integer weights over ``6**n``: use
    ``.probability(k)`` for an exact Fraction, ``.to_array()`` for float64.

    Example:
        >>> d = hit_distribution(2, 7)
        >>> d.probability(1)
        Fraction(1, 6)
    """
    n = check_dice_count(n)
    target = check_target(target)
    weights = _hit_weights(n)[target - 1]
    return Distribution({k: w for k, w in enumerate(weights) if w})


def hit_probability_table(n: int) -> np.ndarray:
    """Float64 array ``[target - 1, k]``: probability of k hits for each target, n dice."""
    n = check_dice_count(n)
    weights = _hit_weights(n)
    table = np.zeros((12, n + 1))
    for index, row in enumerate(weights):
        table[index, : len(row)] = np.asarray(row, dtype=np.float64) / 6**n
    return table
