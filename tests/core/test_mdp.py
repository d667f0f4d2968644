"""The progress-MDP solver against closed forms and against value iteration."""

import random
from fractions import Fraction as F

import pytest

from dicemath.core.errors import InvalidProbabilityError
from dicemath.core.mdp import DecisionOutcome, solve_progress_mdp, solve_self_referential


def test_choice_between_waiting_and_a_sure_cost():
    # V = 1 + min(V/2, 3): waiting gives V = 2, the sure option 4.
    value, policy = solve_self_referential(F(1), [(F(1), [DecisionOutcome(F(1, 2), F(0)),
                                                          DecisionOutcome(F(0), F(3))])])
    assert value == 2 and policy == [0]
    # With the sure option at 0.5 it wins: V = 1.5.
    value, policy = solve_self_referential(F(1), [(F(1), [DecisionOutcome(F(1, 2), F(0)),
                                                          DecisionOutcome(F(0), F(1, 2))])])
    assert value == F(3, 2) and policy == [1]


def test_maximise_probability():
    # Win with 1/3, lose with 1/3, else retry: P(win) = 1/2.
    value, _ = solve_self_referential(F(0), [(F(1, 3), [DecisionOutcome(F(0), F(1))]),
                                             (F(1, 3), [DecisionOutcome(F(0), F(0))]),
                                             (F(1, 3), [DecisionOutcome(F(1), F(0))])],
                                      objective="max")
    assert value == F(1, 2)


def test_never_leaving_raises():
    with pytest.raises(InvalidProbabilityError, match="infinite"):
        solve_self_referential(F(1), [(F(1), [DecisionOutcome(F(1), F(0))])])
    with pytest.raises(InvalidProbabilityError, match="sum to"):
        solve_self_referential(F(1), [(F(1, 2), [DecisionOutcome(F(0), F(0))])])
    with pytest.raises(ValueError, match="objective"):
        solve_self_referential(F(1), [(F(1), [])], objective="best")


def race_step(target):
    """A race to ``target``: throw a die, then either add it or (if 6) add 2 and stay put
    otherwise; a toy with real choices and self-loops."""
    def step(s, value):
        outcomes = []
        for face in range(1, 7):
            options = []
            for move in {face, 1} if face > 1 else {1}:
                options.append({min(target, s + move): F(1)} if s + move <= target else {s: F(1)})
            options.append({s: F(1)})  # pass: stay where you are
            outcomes.append((F(1, 6), sorted(options, key=lambda d: sorted(d.items()))))
        return outcomes
    return step


def test_progress_mdp_matches_plain_value_iteration():
    target = 8
    states = list(range(target, -1, -1))
    exact = solve_progress_mdp(states, race_step(target), cost=F(1),
                               terminal_value=lambda s: F(0) if s == target else None)
    floats = solve_progress_mdp(states, race_step(target), cost=1.0,
                                terminal_value=lambda s: 0.0 if s == target else None)
    step = race_step(target)

    def bellman(s, value):
        if s == target:
            return 0.0
        total = 1.0
        for p, options in step(s, value):
            total += float(p) * min(sum(float(q) * value(t) for t, q in d.items()) for d in options)
        return total

    iterated = dict.fromkeys(states, 0.0)          # the second method: plain Gauss-Seidel sweeps
    for _ in range(10_000):
        change = 0.0
        for s in states:
            new = bellman(s, iterated.__getitem__)
            change, iterated[s] = max(change, abs(new - iterated[s])), new
        if change < 1e-13:
            break
    for s in states:
        assert float(exact.values[s]) == pytest.approx(iterated[s], abs=1e-9)
        assert floats.values[s] == pytest.approx(float(exact.values[s]), abs=1e-12)


def test_progress_mdp_matches_simulation():
    target = 5
    states = list(range(target, -1, -1))
    solution = solve_progress_mdp(states, race_step(target), cost=F(1),
                                  terminal_value=lambda s: F(0) if s == target else None)
    step = race_step(target)
    rng = random.Random(3)
    runs, total = 20000, 0
    for _ in range(runs):
        s = 0
        while s != target:
            outcomes = step(s, None)
            index = rng.randrange(6)
            choice = solution.policy[s][index]
            options = outcomes[index][1]
            (s,) = options[choice]
            total += 1
    # Turns to finish have a standard deviation below 3; 20,000 runs: standard error < 0.03.
    assert total / runs == pytest.approx(float(solution.values[0]), abs=0.1)


def test_bad_order_or_bad_probabilities_raise():
    def step(s, value):
        return [(F(1), [{0: F(1, 2)}])]

    with pytest.raises(InvalidProbabilityError, match="summing to"):
        solve_progress_mdp([0, 1], step, cost=F(1),
                           terminal_value=lambda s: F(0) if s == 0 else None)
    with pytest.raises(KeyError):
        solve_progress_mdp([1, 0], lambda s, v: [(F(1), [{0: F(1)}])], cost=F(1),
                           terminal_value=lambda s: F(0) if s == 0 else None)


def test_bounded_value_iteration_brackets_the_linear_solution():
    """A random discounted chain V = r + P V: the bounds from 0 and max/(1-g) close on
    the solution of the linear system (a second method)."""
    import numpy as np

    from dicemath.core.mdp import bounded_value_iteration

    rng = np.random.default_rng(4)
    n, discount = 12, 0.8
    moves = rng.random((n, n))
    moves = discount * moves / moves.sum(axis=1, keepdims=True)
    reward = rng.random(n)
    exact = np.linalg.solve(np.eye(n) - moves, reward)
    low, high = np.zeros(n), np.full(n, reward.max() / (1 - discount))

    def operator(block, low, high):
        return reward[block] + moves[block] @ low, reward[block] + moves[block] @ high

    blocks = [np.arange(0, 6), np.arange(6, n)]
    partial = bounded_value_iteration(blocks, operator, low, high, tolerance=0, max_sweeps=3)
    assert partial == 3 and (low <= exact + 1e-12).all() and (exact <= high + 1e-12).all()
    assert (high - low).max() > 0.1
    sweeps = bounded_value_iteration(blocks, operator, low, high, tolerance=1e-13, max_sweeps=1000)
    assert sweeps < 1000 and (low <= exact + 1e-12).all() and (exact <= high + 1e-12).all()
    assert (high - low).max() < 1e-11


@pytest.mark.parametrize("seed", range(6))
def test_optimal_stopping_equals_the_progress_mdp(seed):
    """The fast backward pass against solve_progress_mdp on the same stop-or-go-on MDP."""
    from dicemath.core.mdp import optimal_stopping

    rng = random.Random(seed)
    size, limit = rng.randint(2, 6), rng.randint(1, 4)
    weights = [rng.randint(1, 5) for _ in range(size)]
    probs = [F(w, sum(weights)) for w in weights]
    stop_values = [[F(rng.randint(0, 4), rng.randint(1, 3)) for _ in range(size)] for _ in range(limit)]
    plan = optimal_stopping(stop_values, probs)

    def step(taken, value):
        again = [{taken + 1: F(1)}] if taken + 1 < limit else []
        return [(p, [{("stop", taken, o): F(1)}] + again) for o, p in enumerate(probs)]

    states = [("stop", t, o) for t in range(limit) for o in range(size)] + list(range(limit - 1, -1, -1))
    mdp = solve_progress_mdp(states, step, cost=F(0), objective="max",
                             terminal_value=lambda s: stop_values[s[1]][s[2]] if isinstance(s, tuple) else None)
    assert plan.value == mdp.values[0]
    for t in range(limit):
        assert plan.stops[t] == tuple(choice == 0 for choice in mdp.policy[t])
        assert plan.continue_values[t] == (mdp.values[t + 1] if t + 1 < limit else None)
    assert sum(plan.outcome) == 1
    # the value is what the counting steps are worth
    assert plan.value == sum(plan.counting[t][c] * stop_values[t][c] for t in range(limit) for c in range(size))
