"""Race doubling rules (dicemath.games.backgammon.race_cube) and the Janowski fit."""

from __future__ import annotations

import numpy as np
import pytest

from dicemath.core.errors import DicemathError
from dicemath.games.backgammon.bearoff import positions_up_to, two_sided_table
from dicemath.games.backgammon.cube import janowski_equity
from dicemath.games.backgammon.cubeful_bearoff import (
    cubeful_table,
    fit_janowski,
    fit_janowski_by_pips,
)
from dicemath.games.backgammon.race import pip_count
from dicemath.games.backgammon.race_cube import (
    BEAROFF_EFFICIENCY,
    RULES,
    race_cube_advice,
    agreement_table,
    keith_count,
    model_arrays,
    rule_arrays,
    rule_decision,
    thorp_count,
)
from dicemath.games.backgammon.rules import STANDARD


def test_keith_count_by_hand():
    # 2 on the 1-point (+2), 3 on the 2-point (+2), 4 on the 3-point (+1), 4-6 empty (+3).
    board = (2, 3, 4, 0, 0, 0)
    assert pip_count(board) == 2 + 6 + 12
    assert keith_count(board) == 20 + 2 + 2 + 1 + 3
    assert keith_count((0, 0, 0, 1, 1, 1)) == 15


def test_thorp_count_by_hand():
    # 20 pips + 2 * 9 checkers - 3 occupied points + 2 on the 1-point.
    assert thorp_count((2, 3, 4, 0, 0, 0)) == 20 + 18 - 3 + 2


def test_rule_thresholds():
    # Keith: his 14 (two on the 6-point: 12 + 2 gaps) + 14 // 7 = 16 against the opponent's
    # 18 + 1 + ... ; the difference decides. Checked against the written rule directly.
    me, you = (0, 0, 0, 0, 0, 2), (0, 0, 0, 0, 0, 3)
    mine = keith_count(me) + keith_count(me) // 7
    decision = rule_decision("keith", me, you)
    assert decision["double"] == (mine - keith_count(you) <= 4)
    assert decision["take"] == (mine - keith_count(you) >= 2)
    # 8-9-12: 25 pips against 27 is an 8% lead: double, take.
    decision = rule_decision("8-9-12", (0, 0, 0, 0, 5, 0), (0, 0, 0, 3, 3, 0))
    assert pip_count((0, 0, 0, 3, 3, 0)) == 27
    assert decision["double"] and not decision["redouble"] and decision["take"]
    assert decision["action"] == "double/take"


def test_rule_arrays_match_single_decisions():
    boards = positions_up_to(2)[1:]
    for rule in RULES:
        arrays = rule_arrays(rule, boards, boards)
        for i in (0, 5, 17):
            for j in (1, 9, 26):
                one = rule_decision(rule, boards[i], boards[j])
                assert one["double"] == arrays["double"][i, j]
                assert one["take"] == arrays["take"][i, j]
    with pytest.raises(DicemathError):
        rule_arrays("gut feeling", boards, boards)


def test_one_sided_probability_is_exact_for_single_checkers():
    # With one checker a side nothing can interact: the one-sided race is exact.
    from dicemath.games.backgammon.race import one_sided_matrix

    one_sided = one_sided_matrix(STANDARD, 6)
    exact = two_sided_table(STANDARD, 6)
    assert np.max(np.abs(one_sided[1:7, 1:7] - exact[1:7, 1:7])) < 1e-12
    # Elsewhere it is an approximation, but a close one.
    assert np.max(np.abs(one_sided[1:, 1:] - exact[1:, 1:])) < 0.05


def test_model_decisions_follow_the_live_cube_window():
    p = np.array([0.5, 0.79, 0.81])
    decisions = model_arrays(p, 1.0)
    assert decisions["double"].tolist() == [False, False, True]
    assert decisions["take"].tolist() == [True, True, False]


def test_fit_janowski_on_the_database():
    table = cubeful_table(6)
    fit = fit_janowski(table, "centred")
    assert 0.0 < fit["x"] < 1.0
    # The fitted model beats both the dead and the fully live cube.
    p, equity = table.cubeless[1:, 1:], table.no_double[0, 1:, 1:]
    for x in (0.0, 1.0):
        rms = np.sqrt(np.mean((janowski_equity(p, x, "centred") - equity) ** 2))
        assert fit["rms"] < rms
    # Longer races have a more efficient cube (more time to use it).
    short = fit_janowski(table, "centred", (10, 20))["x"]
    long = fit_janowski(table, "centred", (40, 80))["x"]
    assert short < long


def test_agreement_table_small_database():
    rows = agreement_table(3, efficiency=0.7, zone=(0.0, 1.0))
    assert [row["method"] for row in rows][:3] == list(RULES)
    for row in rows:
        assert row["positions"] > 0
        for key in ("double", "redouble", "take", "action"):
            assert 0.0 <= row[key] <= 1.0
        assert row["doubler_cost"] >= -1e-12 and row["taker_cost"] >= -1e-12


def test_pip_dependent_efficiency_fits_at_least_as_well():
    table = cubeful_table(4)
    constant = fit_janowski(table, "centred")
    linear = fit_janowski_by_pips(table, "centred")
    assert linear["rms"] <= constant["rms"] + 1e-9
    assert linear["b"] > 0  # longer races: more efficient cube


def test_bearoff_efficiency_constant_is_the_fit():
    assert abs(fit_janowski(cubeful_table(6), "centred")["x"] - BEAROFF_EFFICIENCY) < 0.01


def test_race_advice_for_fifteen_checkers():
    # 15 checkers a side, far beyond the two-sided tables: rules and the one-sided model.
    advice = race_cube_advice((2, 2, 2, 3, 3, 3), (1, 2, 3, 3, 3, 3))
    assert set(advice) == {"keith", "thorp", "8-9-12", "one-sided", "one_sided_win"}
    assert 0.5 < advice["one_sided_win"] < 0.8
    # One checker each on the 6-point: the roller wins 3/4 + 1/4 * 1/4 = 13/16, a pass.
    advice = race_cube_advice((0, 0, 0, 0, 0, 1), (0, 0, 0, 0, 0, 1))
    assert advice["one_sided_win"] == pytest.approx(13 / 16)
    assert advice["one-sided"] == "double/pass"
    with pytest.raises(DicemathError):
        race_cube_advice((0, 0, 0, 0, 0, 0), (1, 0, 0, 0, 0, 0))
