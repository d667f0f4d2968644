"""Optimal Pig: the probability of winning from every state, by value iteration.

The unknown is ``P(i, j, k)``: the probability that the player to move wins, with score
``i`` against the opponent's ``j`` and turn total ``k`` at a decision (roll or hold), when
both players play to win (Neller and Presser, "Optimal Play of the Dice Game Pig", *The
UMAP Journal* 25(1), 2004). It satisfies (PIG-2..PIG-6)

    P(i, j, k) = max(roll(i, j, k), hold(i, j, k))
    roll(i, j, k) = (1 - P(j, i, 0)) / 6 + sum_{r=2..6} P(i, j, k + r) / 6
    hold(i, j, k) = 1 - P(j, i + k, 0)          (k > 0; PIG-2: no hold at 0)

with ``P(i, j, k) = 1`` once ``i + k >= goal`` (hold and win, PIG-6). A roll of 1 hands the
turn back and forth without progress, so the equations are not ordered; but no move ever
lowers a score, so the states whose scores add up to ``i + j`` (a *layer*) depend only on
themselves and on layers with a larger sum. The solve runs the core's
:func:`~dicemath.core.mdp.layered_value_iteration` over the layers from the largest sum
down, each swept Gauss-Seidel (in C, ``_pig_c.c``) until a sweep changes no value
by :data:`TOLERANCE` or more. Arithmetic is float64; "exact" in :mod:`.advice` means "from
this solution", not rational arithmetic (the tests compare it with an exact rational
solution of small goals).

Example:
    >>> solution = solve(Rules(goal=10))
    >>> round(solution.first_player_win_probability, 6), solution.hold_threshold(0, 0)
    (0.709424, 10)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

import numpy as np

from dicemath.core.game import TERMINAL
from dicemath.core.mdp import layered_value_iteration
from dicemath.games.pig import _pig_c  # type: ignore[attr-defined]  # C extension, no stubs
from dicemath.games.pig.rules import FACES, STANDARD, Rules
from dicemath.games.pig.state import HOLD, ROLL, State

TOLERANCE = 1e-12
"""A layer is solved after a sweep that changed no win probability by this much or more."""

MAX_SWEEPS = 100_000
"""The most sweeps of one layer before the solve gives up (RuntimeError)."""


@dataclass(frozen=True, eq=False)
class PigSolution:
    """The win probabilities of every decision state of one variant, for optimal play.

    Attributes:
        rules: the variant.
        win: ``win[i, j, k]``: P(the player to move wins) with score ``i``, the opponent's
            ``j``, turn total ``k``, at a decision, float64 of shape ``(goal, goal, goal)``;
            1 where ``i + k >= goal``.
        sweeps: the sweeps each layer took, from the largest score sum down.
        tolerance: the convergence tolerance (:data:`TOLERANCE`).
        seconds: the solve's wall-clock time.
    """

    rules: Rules
    win: np.ndarray = field(repr=False)
    sweeps: tuple[int, ...] = field(repr=False)
    tolerance: float = TOLERANCE
    seconds: float = 0.0

    @property
    def first_player_win_probability(self) -> float:
        """P(player 0 wins) from the start, both playing optimally (PIG-7: player 0 starts)."""
        return self.decision_value(0, 0, 0)

    @property
    def states(self) -> int:
        """The decision states solved: every ``(i, j, k)`` with ``i, j < goal``, ``i + k < goal``."""
        goal = self.rules.goal
        return goal * goal * (goal + 1) // 2

    def _check(self, score: int, other: int, turn: int) -> None:
        goal = self.rules.goal
        if not (0 <= score < goal and 0 <= other < goal and turn >= 0):
            raise IndexError(f"scores {score}, {other} and turn total {turn} are outside the game to {goal}")

    def decision_value(self, score: int, other: int, turn: int) -> float:
        """P(the player to move wins) at a decision: the solved table (1 once the turn reaches
        the goal)."""
        self._check(score, other, turn)
        return 1.0 if score + turn >= self.rules.goal else float(self.win[score, other, turn])

    def roll_value(self, score: int, other: int, turn: int) -> float:
        """P(the player to move wins) if he rolls (once more) and both play optimally after."""
        self._check(score, other, turn)
        value = (1.0 - float(self.win[other, score, 0])) / FACES
        for face in range(2, FACES + 1):
            value += (1.0 if score + turn + face >= self.rules.goal else float(self.win[score, other, turn + face])) \
                / FACES
        return value

    def hold_value(self, score: int, other: int, turn: int) -> float | None:
        """P(the player to move wins) if he holds (1 when that reaches the goal); None at turn
        total 0 (PIG-2)."""
        self._check(score, other, turn)
        if turn == 0:
            return None
        if score + turn >= self.rules.goal:
            return 1.0
        return 1.0 - float(self.win[other, score + turn, 0])

    def action_values(self, score: int, other: int, turn: int) -> dict[str, float]:
        """``{"roll": ..., "hold": ...}`` (no hold at turn total 0)."""
        values = {ROLL: self.roll_value(score, other, turn)}
        hold = self.hold_value(score, other, turn)
        if hold is not None:
            values[HOLD] = hold
        return values

    def holds(self, score: int, other: int, turn: int) -> bool:
        """True when holding is optimal (ties go to the hold)."""
        hold = self.hold_value(score, other, turn)
        return hold is not None and hold >= self.roll_value(score, other, turn)

    @cached_property
    def hold_table(self) -> np.ndarray:
        """``hold_table[i, j, k]``: :meth:`holds` of every decision in the table (bool), with
        the same float64 arithmetic, at once."""
        goal = self.rules.goal
        padded = np.concatenate([self.win, np.ones((goal, goal, FACES + 1))], axis=2)
        reached = np.arange(goal)[:, None, None] + np.arange(goal + FACES + 1)[None, None, :] >= goal
        padded = np.where(reached, 1.0, padded)
        roll = (1.0 - self.win[:, :, 0].T[:, :, None]) / FACES
        for face in range(2, FACES + 1):
            roll = roll + padded[:, :, face:face + goal] / FACES
        banked = np.minimum(np.arange(goal)[:, None] + np.arange(goal)[None, :], goal - 1)     # [i, k]: i + k
        hold = 1.0 - self.win[:, :, 0][np.arange(goal)[None, :, None], banked[:, None, :]]     # win[j, i + k, 0]
        hold = np.where(reached[:, :, :goal], 1.0, hold)
        table = hold >= roll
        table[:, :, 0] = False
        table.setflags(write=False)
        return table

    def hold_threshold(self, score: int, other: int) -> int:
        """The smallest turn total at which to hold with score ``score`` against ``other``
        (at most ``goal - score``, a hold that wins, PIG-6; at least 2, PIG-4)."""
        self._check(score, other, 0)
        return int(self.thresholds()[score, other])

    def thresholds(self) -> np.ndarray:
        """:meth:`hold_threshold` of every score pair, ``[my score, their score]`` (int)."""
        goal = self.rules.goal
        table = self.hold_table.copy()
        table[:, :, 1] = False
        limit = np.maximum(2, goal - np.arange(goal))[:, None]
        first = np.where(table.any(axis=2), table.argmax(axis=2), goal)
        return np.minimum(first, limit).astype(np.int64)

    def rolls_above_threshold(self) -> list[tuple[int, int, int]]:
        """The decisions ``(i, j, k)`` where rolling is optimal although ``k`` is above the
        hold threshold of ``(i, j)``: where the optimal policy is not "hold at a threshold"."""
        goal = self.rules.goal
        thresholds = self.thresholds()
        above = np.arange(goal)[None, None, :] > thresholds[:, :, None]
        inside = (np.arange(goal)[:, None, None] + np.arange(goal)[None, None, :]) < goal
        found = np.argwhere(above & inside & ~self.hold_table)
        return [(int(i), int(j), int(k)) for i, j, k in found]

    def value(self, state: State) -> float:
        """P(the player to move wins) at any state of these rules: the best action's value
        at a decision, the roll's at a chance state, 1 at the end (the winner is "to move")."""
        if state.rules != self.rules:
            raise ValueError(f"a state of {state.rules} is not in the solution of {self.rules}")
        if state.current_player() == TERMINAL:
            return 1.0
        me = state.to_move
        score, other = state.scores[me], state.scores[1 - me]
        if state.rolling:
            return self.roll_value(score, other, state.turn_total)
        return max(self.action_values(score, other, state.turn_total).values())


def solve(rules: Rules = STANDARD) -> PigSolution:
    """Solve ``rules``: every decision state's win probability for optimal play (see the
    module docstring).

    Args:
        rules: the variant (the goal).

    Returns:
        The :class:`PigSolution` (kept in memory for the process: a solve is fast).

    Raises:
        RuntimeError: a layer did not converge within :data:`MAX_SWEEPS` sweeps.

    Example:
        >>> solution = solve(Rules(goal=2))
        >>> round(solution.first_player_win_probability, 12)   # P = 5/6 + (1 - P)/6: 6/7
        0.857142857143
    """
    return _solve(rules)


@lru_cache(maxsize=8)
def _solve(rules: Rules) -> PigSolution:
    start = time.perf_counter()
    goal = rules.goal
    win = np.zeros((goal, goal, goal))
    reached = np.arange(goal)[:, None] + np.arange(goal)[None, :] >= goal      # [i, k]: i + k >= goal
    win[np.broadcast_to(reached[:, None, :], win.shape)] = 1.0
    sweeps = layered_value_iteration(range(2 * goal - 2, -1, -1),
                                     lambda total: _pig_c.sweep_layer(win, total, goal, FACES),
                                     tolerance=TOLERANCE, max_sweeps=MAX_SWEEPS)
    win.setflags(write=False)
    return PigSolution(rules, win, tuple(sweeps), TOLERANCE, time.perf_counter() - start)
