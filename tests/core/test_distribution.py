"""The exact Distribution type."""

from fractions import Fraction

import pytest

from dicemath.core.distribution import Distribution
from dicemath.core.errors import InvalidProbabilityError


def test_probabilities_are_exact_and_sum_to_one():
    d = Distribution({"a": 1, "b": 2})
    assert d.probability("b") == Fraction(2, 3)
    assert sum(d.probabilities().values()) == 1
    assert d.probability("missing") == 0


def test_from_probabilities_round_trips():
    d = Distribution.from_probabilities({1: Fraction(1, 3), 2: Fraction(1, 6), 3: Fraction(1, 2)})
    assert d.probabilities() == {1: Fraction(1, 3), 2: Fraction(1, 6), 3: Fraction(1, 2)}
    assert d.total == 6


def test_map_merges_outcomes():
    d = Distribution({1: 1, 2: 1, 3: 1, 4: 1}).map(lambda x: x % 2)
    assert d.probabilities() == {0: Fraction(1, 2), 1: Fraction(1, 2)}


@pytest.mark.parametrize("weights", [{}, {1: -1}, {1: 0.5}, {1: 0}])
def test_invalid_weights_raise(weights):
    with pytest.raises(InvalidProbabilityError):
        Distribution(weights)


def test_from_probabilities_must_sum_to_one():
    with pytest.raises(InvalidProbabilityError, match="sum to 1"):
        Distribution.from_probabilities({1: Fraction(1, 2)})
