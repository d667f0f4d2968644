"""Six-sided dice: validation and enumeration of throws, and "hits" for the numbers 1..12.

Throws of ``n`` fair six-sided dice are enumerated either as ordered tuples (``6**n`` of
them, each of weight 1) or as multisets (sorted tuples) with their exact multinomial
weight ``n! / prod(count_f!)``. Weights are integers over the total ``6**n``
(:func:`throw_total`), so every probability here is exact (:class:`fractions.Fraction`);
float views are numpy float64. :func:`check_throw` validates a throw of a given number of
dice; :func:`throw_outcomes` lists a throw's chance outcomes for a game state;
:func:`two_dice_rolls` gives the 21 distinct rolls of two dice.

Hits (RULES.md, the preamble; used by PEGS-4 and FIVES-2): for a target 1..6 the number of
dice showing it; for a target 7..12 the largest number of disjoint pairs of dice whose
faces sum to the target.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement, product
from math import factorial

import numpy as np

from dicemath.core.distribution import Distribution
from dicemath.core.errors import InvalidDiceError

FACES = (1, 2, 3, 4, 5, 6)
TARGETS = tuple(range(1, 13))
PAIR_TARGETS = tuple(range(7, 13))

Throw = tuple[int, ...]
"""A throw as a sorted tuple of faces (a multiset)."""


def check_dice_count(n: int) -> int:
    """Return ``n`` if it is a valid number of dice (an integer >= 1), else raise."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise InvalidDiceError(f"number of dice must be an integer >= 1, got {n!r}")
    return int(n)


def check_target(target: int) -> int:
    """Return ``target`` if it is a number 1..12, else raise."""
    if isinstance(target, bool) or not isinstance(target, (int, np.integer)) or not 1 <= target <= 12:
        raise InvalidDiceError(f"target must be a number 1..12, got {target!r}")
    return int(target)


def check_faces(faces: Sequence[int]) -> Throw:
    """Return the faces as a sorted tuple if every one is 1..6, else raise."""
    faces = tuple(faces)
    for face in faces:
        if isinstance(face, bool) or not isinstance(face, (int, np.integer)) or not 1 <= face <= 6:
            raise InvalidDiceError(f"a die face must be 1..6, got {face!r} in {faces!r}")
    return tuple(sorted(int(f) for f in faces))


def check_throw(faces: Sequence[int], dice: int, *, name: str = "a throw",
                rule: str | None = None) -> Throw:
    """Return a throw of exactly ``dice`` dice as a sorted tuple, or raise.

    Args:
        faces: the faces thrown, in any order.
        dice: how many dice the throw must have.
        name, rule: how the error message names the throw and the rule it breaks.

    Raises:
        InvalidDiceError: another number of faces, or a face outside 1..6.

    Example:
        >>> check_throw([4, 6, 5], 3)
        (4, 5, 6)
        >>> check_throw([4, 6], 3)
        Traceback (most recent call last):
        ...
        dicemath.core.errors.InvalidDiceError: a throw has exactly 3 dice, got 2: (4, 6)
    """
    faces = tuple(faces)
    if len(faces) != check_dice_count(dice):
        where = f" ({rule})" if rule else ""
        raise InvalidDiceError(f"{name} has exactly {dice} dice{where}, got {len(faces)}: {faces!r}")
    return check_faces(faces)


def face_counts(faces: Sequence[int]) -> tuple[int, int, int, int, int, int]:
    """The number of dice showing 1, 2, ..., 6."""
    counts = [0] * 6
    for face in check_faces(faces):
        counts[face - 1] += 1
    return tuple(counts)


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


def dice_used_per_hit(target: int) -> int:
    """Dice set aside per hit: 1 for the numbers 1..6, 2 for the pair numbers 7..12."""
    return 1 if check_target(target) <= 6 else 2


def multinomial_weight(counts: Sequence[int]) -> int:
    """Number of ordered throws that give these face counts: ``n! / prod(c!)``."""
    weight = factorial(sum(counts))
    for c in counts:
        weight //= factorial(c)
    return weight


@lru_cache(maxsize=None)
def _multiset_table(n: int) -> tuple[tuple[Throw, tuple[int, ...], int], ...]:
    table = []
    for throw in combinations_with_replacement(FACES, n):
        counts = [0] * 6
        for face in throw:
            counts[face - 1] += 1
        table.append((throw, tuple(counts), multinomial_weight(counts)))
    return tuple(table)


def multisets(n: int) -> Iterator[tuple[Throw, int]]:
    """Every throw of ``n`` dice as a sorted tuple with its integer weight (sum ``6**n``).

    Example:
        >>> sum(w for _, w in multisets(3))
        216
        >>> dict(multisets(2))[(1, 2)]
        2
    """
    for throw, _, weight in _multiset_table(check_dice_count(n)):
        yield throw, weight


def multiset_counts(n: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """Every throw of ``n`` dice as face counts (#1s..#6s) with its integer weight."""
    for _, counts, weight in _multiset_table(check_dice_count(n)):
        yield counts, weight


def ordered_outcomes(n: int) -> Iterator[Throw]:
    """Every ordered throw of ``n`` dice (``6**n`` tuples, each equally likely)."""
    return product(FACES, repeat=check_dice_count(n))


def throw_total(n: int) -> int:
    """The number of ordered throws of ``n`` dice, ``6**n``: the denominator of every weight.

    Example:
        >>> throw_total(3)
        216
    """
    return len(FACES) ** check_dice_count(n)


@lru_cache(maxsize=None)
def throw_outcomes(n: int) -> tuple[tuple[Throw, Fraction], ...]:
    """Every throw of ``n`` dice (sorted tuple) with its exact probability, sorted by throw.

    The chance outcomes of a game state that throws ``n`` dice.

    Example:
        >>> outcomes = throw_outcomes(3)
        >>> len(outcomes), outcomes[-1], sum(p for _, p in outcomes)
        (56, ((6, 6, 6), Fraction(1, 216)), Fraction(1, 1))
    """
    total = throw_total(n)
    return tuple((throw, Fraction(weight, total)) for throw, weight in sorted(multisets(n)))


TWO_DICE_ROLLS: tuple[tuple[int, int], ...] = tuple(
    (high, low) for high in FACES for low in range(1, high + 1))
"""The 21 distinct rolls of two dice, higher die first, in the order (1, 1), (2, 1), (2, 2), ..."""


def two_dice_rolls() -> tuple[tuple[tuple[int, int], int], ...]:
    """The 21 distinct rolls of two dice (higher die first) with their weights out of 36.

    A double can fall one way (weight 1), any other roll two ways (weight 2).

    Example:
        >>> rolls = two_dice_rolls()
        >>> len(rolls), rolls[:3], sum(w for _, w in rolls)
        (21, (((1, 1), 1), ((2, 1), 2), ((2, 2), 1)), 36)
    """
    weights = dict(multisets(2))
    return tuple((roll, weights[(roll[1], roll[0])]) for roll in TWO_DICE_ROLLS)


def throw_distribution(n: int) -> Distribution:
    """The exact distribution of the multiset thrown with ``n`` dice (total ``6**n``)."""
    return Distribution(dict(multisets(n)))


@lru_cache(maxsize=None)
def _hit_weights(n: int) -> tuple[tuple[int, ...], ...]:
    """Weights of 0..max hits for every target, computed in one pass over the multisets."""
    max_hits = [n if t <= 6 else n // 2 for t in TARGETS]
    weights = [[0] * (m + 1) for m in max_hits]
    for _, counts, weight in _multiset_table(n):
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
