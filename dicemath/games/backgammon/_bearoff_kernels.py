"""The bear-off dynamic programmes, compiled C (``_bearoff_c.c``, built at install): the one-
and two-sided tables of :mod:`.bearoff` and the block kernel of :mod:`.bearoff_database`.
These wrappers check the arrays' dtypes and shapes and allocate the results. The plays they
read come from the move table, whose rules are those of :mod:`.plays`.

Each is checked against plain-Python, exact-Fraction twins in ``tests/backgammon/test_bearoff.py``.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from dicemath.games.backgammon import _bearoff_c  # type: ignore[attr-defined]  # C extension, no stubs

ROLLS = 21
"""Distinct rolls of two dice: the move table has ``boards * ROLLS + 1`` starts."""


def _int64(array: npt.ArrayLike) -> np.ndarray:
    return np.ascontiguousarray(array, dtype=np.int64)


def _weights(weights: npt.ArrayLike, dtype: type) -> np.ndarray:
    weights = np.ascontiguousarray(weights, dtype=dtype)
    if weights.shape != (ROLLS,):
        raise ValueError(f"the weights of the {ROLLS} rolls, got shape {weights.shape}")
    return weights


def one_sided_kernel(order: npt.ArrayLike, starts: npt.ArrayLike, targets: npt.ArrayLike, weights: npt.ArrayLike,
                     totals: npt.ArrayLike, length: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The one-sided tables ``(mean, dist, gmean, gdist)`` of the boards in ``order`` (by
    pips, the empty board first): expected rolls to bear off and their distribution over
    ``length`` columns, and the same until a checker is off (``totals``: checkers per board).

    ``starts``, ``targets``: the move table (:class:`~.bearoff.MoveTable`); ``weights``: the
    probabilities of the 21 rolls.
    """
    order, starts, targets, totals = _int64(order), _int64(starts), _int64(targets), _int64(totals)
    count = len(order)
    if len(starts) != count * ROLLS + 1 or len(totals) != count:
        raise ValueError("one_sided_kernel: the move table and totals must cover the boards of order")
    mean, gmean = np.zeros(count), np.zeros(count)
    dist, gdist = np.zeros((count, length)), np.zeros((count, length))
    _bearoff_c.one_sided(order, starts, targets, _weights(weights, np.float64), totals, mean, dist, gmean, gdist)
    return mean, dist, gmean, gdist


def two_sided_kernel(count: int, bucket_starts: npt.ArrayLike, bucket_items: npt.ArrayLike, starts: npt.ArrayLike,
                     targets: npt.ArrayLike, weights: npt.ArrayLike) -> np.ndarray:
    """The two-sided table ``P[x, y]`` (count x count) of the boards ``bucket_items`` grouped
    by pips (``bucket_items[bucket_starts[p]:bucket_starts[p + 1]]`` have ``p`` pips)."""
    bucket_starts, bucket_items = _int64(bucket_starts), _int64(bucket_items)
    starts, targets = _int64(starts), _int64(targets)
    if len(bucket_items) != count or len(starts) != count * ROLLS + 1:
        raise ValueError("two_sided_kernel: the buckets and the move table must cover count boards")
    table = np.zeros((count, count))
    _bearoff_c.two_sided(bucket_starts, bucket_items, starts, targets, _weights(weights, np.float64), table)
    return table


def database_block_kernel(out: np.ndarray, read: np.ndarray, a_boards: npt.ArrayLike, b_boards: npt.ArrayLike,
                          b_start: int, succ_starts: npt.ArrayLike, succ_rows: npt.ArrayLike,
                          weights: npt.ArrayLike, one: int) -> None:
    """One block of a two-sided database table (:mod:`.bearoff_database`), 32-bit fixed point.

    ``out[i, t]`` (``uint32``, ``one`` = 1) is the value of board ``a_boards[i]`` on roll
    against ``b_boards[t]``: the roll-weighted sum over the 21 rolls of the best play,
    ``one - min`` over the successors ``a'`` of ``read[row(a'), b_start + t]`` (the value of
    the other side on roll against ``a'``; rows ``succ_rows[succ_starts[a*21+r]:...]``, a
    negative row being a play that reaches the goal, worth ``one``), divided by 36 and
    rounded half up in integer arithmetic, so every run gives the same bits. ``a`` = 0
    (nothing left to bear off) is ``one``; otherwise ``b`` = 0 (the other side has
    finished) is 0. ``weights``: the integer weights of the 21 rolls out of 36.
    """
    a_boards, b_boards, succ_starts = _int64(a_boards), _int64(b_boards), _int64(succ_starts)
    succ_rows = np.ascontiguousarray(succ_rows, dtype=np.int32)
    if out.dtype != np.uint32 or not out.flags.c_contiguous or out.shape != (len(a_boards), len(b_boards)):
        raise ValueError("database_block_kernel: out must be C-contiguous uint32 (a_boards, b_boards)")
    if read.dtype != np.uint32 or read.ndim != 2 or not read.flags.c_contiguous \
            or not 0 <= b_start <= b_start + len(b_boards) <= read.shape[1]:
        raise ValueError("database_block_kernel: read must be a C-contiguous uint32 table holding the block's columns")
    _bearoff_c.database_block(out, read, read.shape[1], a_boards, b_boards, b_start, succ_starts, succ_rows,
                              _weights(weights, np.int64), one)
