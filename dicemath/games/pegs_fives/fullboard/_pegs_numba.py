"""numba kernels of :mod:`.pegs_kernel` (module level, so numba's on-disk cache works).

Checked against the exact reduced solver and :class:`..turn.TurnValue` in
``tests/pegs_fives/test_pegs_kernel.py``. Every function releases the GIL.

Modes (``mode``): 0 optimal (minimise with ``V``), 1 greedy, 2 safe greedy, 3 lookahead
(choose by the option values under the guide table ``Gd``, evaluate with ``V``). In every
mode the first option of a throw group with the smallest key is chosen; the options of a
group are sorted by hits then row, both descending (the policies' tie-break).
"""

from __future__ import annotations

import numpy as np
from numba import literally, njit

BIG = 1e300
SLOTS = 7          # option slots per row: hits 0..6 (pegs_kernel.MAX_HITS)


@njit(nogil=True, cache=True, inline="always")
def _rest(V, b, st, slot, need, notlast, c2, c1, tab):
    """Everything but the overthrow term of an option (see pegs_kernel.cycle_tables)."""
    over, fresh_below, fresh_in, choice, q_start, q_step, q_p, throws = tab
    r = -fresh_below[slot]
    for e in range(q_start[slot], q_start[slot + 1]):
        c = q_step[e]
        if notlast or c != need:
            r += q_p[e] * V[b + c * st]
    if notlast:
        r += choice[slot * throws + 2] * c2 + choice[slot * throws + 1] * c1 - fresh_in[slot]
    return r


@njit(nogil=True, cache=True, inline="always")
def _slot(geo, j, need, dice, ta, h):
    goal = geo[1]
    maxdice = geo[3]
    throws = geo[4]
    return (((j * (goal + 1) + need) * (maxdice + 1) + dice) * throws + ta) * SLOTS + h


@njit(nogil=True, cache=True, inline="always")
def _key(mode, v, s_j, h, goal, g):
    if mode == 0:
        return v
    if mode == 1:
        return 0.0
    if mode == 2:
        return 1.0 if s_j + h > goal else 0.0
    return g


@njit(nogil=True, cache=True, inline="always")
def _group_value(mode, g, X, val, key, grp):
    """The chosen option's value in throw group ``g`` (``X`` when no row is legal).
    Closed rows carry key ``BIG``; branch-free selects."""
    entry_start = grp[2]
    entry_row = grp[3]
    entry_hits = grp[4]
    bk = BIG
    bv = X
    if mode == 0:
        for e in range(entry_start[g], entry_start[g + 1]):
            v = val[entry_row[e] * SLOTS + entry_hits[e]]
            bk = v if v < bk else bk
        return X if bk >= BIG else bk
    for e in range(entry_start[g], entry_start[g + 1]):
        i = entry_row[e] * SLOTS + entry_hits[e]
        kv = key[i]
        lt = kv < bk
        bk = kv if lt else bk
        bv = val[i] if lt else bv
    return bv


@njit(nogil=True, cache=True, inline="always")
def _close_rows(s, d, geo, per_hit, val, key):
    """Mark the options of complete rows with ``BIG`` (never chosen)."""
    for j in range(geo[0]):
        if s[j] >= geo[1]:
            for h in range(1, d // per_hit[j] + 1):
                val[j * SLOTS + h] = BIG
                key[j * SLOTS + h] = BIG


@njit(nogil=True, cache=True)
def _choice1(V, Gd, mode, B, s, d, geo, stride, per_hit, tab, grp, val, key):
    """Value of a PEGS-7 choice throw on board ``B`` (digits ``s``) with ``d`` dice and one
    throw left: the cycle after it has no throws (PEGS-9)."""
    k = geo[0]
    goal = geo[1]
    over = tab[0]
    group_start, group_p, entry_start, entry_row, entry_hits = grp
    X = np.float64(V[B])
    XG = np.float64(Gd[B]) if mode == 3 else 0.0
    nopen = 0
    for j in range(k):
        if s[j] < goal:
            nopen += 1
    notlast = nopen > 1
    for j in range(k):
        if s[j] >= goal:
            continue
        need = goal - s[j]
        st = stride[j]
        for h in range(1, d // per_hit[j] + 1):
            slot = _slot(geo, j, need, d, 0, h)
            v = over[slot] * X + _rest(V, B, st, slot, need, notlast, 0.0, 0.0, tab)
            g = 0.0
            if mode == 3:
                g = over[slot] * XG + _rest(Gd, B, st, slot, need, notlast, 0.0, 0.0, tab)
            val[j * SLOTS + h] = v
            key[j * SLOTS + h] = _key(mode, v, s[j], h, goal, g)
    _close_rows(s, d, geo, per_hit, val, key)
    total = 0.0
    for g in range(group_start[d], group_start[d + 1]):
        total += group_p[g] * _group_value(mode, g, X, val, key, grp)
    return total


@njit(nogil=True, cache=True)
def _choice2(V, Gd, mode, B, s, d, geo, stride, per_hit, tab, grp, work, digits):
    """Values of PEGS-7 choice throws on ``B`` with ``d`` dice and 2 and 1 throws left."""
    k = geo[0]
    goal = geo[1]
    over = tab[0]
    group_start, group_p, entry_start, entry_row, entry_hits = grp
    val1 = work[1, 0]
    val0 = work[1, 1]
    key1 = work[1, 2]
    key0 = work[1, 3]
    s2 = digits[2]
    X = np.float64(V[B])
    XG = np.float64(Gd[B]) if mode == 3 else 0.0
    nopen = 0
    for j in range(k):
        if s[j] < goal:
            nopen += 1
    notlast = nopen > 1
    for j in range(k):
        if s[j] >= goal:
            continue
        need = goal - s[j]
        st = stride[j]
        dd = d - per_hit[j] * need
        c1 = 0.0
        g1 = 0.0
        if notlast and dd > 0:
            for i in range(k):
                s2[i] = s[i]
            s2[j] = goal
            c1 = _choice1(V, Gd, mode, B + need * st, s2, dd, geo, stride, per_hit, tab, grp,
                          work[2, 0], work[2, 1])
            if mode == 3:
                g1 = _choice1(Gd, Gd, 0, B + need * st, s2, dd, geo, stride, per_hit, tab, grp,
                              work[2, 0], work[2, 1])
        for h in range(1, d // per_hit[j] + 1):
            slot1 = _slot(geo, j, need, d, 1, h)
            slot0 = _slot(geo, j, need, d, 0, h)
            v1 = over[slot1] * X + _rest(V, B, st, slot1, need, notlast, 0.0, c1, tab)
            v0 = over[slot0] * X + _rest(V, B, st, slot0, need, notlast, 0.0, 0.0, tab)
            w1 = 0.0
            w0 = 0.0
            if mode == 3:
                w1 = over[slot1] * XG + _rest(Gd, B, st, slot1, need, notlast, 0.0, g1, tab)
                w0 = over[slot0] * XG + _rest(Gd, B, st, slot0, need, notlast, 0.0, 0.0, tab)
            i = j * SLOTS + h
            val1[i] = v1
            val0[i] = v0
            key1[i] = _key(mode, v1, s[j], h, goal, w1)
            key0[i] = _key(mode, v0, s[j], h, goal, w0)
    _close_rows(s, d, geo, per_hit, val1, key1)
    _close_rows(s, d, geo, per_hit, val0, key0)
    total1 = 0.0
    total0 = 0.0
    for g in range(group_start[d], group_start[d + 1]):
        total1 += group_p[g] * _group_value(mode, g, X, val1, key1, grp)
        total0 += group_p[g] * _group_value(mode, g, X, val0, key0, grp)
    return total1, total0


@njit(nogil=True, cache=True)
def options(V, Gd, mode, b, s, d, ta, geo, stride, per_hit, tab, grp, work, digits, stay, rest, key):
    """The options after a choice throw of ``d`` dice with ``ta`` throws left after it, on
    board ``b`` (digits ``s``): ``stay``, ``rest`` (with ``V``) and the choice ``key`` at
    slot ``j * SLOTS + hits`` of every open row ``j``. Later choices of the turn: ``mode``."""
    k = geo[0]
    goal = geo[1]
    over = tab[0]
    s1 = digits[1]
    XG = np.float64(Gd[b]) if mode == 3 else 0.0
    nopen = 0
    for j in range(k):
        if s[j] < goal:
            nopen += 1
    notlast = nopen > 1
    for j in range(k):
        if s[j] >= goal:
            continue
        need = goal - s[j]
        st = stride[j]
        dd = d - per_hit[j] * need
        c2 = 0.0
        c1 = 0.0
        g2 = 0.0
        g1 = 0.0
        if notlast and dd > 0 and ta >= 1:
            for i in range(k):
                s1[i] = s[i]
            s1[j] = goal
            if ta >= 2:
                c2, c1 = _choice2(V, Gd, mode, b + need * st, s1, dd, geo, stride, per_hit, tab, grp,
                                  work, digits)
                if mode == 3:
                    g2, g1 = _choice2(Gd, Gd, 0, b + need * st, s1, dd, geo, stride, per_hit, tab, grp,
                                      work, digits)
            else:
                c1 = _choice1(V, Gd, mode, b + need * st, s1, dd, geo, stride, per_hit, tab, grp,
                              work[1, 0], work[1, 1])
                if mode == 3:
                    g1 = _choice1(Gd, Gd, 0, b + need * st, s1, dd, geo, stride, per_hit, tab, grp,
                                  work[1, 0], work[1, 1])
        for h in range(1, d // per_hit[j] + 1):
            slot = _slot(geo, j, need, d, ta, h)
            r = _rest(V, b, st, slot, need, notlast, c2, c1, tab)
            g = 0.0
            if mode == 3:
                g = over[slot] * XG + _rest(Gd, b, st, slot, need, notlast, g2, g1, tab)
            i = j * SLOTS + h
            stay[i] = over[slot]
            rest[i] = r
            key[i] = _key(mode, 0.0, s[j], h, goal, g)


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
            i = entry_row[e] * SLOTS + entry_hits[e]
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
            i = entry_row[e] * SLOTS + entry_hits[e]
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
            i = entry_row[e] * SLOTS + entry_hits[e]
            lt = key[i] < bk
            bk = key[i] if lt else bk
            bs = stay[i] if lt else bs
            br = rest[i] if lt else br
        S += group_p[g] * bs
        R += group_p[g] * br
    return S, R


@njit(nogil=True, cache=True)
def solve_boards(E, Gd, boards, mode, geo, stride, per_hit, tab, grp, stats):
    """Write ``E[b]`` for every ``b`` in ``boards`` (see :func:`_solve_boards`); compiled
    once per mode, so that the mode's branches fold away."""
    return _solve_boards(E, Gd, boards, literally(mode), geo, stride, per_hit, tab, grp, stats)


@njit(nogil=True, cache=True)
def _solve_boards(E, Gd, boards, mode, geo, stride, per_hit, tab, grp, stats):
    """Write ``E[b]`` for every ``b`` in ``boards`` (successors final). Returns the number
    of boards whose policy never leaves them (infinite value, written as inf).
    ``stats[0]`` += boards, ``stats[1]`` += passes over the throw groups,
    ``stats[2]`` += passes after which a re-examined choice changed."""
    k = geo[0]
    goal = geo[1]
    maxdice = geo[3]
    throws = geo[4]
    group_start = grp[0]
    work = np.zeros((3, 4, k * SLOTS))
    digits = np.zeros((3, k), np.int64)
    stay = np.zeros(k * SLOTS)
    rest = np.zeros(k * SLOTS)
    key = np.zeros(k * SLOTS)
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
        nopen = 0
        for j in range(k):
            if s[j] < goal:
                nopen += 1
        if nopen == 0:
            E[b] = 0.0
            continue
        options(E, Gd, mode, b, s, maxdice, throws - 1, geo, stride, per_hit, tab, grp, work, digits,
                stay, rest, key)
        for j in range(k):
            if s[j] >= goal:
                for h in range(1, maxdice // per_hit[j] + 1):
                    stay[j * SLOTS + h] = 0.0
                    rest[j * SLOTS + h] = BIG
                    key[j * SLOTS + h] = BIG
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
