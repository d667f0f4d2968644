"""numba kernels of :mod:`.pegs_kernel`: 16 boards at a time (module level, so numba's
on-disk cache works).

Checked against the exact reduced solver and :class:`..turn.TurnValue` in
``tests/pegs_fives/test_pegs_kernel.py``. Every function releases the GIL.

**Lanes.** Every function works on ``L = 16`` boards at once (*lanes*): arrays of option
values are laid out ``[slot][lane]`` with slot ``j * HS + h`` (row position ``j``, ``h``
hits), so that the minimum over a throw group's options is a run of contiguous 16-wide
loads and vector minima. The hot group loops are written out lane by lane (generated
below) because LLVM's SLP vectoriser packs straight-line code, not a loop over lanes
held in memory; indices into them are unsigned (signed ones cost a wrap-around test).
The planner (:func:`plan`) sorts the boards so that a batch of 16 shares the digits of
every row but a few (``varying``): a shared row has one cycle table and one PEGS-7
choice-throw board for all lanes; a row whose digit differs between lanes is evaluated
lane by lane and its PEGS-7 values in one masked pass per distinct need.

**Modes** (``mode``, a compile-time constant: one entry point per mode, :data:`SOLVERS`): 0 optimal (minimise with ``V``), 1 greedy,
2 safe greedy, 3 lookahead (choose by the option values under the guide table ``Gd``,
evaluate with ``V``). In every mode the first option of a throw group with the smallest
key is chosen; a group's options are sorted by hits then row, both descending (the
policies' tie-break).

**Options.** A row's values for all hits come from one dot product of its cycle table
(``pegs_kernel.cycle_tables``) with the values the cycle leads to: the overthrow value,
``V`` at the row's next steps, the PEGS-7 choice throws (2 and 1 throws left) and the
restart constant. Options of complete rows hold ``BIG`` and are never chosen.

Levels of a turn: 0 the turn's first choice throw on board ``b``; 1 a PEGS-7 choice throw
after row ``j`` went in (:func:`_choice2`); 2 one after a second row went in with one
throw left (:func:`_choice1`). Each level has its own boards, digits and value arrays in
the scratch space (:func:`scratch`).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.core import config

from dicemath.games.pegs_fives.fullboard.pegs_kernel import MAX_HITS as HS, ROW_STEPS

# numba compiles lazily, at a kernel's first call: the SLP vectoriser must be on then, so
# it is switched on for the rest of the process (it changes speed, never results: LLVM
# does not reorder floating-point arithmetic without fast-math).
config.SLP_VECTORIZE = 1

BIG = 1e300
L = 16             # lanes: boards evaluated together
LU = np.uint64(L)


def _lanes(template: str, indent: int) -> list[str]:
    """``template`` once per lane, ``{l}`` replaced by the lane number."""
    return [" " * indent + template.format(l=l) for l in range(L)]


def _group_kernels_source() -> str:
    """Source of the four throw-group loops, one line per lane and operation.

    ``_gmin``: sum over groups of p * (minimum option value, or ``X`` if none is legal);
    ``_gkey``: the same with the option of the smallest key (first of equals);
    ``_gpass``: a Newton pass (the minimising option's stay and rest, the margin to the
    best option of another stay); ``_gchosen``: stay and rest of the smallest-key option.
    Groups ``g0 .. g1``; option slots ``slot[e]`` for ``e`` in ``start[g] .. start[g+1]``.
    """
    src = ["def _gmin(val, g0, g1, gp, start, slot, X, out):"]
    src += _lanes("t{l} = 0.0", 4)
    src += ["    for g in range(g0, g1):"]
    src += _lanes("b{l} = BIG", 8)
    src += ["        for e in range(start[g], start[g + ONE]):", "            o = slot[e] * LU"]
    src += _lanes("v{l} = val[o + U{l}]; b{l} = v{l} if v{l} < b{l} else b{l}", 12)
    src += ["        p = gp[g]"]
    src += _lanes("t{l} += p * (X[{l}] if b{l} >= BIG else b{l})", 8)
    src += _lanes("out[{l}] = t{l}", 4)

    src += ["def _gkey(val, key, g0, g1, gp, start, slot, X, out):"]
    src += _lanes("t{l} = 0.0", 4)
    src += ["    for g in range(g0, g1):"]
    src += _lanes("k{l} = BIG; c{l} = X[{l}]", 8)
    src += ["        for e in range(start[g], start[g + ONE]):", "            o = slot[e] * LU"]
    src += _lanes("q{l} = key[o + U{l}]; lt{l} = q{l} < k{l}; k{l} = q{l} if lt{l} else k{l}; "
                  "c{l} = val[o + U{l}] if lt{l} else c{l}", 12)
    src += ["        p = gp[g]"]
    src += _lanes("t{l} += p * c{l}", 8)
    src += _lanes("out[{l}] = t{l}", 4)

    src += ["def _gpass(stay, rest, g0, g1, gp, start, slot, x, S, R, margin, cstay, crest):"]
    src += _lanes("s{l} = 0.0; r{l} = 0.0; x{l} = x[{l}]", 4)
    src += ["    for g in range(g0, g1):"]
    src += _lanes("b{l} = BIG; n{l} = BIG; bs{l} = 1.0; br{l} = 0.0", 8)
    src += ["        for e in range(start[g], start[g + ONE]):", "            o = slot[e] * LU"]
    # n: the best value among options whose stay differs from the best one's; when the
    # new option v differs in stay from the current best b, the loser of the two joins.
    src += _lanes("st{l} = stay[o + U{l}]; rs{l} = rest[o + U{l}]; v{l} = st{l} * x{l} + rs{l}; "
                  "lt{l} = v{l} < b{l}; "
                  "n{l} = min(n{l}, max(v{l}, b{l})) if st{l} != bs{l} else n{l}; "
                  "b{l} = min(b{l}, v{l}); bs{l} = st{l} if lt{l} else bs{l}; "
                  "br{l} = rs{l} if lt{l} else br{l}", 12)
    src += ["        p = gp[g]", "        m = (g - g0) * LU"]
    src += _lanes("s{l} += p * bs{l}; r{l} += p * br{l}; cstay[m + U{l}] = bs{l}; crest[m + U{l}] = br{l}; "
                  "margin[m + U{l}] = BIG if n{l} >= BIG else n{l} - b{l}", 8)
    src += _lanes("S[{l}] = s{l}; R[{l}] = r{l}", 4)

    src += ["def _gchosen(stay, rest, key, g0, g1, gp, start, slot, S, R):"]
    src += _lanes("s{l} = 0.0; r{l} = 0.0", 4)
    src += ["    for g in range(g0, g1):"]
    src += _lanes("k{l} = BIG; bs{l} = 1.0; br{l} = 0.0", 8)
    src += ["        for e in range(start[g], start[g + ONE]):", "            o = slot[e] * LU"]
    src += _lanes("q{l} = key[o + U{l}]; lt{l} = q{l} < k{l}; k{l} = q{l} if lt{l} else k{l}; "
                  "bs{l} = stay[o + U{l}] if lt{l} else bs{l}; br{l} = rest[o + U{l}] if lt{l} else br{l}", 12)
    src += ["        p = gp[g]"]
    src += _lanes("s{l} += p * bs{l}; r{l} += p * br{l}", 8)
    src += _lanes("S[{l}] = s{l}; R[{l}] = r{l}", 4)

    src += ["def _gmin2(val1, val0, g0, g1, gp, start, slot, X, out1, out0):"]
    src += _lanes("t{l} = 0.0; u{l} = 0.0", 4)
    src += ["    for g in range(g0, g1):"]
    src += _lanes("b{l} = BIG; c{l} = BIG", 8)
    src += ["        for e in range(start[g], start[g + ONE]):", "            o = slot[e] * LU"]
    src += _lanes("v{l} = val1[o + U{l}]; b{l} = v{l} if v{l} < b{l} else b{l}; "
                  "w{l} = val0[o + U{l}]; c{l} = w{l} if w{l} < c{l} else c{l}", 12)
    src += ["        p = gp[g]"]
    src += _lanes("t{l} += p * (X[{l}] if b{l} >= BIG else b{l}); u{l} += p * (X[{l}] if c{l} >= BIG else c{l})", 8)
    src += _lanes("out1[{l}] = t{l}; out0[{l}] = u{l}", 4)
    return "\n".join(src) + "\n"


def _row_kernel_source() -> str:
    """Source of ``_rows``: the options of one row for hits ``1..hmax`` in every lane
    whose digit of the row is ``want`` (every lane if ``want < 0``), from the row's cycle
    table ``t``: ``out[(o + h) * 16 + l]`` = the dot product of table row ``t`` with the
    lane's values: ``X[l]`` (overthrow), ``C2[o2 + l]`` / ``C1[o1 + l]`` (PEGS-7 choice
    throws with 2 / 1 throws left), ``V[Bv[l] + c * st]`` for ``c = 1..reach`` (the turn
    ending or restarting ``c`` steps on) and the restart constant. Branch-free: lanes
    outside the mask and steps beyond ``reach`` read ``V`` at the lane's own board (their
    table coefficient is 0, or the store is masked)."""
    src = ["def _rows(V, boards, digits, lvl, j, st, reach, X, C2, o2, C1, o1, A, t, steps, hmax, out, o, want):"]
    src += _lanes("m{l} = (want < 0) | (digits[lvl, j, {l}] == want); x{l} = X[{l}]; p{l} = C2[o2 + {l}]; "
                  "q{l} = C1[o1 + {l}]; b{l} = boards[lvl, {l}]", 4)
    for c in range(1, ROW_STEPS + 1):
        src += _lanes(f"e{c}_{{l}} = V[b{{l}} + ({c} * st if (m{{l}} & (reach >= {c})) else 0)]", 4)
    src += ["    for h in range(1, hmax + 1):",
            "        a0 = A[t, h]; ap = A[t, (steps + 1) * HS + h]; aq = A[t, (steps + 2) * HS + h]",
            "        ak = A[t, (steps + 3) * HS + h]",
            "        " + "; ".join(f"a{c} = A[t, {c} * HS + h]" for c in range(1, ROW_STEPS + 1)),
            "        base = (o + h) * L"]
    terms = " + ".join(f"a{c} * e{c}_{{l}}" for c in range(1, ROW_STEPS + 1))
    src += _lanes(f"v{{l}} = a0 * x{{l}} + ap * p{{l}} + aq * q{{l}} + ak + {terms}; "
                  "w{l} = out[base + {l}]; out[base + {l}] = v{l} if m{l} else w{l}", 8)
    src += ["        for c in range(ROW_STEPS + 1, reach + 1):",
            "            a = A[t, c * HS + h]",
            "            for l in range(L):",
            "                if (want < 0) | (digits[lvl, j, l] == want):",
            "                    out[base + l] += a * V[boards[lvl, l] + c * st]"]
    return "\n".join(src) + "\n"


_namespace = {"__name__": __name__, "BIG": BIG, "LU": LU, "ONE": np.uint64(1), "HS": HS, "L": L,
              "ROW_STEPS": ROW_STEPS, **{f"U{l}": np.uint64(l) for l in range(L)}}
exec(compile(_group_kernels_source() + _row_kernel_source(), __file__, "exec"), _namespace)   # noqa: S102
_gmin = njit(nogil=True, cache=True)(_namespace["_gmin"])
_gkey = njit(nogil=True, cache=True)(_namespace["_gkey"])
_gpass = njit(nogil=True, cache=True)(_namespace["_gpass"])
_gchosen = njit(nogil=True, cache=True)(_namespace["_gchosen"])
_gmin2 = njit(nogil=True, cache=True)(_namespace["_gmin2"])
_rows = njit(nogil=True, cache=True)(_namespace["_rows"])


def scratch(k: int, goal: int):
    """Work arrays of one thread (``ws``), per level 0..2 of a turn: ``boards`` (16
    boards), ``digits`` ``[row][lane]``, ``opened`` (open rows per lane), ``shared`` (a
    row's digit if all lanes share it, else -1), ``vals`` (four value arrays
    ``[slot][lane]``), ``vecs`` (lane vectors: 0 the boards' values, 1 their guide
    values, 2..5 PEGS-7 values, 6..7 temporaries, 8 zeros), ``ev`` (values read along a
    row), ``memo`` / ``stamps`` (one-throw PEGS-7 values of row pairs, :func:`_choice2`,
    and the batch counter each was stored under, the counter itself in the last column),
    ``packed`` (PEGS-7 values of unshared rows ``[kind][row * 16 + lane]``, kinds as
    ``vecs`` 2..5) and ``task`` (row and lane of each packed lane, :func:`_gather`).
    """
    return (np.zeros((3, L), np.int64), np.zeros((3, k, L), np.int64), np.zeros((3, L), np.int64),
            np.zeros((3, k), np.int64), np.zeros((3, 4, k * HS * L)), np.zeros((3, 9, L)),
            np.zeros((goal + 1, L)), np.zeros((4, k * k, L)), np.zeros((2, k * k + 1)),
            np.zeros((3, 4, k * L)), np.zeros((3, 2, L), np.int64))


@njit(nogil=True, cache=True, inline="always")
def _table(geo, j, need, d0, ta, last):
    """Row of the cycle table (pegs_kernel.option_table)."""
    return (((j * (geo[1] + 1) + need) * (geo[3] + 1) + d0) * geo[4] + ta) * 2 + last


@njit(nogil=True, cache=True)
def _survey(ws, lvl, k, goal):
    """Open rows per lane and shared digits of level ``lvl``; returns ``last``: 1 if every
    lane has one open row, 0 if none has, -1 if mixed (then no row counts as shared: its
    cycle table would differ between lanes)."""
    digits, opened, shared = ws[1], ws[2], ws[3]
    ones = 0
    for l in range(L):
        n = 0
        for j in range(k):
            if digits[lvl, j, l] < goal:
                n += 1
        opened[lvl, l] = n
        if n == 1:
            ones += 1
    last = 1 if ones == L else (0 if ones == 0 else -1)
    for j in range(k):
        v = digits[lvl, j, 0]
        for l in range(1, L):
            if digits[lvl, j, l] != v or last < 0:
                v = -1
        shared[lvl, j] = v
    return last


@njit(nogil=True, cache=True)
def _lane_row(V, B, st, reach, X, c2, c1, A, t, steps, hmax, out, o, l):
    """:func:`_rows` for the one lane ``l`` (lanes that disagree on being the last open
    row use different tables)."""
    for h in range(1, hmax + 1):
        acc = A[t, h] * X + A[t, (steps + 1) * HS + h] * c2 + A[t, (steps + 2) * HS + h] * c1 \
            + A[t, (steps + 3) * HS + h]
        for c in range(1, reach + 1):
            acc += A[t, c * HS + h] * V[B + c * st]
        out[(o + h) * L + l] = acc


@njit(nogil=True, cache=True)
def _fill(out, o, hmax, value):
    """Slots ``o + 1 .. o + hmax`` of every lane set to ``value``."""
    for h in range(1, hmax + 1):
        for l in range(L):
            out[(o + h) * L + l] = value


@njit(nogil=True, cache=True)
def _eval_row(V, lvl, j, d, ta, X, C2, o2, C1, o1, geo, stride, per_hit, A, ws, out, lastf):
    """The options of row ``j`` at level ``lvl`` (a choice throw of ``d`` dice, ``ta``
    throws after it) into ``out`` slots ``j * HS + h``: ``X`` the lanes' overthrow values,
    ``C2[o2 + l]`` / ``C1[o1 + l]`` their PEGS-7 values; ``BIG`` where the row is complete.
    A shared digit takes one table for all lanes; otherwise one masked pass per need."""
    boards, digits, opened, shared = ws[0], ws[1], ws[2], ws[3]
    goal = geo[1]
    o = j * HS
    hmax = min(HS - 1, d // per_hit[j])
    sj = shared[lvl, j]
    if sj >= goal:
        _fill(out, o, hmax, BIG)
    elif sj >= 0:
        need = goal - sj
        _rows(V, boards, digits, lvl, j, stride[j], need - lastf, X, C2, o2, C1, o1, A,
              _table(geo, j, need, d, ta, lastf), geo[5], hmax, out, o, -1)
    elif lastf >= 0:
        _fill(out, o, hmax, BIG)
        for need in range(1, goal + 1):
            for l in range(L):
                if digits[lvl, j, l] == goal - need:
                    _rows(V, boards, digits, lvl, j, stride[j], need - lastf, X, C2, o2, C1, o1, A,
                          _table(geo, j, need, d, ta, lastf), geo[5], hmax, out, o, goal - need)
                    break
    else:
        _fill(out, o, hmax, BIG)
        for l in range(L):
            sl = digits[lvl, j, l]
            if sl < goal:
                last = 1 if opened[lvl, l] == 1 else 0
                _lane_row(V, boards[lvl, l], stride[j], goal - sl - last, X[l], C2[o2 + l], C1[o1 + l], A,
                          _table(geo, j, goal - sl, d, ta, last), geo[5], hmax, out, o, l)


@njit(nogil=True, cache=True)
def _eval_stay(lvl, j, d, ta, geo, per_hit, A, ws, stay, lastf):
    """Overthrow probabilities (PEGS-6) of row ``j``'s options at level ``lvl`` (0 where the
    row is complete)."""
    digits, opened = ws[1], ws[2]
    goal = geo[1]
    o = j * HS
    for l in range(L):
        sl = digits[lvl, j, l]
        last = lastf if lastf >= 0 else (1 if opened[lvl, l] == 1 else 0)
        t = _table(geo, j, goal - sl, d, ta, last) if sl < goal else -1
        for h in range(1, min(HS - 1, d // per_hit[j]) + 1):
            stay[(o + h) * L + l] = A[t, h] if t >= 0 else 0.0


@njit(nogil=True, cache=True)
def _eval_keys(mode, lvl, j, d, geo, per_hit, ws, key):
    """Keys of the fixed policies for row ``j``: greedy 0 (the first legal option), safe
    greedy 1 for an overthrow (PEGS-6) else 0; ``BIG`` where the row is complete."""
    digits = ws[1]
    goal = geo[1]
    o = j * HS
    for l in range(L):
        sl = digits[lvl, j, l]
        for h in range(1, min(HS - 1, d // per_hit[j]) + 1):
            key[(o + h) * L + l] = BIG if sl >= goal else (1.0 if (mode == 2 and sl + h > goal) else 0.0)


@njit(nogil=True, cache=True, inline="always")
def _group_values(mode, d, val, key, grp, X, out):
    """Per lane, sum over the throw groups of ``d`` dice of the chosen option's value."""
    g0 = np.uint64(grp[0][d])
    g1 = np.uint64(grp[0][d + 1])
    if mode == 0:
        _gmin(val, g0, g1, grp[1], grp[2], grp[3], X, out)
    else:
        _gkey(val, key, g0, g1, grp[1], grp[2], grp[3], X, out)


@njit(nogil=True, cache=True, inline="always")
def _enter(ws, lvl, j, need, st, k, goal):
    """Boards and digits of level ``lvl + 1``: the shared row ``j`` of level ``lvl`` gone
    in (``need`` steps) in every lane."""
    boards, digits = ws[0], ws[1]
    for l in range(L):
        boards[lvl + 1, l] = boards[lvl, l] + need * st
        for i in range(k):
            digits[lvl + 1, i, l] = digits[lvl, i, l]
        digits[lvl + 1, j, l] = goal


@njit(nogil=True, cache=True)
def _choice1(V, Gd, mode, lvl, d, geo, stride, per_hit, A, grp, ws, out):
    """``out[l]``: value of a PEGS-7 choice throw with ``d`` dice and one throw left on
    the boards of level ``lvl`` (the cycle after it has no throws, PEGS-9)."""
    boards, vals, vecs = ws[0], ws[4], ws[5]
    k = geo[0]
    goal = geo[1]
    Bv = boards[lvl]
    val = vals[lvl, 0]
    key = vals[lvl, 1]
    X = vecs[lvl, 0]
    XG = vecs[lvl, 1]
    zero = vecs[lvl, 8]
    for l in range(L):
        X[l] = V[Bv[l]]
        XG[l] = Gd[Bv[l]] if mode == 3 else 0.0
    lastf = _survey(ws, lvl, k, goal)
    for j in range(k):
        _eval_row(V, lvl, j, d, 0, X, zero, 0, zero, 0, geo, stride, per_hit, A, ws, val, lastf)
        if mode == 3:
            _eval_row(Gd, lvl, j, d, 0, XG, zero, 0, zero, 0, geo, stride, per_hit, A, ws, key, lastf)
        elif mode != 0:
            _eval_keys(mode, lvl, j, d, geo, per_hit, ws, key)
    _group_values(mode, d, val, key, grp, X, out)


@njit(nogil=True, cache=True)
def _gather(ws, lvl, d, left, pos, geo, stride, per_hit):
    """Pack into the lanes of level ``lvl + 1`` up to 16 PEGS-7 tasks of level ``lvl``: an
    unshared row ``j`` going in, in a lane ``l`` where it is not the last open row, with
    ``left`` dice left of ``d``; (row, lane) pairs are scanned from ``pos``. Padding lanes
    repeat the first task. Returns ``(tasks, pos)``."""
    boards, digits, opened, shared, task = ws[0], ws[1], ws[2], ws[3], ws[10]
    k = geo[0]
    goal = geo[1]
    n = 0
    while pos < k * L and n < L:
        j = pos // L
        l = pos % L
        pos += 1
        sl = digits[lvl, j, l]
        if shared[lvl, j] >= 0 or sl >= goal or opened[lvl, l] < 2 or d - per_hit[j] * (goal - sl) != left:
            continue
        task[lvl, 0, n] = j
        task[lvl, 1, n] = l
        boards[lvl + 1, n] = boards[lvl, l] + (goal - sl) * stride[j]
        for i in range(k):
            digits[lvl + 1, i, n] = digits[lvl, i, l]
        digits[lvl + 1, j, n] = goal
        n += 1
    for p in range(n, L):
        boards[lvl + 1, p] = boards[lvl + 1, 0]
        for i in range(k):
            digits[lvl + 1, i, p] = digits[lvl + 1, i, 0]
    return n, pos


@njit(nogil=True, cache=True, inline="always")
def _scatter(ws, lvl, n, kind, values):
    """``packed[lvl, kind]`` of each packed task gets its lane of ``values``."""
    packed, task = ws[9], ws[10]
    for p in range(n):
        packed[lvl, kind, task[lvl, 0, p] * L + task[lvl, 1, p]] = values[p]


@njit(nogil=True, cache=True)
def _pack1(V, Gd, mode, lvl, d, geo, stride, per_hit, A, grp, ws):
    """One-throw PEGS-7 values after each unshared row of level ``lvl`` goes in (a choice
    throw of ``d`` dice with 1 throw after it), 16 (row, lane) tasks to a call grouped by
    the dice left: ``packed[lvl, 1 / 3, row * 16 + lane]`` (3: the guide's own values,
    for the lookahead)."""
    packed, vecs = ws[9], ws[5]
    k = geo[0]
    packed[lvl, :, :] = 0.0
    out = vecs[lvl, 7]
    for left in range(1, d):
        pos = 0
        while True:
            n, pos = _gather(ws, lvl, d, left, pos, geo, stride, per_hit)
            if n == 0:
                break
            _choice1(V, Gd, mode, lvl + 1, left, geo, stride, per_hit, A, grp, ws, out)
            _scatter(ws, lvl, n, 1, out)
            if mode == 3:
                _choice1(Gd, Gd, 0, lvl + 1, left, geo, stride, per_hit, A, grp, ws, out)
                _scatter(ws, lvl, n, 3, out)


@njit(nogil=True, cache=True)
def _pack2(V, Gd, mode, d, geo, stride, per_hit, A, grp, ws):
    """:func:`_pack1` at level 0 with 2 throws after the choice throw: two- and one-throw
    values in ``packed[0, 0 / 1]`` (the guide's in ``packed[0, 2 / 3]``)."""
    packed, vecs = ws[9], ws[5]
    packed[0, :, :] = 0.0
    out2 = vecs[0, 6]
    out1 = vecs[0, 7]
    for left in range(1, d):
        pos = 0
        while True:
            n, pos = _gather(ws, 0, d, left, pos, geo, stride, per_hit)
            if n == 0:
                break
            _choice2(V, Gd, mode, 1, left, -1, 0, geo, stride, per_hit, A, grp, ws, out2, out1)
            _scatter(ws, 0, n, 0, out2)
            _scatter(ws, 0, n, 1, out1)
            if mode == 3:
                _choice2(Gd, Gd, 0, 1, left, -1, 2, geo, stride, per_hit, A, grp, ws, out2, out1)
                _scatter(ws, 0, n, 2, out2)
                _scatter(ws, 0, n, 3, out1)


@njit(nogil=True, cache=True)
def _choice2(V, Gd, mode, lvl, d, outer, memo_at, geo, stride, per_hit, A, grp, ws, out2, out1):
    """``out2[l]`` / ``out1[l]``: values of PEGS-7 choice throws with ``d`` dice and 2 / 1
    throws left on the boards of level ``lvl``.

    When those boards are level ``lvl - 1``'s with the shared row ``outer`` in, the
    one-throw values two rows further are kept in ``memo[memo_at .. memo_at + 2]`` for
    the pair, shared with the call for the other row of the pair."""
    boards, shared, vals, vecs, memo, stamps, packed = ws[0], ws[3], ws[4], ws[5], ws[7], ws[8], ws[9]
    k = geo[0]
    goal = geo[1]
    Bv = boards[lvl]
    val1 = vals[lvl, 0]
    val0 = vals[lvl, 1]
    key1 = vals[lvl, 2]
    key0 = vals[lvl, 3]
    X = vecs[lvl, 0]
    XG = vecs[lvl, 1]
    c1 = vecs[lvl, 3]
    g1 = vecs[lvl, 5]
    zero = vecs[lvl, 8]
    p1 = packed[lvl, 1]
    q1 = packed[lvl, 3]
    for l in range(L):
        X[l] = V[Bv[l]]
        XG[l] = Gd[Bv[l]] if mode == 3 else 0.0
    lastf = _survey(ws, lvl, k, goal)
    _pack1(V, Gd, mode, lvl, d, geo, stride, per_hit, A, grp, ws)
    for j in range(k):
        sj = shared[lvl, j]
        if sj >= 0:
            for l in range(L):
                c1[l] = 0.0
                g1[l] = 0.0
            need = goal - sj
            left = d - per_hit[j] * need
            if sj < goal and lastf == 0 and left > 0:
                pair = min(j, outer) * k + max(j, outer)
                if outer >= 0 and stamps[memo_at // 2, pair] == stamps[memo_at // 2, k * k]:
                    for l in range(L):
                        c1[l] = memo[memo_at, pair, l]
                        g1[l] = memo[memo_at + 1, pair, l]
                else:
                    _enter(ws, lvl, j, need, stride[j], k, goal)
                    _choice1(V, Gd, mode, lvl + 1, left, geo, stride, per_hit, A, grp, ws, c1)
                    if mode == 3:
                        _choice1(Gd, Gd, 0, lvl + 1, left, geo, stride, per_hit, A, grp, ws, g1)
                    if outer >= 0:
                        for l in range(L):
                            memo[memo_at, pair, l] = c1[l]
                            memo[memo_at + 1, pair, l] = g1[l]
                        stamps[memo_at // 2, pair] = stamps[memo_at // 2, k * k]
            _eval_row(V, lvl, j, d, 1, X, zero, 0, c1, 0, geo, stride, per_hit, A, ws, val1, lastf)
            if mode == 3:
                _eval_row(Gd, lvl, j, d, 1, XG, zero, 0, g1, 0, geo, stride, per_hit, A, ws, key1, lastf)
        else:
            _eval_row(V, lvl, j, d, 1, X, zero, 0, p1, j * L, geo, stride, per_hit, A, ws, val1, lastf)
            if mode == 3:
                _eval_row(Gd, lvl, j, d, 1, XG, zero, 0, q1, j * L, geo, stride, per_hit, A, ws, key1, lastf)
        _eval_row(V, lvl, j, d, 0, X, zero, 0, zero, 0, geo, stride, per_hit, A, ws, val0, lastf)
        if mode == 3:
            _eval_row(Gd, lvl, j, d, 0, XG, zero, 0, zero, 0, geo, stride, per_hit, A, ws, key0, lastf)
        elif mode != 0:
            _eval_keys(mode, lvl, j, d, geo, per_hit, ws, key1)
            _eval_keys(mode, lvl, j, d, geo, per_hit, ws, key0)
    if mode == 0:
        _gmin2(val1, val0, np.uint64(grp[0][d]), np.uint64(grp[0][d + 1]), grp[1], grp[2], grp[3], X, out2, out1)
    else:
        _group_values(mode, d, val1, key1, grp, X, out2)
        _group_values(mode, d, val0, key0, grp, X, out1)


@njit(nogil=True, cache=True)
def options(V, Gd, mode, d, ta, geo, stride, per_hit, A, grp, ws):
    """The options after a choice throw of ``d`` dice with ``ta`` throws left after it on
    the 16 boards of level 0 (``ws[0][0]``, digits ``ws[1][0]``): ``stay``, ``rest``
    (with ``V``) and the choice ``key`` in ``ws[4][0, 0..2]`` at ``[slot][lane]``
    (complete rows: stay 0, rest and key ``BIG``). Later choices of the turn: ``mode``."""
    boards, shared, vals, vecs, stamps, packed = ws[0], ws[3], ws[4], ws[5], ws[8], ws[9]
    k = geo[0]
    goal = geo[1]
    Bv = boards[0]
    stay = vals[0, 0]
    rest = vals[0, 1]
    key = vals[0, 2]
    XG = vecs[0, 1]
    c2 = vecs[0, 2]
    c1 = vecs[0, 3]
    g2 = vecs[0, 4]
    g1 = vecs[0, 5]
    zero = vecs[0, 8]
    p2 = packed[0, 0]
    p1 = packed[0, 1]
    q2 = packed[0, 2]
    q1 = packed[0, 3]
    for l in range(L):
        XG[l] = Gd[Bv[l]] if mode == 3 else 0.0
    stamps[0, k * k] += 1.0              # a new batch: forget the pair values
    stamps[1, k * k] += 1.0
    lastf = _survey(ws, 0, k, goal)
    if ta >= 2:
        _pack2(V, Gd, mode, d, geo, stride, per_hit, A, grp, ws)
    elif ta == 1:
        _pack1(V, Gd, mode, 0, d, geo, stride, per_hit, A, grp, ws)
    else:
        packed[0, :, :] = 0.0
    for j in range(k):
        sj = shared[0, j]
        if sj >= 0:
            for l in range(L):
                c2[l] = 0.0
                c1[l] = 0.0
                g2[l] = 0.0
                g1[l] = 0.0
            need = goal - sj
            left = d - per_hit[j] * need
            if sj < goal and lastf == 0 and left > 0 and ta >= 1:
                _enter(ws, 0, j, need, stride[j], k, goal)
                if ta >= 2:
                    _choice2(V, Gd, mode, 1, left, j, 0, geo, stride, per_hit, A, grp, ws, c2, c1)
                    if mode == 3:
                        _choice2(Gd, Gd, 0, 1, left, j, 2, geo, stride, per_hit, A, grp, ws, g2, g1)
                else:
                    _choice1(V, Gd, mode, 1, left, geo, stride, per_hit, A, grp, ws, c1)
                    if mode == 3:
                        _choice1(Gd, Gd, 0, 1, left, geo, stride, per_hit, A, grp, ws, g1)
            _eval_row(V, 0, j, d, ta, zero, c2, 0, c1, 0, geo, stride, per_hit, A, ws, rest, lastf)
            if mode == 3:
                _eval_row(Gd, 0, j, d, ta, XG, g2, 0, g1, 0, geo, stride, per_hit, A, ws, key, lastf)
        else:
            _eval_row(V, 0, j, d, ta, zero, p2, j * L, p1, j * L, geo, stride, per_hit, A, ws, rest, lastf)
            if mode == 3:
                _eval_row(Gd, 0, j, d, ta, XG, q2, j * L, q1, j * L, geo, stride, per_hit, A, ws, key, lastf)
        _eval_stay(0, j, d, ta, geo, per_hit, A, ws, stay, lastf)
        if mode == 1 or mode == 2:
            _eval_keys(mode, 0, j, d, geo, per_hit, ws, key)


@njit(nogil=True, cache=True)
def _guess(V, b, s, l, geo, stride):
    """A starting value for Newton in lane ``l``: E(b+e_i) + E(b+e_j) - E(b+e_i+e_j) for
    two open rows (an extrapolation along one row when only one is open)."""
    k = geo[0]
    goal = geo[1]
    i = -1
    for j in range(k):
        if s[j, l] < goal:
            if i < 0:
                i = j
            else:
                x = np.float64(V[b + stride[i]]) + np.float64(V[b + stride[j]]) \
                    - np.float64(V[b + stride[i] + stride[j]])
                return x if x >= 1.0 else 1.0
    if s[i, l] + 2 <= goal:
        x = 2.0 * np.float64(V[b + stride[i]]) - np.float64(V[b + 2 * stride[i]])
        return x if x >= 1.0 else 1.0
    return 1.0


@njit(nogil=True, cache=True)
def _recheck(l, g0, g1, x, step, S, R, stay, rest, grp, margin, cstay, crest):
    """Lane ``l``: re-examine at ``x`` the groups whose margin is below ``step`` and switch
    those whose stored choice is now strictly worse. Returns ``(S, R, changed)``."""
    group_p = grp[1]
    start = grp[4]
    slot = grp[5]
    changed = False
    for g in range(g0, g1):
        m = (g - g0) * L + l
        if margin[m] >= step:
            continue
        best = BIG
        bs = 1.0
        br = 0.0
        for e in range(start[g], start[g + 1]):
            i = slot[e] * L + l
            v = stay[i] * x + rest[i]
            lt = v < best
            best = v if lt else best
            bs = stay[i] if lt else bs
            br = rest[i] if lt else br
        if best < cstay[m] * x + crest[m]:
            S += group_p[g] * (bs - cstay[m])
            R += group_p[g] * (br - crest[m])
            cstay[m] = bs
            crest[m] = br
            changed = True
    return S, R, changed


@njit(nogil=True, cache=True)
def plan(boards, geo, stride, per_hit, most):
    """Order ``boards`` for lanes. Up to ``most`` rows whose digit differs among the
    boards are *varying* (pair rows first, their PEGS-7 work being the smaller, then the
    highest positions); the boards are sorted by the digits of the other rows, then by
    the varying ones, so that a batch of 16 mostly shares every other row.
    Returns ``(batches [n, 16], complete)``: the last batch is padded with repeats of its
    last board; complete boards (value 0) are returned apart."""
    k = geo[0]
    base = geo[2]
    full = base ** k - 1
    n = boards.shape[0]
    low = np.full(k, base)
    high = np.full(k, -1)
    for i in range(n):
        for j in range(k):
            digit = (boards[i] // stride[j]) % base
            low[j] = min(low[j], digit)
            high[j] = max(high[j], digit)
    varying = np.empty(most, np.int64)
    m = 0
    for pairs in (2, 1):
        for j in range(k - 1, -1, -1):
            if m < most and per_hit[j] == pairs and low[j] < high[j]:
                varying[m] = j
                m += 1
    keys = np.empty(n, np.int64)
    complete = 0
    for i in range(n):
        b = boards[i]
        moved = 0
        code = 0
        for v in range(m):
            st = stride[varying[v]]
            digit = (b // st) % base
            moved += digit * st
            code = code * base + digit
        keys[i] = (b - moved) * base ** m + code
        if b == full:
            complete += 1
    order = np.argsort(keys)
    live = n - complete
    batches = np.empty(((live + L - 1) // L, L), np.int64)
    done = np.full(complete, full)
    c = 0
    for i in range(n):
        b = boards[order[i]]
        if b != full:
            batches[c // L, c % L] = b
            c += 1
    while c % L:
        batches[c // L, c % L] = batches[c // L, c % L - 1]
        c += 1
    return batches, done


# One entry point per mode: a constant argument makes numba compile ``_solve_boards`` (and
# everything it calls) for that mode alone, its branches folded away.
@njit(nogil=True, cache=True)
def solve_optimal(E, Gd, batches, geo, stride, per_hit, A, grp, stats):
    return _solve_boards(E, Gd, batches, 0, geo, stride, per_hit, A, grp, stats)


@njit(nogil=True, cache=True)
def solve_greedy(E, Gd, batches, geo, stride, per_hit, A, grp, stats):
    return _solve_boards(E, Gd, batches, 1, geo, stride, per_hit, A, grp, stats)


@njit(nogil=True, cache=True)
def solve_safe_greedy(E, Gd, batches, geo, stride, per_hit, A, grp, stats):
    return _solve_boards(E, Gd, batches, 2, geo, stride, per_hit, A, grp, stats)


@njit(nogil=True, cache=True)
def solve_lookahead(E, Gd, batches, geo, stride, per_hit, A, grp, stats):
    return _solve_boards(E, Gd, batches, 3, geo, stride, per_hit, A, grp, stats)


SOLVERS = (solve_optimal, solve_greedy, solve_safe_greedy, solve_lookahead)
"""The solver of each mode (index = mode = ``pegs_kernel.POLICIES`` index)."""


@njit(nogil=True, cache=True)
def optimal_options(V, d, ta, geo, stride, per_hit, A, grp, ws):
    """:func:`options` with later choices optimal (mode 0), for advice."""
    options(V, V, 0, d, ta, geo, stride, per_hit, A, grp, ws)


@njit(nogil=True, cache=True)
def _solve_boards(E, Gd, batches, mode, geo, stride, per_hit, A, grp, stats):
    """Write ``E[b]`` for every board of ``batches`` (rows of 16 from :func:`plan`, no
    complete board; successors final); ``mode`` a compile-time constant (see SOLVERS). Returns the number of boards whose policy never
    leaves them (infinite value, written as inf). ``stats[0]`` += batches, ``stats[1]``
    += passes over the throw groups, ``stats[2]`` += lane re-examinations that changed a
    choice."""
    k = geo[0]
    goal = geo[1]
    maxdice = geo[3]
    throws = geo[4]
    ws = (np.zeros((3, L), np.int64), np.zeros((3, k, L), np.int64), np.zeros((3, L), np.int64),
          np.zeros((3, k), np.int64), np.zeros((3, 4, k * HS * L)), np.zeros((3, 9, L)),
          np.zeros((goal + 1, L)), np.zeros((4, k * k, L)), np.zeros((2, k * k + 1)),
          np.zeros((3, 4, k * L)), np.zeros((3, 2, L), np.int64))
    boards, digits, vals = ws[0], ws[1], ws[4]
    stay = vals[0, 0]
    rest = vals[0, 1]
    key = vals[0, 2]
    g0 = np.uint64(grp[0][maxdice])
    g1 = np.uint64(grp[0][maxdice + 1])
    ng = grp[0][maxdice + 1] - grp[0][maxdice]
    margin = np.zeros(ng * L)
    cstay = np.zeros(ng * L)
    crest = np.zeros(ng * L)
    x = np.zeros(L)
    S = np.zeros(L)
    R = np.zeros(L)
    done = np.zeros(L, np.bool_)
    stuck = 0
    for n in range(batches.shape[0]):
        for l in range(L):
            b = batches[n, l]
            boards[0, l] = b
            for j in range(k):
                digits[0, j, l] = (b // stride[j]) % geo[2]
        options(E, Gd, mode, maxdice, throws - 1, geo, stride, per_hit, A, grp, ws)
        stats[0] += 1
        if mode != 0:
            _gchosen(stay, rest, key, g0, g1, grp[1], grp[2], grp[3], S, R)
            stats[1] += 1
            for l in range(L):
                if 1.0 - S[l] <= 1e-15:
                    x[l] = np.inf
                    stuck += 1
                else:
                    x[l] = (1.0 + R[l]) / (1.0 - S[l])
        else:
            for l in range(L):
                x[l] = _guess(E, boards[0, l], digits[0], l, geo, stride)
                done[l] = False
            for it in range(200):
                _gpass(stay, rest, g0, g1, grp[1], grp[2], grp[3], x, S, R, margin, cstay, crest)
                stats[1] += 1
                finished = True
                for l in range(L):
                    if done[l]:
                        continue
                    if 1.0 - S[l] <= 1e-12:
                        x[l] = 2.0 * x[l] + 1.0
                        finished = False
                        continue
                    xn = (1.0 + R[l]) / (1.0 - S[l])
                    step = abs(xn - x[l])
                    x[l] = xn
                    if step <= 1e-14 * xn:
                        done[l] = True
                        continue
                    S[l], R[l], changed = _recheck(l, grp[0][maxdice], grp[0][maxdice + 1], xn, step, S[l], R[l],
                                                   stay, rest, grp, margin, cstay, crest)
                    if changed:
                        stats[2] += 1
                        finished = False
                    else:
                        done[l] = True
                if finished:
                    break
        for l in range(L):
            E[boards[0, l]] = x[l]
    return stuck
