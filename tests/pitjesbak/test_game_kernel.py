"""The compiled two-player Bellman operator (``_game_c.c``) against the numpy
``round_backward`` it replaces in the sweeps, on every state of the default space, for the
four pairs of optimal and round-maximising decisions (PIT-4..PIT-8)."""

import numpy as np
import pytest

from dicemath.games.pitjesbak.game_solver import (DEFAULT_EXTRA, StateSpace, _class_arrays, _Operands,
                                                  _outcomes, round_backward)
from dicemath.games.pitjesbak.rules import STANDARD, Rules


def numpy_values(operands, other, boundary_other, fixed, rules):
    """``T`` by numpy: ``round_backward(...).value`` of every state."""
    probs, columns = _class_arrays(rules.die_values)
    outcomes = _outcomes(operands.atoms, operands.flags, other, boundary_other)
    start = operands.start_masks[operands.combo].astype(bool) if fixed[0] else None
    follower = operands.follower_masks[operands.combo].astype(bool) if fixed[1] else None
    return round_backward(outcomes[:, columns], probs, start, follower).value


@pytest.mark.parametrize("rules", [STANDARD, Rules(die_values="pips", stripes=3)], ids=["traditional", "pips"])
@pytest.mark.parametrize("fixed", [(False, False), (True, False), (False, True), (True, True)])
@pytest.mark.parametrize("boundary_other", [0.0, 1.0])
def test_round_values_equal_numpy(rules, fixed, boundary_other):
    space = StateSpace(rules.stripes + DEFAULT_EXTRA)
    operands = _Operands.of(space, rules)
    other = np.random.default_rng(7).random(space.n)
    states = np.arange(space.n, dtype=np.int64)
    compiled = np.empty(space.n)
    operands.round_values(states, other, boundary_other, fixed, compiled)
    expected = numpy_values(operands, other, boundary_other, fixed, rules)
    assert np.max(np.abs(compiled - expected)) <= 1e-12
    assert np.ptp(compiled) > 0.1  # the states differ: a constant could not pass by chance


def test_round_values_of_a_subset_in_order():
    space = StateSpace(STANDARD.stripes + DEFAULT_EXTRA)
    operands = _Operands.of(space, STANDARD)
    other = np.random.default_rng(3).random(space.n)
    every = np.empty(space.n)
    operands.round_values(np.arange(space.n, dtype=np.int64), other, 0.5, (False, False), every)
    states = np.array([space.n - 1, 0, 17], dtype=np.int64)
    some = np.empty(3)
    operands.round_values(states, other, 0.5, (False, False), some)
    assert np.array_equal(some, every[states])


def test_round_values_reject_a_state_outside_the_space():
    space = StateSpace(4)
    operands = _Operands.of(space, STANDARD)
    with pytest.raises(ValueError):
        operands.round_values(np.array([space.n], dtype=np.int64), np.zeros(space.n), 0.0, (False, False),
                              np.empty(1))


def test_round_values_reject_an_output_of_the_wrong_kind():
    space = StateSpace(4)
    operands = _Operands.of(space, STANDARD)
    states = np.arange(3, dtype=np.int64)
    for out in (np.empty(3, dtype=np.float32), np.empty(4), np.empty(6)[::2]):
        with pytest.raises(ValueError):
            operands.round_values(states, np.zeros(space.n), 0.0, (False, False), out)
