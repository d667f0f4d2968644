"""Cube models (dicemath.games.backgammon.cube): take points, market windows, Keeler-Spencer."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicemath.core.errors import DicemathError, InvalidProbabilityError
from dicemath.games.backgammon.cube import (
    ACTIONS,
    TIE_TOLERANCE,
    CubelessProbabilities,
    CubeModel,
    cube_action,
    cube_decision,
    fit_efficiency,
    janowski_equity,
    keeler_spencer,
    keeler_spencer_points,
    model_summary,
    take_point,
    takes,
)

NO_GAMMONS = CubeModel(CubelessProbabilities(0.5))


def test_dead_cube_take_point_is_one_quarter_without_gammons():
    # Hand derivation: taking at chance q gives 2(2q - 1) against -1 for passing: q = 1/4.
    assert NO_GAMMONS.dead_take_point() == pytest.approx(0.25)


def test_live_cube_take_point_is_one_fifth_without_gammons():
    # Keeler & Spencer (1975) / Janowski (1993): fully live cube, take point 20%.
    assert NO_GAMMONS.live_take_point() == pytest.approx(0.2)
    assert NO_GAMMONS.cash_point(1.0) == pytest.approx(0.8)


def test_dead_cube_market_window_is_one_half_to_three_quarters():
    # Dead cube: doubling pays as soon as the cubeless equity 2p - 1 is positive, and the
    # opponent passes beyond p = 3/4 (hand derivation).
    low, high = NO_GAMMONS.market_window(0.0)
    assert low == pytest.approx(0.5, abs=1e-9)
    assert high == pytest.approx(0.75)


def test_live_cube_window_closes_at_point_eight():
    # Fully live cube (Keeler-Spencer): double exactly at the cash point 0.8.
    low, high = NO_GAMMONS.market_window(1.0)
    assert low == pytest.approx(0.8, abs=1e-9)
    assert high == pytest.approx(0.8)


@settings(max_examples=60, deadline=None)
@given(win=st.floats(0.05, 0.95), wg=st.floats(0, 1), lg=st.floats(0, 1), x=st.floats(0, 1))
def test_take_point_matches_the_equity_function(win, wg, lg, x):
    """Second method: the taker's take point is where twice his owned-cube equity is -1."""
    probabilities = CubelessProbabilities(win, wg * win, 0.0, lg * (1 - win))
    model = CubeModel(probabilities)
    taker = probabilities.swapped()
    tp = model.take_point(x)
    lo, hi = 0.0, 1.0
    for _ in range(80):
        mid = (lo + hi) / 2
        value = 2 * janowski_equity(mid, x, "owned", taker.average_win, taker.average_loss)
        lo, hi = (mid, hi) if value < -1 else (lo, mid)
    assert tp == pytest.approx(lo, abs=1e-9)
    assert model.cash_point(x) == pytest.approx(1 - tp)


@settings(max_examples=60, deadline=None)
@given(p=st.floats(0, 1), x=st.floats(0, 1))
def test_equities_are_ordered_by_cube_ownership(p, x):
    owned = janowski_equity(p, x, "owned")
    centred = janowski_equity(p, x, "centred")
    opponent = janowski_equity(p, x, "opponent_owned")
    assert owned >= centred - 1e-12 >= opponent - 2e-12
    dead = 2 * p - 1
    assert janowski_equity(p, 0.0, "centred") == pytest.approx(dead)


def test_keeler_spencer_reproduces_point_eight_and_point_two():
    # Keeler & Spencer, "Optimal doubling in backgammon", Oper. Res. 23 (1975): double at
    # 80%, take down to 20%, in the continuous game. The grid error is below 1/steps.
    solution = keeler_spencer(60)
    assert solution.doubling_point == pytest.approx(0.8, abs=1 / 60)
    assert solution.take_point == pytest.approx(0.2, abs=1 / 60)
    # Equity owning the cube is linear from (0, -1) to (0.8, 1) in the limit.
    k = np.searchsorted(solution.p, 0.4)
    assert solution.owned[k] == pytest.approx(-1 + 2.5 * 0.4, abs=0.03)
    # The continuous-game equities are Janowski's x = 1 curves.
    assert np.max(np.abs(solution.centred - janowski_equity(solution.p, 1.0, "centred"))) < 0.05


def test_keeler_spencer_converges_as_the_grid_refines():
    errors = [abs(keeler_spencer(n).doubling_point - 0.8) for n in (20, 40)]
    assert errors[1] < errors[0]
    doubling, take = keeler_spencer_points(30)
    assert doubling == pytest.approx(0.8, abs=2e-3) and take == pytest.approx(0.2, abs=2e-3)


@pytest.mark.parametrize("kwargs", [
    dict(win=-0.1),
    dict(win=1.2),
    dict(win=float("nan")),
    dict(win=0.3, win_gammon=0.4),
    dict(win=0.7, win_gammon=0.2, win_backgammon=0.3),
    dict(win=0.8, lose_gammon=0.3),
    dict(win=0.5, lose_gammon=0.1, lose_backgammon=0.2),
    dict(win="abc"),
])
def test_invalid_probabilities_raise(kwargs):
    with pytest.raises(InvalidProbabilityError):
        CubelessProbabilities(**kwargs)


def test_invalid_cube_arguments_raise():
    with pytest.raises(DicemathError):
        janowski_equity(0.5, 1.5)
    with pytest.raises(DicemathError):
        janowski_equity(0.5, 0.5, "sideways")
    with pytest.raises(ValueError):
        NO_GAMMONS.doubling_point(0.5, "opponent_owned")
    with pytest.raises(ValueError):
        keeler_spencer(3)


def test_cube_actions():
    assert ACTIONS[cube_action(0.3, 0.2)[0]] == "no double"
    assert ACTIONS[cube_action(0.3, 0.5)[0]] == "double/take"
    assert ACTIONS[cube_action(0.8, 1.2)[0]] == "double/pass"
    assert ACTIONS[cube_action(1.2, 1.6)[0]] == "too good"
    assert ACTIONS[cube_action(0.3, 0.5, may_double=False)[0]] == "no double"
    codes, equity = cube_action(np.array([0.3, 0.8]), np.array([0.5, 1.2]))
    assert codes.tolist() == [1, 2] and equity.tolist() == [0.5, 1.0]


def test_compiled_cube_decision_is_the_plain_one():
    """Arrays go through the compiled cube decision: element by element it is the plain
    function's, every action and the ties included; Fractions decide without tolerance."""
    rng = np.random.default_rng(3)
    near = [1.0, 0.5, 0.5, 0.5, 1.0 - 5e-13, 0.7]       # ties and near-ties of every comparison
    no_double = np.concatenate([rng.uniform(-1, 1.2, 400), near])
    double_take = np.concatenate([rng.uniform(-1, 2, 400), [1.0 + 1e-13, 0.5, 1.0, 0.5 + 5e-13, 1.5, 1.0 + 2e-12]])
    may = np.concatenate([rng.random(400) < 0.8, [True] * len(near)])
    codes, equity = cube_action(no_double, double_take, may)
    plain = [cube_decision(n, d, 1.0, bool(m), TIE_TOLERANCE) for n, d, m in zip(no_double, double_take, may)]
    assert codes.tolist() == [c for c, _ in plain] and equity.tolist() == [e for _, e in plain]
    assert set(codes.tolist()) == {0, 1, 2, 3}
    assert cube_decision(Fraction(1), Fraction(2), Fraction(1), True, 0) == (3, Fraction(1))
    assert cube_decision(Fraction(1, 2), Fraction(1, 2) + Fraction(1, 10**15), Fraction(1), True, 0) == \
        (1, Fraction(1, 2) + Fraction(1, 10**15))
    assert takes(1.0) and not takes(Fraction(10**15 + 1, 10**15), Fraction(1), 0)


def test_gammons_move_the_take_point():
    # More gammons for the doubler make taking harder; gammon losses make it easier.
    base = CubeModel(CubelessProbabilities(0.7)).take_point(0.68)
    gammonish = CubeModel(CubelessProbabilities(0.7, win_gammon=0.2)).take_point(0.68)
    risky = CubeModel(CubelessProbabilities(0.7, lose_gammon=0.1)).take_point(0.68)
    assert gammonish > base > risky
    assert take_point(1.0, 2.0, 0.0) == pytest.approx(1.5 / 3.0)


def test_model_summary_keys_and_values():
    summary = model_summary(0.72, 0.12, 0.0, 0.03, efficiency=0.7)
    assert summary["action"] in ACTIONS
    assert summary["take_point_live"] < summary["take_point"] < summary["take_point_dead"]
    assert summary["cash_point"] == pytest.approx(1 - summary["take_point"])
    assert summary["doubling_point"] <= summary["cash_point"]
    assert set(summary["no_double"]) == {"centred", "owned", "opponent_owned"}
    assert math.isfinite(summary["cubeful_equity"])


def test_fit_efficiency_recovers_a_known_efficiency():
    p = np.linspace(0.0, 1.0, 201)
    for x in (0.0, 0.35, 0.9):
        fitted, rms, worst = fit_efficiency(p, janowski_equity(p, x, "centred"))
        assert fitted == pytest.approx(x, abs=1e-4)
        assert worst < 1e-4
