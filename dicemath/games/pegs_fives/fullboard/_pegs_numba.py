"""numba kernels of :mod:`.pegs_kernel`: 16 boards at a time (module level, so numba's
on-disk cache works).

Checked against the exact reduced solver and :class:`..turn.TurnValue` in
``tests/pegs_fives/test_pegs_kernel.py``. Every function releases the GIL.

**Lanes.** Every function works on ``L = 16`` boards at once (*lanes*). Option values
are laid out ``[slot][lane]`` with slot ``j * HS + h`` (row position ``j``, ``h`` hits),
so that the minimum over a throw group's options is a run of contiguous 16-wide loads and
vector minima. These group loops are written out lane by lane (generated below) because
LLVM's SLP vectoriser packs straight-line code, not a loop over lanes held in memory;
their indices are unsigned (signed ones cost a wrap-around test). The planner
(:func:`plan`) sorts the boards so that a batch of 16 shares the digits of every row but
a few: a row whose digit all lanes share has one PEGS-7 choice-throw board for all lanes
(one 16-lane evaluation); the PEGS-7 values of the other rows are packed 16 (row, lane)
tasks to an evaluation.

**Memory.** All work arrays of a thread are two flat arrays, ``F`` (float64) and ``I``
(int64), at offsets kept in the constant header ``C`` (:func:`layout`); no function
slices an array or unpacks a tuple of arrays, which would cost numba's atomic reference
counting in the inner loops (and contention between threads).

**Modes** (``mode``; its tests sit outside the inner loops):
0 optimal (minimise with ``V``), 1 greedy, 2 safe greedy, 3 lookahead (choose by the
option values under the guide table ``Gd``, evaluate with ``V``). In every mode the
first option of a throw group with the smallest key is chosen; a group's options are
sorted by hits then row, both descending (the policies' tie-break).

**Options.** Only the slots a throw of ``d`` dice can reach are written (hits
``1 .. d // dice_per_hit``; a row with no such slot is skipped): the groups of ``d`` dice
read no other slot. A row's values for every number of hits come from its cycle table
(``pegs_kernel.cycle_tables``, one row per need, dice, throws and last-row flag): a dot
product with the overthrow value, ``V`` at the row's next steps, the PEGS-7 choice
throws (2 and 1 throws left) and the restart constant. Complete rows hold ``BIG`` and are
never chosen.

Levels of a turn: 0 the turn's first choice throw; 1 a PEGS-7 choice throw after a row
went in (:func:`_choice2`: 2 and 1 throws left); 2 one after a second row went in with
one throw left (:func:`_choice1`). Each level has its own boards, digits and values.
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
LEVELS = 3
VECS = 12          # lane vectors per level (see layout)

# Header of the constant array C (layout): geometry, then offsets.
K_, GOAL, BASE, DICE, THROWS, STEPS = 0, 1, 2, 3, 4, 5
O_STRIDE, O_PER_HIT, O_GROUP_START, O_START, O_SLOT = 6, 7, 8, 9, 10
O_VALS, O_VECS, O_MEMO, O_STAMPS, O_PACKED, O_MARGIN, O_CSTAY, O_CREST, F_SIZE = 11, 12, 13, 14, 15, 16, 17, 18, 19
O_BOARDS, O_DIGITS, O_OPENED, O_SHARED, O_TASK, I_SIZE, U_SLOT, O_SINGLE = 20, 21, 22, 23, 24, 25, 26, 27
# Small numbers kept in C: passing a literal to a compiled function would compile it once
# more for that literal value (numba specialises on constant arguments).
N0, N1, N2, N3, NM1, NL = 28, 29, 30, 31, 32, 33
HEADER = 40

# Lane vectors of a level (F at vec(C, lvl, index)).
X_, XG_, OUT2, OUT1, OUTG2, OUTG1, ZERO, SUM_S, SUM_R, GUESS, STEP, CHANGED = range(VECS)


def layout(k: int, goal: int, base: int, dice: int, throws: int, steps: int, stride, per_hit,
           group_start, entry_start, entry_slot, A):
    """The constant arrays of a kernel: ``C`` (int64: geometry, offsets of the scratch
    arrays, strides, dice per hit, throw groups, single columns) and ``U`` (uint64: the
    throw groups' option ranges and slots, for the generated loops).

    *Single columns*: with no throw after the choice throw (``ta = 0``) an option's cycle
    ends at once, on one value: ``single[t * HS + h]`` is its column in the cycle table
    (0 the overthrow value, ``c`` the step ``c`` on, -1 none: the game is over), the
    restart constant aside (:func:`_level_single`)."""
    slots = k * HS * L
    groups = int(group_start[dice + 1] - group_start[dice])
    f_offsets = {}
    size = 0
    for name, length in (("vals", LEVELS * 4 * slots), ("vecs", LEVELS * VECS * L),
                         ("memo", 4 * k * k * L), ("stamps", 2 * (k * k + 1)),
                         ("packed", LEVELS * 4 * k * L), ("margin", groups * L), ("cstay", groups * L),
                         ("crest", groups * L)):
        f_offsets[name] = size
        size += length
    i_offsets = {}
    isize = 0
    for name, length in (("boards", LEVELS * L), ("digits", LEVELS * k * L), ("opened", LEVELS * L),
                         ("shared", LEVELS * k), ("task", LEVELS * 2 * L)):
        i_offsets[name] = isize
        isize += length
    head = np.zeros(HEADER, np.int64)
    single = np.full(A.shape[0] * HS, -1, np.int64)
    for t in range(A.shape[0]):
        if (t // 2) % throws == 0:                   # throws after the choice throw: none
            for h in range(HS):
                terms = [c for c in range(steps + 3) if A[t, c * HS + h]]
                assert len(terms) <= 1 and all(A[t, c * HS + h] == 1.0 for c in terms) and steps + 1 not in terms \
                    and steps + 2 not in terms
                single[t * HS + h] = terms[0] if terms else -1
    tail = [np.asarray(stride), np.asarray(per_hit), np.asarray(group_start), np.asarray(entry_start),
            np.asarray(entry_slot), single]
    position = HEADER
    for index, part in zip((O_STRIDE, O_PER_HIT, O_GROUP_START, O_START, O_SLOT, O_SINGLE), tail):
        head[index] = position
        position += len(part)
    head[[K_, GOAL, BASE, DICE, THROWS, STEPS]] = k, goal, base, dice, throws, steps
    for index, name in ((O_VALS, "vals"), (O_VECS, "vecs"), (O_MEMO, "memo"), (O_STAMPS, "stamps"),
                        (O_PACKED, "packed"), (O_MARGIN, "margin"), (O_CSTAY, "cstay"), (O_CREST, "crest")):
        head[index] = f_offsets[name]
    head[F_SIZE] = size
    for index, name in ((O_BOARDS, "boards"), (O_DIGITS, "digits"), (O_OPENED, "opened"),
                        (O_SHARED, "shared"), (O_TASK, "task")):
        head[index] = i_offsets[name]
    head[I_SIZE] = isize
    head[U_SLOT] = len(entry_start)
    head[[N0, N1, N2, N3, NM1, NL]] = 0, 1, 2, 3, -1, L
    C = np.concatenate([head] + [t.astype(np.int64) for t in tail])
    U = np.concatenate([np.asarray(entry_start), np.asarray(entry_slot)]).astype(np.uint64)
    return C, U


def scratch(C):
    """Work arrays ``(F, I)`` of one thread."""
    return np.zeros(C[F_SIZE]), np.zeros(C[I_SIZE], np.int64)


# ---------------------------------------------------------------------------------------
# Generated lane loops

def _lanes(template: str, indent: int) -> list[str]:
    """``template`` once per lane, ``{l}`` replaced by the lane number."""
    return [" " * indent + template.format(l=l) for l in range(L)]


def _group_kernels_source() -> str:
    """Source of the throw-group loops, one line per lane and operation, over groups
    ``g0 .. g1``: options ``U[eo + e]`` (a slot) for ``e`` in ``U[g] .. U[g + 1]``,
    probability ``P[g]``; values in ``F`` at ``offset + slot * 16 + lane``.

    ``_gmin``: per lane, sum of p * (minimum option value, or ``X`` if no row is legal);
    ``_gmin2``: the same for two value arrays; ``_gkey``: with the option of the smallest
    key (the first of equals); ``_gpass``: a Newton pass (the minimising option's stay
    and rest, the margin to the best option of another stay); ``_gchosen``: stay and
    rest of the smallest-key option.
    """
    head = ["    for g in range(g0, g1):"]
    entries = ["        for e in range(U[g], U[g + ONE]):", "            o = U[eo + e] * LU"]
    src = ["def _gmin(F, vo, g0, g1, P, U, eo, xo, oo):"]
    src += _lanes("t{l} = 0.0; x{l} = F[xo + U{l}]", 4) + head + _lanes("b{l} = BIG", 8) + entries
    src += _lanes("v{l} = F[vo + o + U{l}]; b{l} = v{l} if v{l} < b{l} else b{l}", 12)
    src += ["        p = P[g]"] + _lanes("t{l} += p * (x{l} if b{l} >= BIG else b{l})", 8)
    src += _lanes("F[oo + U{l}] = t{l}", 4)

    src += ["def _gmin2(F, va, vb, g0, g1, P, U, eo, xo, oa, ob):"]
    src += _lanes("t{l} = 0.0; u{l} = 0.0; x{l} = F[xo + U{l}]", 4) + head
    src += _lanes("b{l} = BIG; c{l} = BIG", 8) + entries
    src += _lanes("v{l} = F[va + o + U{l}]; b{l} = v{l} if v{l} < b{l} else b{l}; "
                  "w{l} = F[vb + o + U{l}]; c{l} = w{l} if w{l} < c{l} else c{l}", 12)
    src += ["        p = P[g]"]
    src += _lanes("t{l} += p * (x{l} if b{l} >= BIG else b{l}); u{l} += p * (x{l} if c{l} >= BIG else c{l})", 8)
    src += _lanes("F[oa + U{l}] = t{l}; F[ob + U{l}] = u{l}", 4)

    src += ["def _gkey(F, vo, ko, g0, g1, P, U, eo, xo, oo):"]
    src += _lanes("t{l} = 0.0; x{l} = F[xo + U{l}]", 4) + head + _lanes("k{l} = BIG; c{l} = x{l}", 8) + entries
    src += _lanes("q{l} = F[ko + o + U{l}]; lt{l} = q{l} < k{l}; k{l} = q{l} if lt{l} else k{l}; "
                  "v{l} = F[vo + o + U{l}]; c{l} = v{l} if lt{l} else c{l}", 12)
    src += ["        p = P[g]"] + _lanes("t{l} += p * c{l}", 8)
    src += _lanes("F[oo + U{l}] = t{l}", 4)

    # n: the best value among options whose stay differs from the best one's; when the
    # new option v differs in stay from the current best b, the loser of the two joins.
    src += ["def _gpass(F, so, ro, g0, g1, P, U, eo, xo, So, Ro, mo, cso, cro):"]
    src += _lanes("s{l} = 0.0; r{l} = 0.0; x{l} = F[xo + U{l}]", 4) + head
    src += _lanes("b{l} = BIG; n{l} = BIG; bs{l} = 1.0; br{l} = 0.0", 8) + entries
    src += _lanes("st{l} = F[so + o + U{l}]; rs{l} = F[ro + o + U{l}]; v{l} = st{l} * x{l} + rs{l}; "
                  "lt{l} = v{l} < b{l}; n{l} = min(n{l}, max(v{l}, b{l})) if st{l} != bs{l} else n{l}; "
                  "b{l} = min(b{l}, v{l}); bs{l} = st{l} if lt{l} else bs{l}; br{l} = rs{l} if lt{l} else br{l}",
                  12)
    src += ["        p = P[g]", "        m = (g - g0) * LU"]
    src += _lanes("s{l} += p * bs{l}; r{l} += p * br{l}; F[cso + m + U{l}] = bs{l}; F[cro + m + U{l}] = br{l}; "
                  "F[mo + m + U{l}] = BIG if n{l} >= BIG else n{l} - b{l}", 8)
    src += _lanes("F[So + U{l}] = s{l}; F[Ro + U{l}] = r{l}", 4)

    # Re-examination after a Newton step to x (per lane): only groups where some lane's
    # margin is below its step; a lane switches where its stored choice is now worse.
    src += ["def _grecheck(F, so, ro, g0, g1, P, U, eo, xo, to, So, Ro, mo, cso, cro, co):"]
    src += _lanes("x{l} = F[xo + U{l}]; sp{l} = F[to + U{l}]; ds{l} = 0.0; dr{l} = 0.0; ch{l} = False", 4)
    src += head + ["        m = (g - g0) * LU"]
    src += _lanes("f{l} = F[mo + m + U{l}] < sp{l}", 8)
    src += ["        if " + " | ".join(f"f{l}" for l in range(L)) + ":"]
    src += _lanes("b{l} = BIG; bs{l} = 1.0; br{l} = 0.0", 12)
    src += ["            for e in range(U[g], U[g + ONE]):", "                o = U[eo + e] * LU"]
    src += _lanes("st{l} = F[so + o + U{l}]; rs{l} = F[ro + o + U{l}]; v{l} = st{l} * x{l} + rs{l}; "
                  "lt{l} = v{l} < b{l}; b{l} = min(b{l}, v{l}); bs{l} = st{l} if lt{l} else bs{l}; "
                  "br{l} = rs{l} if lt{l} else br{l}", 16)
    src += ["            p = P[g]"]
    src += _lanes("cs{l} = F[cso + m + U{l}]; cr{l} = F[cro + m + U{l}]; "
                  "sw{l} = f{l} & (b{l} < cs{l} * x{l} + cr{l}); "
                  "ds{l} += p * (bs{l} - cs{l}) if sw{l} else 0.0; dr{l} += p * (br{l} - cr{l}) if sw{l} else 0.0; "
                  "F[cso + m + U{l}] = bs{l} if sw{l} else cs{l}; F[cro + m + U{l}] = br{l} if sw{l} else cr{l}; "
                  "ch{l} = ch{l} | sw{l}", 12)
    src += _lanes("F[So + U{l}] += ds{l}; F[Ro + U{l}] += dr{l}; F[co + U{l}] = 1.0 if ch{l} else 0.0", 4)

    src += ["def _gchosen(F, so, ro, ko, g0, g1, P, U, eo, So, Ro):"]
    src += _lanes("s{l} = 0.0; r{l} = 0.0", 4) + head + _lanes("k{l} = BIG; bs{l} = 1.0; br{l} = 0.0", 8) + entries
    src += _lanes("q{l} = F[ko + o + U{l}]; lt{l} = q{l} < k{l}; k{l} = q{l} if lt{l} else k{l}; "
                  "bs{l} = F[so + o + U{l}] if lt{l} else bs{l}; br{l} = F[ro + o + U{l}] if lt{l} else br{l}", 12)
    src += ["        p = P[g]"] + _lanes("s{l} += p * bs{l}; r{l} += p * br{l}", 8)
    src += _lanes("F[So + U{l}] = s{l}; F[Ro + U{l}] = r{l}", 4)
    return "\n".join(src) + "\n"


_namespace = {"__name__": __name__, "BIG": BIG, "LU": LU, "ONE": np.uint64(1),
              **{f"U{l}": np.uint64(l) for l in range(L)}}
exec(compile(_group_kernels_source(), __file__, "exec"), _namespace)   # noqa: S102 (generated lane code)
_gmin = njit(nogil=True, cache=True)(_namespace["_gmin"])
_gmin2 = njit(nogil=True, cache=True)(_namespace["_gmin2"])
_gkey = njit(nogil=True, cache=True)(_namespace["_gkey"])
_gpass = njit(nogil=True, cache=True)(_namespace["_gpass"])
_gchosen = njit(nogil=True, cache=True)(_namespace["_gchosen"])
_grecheck = njit(nogil=True, cache=True)(_namespace["_grecheck"])


# ---------------------------------------------------------------------------------------
# Offsets into the scratch arrays

@njit(nogil=True, cache=True, inline="always")
def _vals(C, lvl, kind):
    """Offset in ``F`` of value array ``kind`` (0..3) of level ``lvl`` (``[slot][lane]``)."""
    return C[O_VALS] + (lvl * 4 + kind) * C[K_] * HS * L


@njit(nogil=True, cache=True, inline="always")
def _vec(C, lvl, index):
    """Offset in ``F`` of lane vector ``index`` of level ``lvl``."""
    return C[O_VECS] + (lvl * VECS + index) * L


@njit(nogil=True, cache=True, inline="always")
def _packed(C, lvl, kind):
    """Offset in ``F`` of the PEGS-7 values ``[row][lane]`` of level ``lvl``: kind 0/1 with
    2/1 throws left, 2/3 the guide's own (lookahead)."""
    return C[O_PACKED] + (lvl * 4 + kind) * C[K_] * L


@njit(nogil=True, cache=True, inline="always")
def _board(C, lvl):
    return C[O_BOARDS] + lvl * L


@njit(nogil=True, cache=True, inline="always")
def _digit(C, lvl, j):
    return C[O_DIGITS] + (lvl * C[K_] + j) * L


@njit(nogil=True, cache=True, inline="always")
def _table(C, j, need, d0, ta, last):
    """Row of the cycle table (pegs_kernel.option_table)."""
    return (((j * (C[GOAL] + 1) + need) * (C[DICE] + 1) + d0) * C[THROWS] + ta) * 2 + last


@njit(nogil=True, cache=True, inline="always")
def _groups(C, d):
    """Range of the throw groups of ``d`` dice (unsigned, for the generated loops)."""
    return np.uint64(C[C[O_GROUP_START] + d]), np.uint64(C[C[O_GROUP_START] + d + 1])


# ---------------------------------------------------------------------------------------
# Options of one level

@njit(nogil=True, cache=True)
def _survey(C, I, lvl):
    """Open rows per lane and the digit of each row shared by all lanes (-1 if they
    differ) at level ``lvl``."""
    k = C[K_]
    goal = C[GOAL]
    for l in range(L):
        n = 0
        for j in range(k):
            if I[_digit(C, lvl, j) + l] < goal:
                n += 1
        I[C[O_OPENED] + lvl * L + l] = n
    for j in range(k):
        o = _digit(C, lvl, j)
        v = I[o]
        for l in range(1, L):
            if I[o + l] != v:
                v = -1
        I[C[O_SHARED] + lvl * k + j] = v


@njit(nogil=True, cache=True)
def _level_values(V, lvl, d, ta, xo, po2, po1, out, C, A, F, I):
    """Every row's options at level ``lvl`` (a choice throw of ``d`` dice, ``ta`` throws
    after it) into ``F[out + (j * HS + h) * 16 + l]``: the dot product of the row's
    cycle-table row with the lane's overthrow value ``F[xo + l]``, ``V`` at the row's
    next steps (the turn ends or restarts there), its PEGS-7 values
    ``F[po2 / po1 + j * 16 + l]`` (offset -1: none) and the restart constant; ``BIG``
    for complete rows.

    A row complete in every lane (the level's shared digit, :func:`_survey`) only gets
    ``BIG``. (The row arithmetic is written out here, not in a helper: numba counts
    references to array arguments around every call, atomically.)"""
    k = C[K_]
    goal = C[GOAL]
    steps = C[STEPS]
    cs2 = (steps + 1) * HS
    cs1 = (steps + 2) * HS
    ck = (steps + 3) * HS
    opened = C[O_OPENED] + lvl * L
    boards = C[O_BOARDS] + lvl * L
    for j in range(k):
        st = C[C[O_STRIDE] + j]
        top = min(HS, d // C[C[O_PER_HIT] + j] + 1)
        if top <= 1:
            continue
        digits = C[O_DIGITS] + (lvl * k + j) * L
        o = out + j * HS * L
        if I[C[O_SHARED] + lvl * k + j] >= goal:
            for i in range(L, top * L):
                F[o + i] = BIG
            continue
        for l in range(L):
            s = I[digits + l]
            if s >= goal:
                for h in range(1, top):
                    F[o + h * L + l] = BIG
                continue
            need = goal - s
            last = 1 if I[opened + l] == 1 else 0
            reach = need - last
            t = (((j * (goal + 1) + need) * (C[DICE] + 1) + d) * C[THROWS] + ta) * 2 + last
            x = F[xo + l]
            c2 = F[po2 + j * L + l] if po2 >= 0 else 0.0
            c1 = F[po1 + j * L + l] if po1 >= 0 else 0.0
            b = I[boards + l]
            e1 = np.float64(V[b + (st if reach >= 1 else 0)])
            e2 = np.float64(V[b + (2 * st if reach >= 2 else 0)])
            e3 = np.float64(V[b + (3 * st if reach >= 3 else 0)])
            e4 = np.float64(V[b + (4 * st if reach >= 4 else 0)])
            e5 = np.float64(V[b + (5 * st if reach >= 5 else 0)])
            for h in range(1, top):
                v = A[t, h] * x + A[t, cs2 + h] * c2 + A[t, cs1 + h] * c1 + A[t, ck + h] \
                    + A[t, HS + h] * e1 + A[t, 2 * HS + h] * e2 + A[t, 3 * HS + h] * e3 \
                    + A[t, 4 * HS + h] * e4 + A[t, 5 * HS + h] * e5
                for c in range(ROW_STEPS + 1, reach + 1):
                    v += A[t, c * HS + h] * V[b + c * st]
                F[o + h * L + l] = v


@njit(nogil=True, cache=True)
def _level_single(V, lvl, d, xo, out, C, A, F, I):
    """:func:`_level_values` with no throw after the choice throw (``ta = 0``): each
    option's value is one value (the overthrow value ``F[xo + l]``, ``V`` at a step on,
    or 0 when the game is over) plus the restart constant (see :func:`layout`)."""
    k = C[K_]
    goal = C[GOAL]
    ck = (C[STEPS] + 3) * HS
    opened = C[O_OPENED] + lvl * L
    boards = C[O_BOARDS] + lvl * L
    single = C[O_SINGLE]
    for j in range(k):
        st = C[C[O_STRIDE] + j]
        top = min(HS, d // C[C[O_PER_HIT] + j] + 1)
        if top <= 1:
            continue
        digits = C[O_DIGITS] + (lvl * k + j) * L
        o = out + j * HS * L
        if I[C[O_SHARED] + lvl * k + j] >= goal:
            for i in range(L, top * L):
                F[o + i] = BIG
            continue
        for l in range(L):
            s = I[digits + l]
            if s >= goal:
                for h in range(1, top):
                    F[o + h * L + l] = BIG
                continue
            need = goal - s
            last = 1 if I[opened + l] == 1 else 0
            t = (((j * (goal + 1) + need) * (C[DICE] + 1) + d) * C[THROWS]) * 2 + last
            x = F[xo + l]
            b = I[boards + l]
            for h in range(1, top):
                c = C[single + t * HS + h]
                w = np.float64(V[b + (c * st if c > 0 else 0)])
                F[o + h * L + l] = (x if c == 0 else (w if c > 0 else 0.0)) + A[t, ck + h]


@njit(nogil=True, cache=True)
def _policy_keys(mode, lvl, d, C, F, I, out):
    """Keys of the fixed policies: greedy 0 (the first legal option), safe greedy 1 for
    an overthrow (PEGS-6) else 0; ``BIG`` for complete rows."""
    goal = C[GOAL]
    for j in range(C[K_]):
        for l in range(L):
            s = I[_digit(C, lvl, j) + l]
            for h in range(1, min(HS, d // C[C[O_PER_HIT] + j] + 1)):
                F[out + (j * HS + h) * L + l] = BIG if s >= goal else (1.0 if (mode == 2 and s + h > goal) else 0.0)


@njit(nogil=True, cache=True)
def _stays(lvl, d, ta, C, A, F, I, out):
    """Overthrow probabilities (PEGS-6) of every option at level ``lvl`` (0 for complete
    rows)."""
    goal = C[GOAL]
    for j in range(C[K_]):
        for l in range(L):
            s = I[_digit(C, lvl, j) + l]
            last = 1 if I[C[O_OPENED] + lvl * L + l] == 1 else 0
            t = _table(C, j, goal - s, d, ta, last) if s < goal else -1
            for h in range(1, min(HS, d // C[C[O_PER_HIT] + j] + 1)):
                F[out + (j * HS + h) * L + l] = A[t, h] if t >= 0 else 0.0


@njit(nogil=True, cache=True, inline="always")
def _load_values(V, Gd, mode, lvl, C, F, I):
    """The lane vectors X (the boards' values) and XG (their guide values)."""
    for l in range(L):
        b = I[_board(C, lvl) + l]
        F[_vec(C, lvl, X_) + l] = V[b]
        F[_vec(C, lvl, XG_) + l] = Gd[b] if mode == 3 else 0.0


@njit(nogil=True, cache=True, inline="always")
def _enter(C, I, lvl, j, lanes):
    """Lanes ``0 .. lanes`` of level ``lvl + 1``: the boards of level ``lvl`` with row
    ``j`` in (every lane), or with ``j`` < 0 each packed task's board with its row in.
    Lanes from ``lanes`` on repeat lane 0."""
    k = C[K_]
    goal = C[GOAL]
    for p in range(lanes):
        l = p if j >= 0 else I[C[O_TASK] + (lvl * 2 + 1) * L + p]
        row = j if j >= 0 else I[C[O_TASK] + lvl * 2 * L + p]
        s = I[_digit(C, lvl, row) + l]
        I[_board(C, lvl + 1) + p] = I[_board(C, lvl) + l] + max(goal - s, 0) * C[C[O_STRIDE] + row]
        for i in range(k):
            I[_digit(C, lvl + 1, i) + p] = I[_digit(C, lvl, i) + l]
        I[_digit(C, lvl + 1, row) + p] = goal
    for p in range(lanes, L):
        I[_board(C, lvl + 1) + p] = I[_board(C, lvl + 1)]
        for i in range(k):
            I[_digit(C, lvl + 1, i) + p] = I[_digit(C, lvl + 1, i)]


@njit(nogil=True, cache=True, inline="always")
def _some_not_last(C, I, lvl):
    """Whether some lane of level ``lvl`` has two open rows or more (a row going in then
    leaves a board to play on, PEGS-7)."""
    for l in range(L):
        if I[C[O_OPENED] + lvl * L + l] >= 2:
            return True
    return False


@njit(nogil=True, cache=True)
def _choice1(V, Gd, mode, lvl, d, C, U, P, A, F, I, out):
    """``F[out + l]``: value of a PEGS-7 choice throw with ``d`` dice and one throw left on
    the boards of level ``lvl`` (the cycle after it has no throws, PEGS-9)."""
    _load_values(V, Gd, mode, lvl, C, F, I)
    _survey(C, I, lvl)
    _level_single(V, lvl, d, _vec(C, lvl, X_), _vals(C, lvl, 0), C, A, F, I)
    g0, g1 = _groups(C, d)
    eo = np.uint64(C[U_SLOT])
    if mode == 0:
        _gmin(F, np.uint64(_vals(C, lvl, 0)), g0, g1, P, U, eo, np.uint64(_vec(C, lvl, X_)), np.uint64(out))
        return
    if mode == 3:
        _level_single(Gd, lvl, d, _vec(C, lvl, XG_), _vals(C, lvl, 1), C, A, F, I)
    else:
        _policy_keys(mode, lvl, d, C, F, I, _vals(C, lvl, 1))
    _gkey(F, np.uint64(_vals(C, lvl, 0)), np.uint64(_vals(C, lvl, 1)), g0, g1, P, U, eo,
          np.uint64(_vec(C, lvl, X_)), np.uint64(out))


@njit(nogil=True, cache=True)
def _scatter(C, F, I, lvl, lanes, j, kind, src):
    """PEGS-7 values ``F[src + p]`` of level ``lvl + 1``'s lanes to ``packed[lvl, kind]``
    at row ``j`` (every lane) or, with ``j`` < 0, at each packed task's row and lane."""
    o = _packed(C, lvl, kind)
    for p in range(lanes):
        if j >= 0:
            F[o + j * L + p] = F[src + p]
        else:
            F[o + I[C[O_TASK] + lvl * 2 * L + p] * L + I[C[O_TASK] + (lvl * 2 + 1) * L + p]] = F[src + p]


@njit(nogil=True, cache=True)
def _gather(C, I, lvl, d, left, pos):
    """Pack up to 16 PEGS-7 tasks of level ``lvl`` into the task list: a row ``j`` that
    not every lane shares, going in in a lane where it is not the last open row, with
    ``left`` dice left of ``d``; (row, lane) pairs scanned from ``pos``. Returns
    ``(tasks, pos)``."""
    k = C[K_]
    goal = C[GOAL]
    n = 0
    while pos < k * L and n < L:
        j = pos // L
        l = pos % L
        pos += 1
        s = I[_digit(C, lvl, j) + l]
        if I[C[O_SHARED] + lvl * k + j] >= 0 or s >= goal or I[C[O_OPENED] + lvl * L + l] < 2 \
                or d - C[C[O_PER_HIT] + j] * (goal - s) != left:
            continue
        I[C[O_TASK] + lvl * 2 * L + n] = j
        I[C[O_TASK] + (lvl * 2 + 1) * L + n] = l
        n += 1
    return n, pos


@njit(nogil=True, cache=True)
def _pegs7_one(V, Gd, mode, lvl, d, outer, C, U, P, A, F, I):
    """One-throw PEGS-7 values of every row of level ``lvl`` (a choice throw of ``d`` dice
    with 1 throw after it) into ``packed[lvl, 1]`` (and the guide's into ``[3]``).

    A row all lanes share: one 16-lane evaluation; if level ``lvl`` is level ``lvl - 1``
    with the shared row ``outer`` in, the value is kept for the pair of rows (``memo``)
    and shared with the evaluation for the other row of the pair. Other rows: (row,
    lane) tasks packed 16 to an evaluation by the dice left."""
    k = C[K_]
    goal = C[GOAL]
    for kind in range(4):
        for i in range(k * L):
            F[_packed(C, lvl, kind) + i] = 0.0
    out = _vec(C, lvl, OUT1)
    outg = _vec(C, lvl, OUTG1)
    for j in range(k):
        s = I[C[O_SHARED] + lvl * k + j]
        left = d - C[C[O_PER_HIT] + j] * (goal - s)
        if s < 0 or s >= goal or left <= 0 or not _some_not_last(C, I, lvl):
            continue
        pair = min(j, outer) * k + max(j, outer)
        memo = C[O_MEMO] + pair * L
        stamps = C[O_STAMPS]
        if outer >= 0 and F[stamps + pair] == F[stamps + k * k]:
            for l in range(L):
                F[out + l] = F[memo + l]
                F[outg + l] = F[memo + k * k * L + l]
        else:
            _enter(C, I, lvl, j, C[NL])
            _choice1(V, Gd, mode, lvl + 1, d - C[C[O_PER_HIT] + j] * (goal - s), C, U, P, A, F, I, out)
            if mode == 3:
                _choice1(Gd, Gd, C[N0], lvl + 1, d - C[C[O_PER_HIT] + j] * (goal - s), C, U, P, A, F, I, outg)
            if outer >= 0:
                for l in range(L):
                    F[memo + l] = F[out + l]
                    F[memo + k * k * L + l] = F[outg + l]
                F[stamps + pair] = F[stamps + k * k]
        _scatter(C, F, I, lvl, C[NL], j, C[N1], out)
        if mode == 3:
            _scatter(C, F, I, lvl, C[NL], j, C[N3], outg)
    for left in range(1, d):
        pos = 0
        while True:
            n, pos = _gather(C, I, lvl, d, left, pos)
            if n == 0:
                break
            _enter(C, I, lvl, -1, n)
            _choice1(V, Gd, mode, lvl + 1, left, C, U, P, A, F, I, out)
            _scatter(C, F, I, lvl, n, C[NM1], C[N1], out)
            if mode == 3:
                _choice1(Gd, Gd, C[N0], lvl + 1, left, C, U, P, A, F, I, outg)
                _scatter(C, F, I, lvl, n, C[NM1], C[N3], outg)


@njit(nogil=True, cache=True)
def _choice2(V, Gd, mode, lvl, d, outer, C, U, P, A, F, I, out2, out1):
    """``F[out2 + l]`` / ``F[out1 + l]``: values of PEGS-7 choice throws with ``d`` dice
    and 2 / 1 throws left on the boards of level ``lvl`` (``outer``: see
    :func:`_pegs7_one`)."""
    _load_values(V, Gd, mode, lvl, C, F, I)
    _survey(C, I, lvl)
    _pegs7_one(V, Gd, mode, lvl, d, outer, C, U, P, A, F, I)
    x = _vec(C, lvl, X_)
    _level_values(V, lvl, d, C[N1], x, C[NM1], _packed(C, lvl, 1), _vals(C, lvl, 0), C, A, F, I)
    _level_single(V, lvl, d, x, _vals(C, lvl, 1), C, A, F, I)
    g0, g1 = _groups(C, d)
    eo = np.uint64(C[U_SLOT])
    if mode == 0:
        _gmin2(F, np.uint64(_vals(C, lvl, 0)), np.uint64(_vals(C, lvl, 1)), g0, g1, P, U, eo, np.uint64(x),
               np.uint64(out2), np.uint64(out1))
        return
    if mode == 3:
        xg = _vec(C, lvl, XG_)
        _level_values(Gd, lvl, d, C[N1], xg, C[NM1], _packed(C, lvl, 3), _vals(C, lvl, 2), C, A, F, I)
        _level_single(Gd, lvl, d, xg, _vals(C, lvl, 3), C, A, F, I)
    else:
        _policy_keys(mode, lvl, d, C, F, I, _vals(C, lvl, 2))
        _policy_keys(mode, lvl, d, C, F, I, _vals(C, lvl, 3))
    _gkey(F, np.uint64(_vals(C, lvl, 0)), np.uint64(_vals(C, lvl, 2)), g0, g1, P, U, eo, np.uint64(x),
          np.uint64(out2))
    _gkey(F, np.uint64(_vals(C, lvl, 1)), np.uint64(_vals(C, lvl, 3)), g0, g1, P, U, eo, np.uint64(x),
          np.uint64(out1))


@njit(nogil=True, cache=True)
def _pegs7_two(V, Gd, mode, d, C, U, P, A, F, I):
    """PEGS-7 values of every row of level 0 after a choice throw of ``d`` dice with 2
    throws after it: 2- and 1-throw values into ``packed[0, 0 / 1]`` (the guide's into
    ``[2 / 3]``); shared rows in one 16-lane evaluation each, other rows packed."""
    k = C[K_]
    goal = C[GOAL]
    for kind in range(4):
        for i in range(k * L):
            F[_packed(C, 0, kind) + i] = 0.0
    o2 = _vec(C, 0, OUT2)
    o1 = _vec(C, 0, OUT1)
    g2 = _vec(C, 0, OUTG2)
    g1 = _vec(C, 0, OUTG1)
    F[C[O_STAMPS] + k * k] += 1.0          # a new batch: forget the pair values
    for j in range(k):
        s = I[C[O_SHARED] + j]
        left = d - C[C[O_PER_HIT] + j] * (goal - s)
        if s < 0 or s >= goal or left <= 0 or not _some_not_last(C, I, 0):
            continue
        _enter(C, I, 0, j, L)
        _choice2(V, Gd, mode, C[N1], left, j, C, U, P, A, F, I, o2, o1)
        _scatter(C, F, I, C[N0], C[NL], j, C[N0], o2)
        _scatter(C, F, I, C[N0], C[NL], j, C[N1], o1)
        if mode == 3:
            _enter(C, I, 0, j, L)
            _choice2(Gd, Gd, C[N0], C[N1], left, C[NM1], C, U, P, A, F, I, g2, g1)
            _scatter(C, F, I, C[N0], C[NL], j, C[N2], g2)
            _scatter(C, F, I, C[N0], C[NL], j, C[N3], g1)
    for left in range(1, d):
        pos = 0
        while True:
            n, pos = _gather(C, I, C[N0], d, left, pos)
            if n == 0:
                break
            _enter(C, I, 0, -1, n)
            _choice2(V, Gd, mode, C[N1], left, C[NM1], C, U, P, A, F, I, o2, o1)
            _scatter(C, F, I, C[N0], n, C[NM1], C[N0], o2)
            _scatter(C, F, I, C[N0], n, C[NM1], C[N1], o1)
            if mode == 3:
                _enter(C, I, 0, -1, n)
                _choice2(Gd, Gd, C[N0], C[N1], left, C[NM1], C, U, P, A, F, I, g2, g1)
                _scatter(C, F, I, C[N0], n, C[NM1], C[N2], g2)
                _scatter(C, F, I, C[N0], n, C[NM1], C[N3], g1)


@njit(nogil=True, cache=True)
def options(V, Gd, mode, d, ta, C, U, P, A, F, I):
    """The options after a choice throw of ``d`` dice with ``ta`` throws left after it on
    the 16 boards of level 0 (set in ``I`` at ``_board(C, 0)`` and ``_digit(C, 0, j)``):
    ``stay``, ``rest`` (with ``V``) and the choice ``key`` in value arrays 0, 1, 2 of
    level 0 (complete rows: stay 0, rest and key ``BIG``). Later choices: ``mode``."""
    k = C[K_]
    _survey(C, I, C[N0])
    for l in range(L):
        F[_vec(C, 0, ZERO) + l] = 0.0
        F[_vec(C, 0, XG_) + l] = Gd[I[_board(C, 0) + l]] if mode == 3 else 0.0
    if ta >= 2:
        _pegs7_two(V, Gd, mode, d, C, U, P, A, F, I)
    elif ta == 1:
        _pegs7_one(V, Gd, mode, C[N0], d, C[NM1], C, U, P, A, F, I)
    else:
        for kind in range(4):
            for i in range(k * L):
                F[_packed(C, 0, kind) + i] = 0.0
    _level_values(V, C[N0], d, ta, _vec(C, 0, ZERO), _packed(C, 0, 0), _packed(C, 0, 1), _vals(C, 0, 1), C, A, F,
                  I)
    _stays(C[N0], d, ta, C, A, F, I, _vals(C, 0, 0))
    if mode == 3:
        _level_values(Gd, C[N0], d, ta, _vec(C, 0, XG_), _packed(C, 0, 2), _packed(C, 0, 3), _vals(C, 0, 2),
                      C, A, F, I)
    elif mode != 0:
        _policy_keys(mode, C[N0], d, C, F, I, _vals(C, 0, 2))


# ---------------------------------------------------------------------------------------
# Boards

@njit(nogil=True, cache=True, inline="always")
def _pair_estimate(V, b, si, sj):
    """E(b) estimated as E(b+e_i) + E(b+e_j) - E(b+e_i+e_j)."""
    return np.float64(V[b + si]) + np.float64(V[b + sj]) - np.float64(V[b + si + sj])


@njit(nogil=True, cache=True)
def _guess(V, b, lane, C, I):
    """A starting value for Newton in lane ``lane``: the pair estimate of the two lowest
    open rows, corrected by that estimate's error one step on along the third; with two
    open rows the pair estimate alone, with one an extrapolation along the row (measured
    on an 8-row table: median relative error 1.6e-4, against 6.9e-4 uncorrected)."""
    goal = C[GOAL]
    n = 0
    s0 = s1 = s2 = 0
    first = 0
    for j in range(C[K_]):
        if I[_digit(C, 0, j) + lane] < goal:
            st = C[C[O_STRIDE] + j]
            if n == 0:
                s0 = st
                first = I[_digit(C, 0, j) + lane]
            elif n == 1:
                s1 = st
            elif n == 2:
                s2 = st
            n += 1
    if n == 1:
        if first + 2 > goal:
            return 1.0
        x = 2.0 * np.float64(V[b + s0]) - np.float64(V[b + 2 * s0])
    else:
        x = _pair_estimate(V, b, s0, s1)
        if n >= 3:
            x += np.float64(V[b + s2]) - _pair_estimate(V, b + s2, s0, s1)
    return x if x >= 1.0 else 1.0


@njit(nogil=True, cache=True)
def plan(boards, C, most):
    """Order ``boards`` for lanes. Up to ``most`` rows whose digit differs among the
    boards are *varying* (pair rows first, their PEGS-7 work being the smaller, then the
    highest positions); the boards are sorted by the digits of the other rows, then by
    the varying ones, so that a batch of 16 mostly shares every other row.
    Returns ``(batches [n, 16], complete)``: the last batch is padded with repeats of its
    last board; complete boards (value 0) are returned apart."""
    k = C[K_]
    base = C[BASE]
    full = base ** k - 1
    n = boards.shape[0]
    low = np.full(k, base)
    high = np.full(k, -1)
    for i in range(n):
        for j in range(k):
            digit = (boards[i] // C[C[O_STRIDE] + j]) % base
            low[j] = min(low[j], digit)
            high[j] = max(high[j], digit)
    varying = np.empty(most, np.int64)
    m = 0
    for pairs in (2, 1):
        for j in range(k - 1, -1, -1):
            if m < most and C[C[O_PER_HIT] + j] == pairs and low[j] < high[j]:
                varying[m] = j
                m += 1
    keys = np.empty(n, np.int64)
    complete = 0
    for i in range(n):
        b = boards[i]
        moved = 0
        code = 0
        for v in range(m):
            st = C[C[O_STRIDE] + varying[v]]
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


@njit(nogil=True, cache=True)
def optimal_options(V, Gd, board, d, ta, C, U, P, A):
    """:func:`options` of one board (every lane), later choices optimal, for advice:
    ``(stay, rest)`` arrays ``[slot]``. ``Gd`` is not read (optimal play needs no guide);
    passed as :func:`solve_boards` gets it, it shares that function's compiled callees."""
    F = np.zeros(C[F_SIZE])
    I = np.zeros(C[I_SIZE], np.int64)
    for l in range(L):
        I[_board(C, 0) + l] = board
        for j in range(C[K_]):
            I[_digit(C, 0, j) + l] = (board // C[C[O_STRIDE] + j]) % C[BASE]
    options(V, Gd, C[N0], d, ta, C, U, P, A, F, I)
    n = C[K_] * HS
    stay = np.empty(n)
    rest = np.empty(n)
    for i in range(n):
        stay[i] = F[_vals(C, 0, 0) + i * L]
        rest[i] = F[_vals(C, 0, 1) + i * L]
    return stay, rest


@njit(nogil=True, cache=True)
def solve_boards(E, Gd, batches, mode, C, U, P, A, stats):
    """Write ``E[b]`` for every board of ``batches`` (rows of 16 from :func:`plan`, no
    complete board; successors final) under policy ``mode``.
    Returns the number of boards whose policy never leaves them (infinite value, written
    as inf). ``stats[0]`` += batches, ``stats[1]`` += passes over the throw groups,
    ``stats[2]`` += lane re-examinations that changed a choice."""
    k = C[K_]
    d = C[DICE]
    F = np.zeros(C[F_SIZE])
    I = np.zeros(C[I_SIZE], np.int64)
    g0, g1 = _groups(C, d)
    eo = np.uint64(C[U_SLOT])
    stay = np.uint64(_vals(C, 0, 0))
    rest = np.uint64(_vals(C, 0, 1))
    key = np.uint64(_vals(C, 0, 2))
    x = _vec(C, 0, GUESS)
    S = _vec(C, 0, SUM_S)
    R = _vec(C, 0, SUM_R)
    step = _vec(C, 0, STEP)
    changed = _vec(C, 0, CHANGED)
    done = np.zeros(L, np.bool_)
    stuck = 0
    for n in range(batches.shape[0]):
        for l in range(L):
            b = batches[n, l]
            I[_board(C, 0) + l] = b
            for j in range(k):
                I[_digit(C, 0, j) + l] = (b // C[C[O_STRIDE] + j]) % C[BASE]
        options(E, Gd, mode, d, C[THROWS] - 1, C, U, P, A, F, I)
        stats[0] += 1
        if mode != 0:
            _gchosen(F, stay, rest, key, g0, g1, P, U, eo, np.uint64(S), np.uint64(R))
            stats[1] += 1
            for l in range(L):
                if 1.0 - F[S + l] <= 1e-15:
                    F[x + l] = np.inf
                    stuck += 1
                else:
                    F[x + l] = (1.0 + F[R + l]) / (1.0 - F[S + l])
        else:
            for l in range(L):
                F[x + l] = _guess(E, batches[n, l], l, C, I)
                done[l] = False
            for it in range(200):
                _gpass(F, stay, rest, g0, g1, P, U, eo, np.uint64(x), np.uint64(S), np.uint64(R),
                       np.uint64(C[O_MARGIN]), np.uint64(C[O_CSTAY]), np.uint64(C[O_CREST]))
                stats[1] += 1
                again = False
                for l in range(L):
                    F[step + l] = -1.0
                    if done[l]:
                        continue
                    if 1.0 - F[S + l] <= 1e-12:
                        F[x + l] = 2.0 * F[x + l] + 1.0
                        again = True
                        continue
                    xn = (1.0 + F[R + l]) / (1.0 - F[S + l])
                    dx = abs(xn - F[x + l])
                    F[x + l] = xn
                    if dx > 1e-14 * xn:
                        F[step + l] = dx
                    else:
                        done[l] = True
                _grecheck(F, stay, rest, g0, g1, P, U, eo, np.uint64(x), np.uint64(step), np.uint64(S),
                          np.uint64(R), np.uint64(C[O_MARGIN]), np.uint64(C[O_CSTAY]), np.uint64(C[O_CREST]),
                          np.uint64(changed))
                for l in range(L):
                    if F[step + l] >= 0.0:
                        if F[changed + l] > 0.0:
                            stats[2] += 1
                            again = True
                        else:
                            done[l] = True
                if not again:
                    break
        for l in range(L):
            E[batches[n, l]] = F[x + l]
    return stuck
