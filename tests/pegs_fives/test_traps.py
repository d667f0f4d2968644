"""Boards a fixed policy never leaves (turn.stays_forever) against the compiled kernel's
policy evaluation, and seeded games that stop on them (fullboard.simulate)."""

from __future__ import annotations

import numpy as np

from dicemath.games.pegs_fives.fullboard.pegs_kernel import PegsKernel
from dicemath.games.pegs_fives.fullboard.simulate import unfinished_games
from dicemath.games.pegs_fives.rules import FIVES, PEGS
from dicemath.games.pegs_fives.state import SafeGreedy, greedy_policy
from dicemath.games.pegs_fives.turn import stays_forever, turn_distribution

ROWS = tuple(range(1, 8))
START = (0,) * 7 + (5,) * 5


def _boards(kernel: PegsKernel) -> list[tuple[int, ...]]:
    return [tuple(int(s) for s in kernel.digits(i)) + (5,) * 5 for i in range(kernel.size)]


def _evaluate(kernel: PegsKernel, policy: str) -> np.ndarray:
    values = np.zeros(kernel.size)
    kernel.solve_range(values, 0, kernel.size - 1, policy=policy)
    return values


def test_the_boards_greedy_never_leaves_are_the_kernels_stuck_boards():
    # The kernel counts the boards whose one-turn stay probability is 1 (to 1e-15); the
    # enumeration of the first throws decides it exactly: both must find the same boards.
    kernel = PegsKernel(PEGS, ROWS)
    values = _evaluate(kernel, "greedy")
    traps = [i for i, board in enumerate(_boards(kernel)) if stays_forever(PEGS, board, greedy_policy)]
    assert len(traps) == kernel.stats[2] > 0
    assert np.isinf(values[traps]).all()


def test_safe_greedy_never_stays_where_greedy_does_and_the_kernel_agrees():
    kernel = PegsKernel(PEGS, ROWS)
    assert np.isfinite(_evaluate(kernel, "safe_greedy")).all() and kernel.stats[2] == 0
    assert not stays_forever(PEGS, (4,) * 7 + (5,) * 5, SafeGreedy(PEGS.goal))
    assert stays_forever(PEGS, (4,) * 7 + (5,) * 5, greedy_policy)


def test_stays_forever_is_the_turns_exact_stay_probability_being_one():
    # Second method: the exact end-of-turn distribution (whole turns followed to the end).
    for board in [(4,) * 7 + (5,) * 5, (4, 4, 3, 4, 4, 4, 4) + (5,) * 5, (5,) * 11 + (4,), (5,) * 10 + (3, 0)]:
        assert stays_forever(PEGS, board) == (turn_distribution(PEGS, board).get(board) == 1)
    assert not stays_forever(FIVES, (4,) * 12)             # a mark is never lost (FIVES-2)
    assert not stays_forever(PEGS, (5,) * 12)               # the game is over


def test_games_that_greedy_does_not_finish_stand_on_proven_traps():
    # From the empty board of rows 1..7 the kernel values greedy at infinity: some seeded
    # games must get stuck (about 1 in 1,000), each on a board it never leaves.
    kernel = PegsKernel(PEGS, ROWS)
    assert np.isinf(_evaluate(kernel, "greedy")[0])
    finished, stopped = unfinished_games(PEGS, greedy_policy, 2000, 5, max_turns=300, board=START)
    assert stopped and all(stays_forever(PEGS, board) for board in stopped)
    assert len(finished) + len(stopped) == 2000 and (finished <= 300).all()
