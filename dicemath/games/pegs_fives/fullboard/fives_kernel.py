"""The compiled exact Fives kernel: expected turns of every board of a table.

The package docstring of :mod:`dicemath.games.pegs_fives.fullboard` places it in the solver.

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

The cost is the best option of each of the 462 six-dice multisets (about 2,900 (throw,
option) pairs on the full board). The arithmetic is C (``_fives_c.c``, compiled when the
package is installed: nothing is compiled at run time). It evaluates 16 boards at once with
the option values laid out ``[entry][board]``, so that a minimum is a 16-lane vector
operation, and it takes the minima of optimal play through a program of shared minima
(:func:`min_program`: options that many throws offer together are compared once, about a
third of the comparisons). :meth:`FivesKernel.solve` takes any independent board set (16
boards of it at a time); :meth:`FivesKernel.solve_slabs` sweeps 16 independent slabs
together, board by board in address order, so that the lower axes have the same progress
in all 16 lanes and their options are 16-lane multiply-adds too (the fast path of big
tables). One build holds a code path per instruction set and uses the fastest the CPU
runs, or the one the environment variable ``DICEMATH_SIMD`` names at import (``avx512``,
``avx2`` or ``scalar``; see :data:`SIMD`).

Arithmetic is float64; the table may be stored as float64 or float32. Policy modes evaluate
a fixed rule instead of minimising: greedy and safe greedy (:mod:`..state`) and a one-turn
lookahead on a guide table (the order of :meth:`..advisor.Advisor.rank`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from dicemath.core.dice import multiset_counts
from dicemath.core.errors import IllegalMoveError, InvalidRulesError
from dicemath.games.pegs_fives.fullboard import _fives_c  # type: ignore[attr-defined]  # C extension, no stubs
from dicemath.games.pegs_fives.fullboard.layout import BoardLayout, kernel_guide
from dicemath.games.pegs_fives.hits import hits_from_counts
from dicemath.games.pegs_fives.rules import Rules
from dicemath.games.pegs_fives.state import check_roll, counts_of, hit_weights

LANES = 16
"""Boards evaluated together by the vectorised minimum."""

BIG = 1e300
"""Option value (and score) of a complete row: never the best."""

POLICIES = ("optimal", "greedy", "safe_greedy", "lookahead")
"""The modes of :meth:`FivesKernel.solve` (their index is the kernel's mode number)."""

SIMD = _fives_c.simd()
"""The kernel's code path in use, chosen at import: ``"avx512"``, ``"avx2"`` or ``"scalar"``, the
first of ``_fives_c.PATHS`` (the paths this CPU runs, fastest first) unless ``DICEMATH_SIMD``
names another (an ImportError if the CPU lacks it). The paths agree within float64 rounding."""


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
"""Coefficient columns per (axis, progress, successor): hits 1..8 (the most hits of a number
with 8 dice; more dice are rejected)."""


def min_program(lists: Sequence[Sequence[int]], entries: int) -> tuple[list[tuple[int, int]], list[list[int]]]:
    """The minima of ``lists`` (sets of entries ``0..entries-1``) with comparisons shared.

    Greedy pairing: the pair of items that most lists hold together becomes a new item
    ``entries + n`` (its minimum, computed once), until no pair is held by two lists. The
    tie-break (the lowest pair) makes the program deterministic. On the full board this
    takes the 2,400 comparisons of the lists down to about 830.

    Returns:
        ``(nodes, items)``: ``nodes[n]`` the two items whose minimum is item ``entries + n``
        (items of earlier nodes only); ``items[t]`` the items whose minimum is that of
        ``lists[t]``.

    Example:
        >>> min_program([[0, 1, 2], [0, 1], [1, 2]], 3)
        ([(0, 1)], [[2, 3], [3], [1, 2]])
    """
    sets = [set(items) for items in lists]
    holders: dict[tuple[int, int], set[int]] = {}
    for t, items in enumerate(sets):
        for pair in _pairs(items):
            holders.setdefault(pair, set()).add(t)
    nodes: list[tuple[int, int]] = []
    while holders:
        pair = max(holders, key=lambda p: (len(holders[p]), -p[0], -p[1]))
        if len(holders[pair]) < 2:
            break
        item = entries + len(nodes)
        nodes.append(pair)
        for t in sorted(holders[pair]):
            items = sets[t]
            for old in _pairs(items):
                if old in holders:
                    holders[old].discard(t)
                    if not holders[old]:
                        del holders[old]
            items.difference_update(pair)
            items.add(item)
            for new in _pairs(items):
                holders.setdefault(new, set()).add(t)
    return nodes, [sorted(items) for items in sets]


def _pairs(items: set[int]) -> list[tuple[int, int]]:
    ordered = sorted(items)
    return [(a, b) for i, a in enumerate(ordered) for b in ordered[i + 1:]]


@dataclass(frozen=True)
class FivesTables:
    """Everything the C kernel reads besides the value table.

    Attributes:
        coef: float64 ``[axis, s0, i, h]`` (``s0`` and ``i`` in ``0..goal``, ``h`` in
            ``0..WIDTH-1`` for ``h + 1`` hits): the option coefficients of
            :func:`axis_coefficients`, transposed; a complete axis (``s0 = goal``) has the
            constant BIG.
        fits: float64 ``[axis, s0, h]``: 1 where ``h + 1`` hits fit below the goal
            (:class:`..state.SafeGreedy` prefers those rows), else 0.
        entry_base: entry id of ``(axis, 1 hit)``; ``(axis, h)`` is ``entry_base + h - 1``.
        hits_max: most hits of each axis (``dice // dice_per_hit``).
        entries: number of (axis, hits) entries.
        lists: the choice throws with a legal number on some open row, as lists of entries
            (each ordered most hits first, then higher row: greedy's preference); throws
            with the same list are merged.
        weights: their probabilities (float64).
        p0: chance of no legal number, by the mask of open axes.
        nodes, items: the program of shared minima of the lists (:func:`min_program`).
    """

    coef: np.ndarray
    fits: np.ndarray
    entry_base: np.ndarray
    hits_max: np.ndarray
    entries: int
    lists: tuple[tuple[int, ...], ...]
    weights: np.ndarray
    p0: np.ndarray
    nodes: tuple[tuple[int, int], ...]
    items: tuple[tuple[int, ...], ...]

    def geometry(self, layout: BoardLayout) -> tuple[np.ndarray, np.ndarray]:
        """The two arrays the C kernel reads for ``layout`` (the order of ``read_geo`` in
        ``_fives_c.c``): int64 sizes, strides and index lists; float64 coefficients,
        fits, weights and P0."""
        list_start = np.cumsum([0] + [len(entries) for entries in self.lists])
        group_start = np.cumsum([0] + [len(items) for items in self.items])
        header = [layout.k, layout.rules.goal, self.entries, len(self.lists), list_start[-1], len(self.nodes),
                  group_start[-1], layout.last]
        ints = np.concatenate([header, layout.strides, self.entry_base, self.hits_max, list_start,
                               [e for entries in self.lists for e in entries],
                               [i for pair in self.nodes for i in pair], group_start,
                               [i for items in self.items for i in items]]).astype(np.int64)
        floats = np.concatenate([self.coef.ravel(), self.fits.ravel(), self.weights, self.p0]).astype(np.float64)
        return ints, floats


@lru_cache(maxsize=32)
def fives_tables(rules: Rules, rows: tuple[int, ...]) -> FivesTables:
    """The kernel's precomputed tables for ``rules`` and open ``rows`` (validated).

    Raises:
        InvalidRulesError: rules the kernel does not implement, or a number that more than
            :data:`WIDTH` hits could reach.
    """
    layout = BoardLayout(check_fives_rules(rules), rows)
    goal, dice, k = rules.goal, rules.dice, layout.k
    per_hit = [rules.dice_per_hit[r - 1] for r in layout.rows]
    hits_max = np.array([dice // d for d in per_hit], dtype=np.int64)
    if hits_max.max() > WIDTH:
        raise InvalidRulesError(f"the Fives kernel implements up to {WIDTH} hits per number, "
                                f"got {int(hits_max.max())} ({dice} dice)")
    entry_base = np.concatenate([[0], np.cumsum(hits_max)[:-1]]).astype(np.int64)
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
            groups[key] = groups.get(key, 0) + weight
    masks = np.arange(2 ** k)
    missed = (np.array(hit_masks)[:, None] & masks[None, :]) == 0
    p0 = (np.array(mask_weights, dtype=np.float64) @ missed) / 6 ** dice
    entries = int(hits_max.sum())
    nodes, items = min_program(list(groups), entries)
    return FivesTables(coef, fits, entry_base, hits_max, entries, tuple(groups),
                       np.array(list(groups.values()), dtype=np.float64) / 6 ** dice, p0,
                       tuple(nodes), tuple(map(tuple, items)))


class FivesKernel:
    """The Fives kernel for one rules object and one set of open rows (see the module docstring).

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
        self._geo, self._floats = self.tables.geometry(self.layout)

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
        _fives_c.solve(self._geo, self._floats, E, guide, boards, POLICIES.index(policy), E.dtype == np.float64)

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
        _fives_c.solve_slabs(self._geo, self._floats, E, guide, slabs, top, POLICIES.index(policy),
                             E.dtype == np.float64)

    def _check_inputs(self, E: np.ndarray, policy: str,
                      guide: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        E = self._check_table(E, "E")
        if policy not in POLICIES:
            raise ValueError(f"policy must be one of {POLICIES}, got {policy!r}")
        if policy == "lookahead":
            if guide is None:
                raise ValueError("policy 'lookahead' needs a guide table")
            return E, kernel_guide(E, self._check_table(guide, "guide"))
        return E, kernel_guide(E, None)

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
            raise IllegalMoveError(
                f"every Fives choice throw uses all {self.rules.dice} dice (FIVES-2/4/5), got {dice}")
        if throws is not None:
            raise IllegalMoveError(f"Fives has no throw limit (FIVES-3); throws must be None, got {throws!r}")
        counts = counts_of(check_roll(faces, dice))
        t = self.tables
        values = np.empty(t.entries)
        if board != self.layout.last:
            _fives_c.options(self._geo, self._floats, E, board, E.dtype == np.float64, values)
        digits = self.layout.digits(board)
        result = []
        for j, row in enumerate(self.layout.rows):
            hits = hits_from_counts(row, counts)
            if hits and digits[j] < self.rules.goal:
                result.append((row, hits, 0.0, float(values[int(t.entry_base[j]) + hits - 1])))
        return result
