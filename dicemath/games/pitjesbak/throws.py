"""Throw classes of Pitjesbak, their ranking and their exact probabilities (PIT-2, PIT-3).

A throw of three dice falls in one class:

* ``soixante-neuf`` (6-5-4): the best throw; its round winner wipes 3 stripes (PIT-5);
* ``zand`` (three of a kind 2..6): higher zand beats lower; wipes 2;
* ``drie-apen`` (1-1-1): not ranked; handled by PIT-6 (win the game or be eliminated);
* ``regular``: ranked by its score, the sum of the die values (PIT-2; 1 = 100, 6 = 60 in
  the traditional values); equal scores tie; wipes 1. 2-2-3 is regular with score 7 (the
  lowest traditional throw) and carries a penalty stripe (PIT-7), so it is a class of its own.

Two throws belong to the same class exactly when they have the same kind, rank and penalty.
Probabilities are exact integer weights over the :data:`THROW_TOTAL` = 6**3 = 216 ordered
throws; the enumeration, the weights and the validation of a throw are the core's
(:mod:`dicemath.core.dice`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache
from typing import cast

import numpy as np

from dicemath.core.dice import check_throw as check_dice_throw
from dicemath.core.dice import multisets, read_throw, throw_text, throw_total
from dicemath.core.errors import InvalidDiceError
from dicemath.games.pitjesbak.rules import DICE, STANDARD, Rules

SOIXANTE_NEUF = "soixante-neuf"
ZAND = "zand"
DRIE_APEN = "drie-apen"
REGULAR = "regular"

ZAND_RANK_BASE = 1000
"""Rank of zand f is ``ZAND_RANK_BASE + f``: above every regular score (at most 260)."""
SOIXANTE_NEUF_RANK = 2000
"""Rank of 6-5-4, above every zand."""
APEN_RANK = -1
"""Placeholder rank of 1-1-1 (it is never compared, PIT-6)."""

THROW_TOTAL = throw_total(DICE)
"""Ordered throws of three dice (216): the denominator of every class weight."""

TRADITIONAL_VALUES = {1: 100, 2: 2, 3: 3, 4: 4, 5: 5, 6: 60}
PIPS_VALUES = {face: face for face in range(1, 7)}


def face_values(rules: Rules | None = None) -> dict[int, int]:
    """The value of each face under ``rules.die_values`` (PIT-2)."""
    rules = rules or STANDARD
    return dict(TRADITIONAL_VALUES if rules.die_values == "traditional" else PIPS_VALUES)


@dataclass(frozen=True, order=True)
class ThrowClass:
    """One class of throws (PIT-2, PIT-3).

    Attributes:
        rank: comparison key; higher beats lower, equal ranks tie (PIT-3).
        penalty: 1 for 2-2-3 (PIT-7), else 0.
        kind: one of ``soixante-neuf``, ``zand``, ``drie-apen``, ``regular``.
        wipe: stripes its round winner wipes (PIT-5): 3, 2 or 1 (0 for 1-1-1).
        label: a short key, e.g. ``"6-5-4"``, ``"zand 5-5-5"``, ``"score 106"`` (what records
            and the committed studies store).
        dice: the class's throws, highest die first (every throw of a regular score).
    """

    rank: int
    penalty: int
    kind: str
    wipe: int
    label: str
    dice: tuple[tuple[int, int, int], ...] = field(default=(), compare=False)

    @property
    def is_apen(self) -> bool:
        """Whether this is 1-1-1 (drie apen, PIT-6)."""
        return self.kind == DRIE_APEN

    @property
    def name(self) -> str:
        """The class as a player reads it, by its dice: ``"6-2-1 (162)"`` (the score after the
        dice), ``"5-4-2/5-3-3/4-4-3 (11)"`` for the throws of one score, else the label (``"6-5-4"``,
        ``"zand 5-5-5"``, ``"2-2-3"``, ``"1-1-1"``).

        Example:
            >>> classify([1, 2, 6]).name, classify([2, 4, 5]).name, classify([5, 5, 5]).name
            ('6-2-1 (162)', '5-4-2/5-3-3/4-4-3 (11)', 'zand 5-5-5')
        """
        if self.kind != REGULAR or self.penalty or not self.dice:
            return self.label
        return f"{'/'.join(throw_text(throw) for throw in self.dice)} ({self.rank})"

    def __str__(self) -> str:
        return self.label


def check_throw(dice: Sequence[int]) -> tuple[int, int, int]:
    """Return three dice as a sorted tuple, or raise.

    Raises:
        InvalidDiceError: not exactly three dice, or a face outside 1..6.

    Example:
        >>> check_throw([4, 6, 5])
        (4, 5, 6)
    """
    return check_dice_throw(dice, DICE, name="a Pitjesbak throw", rule="PIT-1")  # type: ignore[return-value]


def parse_throw(text: str) -> tuple[int, int, int]:
    """Parse ``"6-5-4"``, ``"6,5,4"`` or ``"654"`` into a sorted throw of three dice.

    Raises:
        InvalidDiceError: not three faces 1..6.

    Example:
        >>> parse_throw("1-1-6")
        (1, 1, 6)
    """
    return read_throw(text, DICE)  # type: ignore[return-value]


def classify(dice: Sequence[int], rules: Rules | None = None) -> ThrowClass:
    """The class of a throw of three dice (PIT-2, PIT-3, PIT-6, PIT-7).

    Args:
        dice: three faces 1..6 in any order.
        rules: selects the die values (default traditional).

    Returns:
        The throw's :class:`ThrowClass`.

    Raises:
        InvalidDiceError: not three faces 1..6.

    Example:
        >>> classify([6, 4, 5]).label, classify([1, 1, 6]).rank, classify([3, 2, 2]).penalty
        ('6-5-4', 260, 1)
        >>> classify([1, 2, 3, 4])
        Traceback (most recent call last):
        ...
        dicemath.core.errors.InvalidDiceError: a Pitjesbak throw has exactly 3 dice (PIT-1), got 4: (1, 2, 3, 4)
    """
    classes = _classes(rules.die_values if rules else STANDARD.die_values)
    try:
        return classes[cast("tuple[int, int, int]", dice)]  # a sorted tuple: the engine's own throws
    except (KeyError, TypeError):
        return classes[check_throw(dice)]


def _classify_sorted(low: int, mid: int, high: int, values: dict[int, int]) -> ThrowClass:
    """The class of a valid sorted throw (the rules of :func:`classify`)."""
    if (low, mid, high) == (4, 5, 6):
        return ThrowClass(SOIXANTE_NEUF_RANK, 0, SOIXANTE_NEUF, 3, "6-5-4")
    if low == high == 1:
        return ThrowClass(APEN_RANK, 0, DRIE_APEN, 0, "1-1-1")
    if low == high:
        return ThrowClass(ZAND_RANK_BASE + low, 0, ZAND, 2, f"zand {low}-{low}-{low}")
    score = values[low] + values[mid] + values[high]
    if (low, mid, high) == (2, 2, 3):
        return ThrowClass(score, 1, REGULAR, 1, "2-2-3")
    return ThrowClass(score, 0, REGULAR, 1, f"score {score}")


@lru_cache(maxsize=None)
def _classes(die_values: str) -> dict[tuple[int, int, int], ThrowClass]:
    """The class of each of the 56 sorted throws under ``die_values``."""
    values = face_values(Rules(die_values=die_values))
    classes = {(low, mid, high): _classify_sorted(low, mid, high, values) for (low, mid, high), _ in multisets(DICE)}
    members: dict[ThrowClass, list[tuple[int, int, int]]] = {}
    for throw, throw_class in classes.items():
        members.setdefault(throw_class, []).append(throw)
    return {throw: replace(throw_class, dice=tuple(sorted((t[::-1] for t in members[throw_class]), reverse=True)))
            for throw, throw_class in classes.items()}


def compare(first: ThrowClass, second: ThrowClass) -> int:
    """1 if ``first`` beats ``second``, -1 if it loses, 0 on a tie (PIT-3).

    Raises:
        InvalidDiceError: either is 1-1-1, which is never ranked (PIT-6).

    Example:
        >>> compare(classify([6, 6, 6]), classify([6, 5, 4]))
        -1
    """
    if first.is_apen or second.is_apen:
        raise InvalidDiceError("1-1-1 (drie apen) is not ranked; PIT-6 decides it")
    return (first.rank > second.rank) - (first.rank < second.rank)


@dataclass(frozen=True)
class ClassRow:
    """One throw class of :func:`class_rows`: the class, its example throws and exact probability."""

    throw_class: ThrowClass
    throws: tuple[tuple[int, int, int], ...]
    weight: int

    @property
    def probability(self) -> Fraction:
        """Exact probability (weight / :data:`THROW_TOTAL`)."""
        return Fraction(self.weight, THROW_TOTAL)


@lru_cache(maxsize=None)
def _class_rows(die_values: str) -> tuple[ClassRow, ...]:
    rules = Rules(die_values=die_values)
    weights: dict[ThrowClass, int] = {}
    throws: dict[ThrowClass, set] = {}
    for throw, weight in multisets(3):
        cls = classify(throw, rules)
        weights[cls] = weights.get(cls, 0) + weight
        throws.setdefault(cls, set()).add(throw)
    rows = [ClassRow(c, tuple(sorted(throws[c], reverse=True)), weights[c]) for c in weights]
    rows.sort(key=lambda r: (r.throw_class.is_apen, -r.throw_class.rank, -r.throw_class.penalty))
    return tuple(rows)


def class_rows(rules: Rules | None = None) -> tuple[ClassRow, ...]:
    """Every throw class with its throws and exact weight, strongest first.

    1-1-1 comes last (it is not ranked). The weights are counted over the
    :data:`THROW_TOTAL` (216) ordered throws.

    Example:
        >>> rows = class_rows()
        >>> rows[0].throw_class.label, rows[0].probability
        ('6-5-4', Fraction(1, 36))
        >>> sum(r.weight for r in rows)
        216
    """
    rules = rules or STANDARD
    return _class_rows(rules.die_values)


@dataclass(frozen=True)
class ClassSpace:
    """Dense integer indices of the classes, for solvers (float64 and exact views).

    Index ``0..C-1`` are the ranked classes, weakest first; index ``C`` (``apen``) is 1-1-1.

    Attributes:
        classes: the classes by index.
        weights: integer weight of each class over :data:`THROW_TOTAL`.
        levels: for each ranked class, the index of its rank among the distinct ranks
            (equal ranks tie, PIT-3); -1 for 1-1-1.
        n_levels: number of distinct ranks.
    """

    classes: tuple[ThrowClass, ...]
    weights: tuple[int, ...]
    levels: tuple[int, ...]
    n_levels: int

    @property
    def apen(self) -> int:
        """Index of 1-1-1."""
        return len(self.classes) - 1

    @property
    def size(self) -> int:
        """Number of classes including 1-1-1."""
        return len(self.classes)

    def probabilities(self) -> np.ndarray:
        """Probabilities of the classes as float64."""
        return np.array(self.weights, dtype=float) / THROW_TOTAL

    def fractions(self) -> tuple[Fraction, ...]:
        """Exact probabilities of the classes."""
        return tuple(Fraction(w, THROW_TOTAL) for w in self.weights)

    def index(self, throw_class: ThrowClass) -> int:
        """The index of a class."""
        return self.classes.index(throw_class)

    def index_of_throw(self, dice: Sequence[int], rules: Rules | None = None) -> int:
        """The index of the class of a throw."""
        return self.index(classify(dice, rules))


@lru_cache(maxsize=None)
def _class_space(die_values: str) -> ClassSpace:
    rows = [r for r in _class_rows(die_values) if not r.throw_class.is_apen]
    rows.sort(key=lambda r: (r.throw_class.rank, -r.throw_class.penalty))
    apen = [r for r in _class_rows(die_values) if r.throw_class.is_apen]
    ranks = sorted({r.throw_class.rank for r in rows})
    levels = tuple(ranks.index(r.throw_class.rank) for r in rows) + (-1,)
    ordered = rows + apen
    return ClassSpace(tuple(r.throw_class for r in ordered), tuple(r.weight for r in ordered),
                      levels, len(ranks))


def class_space(rules: Rules | None = None) -> ClassSpace:
    """The :class:`ClassSpace` of ``rules`` (cached per die-value variant).

    Example:
        >>> space = class_space()
        >>> space.classes[space.apen].label, sum(space.weights)
        ('1-1-1', 216)
    """
    rules = rules or STANDARD
    return _class_space(rules.die_values)


def class_probabilities(rules: Rules | None = None) -> dict[ThrowClass, Fraction]:
    """Exact probability of every class (PIT-2, PIT-3).

    Example:
        >>> probs = class_probabilities()
        >>> probs[classify([2, 2, 3])], sum(probs.values())
        (Fraction(1, 72), Fraction(1, 1))
    """
    return {row.throw_class: row.probability for row in class_rows(rules)}
