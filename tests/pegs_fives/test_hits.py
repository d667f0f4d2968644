"""The hits rule of Pegs and Fives (docs/rules.md preamble; PEGS-4, FIVES-2) against brute-force
enumeration of ordered throws and hand-checked values."""

from collections import Counter
from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest

from dicemath.core.dice import ordered_outcomes
from dicemath.core.errors import InvalidDiceError
from dicemath.games.pegs_fives.hits import hit_distribution, hit_probability_table, hits


def brute_force_hits(target, faces):
    """Hits by trying every set of disjoint pairs: independent of the greedy formula."""
    if target <= 6:
        return sum(1 for f in faces if f == target)
    best = 0

    def exhaustive(remaining, count):
        nonlocal best
        best = max(best, count)
        for i, j in combinations(range(len(remaining)), 2):
            if remaining[i] + remaining[j] == target:
                rest = [f for k, f in enumerate(remaining) if k not in (i, j)]
                exhaustive(rest, count + 1)

    exhaustive(list(faces), 0)
    return best


@pytest.mark.parametrize("n", range(1, 7))
def test_hit_distributions_match_enumeration_of_ordered_throws(n):
    counts = {t: Counter() for t in range(1, 13)}
    seen = {}
    for throw in ordered_outcomes(n):
        key = tuple(sorted(throw))
        if key not in seen:
            seen[key] = {t: brute_force_hits(t, key) for t in range(1, 13)}
        for t in range(1, 13):
            counts[t][seen[key][t]] += 1
    for t in range(1, 13):
        exact = hit_distribution(n, t)
        assert exact.total == 6**n
        assert dict(exact) == dict(counts[t])


@pytest.mark.parametrize("n", range(1, 7))
def test_probabilities_sum_to_one_and_float_view_agrees(n):
    table = hit_probability_table(n)
    for t in range(1, 13):
        distribution = hit_distribution(n, t)
        assert sum(distribution.probabilities().values()) == 1
        exact = np.array([float(distribution.probability(k)) for k in range(n + 1)])
        np.testing.assert_allclose(table[t - 1], exact, atol=1e-15)
        np.testing.assert_allclose(distribution.to_array(n + 1), exact, atol=1e-15)


def test_hand_checked_values():
    # One die: P(hit a 3) = 1/6. Two dice: P(7) = 6/36.
    assert hit_distribution(1, 3).probability(1) == Fraction(1, 6)
    assert hit_distribution(2, 7).probability(1) == Fraction(6, 36)
    # Two dice, 12: only 6+6.
    assert hit_distribution(2, 12).probability(1) == Fraction(1, 36)
    # Mean hits of a single number with n dice is n/6.
    assert hit_distribution(5, 4).mean() == Fraction(5, 6)
    # The seed's example throw: 3 threes, and two 8-pairs (6+2, 5+3).
    assert hits(3, [3, 3, 3, 5, 6, 2]) == 3
    assert hits(8, [3, 3, 3, 5, 6, 2]) == 2


@pytest.mark.parametrize("faces", [[0, 1, 2], [7], [1, 2, 3.5]])
def test_bad_faces_raise(faces):
    with pytest.raises(InvalidDiceError, match="face"):
        hits(3, faces)


@pytest.mark.parametrize("target", [0, 13, -1])
def test_bad_target_raises(target):
    with pytest.raises(InvalidDiceError, match="target"):
        hit_distribution(3, target)


@pytest.mark.parametrize("n", [0, -2, 1.5])
def test_bad_dice_count_raises(n):
    with pytest.raises(InvalidDiceError, match="number of dice"):
        hit_distribution(n, 3)
