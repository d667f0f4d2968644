"""Numbers as reports print them: float noise around 0 written as 0, real small values kept."""

import pytest

from dicemath.core.numbers import NOISE, number_text


@pytest.mark.parametrize("noise", [1.518e-18, -1.518e-18, 5e-13, -0.0])
def test_float_noise_is_written_as_zero(noise):
    assert number_text(noise) == "0"
    assert number_text(noise, "+.4f") == "+0.0000"


@pytest.mark.parametrize("value, text", [(1e-6, "1e-06"), (-1e-6, "-1e-06"), (2e-12, "2e-12"), (0.123456, "0.1235"),
                                         (-0.9387, "-0.9387"), (1234.5, "1234")])
def test_real_values_keep_their_digits(value, text):
    assert number_text(value) == text


def test_the_limit_is_one_part_in_a_million_million():
    assert NOISE == 1e-12
    assert number_text(NOISE) != "0" and number_text(NOISE * 0.999) == "0"
