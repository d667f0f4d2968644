"""Exact optimal solitaire play on reduced boards.

A *reduced board* has only a given set of rows open (the others already in). The value
``V(b)`` of a board is the expected number of turns to finish from it. A turn moves the
board forward or leaves it where it was (no legal row, PEGS-4 / FIVES-2, or an overthrow,
PEGS-6), so ``V(b)`` refers to itself:

    V(b) = 1 + sum_throws p(throw) * min_row [ stay(row) V(b) + rest(row) ]

where ``stay``/``rest`` come from the exact within-turn model (:class:`.turn.TurnValue`),
whose later choices in the same turn only reach boards beyond ``b``. Boards are solved
successors first (decreasing total progress) and each equation is solved exactly by
:func:`dicemath.core.mdp.solve_self_referential`. With ``exact=True`` every value is a
:class:`fractions.Fraction`; otherwise float64.

Greedy play (most hits, ties to the higher row) and any other policy are evaluated by the
same recursion with the choice fixed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product
from typing import Any

from dicemath.core.mdp import DecisionOutcome, solve_self_referential
from dicemath.core.progress import progress
from dicemath.games.pegs_fives.rules import Rules
from dicemath.games.pegs_fives.state import (
    BoardTuple, Policy, check_board, check_open_rows, check_roll, greedy_policy, grouped_choice_throws,
    legal_rows)
from dicemath.games.pegs_fives.turn import TurnValue, open_rows_of


def reduced_boards(rules: Rules, open_rows: Sequence[int]) -> list[BoardTuple]:
    """Every board with only ``open_rows`` below the goal, successors first.

    Example:
        >>> from dicemath.games.pegs_fives.rules import PEGS
        >>> boards = reduced_boards(PEGS, [3, 8])
        >>> len(boards), boards[0][2], boards[-1][2], boards[-1][7]
        (36, 5, 0, 0)
    """
    rows = check_open_rows(open_rows, rules)
    boards = []
    for steps in product(range(rules.goal + 1), repeat=len(rows)):
        board = [rules.goal] * rules.rows
        for r, s in zip(rows, steps):
            board[r - 1] = s
        boards.append(tuple(board))
    boards.sort(key=lambda b: -sum(b))
    return boards


@dataclass
class ReducedSolution:
    """Values (expected turns to finish) and choices on a reduced board.

    Attributes:
        rules: the game.
        open_rows: the rows open at the start.
        values: ``board -> expected turns`` (Fraction when exact, else float).
        choices: ``board -> {legal tuple of the first choice throw -> chosen row}``.
        policy_name: ``"optimal"`` or the name of the evaluated policy.
    """

    rules: Rules
    open_rows: tuple[int, ...]
    values: dict[BoardTuple, Fraction | float]
    choices: dict[BoardTuple, dict[tuple[tuple[int, int], ...], int]] = field(repr=False)
    policy_name: str = "optimal"

    @property
    def start(self) -> BoardTuple:
        """The board with every open row at 0."""
        return tuple(0 if r in self.open_rows else self.rules.goal for r in range(1, self.rules.rows + 1))

    @property
    def expected_turns(self) -> Fraction | float:
        """Expected turns from the start board."""
        return self.values[self.start]

    def value(self, board: Sequence[int]) -> Fraction | float:
        """Expected turns to finish from ``board`` (a board of this reduced game)."""
        b = check_board(board, self.rules)
        if b not in self.values:
            from dicemath.games.pegs_fives.state import InvalidBoardError
            raise InvalidBoardError(f"board {b} has rows open outside {self.open_rows}")
        return self.values[b]

    def best_row(self, board: Sequence[int], throw: Sequence[int]) -> int | None:
        """The optimal row after the first choice throw of a turn (None: no legal row)."""
        b = tuple(board)
        legal = legal_rows(b, check_roll(throw, self.rules.dice), self.rules.goal)
        if not legal:
            return None
        return self.choices[b][legal]

    def _repr_markdown_(self) -> str:
        return (f"**{self.rules.name}**, open rows {list(self.open_rows)}: "
                f"{float(self.expected_turns):.4f} expected turns ({self.policy_name})")


def solve_reduced(rules: Rules, open_rows: Sequence[int], *, exact: bool | None = None,
                  policy: Policy | None = None, policy_name: str | None = None) -> ReducedSolution:
    """Minimise the expected number of turns to finish a reduced board, exactly.

    Args:
        rules: :data:`~.rules.PEGS` or :data:`~.rules.FIVES` (or a variant).
        open_rows: the rows still open (1..12); the others count as in / complete.
        exact: Fractions (True) or float64 (False). Default: exact up to 2 open rows.
        policy: evaluate this fixed policy instead of optimising (e.g.
            :func:`~.state.greedy_policy`).
        policy_name: a label for the result.

    Returns:
        A :class:`ReducedSolution` with the value of every board of the reduced game.

    Raises:
        InvalidBoardError: an invalid row number or no open row.

    Example:
        Pegs with only row 1 open: the exact expected number of turns.

        >>> from dicemath.games.pegs_fives.rules import PEGS
        >>> s = solve_reduced(PEGS, [1], exact=True)
        >>> round(float(s.expected_turns), 4)
        4.3842
    """
    rows = check_open_rows(open_rows, rules)
    if exact is None:
        exact = len(rows) <= 2
    zero = Fraction(0) if exact else 0.0
    one = zero + 1
    values: dict[BoardTuple, Fraction | float] = {}
    choices: dict[BoardTuple, dict[tuple[tuple[int, int], ...], int]] = {}

    def value(board: BoardTuple) -> Fraction | float:
        return values[board]

    evaluator = TurnValue(rules, value, exact=exact, chooser=policy)
    after = None if rules.throws is None else rules.throws - 1
    total = 6 ** rules.dice
    boards = reduced_boards(rules, rows)
    for board in progress(boards, desc=f"{rules.name} solve {list(rows)}", total=len(boards)):
        if all(s >= rules.goal for s in board):
            values[board] = zero
            continue
        outcomes: list[tuple[Fraction | float, list[DecisionOutcome[Any]]]] = []
        made: dict[tuple[int, int], DecisionOutcome[Any]] = {}
        keys = []
        rows_chosen = []
        for weight, legal in grouped_choice_throws(rules.dice, open_rows_of(board, rules.goal)):
            p = Fraction(weight, total) if exact else weight / total
            if not legal:
                outcomes.append((p, []))
                continue
            options = legal if policy is None else [(r, h) for r, h in legal
                                                     if r == policy(board, legal, rules.dice, rules.throws)]
            decisions = []
            for r, h in options:
                decision = made.get((r, h))
                if decision is None:
                    decision = made[(r, h)] = DecisionOutcome(*evaluator.option(board, r, h, rules.dice, after))
                decisions.append(decision)
            outcomes.append((p, decisions))
            keys.append(legal)
            rows_chosen.append([r for r, _ in options])
        v, picks = solve_self_referential(one, outcomes, "min")
        values[board] = v
        chosen = {}
        index = 0
        for (_p, decisions), pick in zip(outcomes, picks):
            if decisions:
                chosen[keys[index]] = rows_chosen[index][pick]
                index += 1
        choices[board] = chosen
    return ReducedSolution(rules, rows, values, choices,
                           policy_name or ("optimal" if policy is None else str(getattr(policy, "__name__", "policy"))))


def solve_greedy(rules: Rules, open_rows: Sequence[int], *, exact: bool | None = None) -> ReducedSolution:
    """Exact expected turns of the greedy policy (most hits, ties to the higher row)."""
    return solve_reduced(rules, open_rows, exact=exact, policy=greedy_policy, policy_name="greedy")
