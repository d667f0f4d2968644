"""Exact cubeful bear-off equities (dicemath.games.backgammon.cubeful_bearoff)."""

from __future__ import annotations

import subprocess
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicemath.core.errors import DicemathError
from dicemath.games.backgammon.bearoff import position_index, positions_up_to, two_sided_table
from dicemath.games.backgammon.cube import ACTIONS, CUBE_STATES
from dicemath.games.backgammon.cubeful_bearoff import (
    build_cubeful_arrays,
    cubeful_table,
    exact_equities,
    gnubg_columns,
    gnubg_index,
    position_equities,
    read_gnubg_two_sided,
)
from dicemath.games.backgammon.rules import STANDARD

from .gnubg_driver import tool

DATA = Path(__file__).parent / "data" / "cube_gnubg_6x6_cases.csv"
MAKEBEAROFF = tool("makebearoff")
BEAROFFDUMP = tool("bearoffdump")
needs_gnubg = pytest.mark.skipif(MAKEBEAROFF is None or BEAROFFDUMP is None,
                                 reason="GNU Backgammon (makebearoff, bearoffdump) not installed")
GNUBG_TOLERANCE = 2e-4  # gnubg stores 16-bit values and computes in single precision


def test_fast_table_matches_exact_fractions_on_every_two_checker_position():
    table = cubeful_table(2)
    boards = positions_up_to(2)
    for x in range(1, len(boards)):
        for y in range(1, len(boards)):
            exact = exact_equities(boards[x], boards[y])
            for k, name in enumerate(CUBE_STATES):
                assert table.no_double[k, x, y] == pytest.approx(float(exact["no_double"][name]), abs=1e-12)
                assert table.optimal[k, x, y] == pytest.approx(float(exact["optimal"][name]), abs=1e-12)
                assert ACTIONS[table.action[k, x, y]] == exact["action"][name]


@pytest.mark.parametrize("samples", [4, pytest.param(12, marks=pytest.mark.slow)])
def test_fast_table_matches_exact_fractions_on_three_checker_samples(samples):
    table = cubeful_table(3)
    boards = positions_up_to(3)
    rng = np.random.default_rng(5)
    for x, y in rng.integers(1, len(boards), size=(samples, 2)):
        exact = exact_equities(boards[x], boards[y])
        for k, name in enumerate(CUBE_STATES):
            assert table.optimal[k, x, y] == pytest.approx(float(exact["optimal"][name]), abs=1e-12)
            assert table.no_double[k, x, y] == pytest.approx(float(exact["no_double"][name]), abs=1e-12)


def test_compiled_and_numpy_kernels_agree():
    fast = build_cubeful_arrays(3)
    plain = build_cubeful_arrays(3, compiled=False)
    for key in fast:
        assert np.max(np.abs(fast[key] - plain[key])) < 1e-12, key


def test_capped_cube_matches_exact_recursion():
    capped = build_cubeful_arrays(2, max_cube=4)
    boards = positions_up_to(2)
    for x in range(1, len(boards)):
        for y in range(1, len(boards), 3):
            exact = exact_equities(boards[x], boards[y], max_cube=4)
            for k, name in enumerate(CUBE_STATES):
                assert capped["optimal"][k, x, y] == pytest.approx(float(exact["optimal"][name]), abs=1e-12)


def test_hand_derived_last_roll_positions():
    # One checker on his 2-point: every roll bears it off, he wins at once (+1); doubling
    # gains nothing, the opponent would pass: "too good".
    exact = exact_equities((0, 1, 0, 0, 0, 0), (1, 0, 0, 0, 0, 0))
    assert exact["optimal"]["centred"] == 1 and exact["action"]["centred"] == "too good"
    # Two checkers on the 6-point against one on the 1-point: he wins only with 3-3, 4-4,
    # 5-5 or 6-6 (4/36) and otherwise loses next roll, so his equity is 8/36 - 1; the
    # double/take would be worth 2 (8/36 - 1) < 8/36 - 1: no double.
    exact = exact_equities((0, 0, 0, 0, 0, 2), (1, 0, 0, 0, 0, 0))
    assert exact["no_double"]["centred"] == Fraction(8, 36) - 1
    assert exact["action"]["centred"] == "no double"
    # Two on the 2-point against one on the 2-point: he misses only with 2-1 .. 6-1 (10/36;
    # 1-1 bears both off), and a miss loses. No-double equity 2 * 26/36 - 1 = 4/9 in every
    # cube state; a double is taken (the opponent's take equity 2 (1 - 2 * 26/36) = -8/9 is
    # above -1) and worth 8/9 > 4/9 to him: double/take.
    exact = exact_equities((0, 2, 0, 0, 0, 0), (0, 1, 0, 0, 0, 0))
    assert exact["no_double"]["opponent_owned"] == Fraction(4, 9)
    assert exact["optimal"]["centred"] == Fraction(8, 9)
    assert exact["action"]["centred"] == "double/take"


def test_table_properties_on_the_six_checker_database():
    table = cubeful_table(6)
    nd, opt = table.no_double[:, 1:, 1:], table.optimal[:, 1:, 1:]
    assert np.all(np.abs(opt) <= 1 + 1e-12)
    assert np.all(opt >= nd - 1e-12)
    # Owning the cube is worth at least a centred cube, which beats the opponent owning it.
    assert np.all(nd[1] >= nd[0] - 1e-12) and np.all(nd[0] >= nd[2] - 1e-12)
    # The opponent-owned state can never double.
    assert np.all(table.action[2] == 0)
    # Cubeless chances agree with the two-sided bear-off database of bearoff.py.
    assert np.max(np.abs(table.cubeless[1:, 1:] - two_sided_table(STANDARD, 6)[1:, 1:])) < 1e-12


def test_checked_in_gnubg_cases():
    """GNU Backgammon's own 6x6 cubeful database, a sample checked into the repository."""
    table = cubeful_table(6)
    ours = gnubg_columns(table)
    worst = 0.0
    rows = 0
    for line in DATA.read_text().splitlines():
        if line.startswith("#"):
            continue
        position, versus, raw = line.split(";")
        x = position_index(tuple(int(c) for c in position))
        y = position_index(tuple(int(c) for c in versus))
        gnubg = np.array([int(u) for u in raw.split(",")]) / 32767.5 - 1.0
        worst = max(worst, float(np.max(np.abs(ours[x, y] - gnubg))))
        rows += 1
    assert rows >= 5000
    assert worst < GNUBG_TOLERANCE


@pytest.mark.gnubg
@needs_gnubg
def test_against_makebearoff_three_checkers(tmp_path):
    path = tmp_path / "bo6x3.bd"
    subprocess.run([MAKEBEAROFF, "-t", "6x3", "-f", str(path)], check=True, capture_output=True)
    gnubg = read_gnubg_two_sided(path, 6, 3)
    ours = gnubg_columns(cubeful_table(3))
    assert np.max(np.abs(ours[1:, 1:] - gnubg[1:, 1:])) < GNUBG_TOLERANCE
    # The file reader agrees with gnubg's own dump of one position.
    boards = positions_up_to(3)
    x, y = 40, 77
    number = gnubg_index(boards[x], 6, 3) * len(boards) + gnubg_index(boards[y], 6, 3)
    dump = subprocess.run([BEAROFFDUMP, str(path), "-n", str(number)], check=True,
                          capture_output=True, text=True).stdout
    printed = {line.split(":")[0].strip(): float(line.split(":")[1])
               for line in dump.splitlines() if "cube" in line.lower() and ":" in line}
    assert printed["Centered cube"] == pytest.approx(gnubg[x, y, 2], abs=1e-4)
    assert printed["Owned cube"] == pytest.approx(gnubg[x, y, 1], abs=1e-4)


@pytest.mark.slow
@pytest.mark.gnubg
@needs_gnubg
def test_against_makebearoff_full_six_by_six(tmp_path):
    path = tmp_path / "bo6x6.bd"
    subprocess.run([MAKEBEAROFF, "-t", "6x6", "-f", str(path)], check=True, capture_output=True)
    gnubg = read_gnubg_two_sided(path)
    ours = gnubg_columns(cubeful_table(6))
    assert np.max(np.abs(ours[1:, 1:] - gnubg[1:, 1:])) < GNUBG_TOLERANCE


def test_position_equities_result_and_errors():
    result = position_equities([2, 2, 0, 0, 0, 0], [0, 0, 1, 1, 1, 0])
    assert set(result["no_double"]) == set(CUBE_STATES)
    assert result["owned"] >= result["no_double"]["owned"]
    assert result["action"]["opponent_owned"] == "no double"
    with pytest.raises(DicemathError):
        position_equities([0, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0])
    with pytest.raises(DicemathError):
        position_equities([9, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0])
    with pytest.raises(DicemathError):
        position_equities([1, 0, 0], [1, 0, 0, 0, 0, 0])
    with pytest.raises(DicemathError):
        cubeful_table(9)
    with pytest.raises(DicemathError):
        build_cubeful_arrays(2, max_cube=3)


@pytest.mark.slow
def test_bg8_cube_cap_changes_the_six_by_six_equities_only_slightly():
    """The measured gap quoted in the module docstring (cap 64 vs an unbounded cube)."""
    free = cubeful_table(6)
    capped = cubeful_table(6, max_cube=64)
    gaps = [np.max(np.abs(capped.optimal[k] - free.optimal[k])) for k in range(3)]
    assert 0 < gaps[0] < 1e-4 and gaps[1] < 1e-3 and gaps[2] < 2e-4


@settings(max_examples=40, deadline=None)
@given(x=st.integers(1, 923), y=st.integers(1, 923))
def test_six_checker_table_satisfies_the_one_step_recursion(x, y):
    """Bellman check on the big table through bearoff.successors (an independent code path)."""
    from dicemath.core.dice import two_dice_rolls
    from dicemath.games.backgammon.bearoff import successors

    table = cubeful_table(6)
    boards = positions_up_to(6)
    board = tuple(boards[x])
    follow = {0: 0, 1: 2, 2: 1}
    for k in range(3):
        total = 0.0
        for roll, weight in two_dice_rolls():
            best = -2.0
            for play in successors(STANDARD, board, roll):
                value = 1.0 if sum(play) == 0 else -table.optimal[follow[k], y, position_index(play)]
                best = max(best, value)
            total += weight * best / 36
        assert table.no_double[k, x, y] == pytest.approx(total, abs=1e-12)
    take = 2 * table.no_double[2, x, y]
    for k in (0, 1):
        expected = max(table.no_double[k, x, y], min(take, 1.0))
        assert table.optimal[k, x, y] == pytest.approx(expected, abs=1e-12)
