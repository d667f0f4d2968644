"""Absorbing chains against closed forms (geometric waiting, gambler's ruin) and Monte Carlo."""

import random
from fractions import Fraction

import numpy as np
import pytest

from dicemath.core.errors import InvalidProbabilityError
from dicemath.core.markov import AbsorbingChain, ExactAbsorbingChain


def ruin_matrix(n, p):
    """Gambler's ruin on 0..n, up with probability p."""
    matrix = np.zeros((n + 1, n + 1))
    matrix[0, 0] = matrix[n, n] = 1
    for i in range(1, n):
        matrix[i, i + 1] = p
        matrix[i, i - 1] = 1 - p
    return matrix


def ruin_closed_form(i, n, p):
    """P(ruin) and E[duration] from i (Feller, vol. I, ch. XIV)."""
    q = 1 - p
    if p == q:
        return 1 - Fraction(i, n), Fraction(i * (n - i))
    r = Fraction(q) / Fraction(p)
    ruin = (r**i - r**n) / (1 - r**n)
    duration = Fraction(i) / (q - p) - Fraction(n) / (q - p) * (1 - r**i) / (1 - r**n)
    return ruin, duration


@pytest.mark.parametrize("p", [Fraction(1, 2), Fraction(2, 5), Fraction(3, 5)])
def test_gamblers_ruin_exact_and_float(p):
    n = 6
    table = {0: {0: 1}, n: {n: 1}}
    for i in range(1, n):
        table[i] = {i + 1: p, i - 1: 1 - p}
    exact = ExactAbsorbingChain(table)
    chain = AbsorbingChain(ruin_matrix(n, float(p)))
    steps = exact.expected_steps()
    absorbed = exact.absorption_probabilities()
    for i in range(1, n):
        ruin, duration = ruin_closed_form(i, n, p)
        assert absorbed[i][0] == ruin
        assert steps[i] == duration
        assert chain.absorption_probabilities()[i, 0] == pytest.approx(float(ruin), abs=1e-12)
        assert chain.expected_steps()[i] == pytest.approx(float(duration), rel=1e-12)


@pytest.mark.parametrize("p", [Fraction(1, 6), Fraction(11, 36)])
def test_geometric_waiting_time(p):
    exact = ExactAbsorbingChain({"wait": {"wait": 1 - p, "done": p}, "done": {"done": 1}})
    assert exact.expected_steps()["wait"] == 1 / p
    distribution = exact.step_distribution("wait", 10)
    assert distribution[0] == 0
    for k in range(1, 11):
        assert distribution[k] == (1 - p) ** (k - 1) * p
    chain = AbsorbingChain([[float(1 - p), float(p)], [0, 1]])
    floats = chain.step_distribution(0, tail=1e-14)
    assert floats.sum() == pytest.approx(1, abs=1e-13)
    assert (np.arange(len(floats)) * floats).sum() == pytest.approx(float(1 / p), rel=1e-10)


def test_monte_carlo_agrees_with_expected_steps():
    matrix = ruin_matrix(5, 0.45)
    chain = AbsorbingChain(matrix)
    rng = random.Random(12)
    runs = 20000
    total = 0
    for _ in range(runs):
        state = 2
        while state not in (0, 5):
            state += 1 if rng.random() < 0.45 else -1
            total += 1
    mean = total / runs
    # The duration from 2 has standard deviation below 6; 20,000 runs give a standard
    # error below 0.05, so 0.2 is four standard errors.
    assert mean == pytest.approx(chain.expected_steps()[2], abs=0.2)


def test_step_distribution_matches_exact_chain():
    p = Fraction(2, 5)
    table = {0: {0: 1}, 4: {4: 1}}
    for i in range(1, 4):
        table[i] = {i + 1: p, i - 1: 1 - p}
    exact = ExactAbsorbingChain(table).step_distribution(2, 30)
    floats = AbsorbingChain(ruin_matrix(4, 0.4)).step_distribution(2, max_steps=30)
    np.testing.assert_allclose(floats, [float(x) for x in exact], atol=1e-15)


@pytest.mark.parametrize("matrix, message", [
    ([[0.5, 0.4], [0, 1]], "not stochastic"),
    ([[1.2, -0.2], [0, 1]], "negative"),
    ([[0.5, 0.5], [0.5, 0.5]], "no absorbing"),
    ([[0, 1, 0], [1, 0, 0], [0, 0, 1]], "never reaches"),
    ([[1, 0]], "square"),
])
def test_bad_matrices_raise(matrix, message):
    with pytest.raises(InvalidProbabilityError, match=message):
        AbsorbingChain(matrix)


def test_bad_exact_tables_raise():
    with pytest.raises(InvalidProbabilityError, match="sum to"):
        ExactAbsorbingChain({0: {0: Fraction(1, 2)}})
    with pytest.raises(InvalidProbabilityError, match="has no row"):
        ExactAbsorbingChain({0: {1: 1}})
    with pytest.raises(InvalidProbabilityError, match="never reaches"):
        ExactAbsorbingChain({0: {1: 1}, 1: {0: 1}, 2: {2: 1}}).expected_steps()
