"""The advisor, the command line, the report sections and the notebook."""

from __future__ import annotations

import json
import random

import pytest

from dicemath.analysis import analyse
from dicemath.cli import main
from dicemath.games.pegs_fives.advisor import Advisor, BoardValue, FITTED_WEIGHTS, board_value, fit_board_value
from dicemath.games.pegs_fives.distilled import DistilledValue
from dicemath.games.pegs_fives.fullboard import advice as advice_module
from dicemath.games.pegs_fives.fullboard.advice import advise_throw, source_chain
from dicemath.games.pegs_fives.game import FIVES_GAME, PEGS_GAME
from dicemath.games.pegs_fives.races import RestAware, fixed, play_race, race_stats
from dicemath.games.pegs_fives.rules import FIVES, PEGS
from dicemath.games.pegs_fives.solver import solve_reduced
from dicemath.games.pegs_fives.state import (
    InvalidBoardError, InvalidRollError, choice_state, greedy_policy, grouped_choice_throws, rest_points)
from dicemath.games.pegs_fives.turn import stays_forever
from dicemath.studies.full_board_results import read_results

from ..conftest import linked_pictures


def test_advisor_with_exact_values_matches_the_solver_choices():
    # With the exact values of a reduced game as its board value, the advisor's one-turn
    # lookahead is the solver's own Bellman step: it must pick a row of equal value.
    solution = solve_reduced(PEGS, [3, 8], exact=False)
    advisor = Advisor(PEGS, lambda b: solution.values[tuple(b)])
    checked = 0
    for board, choices in solution.choices.items():
        for legal, row in choices.items():
            if len(legal) < 2:
                continue
            ranked = advisor._rank(board, legal, 6, 3).rows
            values = {a.row: a.expected_turns for a in ranked}
            assert values[ranked[0].row] <= values[row] + 1e-9
            assert abs(values[ranked[0].row] - values[row]) < 1e-9
            checked += 1
    assert checked > 20


@pytest.mark.parametrize("rules", [PEGS, FIVES])
def test_advisor_gap_to_optimal_is_small_on_a_reduced_board(rules):
    advisor = Advisor(rules)
    rows = [4, 7]
    best = solve_reduced(rules, rows, exact=False).expected_turns
    adv = solve_reduced(rules, rows, exact=False, policy=advisor.policy).expected_turns
    assert best <= adv < best * 1.05


@pytest.mark.parametrize("rules", [PEGS, FIVES])
def test_the_advisor_looks_ahead_to_the_distilled_model_and_plays_better_than_the_fitted_value(rules):
    """The fitted value is retired for the presets: the default advisor uses the shipped
    model, exactly as good as optimal play on a 3-row board, where the fitted value's
    lookahead is not; a variant without a model keeps the fitted value."""
    advisor = Advisor(rules)
    assert advisor.estimator == "distilled" and advisor.value is DistilledValue.load(rules)
    rows = [6, 7, 8]
    best = solve_reduced(rules, rows, exact=False).expected_turns
    distilled = solve_reduced(rules, rows, exact=False, policy=advisor.policy).expected_turns
    fitted = solve_reduced(rules, rows, exact=False, policy=Advisor(rules, board_value(rules)).policy).expected_turns
    assert distilled == pytest.approx(best, rel=1e-12) and fitted > best * 1.01
    assert Advisor(rules.variant(goal=4)).estimator == "fitted"


def test_the_fitted_values_lookahead_can_stay_on_a_board_forever_and_the_distilled_models_does_not():
    """The fitted value is not monotone: on rows 1..10 one step from the top it values every
    board with one more row complete above the board itself, so its lookahead names a row
    that overthrows (PEGS-6) on every throw and never finishes (the full-board evaluation of
    this plain lookahead finds it infinite from the empty board; the advisor's, which escapes
    such traps, is finite); the shipped model's lookahead moves on."""
    board = (4,) * 10 + (5, 5)
    fitted = board_value(PEGS)
    record = read_results()["games"]["pegs"]["policy_fitted"]             # what the report shows
    committed = record["plain_lookahead"]
    assert committed["expected_turns"] is None and list(board) in committed["trap_boards"]
    assert record["escape_traps"] and record["expected_turns"] > read_results()["games"]["pegs"]["optimal"][
        "expected_turns"]
    plain = Advisor(PEGS, fitted, escape_traps=False)               # what the kernel evaluated
    for trap in map(tuple, committed["trap_boards"]):           # the record's note says both, of each
        assert stays_forever(PEGS, trap, plain.policy)
        assert all(fitted(trap[:i] + (5,) + trap[i + 1:]) > fitted(trap) for i in range(12) if trap[i] < 5)
    assert not stays_forever(PEGS, board, Advisor(PEGS).policy)


def test_the_advisor_escapes_the_traps_of_the_fitted_value_by_valuing_the_board_by_its_own_equation():
    """On a trap the advisor's start value solves ``x = 1 + E[best option at x]`` (checked
    here by evaluating that equation directly), exceeds the fitted value, and its advice
    leaves the board; elsewhere it is the fitted value, so the advice is unchanged."""
    fitted = board_value(PEGS)
    advisor, plain = Advisor(PEGS, fitted), Advisor(PEGS, fitted, escape_traps=False)
    for trap in map(tuple, read_results()["games"]["pegs"]["policy_fitted"]["plain_lookahead"]["trap_boards"]):
        x = advisor.start_value(trap)
        best = []
        for weight, legal in grouped_choice_throws(6, tuple(r for r in range(1, 13) if trap[r - 1] < 5)):
            options = [advisor.evaluator.option(trap, row, h, 6, 2) for row, h in legal] or [(1.0, 0.0)]
            best.append(weight / 6 ** 6 * min(stay * x + rest for stay, rest in options))
        assert x == pytest.approx(1 + sum(best), rel=1e-12) and x > fitted(trap) + 0.5
        assert not stays_forever(PEGS, trap, advisor.policy)
        advice = advisor.rank(trap, (1, 1, 2, 3, 3, 6))
        assert advice[0].p_no_progress < 1 and plain.rank(trap, (1, 1, 2, 3, 3, 6))[0].p_no_progress == 1
        assert [a.expected_turns for a in advice] == sorted(a.expected_turns for a in advice)
    rng = random.Random(3)
    for _ in range(8):
        board = tuple(rng.choice((3, 4, 4, 5)) for _ in range(12))
        if board != (5,) * 12 and not stays_forever(PEGS, board, plain.policy):
            assert advisor.start_value(board) == fitted(board)


def test_advise_and_the_analysis_rank_a_trap_of_the_estimate_by_the_advisors_own_value(monkeypatch):
    """With the fitted value as the estimate (as for a variant without a shipped model),
    ``advise`` on a trap ranks by the advisor's own value of the board and shows that value
    as ``board_value`` (each row: P(no progress) x it + the rest of the turn, from the
    within-turn model directly); the analysis of the same decision gives the same advice,
    so it names the row that leaves the board, not the plain lookahead's overthrow."""
    fitted = board_value(PEGS)
    advisor, plain = Advisor(PEGS, fitted), Advisor(PEGS, fitted, escape_traps=False)
    monkeypatch.setattr(advice_module, "_estimate_advisor", lambda rules: advisor)
    trap = tuple(read_results()["games"]["pegs"]["policy_fitted"]["plain_lookahead"]["trap_boards"][0])
    throw = (1, 1, 2, 3, 3, 6)
    advice = advise_throw(PEGS, trap, throw)
    x = advice.extras["board_value"]
    assert not advice.exact and x == advisor.start_value(trap) and x > fitted(trap) + 0.5
    for option in advice.options:
        stay, rest = advisor.evaluator.option(trap, option.action, option.extras["hits"], 6, 2)
        assert option.value == pytest.approx(stay * x + rest, rel=1e-12)
    assert advice.options[0].extras["p_no_progress"] < 1
    state = choice_state(PEGS, trap, throw)
    assert PEGS_GAME.advise(state).as_dict() == advice.as_dict()
    valued = source_chain(PEGS).value(state)
    assert not valued.exact and valued.values[0] == 1 + advice.options[0].value
    overthrow = plain.rank(trap, throw)[0].row
    decision = analyse({"game": "pegs", "decisions": [{"board": list(trap), "roll": list(throw),
                                                       "choice": overthrow}]}, (PEGS_GAME,)).decisions[0]
    assert decision.best == str(advice.best.action) != str(overthrow) and decision.loss > 0


def test_advice_lists_every_legal_row_best_first():
    board = (0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 0, 0)
    result = advise_throw(PEGS, board, (3, 3, 3, 5, 6, 2)).as_dict()
    assert sorted(o["row"] for o in result["options"]) == [2, 3, 5, 6, 7, 8, 9, 11]
    assert [o["row"] for o in result["options"]] == result["ranking"]
    values = [o["value"] for o in result["options"]]
    assert values == sorted(values)
    assert result["recommendation"] == result["ranking"][0] == int(result["best"])
    assert result["greedy_choice"] == 3
    assert all(o["expected_turns"] >= 0 for o in result["options"])


def test_overthrow_is_certain_for_row_3_at_step_3():
    result = advise_throw(PEGS, (0, 0, 3) + (0,) * 9, (3, 3, 3, 5, 6, 2)).as_dict()
    three = next(o for o in result["options"] if o["row"] == 3)
    assert three["p_no_progress"] == 1.0
    assert result["recommendation"] != 3


def test_advisor_rejects_bad_input():
    advisor = Advisor(PEGS)
    with pytest.raises(InvalidRollError):
        advisor.rank((0,) * 12, (1, 2, 3, 4, 5, 6, 6))
    with pytest.raises(InvalidRollError):
        advisor.rank((0,) * 12, (0, 2, 3, 4, 5, 6))
    with pytest.raises(InvalidBoardError):
        advisor.rank((6,) + (0,) * 11, (1, 2, 3, 4, 5, 6))


@pytest.mark.slow
@pytest.mark.parametrize("rules", [PEGS, FIVES])
def test_stored_weights_are_what_the_fit_returns(rules):
    assert fit_board_value(rules).weights == pytest.approx(FITTED_WEIGHTS[rules.name])


def test_board_value_is_zero_when_complete_and_grows_with_open_rows():
    v = BoardValue(PEGS, FITTED_WEIGHTS["pegs"])
    assert v((5,) * 12) == 0
    assert v((0,) * 12) > v((0,) * 6 + (5,) * 6) > v((0,) + (5,) * 11) > 0


def test_races_and_rest_points():
    assert rest_points((5, 5, 5, 3) + (5,) * 8, 5) == 8       # the FIVES-6 example
    winner, rest, turns = play_race(FIVES, [fixed(greedy_policy), fixed(greedy_policy)], random.Random(2))
    assert rest[winner] == 0 and rest[1 - winner] > 0 and turns > 0
    advisor = Advisor(FIVES)
    stats = race_stats(FIVES, RestAware(advisor), fixed(greedy_policy), games=6, seed=3)
    assert 0 <= stats["a_win_probability"] <= 1 and stats["games"] == 6


def test_cli_rows_solve_advise(capsys):
    assert main(["pegs", "rows", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert len(rows) == 12 and {"row", "expected_turns", "expected_turns_from", "p_within_one_turn"} <= set(rows[0])
    assert main(["fives", "solve", "--open", "6,7", "--json"]) == 0
    solved = json.loads(capsys.readouterr().out)
    assert solved["expected_turns"] <= solved["greedy_expected_turns"]
    assert main(["pegs", "advise", "--board", "0,0,3,0,0,0,1,0,0,0,0,0", "--roll", "3,3,3,5,6,2"]) == 0
    assert "recommendation" in capsys.readouterr().out
    assert main(["fives", "turn", "--board", "5,5,3,5,5,5,5,2,5,5,5,5", "--roll", "3,3,3,5,6,2", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["rows"]) == 2


def test_cli_errors_exit_2(capsys):
    assert main(["pegs", "advise", "--board", "0,0,6,0,0,0,1,0,0,0,0,0", "--roll", "3,3,3,5,6,2"]) == 2
    assert "step" in capsys.readouterr().err
    assert main(["pegs", "advise", "--board", "0,0,0,0,0,0,1,0,0,0,0,0", "--roll", "3,3,3,5,6,2,1"]) == 2


def test_report_sections_quick(tmp_path):
    from dicemath.reporting import write_reports

    sections = PEGS_GAME.report_sections() + FIVES_GAME.report_sections()
    written = write_reports(tmp_path, sections, only=["pegs", "fives"], quick=True, log=lambda *a, **k: None)
    text = (tmp_path / "fives.md").read_text()
    assert "Expected turns per row" in text and "races" in text.lower()
    assert (tmp_path / "pegs_turn_distributions.png").exists()
    assert len(written) == 3
    from dicemath.games.pegs_fives.report import FIRST_THROW

    for rules in (PEGS, FIVES):
        text = (tmp_path / f"{rules.name}.md").read_text()
        assert [p.name for p in linked_pictures(text, tmp_path)] == [f"{rules.name}_first_throw.svg"]
        best = advise_throw(rules, (0,) * 12, FIRST_THROW).best.action      # the same answer as the command's
        assert f"the best row {best} framed" in text



def test_last_turn_rest_matches_simulation_on_one_open_number():
    import math

    from dicemath.games.pegs_fives.races import last_turn_rest
    from dicemath.games.pegs_fives.state import finish_turn, initial_state

    board = (5,) * 8 + (0,) + (5,) * 3
    throw = (1, 1, 3, 4, 5, 6)       # two 9s: 3+6 and 4+5
    exact = last_turn_rest(FIVES, board, throw)[9]
    rng = random.Random(8)
    n = 4000
    chosen = initial_state(FIVES, board).apply(throw).apply(9)
    samples = [rest_points(finish_turn(chosen, greedy_policy, rng).board, 5) for _ in range(n)]
    mean = sum(samples) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in samples) / (n - 1))
    assert abs(mean - exact) <= 4.5 * sd / math.sqrt(n)
    assert exact <= 27    # at least the two 9s are marked


def test_cli_solve_from_a_board_and_row_table_renders(capsys):
    from dicemath.games.pegs_fives.rows import row_table

    assert main(["pegs", "solve", "--open", "6,7", "--board", "5,5,5,5,5,2,0,5,5,5,5,5", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["board_expected_turns"] < result["expected_turns"]
    assert result["board_expected_turns"] <= result["board_greedy_expected_turns"]
    assert "row 12" in row_table(PEGS, 12)._repr_markdown_()


@pytest.mark.slow
@pytest.mark.parametrize("rules", [PEGS, FIVES])
def test_four_row_solve_bounds_the_advisor(rules):
    rows = [5, 6, 7, 8]
    best = solve_reduced(rules, rows, exact=False)
    adv = solve_reduced(rules, rows, exact=False, policy=Advisor(rules).policy)
    assert all(best.values[b] <= adv.values[b] + 1e-9 for b in best.values)


def test_cli_advise_mid_turn_choice_throw_with_the_dice_left(capsys):
    assert main(["pegs", "advise", "--board", "0,0,5,0,0,0,1,0,0,0,0,0", "--roll", "3,4,6", "--throws", "1",
                 "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert sorted(o["row"] for o in result["options"]) == [4, 6, 7, 9, 10]
    assert main(["fives", "advise", "--board", "0,0,5,0,0,0,1,0,0,0,0,0", "--roll", "3,4,6"]) == 2
