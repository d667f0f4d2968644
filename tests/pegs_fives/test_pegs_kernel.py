"""The compiled Pegs kernel against the exact reduced solver and the within-turn model."""

from __future__ import annotations

import random
import threading
from itertools import combinations
from fractions import Fraction

import numpy as np
import pytest

from dicemath.core.dice import multisets
from dicemath.core.errors import IllegalMoveError, InvalidRulesError
from dicemath.core.mdp import DecisionOutcome, solve_self_referential
from dicemath.games.pegs_fives.advisor import Advisor, board_value
from dicemath.games.pegs_fives.fullboard.pegs_kernel import MAX_HITS, PegsKernel, cycle_tables, option_table
from dicemath.games.pegs_fives.rules import PEGS
from dicemath.games.pegs_fives.solver import solve_reduced
from dicemath.games.pegs_fives.state import InvalidBoardError, SafeGreedy, greedy_policy, grouped_choice_throws
from dicemath.games.pegs_fives.turn import TurnValue, stays_forever


def board_of(kernel: PegsKernel, index: int) -> tuple[int, ...]:
    """The full 12-row board tuple of a table index (rows outside ``kernel.rows`` complete)."""
    board = [kernel.rules.goal] * kernel.rules.rows
    for row, step in zip(kernel.rows, kernel.digits(index)):
        board[row - 1] = int(step)
    return tuple(board)


def drive(kernel: PegsKernel, policy: str = "optimal", guide=None, dtype=np.float64) -> np.ndarray:
    """The simple sequential driver: totals from high to low, one ``solve`` per total."""
    index = np.arange(kernel.size, dtype=np.int64)
    total = sum((index // kernel.base ** j) % kernel.base for j in range(len(kernel.rows)))
    E = np.zeros(kernel.size, dtype)
    for t in range(int(total.max()), -1, -1):
        kernel.solve(E, index[total == t], policy=policy, guide=guide)
    return E


def reference(kernel: PegsKernel, solution) -> np.ndarray:
    """The reduced solver's values in the kernel's layout."""
    return np.array([float(solution.values[board_of(kernel, i)]) for i in range(kernel.size)])


def guide_table(kernel: PegsKernel, value) -> np.ndarray:
    return np.array([value(board_of(kernel, i)) for i in range(kernel.size)])


def assert_matches_solver(rows, rules=PEGS, tolerance=1e-9):
    kernel = PegsKernel(rules, rows)
    expected = reference(kernel, solve_reduced(rules, rows, exact=False))
    np.testing.assert_allclose(drive(kernel), expected, rtol=0, atol=tolerance)


def test_cycle_tables_are_probability_distributions():
    # Overthrow, every end or restart and the PEGS-7 choice throws: probabilities summing
    # to 1 for every option; with `last` the terms after the row goes in are dropped.
    rows = tuple(range(1, 13))
    table = cycle_tables(PEGS, rows)
    goal = steps = PEGS.goal
    checked = 0
    for j, row in enumerate(rows):
        per_hit = PEGS.dice_per_hit[row - 1]
        for need in range(1, goal + 1):
            for dice in range(1, 7):
                for ta in range(3):
                    for h in range(1, dice // per_hit + 1):
                        column = table[option_table(PEGS, j, need, dice, ta, False), h::MAX_HITS]
                        assert abs(column[:steps + 3].sum() - 1) < 1e-14
                        assert column[steps + 1] == 0 or (ta == 2 and dice - per_hit * need > 0)
                        last = table[option_table(PEGS, j, need, dice, ta, True), h::MAX_HITS]
                        assert last[need] == last[steps + 1] == last[steps + 2] == 0
                        assert np.array_equal(last[:need], column[:need])
                        checked += 1
    assert checked > 1000


def test_a_range_from_the_highest_index_equals_the_sweep_by_totals_bit_for_bit():
    kernel = PegsKernel(PEGS, (2, 5, 9, 12))
    E = np.zeros(kernel.size, np.float32)
    kernel.solve_range(E, 0, kernel.size - 1)
    assert np.array_equal(E, drive(kernel, dtype=np.float32))
    with pytest.raises(ValueError, match="range"):
        kernel.solve_range(E, 0, kernel.size + 1)


def test_goals_beyond_the_kernel_and_bad_tables_are_refused():
    with pytest.raises(InvalidRulesError, match="goal"):
        PegsKernel(PEGS.variant(goal=7), (3, 8))
    kernel = PegsKernel(PEGS, (3, 8))
    with pytest.raises(ValueError, match="length 36"):
        kernel.solve(np.zeros(35), np.array([0]))
    with pytest.raises(ValueError, match="writable"):
        kernel.solve(_read_only(36), np.array([0]))


def _read_only(size: int) -> np.ndarray:
    table = np.zeros(size)
    table.flags.writeable = False
    return table


def test_first_example_row_12():
    # Only row 12 open: the kernel equals the exact single-row solve on every step.
    assert_matches_solver((12,))


def test_every_two_row_board_matches_the_reduced_solver():
    for rows in combinations(range(1, 13), 2):
        assert_matches_solver(rows)


@pytest.mark.parametrize("rows", [(1, 6, 12), (3, 7, 8), (2, 9, 11)])
def test_some_three_row_boards_match_the_reduced_solver(rows):
    assert_matches_solver(rows)


@pytest.mark.slow
def test_every_three_row_board_matches_the_reduced_solver():
    for rows in combinations(range(1, 13), 3):
        assert_matches_solver(rows)


@pytest.mark.slow
def test_sampled_four_and_five_row_boards_match_the_reduced_solver():
    rng = random.Random(10)
    for size, count in ((4, 4), (5, 2)):
        for _ in range(count):
            assert_matches_solver(tuple(sorted(rng.sample(range(1, 13), size))))


def _assert_matches_fractions(rows):
    kernel = PegsKernel(PEGS, rows)
    solution = solve_reduced(PEGS, rows, exact=True)
    E = drive(kernel)
    for i in range(kernel.size):
        exact = solution.values[board_of(kernel, i)]
        assert isinstance(exact, Fraction)
        assert abs(E[i] - exact) <= 1e-12 * max(1, exact)


@pytest.mark.parametrize("rows", [(r,) for r in range(1, 13)] + [(1, 2), (5, 12), (6, 7)])
def test_exact_fractions_on_one_and_two_rows(rows):
    _assert_matches_fractions(rows)


@pytest.mark.slow
def test_exact_fractions_on_every_two_row_board():
    for rows in combinations(range(1, 13), 2):
        _assert_matches_fractions(rows)


@pytest.mark.parametrize("rows", [(3, 8), (2, 7, 11), (1, 6, 12)])
def test_greedy_and_safe_greedy_equal_the_solver_with_that_policy(rows):
    kernel = PegsKernel(PEGS, rows)
    for name, policy in (("greedy", greedy_policy), ("safe_greedy", SafeGreedy(PEGS.goal))):
        expected = reference(kernel, solve_reduced(PEGS, rows, exact=False, policy=policy))
        np.testing.assert_allclose(drive(kernel, name), expected, rtol=0, atol=1e-9)


@pytest.mark.parametrize("rows", [(3, 8), (2, 7, 11), (4, 5, 12), (2, 3, 4)])
def test_lookahead_equals_the_advisor_policy_with_the_same_guide(rows):
    """Rows 2, 3, 4 (one die a hit each): the fitted guide ties often between them, so the
    tie-break (more hits, then the higher row) decides many throws."""
    kernel = PegsKernel(PEGS, rows)
    value = board_value(PEGS)
    guide = guide_table(kernel, value)
    expected = reference(kernel, solve_reduced(PEGS, rows, exact=False, policy=Advisor(PEGS, value).policy))
    got = drive(kernel, "lookahead", guide)
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-9)
    # The guide only chooses: a different guide gives different values.
    assert np.abs(got - guide).max() > 0.01


@pytest.mark.parametrize("rows", [(2, 3, 4), (8, 9, 11)])
def test_lookahead_breaks_ties_in_the_guide_as_the_advisor(rows):
    """A guide of whole numbers (the open rows) makes many options tie exactly, between rows
    whose real values differ: the tie-break (more hits, then the higher row) decides them,
    as in the advisor (a later row winning ties only with more hits is 0.005 and 0.08 off)."""
    kernel = PegsKernel(PEGS, rows)

    def open_rows(board):
        return float(sum(s < PEGS.goal for s in board))

    guide = guide_table(kernel, open_rows)
    expected = reference(kernel, solve_reduced(PEGS, rows, exact=False, policy=Advisor(PEGS, open_rows).policy))
    np.testing.assert_allclose(drive(kernel, "lookahead", guide), expected, rtol=0, atol=1e-9)


def test_lookahead_escapes_a_trap_of_its_guide_as_the_advisor():
    """On a trap of the fitted value (rows 1..8 and 10 one step from the top) the plain
    lookahead overthrows on every throw; the kernel, like ``Advisor.start_value``, then values
    the board by its own equation under the guide and plays from there. Checked against the
    advisor's policy valued by the within-turn model, with the table's values on the 2**9
    boards the turn can reach (the rest of the table is never read)."""
    kernel = PegsKernel(PEGS, (1, 2, 3, 4, 5, 6, 7, 8, 10))
    trap = (4,) * 8 + (5, 4, 5, 5)
    fitted = board_value(PEGS)
    guide = np.zeros(kernel.size, np.float32)
    reachable = [np.array(b) for b in np.ndindex(*(2,) * 9)]
    for steps in reachable:
        board = list(trap)
        for row, step in zip(kernel.rows, 4 + steps):
            board[row - 1] = int(step)
        guide[kernel.layout.index(board)] = fitted(board)
    index = kernel.layout.index(trap)
    E = guide.copy()
    kernel.solve(E, np.array([index]), policy="lookahead", guide=guide)
    table = lambda b: float(guide[kernel.layout.index(b)])                      # noqa: E731
    advisor = Advisor(PEGS, table)
    assert stays_forever(PEGS, trap, Advisor(PEGS, table, escape_traps=False).policy)
    evaluator = TurnValue(PEGS, table, exact=False, chooser=advisor.policy)
    outcomes = []
    for weight, legal in grouped_choice_throws(6, tuple(r for r in kernel.rows)):
        if not legal:
            outcomes.append((weight / 6 ** 6, []))
            continue
        row = advisor.policy(trap, legal, 6, 3)
        outcomes.append((weight / 6 ** 6, [DecisionOutcome(*evaluator.option(trap, row, dict(legal)[row], 6, 2))]))
    expected, _ = solve_self_referential(1.0, outcomes)
    assert float(E[index]) == pytest.approx(expected, abs=float(np.spacing(np.float32(expected))))   # float32 table


def test_lookahead_with_the_optimal_values_as_guide_is_optimal():
    kernel = PegsKernel(PEGS, (2, 8, 12))
    optimal = drive(kernel)
    np.testing.assert_allclose(drive(kernel, "lookahead", optimal), optimal, rtol=0, atol=1e-9)


@pytest.mark.parametrize("rows", [(4, 9, 12), (1, 2, 7)])
def test_option_values_equal_the_within_turn_model(rows):
    kernel = PegsKernel(PEGS, rows)
    E = drive(kernel)
    model = TurnValue(PEGS, lambda b: float(E[_index_of(kernel, b)]))
    rng = random.Random(3)
    checked = 0
    for board in rng.sample(range(kernel.size - 1), 12):
        b = board_of(kernel, board)
        for dice, throws in ((6, 3), (5, 2), (4, 2), (3, 1), (2, 2), (1, 1), (6, 2), (5, 3)):
            for faces, _ in multisets(dice):
                options = kernel.option_values(E, board, faces, dice, throws)
                legal = [(row, h) for row, h in _legal(kernel, b, faces)]
                assert [(row, h) for row, h, _, _ in options] == legal
                for row, h, stay, rest in options:
                    want = model.option(b, row, h, dice, throws - 1)
                    assert stay == pytest.approx(want[0], abs=1e-12)
                    assert rest == pytest.approx(want[1], abs=1e-9)
                    checked += 1
    assert checked > 1000


def _index_of(kernel: PegsKernel, board) -> int:
    return sum(board[row - 1] * kernel.base ** j for j, row in enumerate(kernel.rows))


def _legal(kernel: PegsKernel, board, faces):
    from dicemath.games.pegs_fives.state import legal_rows

    return legal_rows(board, faces, kernel.rules.goal)


def test_option_values_rejects_bad_input():
    kernel = PegsKernel(PEGS, (3, 8))
    E = drive(kernel)
    with pytest.raises(InvalidBoardError):
        kernel.option_values(E, 36, (1, 2, 3, 4, 5, 6), 6, 3)
    with pytest.raises(IllegalMoveError, match="throws"):
        kernel.option_values(E, 0, (1, 2, 3, 4, 5, 6), 6, 4)
    with pytest.raises(IllegalMoveError, match="dice"):
        kernel.option_values(E, 0, (1, 2, 3, 4, 5, 6, 6), 7, 3)
    with pytest.raises(Exception, match="expected a throw of 5 dice"):
        kernel.option_values(E, 0, (1, 2, 3, 4, 5, 6), 5, 3)


@pytest.mark.parametrize("goal,rows", [(3, (2, 7)), (4, (1, 12)), (3, (3, 8, 11)), (4, (6, 7, 9))])
def test_steps_variant(goal, rows):
    assert_matches_solver(rows, PEGS.variant(goal=goal))


@pytest.mark.parametrize("field,value", [("fresh_budget_on_all_dice", False), ("throws", None),
                                         ("overthrow", False), ("on_complete", "fresh"),
                                         ("all_dice_first", False), ("dice", 5), ("throws", 2)])
def test_unsupported_variant_names_the_field(field, value):
    with pytest.raises(InvalidRulesError, match=field):
        PegsKernel(PEGS.variant(**{field: value}), (1, 2))


def test_bad_arguments():
    kernel = PegsKernel(PEGS, (3, 8))
    E = np.zeros(kernel.size)
    with pytest.raises(ValueError, match="policy"):
        kernel.solve(E, np.array([0]), policy="best")
    with pytest.raises(ValueError, match="guide"):
        kernel.solve(E, np.array([0]), policy="lookahead")
    with pytest.raises(ValueError, match="length 36"):
        kernel.solve(np.zeros(35), np.array([0]))
    with pytest.raises(ValueError, match="indices"):
        kernel.solve(E, np.array([36]))
    with pytest.raises(InvalidBoardError):
        PegsKernel(PEGS, (0, 3))


def test_float32_storage_is_close_to_float64():
    kernel = PegsKernel(PEGS, (2, 7, 11))
    wide = drive(kernel)
    narrow = drive(kernel, dtype=np.float32)
    assert narrow.dtype == np.float32
    assert np.abs(narrow - wide).max() < 1e-5 * wide.max()


def test_two_threads_on_disjoint_halves_equal_one_thread():
    kernel = PegsKernel(PEGS, (1, 5, 8, 12))
    single = drive(kernel)
    index = np.arange(kernel.size, dtype=np.int64)
    total = sum((index // kernel.base ** j) % kernel.base for j in range(4))
    E = np.zeros(kernel.size)
    for t in range(int(total.max()), -1, -1):
        boards = index[total == t]
        halves = [boards[::2], boards[1::2]]
        threads = [threading.Thread(target=kernel.solve, args=(E, half)) for half in halves]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert np.array_equal(E, single)


def test_a_float32_guide_is_widened_exactly_and_a_float64_one_refused_for_float32(check_guide_dtypes):
    check_guide_dtypes(PEGS, (4, 9, 12))


def test_greedy_never_finishes_when_every_open_row_is_one_step_from_the_top():
    # Rows 1..7 at step 4: a repeated face gives a low row 2 hits, six different faces give
    # row 7 three pairs; greedy names the row with most hits, so every throw overshoots
    # (PEGS-6). Reachable from the empty board: greedy's expected turns are infinite there
    # too, safe greedy's are finite.
    kernel = PegsKernel(PEGS, tuple(range(1, 8)))
    greedy = np.zeros(kernel.size)
    kernel.solve_range(greedy, 0, kernel.size - 1, policy="greedy")
    stuck = _index_of(kernel, (4,) * 7 + (5,) * 5)
    assert np.isinf(greedy[stuck]) and np.isinf(greedy[0]) and kernel.stats[2] > 0
    assert not np.isnan(greedy).any()
    safe = np.zeros(kernel.size)
    kernel.solve_range(safe, 0, kernel.size - 1, policy="safe_greedy")
    assert np.isfinite(safe).all()
