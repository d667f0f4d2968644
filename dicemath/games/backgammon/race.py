"""Race tools beyond the exact databases: pip counts and the one-sided approximation.

The *one-sided approximation* treats the two bear-offs as independent: with ``N_x`` and
``N_y`` the numbers of rolls each side needs (from :func:`~.bearoff.one_sided_table`), the
player on roll wins when ``N_x <= N_y``::

    P(win) ~= sum_n P(N_x = n) P(N_y >= n)

It ignores that each side could adapt its play to the other's position (the two-sided
table does not), so it is slightly off; :func:`approximation_error` measures by how much
against the exact two-sided table. All values are float64.

Example:
    >>> round(one_sided_win_probability(STANDARD, (3, 0, 0, 0, 0, 0), (0, 1, 1, 0, 0, 0)), 6)
    0.421296
    >>> pip_count((0, 0, 0, 0, 0, 2))
    12
"""

from __future__ import annotations

from dataclasses import dataclass

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, overload

import numpy as np
import numpy.typing as npt

from dicemath.games.backgammon import bearoff as bo
from dicemath.games.backgammon.limits import EXACT_CHECKERS
from dicemath.games.backgammon.rules import STANDARD, Rules

if TYPE_CHECKING:
    from dicemath.games.backgammon.position import Position

AVERAGE_PIPS_PER_ROLL = 49 / 6
"""Expected pips of a roll (doubles count four times): 8.1667."""


@overload
def pip_count(boards: Sequence[int]) -> int: ...
@overload
def pip_count(boards: Iterable[int] | npt.NDArray[np.integer]) -> int | npt.NDArray[np.int64]: ...
def pip_count(boards: Iterable[int] | npt.NDArray[np.integer]) -> int | npt.NDArray[np.int64]:
    """Pips of a home board (six counts on points 1..6): sum of point x checkers.

    Vectorised: a ``(k, 6)`` array of boards gives an array of k pip counts.

    >>> pip_count((0, 0, 0, 0, 0, 2))
    12
    """
    array = np.asarray(boards, dtype=np.int64)
    if array.ndim == 1:
        pips: int = sum(point * count for point, count in enumerate(bo.check_board(boards), 1))
        return pips
    return bo.pip_counts(array)


def effective_pip_count(rules: Rules, board: Iterable[int]) -> float:
    """Expected rolls to bear off times 49/6 (GNU Backgammon's EPC); wastage = EPC - pips.

    >>> round(effective_pip_count(STANDARD, (0, 0, 0, 0, 0, 1)), 3)
    10.208
    """
    return bo.one_sided_table(rules).mean_rolls(board) * AVERAGE_PIPS_PER_ROLL


def _survival(distribution: np.ndarray) -> np.ndarray:
    """``S[..., n] = P(N >= n)``."""
    return np.cumsum(distribution[..., ::-1], axis=-1)[..., ::-1]


def one_sided_win_probability(rules: Rules, board: Iterable[int], versus: Iterable[int]) -> float:
    """The one-sided approximation of P(player on roll with ``board`` beats ``versus``).

    Works for any two home boards of up to 15 checkers (beyond the two-sided tables).

    Raises:
        InvalidStateError: a bad board.
    """
    table = bo.one_sided_table(rules)
    x, y = bo.position_index(board), bo.position_index(versus)
    if y == 0:
        return 0.0 if x else 1.0
    return float(table.distribution[x] @ _survival(table.distribution[y]))


def one_sided_matrix(rules: Rules, checkers: int) -> np.ndarray:
    """The approximation for every pair of boards of at most ``checkers`` (same layout as
    :func:`~.bearoff.two_sided_table`)."""
    count = bo.positions_count(checkers)
    dist = bo.one_sided_table(rules).distribution[:count]
    matrix = dist @ _survival(dist).T
    matrix[:, 0] = 0.0
    matrix[0, :] = 1.0
    return matrix


@dataclass(frozen=True)
class ApproximationError:
    """How far the one-sided approximation is from the exact two-sided values.

    Attributes:
        checkers: boards of at most this many checkers per side (both sides non-empty).
        max_error: largest ``|approximation - exact|``.
        mean_error: mean ``|approximation - exact|`` over all pairs.
        worst: ``(board, versus, exact, approximation)`` of the largest error.
        pairs: number of pairs compared.
    """

    checkers: int
    max_error: float
    mean_error: float
    worst: tuple
    pairs: int


def approximation_error(rules: Rules, checkers: int = 6) -> ApproximationError:
    """Measure the one-sided approximation against :func:`~.bearoff.two_sided_table`.

    >>> error = approximation_error(STANDARD, 3)
    >>> 0 < error.max_error < 0.05
    True
    """
    exact = bo.two_sided_table(rules, checkers)[1:, 1:]
    approx = one_sided_matrix(rules, checkers)[1:, 1:]
    diff = np.abs(approx - exact)
    i, j = np.unravel_index(np.argmax(diff), diff.shape)
    worst = (bo.position_from_index(int(i) + 1), bo.position_from_index(int(j) + 1),
             float(exact[i, j]), float(approx[i, j]))
    return ApproximationError(checkers, float(diff.max()), float(diff.mean()), worst, int(diff.size))


def bear_off_win_probability(rules: Rules, position: Position,
                             exact_up_to: int = EXACT_CHECKERS) -> tuple[float, str]:
    """Cubeless P(player on roll wins) of a pure bear-off :class:`~.position.Position`.

    Exact (two-sided table) when both sides have at most ``exact_up_to`` checkers left
    (default :data:`~.limits.EXACT_CHECKERS`, at most 10) or the largest bear-off database
    built covers both (standard rules, :mod:`~.bearoff_database`), else the one-sided
    approximation.

    Returns:
        ``(probability, method)`` with method ``"exact"`` or ``"one-sided approximation"``.

    Raises:
        InvalidStateError: a checker outside the home boards (not a bear-off) or the game is over.

    >>> from dicemath.games.backgammon.position import Position
    >>> position = Position.from_home_boards((3, 0, 0, 0, 0, 0), (0, 1, 1, 0, 0, 0))
    >>> p, method = bear_off_win_probability(STANDARD, position)
    >>> round(p, 6), method
    (0.421296, 'exact')
    """
    from dicemath.core.errors import InvalidStateError

    if not position.is_bear_off():
        raise InvalidStateError("not a bear-off: a checker is outside its home board or on the bar")
    if position.is_over():
        raise InvalidStateError("the game is over")
    board, versus = position.on_roll[:6], position.opponent[:6]
    checkers = max(sum(board), sum(versus))
    if checkers <= min(exact_up_to, bo.MAX_TWO_SIDED_CHECKERS):
        table = bo.two_sided_table(rules, checkers)
        return float(table[bo.position_index(board), bo.position_index(versus)]), "exact"
    if rules == STANDARD:
        from dicemath.games.backgammon.bearoff_database import largest_database

        database = largest_database()
        if database is not None and database.covers(board, versus):
            return database.win_probability(board, versus), "exact"
    return one_sided_win_probability(rules, board, versus), "one-sided approximation"
