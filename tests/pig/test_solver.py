"""The Pig solution: the published optimum, and an exact rational solution of small goals."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest

from dicemath.core.mdp import layered_value_iteration
from dicemath.games.pig import Rules, initial_state, solve
from dicemath.games.pig.rules import FACES
from dicemath.games.pig.solver import MAX_SWEEPS, TOLERANCE

SIXTH = Fraction(1, 6)


def exact_solution(goal: int, holds) -> dict:
    """P(i, j, k) as Fractions, by a second method: policy evaluation in exact arithmetic,
    one layer (score sum) at a time from the largest sum down, then policy improvement
    until no action is better than the chosen one by any amount (the Bellman equations hold
    exactly). Starts from the policy ``holds(i, j, k)``.

    Within a layer, given the policy, each P(i, j, k) is affine in the opponent's P(j, i, 0)
    (a 1 hands him the turn, PIG-3); the two equations of a pair of scores are solved
    exactly."""
    values: dict = {}

    def known(i, j, k):
        return Fraction(1) if i + k >= goal else values[i, j, k]

    def affine(i, j, policy):
        """(a_k, b_k) with P(i, j, k) = a_k + b_k * P(j, i, 0), for every k."""
        rows = {}
        for k in range(goal - i - 1, -1, -1):
            if k > 0 and policy[i, j, k]:
                rows[k] = (1 - values[j, i + k, 0], Fraction(0))
                continue
            a, b = SIXTH, -SIXTH
            for face in range(2, 7):
                if i + k + face >= goal:
                    a += SIXTH
                else:
                    a += SIXTH * rows[k + face][0]
                    b += SIXTH * rows[k + face][1]
            rows[k] = (a, b)
        return rows

    policy = {(i, j, k): holds(i, j, k) for i in range(goal) for j in range(goal) for k in range(goal - i)}
    changes = 0
    for total in range(2 * goal - 2, -1, -1):
        pairs = [(i, total - i) for i in range(max(0, total - goal + 1), min(total, goal - 1) + 1) if i <= total - i]
        for i, j in pairs:
            while True:
                mine, theirs = affine(i, j, policy), affine(j, i, policy)
                (a, b), (c, d) = mine[0], theirs[0]
                x = a / (1 - b) if i == j else (a + b * c) / (1 - b * d)
                y = x if i == j else c + d * x
                for k, (p, q) in mine.items():
                    values[i, j, k] = p + q * y
                for k, (p, q) in theirs.items():
                    values[j, i, k] = p + q * x
                flipped = False
                for me, other in {(i, j), (j, i)}:
                    for k in range(1, goal - me):
                        roll = SIXTH * (1 - values[other, me, 0]) + sum(SIXTH * known(me, other, k + f)
                                                                      for f in range(2, 7))
                        hold = 1 - values[other, me + k, 0]
                        better = hold > roll if not policy[me, other, k] else roll > hold
                        if better:
                            policy[me, other, k] = not policy[me, other, k]
                            flipped = True
                if not flipped:
                    break
                changes += 1
    values["policy changes"] = changes
    return values


def test_published_first_player_win_probability():
    # Neller and Presser (2004): with optimal play the first player wins 53.06% of games to 100.
    solution = solve()
    assert round(solution.first_player_win_probability, 4) == 0.5306
    assert solution.value(initial_state()) == pytest.approx(0.5306, abs=5e-5)
    assert solution.tolerance == TOLERANCE == 1e-12


@pytest.mark.parametrize("goal", [2, 6, 12, 25])
def test_value_iteration_equals_the_exact_rational_solution(goal):
    solution = solve(Rules(goal=goal))
    exact = exact_solution(goal, solution.holds)
    assert exact.pop("policy changes") == 0          # the float policy is exactly optimal
    worst = max(abs(float(exact[i, j, k]) - solution.decision_value(i, j, k)) for (i, j, k) in exact)
    assert worst < 1e-11
    if goal == 2:
        assert exact[0, 0, 0] == Fraction(6, 7)      # P = 5/6 + (1 - P)/6


def test_the_exact_solution_repairs_a_wrong_policy():
    # The second method does not depend on the first one's policy: from "always hold" it
    # finds the same values.
    solution = solve(Rules(goal=12))
    exact = exact_solution(12, lambda i, j, k: True)
    assert exact.pop("policy changes") > 0
    assert max(abs(float(v) - solution.decision_value(*key)) for key, v in exact.items()) < 1e-11


def test_bellman_equations_hold_at_the_standard_goal():
    solution = solve()
    rng = random.Random(5)
    for _ in range(2000):
        i, j = rng.randrange(100), rng.randrange(100)
        k = rng.randrange(100 - i)
        best = max(solution.action_values(i, j, k).values())
        assert abs(best - solution.decision_value(i, j, k)) < 1e-11
        assert solution.holds(i, j, k) == bool(solution.hold_table[i, j, k])


def test_thresholds_and_symmetry_facts():
    solution = solve()
    thresholds = solution.thresholds()
    assert thresholds[0, 0] == solution.hold_threshold(0, 0) == 21
    for i in range(100):
        assert 2 <= thresholds[i, 0] <= max(2, 100 - i)
        assert solution.holds(i, 0, int(thresholds[i, 0]))
        assert all(not solution.holds(i, 0, k) for k in range(2, int(thresholds[i, 0])))
    # a hold that reaches the goal wins (PIG-6); a player at 99 holds at any turn total
    assert solution.hold_value(60, 90, 40) == 1.0 and thresholds[99, 50] == 2
    # the second player is behind from the start, so P(first player wins) > 1/2
    assert solution.decision_value(0, 0, 0) > 0.5 > 1 - solution.decision_value(0, 0, 0)


def test_solve_is_cached_and_states_counted():
    assert solve(Rules(goal=100)) is solve()
    assert solve(Rules(goal=3)).states == 3 * 3 * 4 // 2


def python_sweep(win, total: int, goal: int) -> float:
    """The C layer sweep's arithmetic in Python, operation for operation (the reference of
    ``_pig_c.c``: one Gauss-Seidel sweep of layer ``total``, the largest change)."""
    change, share = 0.0, 1.0 / FACES
    for i in range(max(0, total - goal + 1), min(total, goal - 1) + 1):
        j = total - i
        lose = 1.0 - win[j][i][0]
        for k in range(goal - i - 1, -1, -1):
            roll = lose * share
            for face in range(2, FACES + 1):
                roll += share * (1.0 if i + k + face >= goal else win[i][j][k + face])
            value = max(roll, 1.0 - win[j][i + k][0]) if k > 0 else roll
            change = max(change, abs(value - win[i][j][k]))
            win[i][j][k] = value
    return change


@pytest.mark.parametrize("goal", [2, 9, 20])
def test_the_compiled_sweep_equals_the_python_one_bit_for_bit(goal):
    win = [[[1.0 if i + k >= goal else 0.0 for k in range(goal)] for _ in range(goal)] for i in range(goal)]
    sweeps = layered_value_iteration(range(2 * goal - 2, -1, -1), lambda total: python_sweep(win, total, goal),
                                     tolerance=TOLERANCE, max_sweeps=MAX_SWEEPS)
    solution = solve(Rules(goal=goal))
    assert list(solution.sweeps) == sweeps
    assert np.array_equal(solution.win, np.array(win))
