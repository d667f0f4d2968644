"""Bear-off databases checked against an independent plain-Python, exact-Fraction method."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import product

import numpy as np
import pytest

from dicemath.core.dice import TWO_DICE_ROLLS
from dicemath.core.errors import InvalidDiceError, InvalidStateError
from dicemath.games.backgammon import bearoff as bo
from dicemath.games.backgammon.rules import PLAYTIVE, STANDARD


def _plays(board, dice, cap):
    """All boards after playing ``dice`` in order as far as possible; (dice used, board)."""
    if not dice or sum(board) == 0:
        return {(0, board)}
    die, rest = dice[0], dice[1:]
    out = set()
    highest = max((p for p in range(1, 7) if board[p - 1]), default=0)
    for point in range(1, 7):
        if not board[point - 1]:
            continue
        target = point - die
        if target >= 1:
            if cap is not None and board[target - 1] >= cap:
                continue
        elif target < 0 and point != highest:
            continue
        after = list(board)
        after[point - 1] -= 1
        if target >= 1:
            after[target - 1] += 1
        for used, final in _plays(tuple(after), rest, cap):
            out.add((used + 1, final))
    return out or {(0, board)}


@lru_cache(maxsize=None)
def reference_successors(board, roll, cap=None):
    """BG-3 from first principles: maximise the dice used, else play the larger die."""
    high, low = max(roll), min(roll)
    orders = [(high,) * 4] if high == low else [(high, low), (low, high)]
    board = tuple(board)
    results = set().union(*(_plays(board, order, cap) for order in orders))
    most = max(used for used, _ in results)
    finals = {b for used, b in results if used == most}
    if high != low and most == 1:
        with_high = {b for used, b in _plays(tuple(board), (high,), cap) if used == 1}
        finals = with_high or finals
    return sorted(finals, key=bo.position_index)


ROLLS = [(h, low, Fraction(1 if h == low else 2, 36)) for h, low in TWO_DICE_ROLLS]


@lru_cache(maxsize=None)
def exact_mean(board, cap=None):
    if sum(board) == 0:
        return Fraction(0)
    total, stay = Fraction(1), Fraction(0)
    for high, low, p in ROLLS:
        nexts = reference_successors(board, (high, low), cap)
        if nexts == [board]:
            stay += p
        else:
            total += p * min(exact_mean(b, cap) for b in nexts)
    return total / (1 - stay)


@lru_cache(maxsize=None)
def exact_win(x, y):
    """P(player on roll with x wins against y), standard rules, Fractions."""
    if sum(x) == 0:
        return Fraction(1)
    if sum(y) == 0:
        return Fraction(0)
    return sum((p * max(Fraction(1) if sum(n) == 0 else 1 - exact_win(y, n)
                        for n in reference_successors(x, (h, low)))
                for h, low, p in ROLLS), Fraction(0))


def test_index_is_dense_and_round_trips():
    boards = bo.positions_up_to(15)
    assert len(boards) == 54264 == bo.positions_count()
    assert len({tuple(b) for b in boards}) == 54264
    for i in [0, 1, 6, 27, 924, 3002, 54263]:
        assert bo.position_index(bo.position_from_index(i)) == i
    assert (bo.indices_of(boards) == np.arange(54264)).all()
    for n in range(16):  # boards of at most n checkers are a prefix
        assert boards[:bo.positions_count(n)].sum(axis=1).max() == n


@pytest.mark.parametrize("bad", [(1, 2, 3), (0, 0, 0, 0, 0, 16), (-1, 0, 0, 0, 0, 1), "abc"])
def test_bad_boards_are_rejected(bad):
    with pytest.raises(InvalidStateError):
        bo.position_index(bad)


def test_bad_rolls_are_rejected():
    with pytest.raises(InvalidDiceError):
        bo.roll_index((0, 3))
    with pytest.raises(InvalidStateError):
        bo.position_from_index(54264)


@pytest.mark.parametrize("rules,cap", [(STANDARD, None), (PLAYTIVE, 5)])
@pytest.mark.parametrize("first,sampled", [(60, 100), pytest.param(200, 400, marks=pytest.mark.slow)])
def test_move_table_matches_first_principles(rules, cap, first, sampled):
    table = bo.move_table(rules)
    rng = np.random.default_rng(1)
    indices = list(range(first)) + list(rng.integers(0, 54264, sampled))
    for i in indices:
        board = bo.position_from_index(int(i))
        for r, roll in enumerate(TWO_DICE_ROLLS):
            got = [bo.position_from_index(int(j)) for j in table.successors(int(i), r)]
            assert got == reference_successors(board, tuple(roll), cap), (board, roll)


def test_one_sided_means_match_fractions_on_small_boards():
    table = bo.one_sided_table()
    for i in range(bo.positions_count(3)):
        board = bo.position_from_index(i)
        assert table.mean[i] == pytest.approx(float(exact_mean(board)), abs=1e-12)
        assert table.distribution[i].sum() == pytest.approx(1.0, abs=1e-12)
        assert (table.distribution[i] * np.arange(bo.DISTRIBUTION_LENGTH)).sum() == \
            pytest.approx(table.mean[i], abs=1e-12)


def test_playtive_means_match_fractions():
    table = bo.one_sided_table(PLAYTIVE)
    assert reference_successors((5, 0, 1, 0, 0, 0), (2, 2), 5) == [(5, 0, 1, 0, 0, 0)]  # blocked: stays
    for board in [(6, 0, 0, 0, 0, 0), (5, 0, 1, 0, 0, 0), (4, 1, 0, 0, 0, 1)]:
        assert table.mean_rolls(board) == pytest.approx(float(exact_mean(board, 5)), abs=1e-12)


def test_two_sided_matches_fractions():
    table = bo.two_sided_table(STANDARD, 2)
    count = bo.positions_count(2)
    for x, y in product(range(count), range(count)):
        if x == 0 or y == 0:
            continue
        expected = exact_win(bo.position_from_index(x), bo.position_from_index(y))
        assert table[x, y] == pytest.approx(float(expected), abs=1e-12)


def test_two_sided_is_a_prefix_and_probabilities():
    small, large = bo.two_sided_table(STANDARD, 3), bo.two_sided_table(STANDARD, 4)
    count = len(small)
    assert np.array_equal(small, large[:count, :count])
    assert ((large >= 0) & (large <= 1 + 1e-12)).all()


def test_playtive_two_sided_with_blocked_rolls_matches_value_iteration():
    """Under playtive (5,0,1,0,0,0) cannot play 2-2 at all (the 3-point checker must move to
    the full 1-point): the turn passes, so the game graph has cycles. Plain value iteration
    on the reachable pairs (an independent method) agrees with the table's 2x2 solve."""
    start = ((5, 0, 1, 0, 0, 0), (0, 0, 1, 1, 0, 0))
    pairs, frontier = set(), [start, start[::-1]]
    while frontier:
        x, y = frontier.pop()
        if (x, y) in pairs or sum(x) == 0 or sum(y) == 0:
            continue
        pairs.add((x, y))
        for h, low, _ in ROLLS:
            for n in reference_successors(x, (h, low), 5):
                frontier.append((y, n) if n != x else (y, x))
    value = dict.fromkeys(pairs, 0.0)

    def get(x, y):
        return 1.0 if sum(x) == 0 else 0.0 if sum(y) == 0 else value[(x, y)]

    for _ in range(60):
        for x, y in pairs:
            value[(x, y)] = sum(float(p) * max(1 - get(y, n) for n in reference_successors(x, (h, low), 5))
                                for h, low, p in ROLLS)
    table = bo.two_sided_table(PLAYTIVE, 6)
    for x, y in pairs:
        assert table[bo.position_index(x), bo.position_index(y)] == pytest.approx(value[(x, y)], abs=1e-12)


def test_two_sided_size_limit():
    with pytest.raises(InvalidStateError):
        bo.two_sided_table(STANDARD, bo.MAX_TWO_SIDED_CHECKERS + 1)


@pytest.mark.slow
def test_two_sided_eight_checkers_extends_six():
    """N = 8 (9,018,009 pairs): the 6-checker table is its prefix; values are probabilities,
    and more checkers for the opponent never hurt the player on roll."""
    six, eight = bo.two_sided_table(STANDARD, 6), bo.two_sided_table(STANDARD, 8)
    assert np.array_equal(six, eight[:924, :924])
    assert eight[1:, 1:].min() >= 0 and eight.max() <= 1 + 1e-12
    # adding a checker on the opponent's 6-point can only help the player on roll
    boards = bo.positions_up_to(7)
    more = boards.copy()
    more[:, 5] += 1
    x = np.arange(1, 200)
    y = np.arange(1, len(boards))
    assert (eight[np.ix_(x, bo.indices_of(more[y]))] >= eight[np.ix_(x, y)] - 1e-12).all()


@lru_cache(maxsize=None)
def exact_distribution(board):
    """P(n rolls) in Fractions under the min-expected-rolls policy (ties: lowest index)."""
    if sum(board) == 0:
        return (Fraction(1),)
    out = [Fraction(0)] * 40
    for high, low, p in ROLLS:
        nexts = reference_successors(board, (high, low))
        best = min(nexts, key=lambda b: (exact_mean(b), bo.position_index(b)))
        for n, q in enumerate(exact_distribution(best)):
            out[n + 1] += p * q
    while out[-1] == 0:
        out.pop()
    return tuple(out)


def test_one_sided_distributions_match_fractions():
    table = bo.one_sided_table()
    rng = np.random.default_rng(4)
    for i in list(range(bo.positions_count(3))) + list(rng.integers(0, bo.positions_count(5), 40)):
        board = bo.position_from_index(int(i))
        exact = exact_distribution(board)
        assert np.allclose(table.distribution[int(i)][:len(exact)], [float(q) for q in exact], atol=1e-13, rtol=0)
        assert table.distribution[int(i)][len(exact):].sum() == 0
