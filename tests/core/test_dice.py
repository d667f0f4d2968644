"""Dice: multisets, throw outcomes, two-dice rolls and throw text against brute-force enumeration."""

from collections import Counter
from fractions import Fraction

import pytest

from dicemath.core.dice import (
    TWO_DICE_ROLLS,
    check_throw,
    multisets,
    ordered_outcomes,
    read_throw,
    throw_distribution,
    throw_outcomes,
    throw_text,
    throw_total,
    two_dice_rolls,
)
from dicemath.core.errors import InvalidDiceError


def test_multisets_weights_sum_to_six_to_the_n():
    for n in range(1, 8):
        assert sum(w for _, w in multisets(n)) == 6**n
    assert throw_distribution(3).probability((1, 1, 1)) == Fraction(1, 216)
    assert throw_distribution(3).probability((4, 5, 6)) == Fraction(6, 216)


@pytest.mark.parametrize("n", range(1, 5))
def test_throw_outcomes_match_ordered_enumeration(n):
    counted = Counter(tuple(sorted(t)) for t in ordered_outcomes(n))
    outcomes = throw_outcomes(n)
    assert throw_total(n) == 6**n == sum(counted.values())
    assert {t: p for t, p in outcomes} == {t: Fraction(c, 6**n) for t, c in counted.items()}
    assert [t for t, _ in outcomes] == sorted(counted) and sum(p for _, p in outcomes) == 1


def test_two_dice_rolls_match_ordered_enumeration():
    counted = Counter((max(a, b), min(a, b)) for a, b in ordered_outcomes(2))
    rolls = two_dice_rolls()
    assert dict(rolls) == dict(counted) and len(rolls) == 21
    assert [r for r, _ in rolls] == list(TWO_DICE_ROLLS)
    assert TWO_DICE_ROLLS == tuple(sorted(counted, key=lambda r: (r[0], r[1])))


@pytest.mark.parametrize("faces,dice", [([1, 2], 3), ([1, 2, 3, 4], 3), ([1, 2, 7], 3), ([0], 1)])
def test_check_throw_rejects(faces, dice):
    with pytest.raises(InvalidDiceError):
        check_throw(faces, dice)
    assert check_throw([3, 1, 2], 3) == (1, 2, 3)


@pytest.mark.parametrize("n", [0, -2, 1.5])
def test_bad_dice_count_raises(n):
    with pytest.raises(InvalidDiceError, match="number of dice"):
        throw_total(n)


@pytest.mark.parametrize("n", range(1, 5))
def test_throw_text_reads_back(n):
    for throw, _ in throw_outcomes(n):
        assert read_throw(throw_text(throw), n) == throw
        assert read_throw("".join(map(str, throw)), n) == throw
    with pytest.raises(InvalidDiceError):
        read_throw("6-x", 2)
    with pytest.raises(InvalidDiceError):
        read_throw("6-5", 3)


def test_one_reading_of_a_throw_for_the_command_line_the_page_and_the_states():
    import argparse

    from dicemath.core.commands import throw_list
    from dicemath.core.dice import read_throw, throw_faces
    from dicemath.core.requests import Field, RequestError, read_field

    roll = Field("roll", "throw", "Throw")

    for text in ("6-5-3-3-3-2", "6,5,3,3,3,2", "6 5 3 3 3 2", "653332"):
        assert throw_faces(text) == throw_list(text) == read_field({"roll": text}, roll) == [6, 5, 3, 3, 3, 2]
        assert read_throw(text, 6) == (2, 3, 3, 3, 5, 6)
    with pytest.raises(argparse.ArgumentTypeError, match="write it as 6-5-3 or 6,5,3"):
        throw_list("6-x")
    with pytest.raises(RequestError, match='field "roll": cannot read a throw'):
        read_field({"roll": "6-x"}, roll)
    with pytest.raises(InvalidDiceError, match="cannot read a throw of 3 dice from '6-x'"):
        read_throw("6-x", 3)
