"""Whole games played by a table's policy, with seeded dice (simulation).

The exact tables give expected values; the *distribution* of the number of turns from the
empty board is estimated here by playing whole games with the engine
(:func:`..state.play_game`, PEGS-3..9 / FIVES-2..5) and the policy of a table: at every
choice throw the row whose one-turn lookahead on the table's values is least
(:class:`..advisor.Advisor` with :class:`TableValue`). On the optimal table that is optimal
play (the kernel's ``lookahead`` mode on the optimal table reproduces it, tested).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import numpy as np

from dicemath.core.progress import progress
from dicemath.games.pegs_fives.advisor import Advisor
from dicemath.games.pegs_fives.fullboard.layout import BoardLayout
from dicemath.games.pegs_fives.rules import Rules
from dicemath.games.pegs_fives.state import BoardTuple, Policy, play_game, play_turns


class TableValue:
    """A board's value read from a table (float64), as a board-value function.

    Args:
        layout: the table's layout; boards must be boards of it (closed rows at the goal).
        values: the table.
    """

    def __init__(self, layout: BoardLayout, values: np.ndarray):
        self.values = values
        self.strides = {row: stride for row, stride in zip(layout.rows, layout.strides)}

    def __call__(self, board: Sequence[int]) -> float:
        return float(self.values[sum(board[row - 1] * stride for row, stride in self.strides.items())])


def table_policy(rules: Rules, layout: BoardLayout, values: np.ndarray) -> Policy:
    """The one-turn lookahead on ``values`` as a :data:`..state.Policy` (optimal play on
    the optimal table)."""
    return Advisor(rules, TableValue(layout, values)).policy


def recording(policy: Policy, visit: Callable[[BoardTuple], None]) -> Policy:
    """``policy`` that also reports every board at which it chooses a row to ``visit``."""

    def choose(board, legal, dice, throws):
        visit(board)
        return policy(board, legal, dice, throws)

    return choose


def simulate_games(rules: Rules, policy: Policy, games: int, seed: int, *, board: Sequence[int] | None = None,
                   max_turns: int = 10_000) -> np.ndarray:
    """Turns taken by ``games`` whole games from ``board`` (default: the empty board; int64
    array), seeded.

    Raises:
        RuntimeError: a game exceeded ``max_turns``.
    """
    rng = random.Random(seed)
    return np.array([play_game(rules, policy, rng, board=board, max_turns=max_turns)
                     for _ in progress(range(games), desc=f"{rules.name} games", unit="game")], dtype=np.int64)


def unfinished_games(rules: Rules, policy: Policy, games: int, seed: int, *, max_turns: int,
                     board: Sequence[int] | None = None) -> tuple[np.ndarray, list[BoardTuple]]:
    """Play ``games`` seeded games from ``board`` (default: the empty board) for at most
    ``max_turns`` turns each:
    the turns of the games that finished (int64 array) and the board where each other game
    stood after ``max_turns`` turns (a policy that never finishes from some boards, like
    Pegs' greedy, leaves games there; :func:`..turn.stays_forever` tells whether it is
    such a board)."""
    rng = random.Random(seed)
    finished, stuck = [], []
    for _ in progress(range(games), desc=f"{rules.name} games", unit="game"):
        state = play_turns(rules, policy, rng, board=board, max_turns=max_turns)
        if state.over:
            finished.append(state.turns)
        else:
            stuck.append(state.board)
    return np.array(finished, dtype=np.int64), stuck
