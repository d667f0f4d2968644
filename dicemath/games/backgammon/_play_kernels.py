"""numba kernel: the distinct positions a roll can lead to (BG-3..BG-6), for self-play.

The plain-Python :func:`~.moves.legal_moves` builds a :class:`~.position.Position` per
step and lists the steps of every play; self-play and the look-ahead of :mod:`.evaluate`
only need the resulting positions, thousands of times a second. This kernel computes the
same set (checked against ``legal_moves`` on thousands of random positions, both presets,
in ``tests/backgammon/test_evaluate_kernels.py``).

Method: breadth first over the dice of each order (doubles: one order of four), keeping
the distinct states after each die. A state is the mover's 25 counts plus a mask of the
opponent's blots already hit (the opponent's side is the original one minus those blots,
which went to the bar). The plays that use the most dice are the states of the deepest
non-empty level (a state that could go on would make a deeper level); with two different
dice of which only one can be played, the larger die's states win if it has any (BG-3).
A state whose checkers are all off stops there (it is counted with the dice it used).
"""

from __future__ import annotations

import numba
import numpy as np

_HIT_SHIFT = 39
"""State key: bits 0..38 the mover's counts written as runs of ones (at most 15 ones and
24 separating zeros); bits 39..62 the opponent's blots hit, on the mover's points 1..24."""


@numba.njit(cache=True)
def _key(mine, hit):
    key = 0
    bit = 0
    for i in range(25):
        for _ in range(mine[i]):
            key |= 1 << bit
            bit += 1
        bit += 1
    return key | (hit << _HIT_SHIFT)


@numba.njit(cache=True)
def _unique(mines, hits, m):
    """Keep the distinct states among ``mines[:m], hits[:m]`` (in place, sorted by key);
    return their count."""
    if m <= 1:
        return m
    keys = np.empty(m, np.int64)
    for j in range(m):
        keys[j] = _key(mines[j], hits[j])
    order = np.argsort(keys)
    sorted_mines = mines[order]
    sorted_hits = hits[order]
    k = 0
    for j in range(m):
        if j == 0 or keys[order[j]] != keys[order[j - 1]]:
            mines[k] = sorted_mines[j]
            hits[k] = sorted_hits[j]
            k += 1
    return k


@numba.njit(cache=True)
def _expand(mines, hits, n, die, theirs, limit, out_mines, out_hits):
    """Every state one step of ``die`` from ``mines[:n]``, duplicates removed; returns the count."""
    m = 0
    for i in range(n):
        mine = mines[i]
        hit = hits[i]
        if mine.sum() == 0:  # game over: this state is played out
            continue
        all_home = mine[24] == 0 and mine[6:24].sum() == 0
        highest = 0
        for p in range(6, 0, -1):
            if mine[p - 1] > 0:
                highest = p
                break
        for source in range(25, 0, -1):
            if mine[source - 1] == 0 or (mine[24] > 0 and source != 25):
                continue
            target = source - die
            theirs_there = 0
            if target >= 1:
                if (hit >> (target - 1)) & 1 == 0:
                    theirs_there = theirs[24 - target]
                if theirs_there >= 2 or (limit > 0 and mine[target - 1] >= limit):
                    continue
            elif not all_home or (target < 0 and source != highest):
                continue
            row = out_mines[m]
            row[:] = mine
            row[source - 1] -= 1
            new_hit = hit
            if target >= 1:
                row[target - 1] += 1
                if theirs_there == 1:
                    new_hit = hit | (1 << (target - 1))
            out_hits[m] = new_hit
            m += 1
    return _unique(out_mines, out_hits, m)


@numba.njit(cache=True)
def _levels(mine, theirs, dice, limit):
    """States after each die of ``dice`` in order: (mines, hits, count) of the deepest level
    reached and its depth."""
    capacity = 64
    mines = np.empty((1, 25), np.int8)
    mines[0] = mine
    hits = np.zeros(1, np.int64)
    n = 1
    depth = 0
    for die in dice:
        out_mines = np.empty((max(n * 16, capacity), 25), np.int8)
        out_hits = np.empty(max(n * 16, capacity), np.int64)
        m = _expand(mines, hits, n, die, theirs, limit, out_mines, out_hits)
        if m == 0:
            break
        mines, hits, n = out_mines[:m].copy(), out_hits[:m].copy(), m
        depth += 1
    return mines, hits, n, depth


@numba.njit(cache=True)
def play_results(mine, theirs, first, second, limit):
    """The distinct positions after every legal play of the roll ``(first, second)``.

    Args:
        mine: int8[25] counts of the mover (points 1..24, bar), his own numbering.
        theirs: int8[25] counts of the opponent, in the opponent's numbering.
        first, second: the dice (1..6).
        limit: BG-4 ``playtive`` limit of own checkers per point, 0 for none.

    Returns:
        ``(mines, theirs_after)``: int8 arrays of shape (k, 25), the mover's and the
        opponent's counts after each distinct play (the mover still "on roll"); one row,
        the position itself, when nothing can be played.
    """
    if first == second:
        mines, hits, n, depth = _levels(mine, theirs, np.array([first] * 4), limit)
    else:
        high, low = max(first, second), min(first, second)
        a_mines, a_hits, a_n, a_depth = _levels(mine, theirs, np.array([high, low]), limit)
        b_mines, b_hits, b_n, b_depth = _levels(mine, theirs, np.array([low, high]), limit)
        depth = max(a_depth, b_depth)
        if depth == 2 and a_depth == 2 and b_depth == 2:
            mines = np.concatenate((a_mines[:a_n], b_mines[:b_n]))
            hits = np.concatenate((a_hits[:a_n], b_hits[:b_n]))
            n = _unique(mines, hits, a_n + b_n)
        elif a_depth == depth:  # the larger die first (BG-3: the larger if only one can be played)
            mines, hits, n = a_mines, a_hits, a_n
        else:
            mines, hits, n = b_mines, b_hits, b_n
    result_theirs = np.empty((n, 25), np.int8)
    for i in range(n):
        result_theirs[i] = theirs
        for t in range(1, 25):
            if (hits[i] >> (t - 1)) & 1:
                result_theirs[i, 24 - t] = 0
                result_theirs[i, 24] += 1
    return mines[:n].copy(), result_theirs
