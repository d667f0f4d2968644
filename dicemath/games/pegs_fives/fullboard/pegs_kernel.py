"""The compiled exact Pegs kernel of the full-board solver (docs/rules.md PEGS-1..9).

:class:`PegsKernel` writes ``E[b]``, the expected number of turns to finish from board
``b`` at the start of a turn, for a set of mutually independent boards whose successors
are final (the layout of :mod:`.layout`, the interface :mod:`.driver` calls). float64
arithmetic; ``E`` may be stored as float64 or float32.

One turn from board ``b`` (PEGS-3): a choice throw of 6 dice, a legal row (PEGS-4), then
the cycle for that row (PEGS-5..9). Every rule point enters through tables built here
from the engine itself (:func:`..state.after_hits`, :func:`..state.miss`, the single
implementation of PEGS-3..9): for a row at step ``s``, ``h`` hits on a choice throw of
``d0`` dice and ``ta`` throws left after it, the probabilities of

* an overthrow (PEGS-6): the turn ends where the cycle began;
* the turn ending with the row at ``s + c`` (a miss, the budget spent, PEGS-9; or in
  exactly with no dice or throws left, PEGS-7);
* all dice used at ``s + c`` (PEGS-8, before PEGS-7): a fresh start worth ``E - 1``
  (the restart identity of :class:`..turn.TurnValue`; 0 when the board is complete);
* in exactly with dice and throws left (PEGS-7): a new choice throw with the dice left
  and ``t`` throws on the board with the row in, valued on demand from ``E``.

An option is then affine in ``x = E[b]``: ``stay * x + rest``. The board's value solves
``x = 1 + sum_throws p * min_row (stay * x + rest)`` (an overthrow or no legal row on the
turn's first choice throw returns to ``b``); the kernel solves it exactly per board by
policy iteration on the one unknown (Newton on a concave piecewise-linear function, as
:func:`dicemath.core.mdp.solve_self_referential`), starting from an extrapolation of the
neighbours' values and stopping as soon as no throw's choice can change (the gap
between its best option and the best of another stay exceeds the step).

The arithmetic is C (``_pegs_c.c``, compiled when the package is installed: nothing is
compiled at run time). It works board by board and vectorises over the throws of a choice
throw: the best option of 8 throws is a minimum over the open rows of look-ups in each
row's table of 8 option values (hits 0..7), one permute each with AVX-512 (a portable
loop without it). One build holds a code path per instruction set and uses the fastest the
CPU runs, or the one the environment variable ``DICEMATH_SIMD`` names at import
(``avx512``, ``avx2`` or ``scalar``; see :data:`SIMD`).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from dicemath.core.errors import IllegalMoveError, InvalidRulesError
from dicemath.games.pegs_fives.fullboard import _pegs_c  # type: ignore[attr-defined]  # C extension, no stubs
from dicemath.games.pegs_fives.fullboard.layout import BoardLayout, kernel_guide
from dicemath.games.pegs_fives.hits import hits_from_counts
from dicemath.games.pegs_fives.rules import PEGS, Rules
from dicemath.games.pegs_fives.state import (
    InvalidBoardError, check_roll, cycle_terminals, grouped_choice_throws)

POLICIES = ("optimal", "greedy", "safe_greedy", "lookahead")
"""The ``policy`` names :meth:`PegsKernel.solve` accepts (index = the kernel's mode)."""

MAX_HITS = 8
"""Slots per row in the option tables: hits 0..7 (0 and 7 unused; 8 makes one SIMD vector)."""

MAX_GOAL = 6
"""The largest ``goal`` the kernel implements (a row's values fit one table of 8 slots)."""

SIMD = _pegs_c.simd()
"""The kernel's code path in use, chosen at import: ``"avx512"``, ``"avx2"`` or ``"scalar"``, the
first of ``_pegs_c.PATHS`` (the paths this CPU runs, fastest first) unless ``DICEMATH_SIMD``
names another (an ImportError if the CPU lacks it). The paths agree within float64 rounding."""

_SUPPORTED = {"dice": PEGS.dice, "throws": PEGS.throws, "overthrow": PEGS.overthrow,
              "on_complete": PEGS.on_complete, "all_dice_first": PEGS.all_dice_first,
              "fresh_budget_on_all_dice": PEGS.fresh_budget_on_all_dice}
"""Rule fields the kernel fixes at the PEGS preset's value (``goal`` may vary)."""


def check_pegs_rules(rules: Rules) -> Rules:
    """Return ``rules`` if the kernel implements them (the PEGS structure, any ``goal``).

    Raises:
        InvalidRulesError: a field differs from the PEGS preset other than ``goal``,
            ``name``, ``rows`` and ``scoring`` (which do not change expected turns), or
            ``goal`` is above :data:`MAX_GOAL`.
    """
    if rules.goal > MAX_GOAL:
        raise InvalidRulesError(f"the Pegs kernel implements goal (steps) up to {MAX_GOAL}, got {rules.goal}")
    for field, value in _SUPPORTED.items():
        if getattr(rules, field) != value:
            raise InvalidRulesError(
                f"the Pegs kernel implements {field}={value!r} (PEGS preset), got {field}={getattr(rules, field)!r}")
    return rules


def _throw_limit(rules: Rules) -> int:
    """``rules.throws``, which the Pegs kernel needs (PEGS-3).

    Raises:
        InvalidRulesError: rules without a throw limit (Fives).
    """
    if rules.throws is None:
        raise InvalidRulesError("the Pegs kernel needs a throw limit (PEGS-3), got throws=None")
    return rules.throws


def option_table(rules: Rules, j: int, need: int, dice: int, throws_after: int, last: bool) -> int:
    """Row of :func:`cycle_tables` for row position ``j`` with ``need`` steps to go, ``dice``
    before the choice throw and ``throws_after`` left after it; ``last``: no other row open."""
    return (((j * (rules.goal + 1) + need) * (rules.dice + 1) + dice) * _throw_limit(rules) + throws_after) * 2 + last


def cycle_tables(rules: Rules, rows: tuple[int, ...]) -> np.ndarray:
    """Every option's cycle as float64 coefficients of the values it leads to.

    Row :func:`option_table`, column ``c * MAX_HITS + h`` (``h`` hits on the choice
    throw) holds, for ``c = 0``, P(overthrow) (PEGS-6; times the value of the board the
    cycle began on); ``c = 1..goal``, P(the turn ends or restarts with the row ``c`` steps
    on) (times that board's value; zero columns up to ``steps = goal``);
    ``c = steps + 1`` and ``steps + 2``, P(PEGS-7 choice throw with 2 resp. 1 throws
    left, ``dice - dice_per_hit * need`` dice; times its value); ``c = steps + 3``, minus
    P(PEGS-8 restart) (the restart identity's ``- 1``). With ``last`` the row going in
    ends the game: the terms that follow it are 0. Exact Fractions rounded once to float64.
    """
    goal, dice, throws = rules.goal, rules.dice, _throw_limit(rules)
    steps = goal
    table = np.zeros((option_table(rules, len(rows), 0, 0, 0, False), (steps + 4) * MAX_HITS))
    for j, row in enumerate(rows):
        per_hit = rules.dice_per_hit[row - 1]
        for need in range(1, goal + 1):
            for d0 in range(1, dice + 1):
                for ta in range(throws):
                    for h in range(1, d0 // per_hit + 1):
                        coefficients = [Fraction(0)] * (steps + 4)
                        fresh_in = Fraction(0)
                        for key, p in cycle_terminals(rules, row, goal - need, h, d0 - h * per_hit, ta).items():
                            if key[0] == "over":
                                coefficients[0] += p
                            elif key[0] == "choice":
                                assert key[1] == d0 - per_hit * need and key[2] in (1, 2)
                                coefficients[steps + 3 - key[2]] += p
                            else:
                                coefficients[key[1]] += p
                                if key[0] == "fresh" and key[1] == need:
                                    fresh_in += p
                                elif key[0] == "fresh":
                                    coefficients[steps + 3] -= p
                        for last in (False, True):
                            column = list(coefficients)
                            if last:
                                column[need] = column[steps + 1] = column[steps + 2] = Fraction(0)
                            else:
                                column[steps + 3] -= fresh_in
                            row_index = option_table(rules, j, need, d0, ta, last)
                            for c, value in enumerate(column):
                                table[row_index, c * MAX_HITS + h] = float(value)
    return table


def throw_groups(rules: Rules, rows: tuple[int, ...]) -> dict[str, np.ndarray]:
    """Choice throws of 1..6 dice grouped by their hits on ``rows`` (PEGS-4).

    Groups of ``dice`` dice are ``group_start[dice] .. group_start[dice + 1]``; group ``g``
    has probability ``group_p[g]`` and the options ``entry_start[g] .. entry_start[g + 1]``
    (row position ``entry_row``, hits ``entry_hits``), sorted by hits then row, both
    descending: the first of equal keys is the greedy / advisor tie-break.
    """
    position = {row: j for j, row in enumerate(rows)}
    group_start = [0] * (rules.dice + 2)
    group_p: list[float] = []
    entry_start = [0]
    entry_row: list[int] = []
    entry_hits: list[int] = []
    for d in range(1, rules.dice + 1):
        group_start[d] = len(group_p)
        for weight, legal in grouped_choice_throws(d, rows):
            group_p.append(weight / 6 ** d)
            for row, h in sorted(legal, key=lambda rh: (-rh[1], -rh[0])):
                entry_row.append(position[row])
                entry_hits.append(h)
            entry_start.append(len(entry_row))
        group_start[d + 1] = len(group_p)
    return {"group_start": np.array(group_start, np.int64), "group_p": np.array(group_p),
            "entry_start": np.array(entry_start, np.int64), "entry_row": np.array(entry_row, np.int64),
            "entry_hits": np.array(entry_hits, np.int64)}


def kernel_arrays(rules: Rules, rows: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The constant arrays of the C kernel: ``(geo, F, H)``.

    * ``geo`` (int64): ``k, goal, dice, throws, steps, classes``, the strides, dice per
      hit and cycle-table class of each row position, the padded throw counts of 1..6 dice.
    * ``F`` (float64): the cycle tables of the distinct row classes (rows 1..6 share one;
      :func:`cycle_tables`, row :func:`option_table` with the class for the position), the
      throw probabilities of 1..6 dice.
    * ``H`` (uint8): for 1..6 dice, ``[row position][throw]`` the hits of each group of
      :func:`throw_groups` (0: none), throws padded with zeros to a multiple of 8.
    """
    k, goal = len(rows), rules.goal
    full = cycle_tables(rules, rows)
    per_row = full.shape[0] // k
    blocks: list[np.ndarray] = []
    classes = []
    for j in range(k):
        block = full[j * per_row:(j + 1) * per_row]
        same = [c for c, seen in enumerate(blocks) if np.array_equal(seen, block)]
        classes.append(same[0] if same else len(blocks))
        if not same:
            blocks.append(block)
    A = np.concatenate(blocks)
    groups = throw_groups(rules, rows)
    hits, probabilities, padded = [], [], []
    for d in range(1, rules.dice + 1):
        g0, g1 = groups["group_start"][d], groups["group_start"][d + 1]
        n = -(-(g1 - g0) // 8) * 8
        H = np.zeros((k, n), np.uint8)
        P = np.zeros(n)
        P[:g1 - g0] = groups["group_p"][g0:g1]
        for g in range(g0, g1):
            for e in range(groups["entry_start"][g], groups["entry_start"][g + 1]):
                H[groups["entry_row"][e], g - g0] = groups["entry_hits"][e]
        hits.append(H.ravel())
        probabilities.append(P)
        padded.append(n)
    geo = np.concatenate([[k, goal, rules.dice, rules.throws, goal, len(blocks)],
                          [(goal + 1) ** j for j in range(k)], [rules.dice_per_hit[r - 1] for r in rows],
                          classes, padded]).astype(np.int64)
    return geo, np.concatenate([A.ravel()] + probabilities), np.concatenate(hits)


class PegsKernel:
    """Exact expected turns of Pegs boards, compiled (the full-board solver's Pegs kernel).

    Args:
        rules: :data:`~dicemath.games.pegs_fives.rules.PEGS` or a ``goal`` (steps) variant.
        rows: the open rows of the (reduced) board, 1..12; the table layout is
            ``i = sum_j s_j * (goal + 1) ** j`` with ``s_j`` the progress of ``rows[j]``.

    Attributes:
        stats: int64 ``[boards solved, vectors of 8 throws examined at turns' starts,
            boards whose policy never leaves them (value inf)]`` (the second over the
            first, over the vectors of one pass: the Newton passes a board).

    Raises:
        InvalidRulesError: a rules variant the kernel does not implement (the field is named).
        InvalidBoardError: a row outside ``1..rules.rows`` or no row.

    Example:
        >>> import numpy as np
        >>> from dicemath.games.pegs_fives.rules import PEGS
        >>> kernel = PegsKernel(PEGS, (12,))
        >>> E = np.zeros(6)
        >>> for b in range(4, -1, -1):
        ...     kernel.solve(E, np.array([b]))
        >>> round(float(E[0]), 4)
        16.8774
    """

    def __init__(self, rules: Rules, rows: tuple[int, ...]):
        self.rules = check_pegs_rules(rules)
        self.layout = BoardLayout(rules, tuple(rows))
        self.rows = self.layout.rows
        self.base = self.layout.base
        self.size = self.layout.size
        self.stride = np.array(self.layout.strides, np.int64)
        self._geo, self._F, self._H = kernel_arrays(rules, self.rows)
        self.stats = np.zeros(3, np.int64)

    def _check_table(self, table: np.ndarray, name: str) -> np.ndarray:
        if not isinstance(table, np.ndarray) or table.ndim != 1 or table.shape[0] != self.size:
            raise ValueError(f"{name} must be a 1-D numpy array of length {self.size}")
        if table.dtype not in (np.float32, np.float64):
            raise ValueError(f"{name} must be float32 or float64, got {table.dtype}")
        if not table.flags.c_contiguous:
            raise ValueError(f"{name} must be contiguous")
        return table

    def _arguments(self, E: np.ndarray, policy: str, guide: np.ndarray | None) -> tuple[np.ndarray, np.ndarray, int]:
        """The checked table, the guide view and the mode of a solve."""
        if policy not in POLICIES:
            raise ValueError(f"policy must be one of {POLICIES}, got {policy!r}")
        mode = POLICIES.index(policy)
        E = self._check_table(E, "E")
        if not E.flags.writeable:
            raise ValueError("E must be writable")
        if mode == 3:
            if guide is None:
                raise ValueError("policy 'lookahead' needs a guide table")
            guide = self._check_table(guide, "guide")
        return E, kernel_guide(E, guide if mode == 3 else None), mode

    def _done(self, boards: int, stuck: int, vectors: int) -> None:
        self.stats += (boards, vectors, stuck)

    def solve(self, E: np.ndarray, boards: np.ndarray, *, policy: str = "optimal",
              guide: np.ndarray | None = None) -> None:
        """Write ``E[b]`` for every index ``b`` in ``boards``, in that order (see the module
        docstring).

        Args:
            E: the value table (float64 or float32), final at every successor of ``boards``
                that is not itself in ``boards``.
            boards: int64 indices, each after its successors among them (e.g. mutually
                independent: the same total progress; or decreasing).
            policy: ``"optimal"``, ``"greedy"`` (:func:`..state.greedy_policy`),
                ``"safe_greedy"`` (:class:`..state.SafeGreedy`) or ``"lookahead"``
                (:meth:`..advisor.Advisor.rank`'s choice with ``guide`` as the value, its
                escape from a trap of the guide included, :meth:`..advisor.Advisor.start_value`);
                the policy makes every choice of the turn and ``E`` gets its values.
            guide: the lookahead's value table (same layout and dtype as ``E``; its complete
                board is not read).

        A fixed policy may never finish from a board (greedy naming a row that overthrows on
        every throw, PEGS-6, e.g. every open row one step from the top): that board's value is
        ``inf``, and so is every board from which the policy reaches it with positive
        probability (counted in ``stats[2]``). Optimal play always finishes, and so does the
        lookahead wherever an option of the first throw can move a peg (its trap escape).

        Raises:
            ValueError: a bad table, board index or policy name.
        """
        E, guide, mode = self._arguments(E, policy, guide)
        boards = np.ascontiguousarray(boards, dtype=np.int64)
        if not boards.size:
            return
        if boards.min() < 0 or boards.max() >= self.size:
            raise ValueError(f"board indices must be in 0..{self.size - 1}")
        self._done(boards.size, *_pegs_c.solve(self._geo, self._F, self._H, E, guide, boards, mode,
                                                       int(E.dtype == np.float64)))

    def solve_range(self, E: np.ndarray, start: int, stop: int, *, policy: str = "optimal",
                    guide: np.ndarray | None = None) -> None:
        """:meth:`solve` for the indices ``stop - 1`` down to ``start`` (a slab: its boards'
        other successors, outside the range, final). Neighbouring boards read neighbouring
        values, so this order is the kernel's fastest.

        Raises:
            ValueError: see :meth:`solve`, or a range outside the table.
        """
        E, guide, mode = self._arguments(E, policy, guide)
        if not 0 <= start <= stop <= self.size:
            raise ValueError(f"the range must lie in 0..{self.size}, got {start}..{stop}")
        self._done(stop - start, *_pegs_c.solve_range(self._geo, self._F, self._H, E, guide, int(start),
                                                              int(stop), mode, int(E.dtype == np.float64)))

    def digits(self, board: int) -> np.ndarray:
        """The progress ``s_j`` of every open row of board index ``board``."""
        return (board // self.stride) % self.base

    def option_values(self, E: np.ndarray, board: int, faces: tuple[int, ...], dice: int,
                      throws: int | None) -> list[tuple[int, int, float, float]]:
        """Every legal row after the choice throw ``faces`` as ``(row, hits, stay, rest)``.

        ``dice`` and ``throws`` are the dice in hand and throws left before the throw
        (6 and 3 at a turn's start; fewer after PEGS-7). Naming the row leaves
        ``stay * E[board] + rest`` expected turns after this turn, later choices optimal
        (:meth:`..turn.TurnValue.option`). Reads ``E`` only at boards beyond ``board``.

        Raises:
            InvalidBoardError: ``board`` is not an index of the table.
            InvalidRollError: ``faces`` is not a throw of ``dice`` dice.
            IllegalMoveError: ``dice`` or ``throws`` outside what the rules allow.
        """
        rules = self.rules
        E = self._check_table(E, "E")
        if not isinstance(board, (int, np.integer)) or not 0 <= board < self.size:
            raise InvalidBoardError(f"board index must be in 0..{self.size - 1}, got {board!r}")
        if not isinstance(dice, (int, np.integer)) or not 1 <= dice <= rules.dice:
            raise IllegalMoveError(f"dice in hand must be 1..{rules.dice}, got {dice!r}")
        if not isinstance(throws, (int, np.integer)) or not 1 <= throws <= _throw_limit(rules):
            raise IllegalMoveError(f"throws left must be 1..{rules.throws}, got {throws!r}")
        faces = check_roll(faces, dice)
        counts = [faces.count(f) for f in range(1, 7)]
        s = self.digits(int(board))
        stay = np.zeros(len(self.rows) * MAX_HITS)
        rest = np.zeros(len(self.rows) * MAX_HITS)
        _pegs_c.options(self._geo, self._F, self._H, E, int(board), int(dice), int(throws) - 1,
                        int(E.dtype == np.float64), stay, rest)
        result = []
        for j, row in enumerate(self.rows):
            h = hits_from_counts(row, counts)
            if s[j] < rules.goal and h:
                result.append((row, h, float(stay[j * MAX_HITS + h]), float(rest[j * MAX_HITS + h])))
        return result
