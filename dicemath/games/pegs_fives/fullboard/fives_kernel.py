"""The compiled Fives kernel: exact expected turns of every board of a table (the package docstring of :mod:`dicemath.games.pegs_fives.fullboard`).

Fives (docs/rules.md FIVES-1..5) with ``W(b) = E(b) - 1`` (``W = 0`` for the complete board):

* a choice throw on board ``b`` either has no legal number -- the turn ends on ``b`` (FIVES-2)
  -- or the player names a number ``n`` with ``h`` hits and plays a cycle for it;
* every cycle that uses the last die (FIVES-4) or completes the number (FIVES-5) is followed
  by a fresh choice throw with all dice, worth ``W(b')`` (the restart identity of
  :class:`~dicemath.games.pegs_fives.turn.TurnValue`); a miss ends the turn on ``b'``,
  worth ``E(b')`` (FIVES-3). So the value of naming ``(n, h)`` on ``b`` depends only on the
  boards that differ from ``b`` in row ``n`` (the cycle's marks stand, FIVES-2/3): it is an
  affine function of the ``goal - s_n`` values ``E(b + i e_n)``, ``i = 1..goal - s_n``, whose
  coefficients (the small within-cycle DP along axis ``n``) depend only on ``(n, s_n)`` and
  are computed once per kernel (:func:`axis_coefficients`);
* with ``S`` = the sum over throws with a legal number of weight x the best option and
  ``P0`` = the chance of no legal number, ``W = S + P0 (W + 1)``, so
  ``W = (S + P0) / (1 - P0)`` in closed form.

The cost is the best option of each of the 462 six-dice multisets (about 2,900 (number,
hits) entries on the full board). The kernel evaluates 16 boards at once with the option
table laid out ``[entry][board]``, so that the minimum is a 16-wide straight-line vector
operation (two independent chains per list); numba compiles it with LLVM's SLP vectoriser
switched on, and board indices are unsigned, whose arithmetic needs no negative-index
wrapping. :meth:`FivesKernel.solve` takes any independent board set (16 boards of it at a
time); :meth:`FivesKernel.solve_slabs` sweeps 16 independent slabs together, board by
board in address order, so that the lower axes have the same progress in all 16 lanes and
their options are 16-wide FMAs too (about 1.8 times faster on big tables).

Arithmetic is float64; the table may be stored as float64 or float32. Policy modes evaluate
a fixed rule instead of minimising: greedy and safe greedy (:mod:`..state`) and a one-turn
lookahead on a guide table (the order of :meth:`..advisor.Advisor.rank`).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache

import numba
import numpy as np
from numba.core import config as numba_config

from dicemath.core.dice import multiset_counts
from dicemath.games.pegs_fives.hits import hits_from_counts
from dicemath.core.errors import IllegalMoveError, InvalidRulesError
from dicemath.games.pegs_fives.fullboard.layout import BoardLayout, kernel_guide
from dicemath.games.pegs_fives.rules import Rules
from dicemath.games.pegs_fives.state import check_roll, counts_of, hit_weights
from dicemath.core.jit import announce_compiles

announce_compiles()

LANES = 16
"""Boards evaluated together by the vectorised minimum."""

BIG = 1e300
"""Option value (and score) of a complete row: never the best."""

POLICIES = ("optimal", "greedy", "safe_greedy", "lookahead")
"""The modes of :meth:`FivesKernel.solve` (their index is the kernel's mode number)."""


def check_fives_rules(rules: Rules) -> Rules:
    """Return ``rules`` if the Fives kernel implements them (the FIVES preset's structure).

    The goal (variant ``marks``) and the number of dice may vary; the throw limit,
    overthrow and completion rule must be Fives' (FIVES-3, FIVES-5). ``all_dice_first`` and
    ``fresh_budget_on_all_dice`` do not change Fives (every restart has all dice and no
    throw limit) and are accepted as they are.

    Raises:
        InvalidRulesError: naming the first field the kernel does not implement.
    """
    if rules.throws is not None:
        raise InvalidRulesError(f"the Fives kernel needs throws=None (no throw limit, FIVES-3), got {rules.throws!r}")
    if rules.overthrow:
        raise InvalidRulesError("the Fives kernel needs overthrow=False (hits beyond the goal are lost, FIVES-5)")
    if rules.on_complete != "fresh":
        raise InvalidRulesError(f"the Fives kernel needs on_complete='fresh' (FIVES-5), got {rules.on_complete!r}")
    return rules


def axis_coefficients(rules: Rules, row: int, s0: int) -> np.ndarray:
    """The options of naming ``row`` at progress ``s0`` as affine maps of the row's successors.

    With ``v_i = E(b + i e_row)`` for ``i = 1..goal - s0`` (``v_goal - s0`` read as ``E + 1``
    when that board is complete, so that ``v - 1`` is its ``W``), the value of naming
    ``row`` with ``h`` hits on a fresh choice throw is ``A[h, 0] + sum_i A[h, i] v_i``
    (FIVES-3..5; continuation as in :func:`..state.after_hits` / :func:`..state.miss`).

    Returns:
        float64 array ``A`` of shape ``(dice // dice_per_hit + 1, goal + 1)``; row 0 unused.

    Example:
        Row 1 one mark from the goal: every hit completes it, worth ``W = v_1 - 1``.

        >>> from dicemath.games.pegs_fives.rules import FIVES
        >>> axis_coefficients(FIVES, 1, 4)[1, :2].tolist()
        [-1.0, 1.0]
    """
    goal, dice, per_hit = rules.goal, rules.dice, rules.dice_per_hit[row - 1]

    def unit(s: int) -> np.ndarray:                      # E at progress s (s > s0)
        vector = np.zeros(goal + 1)
        vector[s - s0] = 1.0
        return vector

    def fresh(s: int) -> np.ndarray:                     # W at progress s: a fresh choice throw
        vector = unit(min(s, goal))
        vector[0] -= 1.0
        return vector

    cycle: dict[int, np.ndarray] = {}
    for s in range(goal - 1, s0, -1):                    # throwing on with s marks this turn
        left = dice - (s - s0) * per_hit
        if left <= 0:
            continue
        q = np.array(hit_weights(left, row), dtype=np.float64) / 6 ** left
        value = q[0] * unit(s)                           # a miss ends the turn (FIVES-3)
        for k in range(1, len(q)):
            if s + k >= goal or k * per_hit == left:     # complete (FIVES-5) or all dice used (FIVES-4)
                value = value + q[k] * fresh(s + k)
            else:
                value = value + q[k] * cycle[s + k]
        cycle[s] = value
    table = np.zeros((dice // per_hit + 1, goal + 1))
    for h in range(1, dice // per_hit + 1):
        if s0 + h >= goal or h * per_hit == dice:
            table[h] = fresh(s0 + h)
        else:
            table[h] = cycle[s0 + h]
    return table


WIDTH = 8
"""Entries of one axis computed together (at least the most hits of any number, 6)."""


@dataclass(frozen=True)
class FivesTables:
    """Everything the compiled kernel reads besides the value table.

    Attributes:
        coef: flat float64 ``[axis, s0, i, h]`` (``s0`` and ``i`` in ``0..goal``, ``h`` in
            ``0..WIDTH-1`` for ``h + 1`` hits): the option coefficients of
            :func:`axis_coefficients`, transposed; a complete axis (``s0 = goal``) has the
            constant BIG.
        fits: flat float64 ``[axis, s0, h]``: 1 where ``h + 1`` hits fit below the goal
            (:class:`..state.SafeGreedy` prefers those rows), else 0.
        entry_base: uint64 entry id of ``(axis, 1 hit)``; ``(axis, h)`` is ``entry_base + h - 1``.
        hits_max: uint64 most hits of each axis (``dice // dice_per_hit``).
        entries: number of (axis, hits) entries.
        ms_start, ms_entry, ms_weight: the choice throws with a legal number on some open
            row, as lists of entries (CSR, uint64; each list ordered most hits first, then
            higher row, and padded to an even length by repeating its last entry, which
            changes neither a minimum nor a first-best pick) and probabilities; throws
            with the same list are merged.
        p0: chance of no legal number, by the mask of open axes.
        digits_low, digits_high: the digits of the low and high halves of an index.
        split: ``base ** (number of low axes)`` (uint64).
    """

    coef: np.ndarray
    fits: np.ndarray
    entry_base: np.ndarray
    hits_max: np.ndarray
    entries: int
    ms_start: np.ndarray
    ms_entry: np.ndarray
    ms_weight: np.ndarray
    p0: np.ndarray
    digits_low: np.ndarray
    digits_high: np.ndarray
    split: np.uint64


def _digit_table(base: int, k: int) -> np.ndarray:
    """``[index, axis]`` digits (uint64) of every index of ``k`` axes."""
    index = np.arange(base ** k, dtype=np.uint64)
    digits = [(index // np.uint64(base ** j)) % np.uint64(base) for j in range(k)]
    return np.stack(digits, axis=1) if k else np.zeros((1, 0), dtype=np.uint64)


@lru_cache(maxsize=64)
def _lower_digits(base: int, k: int) -> tuple[np.ndarray, np.ndarray, np.uint64]:
    """Digit tables of the low and high halves of a ``k``-axis index, and the split."""
    low = k // 2
    return _digit_table(base, low), _digit_table(base, k - low), np.uint64(base ** low)


@lru_cache(maxsize=32)
def fives_tables(rules: Rules, rows: tuple[int, ...]) -> FivesTables:
    """The kernel's precomputed tables for ``rules`` and open ``rows`` (validated)."""
    layout = BoardLayout(check_fives_rules(rules), rows)
    goal, dice, k = rules.goal, rules.dice, layout.k
    per_hit = [rules.dice_per_hit[r - 1] for r in layout.rows]
    hits_max = np.array([dice // d for d in per_hit], dtype=np.int64)
    entry_base = np.concatenate([[0], np.cumsum(hits_max)[:-1]]).astype(np.uint64)
    coef = np.zeros((k, goal + 1, goal + 1, WIDTH))
    fits = np.zeros((k, goal + 1, WIDTH))
    for j, row in enumerate(layout.rows):
        hits = np.arange(1, hits_max[j] + 1)
        for s0 in range(goal):
            coef[j, s0, :, :hits_max[j]] = axis_coefficients(rules, row, s0)[1:].T
            fits[j, s0, :hits_max[j]] = s0 + hits <= goal
        coef[j, goal, 0, :] = BIG
    groups: dict[tuple[int, ...], int] = {}
    hit_masks, mask_weights = [], []
    for counts, weight in multiset_counts(dice):
        legal = [(hits_from_counts(r, counts), r, j) for j, r in enumerate(layout.rows)]
        legal = sorted(((h, r, j) for h, r, j in legal if h), reverse=True)
        hit_masks.append(sum(1 << j for _, _, j in legal))
        mask_weights.append(weight)
        if legal:
            key = tuple(int(entry_base[j]) + h - 1 for h, _, j in legal)
            key += key[-1:] * (len(key) % 2)
            groups[key] = groups.get(key, 0) + weight
    ms_entry = np.array([e for key in groups for e in key], dtype=np.uint64)
    ms_start = np.concatenate([[0], np.cumsum([len(key) for key in groups])]).astype(np.uint64)
    ms_weight = np.array(list(groups.values()), dtype=np.float64) / 6 ** dice
    masks = np.arange(2 ** k)
    missed = (np.array(hit_masks)[:, None] & masks[None, :]) == 0
    p0 = (np.array(mask_weights, dtype=np.float64) @ missed) / 6 ** dice
    return FivesTables(coef.ravel(), fits.ravel(), entry_base, hits_max.astype(np.uint64), int(hits_max.sum()),
                       ms_start, ms_entry, ms_weight, p0, *_lower_digits(layout.base, k))


class FivesKernel:
    """The Fives kernel for one rules object and one set of open rows (the package docstring of :mod:`dicemath.games.pegs_fives.fullboard`).

    Args:
        rules: :data:`~dicemath.games.pegs_fives.rules.FIVES` or a variant of its goal /
            dice (:func:`check_fives_rules`).
        rows: the open rows of the table (:class:`.layout.BoardLayout`).

    Raises:
        InvalidRulesError: rules the kernel does not implement.
        InvalidBoardError: bad rows.

    Example:
        Only row 1 open: the solved start board equals the single-row table.

        >>> import numpy as np
        >>> from dicemath.games.pegs_fives.rules import FIVES
        >>> from dicemath.games.pegs_fives.rows import row_table
        >>> kernel = FivesKernel(FIVES, (1,))
        >>> E = np.zeros(kernel.layout.size)
        >>> for board in range(kernel.layout.last - 1, -1, -1):
        ...     kernel.solve(E, np.array([board]))
        >>> bool(abs(E[0] - float(row_table(FIVES, 1).expected_turns)) < 1e-12)
        True
    """

    def __init__(self, rules: Rules, rows: Sequence[int]):
        self.rules = check_fives_rules(rules)
        self.layout = BoardLayout(rules, tuple(rows))
        self.tables = fives_tables(rules, self.layout.rows)

    def _check_table(self, table: np.ndarray, name: str) -> np.ndarray:
        table = np.asarray(table)
        if table.ndim != 1 or table.shape[0] != self.layout.size or table.dtype not in (np.float32, np.float64):
            raise ValueError(f"{name} must be a 1-D float32/float64 array of {self.layout.size} boards, "
                             f"got {table.dtype} {table.shape}")
        if not table.flags.c_contiguous:
            raise ValueError(f"{name} must be contiguous")
        return table

    def solve(self, E: np.ndarray, boards: np.ndarray, *, policy: str = "optimal",
              guide: np.ndarray | None = None) -> None:
        """Write ``E[b]`` for every board ``b`` of ``boards`` (see the module docstring).

        Args:
            E: the value table (float64 or float32); read at successors of ``boards`` only,
                which must be final. ``E[last]`` (the complete board) must be 0.
            boards: mutually independent board indices (int64), none the complete board.
            policy: one of :data:`POLICIES`.
            guide: for ``"lookahead"``, the table whose one-turn lookahead picks the row (the
                dtype of ``E``).

        Raises:
            ValueError: a bad table, board index or policy.
        """
        E, guide = self._check_inputs(E, policy, guide)
        boards = np.ascontiguousarray(boards, dtype=np.int64)
        if boards.size and (boards.min() < 0 or boards.max() >= self.layout.last):
            raise ValueError(f"board indices must be 0..{self.layout.last - 1} (the complete board is fixed at 0)")
        t = self.tables
        _run(_solve_boards, E, guide, boards, POLICIES.index(policy), t.fits, *self._arguments())

    def solve_slabs(self, E: np.ndarray, slabs: np.ndarray, top: int, *, policy: str = "optimal",
                    guide: np.ndarray | None = None) -> None:
        """Write ``E`` for every board of up to 16 slabs of ``self.layout.slabs(top)`` at once.

        One lane per slab: all lanes sweep their slab from the highest lower index down, so
        the lower axes have the same progress in every lane and are filled 16 lanes at a
        time, and each lane reads its slab and the successor slabs in address order. Faster
        than :meth:`solve` on big tables; the values are the same (``E[last]`` included).

        Args:
            E: the value table; the slabs' successor slabs must be final.
            slabs: up to 16 mutually independent slabs (e.g. of equal top total).
            top: top axes per slab.
            policy, guide: as for :meth:`solve`.

        Raises:
            ValueError: bad slabs, table or policy.
        """
        E, guide = self._check_inputs(E, policy, guide)
        slabs = np.ascontiguousarray(slabs, dtype=np.int64)
        plan = self.layout.slabs(top)
        if not 1 <= slabs.size <= LANES or slabs.min() < 0 or slabs.max() >= plan.count:
            raise ValueError(f"give 1..{LANES} slabs of 0..{plan.count - 1}, got {slabs.tolist()}")
        t = self.tables
        lower_low, lower_high, lower_split = _lower_digits(self.layout.base, self.layout.k - top)
        _run(_solve_slab_lanes, E, guide, slabs, np.int64(top), POLICIES.index(policy), t.fits, self.rules.goal,
             np.array(self.layout.strides, dtype=np.uint64), np.uint64(self.layout.last), t.coef, t.entry_base,
             t.hits_max, lower_low, lower_high, lower_split, t.ms_start, t.ms_entry, t.ms_weight, t.p0)

    def _check_inputs(self, E, policy, guide) -> tuple[np.ndarray, np.ndarray]:
        E = self._check_table(E, "E")
        if policy not in POLICIES:
            raise ValueError(f"policy must be one of {POLICIES}, got {policy!r}")
        if policy == "lookahead":
            if guide is None:
                raise ValueError("policy 'lookahead' needs a guide table")
            return E, kernel_guide(E, self._check_table(guide, "guide"))
        return E, kernel_guide(E, None)

    def _arguments(self) -> tuple:
        t = self.tables
        return (self.rules.goal, np.array(self.layout.strides, dtype=np.uint64), np.uint64(self.layout.last),
                t.coef, t.entry_base, t.digits_low, t.digits_high, t.split, t.ms_start, t.ms_entry,
                t.ms_weight, t.p0)

    def option_values(self, E: np.ndarray, board: int, faces: Sequence[int], dice: int,
                      throws: int | None) -> list[tuple[int, int, float, float]]:
        """Every legal row after the choice throw ``faces`` on ``board``: ``(row, hits, stay,
        rest)``, float64; the turns still needed after this turn are ``stay * E[board] + rest``.

        In Fives every choice throw has all dice and no throw limit (FIVES-2/4/5), and a
        named number always gains a mark, so ``stay`` is 0.

        Raises:
            IllegalMoveError: ``dice`` is not all the dice or ``throws`` is not None.
            InvalidRollError: ``faces`` is not a throw of ``dice`` dice.
            InvalidBoardError: a bad board index.
        """
        E = self._check_table(E, "E")
        board = self.layout.check_index(board)
        if dice != self.rules.dice:
            raise IllegalMoveError(f"every Fives choice throw uses all {self.rules.dice} dice (FIVES-2/4/5), got {dice}")
        if throws is not None:
            raise IllegalMoveError(f"Fives has no throw limit (FIVES-3); throws must be None, got {throws!r}")
        counts = counts_of(check_roll(faces, dice))
        t = self.tables
        values = np.empty((t.entries + WIDTH, 1))
        _run(_fill_options, E, np.uint64(board), *self._arguments()[:8], values, np.uint64(0))
        digits = self.layout.digits(board)
        result = []
        for j, row in enumerate(self.layout.rows):
            hits = hits_from_counts(row, counts)
            if hits and digits[j] < self.rules.goal:
                result.append((row, hits, 0.0, float(values[int(t.entry_base[j]) + hits - 1, 0])))
        return result


# --- compiled part ------------------------------------------------------------------------

_COMPILE_LOCK = threading.Lock()
_COMPILED: set = set()


@contextmanager
def _slp_vectorize():
    """Switch LLVM's SLP vectoriser on while numba compiles (numba leaves it off)."""
    previous = numba_config.SLP_VECTORIZE
    numba_config.SLP_VECTORIZE = 1
    try:
        yield
    finally:
        numba_config.SLP_VECTORIZE = previous


def _run(dispatcher, *args):
    """Call ``dispatcher(*args)``, first compiling it (or loading it from numba's cache) for
    these argument types with SLP vectorisation; thread-safe."""
    signature = tuple(numba.typeof(a) for a in args)
    key = (dispatcher, signature)
    if key not in _COMPILED:
        with _COMPILE_LOCK:
            if key not in _COMPILED:
                with _slp_vectorize():
                    dispatcher.compile(signature)
                _COMPILED.add(key)
    return dispatcher(*args)


_FLAGS = dict(nogil=True, cache=True, boundscheck=False, fastmath={"contract"})


@numba.njit(inline="always", **_FLAGS)
def _row8(c, a):
    one = np.uint64(1)
    return (c[a], c[a + one], c[a + np.uint64(2)], c[a + np.uint64(3)], c[a + np.uint64(4)], c[a + np.uint64(5)],
            c[a + np.uint64(6)], c[a + np.uint64(7)])


@numba.njit(inline="always", **_FLAGS)
def _fma8(acc, r, x):
    return (acc[0] + r[0] * x, acc[1] + r[1] * x, acc[2] + r[2] * x, acc[3] + r[3] * x,
            acc[4] + r[4] * x, acc[5] + r[5] * x, acc[6] + r[6] * x, acc[7] + r[7] * x)


@numba.njit(inline="always", **_FLAGS)
def _store8(out, first, column, r):
    one = np.uint64(1)
    out[first, column] = r[0]
    out[first + one, column] = r[1]
    out[first + np.uint64(2), column] = r[2]
    out[first + np.uint64(3), column] = r[3]
    out[first + np.uint64(4), column] = r[4]
    out[first + np.uint64(5), column] = r[5]
    out[first + np.uint64(6), column] = r[6]
    out[first + np.uint64(7), column] = r[7]


@numba.njit(inline="always", **_FLAGS)
def _fill_axis(T, b, j, s0, goal, stride, last, coef, first, out, column):
    """Write the options of axis ``j`` (progress ``s0``) of board ``b``, read from table ``T``,
    into ``out[first .. first + WIDTH - 1, column]`` (BIG for a complete row). Branch-free:
    a complete axis reads the complete board (coefficients 0)."""
    ug = np.uint64(goal)
    size_i = np.uint64(WIDTH)
    need = ug - s0
    source = b if need > 0 else last
    a = (j * (ug + np.uint64(1)) + s0) * (ug + np.uint64(1)) * size_i
    acc = _row8(coef, a)
    for i in range(1, goal + 1):
        index = source + min(np.uint64(i), need) * stride
        value = np.float64(T[index]) + (1.0 if index == last else 0.0)
        acc = _fma8(acc, _row8(coef, a + np.uint64(i) * size_i), value)
    _store8(out, first, column, acc)


@numba.njit(inline="always", **_FLAGS)
def _fit_axis(j, s0, goal, fits, first, values, out, column):
    """Copy axis ``j``'s option values whose hits fit below the goal (progress ``s0``) from
    ``values`` to ``out``, BIG for the others (safe greedy's first choices)."""
    a = (j * (np.uint64(goal) + np.uint64(1)) + s0) * np.uint64(WIDTH)
    for h in range(WIDTH):
        e = first + np.uint64(h)
        out[e, column] = values[e, column] if fits[a + np.uint64(h)] > 0.0 else BIG


@numba.njit(inline="always", **_FLAGS)
def _fill_options(T, b, goal, strides, last, coef, entry_base, digits_low, digits_high, split, out, column):
    """Write the option value of every entry of board ``b``, read from table ``T``, into
    ``out[entry, column]`` (``out`` has WIDTH spare rows); return the mask of open axes."""
    low = np.uint64(digits_low.shape[1])
    b_low = b % split
    b_high = b // split
    mask = 0
    for jj in range(strides.shape[0]):
        j = np.uint64(jj)
        s0 = digits_low[b_low, j] if j < low else digits_high[b_high, j - low]
        mask |= (1 << jj) if s0 < goal else 0
        _fill_axis(T, b, j, s0, goal, strides[j], last, coef, entry_base[j], out, column)
    return mask


@numba.njit(inline="always", **_FLAGS)
def _fill_fitting(b, goal, strides, fits, entry_base, digits_low, digits_high, split, values, out, column):
    """:func:`_fit_axis` for every axis of board ``b``."""
    low = np.uint64(digits_low.shape[1])
    b_low = b % split
    b_high = b // split
    for jj in range(strides.shape[0]):
        j = np.uint64(jj)
        s0 = digits_low[b_low, j] if j < low else digits_high[b_high, j - low]
        _fit_axis(j, s0, goal, fits, entry_base[j], values, out, column)


@numba.njit(inline="always", **_FLAGS)
def _load(O, e):
    return (O[e, 0], O[e, 1], O[e, 2], O[e, 3], O[e, 4], O[e, 5], O[e, 6], O[e, 7],
            O[e, 8], O[e, 9], O[e, 10], O[e, 11], O[e, 12], O[e, 13], O[e, 14], O[e, 15])


@numba.njit(inline="always", **_FLAGS)
def _minimum(a, b):
    return (min(a[0], b[0]), min(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]),
            min(a[4], b[4]), min(a[5], b[5]), min(a[6], b[6]), min(a[7], b[7]),
            min(a[8], b[8]), min(a[9], b[9]), min(a[10], b[10]), min(a[11], b[11]),
            min(a[12], b[12]), min(a[13], b[13]), min(a[14], b[14]), min(a[15], b[15]))


@numba.njit(inline="always", **_FLAGS)
def _pick(x, best):
    """Per lane: True where score ``x`` beats ``best``."""
    return (x[0] < best[0], x[1] < best[1], x[2] < best[2], x[3] < best[3],
            x[4] < best[4], x[5] < best[5], x[6] < best[6], x[7] < best[7],
            x[8] < best[8], x[9] < best[9], x[10] < best[10], x[11] < best[11],
            x[12] < best[12], x[13] < best[13], x[14] < best[14], x[15] < best[15])


@numba.njit(inline="always", **_FLAGS)
def _where(c, x, y):
    """Per lane: ``x`` where ``c`` else ``y``."""
    return (x[0] if c[0] else y[0], x[1] if c[1] else y[1], x[2] if c[2] else y[2], x[3] if c[3] else y[3],
            x[4] if c[4] else y[4], x[5] if c[5] else y[5], x[6] if c[6] else y[6], x[7] if c[7] else y[7],
            x[8] if c[8] else y[8], x[9] if c[9] else y[9], x[10] if c[10] else y[10],
            x[11] if c[11] else y[11], x[12] if c[12] else y[12], x[13] if c[13] else y[13],
            x[14] if c[14] else y[14], x[15] if c[15] else y[15])


@numba.njit(inline="always", **_FLAGS)
def _accumulate(acc, w, m):
    """``acc + w * m`` per lane, counting a lane whose best is BIG (no legal row) as 0."""
    return (acc[0] + w * (m[0] if m[0] < BIG else 0.0), acc[1] + w * (m[1] if m[1] < BIG else 0.0),
            acc[2] + w * (m[2] if m[2] < BIG else 0.0), acc[3] + w * (m[3] if m[3] < BIG else 0.0),
            acc[4] + w * (m[4] if m[4] < BIG else 0.0), acc[5] + w * (m[5] if m[5] < BIG else 0.0),
            acc[6] + w * (m[6] if m[6] < BIG else 0.0), acc[7] + w * (m[7] if m[7] < BIG else 0.0),
            acc[8] + w * (m[8] if m[8] < BIG else 0.0), acc[9] + w * (m[9] if m[9] < BIG else 0.0),
            acc[10] + w * (m[10] if m[10] < BIG else 0.0), acc[11] + w * (m[11] if m[11] < BIG else 0.0),
            acc[12] + w * (m[12] if m[12] < BIG else 0.0), acc[13] + w * (m[13] if m[13] < BIG else 0.0),
            acc[14] + w * (m[14] if m[14] < BIG else 0.0), acc[15] + w * (m[15] if m[15] < BIG else 0.0))


@numba.njit(**_FLAGS)
def _minimum_sum(values, ms_start, ms_entry, ms_weight, result):
    """``result[lane]`` = sum over throws of weight x the least option value of the throw's
    entries (0 where every entry is BIG). Two independent chains per entry list."""
    acc = _load(np.zeros((1, LANES)), 0)
    one = np.uint64(1)
    two = np.uint64(2)
    for t in range(ms_weight.shape[0]):
        start = ms_start[t]
        end = ms_start[t + 1]
        m0 = _load(values, ms_entry[start])
        m1 = _load(values, ms_entry[start + one])
        i = start + two
        while i < end:
            m0 = _minimum(m0, _load(values, ms_entry[i]))
            m1 = _minimum(m1, _load(values, ms_entry[i + one]))
            i += two
        acc = _accumulate(acc, ms_weight[t], _minimum(m0, m1))
    for lane in range(LANES):
        result[lane] = acc[lane]


@numba.njit(**_FLAGS)
def _first_open_sum(values, primary, fallback, ms_start, ms_entry, ms_weight, result):
    """``result[lane]`` = sum over throws of weight x the value of the first entry of the
    throw's list that is below BIG in ``primary`` -- or, with ``fallback``, in ``values``
    when none is -- (0 where none is). The list order is greedy's preference, so with
    ``primary = values`` this is greedy play, with the fitting rows first safe greedy. The
    lists are scanned backwards, so each step is one independent select."""
    acc = _load(np.zeros((1, LANES)), 0)
    big = _load(np.full((1, LANES), BIG), 0)
    one = np.uint64(1)
    for t in range(ms_weight.shape[0]):
        start = ms_start[t]
        i = ms_start[t + 1]
        chosen = big
        other = big
        while i > start:
            i -= one
            e = ms_entry[i]
            x = _load(primary, e)
            chosen = _where(_pick(x, big), x, chosen)
            if fallback:
                y = _load(values, e)
                other = _where(_pick(y, big), y, other)
        if fallback:
            chosen = _where(_pick(chosen, big), chosen, other)
        acc = _accumulate(acc, ms_weight[t], chosen)
    for lane in range(LANES):
        result[lane] = acc[lane]


@numba.njit(**_FLAGS)
def _picked_sum(values, scores, ms_start, ms_entry, ms_weight, result):
    """``result[lane]`` = sum over throws of weight x the value of the throw's entry with the
    least score (the first such entry in list order: more hits, then the higher row; 0
    where every score is BIG)."""
    acc = _load(np.zeros((1, LANES)), 0)
    one = np.uint64(1)
    for t in range(ms_weight.shape[0]):
        start = ms_start[t]
        best = _load(scores, ms_entry[start])
        chosen = _load(values, ms_entry[start])
        i = start + one
        while i < ms_start[t + 1]:
            e = ms_entry[i]
            x = _load(scores, e)
            better = _pick(x, best)
            best = _where(better, x, best)
            chosen = _where(better, _load(values, e), chosen)
            i += one
        acc = _accumulate(acc, ms_weight[t], chosen)
    for lane in range(LANES):
        result[lane] = acc[lane]


@numba.njit(inline="always", **_FLAGS)
def _chosen_sum(mode, values, scores, ms_start, ms_entry, ms_weight, result):
    """``result[lane]`` = sum over throws of weight x the value of the option that policy
    ``mode`` (the index of :data:`POLICIES`) names."""
    if mode == 0:
        _minimum_sum(values, ms_start, ms_entry, ms_weight, result)
    elif mode == 1:
        _first_open_sum(values, values, False, ms_start, ms_entry, ms_weight, result)
    elif mode == 2:
        _first_open_sum(values, scores, True, ms_start, ms_entry, ms_weight, result)
    else:
        _picked_sum(values, scores, ms_start, ms_entry, ms_weight, result)


@numba.njit(**_FLAGS)
def _fill_group(E, guide, boards, group, mode, fits, goal, strides, last, coef, entry_base, digits_low,
                digits_high, split, p0, values, scores, stay):
    """Fill the option values of the 16 boards from ``group``, and for safe greedy the
    fitting ones, for a lookahead the guide's option values (into ``scores``)."""
    n = boards.shape[0]
    for lane in range(LANES):
        b = np.uint64(boards[min(group + lane, n - 1)])
        column = np.uint64(lane)
        mask = _fill_options(E, b, goal, strides, last, coef, entry_base, digits_low, digits_high, split,
                             values, column)
        stay[lane] = p0[mask]
        if mode == 3:
            _fill_options(guide, b, goal, strides, last, coef, entry_base, digits_low, digits_high, split,
                          scores, column)
        elif mode == 2:
            _fill_fitting(b, goal, strides, fits, entry_base, digits_low, digits_high, split, values, scores,
                          column)


@numba.njit(**_FLAGS)
def _solve_boards(E, guide, boards, mode, fits, goal, strides, last, coef, entry_base, digits_low,
                  digits_high, split, ms_start, ms_entry, ms_weight, p0):
    """The kernel of :meth:`FivesKernel.solve`: 16 boards at a time (the last group padded
    with its last board). ``mode`` indexes :data:`POLICIES`."""
    n = boards.shape[0]
    rows = ms_entry.max() + np.uint64(WIDTH + 1) if ms_entry.shape[0] else np.uint64(WIDTH)
    values = np.empty((rows, LANES))
    scores = np.empty((rows, LANES))
    stay = np.empty(LANES)
    result = np.empty(LANES)
    for group in range(0, n, LANES):
        _fill_group(E, guide, boards, group, mode, fits, goal, strides, last, coef, entry_base,
                    digits_low, digits_high, split, p0, values, scores, stay)
        _chosen_sum(mode, values, scores, ms_start, ms_entry, ms_weight, result)
        for lane in range(min(LANES, n - group)):
            w = (result[lane] + stay[lane]) / (1.0 - stay[lane])
            E[boards[group + lane]] = w + 1.0


@numba.njit(inline="always", **_FLAGS)
def _gather(T, bases, offset, last):
    """``T[bases[lane] + offset]`` per lane (float64), plus 1 where that is the complete board."""
    i0, i1, i2, i3 = bases[0] + offset, bases[1] + offset, bases[2] + offset, bases[3] + offset
    i4, i5, i6, i7 = bases[4] + offset, bases[5] + offset, bases[6] + offset, bases[7] + offset
    i8, i9, i10, i11 = bases[8] + offset, bases[9] + offset, bases[10] + offset, bases[11] + offset
    i12, i13, i14, i15 = bases[12] + offset, bases[13] + offset, bases[14] + offset, bases[15] + offset
    return (np.float64(T[i0]) + (1.0 if i0 == last else 0.0), np.float64(T[i1]) + (1.0 if i1 == last else 0.0),
            np.float64(T[i2]) + (1.0 if i2 == last else 0.0), np.float64(T[i3]) + (1.0 if i3 == last else 0.0),
            np.float64(T[i4]) + (1.0 if i4 == last else 0.0), np.float64(T[i5]) + (1.0 if i5 == last else 0.0),
            np.float64(T[i6]) + (1.0 if i6 == last else 0.0), np.float64(T[i7]) + (1.0 if i7 == last else 0.0),
            np.float64(T[i8]) + (1.0 if i8 == last else 0.0), np.float64(T[i9]) + (1.0 if i9 == last else 0.0),
            np.float64(T[i10]) + (1.0 if i10 == last else 0.0), np.float64(T[i11]) + (1.0 if i11 == last else 0.0),
            np.float64(T[i12]) + (1.0 if i12 == last else 0.0), np.float64(T[i13]) + (1.0 if i13 == last else 0.0),
            np.float64(T[i14]) + (1.0 if i14 == last else 0.0), np.float64(T[i15]) + (1.0 if i15 == last else 0.0))


@numba.njit(inline="always", **_FLAGS)
def _fma16(acc, c, v):
    """``acc + c * v`` per lane (``c`` a number)."""
    return (acc[0] + c * v[0], acc[1] + c * v[1], acc[2] + c * v[2], acc[3] + c * v[3],
            acc[4] + c * v[4], acc[5] + c * v[5], acc[6] + c * v[6], acc[7] + c * v[7],
            acc[8] + c * v[8], acc[9] + c * v[9], acc[10] + c * v[10], acc[11] + c * v[11],
            acc[12] + c * v[12], acc[13] + c * v[13], acc[14] + c * v[14], acc[15] + c * v[15])


@numba.njit(inline="always", **_FLAGS)
def _store16(out, e, r):
    out[e, 0], out[e, 1], out[e, 2], out[e, 3] = r[0], r[1], r[2], r[3]
    out[e, 4], out[e, 5], out[e, 6], out[e, 7] = r[4], r[5], r[6], r[7]
    out[e, 8], out[e, 9], out[e, 10], out[e, 11] = r[8], r[9], r[10], r[11]
    out[e, 12], out[e, 13], out[e, 14], out[e, 15] = r[12], r[13], r[14], r[15]


@numba.njit(inline="always", **_FLAGS)
def _fill_axis_lanes(T, bases, position, j, s0, goal, stride, last, coef, first, count, out):
    """:func:`_fill_axis` for 16 boards ``bases[lane] + position`` that share the progress
    ``s0`` of axis ``j``: the coefficients are common, so each is one 16-wide FMA."""
    ug = np.uint64(goal)
    size_i = np.uint64(WIDTH)
    need = ug - s0
    a = (j * (ug + np.uint64(1)) + s0) * (ug + np.uint64(1)) * size_i
    if need == 0:
        for h in range(WIDTH):
            out[first + np.uint64(h), :] = BIG
        return
    for h in range(count):
        out[first + np.uint64(h), :] = coef[a + np.uint64(h)]
    for i in range(1, goal + 1):
        v = _gather(T, bases, position + min(np.uint64(i), need) * stride, last)
        row = a + np.uint64(i) * size_i
        for h in range(count):
            e = first + np.uint64(h)
            _store16(out, e, _fma16(_load(out, e), coef[row + np.uint64(h)], v))


@numba.njit(**_FLAGS)
def _fill_slab_lanes(E, guide, bases, top_digits, position, mode, fits, goal, strides, last, coef, entry_base,
                     hits_max, lower_low, lower_high, lower_split, p0, values, scores, stay):
    """Fill the options of the 16 boards ``bases[lane] + position`` (one per slab): the lower
    axes (the same progress in every lane) 16 lanes at a time, the slab's top axes per lane."""
    k = strides.shape[0]
    lower = k - top_digits.shape[1]
    low = np.uint64(lower_low.shape[1])
    p_low = position % lower_split
    p_high = position // lower_split
    mask = 0
    for jj in range(lower):
        j = np.uint64(jj)
        s0 = lower_low[p_low, j] if j < low else lower_high[p_high, j - low]
        mask |= (1 << jj) if s0 < goal else 0
        first = entry_base[j]
        _fill_axis_lanes(E, bases, position, j, s0, goal, strides[j], last, coef, first, hits_max[j], values)
        if mode == 3:
            _fill_axis_lanes(guide, bases, position, j, s0, goal, strides[j], last, coef, first, hits_max[j],
                             scores)
        elif mode == 2:
            for lane in range(LANES):
                _fit_axis(j, s0, goal, fits, first, values, scores, np.uint64(lane))
    for lane in range(LANES):
        b = bases[lane] + position
        column = np.uint64(lane)
        lane_mask = mask
        for t in range(top_digits.shape[1]):
            j = np.uint64(lower + t)
            s0 = top_digits[lane, t]
            lane_mask |= (1 << (lower + t)) if s0 < goal else 0
            _fill_axis(E, b, j, s0, goal, strides[j], last, coef, entry_base[j], values, column)
            if mode == 3:
                _fill_axis(guide, b, j, s0, goal, strides[j], last, coef, entry_base[j], scores, column)
            elif mode == 2:
                _fit_axis(j, s0, goal, fits, entry_base[j], values, scores, column)
        stay[lane] = p0[lane_mask]


@numba.njit(**_FLAGS)
def _solve_slab_lanes(E, guide, slabs, top, mode, fits, goal, strides, last, coef, entry_base, hits_max,
                      lower_low, lower_high, lower_split, ms_start, ms_entry, ms_weight, p0):
    """The kernel of :meth:`FivesKernel.solve_slabs`: lane ``l`` sweeps slab ``slabs[l]`` (the
    last slab repeated in spare lanes) from its highest lower index down, all lanes at once."""
    k = strides.shape[0]
    lower = k - top
    size = np.uint64(1)
    for jj in range(lower):
        size *= np.uint64(goal + 1)
    n = slabs.shape[0]
    base = np.uint64(goal + 1)
    top_digits = np.empty((LANES, top), dtype=np.uint64)
    starts = np.empty(LANES, dtype=np.uint64)
    for lane in range(LANES):
        slab = np.uint64(slabs[min(lane, n - 1)])
        starts[lane] = slab * size
        for t in range(top):
            top_digits[lane, t] = slab % base
            slab //= base
    bases = (starts[0], starts[1], starts[2], starts[3], starts[4], starts[5], starts[6], starts[7],
             starts[8], starts[9], starts[10], starts[11], starts[12], starts[13], starts[14], starts[15])
    rows = ms_entry.max() + np.uint64(WIDTH + 1) if ms_entry.shape[0] else np.uint64(WIDTH)
    values = np.empty((rows, LANES))
    scores = np.empty((rows, LANES))
    stay = np.empty(LANES)
    result = np.empty(LANES)
    position = size
    while position > 0:
        position -= np.uint64(1)
        _fill_slab_lanes(E, guide, bases, top_digits, position, mode, fits, goal, strides, last, coef, entry_base,
                         hits_max, lower_low, lower_high, lower_split, p0, values, scores, stay)
        _chosen_sum(mode, values, scores, ms_start, ms_entry, ms_weight, result)
        for lane in range(n):
            b = starts[lane] + position
            if b == last:
                E[b] = 0.0
            else:
                w = (result[lane] + stay[lane]) / (1.0 - stay[lane])
                E[b] = w + 1.0
