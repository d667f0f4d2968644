"""Expected turns per row: one row open, every other row in.

For a row r and a starting step s the turn-to-turn movement of the peg (the marks) is an
absorbing Markov chain on the steps ``0..goal``; its one-turn transition probabilities are
computed exactly by :func:`.turn.turn_distribution` (exact :class:`fractions.Fraction`). From
them:

* the expected number of turns from every step, exactly
  (:class:`dicemath.core.markov.ExactAbsorbingChain`);
* the distribution of the number of turns (float64,
  :meth:`dicemath.core.markov.AbsorbingChain.step_distribution`);
* the chance of finishing within one turn.

Example:
    >>> from dicemath.games.pegs_fives.rules import PEGS
    >>> table = row_table(PEGS, 12)
    >>> table.transition[4][5]       # the hand-checked case of .turn.turn_distribution
    Fraction(11875, 46656)
    >>> round(float(table.expected_turns), 3)
    16.877
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np

from dicemath.core.errors import DicemathError
from dicemath.core.markov import AbsorbingChain, ExactAbsorbingChain
from dicemath.games.pegs_fives.rules import Rules
from dicemath.games.pegs_fives.state import check_open_rows
from dicemath.games.pegs_fives.turn import end_board_model, turn_distribution


@dataclass(frozen=True)
class RowTable:
    """The single-row chain of one row.

    Attributes:
        rules: the game.
        row: the row (1..12).
        transition: ``transition[s][s']`` = P(a turn starting on step s ends on step s'),
            exact, for s, s' in ``0..goal``.
        expected_turns_from: exact expected turns to finish from each step ``0..goal``
            (0 at the goal).
    """

    rules: Rules
    row: int
    transition: tuple[tuple[Fraction, ...], ...]
    expected_turns_from: tuple[Fraction, ...]

    @property
    def expected_turns(self) -> Fraction:
        """Expected turns from step 0."""
        return self.expected_turns_from[0]

    def p_within_one_turn(self, start: int = 0) -> Fraction:
        """Exact chance of finishing the row in the first turn from ``start``."""
        return self.transition[start][self.rules.goal]

    def turn_distribution(self, start: int = 0, *, coverage: float = 1 - 1e-9,
                          max_turns: int = 10_000) -> np.ndarray:
        """Float64 array ``d[n]`` = P(the row is finished after exactly n turns), n = 0, 1, ...

        Propagates the chain until the mass not yet absorbed is below ``1 - coverage``.
        """
        goal = self.rules.goal
        if not 0 <= start <= goal:
            raise DicemathError(f"start step must be 0..{goal}, got {start!r}")
        matrix = np.array([[float(p) for p in row] for row in self.transition])
        return AbsorbingChain(matrix).step_distribution(start, max_steps=max_turns - 1,
                                                        tail=1 - coverage)

    def quantile(self, q: float, start: int = 0) -> int:
        """The smallest n with P(finished within n turns) >= q."""
        cumulative = np.cumsum(self.turn_distribution(start))
        return int(np.searchsorted(cumulative, q - 1e-12))

    def _repr_markdown_(self) -> str:
        steps = " | ".join(str(s) for s in range(self.rules.goal))
        values = " | ".join(f"{float(e):.3f}" for e in self.expected_turns_from[:-1])
        return (f"**{self.rules.name} row {self.row}** alone: expected turns from each step\n\n"
                f"| step | {steps} |\n|---|{'---|' * self.rules.goal}\n| E[turns] | {values} |\n\n"
                f"P(finished in the first turn from 0) = {float(self.p_within_one_turn()):.4f}")

    def to_dict(self) -> dict:
        """The JSON object of one row (keys of ``dicemath pegs rows --json``)."""
        dist = self.turn_distribution(0, coverage=0.999)
        return {
            "row": self.row,
            "expected_turns": float(self.expected_turns),
            "expected_turns_exact": _text(self.expected_turns),
            "expected_turns_from": [float(e) for e in self.expected_turns_from[:-1]],
            "p_within_one_turn": float(self.p_within_one_turn()),
            "p_within_one_turn_exact": _text(self.p_within_one_turn()),
            "p_within_one_turn_from": [float(self.p_within_one_turn(s)) for s in range(self.rules.goal)],
            "median_turns": self.quantile(0.5),
            "turn_distribution": [float(x) for x in dist],
        }


def _text(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}" if value.denominator != 1 else str(value.numerator)


@lru_cache(maxsize=64)
def row_table(rules: Rules, row: int) -> RowTable:
    """The exact single-row chain of ``row`` (see the module docstring).

    Args:
        rules: :data:`~.rules.PEGS` or :data:`~.rules.FIVES` (or a variant).
        row: 1..rules.rows.

    Raises:
        InvalidBoardError: no such row.
    """
    (row,) = check_open_rows([row], rules)
    goal = rules.goal
    model = end_board_model(rules)
    transition = []
    for start in range(goal + 1):
        line = [Fraction(0)] * (goal + 1)
        if start == goal:
            line[goal] = Fraction(1)
        else:
            board = tuple(start if r == row else goal for r in range(1, rules.rows + 1))
            for end, p in turn_distribution(rules, board, model=model).items():
                line[end[row - 1]] += p
        transition.append(tuple(line))
    chain = ExactAbsorbingChain({s: dict(enumerate(line)) for s, line in enumerate(transition)})
    expected = chain.expected_steps()
    return RowTable(rules, row, tuple(transition), tuple(expected[s] for s in range(goal + 1)))


def row_tables(rules: Rules) -> list[RowTable]:
    """:func:`row_table` for every row 1..rules.rows."""
    return [row_table(rules, r) for r in range(1, rules.rows + 1)]


def rows_result(rules: Rules) -> dict:
    """The JSON object of ``dicemath pegs rows`` / ``dicemath fives rows``: key ``rows``."""
    return {"game": rules.name, "goal": rules.goal, "rows": [t.to_dict() for t in row_tables(rules)]}
