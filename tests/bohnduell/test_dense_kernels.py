"""The C kernels of the dense solver: the ranges of one potential solved on threads at once
give the table of the sequential solve, and arrays that do not fit are refused, not read."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from dicemath.games.bohnduell import _dense_c  # type: ignore[attr-defined]  # C extension, no stubs
from dicemath.games.bohnduell.rules import Rules
from dicemath.games.bohnduell.solver_dense import SideIndex, solve_dense
from dicemath.games.bohnduell.strong_table import phi_parts


@pytest.mark.parametrize("capture", ["last", "every"])
def test_ranges_solved_on_threads_equal_the_sequential_solve(capture):
    """Each potential cut into 5 ranges, solved by 3 threads at once (the kernels release the
    GIL and share no state), moves then passes, as the strong table's build does."""
    rules = Rules(stock=9, capture=capture)
    index = SideIndex.build(rules.cups, rules.stock)
    arrays = index.kernel_arrays()
    values = np.zeros(index.size ** 2, dtype=np.int8)

    def moves(phi, part):
        first_rank, last_rank, first, last = part
        out = np.full(last - first, 99, dtype=np.int8)
        _dense_c.solve_moves(phi, first_rank, last_rank, rules.every, *arrays, values, out, first)
        return first, last, out

    def passes(phi, part):
        _dense_c.solve_passes(phi, part[0], part[1], *arrays, values)

    with ThreadPoolExecutor(3) as pool:
        for phi in range(2 * index.kmax + 1):
            parts = phi_parts(index, phi, 5)
            for first, last, out in pool.map(moves, [phi] * len(parts), parts):
                values[first:last] = out
            list(pool.map(passes, [phi] * len(parts), parts))
    assert np.array_equal(values, solve_dense(rules).values)


def test_arrays_that_do_not_fit_are_refused():
    index = SideIndex.build(4, 5)
    arrays = index.kernel_arrays()
    values = np.zeros(index.size ** 2, dtype=np.int8)
    first_rank, last_rank = index.potential_ranks(20)
    first, last = int(index.phi_starts[20]), int(index.phi_starts[21])
    with pytest.raises(ValueError, match="fit together"):        # movable one side short
        _dense_c.solve_moves(20, first_rank, last_rank, False, *arrays[:-1], arrays[-1][:-1], values,
                             np.zeros(last - first, dtype=np.int8), first)
    with pytest.raises(ValueError, match="outside the index"):    # ranks beyond the last side
        _dense_c.solve_passes(20, first_rank, index.size + 1, *arrays, values)
    with pytest.raises(ValueError, match="values"):              # a table of another size
        _dense_c.solve_passes(20, first_rank, last_rank, *arrays, values[:-1])
    out = np.full(last - first, 99, dtype=np.int8)
    half = out.size // 2
    with pytest.raises(ValueError, match="outside the output"):   # an output half as long as the range
        _dense_c.solve_moves(20, first_rank, last_rank, False, *arrays, values, out[:half], first)
    assert (out[half:] == 99).all()                                # nothing written past its end
