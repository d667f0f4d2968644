"""Compiled kernels of the two-player race (numba, float64): :mod:`.race_solver` explains the
equations, this module only walks the tables.

Imported only when a race is solved with the kernel (:func:`.race_solver.solve_race_compiled`
imports it inside the function), so ``import dicemath`` never loads numba.

Boards are indices of :class:`.fullboard.layout.BoardLayout` (``N`` boards); a pair's value
is ``V[mover, opponent]`` in an ``N x N`` float64 table. The rules enter through tables the
Python side builds from the engine (:func:`.state.after_hits`, :func:`.state.miss`):

* ``coef[j, need, d, ta, h, c]``: naming the row of position ``j`` with ``need`` steps to go
  and ``h`` hits on a choice throw of ``d`` dice, ``ta`` throws after it (``ta = t - 1``),
  leads to: ``c = 0`` the turn ending where the cycle began (an overthrow, PEGS-6);
  ``c = 1..goal`` the turn ending with the row ``c`` steps on (PEGS-5/9, FIVES-3);
  ``c = goal + 1 .. 2 goal`` a fresh start with the row ``c - goal`` steps on (PEGS-8,
  FIVES-4/5); ``c = 2 goal + t2`` a PEGS-7 choice throw of ``d - dice_per_hit * need`` dice
  with ``t2`` throws left, the row in;
* the choice throws of ``d`` dice grouped by their hits on the open rows, each group a list
  of entries ``j * HM + h`` (row position ``j``, ``h`` hits; ``HM = dice + 1``), most hits
  first, then the higher row: the tie-break order of every choice here.

Every function takes the constant tables as one tuple ``K`` (:func:`.race_solver.kernel_tables`,
``K_FIELDS``) and the work space as ``W`` (``WORK_FIELDS``): few arguments, so that numba
inlines them into one loop (CPython makes a call with more than 30 arguments a ``*args``
call, which numba cannot inline), and the loop is compiled without numba's reference
counting (``_nrt=False``; nothing in it allocates), since counting references to the arrays
a call passes would take a large share of the loop's time.

Order: :func:`solve_pairs` takes the lower board index ``lo`` from the highest down and,
for each, ``hi`` from the highest down to ``lo``; a pair reads only pairs whose boards are
both at least as far on, one further, so they are final. Both ``(hi, lo)`` and ``(lo, hi)``
are solved there, with their mirrors. Each pair starts Newton's method from the neighbours'
extrapolation ``V[a + 1, b] + V[a, b + 1] - V[a + 1, b + 1]`` and is done when the step stays
inside both sides' radius of linearity (:func:`_evaluate`): about 1.1 evaluations of each
side per pair in Pegs, one in Fives (no overthrow: every ``OS`` is 0, each side linear).

An option is ``OS[i] * X + OR[i]`` (``i = j * HM + h``): ``OS`` the chance that the turn ends
where the cycle began, worth ``X``; ``OR`` the value of every other ending. A complete row
has ``OS = 0``, ``OR = -BIG``: never chosen, and a throw with nothing else ends the turn.

Leaves: a turn ending on board ``x'`` is worth ``es * ENDT[er, x'] + eo`` to the mover, a
fresh start ``RT[rc, x'] + ro``, a complete board ``term``. For the race ``ENDT`` is the
opponent's table (``er`` his board, ``es = -1``, ``eo = 1`` for Pegs, 0 for Fives), ``RT``
the transpose of the mover's own (``rc`` the opponent's board), so that both read along a
row; for the solo tables both are the expected turns ``E`` (``RT`` read as ``E - 1``: the
restart identity of :class:`.turn.TurnValue`). Each table is kept with its transpose
(``V1T[b, a] = V1[a, b]``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from dicemath.core.jit import announce_compiles

announce_compiles()

TIE = 1e-12
"""Relative tolerance under which two option values count as equal (as :data:`.race_solver.TIE`)."""

BIG = 1e300
"""Minus the value of a complete row's option: never chosen."""

CACHE_BITS = 12
"""Slots (``2**CACHE_BITS``) of the direct-mapped memo of PEGS-7 choice-throw values (small:
it lives in the cache; a large one costs more in memory traffic than it saves)."""


K_FIELDS = ("digits", "complete", "strides", "per_hit", "coef", "reach", "group_start", "group_p", "entry_start",
            "entry_idx", "solo", "RP", "goal", "dice", "T", "HM")
"""The constant tables ``K`` in order: board digits ``[x, j]``, complete boards, strides and dice
per hit of each row position, the cycle coefficients and which PEGS-7 throws they reach,
the throw groups (``group_start[d]`` .. of ``d`` dice; probabilities; entries), the solo
choices ``solo[x, t - 1, g]``, the FIVES-6 rest points of every board, then goal, dice,
throws ``T`` and the slots per row ``HM``."""

WORK_FIELDS = ("WS", "WR", "WN", "WE", "ckey", "cval", "bits")
"""The work space ``W``: option stays and rests per row of work (``[row, j * HM + h]``), PEGS-7
values ``[row, j, t2]``, leaf values ``[row, 2, goal + 1]``, the memo's keys and values, and
its size in bits. Rows ``1 .. dice`` serve the PEGS-7 throws, ``dice + 2`` and ``dice + 3``
the two sides of a pair."""


@njit(cache=True, inline="always", _nrt=False)  # type: ignore[call-overload]  # numba's stubs lack the private _nrt
def _fill_options(x, d, t, ENDT, er, es, eo, RT, rc, ro, term, K, W, row):
    """``OS = WS[row]``, ``OR = WR[row]`` of every option of a choice throw of ``d`` dice, ``t``
    throws left, on board ``x``; ``WN[row, j, t2]`` holds the PEGS-7 choice throws that follow
    row ``j`` going in. Work arrays are indexed, never sliced (a slice is an array to count
    references to)."""
    digits, complete, strides, per_hit, coef = K[0], K[1], K[2], K[3], K[4]
    goal, T, HM = K[12], K[14], K[15]
    WS, WR, WN, WE = W[0], W[1], W[2], W[3]
    for j in range(strides.shape[0]):
        base = j * HM
        s = digits[x, j]
        if s >= goal:
            for h in range(HM):
                WS[row, base + h] = 0.0
                WR[row, base + h] = -BIG
            continue
        need = goal - s
        st = strides[j]
        for c in range(1, need + 1):
            xc = x + c * st
            if complete[xc]:
                WE[row, 0, c] = term
                WE[row, 1, c] = term
            else:
                WE[row, 0, c] = es * ENDT[er, xc] + eo
                WE[row, 1, c] = RT[rc, xc] + ro
        for h in range(1, d // per_hit[j] + 1):
            r = 0.0
            for c in range(1, need + 1):
                r += coef[j, need, d, t - 1, h, c] * WE[row, 0, c] \
                    + coef[j, need, d, t - 1, h, goal + c] * WE[row, 1, c]
            for t2 in range(1, T):
                r += coef[j, need, d, t - 1, h, 2 * goal + t2] * WN[row, j, t2]
            WS[row, base + h] = coef[j, need, d, t - 1, h, 0]
            WR[row, base + h] = r


@njit(cache=True, inline="always", _nrt=False)  # type: ignore[call-overload]  # numba's stubs lack the private _nrt
def _choice_value(here, race, x, d, t, K, W, row):
    """The value of a choice throw of ``d`` dice whose turn-ending-here is worth ``here``: per
    throw group the best option (``race``) or the solo table's, ``here`` when no row is legal."""
    group_start, group_p, entry_start, entry_idx, solo = K[6], K[7], K[8], K[9], K[10]
    WS, WR = W[0], W[1]
    total = 0.0
    for g in range(group_start[d], group_start[d + 1]):
        if race:
            best = -BIG
            for e in range(entry_start[g], entry_start[g + 1]):
                i = entry_idx[e]
                v = WS[row, i] * here + WR[row, i]
                if v > best:
                    best = v
            total += group_p[g] * (best if best > -BIG else here)
        else:
            e = solo[x, t - 1, g]
            if e < 0:
                total += group_p[g] * here
            else:
                i = entry_idx[e]
                total += group_p[g] * (WS[row, i] * here + WR[row, i])
    return total


@njit(cache=True, inline="always", _nrt=False)  # type: ignore[call-overload]  # numba's stubs lack the private _nrt
def _evaluate(X, race, x, K, W, row):
    """``(F(X), slope, radius)`` of a turn's first choice throw: ``F`` is linear with this slope
    for every ``X'`` with ``|X' - X| < radius`` (no throw's best option can change: its lead
    over the second best exceeds the step times the spread of the options' slopes)."""
    group_start, group_p, entry_start, entry_idx, solo = K[6], K[7], K[8], K[9], K[10]
    dice, T = K[13], K[14]
    WS, WR = W[0], W[1]
    total = 0.0
    slope = 0.0
    radius = np.inf
    for g in range(group_start[dice], group_start[dice + 1]):
        p = group_p[g]
        if race:
            best = -BIG
            second = -BIG
            bs = 0.0
            smin = 1.0
            smax = 0.0
            for e in range(entry_start[g], entry_start[g + 1]):
                i = entry_idx[e]
                s = WS[row, i]
                v = s * X + WR[row, i]
                if v > best or (v == best and s > bs):
                    second = best
                    best = v
                    bs = s
                elif v > second:
                    second = v
                smin = min(smin, s)
                smax = max(smax, s)
            if best > -BIG:
                total += p * best
                slope += p * bs
                if second > -BIG:
                    spread = max(smax - bs, bs - smin)
                    if spread > 0.0:
                        radius = min(radius, (best - second) / spread)
            else:
                total += p * X
                slope += p
        else:
            e = solo[x, T - 1, g]
            if e < 0:
                total += p * X
                slope += p
            else:
                i = entry_idx[e]
                total += p * (WS[row, i] * X + WR[row, i])
                slope += p * WS[row, i]
    return total, slope, radius


@njit(cache=True)
def solo_tables(E, K, CE):
    """Solo-optimal play from the expected turns ``E``: ``solo[x, t - 1, g]`` (in ``K``) the entry
    chosen on throw group ``g`` (-1: no legal row) at every choice throw (``d`` dice of the
    group, ``t`` throws left), the least ``stay * E[x] + rest`` (first of equals in entry
    order, :data:`TIE`); ``CE[x, d, t]`` the expected turns of a PEGS-7 choice throw (``d``
    below all dice), boards from the most progress down."""
    digits, complete, strides, per_hit, reach = K[0], K[1], K[2], K[3], K[5]
    group_start, group_p, entry_start, entry_idx, solo = K[6], K[7], K[8], K[9], K[10]
    goal, dice, T, HM = K[12], K[13], K[14], K[15]
    N = E.shape[0]
    k = strides.shape[0]
    ENDT = E.reshape((1, N))
    RT = E.reshape((1, N))
    W = (np.zeros((1, k * HM)), np.zeros((1, k * HM)), np.zeros((1, k, T)), np.zeros((1, 2, goal + 1)))
    WS, WR, WN = W[0], W[1], W[2]
    for x in range(N - 1, -1, -1):
        if complete[x]:
            continue
        here = E[x]
        for d in range(dice, 0, -1):
            for t in range(T, 0, -1):
                if (d == dice) != (t == T):          # turn starts (all dice, the full budget) and PEGS-7 throws
                    continue
                for j in range(k):
                    s = digits[x, j]
                    if s >= goal:
                        continue
                    need = goal - s
                    d2 = d - per_hit[j] * need
                    xin = x + need * strides[j]
                    for t2 in range(1, T):
                        WN[0, j, t2] = 0.0
                        if d2 >= 1 and not complete[xin] and reach[j, need, d, t - 1, t2]:
                            WN[0, j, t2] = CE[xin, d2, t2]
                _fill_options(x, d, t, ENDT, 0, 1.0, 0.0, RT, 0, -1.0, 0.0, K, W, 0)
                total = 0.0
                for g in range(group_start[d], group_start[d + 1]):
                    best = 0.0
                    chosen = -1
                    for e in range(entry_start[g], entry_start[g + 1]):
                        i = entry_idx[e]
                        if WR[0, i] <= -BIG:
                            continue
                        v = WS[0, i] * here + WR[0, i]
                        if chosen < 0 or v < best - TIE * (1.0 + abs(best)):
                            best = v
                            chosen = e
                    solo[x, t - 1, g] = chosen
                    total += group_p[g] * (best if chosen >= 0 else here)
                if d < dice:
                    CE[x, d, t] = total


@njit(cache=True, inline="always", _nrt=False)  # type: ignore[call-overload]  # numba's stubs lack the private _nrt
def _slot(key, bits):
    return np.int64((np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(64 - bits))


@njit(cache=True, inline="always", _nrt=False)  # type: ignore[call-overload]  # numba's stubs lack the private _nrt
def _last_throw_value(x, d, y, ctx, race, TOT, TP, eo, term, K, W, depth):
    """The mover's race value of a PEGS-7 choice throw of ``d`` dice with one throw left on board
    ``x`` (opponent ``y``; ``ctx`` names the mover's tables for the memo): no PEGS-7 throw can
    follow it; the choice by his policy (``race``: the best race value; else the solo
    table), a throw with no legal row ending the turn on ``x``."""
    ckey, cval, bits = W[4], W[5], W[6]
    WN = W[2]
    N = TP.shape[0]
    key = (((x * N + y) * 8 + d) * 8 + 1) * 2 + ctx
    slot = _slot(key, bits)
    if ckey[slot] == key:
        return cval[slot]
    for j in range(K[2].shape[0]):
        for t2 in range(K[14]):
            WN[depth, j, t2] = 0.0
    _fill_options(x, d, 1, TP, y, -1.0, eo, TOT, y, 0.0, term, K, W, depth)
    total = _choice_value(-TP[y, x] + eo, race, x, d, 1, K, W, depth)
    ckey[slot] = key
    cval[slot] = total
    return total


@njit(cache=True, inline="always", _nrt=False)  # type: ignore[call-overload]  # numba's stubs lack the private _nrt
def _two_throws_value(x, d, y, ctx, race, TOT, TP, eo, term, K, W, depth):
    """As :func:`_last_throw_value` with two throws left: a row going in on this choice throw
    with dice left is followed by a PEGS-7 choice throw with one throw left. (Only the
    rules' three throws, PEGS-3, are compiled: :func:`.race_solver.kernel_tables` checks.)"""
    digits, complete, strides, per_hit, reach, goal = K[0], K[1], K[2], K[3], K[5], K[12]
    ckey, cval, bits = W[4], W[5], W[6]
    WN = W[2]
    N = TP.shape[0]
    key = (((x * N + y) * 8 + d) * 8 + 2) * 2 + ctx
    slot = _slot(key, bits)
    if ckey[slot] == key:
        return cval[slot]
    for j in range(strides.shape[0]):
        for t2 in range(K[14]):
            WN[depth, j, t2] = 0.0
        s = digits[x, j]
        if s >= goal:
            continue
        need = goal - s
        d2 = d - per_hit[j] * need
        xin = x + need * strides[j]
        if reach[j, need, d, 1, 1]:
            if complete[xin]:
                WN[depth, j, 1] = term
            elif d2 >= 1:
                WN[depth, j, 1] = _last_throw_value(xin, d2, y, ctx, race, TOT, TP, eo, term, K, W, depth + 1)
    _fill_options(x, d, 2, TP, y, -1.0, eo, TOT, y, 0.0, term, K, W, depth)
    total = _choice_value(-TP[y, x] + eo, race, x, d, 2, K, W, depth)
    ckey[slot] = key
    cval[slot] = total
    return total


@njit(cache=True, inline="always", _nrt=False)  # type: ignore[call-overload]  # numba's stubs lack the private _nrt
def _side(x, y, ctx, race, TOT, TP, eo, term, K, W, row):
    """Fill ``WS[row]``, ``WR[row]`` for the options of the first choice throw of mover ``x``'s
    turn against ``y`` (the transpose of his own table ``TOT``, the opponent's table ``TP``)."""
    digits, complete, strides, per_hit, reach = K[0], K[1], K[2], K[3], K[5]
    goal, dice, T = K[12], K[13], K[14]
    WN = W[2]
    for j in range(strides.shape[0]):
        s = digits[x, j]
        if s >= goal:
            continue
        need = goal - s
        d2 = dice - per_hit[j] * need
        xin = x + need * strides[j]
        for t2 in range(1, T):
            v = 0.0
            if reach[j, need, dice, T - 1, t2]:
                if complete[xin]:
                    v = term
                elif d2 >= 1 and t2 == 1:
                    v = _last_throw_value(xin, d2, y, ctx, race, TOT, TP, eo, term, K, W, 1)
                elif d2 >= 1:
                    v = _two_throws_value(xin, d2, y, ctx, race, TOT, TP, eo, term, K, W, 1)
            WN[row, j, t2] = v
    _fill_options(x, dice, T, TP, y, -1.0, eo, TOT, y, 0.0, term, K, W, row)


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # numba's stubs lack the private _nrt
def _count(x, y, X, K, W, row, stats, ex_loss, ex_info, ex_value):
    """Add the turn-start choices of mover ``x`` (race play, ``X`` solved) to ``stats``: ``[chance
    of a throw with two or more legal rows, chance of one where the race row is worth more than
    the solo row, pairs, pairs with such a throw]`` (chances summed over pairs: invariant under
    how throws are grouped); keep the largest losses (``ex_info``: mover, opponent, group, race
    entry, solo entry, and in ``ex_info[0, 5]`` the slot of the smallest loss; ``ex_value``:
    their values)."""
    group_start, group_p, entry_start, entry_idx, solo = K[6], K[7], K[8], K[9], K[10]
    dice, T = K[13], K[14]
    WS, WR = W[0], W[1]
    differs = False
    for g in range(group_start[dice], group_start[dice + 1]):
        legal = 0
        best = 0.0
        race_e = -1
        for e in range(entry_start[g], entry_start[g + 1]):
            i = entry_idx[e]
            if WR[row, i] <= -BIG:
                continue
            legal += 1
            v = WS[row, i] * X + WR[row, i]
            if race_e < 0 or v > best:
                best = v
                race_e = e
        if legal < 2:
            continue
        stats[0] += group_p[g]
        e = solo[x, T - 1, g]
        i = entry_idx[e]
        value = WS[row, i] * X + WR[row, i]
        if value < best - TIE * (1.0 + abs(best)):
            differs = True
            stats[1] += group_p[g]
            loss = best - value
            worst = ex_info[0, 5]                     # the slot of the smallest loss kept
            if loss > ex_loss[worst]:
                ex_loss[worst] = loss
                ex_info[worst, 0] = x
                ex_info[worst, 1] = y
                ex_info[worst, 2] = g
                ex_info[worst, 3] = race_e
                ex_info[worst, 4] = e
                ex_value[worst, 0] = best
                ex_value[worst, 1] = value
                for n in range(ex_loss.shape[0]):
                    if ex_loss[n] < ex_loss[worst]:
                        worst = n
                ex_info[0, 5] = worst
    stats[2] += 1.0
    if differs:
        stats[3] += 1.0


@njit(cache=True, inline="always", _nrt=False)  # type: ignore[call-overload]  # numba's stubs lack the private _nrt
def _mirror(v, pegs):
    return 1.0 - v if pegs else -v


@njit(cache=True, inline="always", _nrt=False)  # type: ignore[call-overload]  # numba's stubs lack the private _nrt
def _system(a, b, tables, race_a, race_b, ctx_b, pegs, guess, K, W, work):
    """Solve ``TA[a, b]`` (mover ``a``) and ``TB[b, a]`` together, ``tables = (TA, TB, TAT, TBT)``
    (each table and its transpose): Newton's method on the active pieces of
    ``u = F_a(m(F_b(m(u))))`` inside a bracket, from ``guess``; done when the step stays
    within both sides' radius of linearity (or is below rounding). Returns ``u``."""
    TA, TB, TAT, TBT = tables
    RP, dice = K[11], K[13]
    eo = 1.0 if pegs else 0.0
    term_a = 1.0 if pegs else RP[b]
    term_b = 1.0 if pegs else RP[a]
    row_a = dice + 2
    row_b = dice + 3
    for side in range(2):                                    # one call site: numba inlines it once
        if side == 0:
            _side(a, b, 0, race_a, TAT, TB, eo, term_a, K, W, row_a)
        else:
            _side(b, a, ctx_b, race_b, TBT, TA, eo, term_b, K, W, row_b)
    if pegs:
        lo, hi = -1.0, 2.0
    else:
        lo, hi = -RP[a] - 1.0, RP[b] + 1.0
    u = guess if lo < guess < hi else 0.5 * (lo + hi)
    w = 0.0
    done = False
    for _ in range(500):
        work[0] += 1
        Y = _mirror(u, pegs)
        w, sb, rb = _evaluate(Y, race_b, b, K, W, row_b)
        X = _mirror(w, pegs)
        h, sa, ra = _evaluate(X, race_a, a, K, W, row_a)
        phi = u - h
        if phi == 0.0:
            done = True
            break
        if phi < 0.0:
            lo = u
        else:
            hi = u
        slope = sa * sb
        new = 0.5 * (lo + hi)
        if slope < 1.0:
            newton = (h - slope * u) / (1.0 - slope)
            if lo <= newton <= hi:
                new = newton
                w_new = w + sb * (_mirror(new, pegs) - Y)
                if abs(new - u) < rb and abs(_mirror(w_new, pegs) - X) < ra:
                    u, w = new, w_new                        # the same pieces: the root itself
                    done = True
                    break
        if abs(new - u) <= 1e-15 * (1.0 + abs(u)):
            u = new
            w = _evaluate(_mirror(u, pegs), race_b, b, K, W, row_b)[0]
            done = True
            break
        u = new
    if not done:
        raise RuntimeError("the race equations of a pair did not converge")
    TA[a, b] = u
    TAT[b, a] = u
    TB[b, a] = w
    TBT[a, b] = w
    return u


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # numba's stubs lack the private _nrt
def solve_pairs(tables, race1, race2, symmetric, pegs, K, W, stats, ex_loss, ex_info, ex_value, work, lo_from,
                lo_to):
    """Solve every pair whose lower board index is in ``lo_from`` down to ``lo_to`` (inclusive):
    for each such ``lo``, every ``hi >= lo`` from the highest index down (every value a pair
    reads is then final). ``tables = (V1, V2, V1T, V2T)``: ``V1[a, b]`` the first mover's
    policy (``race1``) to move on ``a`` against the second's ``b``, ``V2`` the second's (the
    same array when ``symmetric``), and their transposes. With both playing to win
    (``symmetric`` and ``race1``), the turn-start choices are counted (``stats``).
    ``work``: ``[Newton steps, systems]``."""
    V1, V2, V1T, V2T = tables
    complete, dice = K[1], K[13]
    N = V1.shape[0]
    count = symmetric and race1
    ctx2 = 0 if symmetric else 1
    forward = (V1, V2, V1T, V2T)
    guess1 = 0.5
    guess2 = 0.5
    for lo in range(lo_from, lo_to - 1, -1):
        if complete[lo]:
            continue
        for hi in range(N - 1, lo - 1, -1):
            if complete[hi]:
                continue
            for system in range(1 if symmetric or hi == lo else 2):    # one call site: inlined once
                a, b = (hi, lo) if system == 0 else (lo, hi)
                start = guess1 if system == 0 else guess2
                if a + 1 < N and b + 1 < N:                  # extrapolate from the neighbours solved before
                    near = V1[a + 1, b] + V1[a, b + 1] - V1[a + 1, b + 1]
                    if near == near:
                        start = near
                guess = _system(a, b, forward, race1, race2, ctx2, pegs, start, K, W, work)
                if system == 0:
                    guess1 = guess
                else:
                    guess2 = guess
                work[1] += 1
            if count:
                _count(hi, lo, _mirror(V2[lo, hi], pegs), K, W, dice + 2, stats, ex_loss, ex_info, ex_value)
                if hi != lo:
                    _count(lo, hi, _mirror(V1[hi, lo], pegs), K, W, dice + 3, stats, ex_loss, ex_info, ex_value)
