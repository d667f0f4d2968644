"""numba kernels of :mod:`.pegs_kernel` (module level, so numba's on-disk cache works).

Checked against the exact reduced solver and :class:`..turn.TurnValue` in
``tests/pegs_fives/test_pegs_kernel.py``. Every function releases the GIL.

Modes (``mode``, a compile-time constant): 0 optimal (minimise with ``V``), 1 greedy,
2 safe greedy, 3 lookahead (choose by the option values under the guide table ``Gd``,
evaluate with ``V``). In every mode the first option of a throw group with the smallest
key is chosen; the options of a group are sorted by hits then row, both descending (the
policies' tie-break).

Option values of a row are computed for all hits at once: slot ``j * HS + h`` of the
value arrays, a dot product of the row's cycle table (``pegs_kernel.cycle_tables``) with
the values the cycle leads to. Options of complete rows hold ``BIG`` and are never chosen.
"""

from __future__ import annotations

import numpy as np
from numba import literally, njit

BIG = 1e300
HS = 8             # option slots per row: hits 0..7 (pegs_kernel.MAX_HITS)


@njit(nogil=True, cache=True, inline="always")
def _table(geo, j, need, d0, ta, last):
    """Row of the cycle table (pegs_kernel.option_table)."""
    goal = geo[1]
    dice = geo[3]
    throws = geo[4]
    return (((j * (goal + 1) + need) * (dice + 1) + d0) * throws + ta) * 2 + last


@njit(nogil=True, cache=True, inline="always")
def _row_values(V, B, st, reach, X, c2, c1, A, t, goal, out, o):
    """``out[o + h]`` = the value of naming this row with ``h`` hits on board ``B``:
    ``X`` the value of an overthrow, ``c2`` / ``c1`` of the PEGS-7 choice throws, ``V``
    at ``B + c * st`` for ``c = 1..reach`` the ends and restarts."""
    for h in range(HS):
        out[o + h] = A[t, h] * X + A[t, (goal + 1) * HS + h] * c2 + A[t, (goal + 2) * HS + h] * c1 \
            + A[t, (goal + 3) * HS + h]
    for c in range(1, reach + 1):
        e = np.float64(V[B + c * st])
        for h in range(HS):
            out[o + h] += A[t, c * HS + h] * e


@njit(nogil=True, cache=True, inline="always")
def _fill(out, o, value):
    for h in range(HS):
        out[o + h] = value


@njit(nogil=True, cache=True, inline="always")
def _policy_keys(mode, sj, goal, key, o):
    """Keys of the fixed policies: greedy 0 (the first legal option), safe greedy 1 for an
    overthrow (PEGS-6) else 0."""
    for h in range(HS):
        key[o + h] = 1.0 if (mode == 2 and sj + h > goal) else 0.0


@njit(nogil=True, cache=True, inline="always")
def _group_value(mode, g, X, val, key, grp):
    """The chosen option's value in throw group ``g`` (``X`` when no row is legal)."""
    entry_start = grp[2]
    entry_row = grp[3]
    entry_hits = grp[4]
    bk = BIG
    bv = X
    if mode == 0:
        for e in range(entry_start[g], entry_start[g + 1]):
            v = val[entry_row[e] * HS + entry_hits[e]]
            bk = v if v < bk else bk
        return X if bk >= BIG else bk
    for e in range(entry_start[g], entry_start[g + 1]):
        i = entry_row[e] * HS + entry_hits[e]
        kv = key[i]
        lt = kv < bk
        bk = kv if lt else bk
        bv = val[i] if lt else bv
    return bv


@njit(nogil=True, cache=True, inline="always")
def _open_count(s, k, goal):
    n = 0
    for j in range(k):
        if s[j] < goal:
            n += 1
    return n


@njit(nogil=True, cache=True)
def _choice1(V, Gd, mode, B, s, d, geo, stride, A, grp, val, key):
    """Value of a PEGS-7 choice throw on board ``B`` (digits ``s``) with ``d`` dice and one
    throw left: the cycle after it has no throws (PEGS-9)."""
    k = geo[0]
    goal = geo[1]
    group_start = grp[0]
    group_p = grp[1]
    X = np.float64(V[B])
    XG = np.float64(Gd[B]) if mode == 3 else 0.0
    last = 1 if _open_count(s, k, goal) == 1 else 0
    for j in range(k):
        o = j * HS
        if s[j] >= goal:
            _fill(val, o, BIG)
            _fill(key, o, BIG)
            continue
        need = goal - s[j]
        t = _table(geo, j, need, d, 0, last)
        _row_values(V, B, stride[j], need - last, X, 0.0, 0.0, A, t, goal, val, o)
        if mode == 3:
            _row_values(Gd, B, stride[j], need - last, XG, 0.0, 0.0, A, t, goal, key, o)
        elif mode != 0:
            _policy_keys(mode, s[j], goal, key, o)
    total = 0.0
    for g in range(group_start[d], group_start[d + 1]):
        total += group_p[g] * _group_value(mode, g, X, val, key, grp)
    return total


@njit(nogil=True, cache=True)
def _choice2(V, Gd, mode, B, s, d, outer, geo, stride, per_hit, A, grp, work, digits, memo, stamp):
    """Values of PEGS-7 choice throws on ``B`` with ``d`` dice and 2 and 1 throws left.

    ``B`` is the board ``b`` of the enclosing :func:`options` call with row ``outer`` in;
    the one-throw values two rows further (``memo``) are shared with the call for the
    other row of the pair."""
    k = geo[0]
    goal = geo[1]
    group_start = grp[0]
    group_p = grp[1]
    val1 = work[1, 0]
    val0 = work[1, 1]
    key1 = work[1, 2]
    key0 = work[1, 3]
    s2 = digits[2]
    X = np.float64(V[B])
    XG = np.float64(Gd[B]) if mode == 3 else 0.0
    last = 1 if _open_count(s, k, goal) == 1 else 0
    for j in range(k):
        o = j * HS
        if s[j] >= goal:
            _fill(val1, o, BIG)
            _fill(val0, o, BIG)
            _fill(key1, o, BIG)
            _fill(key0, o, BIG)
            continue
        need = goal - s[j]
        st = stride[j]
        dd = d - per_hit[j] * need
        c1 = 0.0
        g1 = 0.0
        if last == 0 and dd > 0:
            pair = min(j, outer) * k + max(j, outer)
            if memo[2, pair] == stamp:
                c1 = memo[0, pair]
                g1 = memo[1, pair]
            else:
                for i in range(k):
                    s2[i] = s[i]
                s2[j] = goal
                c1 = _choice1(V, Gd, mode, B + need * st, s2, dd, geo, stride, A, grp, work[2, 0], work[2, 1])
                if mode == 3:
                    g1 = _choice1(Gd, Gd, 0, B + need * st, s2, dd, geo, stride, A, grp, work[2, 0], work[2, 1])
                memo[0, pair] = c1
                memo[1, pair] = g1
                memo[2, pair] = stamp
        t1 = _table(geo, j, need, d, 1, last)
        t0 = _table(geo, j, need, d, 0, last)
        _row_values(V, B, st, need - last, X, 0.0, c1, A, t1, goal, val1, o)
        _row_values(V, B, st, need - last, X, 0.0, 0.0, A, t0, goal, val0, o)
        if mode == 3:
            _row_values(Gd, B, st, need - last, XG, 0.0, g1, A, t1, goal, key1, o)
            _row_values(Gd, B, st, need - last, XG, 0.0, 0.0, A, t0, goal, key0, o)
        elif mode != 0:
            _policy_keys(mode, s[j], goal, key1, o)
            _policy_keys(mode, s[j], goal, key0, o)
    total1 = 0.0
    total0 = 0.0
    for g in range(group_start[d], group_start[d + 1]):
        total1 += group_p[g] * _group_value(mode, g, X, val1, key1, grp)
        total0 += group_p[g] * _group_value(mode, g, X, val0, key0, grp)
    return total1, total0


@njit(nogil=True, cache=True)
def options(V, Gd, mode, b, s, d, ta, geo, stride, per_hit, A, grp, work, digits, memo, stamp,
            stay, rest, key):
    """The options after a choice throw of ``d`` dice with ``ta`` throws left after it, on
    board ``b`` (digits ``s``): ``stay``, ``rest`` (with ``V``) and the choice ``key`` at
    slot ``j * HS + hits`` of every row ``j`` (complete rows: stay 0, rest and key ``BIG``).
    Later choices of the turn: ``mode``. ``stamp`` must differ from every earlier call's
    with the same ``memo``."""
    k = geo[0]
    goal = geo[1]
    s1 = digits[1]
    XG = np.float64(Gd[b]) if mode == 3 else 0.0
    last = 1 if _open_count(s, k, goal) == 1 else 0
    for j in range(k):
        o = j * HS
        if s[j] >= goal:
            _fill(stay, o, 0.0)
            _fill(rest, o, BIG)
            _fill(key, o, BIG)
            continue
        need = goal - s[j]
        st = stride[j]
        dd = d - per_hit[j] * need
        c2 = 0.0
        c1 = 0.0
        g2 = 0.0
        g1 = 0.0
        if last == 0 and dd > 0 and ta >= 1:
            for i in range(k):
                s1[i] = s[i]
            s1[j] = goal
            if ta >= 2:
                c2, c1 = _choice2(V, Gd, mode, b + need * st, s1, dd, j, geo, stride, per_hit, A, grp,
                                  work, digits, memo, stamp)
                if mode == 3:
                    g2, g1 = _choice2(Gd, Gd, 0, b + need * st, s1, dd, j, geo, stride, per_hit, A, grp,
                                      work, digits, memo[3:], stamp)
            else:
                c1 = _choice1(V, Gd, mode, b + need * st, s1, dd, geo, stride, A, grp, work[1, 0], work[1, 1])
                if mode == 3:
                    g1 = _choice1(Gd, Gd, 0, b + need * st, s1, dd, geo, stride, A, grp, work[1, 0], work[1, 1])
        t = _table(geo, j, need, d, ta, last)
        _row_values(V, b, st, need - last, 0.0, c2, c1, A, t, goal, rest, o)
        for h in range(HS):
            stay[o + h] = A[t, h]
        if mode == 3:
            _row_values(Gd, b, st, need - last, XG, g2, g1, A, t, goal, key, o)
        elif mode != 0:
            _policy_keys(mode, s[j], goal, key, o)


@njit(nogil=True, cache=True)
def _digits(b, geo, stride, s):
    k = geo[0]
    base = geo[2]
    for j in range(k):
        s[j] = (b // stride[j]) % base


@njit(nogil=True, cache=True)
def _guess(V, b, s, geo, stride):
    """A starting value for Newton: E(b+e_i) + E(b+e_j) - E(b+e_i+e_j) for two open rows."""
    k = geo[0]
    goal = geo[1]
    i = -1
    for j in range(k):
        if s[j] < goal:
            if i < 0:
                i = j
            else:
                x = np.float64(V[b + stride[i]]) + np.float64(V[b + stride[j]]) \
                    - np.float64(V[b + stride[i] + stride[j]])
                return x if x >= 1.0 else 1.0
    if s[i] + 2 <= goal:
        x = 2.0 * np.float64(V[b + stride[i]]) - np.float64(V[b + 2 * stride[i]])
        return x if x >= 1.0 else 1.0
    return 1.0


@njit(nogil=True, cache=True)
def _policy_pass(g0, g1, x, stay, rest, grp, margin, chosen_stay, chosen_rest):
    """One Newton pass at ``x``: the minimising option of every throw group (no legal
    row: stay 1), stored in ``chosen_stay`` / ``chosen_rest``; ``margin[g]``: by how much
    the best option of another stay probability loses (a choice can change only if ``x``
    moves by more). Returns the policy's total stay and rest probabilities."""
    group_p = grp[1]
    entry_start = grp[2]
    entry_row = grp[3]
    entry_hits = grp[4]
    S = 0.0
    R = 0.0
    for g in range(g0, g1):
        best = BIG
        second = BIG
        bs = 1.0
        br = 0.0
        for e in range(entry_start[g], entry_start[g + 1]):
            i = entry_row[e] * HS + entry_hits[e]
            st = stay[i]
            v = st * x + rest[i]
            lt = v < best
            differs = st != bs
            second = (best if differs else second) if lt else (v if (differs and v < second) else second)
            best = v if lt else best
            bs = st if lt else bs
            br = rest[i] if lt else br
        S += group_p[g] * bs
        R += group_p[g] * br
        chosen_stay[g - g0] = bs
        chosen_rest[g - g0] = br
        margin[g - g0] = BIG if second >= BIG else second - best
    return S, R


@njit(nogil=True, cache=True)
def _recheck(g0, g1, x, step, S, R, stay, rest, grp, margin, chosen_stay, chosen_rest):
    """Re-examine at ``x`` the groups whose margin is below ``step``; switch those whose
    stored choice is now strictly worse. Returns ``(S, R, changed)``."""
    group_p = grp[1]
    entry_start = grp[2]
    entry_row = grp[3]
    entry_hits = grp[4]
    changed = False
    for g in range(g0, g1):
        if margin[g - g0] >= step:
            continue
        best = BIG
        bs = 1.0
        br = 0.0
        for e in range(entry_start[g], entry_start[g + 1]):
            i = entry_row[e] * HS + entry_hits[e]
            v = stay[i] * x + rest[i]
            lt = v < best
            best = v if lt else best
            bs = stay[i] if lt else bs
            br = rest[i] if lt else br
        if best < chosen_stay[g - g0] * x + chosen_rest[g - g0]:
            S += group_p[g] * (bs - chosen_stay[g - g0])
            R += group_p[g] * (br - chosen_rest[g - g0])
            chosen_stay[g - g0] = bs
            chosen_rest[g - g0] = br
            changed = True
    return S, R, changed


@njit(nogil=True, cache=True)
def _chosen_pass(g0, g1, stay, rest, key, grp):
    """``(S, R)`` of the options a fixed policy chooses (smallest key, first of equals)."""
    group_p = grp[1]
    entry_start = grp[2]
    entry_row = grp[3]
    entry_hits = grp[4]
    S = 0.0
    R = 0.0
    for g in range(g0, g1):
        bk = BIG
        bs = 1.0
        br = 0.0
        for e in range(entry_start[g], entry_start[g + 1]):
            i = entry_row[e] * HS + entry_hits[e]
            lt = key[i] < bk
            bk = key[i] if lt else bk
            bs = stay[i] if lt else bs
            br = rest[i] if lt else br
        S += group_p[g] * bs
        R += group_p[g] * br
    return S, R


def scratch(k):
    """Work arrays of one thread: ``(work, digits, memo)`` for :func:`options`."""
    return np.zeros((3, 4, k * HS)), np.zeros((3, k), np.int64), np.zeros((6, k * k))


@njit(nogil=True, cache=True)
def solve_boards(E, Gd, boards, mode, geo, stride, per_hit, A, grp, stats):
    """Write ``E[b]`` for every ``b`` in ``boards`` (see :func:`_solve_boards`); compiled
    once per mode, so that the mode's branches fold away."""
    return _solve_boards(E, Gd, boards, literally(mode), geo, stride, per_hit, A, grp, stats)


@njit(nogil=True, cache=True)
def _solve_boards(E, Gd, boards, mode, geo, stride, per_hit, A, grp, stats):
    """Write ``E[b]`` for every ``b`` in ``boards`` (successors final). Returns the number
    of boards whose policy never leaves them (infinite value, written as inf).
    ``stats[0]`` += boards, ``stats[1]`` += passes over the throw groups,
    ``stats[2]`` += passes after which a re-examined choice changed."""
    k = geo[0]
    goal = geo[1]
    maxdice = geo[3]
    throws = geo[4]
    group_start = grp[0]
    work = np.zeros((3, 4, k * HS))
    digits = np.zeros((3, k), np.int64)
    memo = np.zeros((6, k * k))
    stay = np.zeros(k * HS)
    rest = np.zeros(k * HS)
    key = np.zeros(k * HS)
    g0 = group_start[maxdice]
    g1 = group_start[maxdice + 1]
    margin = np.zeros(g1 - g0)
    chosen_stay = np.zeros(g1 - g0)
    chosen_rest = np.zeros(g1 - g0)
    stuck = 0
    for n in range(boards.shape[0]):
        b = boards[n]
        s = digits[0]
        _digits(b, geo, stride, s)
        if _open_count(s, k, goal) == 0:
            E[b] = 0.0
            continue
        options(E, Gd, mode, b, s, maxdice, throws - 1, geo, stride, per_hit, A, grp, work, digits,
                memo, n + 1.0, stay, rest, key)
        stats[0] += 1
        if mode != 0:
            S, R = _chosen_pass(g0, g1, stay, rest, key, grp)
            stats[1] += 1
            if 1.0 - S <= 1e-15:
                E[b] = np.inf
                stuck += 1
            else:
                E[b] = (1.0 + R) / (1.0 - S)
            continue
        x = _guess(E, b, s, geo, stride)
        for it in range(200):
            S, R = _policy_pass(g0, g1, x, stay, rest, grp, margin, chosen_stay, chosen_rest)
            stats[1] += 1
            if 1.0 - S <= 1e-12:
                x = 2.0 * x + 1.0
                continue
            xn = (1.0 + R) / (1.0 - S)
            step = abs(xn - x)
            x = xn
            if step <= 1e-14 * x:
                break
            S, R, changed = _recheck(g0, g1, x, step, S, R, stay, rest, grp, margin, chosen_stay, chosen_rest)
            if not changed:
                break
            stats[2] += 1
        E[b] = x
    return stuck
