"""The cube decision of :mod:`~dicemath.games.backgammon.cube_rules` over whole arrays, and the
exact cubeful bear-off tables, compiled C (``_cube_c.c``, built at install). These wrappers
check the arrays' dtypes and shapes.

The C decision is the statement of :func:`~.cube_rules.cube_decision` for float64 (the Python
one also serves exact Fractions); ``tests/backgammon/test_cube_models.py`` compares the two.
"""

from __future__ import annotations

import numpy as np

from dicemath.games.backgammon import _cube_c  # type: ignore[attr-defined]  # C extension, no stubs

ROLLS = 21
"""Distinct rolls of two dice: the move table has ``boards * ROLLS + 1`` starts."""


def _check(array: np.ndarray, dtype: type, shape: tuple[int, ...], name: str) -> None:
    if array.dtype != dtype or array.shape != shape or not array.flags.c_contiguous:
        raise ValueError(f"{name} must be a C-contiguous {np.dtype(dtype)} array of shape {shape}, "
                         f"got {array.dtype} {array.shape}")


def decide_all(no_double: np.ndarray, double_take: np.ndarray, may_double: np.ndarray, tie: float,
               codes: np.ndarray, equity: np.ndarray) -> None:
    """:func:`~.cube_rules.cube_decision` of every element (double/pass +1): writes the
    int64 ``codes`` and the float64 ``equity`` (1-d arrays of one length)."""
    shape = no_double.shape
    _check(no_double, np.float64, shape, "no_double")
    _check(double_take, np.float64, shape, "double_take")
    _check(may_double, np.bool_, shape, "may_double")
    _check(codes, np.int64, shape, "codes")
    _check(equity, np.float64, shape, "equity")
    _cube_c.decide(no_double, double_take, may_double, tie, codes, equity)


def cubeful_tables(starts: np.ndarray, targets: np.ndarray, weights: np.ndarray, source: np.ndarray,
                   take_layer: np.ndarray, value: np.ndarray, no_double: np.ndarray, codes: np.ndarray,
                   tie: float) -> None:
    """Fill the cubeful bear-off tables in place (:func:`~.cubeful_bearoff.build_cubeful_arrays`):
    step ``n`` fills board ``n`` on roll against every board up to ``n``, then every
    smaller board on roll against ``n`` (the successors of a board have smaller indices).

    ``starts``, ``targets``: the move table of the ``count`` boards (int64); ``weights``: the
    integer weights of the 21 rolls as float64; ``source``, ``take_layer``: int64 per layer;
    ``value``, ``no_double`` (float64) and ``codes`` (int8): ``(layers, count, count)``."""
    layers, count = len(source), value.shape[1]
    _check(starts, np.int64, (count * ROLLS + 1,), "starts")
    _check(targets, np.int64, (int(starts[-1]),), "targets")
    _check(weights, np.float64, (ROLLS,), "weights")
    _check(source, np.int64, (layers,), "source")
    _check(take_layer, np.int64, (layers,), "take_layer")
    for name, array, dtype in (("value", value, np.float64), ("no_double", no_double, np.float64),
                               ("codes", codes, np.int8)):
        _check(array, dtype, (layers, count, count), name)
    _cube_c.cubeful_tables(starts, targets, weights, source, take_layer, value, no_double, codes, tie)
