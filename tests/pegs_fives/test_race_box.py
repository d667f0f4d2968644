"""The exact race on the boards reachable from one pair (a box, or each player's own box): the
index against the boards, the values against the whole reduced board's solve and against a
solve with one row fewer, and bad input."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicemath.games.pegs_fives.race_box import RaceBox
from dicemath.games.pegs_fives.race_solver import (
    BOX_MAX_BOARDS, RACE_MAX_BOARDS, RACE_MAX_PAIRS, RaceTooLargeError, solve_race_compiled)
from dicemath.games.pegs_fives.rules import FIVES, PEGS
from dicemath.games.pegs_fives.state import InvalidBoardError


def _indices(outer, inner: RaceBox) -> np.ndarray:
    """Where each board of ``inner`` sits in ``outer`` (a box or layout with ``index``)."""
    return np.array([outer.index(inner.board(i)) for i in range(inner.size)])


SIX_ROWS = st.sets(st.integers(1, 12), max_size=6)
STEPS = st.lists(st.integers(0, 5), min_size=12, max_size=12)


@given(SIX_ROWS, STEPS, STEPS)
@settings(max_examples=60, deadline=None)
def test_the_box_around_a_pair_holds_both_boards_and_only_boards_on_from_them(rows, a, b):
    a = [s if r in rows else 5 for r, s in enumerate(a, 1)]          # at most six rows open: a box of 46,656
    b = [s if r in rows else 5 for r, s in enumerate(b, 1)]
    if all(min(x, y) == 5 for x, y in zip(a, b)):
        with pytest.raises(InvalidBoardError):
            RaceBox.around(PEGS, a, b)
        return
    box = RaceBox.around(PEGS, a, b)
    assert box.board(box.index(a)) == tuple(a) and box.board(box.index(b)) == tuple(b)
    steps = box.steps()
    assert steps.shape == (box.size, box.k)
    assert (steps >= np.array(box.floors)).all() and (steps <= 5).all()
    assert len({tuple(s) for s in steps}) == box.size
    for i in range(0, box.size, max(1, box.size // 50)):
        assert box.index(box.board(i)) == i
        assert tuple(box.board(i)[r - 1] for r in box.rows) == tuple(steps[i])
    for j, stride in enumerate(box.strides):        # one more step on a row: the index rises by its stride
        up = np.flatnonzero(steps[:, j] < 5)[:20]
        for i in up:
            board = list(box.board(int(i)))
            board[box.rows[j] - 1] += 1
            assert box.index(board) == i + stride


@pytest.mark.parametrize("rules, rows, floors", [(PEGS, (2, 5, 7, 9), (1, 0, 2, 3)),
                                                 (FIVES, (3, 6, 8, 11), (0, 4, 1, 2))], ids=["pegs", "fives"])
@pytest.mark.parametrize("second", ["race", "solo"])
def test_a_box_gives_the_whole_boards_values_bit_for_bit(rules, rows, floors, second):
    whole = solve_race_compiled(rules, rows, second=second, decisions=False)
    box = solve_race_compiled(rules, rows, second=second, decisions=False, floors=floors)
    at = np.ix_(_indices(whole.layout, box.layout), _indices(whole.layout, box.layout))
    assert box.layout.size < whole.layout.size
    np.testing.assert_array_equal(whole.V1[at], box.V1)
    np.testing.assert_array_equal(whole.V2[at], box.V2)


@pytest.mark.parametrize("rules, rows, floors", [
    (PEGS, (2, 5, 7, 9, 11), (2, 1, 3, 2, 4)),
    (FIVES, (1, 3, 5, 7, 9, 12), (3, 3, 2, 3, 4, 4)),
    (PEGS, (1, 2, 3, 4, 5, 6, 7, 8), (4, 3, 4, 4, 3, 4, 4, 4)),
], ids=["pegs-5", "fives-6", "pegs-8"])
def test_a_box_with_a_row_complete_on_both_boards_is_the_race_without_it(rules, rows, floors):
    """The pairs whose last row is complete on both boards are the race of the other rows,
    solved here as a box of one row fewer (its own tables, throw groups and order: the same
    values up to rounding, the chances of the throws being summed in another order)."""
    box = solve_race_compiled(rules, rows, decisions=False, floors=floors)
    fewer = solve_race_compiled(rules, rows[:-1], decisions=False, floors=floors[:-1])
    inside = _indices(box.layout, fewer.layout)
    live = ~np.isnan(fewer.V1)
    assert live.sum() > 0.5 * fewer.layout.size ** 2
    np.testing.assert_allclose(box.V1[np.ix_(inside, inside)][live], fewer.V1[live], rtol=1e-11, atol=1e-12)


BOARDS = {  # two boards on rows 2, 5, 7, 9 (Pegs) and 3, 6, 8, 11 (Fives), each ahead on some rows
    "pegs": ((2, 5, 7, 9), {2: 1, 5: 0, 7: 5, 9: 3}, {2: 3, 5: 2, 7: 0, 9: 5}),
    "fives": ((3, 6, 8, 11), {3: 0, 6: 4, 8: 1, 11: 2}, {3: 2, 6: 1, 8: 3, 11: 0}),
}


def _board(steps):
    board = [5] * 12
    for row, s in steps.items():
        board[row - 1] = s
    return board


@pytest.mark.parametrize("rules", [PEGS, FIVES], ids=["pegs", "fives"])
@pytest.mark.parametrize("second", ["race", "solo"])
def test_each_players_own_boards_give_the_whole_boards_values(rules, second):
    """Two sets of boards, each player's reachable from his board: bit for bit the whole
    board's solve of two policies (the same equations from the same side); with one policy the
    whole board solves each unordered pair once, from the side of the board further on, so the
    values agree up to rounding."""
    rows, a, b = BOARDS[rules.name]
    mine, theirs = RaceBox.of_board(rules, rows, _board(a)), RaceBox.of_board(rules, rows, _board(b))
    whole = solve_race_compiled(rules, rows, second=second, decisions=False)
    two = solve_race_compiled(rules, rows, second=second, decisions=False, floors=mine.floors,
                              second_floors=theirs.floors)
    assert two.layouts == (mine, theirs) and two.V1.shape == (mine.size, theirs.size)
    assert two.pairs == (mine.size - 1) * (theirs.size - 1) * 2
    at_a, at_b = _indices(whole.layout, mine), _indices(whole.layout, theirs)
    if second == "solo":
        np.testing.assert_array_equal(whole.V1[np.ix_(at_a, at_b)], two.V1)
        np.testing.assert_array_equal(whole.V2[np.ix_(at_b, at_a)], two.V2)
    else:
        np.testing.assert_allclose(whole.V1[np.ix_(at_a, at_b)], two.V1, rtol=1e-14, atol=1e-14)
        np.testing.assert_allclose(whole.V1[np.ix_(at_b, at_a)], two.V2, rtol=1e-14, atol=1e-14)
    assert two.value(_board(a), _board(b)) == two.V1[mine.index(_board(a)), theirs.index(_board(b))]
    assert two.value(_board(b), _board(a), player=2) == two.V2[theirs.index(_board(b)), mine.index(_board(a))]


def test_bad_boxes_are_clear_errors():
    with pytest.raises(InvalidBoardError, match="floors"):
        RaceBox(PEGS, (1, 2), (0,))
    with pytest.raises(InvalidBoardError, match="floors"):
        RaceBox(PEGS, (1, 2), (0, 6))
    box = RaceBox(PEGS, (1, 2), (2, 0))
    with pytest.raises(InvalidBoardError, match="behind"):
        box.index([1, 0] + [5] * 10)
    with pytest.raises(InvalidBoardError, match="open"):
        box.index([3, 0, 0] + [5] * 9)
    with pytest.raises(InvalidBoardError, match="index"):
        box.board(box.size)
    with pytest.raises(InvalidBoardError, match="open"):
        RaceBox.of_board(PEGS, (1, 2), [0, 0, 0] + [5] * 9)
    with pytest.raises(RaceTooLargeError, match=f"{RACE_MAX_BOARDS:,} boards"):
        solve_race_compiled(PEGS, range(1, 7), floors=(0, 0, 0, 0, 0, 1))
    with pytest.raises(RaceTooLargeError, match="8 open rows"):                 # a solo player on nine rows
        solve_race_compiled(PEGS, range(1, 10), second="solo", floors=(4,) * 9)
    with pytest.raises(RaceTooLargeError, match=f"{BOX_MAX_BOARDS:,} boards of one player"):
        solve_race_compiled(PEGS, range(1, 9), floors=(0,) * 8, second_floors=(5,) * 7 + (4,))
    with pytest.raises(RaceTooLargeError, match=f"{RACE_MAX_PAIRS:,} pairs"):
        solve_race_compiled(PEGS, range(1, 7), floors=(0,) * 6, second_floors=(0, 0, 0, 0, 0, 4))


@pytest.mark.parametrize("rules", [PEGS, FIVES], ids=["pegs", "fives"])
def test_ten_open_rows_each_players_boards_against_one_box_holding_both(rules):
    """Ten open rows, one step to go on each open row: the race of each player's own boards
    against the race on the box holding both (1,024 boards, one policy: each unordered pair
    solved once), two solves of the same pairs."""
    rows = tuple(range(1, 11))
    a = [4] * 10 + [5, 5]
    b = [4] * 10 + [5, 5]
    a[2] = a[6] = b[4] = b[8] = 5
    mine, theirs = RaceBox.of_board(rules, rows, a), RaceBox.of_board(rules, rows, b)
    both = RaceBox.around(rules, a, b)
    assert (mine.size, theirs.size, both.size) == (256, 256, 1024)
    two = solve_race_compiled(rules, rows, decisions=False, floors=mine.floors, second_floors=theirs.floors)
    one = solve_race_compiled(rules, rows, decisions=False, floors=both.floors)
    at_a, at_b = _indices(both, mine), _indices(both, theirs)
    np.testing.assert_allclose(one.V1[np.ix_(at_a, at_b)], two.V1, rtol=1e-13, atol=1e-13)
    np.testing.assert_allclose(one.V1[np.ix_(at_b, at_a)], two.V2, rtol=1e-13, atol=1e-13)
