"""The compiled three-player race (``_race3_c.c``): its values against a second method on small
boxes, against the whole reduced board, against the plain-Python reference where it is present,
and the exact three-player advice built on it.

The second method: the exact distribution of a whole turn's end board under a fixed choice rule
(:func:`.turn.end_board_model`, fresh starts followed to the turn's end), and the position's
value as the chance-weighted leaves. With every seat solo-optimal the rule is fixed and the
values of each cycle are solved by value iteration; with seats playing to win the rule is the
best row at the kernel's values (the lowest row among equals), and the kernel's values must
both reproduce themselves and be the best the mover can do (the Bellman equation of his own
value, by the Python turn model :class:`.race_solver._RaceTurn`).
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from dicemath.games.pegs_fives.race_advice import RACE_CHAIN, race_advice, race_position
from dicemath.games.pegs_fives.race_box import RaceBox
from dicemath.games.pegs_fives.race_solver import RaceTooLargeError, SoloOptimal, _RaceTurn, _throw_of
from dicemath.games.pegs_fives.race_table_compiled import (
    check_race3_boxes, race3_boxes, race3_model, solve_race3_compiled)
from dicemath.games.pegs_fives.race_table import objectives, solve_race_table
from dicemath.games.pegs_fives.rules import FIVES, PEGS
from dicemath.games.pegs_fives.solver import solve_reduced
from dicemath.games.pegs_fives.state import InvalidBoardError, grouped_choice_throws, rest_points
from dicemath.games.pegs_fives.turn import open_rows_of, turn_distribution

ROWS = (11, 12)
FLOORS = ((3, 2), (4, 3), (2, 4))
"""Three small boxes on rows 11 and 12: 3 x 4, 2 x 3 and 4 x 2 boards."""


def _board(rules, rows, steps):
    board = [rules.goal] * rules.rows
    for r, s in zip(rows, steps):
        board[r - 1] = s
    return tuple(board)


def _leaf(rules, tables, seat, boards, x, fresh):
    """The vector of seat ``seat``'s turn ending on ``x`` (fresh: his own next turn), seat-indexed."""
    if not open_rows_of(x, rules.goal):
        if rules.scoring == "first_out":
            return np.array([float(i == seat) for i in range(3)])
        return np.array([0.0 if i == seat else float(rest_points(boards[i], rules.goal)) for i in range(3)])
    moved = list(boards)
    moved[seat] = x
    mover = seat if fresh else (seat + 1) % 3
    return tables.V[(mover, *(box.index(b) for box, b in zip(tables.boxes, moved)))]


def _own(rules, seat, vector):
    return objectives(rules, vector)[seat]


def _end_distribution(rules, board, chooser):
    """The exact distribution of the end board of a whole turn from ``board`` under ``chooser``."""
    return {x: float(p) for x, p in turn_distribution(rules, board, chooser).items()}


def _lowest_row_chooser(rules, model, here_of):
    """The best row by ``model``'s race options (own value), the lowest row among equals."""
    def choose(board, legal, dice, throws):
        after = None if throws is None else throws - 1
        here = here_of(board)
        scored = [(model.race_option(board, row, h, dice, after), row) for row, h in legal]
        values = [stay * here + rest for (stay, rest), _ in scored]
        best = max(values)
        return min(row for v, (_, row) in zip(values, scored) if v >= best - 1e-12 * (1 + abs(best)))
    return choose


def _positions(tables, count, seed=1):
    rules = tables.rules
    live = [[b for b in (box.board(i) for i in range(box.size)) if open_rows_of(b, rules.goal)]
            for box in tables.boxes]
    rng = random.Random(seed)
    return [(rng.randrange(3), tuple(rng.choice(side) for side in live)) for _ in range(count)]


# ---------------------------------------------------------------------------------------------
# Every seat solo-optimal: the Markov chain of whole turns, solved by value iteration
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("rules", [PEGS, FIVES], ids=["pegs", "fives"])
def test_solo_tables_equal_value_iteration_over_whole_turns(rules):
    tables = solve_race3_compiled(rules, ROWS, floors=FLOORS, policies=("solo", "solo", "solo"))
    solo = SoloOptimal(rules, solve_reduced(rules, ROWS, exact=False).values.__getitem__, exact=False)
    boxes = [RaceBox(rules, ROWS, f) for f in FLOORS]
    live = [[b for b in (box.board(i) for i in range(box.size)) if open_rows_of(b, rules.goal)] for box in boxes]
    turns = {b: _end_distribution(rules, b, solo) for side in live for b in side}
    values: dict = {}
    triples = sorted(((a, b, c) for a in live[0] for b in live[1] for c in live[2]), key=lambda t: -sum(map(sum, t)))
    for boards in triples:
        cycle = [np.zeros(3) for _ in range(3)]
        for _ in range(400):
            new = []
            for seat in range(3):
                total = np.zeros(3)
                for x, p in turns[boards[seat]].items():
                    if not open_rows_of(x, rules.goal):
                        leaf = (np.eye(3)[seat] if rules.scoring == "first_out" else
                                np.array([0.0 if i == seat else rest_points(boards[i], rules.goal) for i in range(3)]))
                    elif x == boards[seat]:
                        leaf = cycle[(seat + 1) % 3]
                    else:
                        moved = list(boards)
                        moved[seat] = x
                        leaf = values[(tuple(moved), (seat + 1) % 3)]
                    total = total + p * leaf
                new.append(total)
            done = max(float(np.abs(n - c).max()) for n, c in zip(new, cycle)) < 1e-15
            cycle = new
            if done:
                break
        for seat in range(3):
            values[(boards, seat)] = cycle[seat]
    worst = 0.0
    for (boards, seat), vector in values.items():
        got = tables.V[(seat, *(box.index(b) for box, b in zip(boxes, boards)))]
        worst = max(worst, float(np.abs(got - vector).max()))
    assert worst < 1e-9
    assert tables.triples == len(triples)


# ---------------------------------------------------------------------------------------------
# Seats playing to win: the kernel's values reproduce themselves under their best rows, and no
# row does better for the mover (his Bellman equation, by the Python turn model)
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("rules", [PEGS, FIVES], ids=["pegs", "fives"])
@pytest.mark.parametrize("policies", [("race", "race", "race"), ("race", "solo", "race")], ids=["race", "mixed"])
def test_race_values_are_each_movers_best_and_reproduce_themselves(rules, policies):
    tables = solve_race3_compiled(rules, ROWS, floors=FLOORS, policies=policies)
    solo = SoloOptimal(rules, solve_reduced(rules, ROWS, exact=False).values.__getitem__, exact=False)
    for seat, boards in _positions(tables, 25):
        def end(x, seat=seat, boards=boards):
            return _own(rules, seat, _leaf(rules, tables, seat, boards, x, False))

        def restart(x, seat=seat, boards=boards):
            return _own(rules, seat, _leaf(rules, tables, seat, boards, x, True))

        model = _RaceTurn(rules, end, restart, exact=False)
        chooser = solo if policies[seat] == "solo" else _lowest_row_chooser(rules, model, end)
        board = boards[seat]
        vector = np.zeros(3)
        for x, p in _end_distribution(rules, board, chooser).items():
            vector += p * _leaf(rules, tables, seat, boards, x, False)
        got = tables.V[(seat, *(box.index(b) for box, b in zip(tables.boxes, boards)))]
        assert np.abs(got - vector).max() < 1e-9
        if policies[seat] == "race":                    # the mover's own value: the best row on every throw
            here, after = end(board), None if rules.throws is None else rules.throws - 1
            best = 0.0
            for weight, legal in grouped_choice_throws(rules.dice, open_rows_of(board, rules.goal)):
                options = [model.race_option(board, row, h, rules.dice, after) for row, h in legal]
                best += weight / 6 ** rules.dice * max([stay * here + rest for stay, rest in options] or [here])
            assert abs(best - _own(rules, seat, got)) < 1e-9


def test_pegs_chances_sum_to_one_and_fives_objectives_to_zero():
    for rules in (PEGS, FIVES):
        tables = solve_race3_compiled(rules, ROWS)
        live = ~np.isnan(tables.V[..., 0])
        if rules.scoring == "first_out":
            assert np.abs(tables.V.sum(axis=-1)[live] - 1).max() < 1e-12
        else:
            assert (tables.V[live] >= 0).all()
        assert tables.triples == 35 ** 3 and tables.most_steps >= 1
    first = solve_race3_compiled(PEGS, ROWS).start_value
    assert first[0] > first[1] > first[2]                # moving first is worth most (PEGS-2)


@pytest.mark.parametrize("rules", [PEGS, FIVES], ids=["pegs", "fives"])
def test_a_box_gives_the_whole_boards_values(rules):
    whole = solve_race3_compiled(rules, ROWS, threads=2)
    box = solve_race3_compiled(rules, ROWS, floors=FLOORS, threads=1)
    for seat, boards in _positions(box, 40, seed=3):
        assert box.value(boards[seat:] + boards[:seat], seat) == pytest.approx(
            whole.value(boards[seat:] + boards[:seat], seat), abs=1e-12)


def test_the_values_are_the_same_whatever_the_threads():
    one = solve_race3_compiled(PEGS, (1, 12), floors=((1, 0), (0, 2), (2, 1)), threads=1)
    two = solve_race3_compiled(PEGS, (1, 12), floors=((1, 0), (0, 2), (2, 1)), threads=2)
    assert np.array_equal(one.V, two.V, equal_nan=True) and one.policy_steps == two.policy_steps


def test_value_is_mover_first():
    tables = solve_race3_compiled(PEGS, ROWS)
    a, b, c = (_board(PEGS, ROWS, s) for s in ((0, 1), (2, 0), (4, 4)))
    seat_indexed = tables.V[(1, *(box.index(x) for box, x in zip(tables.boxes, (a, b, c))))]
    assert tables.value((b, c, a), mover=1) == pytest.approx((seat_indexed[1], seat_indexed[2], seat_indexed[0]))


@pytest.mark.parametrize("rules, rows", [(PEGS, (12,)), (FIVES, (1,)), (PEGS.variant(goal=2), (11, 12))],
                         ids=["pegs", "fives", "pegs-goal-2"])
@pytest.mark.parametrize("policies", [("race", "race", "race"), ("race", "solo", "solo")], ids=["race", "mixed"])
def test_every_position_equals_the_plain_python_reference(rules, rows, policies):
    reference = solve_race_table(rules, rows, policies=policies, exact=False)
    tables = solve_race3_compiled(rules, rows, policies=policies)
    live = [b for b in (tables.boxes[0].board(i) for i in range(tables.boxes[0].size)) if open_rows_of(b, rules.goal)]
    worst, positions = 0.0, 0
    for seat in range(3):
        for boards in itertools.product(live, repeat=3):
            expected = reference.value(boards, seat)
            worst = max(worst, max(abs(a - float(b)) for a, b in zip(tables.value(boards, seat), expected)))
            positions += 1
    assert positions == 3 * tables.triples and worst < 1e-9
    assert tables.start_value == pytest.approx([float(v) for v in reference.start_values], abs=1e-9)


# ---------------------------------------------------------------------------------------------
# Exact three-player advice
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("rules", [PEGS, FIVES], ids=["pegs", "fives"])
def test_advice_with_two_opponents_is_exact_and_its_best_rows_make_the_kernels_value(rules):
    """Over every choice throw of the turn's start, the advice's best row's value, weighted by
    the throw's chance, is the kernel's value of the position (a throw with no legal row: the
    turn ending where it began)."""
    board, first, second = (_board(rules, ROWS, s) for s in FLOORS)
    tables = solve_race3_compiled(rules, ROWS, floors=FLOORS)
    now = tables.objectives(tables.value((board, first, second)))[0]
    here = tables.objectives(tables.value((first, second, board), mover=1))[2]
    rows = open_rows_of(board, rules.goal)
    total = 0.0
    for weight, legal in grouped_choice_throws(rules.dice, rows):
        p = weight / 6 ** rules.dice
        if not legal:
            total += p * here
            continue
        throw = _throw_of(legal, rows)
        advice = race_advice(rules, board, throw, [first, second])
        assert advice.exact and advice.source == "exact three-player race"
        assert advice.extras["race_triples"] == 12 * 6 * 8 and advice.extras["race_pairs"] is None
        assert advice.extras["race_value_now"] == pytest.approx(now, abs=1e-12)
        assert [o.value for o in advice.options] == sorted((o.value for o in advice.options), reverse=True)
        total += p * advice.best.value
    assert total == pytest.approx(now, abs=1e-9)
    position = race_position(rules, board, (1, 2, 3, 4, 5, 6), [first, second])
    assert RACE_CHAIN.source_for(position).name == "exact three-player race"
    model, value_now = race3_model(rules, board, (first, second), race3_boxes(rules, board, [first, second], ROWS, 12))
    assert value_now == pytest.approx(now, abs=1e-12) and model.end(board) == pytest.approx(here, abs=1e-12)


def test_advice_beyond_the_limit_is_the_estimate():
    board = (0,) * 12
    advice = race_advice(PEGS, board, (1, 2, 3, 4, 5, 6), [board, board])
    assert not advice.exact and advice.source == "turn-count model"
    assert race3_boxes(PEGS, board, [board, board], tuple(range(1, 13)), 12) is None


def test_bad_input_is_refused():
    with pytest.raises(RaceTooLargeError, match="triples"):
        check_race3_boxes(PEGS, range(1, 7))
    with pytest.raises(InvalidBoardError, match="three seats"):
        check_race3_boxes(PEGS, ROWS, [(0, 0), (0, 0)])
    with pytest.raises(Exception, match="three policies"):
        solve_race3_compiled(PEGS, ROWS, policies=("race", "race"))
    tables = solve_race3_compiled(PEGS, (12,))
    with pytest.raises(InvalidBoardError, match="complete"):
        tables.value(((5,) * 12, (5,) * 12, (5,) * 12))
    with pytest.raises(InvalidBoardError, match="three boards"):
        tables.value(((0,) * 12, (0,) * 12))
