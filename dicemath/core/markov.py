"""Absorbing Markov chains: time to absorption and where the chain ends.

Two forms of the same tools:

- :class:`AbsorbingChain` takes a row-stochastic numpy matrix; results are float64.
- :class:`ExactAbsorbingChain` takes a table ``state -> {next_state: Fraction}``; results
  are exact :class:`fractions.Fraction` (Gaussian elimination over the rationals, so meant
  for chains of up to a few hundred transient states).

A state is absorbing when it moves to itself with probability 1. With ``Q`` the
transient-to-transient block and ``R`` the transient-to-absorbing block, the fundamental
matrix ``N = (I - Q)^-1`` gives the expected number of steps ``N 1`` and the absorption
probabilities ``N R`` (Kemeny and Snell, *Finite Markov Chains*, 1960, ch. 3).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from dicemath.core.errors import InvalidProbabilityError


def _check_stochastic(matrix: ArrayLike, tolerance: float) -> NDArray[np.float64]:
    matrix = np.asarray(matrix, dtype=np.float64)
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1]:
        raise InvalidProbabilityError(f"transition matrix must be square, got shape {matrix.shape}")
    if (matrix < -tolerance).any():
        row, col = np.argwhere(matrix < -tolerance)[0]
        raise InvalidProbabilityError(f"transition matrix has a negative entry at [{row}, {col}]")
    sums = matrix.sum(axis=1)
    bad = np.flatnonzero(np.abs(sums - 1) > tolerance)
    if bad.size:
        raise InvalidProbabilityError(
            f"transition matrix is not stochastic: row {bad[0]} sums to {sums[bad[0]]!r}, not 1")
    return matrix


class AbsorbingChain:
    """An absorbing Markov chain given by a row-stochastic float matrix.

    Args:
        matrix: ``matrix[i, j]`` is the probability of moving from state i to state j.
        tolerance: allowed rounding in row sums.

    Raises:
        InvalidProbabilityError: the matrix is not square and stochastic, has no absorbing
            state, or some transient state can never reach one.

    Example:
        A die is thrown until a six: 6 throws on average.

        >>> chain = AbsorbingChain([[5/6, 1/6], [0, 1]])
        >>> round(float(chain.expected_steps()[0]), 9)
        6.0
    """

    def __init__(self, matrix: Sequence[Sequence[float]] | NDArray[np.floating[Any]], *,
                 tolerance: float = 1e-9) -> None:
        self.matrix = _check_stochastic(np.asarray(matrix), tolerance)
        diagonal = np.diag(self.matrix)
        self.absorbing = np.flatnonzero(diagonal >= 1 - tolerance)
        self.transient = np.flatnonzero(diagonal < 1 - tolerance)
        if self.absorbing.size == 0:
            raise InvalidProbabilityError("the chain has no absorbing state")
        self._q = self.matrix[np.ix_(self.transient, self.transient)]
        self._r = self.matrix[np.ix_(self.transient, self.absorbing)]
        try:
            self._steps = np.linalg.solve(np.eye(len(self.transient)) - self._q,
                                          np.ones(len(self.transient)))
        except np.linalg.LinAlgError:
            raise InvalidProbabilityError("some transient state never reaches an absorbing state") from None
        if not np.all(np.isfinite(self._steps)) or (self._steps < 0).any():
            raise InvalidProbabilityError("some transient state never reaches an absorbing state")

    def _transient_position(self, state: int) -> int:
        where = np.flatnonzero(self.transient == state)
        if where.size == 0:
            raise InvalidProbabilityError(f"state {state} is not a transient state of the chain")
        return int(where[0])

    def expected_steps(self) -> NDArray[np.float64]:
        """Expected steps to absorption from every state (0 for absorbing ones), float64."""
        steps = np.zeros(len(self.matrix))
        steps[self.transient] = self._steps
        return steps

    def absorption_probabilities(self) -> NDArray[np.float64]:
        """``[i, k]``: probability that the chain from state i ends in ``absorbing[k]``."""
        result = np.zeros((len(self.matrix), len(self.absorbing)))
        result[self.transient] = np.linalg.solve(np.eye(len(self.transient)) - self._q, self._r)
        result[self.absorbing, np.arange(len(self.absorbing))] = 1.0
        return result

    def step_distribution(self, start: int, *, max_steps: int | None = None,
                          tail: float = 1e-12) -> NDArray[np.float64]:
        """``P(T = k)`` for k = 0, 1, ... of the absorption time T from ``start`` (float64).

        Stops after ``max_steps`` or once the probability not yet absorbed is below ``tail``.
        """
        if start in set(self.absorbing.tolist()):
            return np.array([1.0])
        position = self._transient_position(start)
        alive = np.zeros(len(self.transient))
        alive[position] = 1.0
        absorbed_now = self._r.sum(axis=1)
        result = [0.0]
        limit = max_steps if max_steps is not None else 10_000_000
        while len(result) <= limit and alive.sum() > tail:
            result.append(float(alive @ absorbed_now))
            alive = alive @ self._q
        return np.asarray(result)


class ExactAbsorbingChain:
    """An absorbing Markov chain with exact rational transition probabilities.

    Args:
        transitions: ``state -> {next_state: probability}``; every row sums to exactly 1.
            States that appear only as targets must also have a row (absorbing: ``{s: 1}``).

    Raises:
        InvalidProbabilityError: a row does not sum to 1, has a negative entry, names an
            unknown state, there is no absorbing state, or some state never gets absorbed.

    Example:
        Gambler's ruin with a fair coin from 1 of 3: ruined with probability 2/3.

        >>> half = Fraction(1, 2)
        >>> chain = ExactAbsorbingChain({0: {0: 1}, 1: {0: half, 2: half},
        ...                              2: {1: half, 3: half}, 3: {3: 1}})
        >>> chain.absorption_probabilities()[1]
        {0: Fraction(2, 3), 3: Fraction(1, 3)}
        >>> chain.expected_steps()[1]
        Fraction(2, 1)
    """

    def __init__(self, transitions: Mapping[Hashable, Mapping[Hashable, Fraction]]):
        self.transitions: dict[Hashable, dict[Hashable, Fraction]] = {}
        for state, row in transitions.items():
            clean: dict[Hashable, Fraction] = {}
            for target, p in row.items():
                p = Fraction(p)
                if p < 0:
                    raise InvalidProbabilityError(f"negative probability {p} from {state!r} to {target!r}")
                if target not in transitions:
                    raise InvalidProbabilityError(f"state {target!r} (reached from {state!r}) has no row")
                if p:
                    clean[target] = p
            total = sum(clean.values(), Fraction(0))
            if total != 1:
                raise InvalidProbabilityError(f"transitions from {state!r} sum to {total}, not 1")
            self.transitions[state] = clean
        self.absorbing = [s for s, row in self.transitions.items() if row.get(s) == 1]
        self.transient = [s for s in self.transitions if s not in set(self.absorbing)]
        if not self.absorbing:
            raise InvalidProbabilityError("the chain has no absorbing state")
        self._index = {s: i for i, s in enumerate(self.transient)}
        self._steps: dict[Hashable, Fraction] | None = None

    def _solve(self, right_sides: list[list[Fraction]]) -> list[list[Fraction]]:
        """Solve ``(I - Q) X = B`` exactly for the columns of ``B`` (rows = transient states)."""
        size = len(self.transient)
        rows = []
        for i, state in enumerate(self.transient):
            row = [Fraction(0)] * size
            row[i] = Fraction(1)
            for target, p in self.transitions[state].items():
                if target in self._index:
                    row[self._index[target]] -= p
            rows.append(row + list(right_sides[i]))
        for col in range(size):
            pivot = next((r for r in range(col, size) if rows[r][col] != 0), None)
            if pivot is None:
                raise InvalidProbabilityError("some transient state never reaches an absorbing state")
            rows[col], rows[pivot] = rows[pivot], rows[col]
            inverse = 1 / rows[col][col]
            rows[col] = [value * inverse for value in rows[col]]
            for r in range(size):
                factor = rows[r][col]
                if r != col and factor:
                    rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col])]
        return [row[size:] for row in rows]

    def expected_steps(self) -> dict[Hashable, Fraction]:
        """Exact expected steps to absorption from every state (0 for absorbing ones)."""
        if self._steps is None:
            solved = self._solve([[Fraction(1)] for _ in self.transient])
            self._steps = {s: solved[i][0] for i, s in enumerate(self.transient)}
            self._steps.update({s: Fraction(0) for s in self.absorbing})
        return dict(self._steps)

    def absorption_probabilities(self) -> dict[Hashable, dict[Hashable, Fraction]]:
        """``state -> {absorbing_state: exact probability of ending there}``."""
        right = [[self.transitions[s].get(a, Fraction(0)) for a in self.absorbing]
                 for s in self.transient]
        solved = self._solve(right)
        result = {s: dict(zip(self.absorbing, solved[i])) for i, s in enumerate(self.transient)}
        for a in self.absorbing:
            result[a] = {b: Fraction(int(a == b)) for b in self.absorbing}
        return result

    def step_distribution(self, start: Hashable, steps: int) -> list[Fraction]:
        """Exact ``P(T = k)`` for k = 0..steps, T the absorption time from ``start``."""
        if start not in self.transitions:
            raise InvalidProbabilityError(f"unknown state {start!r}")
        if start in self.absorbing:
            return [Fraction(1)] + [Fraction(0)] * steps
        absorbing = set(self.absorbing)
        alive = {start: Fraction(1)}
        result = [Fraction(0)]
        for _ in range(steps):
            moved: dict[Hashable, Fraction] = {}
            absorbed = Fraction(0)
            for state, mass in alive.items():
                for target, p in self.transitions[state].items():
                    if target in absorbing:
                        absorbed += mass * p
                    else:
                        moved[target] = moved.get(target, Fraction(0)) + mass * p
            result.append(absorbed)
            alive = moved
        return result
