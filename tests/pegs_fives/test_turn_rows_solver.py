"""Exact models against each other, against Monte Carlo of the engine, and hand-checked cases."""

from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction

import pytest

from dicemath.core.mdp import solve_progress_mdp
from dicemath.games.pegs_fives.rows import row_table, rows_result
from dicemath.games.pegs_fives.rules import FIVES, PEGS
from dicemath.games.pegs_fives.solver import reduced_boards, solve_greedy, solve_reduced
from dicemath.games.pegs_fives.state import (
    SafeGreedy, finish_turn, greedy_policy, initial_state, play_game, play_turn, reduced_board)
from dicemath.games.pegs_fives.turn import BoardMass, TurnValue, end_board_model, turn_distribution, turn_outcome

SEED_THROW = (3, 3, 3, 5, 6, 2)


def test_seed_row_3_exact_endings():
    # Row 3: three 3s set aside, one more 3 with the second throw; the two last dice give
    # in with P = 2 * 1/6 * 5/6, overthrow with 1/36, else four steps (hand-derived).
    stay, rest = end_board_model(PEGS).cycle((0,) * 12, 3, 4, 2, 1)
    d = stay * BoardMass({(0,) * 12: Fraction(1)}) + rest
    assert d == {(0, 0, 5) + (0,) * 9: Fraction(10, 36), (0,) * 12: Fraction(1, 36),
                 (0, 0, 4) + (0,) * 9: Fraction(25, 36)}


def test_seed_row_8_exact_all_dice_chance():
    # Row 8 with 6+2 and 5+3 aside: the two last dice make an 8 with P = 5/36 (4+4, 6+2,
    # 2+6, 5+3, 3+5), which uses all dice (PEGS-8, a fresh turn follows).
    outcomes = turn_outcome(PEGS, (5,) * 7 + (0,) + (5,) * 4, SEED_THROW)
    d = outcomes[8]
    assert d.probability((5,) * 7 + (2,) + (5,) * 4) == Fraction(31, 36)
    # after the PEGS-8 restart at step 3 the remaining mass ends on steps 3..5
    assert sum(d.probability(b) for b in d if b[7] >= 3) == Fraction(5, 36)


@pytest.mark.parametrize("rules", [PEGS, FIVES])
def test_turn_distribution_sums_to_one_and_matches_monte_carlo(rules):
    board = reduced_board([3, 8, 12], rules)
    board = board[:2] + (2,) + board[3:7] + (1,) + board[8:]
    exact = turn_distribution(rules, board, greedy_policy)
    assert sum(exact.values()) == 1
    n = 6000
    rng = random.Random(7)
    seen = Counter(play_turn(rules, board, greedy_policy, rng) for _ in range(n))
    assert set(seen) <= set(exact)
    for end, p in exact.items():
        p = float(p)
        sd = math.sqrt(p * (1 - p) / n)
        assert abs(seen[end] / n - p) <= 4.5 * sd + 1e-9, (end, seen[end] / n, p)


def test_turn_outcome_per_row_matches_simulation_of_that_choice():
    rules = PEGS
    board = reduced_board([3, 8], rules)
    exact = turn_outcome(rules, board, SEED_THROW)
    assert sorted(exact) == [3, 8]
    rng = random.Random(3)
    n = 4000
    for row, dist in exact.items():
        chosen = initial_state(rules, board).apply(SEED_THROW).apply(row)
        seen = Counter(finish_turn(chosen, greedy_policy, rng).board for _ in range(n))
        for end in dist:
            p = float(dist.probability(end))
            assert abs(seen[end] / n - p) <= 4.5 * math.sqrt(p * (1 - p) / n) + 1e-9


@pytest.mark.parametrize("rules", [PEGS, FIVES])
def test_row_tables_agree_with_the_solver_exactly(rules):
    for row in (1, 7, 12):
        table = row_table(rules, row)
        solution = solve_reduced(rules, [row], exact=True)
        for step in range(rules.goal):
            board = tuple(step if r == row else rules.goal for r in range(1, 13))
            assert solution.values[board] == table.expected_turns_from[step]
        assert all(sum(line) == 1 for line in table.transition)


def test_rows_1_to_6_are_alike_and_12_is_slowest():
    tables = [row_table(PEGS, r) for r in range(1, 13)]
    assert len({t.expected_turns for t in tables[:6]}) == 1
    assert max(tables, key=lambda t: t.expected_turns).row == 12
    assert min(tables, key=lambda t: t.expected_turns).row == 7


@pytest.mark.parametrize("rules, row", [(PEGS, 8), (FIVES, 10), (PEGS, 3)])
def test_row_expected_turns_and_distribution_match_monte_carlo(rules, row):
    table = row_table(rules, row)
    board = tuple(0 if r == row else rules.goal for r in range(1, 13))
    rng = random.Random(row)
    n = 4000
    samples = [play_game(rules, greedy_policy, rng, board=board) for _ in range(n)]
    mean = sum(samples) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in samples) / (n - 1))
    assert abs(mean - float(table.expected_turns)) <= 4.5 * sd / math.sqrt(n)
    dist = table.turn_distribution()
    assert abs(dist.sum() - 1) < 1e-6
    assert abs(sum(k * p for k, p in enumerate(dist)) - float(table.expected_turns)) < 1e-4
    one = float(table.p_within_one_turn())
    assert abs(samples.count(1) / n - one) <= 4.5 * math.sqrt(one * (1 - one) / n) + 1e-9


def test_rows_result_keys():
    result = rows_result(FIVES)
    assert [r["row"] for r in result["rows"]] == list(range(1, 13))
    first = result["rows"][0]
    for key in ("row", "expected_turns", "expected_turns_from", "p_within_one_turn"):
        assert key in first
    assert len(first["expected_turns_from"]) == 5
    assert first["expected_turns_from"][0] == first["expected_turns"]


@pytest.mark.parametrize("rules", [PEGS, FIVES])
def test_restart_identity_holds_for_the_exact_values(rules):
    # TurnValue values a fresh start (all dice back) as V - 1; without the identity it
    # enumerates the rest of the turn. Both must agree for the solved V (exact Fractions).
    solution = solve_reduced(rules, [7, 8], exact=True)
    fast = TurnValue(rules, solution.values.__getitem__, exact=True)
    slow = TurnValue(rules, solution.values.__getitem__, exact=True, restart_identity=False)
    after = None if rules.throws is None else rules.throws - 1
    for board in reduced_boards(rules, [7, 8])[:-1]:
        if all(s >= 5 for s in board):
            continue
        for row in (7, 8):
            if board[row - 1] < 5:
                for hits in (1, 2):
                    assert fast.option(board, row, hits, 6, after) == slow.option(board, row, hits, 6, after)


def test_solver_agrees_with_the_core_progress_mdp():
    # Second method: the core's solve_progress_mdp with whole next-board distributions
    # from turn_distribution under the optimal choices of the first throw (later choices of the
    # turn by the solution's own policy are the same when only one row is open).
    rules = PEGS
    row = 9
    boards = reduced_boards(rules, [row])
    table = row_table(rules, row)

    model = end_board_model(rules)

    def step(board, value):
        return [(Fraction(1), [turn_distribution(rules, board, model=model)])]

    solution = solve_progress_mdp(boards, step, cost=Fraction(1),
                                  terminal_value=lambda b: Fraction(0) if all(s >= 5 for s in b) else None)
    start = tuple(0 if r == row else 5 for r in range(1, 13))
    assert solution.values[start] == table.expected_turns


@pytest.mark.parametrize("rules", [PEGS, FIVES])
def test_greedy_exact_matches_monte_carlo_and_optimal_is_better(rules):
    rows = [6, 7, 8]
    greedy = solve_greedy(rules, rows, exact=False)
    best = solve_reduced(rules, rows, exact=False)
    assert best.expected_turns <= greedy.expected_turns + 1e-12
    assert all(best.values[b] <= greedy.values[b] + 1e-9 for b in best.values)
    rng = random.Random(21)
    n = 3000
    samples = [play_game(rules, greedy_policy, rng, board=best.start) for _ in range(n)]
    mean = sum(samples) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in samples) / (n - 1))
    assert abs(mean - greedy.expected_turns) <= 4.5 * sd / math.sqrt(n)


def test_optimal_policy_simulated_matches_its_value():
    rules = PEGS
    best = solve_reduced(rules, [2, 9], exact=False)
    evaluator = TurnValue(rules, best.values.__getitem__, exact=False)

    def optimal(board, legal, dice, throws):
        after = None if throws is None else throws - 1
        here = best.values[board]
        return min(legal, key=lambda rh: (lambda sr: sr[0] * here + sr[1])(
            evaluator.option(board, rh[0], rh[1], dice, after)))[0]

    rng = random.Random(5)
    n = 3000
    samples = [play_game(rules, optimal, rng, board=best.start) for _ in range(n)]
    mean = sum(samples) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in samples) / (n - 1))
    assert abs(mean - best.expected_turns) <= 4.5 * sd / math.sqrt(n)


def test_exact_and_float_solves_agree():
    exact = solve_reduced(FIVES, [4, 11], exact=True)
    floats = solve_reduced(FIVES, [4, 11], exact=False)
    assert all(abs(float(exact.values[b]) - floats.values[b]) < 1e-9 for b in exact.values)
    assert isinstance(exact.expected_turns, Fraction)


def test_safe_greedy_never_worse_than_greedy_on_a_pegs_end_game():
    rows = [1, 2, 7]
    safe = solve_reduced(PEGS, rows, exact=False, policy=SafeGreedy(5))
    greedy = solve_greedy(PEGS, rows, exact=False)
    assert safe.expected_turns < greedy.expected_turns


@pytest.mark.parametrize("rules", [PEGS, FIVES])
def test_turn_outcomes_agree_with_enumerating_the_game_states(rules):
    # Second method: walk the core-protocol states (State, single turn) through every
    # chance outcome with exact probabilities, choosing greedily, memoised by state.
    from functools import lru_cache

    from dicemath.core.game import CHANCE, TERMINAL
    from dicemath.games.pegs_fives.state import legal_rows

    board = (5, 5, 2, 5, 5, 5, 5, 1, 5, 5, 5, 5)

    @lru_cache(maxsize=None)
    def walk(state):
        player = state.current_player()
        if player == TERMINAL:
            return {state.board: Fraction(1)}
        if player == CHANCE:
            result = {}
            for outcome, p in state.chance_outcomes():
                for end, q in walk(state.apply(outcome)).items():
                    result[end] = result.get(end, 0) + p * q
            return result
        legal = legal_rows(state.board, state.roll, rules.goal)
        return walk(state.apply(greedy_policy(state.board, legal, state.dice, state.throws)))

    expected = walk(initial_state(rules, board, single_turn=True))
    assert expected == turn_distribution(rules, board, greedy_policy)


@pytest.mark.parametrize("rules", [PEGS, FIVES])
def test_turn_value_equals_the_core_expectimax_over_one_turn(rules):
    # Second method: the core's expectimax over the states of one turn (player 0 maximises
    # -V(end board)) against the within-turn recursion with optimal choices, exact; for
    # the solved V both are V(board) - 1 (the Bellman equation the solver solves).
    from dicemath.core.search import expectimax

    rows = [3, 8]
    solution = solve_reduced(rules, rows, exact=True)
    model = TurnValue(rules, solution.values.__getitem__, exact=True, restart_identity=False)

    def leaf(state):
        return (-solution.values[state.board],) if state.over else None

    memo = {}
    for board in reduced_boards(rules, rows)[-6:]:
        (value,) = expectimax(initial_state(rules, board, single_turn=True), leaf=leaf, memo=memo)
        assert -value == model.lookahead(board, rules.dice, rules.throws) == solution.values[board] - 1
