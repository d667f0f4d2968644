"""The compiled code paths (``DICEMATH_SIMD``: avx512, avx2, scalar) of the Pegs kernel and of
the distilled network's loop give the same values, and the distilled model's values of boards
(one order of arithmetic, no path) are the same bit for bit: each path this CPU runs is
forced in a process of its own (the path is chosen once, at import) on the small cases of
test_pegs_kernel.py and test_full_board_analyses.py."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import dicemath
from dicemath.games.pegs_fives.fullboard import _network_c, _pegs_c

ROWS = ((3, 8), (2, 7, 11))
"""The Pegs boards solved on every path (every policy, float64 and float32 tables)."""

WIDTHS = ((128, 64), (40, 16), (24, 20))
"""First- and second-layer units of the random networks (vector widths of 16 and 8, and none)."""

CHILD = """
import sys
import numpy as np
from dicemath.games.pegs_fives.advisor import board_value
from dicemath.games.pegs_fives.distilled import DistilledValue
from dicemath.games.pegs_fives.fullboard import _network_c, _pegs_c
from dicemath.games.pegs_fives.fullboard.pegs_kernel import POLICIES, PegsKernel
from dicemath.games.pegs_fives.rules import PEGS

values = {"pegs": np.array(_pegs_c.simd()), "network": np.array(_network_c.SUMMATION)}
fitted = board_value(PEGS)


def board_of(kernel, index):
    board = [PEGS.goal] * PEGS.rows
    for row, step in zip(kernel.rows, kernel.digits(index)):
        board[row - 1] = int(step)
    return tuple(board)


for rows in %(rows)r:
    kernel = PegsKernel(PEGS, rows)
    guide = np.array([fitted(board_of(kernel, i)) for i in range(kernel.size)])   # the same on every path
    for dtype in (np.float64, np.float32):
        for policy in POLICIES:
            E = np.zeros(kernel.size, dtype)
            kernel.solve_range(E, 0, kernel.size - 1, policy=policy,
                               guide=guide.astype(dtype) if policy == "lookahead" else None)
            values[f"{rows}-{policy}-{np.dtype(dtype).name}"] = E
for units, width in %(widths)r:
    rng = np.random.default_rng(units + width)
    first = rng.normal(size=(500, units)).astype(np.float32)
    offset, w2, b2 = (rng.normal(size=shape).astype(np.float32) for shape in (units, (units, width), width))
    w3, b3 = rng.normal(size=(width, 1)).astype(np.float32), np.float32([0.5])
    out = np.empty(len(first))
    _network_c.network(first, offset, w2, b2, w3, b3, out)
    values[f"network-{units}-{width}"] = out
boards = np.random.default_rng(7).integers(0, PEGS.goal + 1, size=(2000, PEGS.rows))
values["model-values"] = DistilledValue.load(PEGS).values(boards)
np.savez(sys.argv[1], **values)
"""


def run_forced(simd: str, out: Path) -> subprocess.CompletedProcess:
    """The child's computation in a new interpreter with ``DICEMATH_SIMD=simd`` (this
    dicemath first on its path)."""
    package_root = str(Path(dicemath.__file__).resolve().parents[1])
    env = dict(os.environ, DICEMATH_SIMD=simd,
               PYTHONPATH=os.pathsep.join(p for p in (package_root, os.environ.get("PYTHONPATH")) if p))
    script = CHILD % {"rows": ROWS, "widths": WIDTHS}
    return subprocess.run([sys.executable, "-c", script, str(out)], env=env, capture_output=True, text=True)


@pytest.fixture(scope="module")
def by_path(tmp_path_factory) -> dict[str, dict[str, np.ndarray]]:
    """Each path's values, fastest path first."""
    folder = tmp_path_factory.mktemp("simd")
    assert _pegs_c.PATHS == _network_c.PATHS and _pegs_c.PATHS[-1] == "scalar"
    found = {}
    for simd in _pegs_c.PATHS:
        done = run_forced(simd, folder / f"{simd}.npz")
        assert done.returncode == 0, done.stderr
        with np.load(folder / f"{simd}.npz") as saved:
            found[simd] = dict(saved)
    return found


def test_the_fastest_path_is_the_default_and_each_forced_path_is_used(by_path):
    if not os.environ.get("DICEMATH_SIMD"):
        assert _pegs_c.simd() == _network_c.SUMMATION == _pegs_c.PATHS[0]
    for simd, values in by_path.items():
        assert values["pegs"] == values["network"] == simd


def test_the_pegs_kernel_agrees_across_paths(by_path):
    """avx512 and avx2 do the same float64 arithmetic (fused multiply-adds, sums in 8 lanes)
    for the fixed policies and the lookahead: bit for bit. Optimal play's portable passes sum
    a pass in throw order and the scalar path has no fused multiply-adds: within float64
    rounding, with the stuck boards (inf) the same."""
    paths = list(by_path)
    reference = by_path[paths[0]]
    keys = [k for k in reference if k.startswith("(")]
    assert len(keys) == len(ROWS) * 2 * 4
    for simd in paths[1:]:
        for key in keys:
            got, want = by_path[simd][key], reference[key]
            if {simd, paths[0]} == {"avx512", "avx2"} and "optimal" not in key:
                assert np.array_equal(got, want), (simd, key)
            assert np.array_equal(np.isinf(got), np.isinf(want)), (simd, key)
            finite = np.isfinite(want)
            np.testing.assert_allclose(got[finite], want[finite], rtol=1e-13 if want.dtype == np.float64 else 1e-7,
                                       atol=0, err_msg=f"{simd} {key}")


def test_the_network_agrees_across_paths_within_float32_rounding(by_path):
    """The sums of the float32 products in another order on each path (SUMMATION)."""
    reference = by_path["scalar"]
    for simd, values in by_path.items():
        for units, width in WIDTHS:
            key = f"network-{units}-{width}"
            scale = max(1.0, float(np.abs(reference[key]).max()))
            assert np.abs(values[key] - reference[key]).max() < 1e-4 * scale, (simd, key)


def test_the_models_values_are_the_same_on_every_path(by_path):
    reference = by_path["scalar"]["model-values"]
    assert len(reference) == 2000 and (reference > 0).any()
    for simd, values in by_path.items():
        assert np.array_equal(values["model-values"], reference), simd


def test_a_path_this_cpu_does_not_run_is_refused_at_import(tmp_path):
    done = run_forced("sse1", tmp_path / "none.npz")
    assert done.returncode != 0
    assert "DICEMATH_SIMD=sse1: not a code path this CPU runs" in done.stderr
