"""The distilled model, guide tables, exact policy evaluation of a lookahead, and the
``full_board`` report section."""

from __future__ import annotations

import json
from functools import partial

import numpy as np
import pytest

from dicemath.games.pegs_fives.advisor import Advisor, board_value
from dicemath.games.pegs_fives.distilled import DistilledValue, ModelUnavailableError, model_path
from dicemath.games.pegs_fives.report_full_board import compute, first_throws_by_row, policy_rows, render
from dicemath.games.pegs_fives.fullboard import _network_c, storage
from dicemath.cli import main
from dicemath.games.pegs_fives.fullboard.advice import advise_throw, estimate_advisor
from dicemath.games.pegs_fives.fullboard.driver import build_table, solve_table
from dicemath.games.pegs_fives.fullboard.guides import (
    build_guide, compare_tables, distilled_guide_digest, distilled_slab_values, fitted_slab_values, guide_values,
    layout_boards)
from dicemath.games.pegs_fives.fullboard.layout import BoardLayout
from dicemath.studies.full_board_results import read_results
from dicemath.games.pegs_fives.rules import FIVES, PEGS
from dicemath.games.pegs_fives.solver import solve_reduced
from dicemath.reporting.context import ReportContext

from ..conftest import analysis_script


@pytest.fixture(scope="module")
def model() -> DistilledValue:
    return DistilledValue.load(FIVES)


@pytest.mark.parametrize("rules", [FIVES, PEGS])
def test_the_shipped_models_are_small_and_answer(rules):
    model = DistilledValue.load(rules)
    assert model_path(rules).stat().st_size <= 20e6
    assert model((5,) * 12) == 0.0
    board = (0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1)
    assert model(board) == pytest.approx(model.values(np.array([board]))[0])
    assert 0 < model((5,) * 11 + (4,)) < model((0,) * 12)


def test_rules_without_a_shipped_model_are_refused():
    with pytest.raises(ModelUnavailableError, match="pegs"):
        DistilledValue.load(PEGS.variant(goal=4))


def test_the_model_end_game_is_the_exact_reduced_table(model):
    """Boards with at most ``endgame_rows`` open rows are the optimal table's values."""
    rows = (2, 7, 12)
    assert len(rows) <= model.endgame_rows
    layout = BoardLayout(FIVES, rows)
    exact = solve_table(FIVES, rows)
    estimated = model.values(layout_boards(layout, 0, layout.size))
    assert np.abs(estimated - exact).max() < 1e-5                 # float32 storage


def test_save_and_read_round_trip_and_refuse_other_rules(model, tmp_path):
    path = tmp_path / "m.npz"
    model.save(path)
    again = DistilledValue.read(FIVES, path)
    assert again.digest == model.digest
    with pytest.raises(ModelUnavailableError, match="other rules"):
        DistilledValue.read(PEGS, path)
    with pytest.raises(ModelUnavailableError, match="missing"):
        DistilledValue.read(FIVES, tmp_path / "none.npz")


def model_in_order(model: DistilledValue, board: np.ndarray) -> float:
    """The model's value of ``board`` in numpy float32, one operation at a time in the order
    ``_distilled_c.h`` states (end game, else: bias plus the rows' weights in row order, the
    active units in unit order, the output summed in order): a second statement of it."""
    goal = model.rules.goal
    open_rows = np.flatnonzero(board < goal)
    if not len(open_rows):
        return 0.0
    if len(open_rows) <= model.endgame_rows:
        mask = int(sum(1 << int(j) for j in open_rows))
        local = sum(int(board[j]) * goal ** rank for rank, j in enumerate(open_rows))
        return float(model.endgame[model.offsets[mask] + local])
    w1, b1, w2, b2, w3, b3 = model.layers
    hidden = b1.copy()
    for j, step in enumerate(board):
        hidden = hidden + w1[j * (goal + 1) + step]
    second = b2.copy()
    for unit in np.flatnonzero(hidden > 0):
        second = second + hidden[unit] * w2[unit]
    out = b3[0]
    for k in np.flatnonzero(second > 0):
        out = np.float32(out + np.float32(second[k] * w3[k, 0]))
    return float(out)


@pytest.mark.parametrize("rules", [PEGS, FIVES], ids=["pegs", "fives"])
def test_the_compiled_model_is_its_statement_in_order_bit_for_bit(rules):
    """``DistilledValue.values`` (``_distilled_c.h``) against :func:`model_in_order` on boards
    with every number of open rows (end game and network), and against the matrix products of
    :func:`..distilled.activations` within float32 rounding."""
    from dicemath.games.pegs_fives.distilled import activations, one_hot

    model = DistilledValue.load(rules)
    rng = np.random.default_rng(4)
    boards = rng.integers(0, rules.goal, size=(300, 12))
    boards[rng.random((300, 12)) < np.linspace(0, 1, 300)[:, None]] = rules.goal
    values = model.values(boards)
    assert [float(v) for v in values] == [model_in_order(model, b) for b in boards]
    open_counts = (boards < rules.goal).sum(axis=1)
    assert set(open_counts) >= {0, 1, model.endgame_rows, model.endgame_rows + 1, 12}
    network = open_counts > model.endgame_rows
    products = activations(model.layers, one_hot(boards[network], rules.goal))[-1][:, 0]
    assert np.abs(values[network] - products).max() < 1e-4
    assert model(boards[0]) == values[0]


def test_a_network_without_two_hidden_layers_and_boards_of_other_rules_are_refused(model):
    from dicemath.core.errors import DicemathError

    third = (np.eye(32, dtype=np.float32), np.zeros(32, np.float32))            # a third hidden layer
    deeper = DistilledValue(FIVES, 0, model.endgame[:0], (*model.layers[:4], *third, *model.layers[4:]))
    with pytest.raises(DicemathError, match="two hidden layers"):
        deeper.values(np.zeros((1, 12), np.int64))
    for boards in (np.zeros((2, 6)), np.full((1, 12), 6), np.full((1, 12), -1)):
        with pytest.raises(DicemathError, match="not boards of fives"):
            model.values(boards)


@pytest.mark.parametrize("widths", [(128, 64), (64, 32), (40, 16), (24, 20)])
def test_the_compiled_network_equals_the_matrix_products(widths):
    """``_network_c.network`` (vector paths for second layers of 16, 32, 64 and 128 units,
    scalar otherwise) against :func:`..distilled.activations` on random layers and inputs,
    about half of the first layer's units inactive."""
    from dicemath.games.pegs_fives.distilled import activations
    from dicemath.games.pegs_fives.fullboard import _network_c

    rng = np.random.default_rng(sum(widths))
    units, width = widths
    first = rng.normal(size=(500, units)).astype(np.float32)
    offset, w2, b2 = (rng.normal(size=shape).astype(np.float32) for shape in (units, (units, width), width))
    w3, b3 = rng.normal(size=(width, 1)).astype(np.float32), np.float32([0.5])
    out = np.empty(len(first))
    _network_c.network(first, offset, w2, b2, w3, b3, out)
    reference = activations((w2, b2, w3, b3), np.maximum(first + offset, 0.0))[-1][:, 0]
    assert np.abs(out - reference).max() < 1e-4 * max(1.0, np.abs(reference).max())
    with pytest.raises(ValueError, match="inconsistent network shapes"):
        _network_c.network(first, offset, w2, b2, w3, b3, out[:-1].copy())


@pytest.mark.parametrize("rows", [(3, 4, 5, 6, 7, 8), (1, 5, 9, 10, 11, 12)])
def test_slab_guides_equal_the_board_value_functions(model, rows):
    layout = BoardLayout(FIVES, rows)
    boards = layout_boards(layout, 0, layout.size)
    fitted = board_value(FIVES)
    guide = guide_values(layout, lambda split: fitted_slab_values(fitted, split))
    sample = np.random.default_rng(1).integers(0, layout.size, 200)
    assert max(abs(guide[i] - fitted(tuple(boards[i]))) for i in sample) < 1e-12
    assert guide[layout.last] == 0.0
    distilled = guide_values(layout, lambda split: distilled_slab_values(model, split))
    assert np.abs(distilled - model.values(boards)).max() < 1e-4      # float32 sums in another order


def test_lookahead_on_a_guide_is_evaluated_exactly(model, tmp_path):
    """The kernel's lookahead on a guide table built on disk equals the reference solver's
    evaluation of the same advisor (Python, :class:`..advisor.Advisor`) board by board;
    the model's end game is switched off so that the network guides every board."""
    network_only = DistilledValue(FIVES, 0, model.endgame[:0], model.layers)
    rows = (4, 8, 11)
    slab_values = partial(distilled_slab_values, network_only)
    guide_dir = build_guide(FIVES, rows, tmp_path / "guide", slab_values, name="distilled",
                            digest=distilled_guide_digest(network_only))
    other = next(s for s in ("avx512", "avx2", "scalar") if s != _network_c.SUMMATION)
    with pytest.raises(storage.TableError, match="another table"):       # summed in another order
        build_guide(FIVES, rows, guide_dir, slab_values, name="distilled", digest=f"{network_only.digest}-{other}")
    table = build_table(FIVES, rows, out=tmp_path / "policy", policy="lookahead", guide=guide_dir)
    evaluated = storage.open_table(table, FIVES)
    guide = storage.open_table(guide_dir, FIVES)
    layout = evaluated.layout
    advisor = Advisor(FIVES, lambda board: float(guide.values[layout.index(board)]))
    reference = solve_reduced(FIVES, rows, exact=False, policy=advisor.policy)
    assert max(abs(evaluated.value(board) - value) for board, value in reference.values.items()) < 1e-9
    optimal = solve_table(FIVES, rows)
    compared = compare_tables(optimal, {"policy": evaluated.values})["policy"]
    assert compared["mean_relative"] >= -1e-12                       # no policy beats the optimum
    evaluated.close()
    guide.close()


def test_advise_without_a_table_uses_the_distilled_model(capsys, tmp_path, monkeypatch, model):
    monkeypatch.setenv("DICEMATH_CACHE_DIR", str(tmp_path))
    board = (0,) * 12
    result = advise_throw(FIVES, board, (1, 2, 3, 4, 5, 6)).as_dict()
    assert result["exact"] is False and result["source"] == "estimate"
    assert estimate_advisor(FIVES).estimator == estimate_advisor(PEGS).estimator == "distilled"
    assert estimate_advisor(PEGS.variant(goal=4)).estimator == "fitted"
    assert main(["fives", "advise", "--board", "0,0,0,0,0,0,0,0,0,0,0,0", "--roll", "1,2,3,4,5,6"]) == 0
    assert "estimates from the distilled model" in capsys.readouterr().out
    assert result["board_value"] == pytest.approx(model(board))


def _synthetic_results() -> dict:
    first = [{"throw": [1, 1, 1, 1, 1, 1], "probability": 1 / 46656, "best": 1, "greedy": 1,
              "options": [[1, 6, 17.0, 0.0]]},
             {"throw": [1, 2, 3, 4, 5, 6], "probability": 720 / 46656, "best": 7, "greedy": 12,
              "options": [[7, 3, 18.0, 0.0], [12, 3, 18.1, 0.0]]}]
    fives = {"board": {"rows": list(range(1, 13))},
             "optimal": {"expected_turns": 19.0},
             "policy_greedy": {"expected_turns": 28.5, "mean_relative_gap": 0.4},
             "policy_distilled": {"expected_turns": 19.05, "mean_relative_gap": 0.001},
             "model_distilled": {"boards": 10, "rms": 0.02, "max_abs": 0.3, "max_abs_board": [0] * 12,
                                 "mean_relative": 0.0, "empty_board": 19.01},
             "turns": {"games": 4, "mean": 19.5, "standard_error": 1.0, "counts": {"17": 1, "19": 2, "22": 1}},
             "first_throws": first}
    return {"games": {"fives": fives}}


def test_report_section_renders_conclusions_from_the_data(tmp_path, monkeypatch):
    from dicemath.games.pegs_fives import report_full_board as full_board_report

    path = tmp_path / "results.json"
    path.write_text(json.dumps(_synthetic_results()))
    monkeypatch.setattr(full_board_report, "study_file", lambda name: path)
    context = ReportContext(tmp_path, quick=True)
    text = render(compute(context), context)
    assert "19.00000" in text and "not yet built" in text                  # Fives built, Pegs not
    assert "distilled model's play meets the 0.5% target (0.26%)" in text
    assert "Closest to optimal play: the distilled model" in text
    assert "with probability 0.015" in text                                 # 720/46656 differs from greedy
    rows = policy_rows(_synthetic_results()["games"]["fives"])
    assert [r["key"] for r in rows] == ["optimal", "greedy", "distilled"]
    assert [row for row, _ in first_throws_by_row(_synthetic_results()["games"]["fives"]["first_throws"])] == [1, 7]


def test_report_section_renders_from_the_committed_data(tmp_path):
    context = ReportContext(tmp_path, quick=True)
    data = compute(context)
    text = render(data, context)
    for _, record in data.games.items():
        if "optimal" in record:
            assert f"{record['optimal']['expected_turns']:.5f}" in text
        else:
            assert "not yet built" in text



def test_compare_tables_leaves_out_and_counts_boards_a_policy_never_finishes_from():
    reference = np.array([10.0, 8.0, 4.0, 2.0, 0.0])
    policy = np.array([np.inf, 9.0, np.inf, 2.0, 0.0])
    stats = compare_tables(reference, {"policy": policy})["policy"]
    assert stats["infinite"] == 2 and stats["boards"] == 2
    assert stats["max_abs"] == 1.0 and stats["max_abs_board"] == 1
    assert stats["mean_relative"] == pytest.approx((1 / 8 + 0) / 2)


def test_report_section_shows_a_policy_that_never_finishes(tmp_path, monkeypatch):
    from dicemath.games.pegs_fives import report_full_board as full_board_report

    results = _synthetic_results()
    results["games"]["pegs"] = {**results["games"]["fives"], "policy_greedy": {
        "expected_turns": None, "mean_relative_gap": 0.3, "never_finishes_boards": 12345},
        "policy_safe_greedy": {"expected_turns": 25.0},                 # evaluated without the optimal table
        "policy_fitted": {"expected_turns": None, "never_finishes_boards": 678, "trap_boards": [[4] * 10 + [5, 5]],
                          "escape_traps": False},                 # the kernel's plain lookahead
        "traps_greedy": {"games": 2000, "trapped_games": 3, "trapped_share": 0.0015,
                         "trapped_share_95": [0.0005, 0.0044], "trap_boards": [[4] * 11 + [0]],
                         "trap_board_count": 1, "finished_mean_turns": 52.71}}
    path = tmp_path / "results.json"
    path.write_text(json.dumps(results))
    monkeypatch.setattr(full_board_report, "study_file", lambda name: path)
    context = ReportContext(tmp_path, quick=True)
    text = render(compute(context), context)
    assert "infinite (never finishes)" in text and "never finishes from 12,345 boards" in text
    assert "not measured" in text
    assert "3 of 2,000 seeded games" in text and "(0.15%, 95% interval 0.05-0.44%" in text
    assert "`4,4,4,4,4,4,4,4,4,4,4,0`" in text and "took 52.7 turns" in text
    assert policy_rows(results["games"]["pegs"])[1]["expected_turns"] == float("inf")
    fitted = text[text.index("never finishes from 678 boards"):].split("\n")[0]
    assert "`4,4,4,4,4,4,4,4,4,4,5,5`, proved by enumerating" in fitted and "This is its plain lookahead" in fitted
    assert text.count("This is its plain lookahead") == 1                # greedy's own record has no such flag


def test_report_section_says_why_an_advisor_that_escapes_traps_finishes(tmp_path, monkeypatch):
    from dicemath.games.pegs_fives import report_full_board as full_board_report

    results = _synthetic_results()
    plain = {"expected_turns": None, "never_finishes_boards": 678, "trap_boards": [[4] * 10 + [5, 5]]}
    results["games"]["pegs"] = {**results["games"]["fives"], "policy_fitted": {
        "expected_turns": 21.5, "escape_traps": True, "plain_lookahead": plain}}
    path = tmp_path / "results.json"
    path.write_text(json.dumps(results))
    monkeypatch.setattr(full_board_report, "study_file", lambda name: path)
    context = ReportContext(tmp_path, quick=True)
    text = render(compute(context), context)
    assert "| 21.5000 | +13.16% |" in text                             # 21.5 / 19 - 1
    line = text[text.index("finishes from every board because"):].split("\n")[0]
    assert "never finishes from 678 boards" in line and "`4,4,4,4,4,4,4,4,4,4,5,5`" in line
    assert "This is its plain lookahead" not in text


def test_a_model_trains_from_a_saved_sample_without_a_table(tmp_path):
    from dicemath.games.pegs_fives.advisor import board_value
    from dicemath.games.pegs_fives.distilled import endgame_offsets
    from dicemath.studies.full_board_distill import Sample, coverage_boards, distill

    layout = BoardLayout(PEGS, tuple(range(1, 13)))
    boards = coverage_boards(PEGS, 3000, 5, np.random.default_rng(1))
    value = board_value(PEGS)
    targets = np.array([value(tuple(b)) for b in boards], dtype=np.float32)
    endgame = np.arange(endgame_offsets(12, PEGS.goal, 4)[-1], dtype=np.float32)
    sample = Sample((boards @ np.array(layout.strides)).astype(np.uint32), targets, 500, 4, endgame)
    sample.save(tmp_path / "s.npz")
    again = Sample.read(tmp_path / "s.npz")
    assert np.array_equal(again.boards, sample.boards) and again.held_out == 500
    model = distill(layout, again, hidden=(8, 4), epochs=2, log=lambda line: None)
    assert model((5,) * 11 + (0,)) == endgame[endgame_offsets(12, PEGS.goal, 4)[1 << 11]]   # from the end game
    assert np.isfinite(model((0,) * 12))


def test_the_model_error_without_a_guide_table_equals_the_comparison_with_one(model):
    from dicemath.games.pegs_fives.fullboard.guides import compare_estimate

    layout = BoardLayout(FIVES, (3, 5, 7, 8, 10, 12))
    optimal = solve_table(FIVES, layout.rows)
    source = lambda split: distilled_slab_values(model, split)                     # noqa: E731
    streamed = compare_estimate(optimal, layout, source, workers=2)
    stored = compare_tables(optimal, {"guide": guide_values(layout, source)})["guide"]
    assert streamed["boards"] == stored["boards"] == layout.size - 1
    for key in ("rms", "max_abs", "mean_relative", "max_relative"):
        assert streamed[key] == pytest.approx(stored[key], rel=1e-9)
    assert streamed["max_abs_board"] == stored["max_abs_board"]


def test_the_model_step_records_the_fitted_value_error_over_every_board(tmp_path):
    """``analyses/pegs_fives_full_board.py pegs model fitted`` on a reduced board against a
    second method: the fitted value of each board by itself, against the reduced solver."""
    script = analysis_script("pegs_fives_full_board")
    results = tmp_path / "results.json"
    script.main(["pegs", "model", "fitted", "--open", "10,11,12", "--work", str(tmp_path), "--results", str(results)])
    record = read_results(results)["games"]["pegs"]["model_fitted"]
    exact = solve_reduced(PEGS, [10, 11, 12], exact=False)
    value = board_value(PEGS)
    errors = np.array([value(board) - v for board, v in exact.values.items() if v > 0])
    assert record["boards"] == len(errors)
    assert record["rms"] == pytest.approx(float(np.sqrt(np.mean(errors ** 2))), rel=1e-5)
    assert record["max_abs"] == pytest.approx(float(np.abs(errors).max()), rel=1e-5)


def test_evaluating_a_policy_again_records_its_run_and_keeps_its_earlier_evaluations(tmp_path):
    """``pegs evaluate fitted`` rewrites the policy's record from the new sweep (with its wall
    time and peak memory) and keeps the earlier evaluations it holds (``plain_lookahead``, the
    earlier kernel's without the trap escape; ``previous_sweep``) with it."""
    script = analysis_script("pegs_fives_full_board")
    results = tmp_path / "results.json"
    plain = {"expected_turns": None, "never_finishes_boards": 7}
    previous = {"expected_turns": 25.0}
    results.write_text(json.dumps({"games": {"pegs": {"policy_fitted": {"expected_turns": None,
                                                                          "plain_lookahead": plain,
                                                                          "previous_sweep": previous}}}}))
    script.main(["pegs", "evaluate", "fitted", "--open", "10,11,12", "--work", str(tmp_path / "work"),
                 "--guides", str(tmp_path / "guides"), "--results", str(results), "--force"])
    record = read_results(results)["games"]["pegs"]["policy_fitted"]
    advisor = Advisor(PEGS, board_value(PEGS))
    expected = solve_reduced(PEGS, [10, 11, 12], exact=False, policy=advisor.policy).expected_turns
    assert record["expected_turns"] == pytest.approx(expected, rel=1e-6)      # float32 table
    assert record["plain_lookahead"] == plain and record["previous_sweep"] == previous
    # each time is rounded to 0.1 s: the parts' sum may pass the rounded whole by up to 0.1
    assert record["guide_seconds"] + record["sweep_seconds"] <= record["wall_seconds"] + 0.1 + 1e-9
    assert 0 < record["peak_resident_gb"] < 24
