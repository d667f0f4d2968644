"""Exact discrete distributions with integer weights and a cheap float view.

A :class:`Distribution` maps outcomes to positive integer weights; a probability is the
weight over the total, returned as an exact :class:`fractions.Fraction`. Float64 numpy
views are available for bulk work (:meth:`Distribution.to_array`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from fractions import Fraction
from math import gcd
from typing import Any, TypeVar

import numpy as np
from numpy.typing import NDArray

from dicemath.core.errors import InvalidProbabilityError

Outcome = TypeVar("Outcome", bound=Hashable)
Image = TypeVar("Image", bound=Hashable)


class Distribution(Mapping[Outcome, int]):
    """An immutable, sorted mapping from outcome to positive integer weight.

    Outcomes with weight 0 are dropped. Weights are reduced by their common divisor only
    when ``reduce=True``, so that a distribution of dice keeps the natural 6**n total.

    Example:
        >>> d = Distribution({0: 25, 1: 10, 2: 1})
        >>> d.probability(1)
        Fraction(5, 18)
        >>> d.mean()
        Fraction(1, 3)
    """

    __slots__ = ("_weights", "_total")

    def __init__(self, weights: Mapping[Outcome, int] | Iterable[tuple[Outcome, int]],
                 *, reduce: bool = False) -> None:
        items: dict[Outcome, int] = dict(weights)
        clean: dict[Outcome, int] = {}
        for outcome, weight in items.items():
            if int(weight) != weight or weight < 0:
                raise InvalidProbabilityError(
                    f"weight of outcome {outcome!r} must be a non-negative integer, got {weight!r}")
            if weight:
                clean[outcome] = int(weight)
        if not clean:
            raise InvalidProbabilityError("a distribution needs at least one outcome of positive weight")
        if reduce:
            divisor = 0
            for weight in clean.values():
                divisor = gcd(divisor, weight)
            clean = {o: w // divisor for o, w in clean.items()}
        try:
            ordered = sorted(clean.items())
        except TypeError:
            ordered = list(clean.items())
        self._weights: dict[Outcome, int] = dict(ordered)
        self._total = sum(self._weights.values())

    @classmethod
    def from_probabilities(cls, probabilities: Mapping[Outcome, Fraction]) -> Distribution[Outcome]:
        """Build a distribution from exact probabilities that sum to 1."""
        total = sum(probabilities.values(), Fraction(0))
        if total != 1:
            raise InvalidProbabilityError(f"probabilities must sum to 1, they sum to {total}")
        denominator = 1
        for p in probabilities.values():
            p = Fraction(p)
            if p < 0:
                raise InvalidProbabilityError(f"negative probability {p}")
            denominator = denominator * p.denominator // gcd(denominator, p.denominator)
        return cls({o: int(Fraction(p) * denominator) for o, p in probabilities.items()})

    def __getitem__(self, outcome: Outcome) -> int:
        return self._weights[outcome]

    def __iter__(self) -> Iterator[Outcome]:
        return iter(self._weights)

    def __len__(self) -> int:
        return len(self._weights)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Distribution):
            return NotImplemented
        return self.probabilities() == other.probabilities()

    def __hash__(self) -> int:
        return hash(tuple(self.probabilities().items()))

    @property
    def total(self) -> int:
        """The sum of the weights: the common denominator of every probability."""
        return self._total

    def weight(self, outcome: Outcome) -> int:
        """The integer weight of ``outcome`` (0 when it cannot happen)."""
        return self._weights.get(outcome, 0)

    def probability(self, outcome: Outcome) -> Fraction:
        """The exact probability of ``outcome``."""
        return Fraction(self._weights.get(outcome, 0), self._total)

    def probabilities(self) -> dict[Outcome, Fraction]:
        """Every outcome with its exact probability, in outcome order."""
        return {o: Fraction(w, self._total) for o, w in self._weights.items()}

    def mean(self) -> Fraction:
        """The exact mean of numeric outcomes."""
        numeric: Mapping[Any, int] = self._weights          # the outcomes are numbers here
        return Fraction(sum(o * w for o, w in numeric.items()), self._total)

    def to_array(self, size: int | None = None) -> NDArray[np.float64]:
        """Float64 probabilities indexed by integer outcome 0..size-1 (a float view)."""
        weights: Mapping[Any, int] = self._weights          # integer outcomes, checked below
        outcomes = list(weights)
        if not all(isinstance(o, (int, np.integer)) and o >= 0 for o in outcomes):
            raise TypeError("to_array needs non-negative integer outcomes")
        size = max(outcomes) + 1 if size is None else size
        array = np.zeros(size, dtype=np.float64)
        for outcome, weight in weights.items():
            array[outcome] = weight / self._total
        return array

    def map(self, function: Callable[[Outcome], Image]) -> Distribution[Image]:
        """The distribution of ``function(outcome)``, weights added where outcomes merge."""
        merged: dict[Image, int] = {}
        for outcome, weight in self._weights.items():
            key = function(outcome)
            merged[key] = merged.get(key, 0) + weight
        return Distribution(merged)

    def __repr__(self) -> str:
        body = ", ".join(f"{o!r}: {w}" for o, w in self._weights.items())
        return f"Distribution({{{body}}})  # total {self._total}"

    def _repr_markdown_(self) -> str:
        rows = ["| outcome | weight | probability |", "|---:|---:|---:|"]
        for outcome, weight in self._weights.items():
            rows.append(f"| {outcome} | {weight} | {weight / self._total:.6f} |")
        return "\n".join(rows)
