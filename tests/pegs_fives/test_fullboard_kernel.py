"""The compiled Fives kernel against the exact reference solver (``solve_reduced``) and the
within-turn model (``TurnValue``): every mode, float64 and Fractions, a ``marks`` variant;
against the numba kernel it replaced (revision 3ccf0bf), bit for bit on the paths with fused
multiply-adds (avx512, avx2: the arithmetic order is the numba kernel's) and within float64
rounding on the portable path."""

from __future__ import annotations

import hashlib
import os
import random
import subprocess
import sys
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

import dicemath
from dicemath.core.errors import IllegalMoveError, InvalidRulesError
from dicemath.games.pegs_fives.advisor import Advisor, board_value
from dicemath.games.pegs_fives.fullboard import _fives_c
from dicemath.games.pegs_fives.fullboard.driver import solve_sequential, solve_table
from dicemath.games.pegs_fives.fullboard.fives_kernel import (
    POLICIES, SIMD, FivesKernel, axis_coefficients, fives_tables)
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


NUMBA_DIGESTS = {
    ("optimal", "float64"): "9485504f9f6a8649", ("greedy", "float64"): "90518646947713bc",
    ("safe_greedy", "float64"): "810ef99f9ce64444", ("lookahead", "float64"): "2b9194ef016f1e41",
    ("optimal", "float32"): "c8321d384348c8a7", ("greedy", "float32"): "fbd31d8c2af5066d",
    ("safe_greedy", "float32"): "d6461875b68b9d97", ("lookahead", "float32"): "631978a705fe0dfc",
}
"""sha256 (16 hex digits) of the tables of rows (1, 3, 6, 8, 11, 12) by the numba kernel of
revision 3ccf0bf on an AVX-512 machine (:func:`digest_tables`); the lookahead's guide is the
optimal table times 1.01."""

NUMBA_SLABS_DIGEST = "31b5ff4ec97ce5fb"
"""The same for ``solve_table(FIVES, 5..12, workers=1)`` (the slab lanes), float64."""


def digest(E):
    return hashlib.sha256(np.ascontiguousarray(E).tobytes()).hexdigest()[:16]


def digest_tables():
    kernel = FivesKernel(FIVES, (1, 3, 6, 8, 11, 12))
    found = {}
    for dtype in (np.float64, np.float32):
        optimal = solve_sequential(kernel, np.zeros(kernel.layout.size, dtype))
        for policy in POLICIES:
            guide = optimal * np.array(1.01, dtype) if policy == "lookahead" else None
            found[policy, np.dtype(dtype).name] = digest(
                solve_sequential(kernel, np.zeros(kernel.layout.size, dtype), policy=policy, guide=guide))
    return found


@pytest.mark.skipif(SIMD == "scalar", reason="the portable path does not fuse multiply-adds (numba did)")
def test_every_mode_equals_the_numba_kernel_bit_for_bit():
    assert digest_tables() == NUMBA_DIGESTS
    assert digest(solve_table(FIVES, range(5, 13), workers=1)) == NUMBA_SLABS_DIGEST


def test_min_program_takes_the_minimum_of_every_list_with_fewer_comparisons():
    tables = fives_tables(FIVES, tuple(range(1, 13)))
    rng = np.random.default_rng(7)
    for _ in range(3):
        values = list(rng.random(tables.entries))
        for a, b in tables.nodes:
            values.append(min(values[a], values[b]))
        for entries, items in zip(tables.lists, tables.items):
            assert min(values[e] for e in entries) == min(values[i] for i in items)
    comparisons = len(tables.nodes) + sum(len(items) - 1 for items in tables.items)
    assert comparisons < 0.4 * sum(len(set(entries)) - 1 for entries in tables.lists)
    assert all(max(pair) < tables.entries + n for n, pair in enumerate(tables.nodes))


def test_the_c_kernel_refuses_inconsistent_tables():
    kernel = FivesKernel(FIVES, (2, 5))
    E = np.zeros(kernel.layout.size)
    with pytest.raises(ValueError, match="geometry"):
        _fives_c.solve(kernel._geo[:-1], kernel._floats, E, E, np.array([0]), 0, True)
    with pytest.raises(ValueError, match="geometry"):
        _fives_c.solve(kernel._geo, kernel._floats[:-1], E, E, np.array([0]), 0, True)
    with pytest.raises(ValueError, match="range"):
        _fives_c.solve(kernel._geo, kernel._floats, E, E, np.array([kernel.layout.last]), 0, True)


PATH_CHILD = """
import sys
import numpy as np
from dicemath.games.pegs_fives.fullboard.driver import solve_sequential, solve_slabs
from dicemath.games.pegs_fives.fullboard.fives_kernel import POLICIES, SIMD, FivesKernel
from dicemath.games.pegs_fives.rules import FIVES

kernel = FivesKernel(FIVES, (2, 4, 7, 9, 11))
values = {"path": np.array(SIMD)}
for dtype in (np.float64, np.float32):
    optimal = solve_sequential(kernel, np.zeros(kernel.layout.size, dtype))
    for policy in POLICIES:
        guide = optimal * np.array(1.01, dtype) if policy == "lookahead" else None
        values[f"{policy}-{np.dtype(dtype).name}"] = solve_sequential(
            kernel, np.zeros(kernel.layout.size, dtype), policy=policy, guide=guide)
        plan = kernel.layout.slabs(2)
        E = np.zeros(kernel.layout.size, dtype)
        for group in plan.groups(16):
            solve_slabs(kernel, plan, E, group, policy, guide)
        values[f"{policy}-{np.dtype(dtype).name}-slabs"] = E
np.savez(sys.argv[1], **values)
"""


def values_on_path(simd, out):
    package_root = str(Path(dicemath.__file__).resolve().parents[1])
    env = dict(os.environ, DICEMATH_SIMD=simd,
               PYTHONPATH=os.pathsep.join(p for p in (package_root, os.environ.get("PYTHONPATH")) if p))
    run = subprocess.run([sys.executable, "-c", PATH_CHILD, str(out)], env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    with np.load(out) as found:
        return {key: found[key] for key in found.files}


def test_every_code_path_gives_the_same_values(tmp_path):
    # avx512 and avx2 fuse the same multiply-adds: bit for bit; the portable path does not.
    by_path = {simd: values_on_path(simd, tmp_path / f"{simd}.npz") for simd in _fives_c.PATHS}
    assert _fives_c.PATHS[-1] == "scalar" and SIMD == _fives_c.PATHS[0]
    first = by_path[_fives_c.PATHS[0]]
    for simd, values in by_path.items():
        assert str(values.pop("path")) == simd
        for key, table in values.items():
            if simd == "scalar":
                tolerance = 1e-12 if table.dtype == np.float64 else 1e-5
                assert np.abs(table.astype(np.float64) - first[key]).max() < tolerance, (simd, key)
            else:
                assert np.array_equal(table, first[key]), (simd, key)
            assert np.array_equal(table, values[key.removesuffix("-slabs")])


def test_an_unknown_code_path_is_refused_at_import():
    env = dict(os.environ, DICEMATH_SIMD="avx1024")
    run = subprocess.run([sys.executable, "-c", "import dicemath.games.pegs_fives.fullboard._fives_c"], env=env,
                         capture_output=True, text=True)
    assert run.returncode != 0 and "DICEMATH_SIMD=avx1024" in run.stderr
