"""Throw classes and their exact probabilities (PIT-2, PIT-3), checked by brute force."""

from fractions import Fraction
from itertools import product

import pytest

from dicemath.core.errors import DicemathError, InvalidDiceError
from dicemath.games.pitjesbak.rules import Rules
from dicemath.games.pitjesbak.throws import (
    class_probabilities,
    class_space,
    class_rows,
    classify,
    compare,
    parse_throw,
)


def brute_force(predicate) -> Fraction:
    """Probability over the 216 ordered throws, counted one by one."""
    hits = sum(1 for dice in product(range(1, 7), repeat=3) if predicate(sorted(dice)))
    return Fraction(hits, 216)


def test_hand_checked_probabilities():
    probs = class_probabilities()
    # 6-5-4: the 3! = 6 orders of three distinct faces.
    assert probs[classify([6, 5, 4])] == Fraction(6, 216)
    # each zand: one ordered throw.
    for face in range(2, 7):
        assert probs[classify([face] * 3)] == Fraction(1, 216)
    assert sum(p for c, p in probs.items() if c.kind == "zand") == Fraction(5, 216)
    assert probs[classify([1, 1, 1])] == Fraction(1, 216)
    # 2-2-3: three positions for the 3.
    assert probs[classify([2, 2, 3])] == Fraction(3, 216)
    assert sum(probs.values()) == 1


def test_class_table_matches_brute_force():
    for rules in (Rules(), Rules(die_values="pips")):
        for row in class_rows(rules):
            cls = row.throw_class
            assert row.probability == brute_force(lambda d, rules=rules, cls=cls: classify(d, rules) == cls)
        assert sum(r.weight for r in class_rows(rules)) == 216


def test_traditional_values_and_ranking():
    assert classify([1, 1, 6]).rank == 260          # best regular throw (PIT-2)
    assert classify([2, 2, 3]).rank == 7            # lowest throw
    regular = [c for c in class_probabilities() if c.kind == "regular"]
    assert min(regular, key=lambda c: c.rank).label == "2-2-3"
    assert max(regular, key=lambda c: c.rank).rank == 260
    assert compare(classify([6, 5, 4]), classify([6, 6, 6])) == 1
    assert compare(classify([6, 6, 6]), classify([5, 5, 5])) == 1
    assert compare(classify([2, 2, 2]), classify([1, 1, 6])) == 1
    assert compare(classify([2, 3, 4]), classify([2, 2, 5])) == 0   # equal scores tie
    assert classify([3, 4, 2]) == classify([2, 2, 5]) and classify([2, 2, 3]).penalty == 1
    with pytest.raises(InvalidDiceError):
        compare(classify([1, 1, 1]), classify([2, 2, 3]))


def test_every_pair_of_throws_ranks_consistently():
    """Ranking is a total preorder: 6-5-4 > zand > regular by score, brute force."""
    def strength(dice):
        d = sorted(dice)
        if d == [4, 5, 6]:
            return (3, 0)
        if d[0] == d[2]:
            return (2, d[0])
        values = {1: 100, 6: 60}
        return (1, sum(values.get(f, f) for f in d))
    throws = [t for t in product(range(1, 7), repeat=3) if sorted(t) != [1, 1, 1]]
    for a in throws[::7]:
        for b in throws[::5]:
            expected = (strength(a) > strength(b)) - (strength(a) < strength(b))
            assert compare(classify(a), classify(b)) == expected


def test_pips_variant():
    rules = Rules(die_values="pips")
    assert classify([1, 1, 2], rules).rank == 4
    assert classify([2, 2, 3], rules).rank == 7 and classify([2, 2, 3], rules).penalty == 1
    assert compare(classify([1, 1, 5], rules), classify([2, 2, 3], rules)) == 0
    space = class_space(rules)
    assert sum(space.weights) == 216


def test_class_space_indices():
    space = class_space()
    ranks = [c.rank for c in space.classes[:-1]]
    assert ranks == sorted(ranks)
    assert space.classes[space.apen].is_apen
    assert space.probabilities().sum() == pytest.approx(1.0)


@pytest.mark.parametrize("bad", [[1, 2, 3, 4], [1, 2], [0, 1, 2], [1, 2, 7], [True, 1, 2]])
def test_invalid_throws_raise(bad):
    with pytest.raises(InvalidDiceError):
        classify(bad)


def test_parse_throw():
    assert parse_throw("654") == (4, 5, 6)
    assert parse_throw("6,5,4") == parse_throw("6-5-4")
    with pytest.raises(DicemathError):
        parse_throw("6-5")
    with pytest.raises(ValueError):
        parse_throw("a-b-c")
