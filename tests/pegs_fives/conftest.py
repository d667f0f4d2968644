"""Checks shared by the Pegs and the Fives kernel tests."""

from __future__ import annotations

import numpy as np
import pytest

from dicemath.games.pegs_fives.fullboard.driver import kernel_for, solve_sequential


def _check_guide_dtypes(rules, rows) -> None:
    """A lookahead on a float32 guide equals the one on that guide widened to float64, bit
    for bit (driver.guide_for); a float64 guide for a float32 table is refused, by the
    driver and by the kernel."""
    kernel = kernel_for(rules, rows)
    optimal = solve_sequential(kernel, np.zeros(kernel.layout.size))
    noise = np.random.default_rng(1).uniform(0.9, 1.1, optimal.size)
    guide = (optimal * noise).astype(np.float32)                        # a guide that misleads now and then
    narrow = solve_sequential(kernel, np.zeros(kernel.layout.size), policy="lookahead", guide=guide)
    wide = solve_sequential(kernel, np.zeros(kernel.layout.size), policy="lookahead", guide=guide.astype(np.float64))
    assert np.array_equal(narrow, wide) and (narrow > optimal + 1e-9).any()
    with pytest.raises(ValueError, match="takes a guide of its own dtype"):
        solve_sequential(kernel, np.zeros(kernel.layout.size, np.float32), policy="lookahead",
                         guide=guide.astype(np.float64))
    with pytest.raises(ValueError, match="dtype of E"):
        kernel.solve(np.zeros(kernel.layout.size, np.float32), np.array([0]), policy="lookahead",
                     guide=guide.astype(np.float64))


@pytest.fixture
def check_guide_dtypes():
    """:func:`_check_guide_dtypes` as a fixture."""
    return _check_guide_dtypes
