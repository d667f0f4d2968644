"""Race tools: pip counts, the one-sided approximation and its measured error."""

from __future__ import annotations

import numpy as np
import pytest

from dicemath.games.backgammon import bearoff as bo
from dicemath.games.backgammon.race import (approximation_error, effective_pip_count, one_sided_matrix,
                                            one_sided_win_probability, pip_count)
from dicemath.games.backgammon.rules import STANDARD


def test_pip_counts():
    assert pip_count((1, 1, 1, 1, 1, 1)) == 21
    assert (bo.pip_counts(bo.positions_up_to(1)) == [0, 1, 2, 3, 4, 5, 6]).all()


def test_approximation_is_exact_when_no_choice_matters():
    # single checkers: plays cannot depend on the opponent, so the approximation is exact
    exact = bo.two_sided_table(STANDARD, 1)
    assert np.allclose(one_sided_matrix(STANDARD, 1)[1:, 1:], exact[1:, 1:], atol=1e-12)


def test_approximation_by_brute_force_sum():
    x, y = (1, 0, 2, 0, 0, 1), (0, 0, 0, 0, 3, 0)
    table = bo.one_sided_table()
    dx, dy = table.rolls_distribution(x), table.rolls_distribution(y)
    total = sum(dx[n] * dy[m] for n in range(len(dx)) for m in range(len(dy)) if n <= m)
    assert one_sided_win_probability(STANDARD, x, y) == pytest.approx(total, abs=1e-12)


def test_approximation_error_is_small_but_real():
    error = approximation_error(STANDARD, 4)
    assert 1e-3 < error.max_error < 0.05
    assert error.mean_error < 1e-3
    board, versus, exact, approx = error.worst
    assert abs(exact - approx) == pytest.approx(error.max_error)


def test_effective_pip_count():
    # one checker on the 6-point: 1.25 expected rolls (27/36 bear off at once)
    assert effective_pip_count(STANDARD, (0, 0, 0, 0, 0, 1)) == pytest.approx(1.25 * 49 / 6)


def test_bear_off_win_probability_picks_method():
    from dicemath.core.errors import InvalidStateError
    from dicemath.games.backgammon.position import Position
    from dicemath.games.backgammon.race import bear_off_win_probability

    position = Position.from_home_boards((0, 0, 3, 3, 3, 3), (0, 0, 0, 4, 4, 4))
    value, method = bear_off_win_probability(STANDARD, position)
    assert method == "one-sided approximation"
    assert value == pytest.approx(one_sided_win_probability(STANDARD, (0, 0, 3, 3, 3, 3), (0, 0, 0, 4, 4, 4)))
    small = Position.from_home_boards((0, 1, 0, 0, 0, 1), (1, 1, 0, 0, 0, 0))
    assert bear_off_win_probability(STANDARD, small) == (
        bo.win_probability(STANDARD, (0, 1, 0, 0, 0, 1), (1, 1, 0, 0, 0, 0)), "exact")
    with pytest.raises(InvalidStateError):
        bear_off_win_probability(STANDARD, Position.initial())
