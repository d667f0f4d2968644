"""The cube decision of :mod:`~dicemath.games.backgammon.cube_rules` compiled with numba, and the
loops that use it: cube actions of whole arrays, and the exact cubeful bear-off tables.

Imported on first use only (numba is loaded then). The decision is not written here:
:func:`cube_decision` is :func:`~.cube_rules.cube_decision` compiled as it stands
(:func:`~dicemath.core.jit.compile_functions`).
"""

from __future__ import annotations

import numba
import numpy as np

from dicemath.core.jit import announce_compiles, compile_functions
from dicemath.games.backgammon import cube_rules

announce_compiles()

cube_decision = compile_functions(cube_rules, ("takes", "cube_decision"),
                                  inline=("takes", "cube_decision"))["cube_decision"]


@numba.njit(cache=True)
def decide_all(no_double, double_take, may_double, tie, codes, equity):
    """:func:`cube_decision` of every element (double/pass +1); writes ``codes`` and ``equity``."""
    for i in range(no_double.shape[0]):
        codes[i], equity[i] = cube_decision(no_double[i], double_take[i], 1.0, may_double[i], tie)


@numba.njit(cache=True)
def _solve_pair(x, y, starts, targets, weights, source, take_layer, value, no_double, codes, nd, tie):
    """The cube layers of board ``x`` on roll against ``y`` (see :func:`cubeful_tables`)."""
    rolls = len(weights)
    layers = len(source)
    for k in range(layers):
        nd[k] = 0.0
    for r in range(rolls):
        a = starts[x * rolls + r]
        b = starts[x * rolls + r + 1]
        w = weights[r]
        for k in range(layers):
            row = source[k]
            best = -1e300
            for i in range(a, b):
                v = -value[row, y, targets[i]]
                if v > best:
                    best = v
            nd[k] += w * best
    for k in range(layers):
        nd[k] /= 36.0
    for k in range(layers):
        no_double[k, x, y] = nd[k]
        t = take_layer[k]
        code, optimal = cube_decision(nd[k], 2.0 * nd[t] if t >= 0 else 0.0, 1.0, t >= 0, tie)
        value[k, x, y] = optimal
        codes[k, x, y] = code


@numba.njit(cache=True)
def cubeful_tables(starts, targets, weights, source, take_layer, value, no_double, codes, tie):
    """Fill the cubeful bear-off tables in place (:func:`~.cubeful_bearoff.build_cubeful_arrays`):
    step ``n`` fills board ``n`` on roll against every board up to ``n``, then every
    smaller board on roll against ``n`` (the successors of a board have smaller indices)."""
    count = value.shape[1]
    nd = np.zeros(len(source))
    for n in range(1, count):
        for y in range(1, n + 1):
            _solve_pair(n, y, starts, targets, weights, source, take_layer, value, no_double, codes, nd, tie)
        for x in range(1, n):
            _solve_pair(x, n, starts, targets, weights, source, take_layer, value, no_double, codes, nd, tie)
