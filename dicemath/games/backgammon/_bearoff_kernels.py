"""numba kernels of the bear-off tables: the one- and two-sided dynamic programmes of
:mod:`.bearoff` and the block kernel of :mod:`.bearoff_database` (module level, so that
numba's on-disk cache works). The plays they read come from the move table, whose rules
are those of :mod:`.plays` (:mod:`._play_kernels`).

Each is checked against plain-Python, exact-Fraction twins in ``tests/backgammon/test_bearoff.py``.
"""

from __future__ import annotations

import numba
import numpy as np

from dicemath.core.jit import announce_compiles

announce_compiles()


@numba.njit(cache=True)
def one_sided_kernel(order, starts, targets, weights, totals, length):
    count = len(order)
    rolls = len(weights)
    mean = np.zeros(count)
    dist = np.zeros((count, length))
    gmean = np.zeros(count)
    gdist = np.zeros((count, length))
    dist[0, 0] = 1.0
    gdist[0, 0] = 1.0
    best = np.empty(rolls, np.int64)
    gbest = np.empty(rolls, np.int64)
    for k in range(count):
        x = order[k]
        if x == 0:
            continue
        stay = 0.0
        acc = 0.0
        gacc = 0.0
        for r in range(rolls):
            a = starts[x * rolls + r]
            b = starts[x * rolls + r + 1]
            w = weights[r]
            if b - a == 1 and targets[a] == x:
                stay += w
                best[r] = -1
                gbest[r] = -1
                continue
            bv = 1e300
            bi = -1
            gv = 1e300
            gi = -1
            for j in range(a, b):
                y = targets[j]
                if mean[y] < bv:
                    bv = mean[y]
                    bi = y
                g = 0.0 if totals[y] < totals[x] else gmean[y]
                if g < gv:
                    gv = g
                    gi = y
            best[r] = bi
            gbest[r] = gi
            acc += w * bv
            gacc += w * gv
        mean[x] = (1.0 + acc) / (1.0 - stay)
        gmean[x] = (1.0 + gacc) / (1.0 - stay)
        for n in range(1, length):
            p = stay * dist[x, n - 1]
            gp = stay * gdist[x, n - 1]
            for r in range(rolls):
                if best[r] >= 0:
                    p += weights[r] * dist[best[r], n - 1]
                    y = gbest[r]
                    if totals[y] < totals[x]:
                        if n == 1:
                            gp += weights[r]
                    else:
                        gp += weights[r] * gdist[y, n - 1]
            dist[x, n] = p
            gdist[x, n] = gp
    return mean, dist, gmean, gdist


@numba.njit(cache=True)
def two_sided_kernel(count, bucket_starts, bucket_items, starts, targets, weights):
    rolls = len(weights)
    table = np.zeros((count, count))
    stays = np.zeros(count)
    for x in range(count):
        for r in range(rolls):
            a = starts[x * rolls + r]
            if starts[x * rolls + r + 1] - a == 1 and targets[a] == x and x != 0:
                stays[x] += weights[r]
    for y in range(count):
        table[0, y] = 1.0  # the player on roll has already borne off (convention)
    levels = len(bucket_starts) - 1
    for s in range(1, 2 * levels):
        for px in range(max(0, s - levels + 1), min(s, levels - 1) + 1):
            py = s - px
            for i in range(bucket_starts[px], bucket_starts[px + 1]):
                x = bucket_items[i]
                if x == 0:
                    continue
                for j in range(bucket_starts[py], bucket_starts[py + 1]):
                    y = bucket_items[j]
                    if y == 0:
                        table[x, y] = 0.0
                        continue
                    acc = 0.0
                    for r in range(rolls):
                        a = starts[x * rolls + r]
                        b = starts[x * rolls + r + 1]
                        if b - a == 1 and targets[a] == x:
                            continue
                        bv = 0.0
                        for k in range(a, b):
                            z = targets[k]
                            v = 1.0 if z == 0 else 1.0 - table[y, z]
                            if v > bv:
                                bv = v
                        acc += weights[r] * bv
                    table[x, y] = acc
        # blocked rolls (playtive): P_xy = A_xy + s_x (1 - P_yx), solved pairwise
        for px in range(max(0, s - levels + 1), min(s, levels - 1) + 1):
            py = s - px
            if px > py:
                continue
            for i in range(bucket_starts[px], bucket_starts[px + 1]):
                x = bucket_items[i]
                for j in range(bucket_starts[py], bucket_starts[py + 1]):
                    y = bucket_items[j]
                    if x == 0 or y == 0 or (px == py and y < x):
                        continue
                    sx = stays[x]
                    sy = stays[y]
                    if sx == 0.0 and sy == 0.0:
                        continue
                    axy = table[x, y]
                    ayx = table[y, x]
                    pxy = (axy + sx - sx * ayx - sx * sy) / (1.0 - sx * sy)
                    pyx = ayx + sy * (1.0 - pxy)
                    table[x, y] = pxy
                    table[y, x] = pyx
    return table


@numba.njit(cache=True, nogil=True)
def database_block_kernel(out, read, a_boards, b_boards, b_start, succ_starts, succ_rows, weights, one):
    """One block of a two-sided database table (:mod:`.bearoff_database`), 32-bit fixed point.

    ``out[i, t]`` (``uint32``, ``one`` = 1) is the value of board ``a_boards[i]`` on roll
    against ``b_boards[t]``: the roll-weighted sum over the 21 rolls of the best play,
    ``one - min`` over the successors ``a'`` of ``read[row(a'), b_start + t]`` (the value of
    the other side on roll against ``a'``; rows ``succ_rows[succ_starts[a*21+r]:...]``, a
    negative row being a play that reaches the goal, worth ``one``), divided by 36 and
    rounded half up in integer arithmetic, so every run gives the same bits. For fixed
    ``a'`` the values for all ``t`` are contiguous: the inner loops are vector min/adds.
    ``a`` = 0 (nothing left to bear off) is ``one``; otherwise ``b`` = 0 (the other side
    has finished) is 0.
    """
    rolls = len(weights)
    nb = len(b_boards)
    best = np.empty(nb, np.uint32)
    acc = np.empty(nb, np.int64)
    for i in range(len(a_boards)):
        a = a_boards[i]
        if a == 0:
            for t in range(nb):
                out[i, t] = one
            continue
        acc[:] = 0
        base = a * rolls
        for r in range(rolls):
            best[:] = one
            for k in range(succ_starts[base + r], succ_starts[base + r + 1]):
                row = succ_rows[k]
                if row < 0:
                    best[:] = 0
                    break
                values = read[row, b_start:b_start + nb]
                for t in range(nb):
                    best[t] = min(best[t], values[t])
            w = weights[r]
            for t in range(nb):
                acc[t] += w * (np.int64(one) - np.int64(best[t]))
        for t in range(nb):
            out[i, t] = 0 if b_boards[t] == 0 else (acc[t] + 18) // 36
