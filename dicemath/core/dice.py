"""Six-sided dice: validation and enumeration of throws, with exact weights.

Throws of ``n`` fair six-sided dice are enumerated either as ordered tuples (``6**n`` of
them, each of weight 1) or as multisets (sorted tuples) with their exact multinomial
weight ``n! / prod(count_f!)``. Weights are integers over the total ``6**n``
(:func:`throw_total`), so every probability here is exact (:class:`fractions.Fraction`);
float views are numpy float64. :func:`check_throw` validates a throw of a given number of
dice, :func:`throw_text` and :func:`read_throw` (:func:`throw_faces`) write and read it as text;
:func:`throw_outcomes` lists a throw's chance outcomes for a game state;
:func:`two_dice_rolls` gives the 21 distinct rolls of two dice.
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

Throw = tuple[int, ...]
"""A throw as a sorted tuple of faces (a multiset)."""


def check_dice_count(n: int) -> int:
    """Return ``n`` if it is a valid number of dice (an integer >= 1), else raise."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise InvalidDiceError(f"number of dice must be an integer >= 1, got {n!r}")
    return int(n)


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


def throw_text(faces: Sequence[int]) -> str:
    """A throw written high to low, e.g. ``"6-5-4"`` (read back by :func:`read_throw`)."""
    return "-".join(str(f) for f in sorted(faces, reverse=True))


def throw_faces(text: str) -> list[int]:
    """The faces of a throw written ``"6-5-4"``, ``"6,5,4"``, ``"6 5 4"`` or ``"654"``, in the
    order written (the one reading of a throw's text: :func:`read_throw`,
    :func:`dicemath.core.commands.throw_list`). It checks the notation, not the faces.

    Raises:
        InvalidDiceError: a part that is no whole number.

    Example:
        >>> throw_faces("6-5-3"), throw_faces("3,3,5"), throw_faces("416")
        ([6, 5, 3], [3, 3, 5], [4, 1, 6])
    """
    parts = text.replace("-", " ").replace(",", " ").split()
    if len(parts) == 1 and len(parts[0]) > 1:
        parts = list(parts[0])
    try:
        return [int(part) for part in parts]
    except ValueError:
        raise InvalidDiceError(f"cannot read a throw from {text!r}: write it as 6-5-3 or 6,5,3") from None


def read_throw(text: str, dice: int) -> Throw:
    """Read a throw of ``dice`` dice from ``"6-5-4"``, ``"6,5,4"``, ``"6 5 4"`` or ``"654"``
    (:func:`throw_faces`).

    Raises:
        InvalidDiceError: text that is not ``dice`` faces 1..6.

    Example:
        >>> read_throw("6-5-3-3-3-2", 6), read_throw("416", 3)
        ((2, 3, 3, 3, 5, 6), (1, 4, 6))
    """
    try:
        faces = throw_faces(text)
    except InvalidDiceError:
        raise InvalidDiceError(f"cannot read a throw of {dice} dice from {text!r}") from None
    return check_throw(faces, dice)


def face_counts(faces: Sequence[int]) -> tuple[int, int, int, int, int, int]:
    """The number of dice showing 1, 2, ..., 6."""
    counts = [0] * 6
    for face in check_faces(faces):
        counts[face - 1] += 1
    return counts[0], counts[1], counts[2], counts[3], counts[4], counts[5]


def multinomial_weight(counts: Sequence[int]) -> int:
    """Number of ordered throws that give these face counts: ``n! / prod(c!)``."""
    weight = factorial(sum(counts))
    for c in counts:
        weight //= factorial(c)
    return weight


@lru_cache(maxsize=None)
def multiset_table(n: int) -> tuple[tuple[Throw, tuple[int, ...], int], ...]:
    """Every multiset of ``n`` dice as (sorted faces, face counts, multinomial weight)."""
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
    for throw, _, weight in multiset_table(check_dice_count(n)):
        yield throw, weight


def multiset_counts(n: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """Every throw of ``n`` dice as face counts (#1s..#6s) with its integer weight."""
    for _, counts, weight in multiset_table(check_dice_count(n)):
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
    total: int = len(FACES) ** check_dice_count(n)        # int ** int is typed Any (a negative power is a float)
    return total


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


def throw_distribution(n: int) -> Distribution[Throw]:
    """The exact distribution of the multiset thrown with ``n`` dice (total ``6**n``)."""
    return Distribution(dict(multisets(n)))


