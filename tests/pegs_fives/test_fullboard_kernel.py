"""The compiled Fives kernel against the exact reference solver (``solve_reduced``) and the
within-turn model (``TurnValue``): every mode, float64 and Fractions, a ``marks`` variant."""

from __future__ import annotations

import random
from itertools import combinations

import numpy as np
import pytest

from dicemath.core.errors import IllegalMoveError, InvalidRulesError
from dicemath.games.pegs_fives.advisor import Advisor, board_value
from dicemath.games.pegs_fives.fullboard.driver import solve_sequential
from dicemath.games.pegs_fives.fullboard.fives_kernel import FivesKernel, axis_coefficients
from dicemath.games.pegs_fives.fullboard.layout import BoardLayout
from dicemath.games.pegs_fives.rows import row_table
from dicemath.games.pegs_fives.rules import FIVES
from dicemath.games.pegs_fives.solver import solve_reduced
from dicemath.games.pegs_fives.state import (
    InvalidBoardError, InvalidRollError, SafeGreedy, greedy_policy, hit_weights)
from dicemath.games.pegs_fives.turn import TurnValue

ALL_PAIRS = list(combinations(range(1, 13), 2))
ALL_TRIPLES = list(combinations(range(1, 13), 3))


def kernel_table(rules, rows, policy="optimal", guide=None, dtype=np.float64):
    kernel = FivesKernel(rules, rows)
    return kernel, solve_sequential(kernel, np.zeros(kernel.layout.size, dtype=dtype), policy=policy, guide=guide)


def max_error(rules, rows, reference, policy="optimal", guide=None):
    kernel, E = kernel_table(rules, rows, policy, guide)
    return max(abs(E[kernel.layout.index(board)] - float(v)) for board, v in reference.values.items())


@pytest.mark.parametrize("rows", ALL_PAIRS[::5] + ALL_TRIPLES[::44])
def test_optimal_equals_the_reference_solver(rows):
    assert max_error(FIVES, rows, solve_reduced(FIVES, rows, exact=False)) < 1e-9


@pytest.mark.slow
@pytest.mark.parametrize("rows", ALL_PAIRS + ALL_TRIPLES)
def test_optimal_equals_the_reference_solver_on_every_two_and_three_row_board(rows):
    assert max_error(FIVES, rows, solve_reduced(FIVES, rows, exact=False)) < 1e-9


@pytest.mark.slow
@pytest.mark.parametrize("rows", random.Random(4).sample(list(combinations(range(1, 13), 4)), 6)
                         + random.Random(5).sample(list(combinations(range(1, 13), 5)), 2))
def test_optimal_equals_the_reference_solver_on_sampled_four_and_five_row_boards(rows):
    assert max_error(FIVES, rows, solve_reduced(FIVES, rows, exact=False)) < 1e-9


@pytest.mark.parametrize("rows", [(r,) for r in range(1, 13)] + [(1, 2), (6, 7), (5, 12)])
def test_equals_exact_fractions_on_one_and_two_row_boards(rows):
    assert max_error(FIVES, rows, solve_reduced(FIVES, rows, exact=True)) < 1e-12


@pytest.mark.slow
@pytest.mark.parametrize("rows", ALL_PAIRS)
def test_equals_exact_fractions_on_every_two_row_board(rows):
    assert max_error(FIVES, rows, solve_reduced(FIVES, rows, exact=True)) < 1e-12


@pytest.mark.parametrize("rows", [(2, 9), (1, 6, 12), (4, 7, 8)])
@pytest.mark.parametrize("policy", ["greedy", "safe_greedy"])
def test_fixed_policies_equal_the_reference_solver(rows, policy):
    chooser = greedy_policy if policy == "greedy" else SafeGreedy(FIVES.goal)
    reference = solve_reduced(FIVES, rows, exact=False, policy=chooser)
    assert max_error(FIVES, rows, reference, policy) < 1e-9


@pytest.mark.parametrize("rows", [(3, 11), (1, 5, 9), (6, 7, 8)])
def test_lookahead_on_the_fitted_guide_equals_the_advisor_policy(rows):
    # The guide is the fitted board value of the advisor; the kernel's lookahead must play
    # exactly the advisor's policy (Advisor.rank's order), valued exactly.
    layout = BoardLayout(FIVES, rows)
    fitted = board_value(FIVES)
    guide = np.array([fitted(layout.board(i)) for i in range(layout.size)])
    advisor = Advisor(FIVES, lambda b: guide[layout.index(b)])
    reference = solve_reduced(FIVES, rows, exact=False, policy=advisor.policy)
    assert max_error(FIVES, rows, reference, "lookahead", guide) < 1e-9


def test_lookahead_on_the_optimal_table_is_optimal():
    kernel, E = kernel_table(FIVES, (2, 7, 10))
    _, looked = kernel_table(FIVES, (2, 7, 10), "lookahead", E)
    assert np.abs(looked - E).max() < 1e-12


@pytest.mark.parametrize("goal", [3, 4])
def test_marks_variant_equals_the_reference_solver(goal):
    rules = FIVES.variant(goal=goal)
    for rows in [(1,), (4, 11), (2, 6, 9)]:
        assert max_error(rules, rows, solve_reduced(rules, rows, exact=False)) < 1e-9


def test_option_values_equal_the_turn_model():
    rows = (2, 5, 8, 12)
    kernel, E = kernel_table(FIVES, rows)
    layout = kernel.layout
    model = TurnValue(FIVES, lambda b: E[layout.index(b)])
    rng = random.Random(3)
    checked = 0
    for _ in range(40):
        board = rng.randrange(layout.last)
        throw = tuple(rng.randint(1, 6) for _ in range(6))
        options = kernel.option_values(E, board, throw, 6, None)
        for row, hits, stay, rest in options:
            expected = model.option(layout.board(board), row, hits, 6, None)
            assert stay == expected[0] == 0
            assert abs(rest - expected[1]) < 1e-12
            checked += 1
    assert checked > 40


@pytest.mark.parametrize("row", [1, 7, 12])
def test_axis_coefficients_rebuild_the_single_row_chain(row):
    # One row open: E(s) = 1 + W(s), W = (S + P0) / (1 - P0) with S summing the options of
    # h >= 1 hits on a choice throw (axis_coefficients applied to the exact single-row
    # values of rows.row_table, an absorbing-chain method) and P0 the chance of no hit.
    exact = [float(e) for e in row_table(FIVES, row).expected_turns_from]
    q = np.array(hit_weights(6, row), dtype=float) / 6 ** 6
    for s0 in range(5):
        v = np.array([1.0] + [exact[s] + (1.0 if s == 5 else 0.0) for s in range(s0 + 1, 6)] + [0.0] * s0)
        options = axis_coefficients(FIVES, row, s0)[1:] @ v
        w = (q[1:] @ options[:len(q) - 1] + q[0]) / (1 - q[0])
        assert abs(1 + w - exact[s0]) < 1e-12


def test_float32_storage_stays_close_to_float64():
    rows = (1, 4, 7, 10, 12)
    _, E64 = kernel_table(FIVES, rows)
    _, E32 = kernel_table(FIVES, rows, dtype=np.float32)
    assert np.abs(E32 - E64).max() < 1e-5


def test_bad_input_raises_clear_errors():
    with pytest.raises(InvalidRulesError, match="overthrow"):
        FivesKernel(FIVES.variant(overthrow=True), (1, 2))
    with pytest.raises(InvalidRulesError, match="throws"):
        FivesKernel(FIVES.variant(throws=3), (1, 2))
    with pytest.raises(InvalidBoardError):
        FivesKernel(FIVES, (0, 13))
    kernel, E = kernel_table(FIVES, (3, 4))
    with pytest.raises(ValueError, match="policy"):
        kernel.solve(E, np.array([0]), policy="best")
    with pytest.raises(ValueError, match="guide"):
        kernel.solve(E, np.array([0]), policy="lookahead")
    with pytest.raises(ValueError, match="board indices"):
        kernel.solve(E, np.array([kernel.layout.last]))
    with pytest.raises(ValueError, match="1-D"):
        kernel.solve(E[:-1], np.array([0]))
    with pytest.raises(IllegalMoveError):
        kernel.option_values(E, 0, (1, 2, 3), 3, None)
    with pytest.raises(IllegalMoveError):
        kernel.option_values(E, 0, (1, 2, 3, 4, 5, 6), 6, 2)
    with pytest.raises(InvalidRollError):
        kernel.option_values(E, 0, (1, 2, 3, 4, 5, 7), 6, None)
    with pytest.raises(InvalidBoardError):
        kernel.option_values(E, 36, (1, 2, 3, 4, 5, 6), 6, None)


@pytest.mark.parametrize("policy", ["optimal", "greedy", "safe_greedy", "lookahead"])
def test_slab_lanes_equal_the_board_set_sweep_bit_for_bit(policy):
    rows = (1, 3, 6, 8, 11, 12)
    kernel, E = kernel_table(FIVES, rows)
    guide = E if policy == "lookahead" else None
    _, expected = kernel_table(FIVES, rows, policy, guide)
    plan = kernel.layout.slabs(4)
    lanes = np.full(kernel.layout.size, np.nan)
    for group in plan.groups(16):
        kernel.solve_slabs(lanes, np.array(group), plan.top, policy=policy, guide=guide)
    assert np.array_equal(lanes, expected)
    with pytest.raises(ValueError, match="slabs"):
        kernel.solve_slabs(lanes, np.arange(17), plan.top)
