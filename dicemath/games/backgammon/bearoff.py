"""Exact bear-off databases: dense position index, every legal play, one- and two-sided tables.

A *home board* (one side of a bear-off) is a tuple of six checker counts on points 1..6, the
1-point first, 0..15 checkers in all (BG-6: every checker is home, so bearing off is
allowed). There are ``C(n + 6, 6)`` boards of at most ``n`` checkers: 924 for 6, 3,003 for 8
and 54,264 for 15.

Dense index (stable, part of the API): boards are numbered by total checker count first,
then in lexicographic order of the reversed tuple (the 6-point count most significant).
So index 0 is the empty board (everything borne off), 1..6 are a single checker on points
1..6, and the boards of at most ``n`` checkers are exactly the indices
``0 .. positions_count(n) - 1``: a table for ``n`` checkers is a prefix of every larger one.

Tables (all float64 numpy, computed exactly up to float rounding; see the tests for the
Fraction cross-checks):

* :func:`move_table`: for every board and each of the 21 distinct rolls
  (:data:`~dicemath.core.dice.TWO_DICE_ROLLS`, weights :data:`ROLL_WEIGHTS` out of 36) the
  sorted indices of ALL distinct boards that legal plays lead to, by the rules of
  :mod:`.plays` (BG-3: both dice if possible, else the larger; doubles four times; BG-6
  higher-die rule; BG-4 ``playtive`` limit; the dice count strictly). A roll that cannot
  be played at all (possible only under ``playtive``) leads to the board itself, and so
  does any roll from the empty board.
* :func:`one_sided_table`: distribution of the number of rolls to bear off every checker
  when each roll is played to minimise the expected number of rolls (GNU Backgammon's
  policy), and of rolls to bear off at least one checker (gammon chances).
* :func:`two_sided_table`: exact cubeless probability that the player on roll wins, for
  every pair of boards of at most ``n`` checkers, by dynamic programming over the game
  itself (each side maximises its winning chance; not a convolution of one-sided tables).

Example:
    >>> position_index((0, 0, 0, 0, 0, 2)), position_from_index(6)
    (27, (0, 0, 0, 0, 0, 1))
    >>> successors(STANDARD, (0, 1, 0, 0, 0, 0), (1, 1))
    [(0, 0, 0, 0, 0, 0)]
    >>> table = one_sided_table()
    >>> round(table.mean_rolls((0, 0, 0, 0, 0, 2)), 4)
    2.1096
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from math import comb

from collections.abc import Iterable, Sequence

import numpy as np

from dicemath.core.cache import cached_arrays
from dicemath.core.dice import TWO_DICE_ROLLS, two_dice_rolls
from dicemath.core.errors import InvalidStateError
from dicemath.games.backgammon.moves import check_roll
from dicemath.games.backgammon._bearoff_kernels import one_sided_kernel, two_sided_kernel
from dicemath.games.backgammon.limits import EXACT_CHECKERS
from dicemath.games.backgammon.plays import bearoff_move_table
from dicemath.games.backgammon.position import check_counts
from dicemath.games.backgammon.rules import STANDARD, Rules

POINTS = 6
"""Home-board points (1..6)."""
MAX_CHECKERS = 15
"""Checkers per side (BG-1)."""

ROLL_WEIGHTS = np.array([weight for _, weight in two_dice_rolls()], dtype=np.int64)
"""Weight out of 36 of each roll of :data:`~dicemath.core.dice.TWO_DICE_ROLLS` (1 for doubles, 2 otherwise)."""

ROLL_PROBABILITIES = ROLL_WEIGHTS / 36.0
"""Float probabilities of :data:`~dicemath.core.dice.TWO_DICE_ROLLS`."""

DISTRIBUTION_LENGTH = 64
"""Columns of the one-sided distributions: P(n rolls) for n = 0..63. Standard bear-offs of
15 checkers never need more than ~40 rolls; under ``playtive`` a blocked roll can repeat, so
there the (tiny) tail mass beyond 63 rolls is dropped; the means are exact regardless."""

MAX_TWO_SIDED_CHECKERS = 10
"""Largest two-sided table built: 8,008^2 pairs, 513 MB of float64 (N = 11 would need 1.2 GB)."""

_KEY_BASE = 16 ** np.arange(POINTS, dtype=np.int64)


def positions_count(checkers: int = MAX_CHECKERS) -> int:
    """Number of home boards with at most ``checkers`` checkers: ``C(checkers + 6, 6)``.

    >>> positions_count(6), positions_count(15)
    (924, 54264)
    """
    _check_checkers(checkers)
    return comb(checkers + POINTS, POINTS)


def _check_checkers(checkers: int) -> None:
    if not isinstance(checkers, (int, np.integer)) or not 0 <= checkers <= MAX_CHECKERS:
        raise InvalidStateError(f"number of checkers must be 0..{MAX_CHECKERS}, got {checkers!r}")


@lru_cache(maxsize=1)
def _all_positions() -> np.ndarray:
    rows = []
    for total in range(MAX_CHECKERS + 1):
        group = []

        def fill(prefix: list[int], left: int, slots: int) -> None:
            if slots == 1:
                group.append(tuple(prefix + [left]))  # noqa: B023 (fill runs within this iteration)
                return
            for value in range(left + 1):
                fill(prefix + [value], left - value, slots - 1)

        fill([], total, POINTS)
        group.sort(key=lambda board: board[::-1])
        rows.extend(group)
    array = np.array(rows, dtype=np.int64)
    array.setflags(write=False)
    return array


@lru_cache(maxsize=1)
def _key_lookup() -> tuple[np.ndarray, np.ndarray]:
    keys = _all_positions() @ _KEY_BASE
    order = np.argsort(keys)
    return keys[order], order


@lru_cache(maxsize=1)
def _index_dict() -> dict[tuple[int, ...], int]:
    return {tuple(int(c) for c in row): i for i, row in enumerate(_all_positions())}


def check_board(board: Iterable[int]) -> tuple[int, ...]:
    """Validate a home board and return it as a tuple of six ints.

    Args:
        board: six checker counts on points 1..6 (the 1-point first).

    Raises:
        InvalidStateError: not six counts, a negative count, or more than 15 checkers.

    >>> check_board([0, 0, 0, 0, 0, 2])
    (0, 0, 0, 0, 0, 2)
    """
    return check_counts(board, POINTS, "a home board (points 1..6)")


def position_index(board: Iterable[int]) -> int:
    """The dense index of a home board (see the module docstring for the order).

    Args:
        board: six checker counts on points 1..6, the 1-point first.

    Returns:
        An int in ``0 .. 54263``; boards of at most n checkers get ``0 .. C(n+6,6) - 1``.

    Raises:
        InvalidStateError: not a valid home board.

    >>> position_index((0, 0, 0, 0, 0, 0)), position_index((1, 0, 0, 0, 0, 0))
    (0, 1)
    """
    return _index_dict()[check_board(board)]


def position_from_index(index: int) -> tuple[int, ...]:
    """The home board with dense index ``index`` (inverse of :func:`position_index`).

    Raises:
        InvalidStateError: index outside ``0 .. 54263``.

    >>> position_from_index(54263)
    (0, 0, 0, 0, 0, 15)
    """
    if not isinstance(index, (int, np.integer)) or not 0 <= index < positions_count():
        raise InvalidStateError(f"bear-off index must be 0..{positions_count() - 1}, got {index!r}")
    return tuple(int(c) for c in _all_positions()[index])


def positions_up_to(checkers: int = MAX_CHECKERS) -> np.ndarray:
    """All home boards of at most ``checkers`` checkers, row ``i`` being the board of index ``i``.

    Returns:
        A read-only int64 array of shape ``(positions_count(checkers), 6)``.

    >>> positions_up_to(1).tolist()[:3]
    [[0, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0]]
    """
    return _all_positions()[:positions_count(checkers)]


def indices_of(boards: np.ndarray) -> np.ndarray:
    """Vectorised :func:`position_index` for an ``(k, 6)`` array of valid boards (not checked)."""
    keys, order = _key_lookup()
    return order[np.searchsorted(keys, np.asarray(boards, dtype=np.int64) @ _KEY_BASE)]


def pip_counts(boards: np.ndarray | None = None) -> np.ndarray:
    """Pip counts of an ``(k, 6)`` array of boards (default: all 54,264 in index order)."""
    boards = _all_positions() if boards is None else np.asarray(boards)
    return boards @ np.arange(1, POINTS + 1)


def roll_index(roll: Sequence[int]) -> int:
    """The index in :data:`~dicemath.core.dice.TWO_DICE_ROLLS` of a roll given as two dice in any order.

    Raises:
        InvalidDiceError: not two dice 1..6.

    >>> TWO_DICE_ROLLS[roll_index((3, 5))]
    (5, 3)
    """
    return TWO_DICE_ROLLS.index(check_roll(roll))


# ----------------------------------------------------------------------------------------
# Legal plays
# ----------------------------------------------------------------------------------------

def _build_moves(rules: Rules, checkers: int = MAX_CHECKERS) -> dict[str, np.ndarray]:
    """The move table of the boards of at most ``checkers`` (their plays stay among them),
    by the rules of :mod:`~dicemath.games.backgammon.plays` run over dense board indices
    (:func:`~dicemath.games.backgammon.plays.bearoff_move_table`)."""
    keys, order = _key_lookup()
    highs = np.array([high for high, _ in TWO_DICE_ROLLS], dtype=np.int64)
    lows = np.array([low for _, low in TWO_DICE_ROLLS], dtype=np.int64)
    starts, targets = bearoff_move_table(positions_up_to(checkers), keys, order, highs, lows,
                                         rules.max_per_point or 0)
    return {"starts": starts, "targets": targets}


@dataclass(frozen=True)
class MoveTable:
    """Every legal play of every home board and roll, as a compressed sparse table.

    Attributes:
        rules: the rules the plays follow.
        starts: int64 array of length ``54264 * 21 + 1``; the successors of board ``i`` and
            roll ``r`` (index in :data:`TWO_DICE_ROLLS`) are ``targets[starts[i*21+r]:starts[i*21+r+1]]``.
        targets: int32 indices of the resulting boards, sorted and distinct per (board, roll).
            A roll with no legal play (``playtive`` only) leads to the board itself; the empty
            board leads to itself.
    """

    rules: Rules
    starts: np.ndarray = field(repr=False)
    targets: np.ndarray = field(repr=False)

    def successors(self, index: int, roll: int) -> np.ndarray:
        """Indices of the distinct boards reachable from board ``index`` with roll ``TWO_DICE_ROLLS[roll]``."""
        k = int(index) * len(TWO_DICE_ROLLS) + int(roll)
        return self.targets[self.starts[k]:self.starts[k + 1]]

    def counts(self) -> np.ndarray:
        """Number of distinct resulting boards, shape ``(54264, 21)``."""
        return np.diff(self.starts).reshape(-1, len(TWO_DICE_ROLLS))


MOVE_TABLE_FORMAT = 1
"""The format version of the cached table ``backgammon-bearoff-moves``: change it when its computation
or layout changes."""


@lru_cache(maxsize=4)
def move_table(rules: Rules = STANDARD) -> MoveTable:
    """All legal plays of all 54,264 home boards and 21 rolls (cached on disk).

    Args:
        rules: :data:`~dicemath.games.backgammon.rules.STANDARD` or ``PLAYTIVE``.

    Returns:
        A :class:`MoveTable`.

    >>> table = move_table()
    >>> [position_from_index(int(i)) for i in table.successors(position_index((0, 2, 0, 0, 0, 0)), roll_index((2, 1)))]
    [(1, 0, 0, 0, 0, 0)]
    """
    arrays = cached_arrays("backgammon-bearoff-moves", rules, lambda: _build_moves(rules),
                           format_version=MOVE_TABLE_FORMAT)
    return MoveTable(rules, arrays["starts"], arrays["targets"])


def successors(rules: Rules, board: Iterable[int], roll: Sequence[int]) -> list[tuple[int, ...]]:
    """The distinct home boards after each legal play of ``roll`` from ``board``.

    Args:
        rules: the rules (BG-4 ``playtive`` limits a point to 5 own checkers).
        board: six checker counts on points 1..6.
        roll: two dice in any order.

    Returns:
        Sorted by dense index; ``[board]`` itself when no play is possible.

    Raises:
        InvalidStateError, InvalidDiceError: bad board or roll.

    >>> successors(STANDARD, (0, 0, 0, 0, 0, 1), (2, 1))
    [(0, 0, 1, 0, 0, 0)]
    """
    index = position_index(board)
    r = roll_index(roll)
    return [position_from_index(int(i)) for i in move_table(rules).successors(index, r)]


# ----------------------------------------------------------------------------------------
# Dynamic programming (C kernels in _bearoff_kernels; plain-Python twins in the tests)
# ----------------------------------------------------------------------------------------


def _build_one_sided(rules: Rules, moves: MoveTable | None = None) -> dict[str, np.ndarray]:
    moves = moves or move_table(rules)
    pips = pip_counts()
    order = np.argsort(pips, kind="stable")
    totals = _all_positions().sum(axis=1)
    mean, dist, gmean, gdist = one_sided_kernel(
        order, moves.starts, moves.targets.astype(np.int64), ROLL_PROBABILITIES, totals,
        DISTRIBUTION_LENGTH)
    return {"mean": mean, "distribution": dist, "gammon_mean": gmean, "gammon_distribution": gdist}


@dataclass(frozen=True)
class OneSidedTable:
    """The one-sided bear-off database of all 54,264 home boards (float64).

    Policy: each roll is played to minimise the expected number of rolls to bear off every
    checker (ties: the lowest dense index). The "gammon" columns use the policy minimising
    the expected rolls until at least one checker is off.

    Attributes:
        rules: the rules used.
        mean: expected rolls to bear off, shape ``(54264,)``.
        distribution: ``distribution[i, n]`` = P(board i needs exactly n rolls), n < 64.
        gammon_mean: expected rolls until at least one checker of board i is off
            (0 for the empty board).
        gammon_distribution: its distribution, same shape as ``distribution``. GNU Backgammon
            stores this only for 15-checker boards (its "saving the gammon" numbers).
    """

    rules: Rules
    mean: np.ndarray = field(repr=False)
    distribution: np.ndarray = field(repr=False)
    gammon_mean: np.ndarray = field(repr=False)
    gammon_distribution: np.ndarray = field(repr=False)

    def mean_rolls(self, board: Iterable[int]) -> float:
        """Expected rolls to bear off ``board`` (six counts on points 1..6)."""
        return float(self.mean[position_index(board)])

    def rolls_distribution(self, board: Iterable[int]) -> np.ndarray:
        """P(exactly n rolls) for n = 0.. (trailing zeros trimmed) of ``board``."""
        row = self.distribution[position_index(board)]
        nonzero = np.nonzero(row > 0)[0]
        return row[:nonzero[-1] + 1] if len(nonzero) else row[:1]


ONE_SIDED_FORMAT = 1
"""The format version of the cached table ``backgammon-bearoff-one-sided``: change it when its computation
or layout changes."""


@lru_cache(maxsize=4)
def one_sided_table(rules: Rules = STANDARD) -> OneSidedTable:
    """The one-sided bear-off database (BG-6, BG-3), built by a C kernel and cached on disk.

    Args:
        rules: STANDARD or PLAYTIVE.

    Returns:
        A :class:`OneSidedTable` covering all 54,264 boards of 0..15 checkers.

    >>> t = one_sided_table()
    >>> [round(float(p) * 36, 9) for p in t.rolls_distribution((0, 0, 0, 0, 0, 1))]  # 9 rolls of 36 fail
    [0.0, 27.0, 9.0]
    """
    arrays = cached_arrays("backgammon-bearoff-one-sided", rules, lambda: _build_one_sided(rules),
                           format_version=ONE_SIDED_FORMAT)
    return OneSidedTable(rules, arrays["mean"], arrays["distribution"], arrays["gammon_mean"],
                         arrays["gammon_distribution"])


def _pip_buckets(count: int) -> tuple[np.ndarray, np.ndarray]:
    pips = pip_counts(_all_positions()[:count])
    order = np.argsort(pips, kind="stable")
    starts = np.searchsorted(pips[order], np.arange(pips.max() + 2))
    return starts.astype(np.int64), order.astype(np.int64)


def _build_two_sided(checkers: int, rules: Rules, moves: MoveTable | None = None) -> dict[str, np.ndarray]:
    count = positions_count(checkers)
    moves = moves or move_table(rules)
    limit = count * len(TWO_DICE_ROLLS) + 1
    starts = moves.starts[:limit]
    targets = moves.targets[:starts[-1]].astype(np.int64)
    bucket_starts, bucket_items = _pip_buckets(count)
    table = two_sided_kernel(count, bucket_starts, bucket_items, starts, targets,
                                ROLL_PROBABILITIES)
    return {"win": table}


TWO_SIDED_FORMAT = 1
"""The format version of the cached table ``backgammon-bearoff-two-sided``: change it when its computation
or layout changes."""


def two_sided_table(rules: Rules, checkers: int = 6) -> np.ndarray:
    """Exact cubeless P(player on roll wins) for every pair of boards of at most ``checkers``.

    Dynamic programming on the game itself: ``P[x, y] = sum_r w_r max_{x'} (1 - P[y, x'])``
    over the legal plays ``x'`` of roll ``r`` (``1`` when ``x'`` is empty), solved in order
    of the total pip count. Under ``playtive`` a blocked roll passes the turn; those pairs
    are solved exactly as a 2x2 linear system.

    Args:
        rules: STANDARD or PLAYTIVE.
        checkers: the largest checker count per side, 0..10 (memory is
            ``8 * C(checkers+6, 6)**2`` bytes: 6.8 MB for 6, 72 MB for 8, 513 MB for 10).

    Returns:
        float64 array ``P`` of shape ``(C(checkers+6,6),)*2``; ``P[x, y]`` is the chance that
        the player on roll with board index ``x`` wins against board index ``y``.
        ``P[0, y] = 1`` and ``P[x, 0] = 0`` for ``x > 0`` (games already over).

    Raises:
        InvalidStateError: ``checkers`` outside 0..10 (:data:`MAX_TWO_SIDED_CHECKERS`).

    >>> P = two_sided_table(STANDARD, 2)
    >>> one = position_index((0, 0, 0, 0, 0, 1))  # 27/36 + 9/36 * 9/36 = 0.8125
    >>> round(float(P[one, one]), 12)
    0.8125
    """
    _check_checkers(checkers)
    if checkers > MAX_TWO_SIDED_CHECKERS:
        raise InvalidStateError(f"two-sided tables go up to {MAX_TWO_SIDED_CHECKERS} checkers a side "
                                f"({8 * positions_count(MAX_TWO_SIDED_CHECKERS) ** 2 / 1e6:.0f} MB); got {checkers}; "
                                "use the one-sided approximation (race.one_sided_win_probability) beyond")
    return cached_arrays("backgammon-bearoff-two-sided", (checkers, rules),
                         lambda: _build_two_sided(checkers, rules), format_version=TWO_SIDED_FORMAT)["win"]


def win_probability(rules: Rules, board: Iterable[int], versus: Iterable[int]) -> float:
    """Cubeless P(the player on roll with ``board`` wins) against ``versus`` (exact DP).

    Uses the smallest two-sided table covering both boards (at most
    :data:`~.limits.EXACT_CHECKERS` checkers each).

    Raises:
        InvalidStateError: a bad board, or more than :data:`~.limits.EXACT_CHECKERS` checkers on a side.

    >>> round(win_probability(STANDARD, (3, 0, 0, 0, 0, 0), (0, 1, 1, 0, 0, 0)), 6)
    0.421296
    """
    x, y = check_board(board), check_board(versus)
    checkers = max(sum(x), sum(y))
    if checkers > EXACT_CHECKERS:
        raise InvalidStateError(f"two-sided bear-off tables go up to {EXACT_CHECKERS} checkers per side, "
                                f"got {checkers}")
    table = two_sided_table(rules, max(checkers, 1))
    return float(table[position_index(x), position_index(y)])
