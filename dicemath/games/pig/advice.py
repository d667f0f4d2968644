"""Roll or hold? The win probability of each choice, each state's value, and the hold thresholds on one card.

:func:`advise` values both actions of a decision (PIG-4, PIG-5) from the optimal solution
(:func:`~dicemath.games.pig.solver.solve`): the probability that the player to move wins
if he rolls, and if he holds, both playing optimally afterwards; :func:`win_probabilities`
gives both players' at any state (a decision, a rolling die, the end, PIG-6). The values
are marked exact: they come from the solved equations, in float64, converged to
:data:`~dicemath.games.pig.solver.TOLERANCE` (no estimate is involved). The two are the
implementation of the one source of Pig's chain (:mod:`~dicemath.games.pig.game`); callers
ask the game (``PIG_GAME.advise``, the package's ``advise``).

:func:`policy_card` condenses the optimal policy into one number per pair of scores: the
turn total at which to hold (:class:`PolicyCard`).

Example:
    >>> from dicemath.games.pig.state import State
    >>> advice = advise(State.from_str("0:0-0 t21 choose"))
    >>> advice.best.text, [round(o.value, 4) for o in advice.options]
    ('hold', [0.6269, 0.6262])
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from dicemath.core.advice import Advice, Option
from dicemath.core.errors import InvalidStateError
from dicemath.core.sources import Valued
from dicemath.games.pig.rules import STANDARD, Rules
from dicemath.games.pig.solver import TOLERANCE, PigSolution, solve
from dicemath.games.pig.state import HOLD, PLAYER_NAMES, State

GAME = "pig"
UNIT = "win probability"
SOURCE = f"value iteration (float64, converged to {TOLERANCE:g})"
"""The ``source`` of every Pig advice."""


def advise(state: State, solution: PigSolution | None = None) -> Advice:
    """The win probability of rolling and of holding at a decision, best first.

    Args:
        state: a decision state (not a rolling die, not a finished game).
        solution: the solution of ``state.rules`` (default: :func:`solve`).

    Returns:
        The :class:`~dicemath.core.advice.Advice` (game ``"pig"``, unit ``"win
        probability"`` of the player to move, exact): one option ``roll`` at turn total 0
        (PIG-2), else ``roll`` and ``hold``; ties go to the hold. Its extras: ``to_move``,
        ``scores``, ``turn_total``, ``goal`` and ``hold_at`` (the hold threshold of this pair
        of scores, :meth:`~dicemath.games.pig.solver.PigSolution.hold_threshold`).

    Raises:
        InvalidStateError: the game is over, or the die is rolling (nobody decides).

    Example:
        >>> from dicemath.games.pig.state import initial_state
        >>> advice = advise(initial_state())
        >>> [o.text for o in advice.options], round(advice.best.value, 4)
        (['roll'], 0.5306)
    """
    if state.is_over():
        raise InvalidStateError(f"the game {state} is over: player {state.to_move} has won; nothing to decide")
    if state.rolling:
        raise InvalidStateError(f"the die is rolling in {state}: nothing to decide until it shows a face")
    solution = solution or solve(state.rules)
    if solution.rules != state.rules:
        raise InvalidStateError(f"a state of {state.rules} needs the solution of those rules, not of {solution.rules}")
    me = state.to_move
    score, other, turn = state.scores[me], state.scores[1 - me], state.turn_total
    values = solution.action_values(score, other, turn)
    order = sorted(values, key=lambda action: (-values[action], action != HOLD))
    options = tuple(Option(action, action, values[action]) for action in order)
    extras = {"to_move": PLAYER_NAMES[me], "scores": list(state.scores), "turn_total": turn,
              "goal": state.rules.goal, "hold_at": solution.hold_threshold(score, other)}
    return Advice(game=GAME, state=str(state), unit=UNIT, higher_is_better=True, exact=True, source=SOURCE,
                  options=options, extras=extras)


def win_probabilities(state: State, solution: PigSolution | None = None) -> Valued:
    """P(player 0 wins), P(player 1 wins) at any state, both playing optimally from there (PIG-6).

    Args:
        state: any state: at a decision the best action's value, while the die rolls the
            roll's, 1 and 0 at the end.
        solution: the solution of ``state.rules`` (default: :func:`solve`).

    Returns:
        The :class:`~dicemath.core.sources.Valued`, exact (see the module docstring).

    Raises:
        InvalidStateError: a solution of other rules.

    Example:
        >>> from dicemath.games.pig.state import State
        >>> [round(p, 4) for p in win_probabilities(State.from_str("1:35-62 t12 rolling")).values]
        [0.1603, 0.8397]
    """
    if state.is_over():
        return Valued(state.returns(), True)
    solution = solution or solve(state.rules)
    if solution.rules != state.rules:
        raise InvalidStateError(f"a state of {state.rules} needs the solution of those rules, not of {solution.rules}")
    mover = solution.value(state)
    return Valued((mover, 1.0 - mover) if state.to_move == 0 else (1.0 - mover, mover), True)


@dataclass(frozen=True, eq=False)
class PolicyCard:
    """The optimal policy of one variant as hold thresholds.

    Hold once the turn total reaches ``thresholds[my score, their score]``; a threshold of
    ``goal - my score`` means: roll until the hold wins. The card is exact for the
    threshold itself; above it holding stays optimal up to a point, past which rolling for
    the win is better again (:attr:`rolls_on` counts those decisions).

    Attributes:
        rules: the variant.
        thresholds: ``[my score, their score]`` -> the turn total to hold at (int array).
        rolls_on: how many decisions ``(i, j, k)`` above the threshold have rolling optimal.
        decisions: the decisions of the solution (every ``(i, j, k)`` with ``i + k < goal``).
        first_player_win_probability: P(player 0 wins) with optimal play.
        step: the score step of the printed grid.
    """

    rules: Rules
    thresholds: np.ndarray = field(repr=False)
    rolls_on: int
    decisions: int
    first_player_win_probability: float
    step: int = 10

    @property
    def scores(self) -> list[int]:
        """The scores printed in the grid: ``0, step, 2 step, ...`` below the goal."""
        return list(range(0, self.rules.goal, self.step))

    def grid(self) -> list[list[int]]:
        """The printed thresholds: rows my score, columns their score (:attr:`scores`)."""
        return [[int(self.thresholds[i, j]) for j in self.scores] for i in self.scores]

    def as_dict(self) -> dict:
        """The JSON of ``dicemath pig policy``: ``goal``, ``step``, ``scores``, ``hold_at`` (the
        grid), ``hold_at_every_score`` (the full table), ``rolls_on``, ``decisions`` and
        ``first_player_win_probability``."""
        return {"game": GAME, "goal": self.rules.goal, "step": self.step, "scores": self.scores,
                "hold_at": self.grid(), "hold_at_every_score": self.thresholds.tolist(),
                "rolls_on": self.rolls_on, "decisions": self.decisions,
                "first_player_win_probability": self.first_player_win_probability}

    def __str__(self) -> str:
        scores = self.scores
        width = max(3, len(str(self.rules.goal)))
        head = "my score \\ theirs " + " ".join(f"{s:>{width}}" for s in scores)
        rows = [f"{i:>17} " + " ".join(f"{t:>{width}}" for t in row) for i, row in zip(scores, self.grid())]
        return "\n".join([f"Pig to {self.rules.goal}: hold when the turn total reaches", head, *rows,
                          (f"(a number equal to {self.rules.goal} - my score: roll until the hold wins; "
                           f"rolling on above the number is optimal again in {self.rolls_on:,} of the "
                           f"{self.decisions:,} decisions)")])


def policy_card(rules: Rules = STANDARD, step: int = 10, solution: PigSolution | None = None) -> PolicyCard:
    """The hold thresholds of the optimal policy (:class:`PolicyCard`).

    Args:
        rules: the variant.
        step: the score step of the printed grid (1..goal).
        solution: the solution of ``rules`` (default: :func:`solve`).

    Raises:
        InvalidStateError: a step outside 1..goal.

    Example:
        >>> card = policy_card()
        >>> int(card.thresholds[0, 0]), int(card.thresholds[50, 50]), int(card.thresholds[90, 0])
        (21, 21, 10)
    """
    if isinstance(step, bool) or not isinstance(step, int) or not 1 <= step <= rules.goal:
        raise InvalidStateError(f"the card's step must be a whole number 1..{rules.goal}, got {step!r}")
    solution = solution or solve(rules)
    return PolicyCard(rules, solution.thresholds(), len(solution.rolls_above_threshold()), solution.states,
                      solution.first_player_win_probability, step)
