"""``solve``, ``advise`` and ``build-table`` with the compiled solver: exact advice from a
table equals a reduced-board solve by the reference solver; estimates are labelled."""

from __future__ import annotations

import json

import pytest

from dicemath.cli import main
from dicemath.games.pegs_fives.fullboard.advice import advise_throw
from dicemath.games.pegs_fives.rules import FIVES
from dicemath.games.pegs_fives.solver import solve_greedy, solve_reduced
from dicemath.games.pegs_fives.turn import TurnValue


def run_json(capsys, *argv):
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


@pytest.fixture
def empty_cache(tmp_path, monkeypatch):
    """No table in the default location."""
    monkeypatch.setenv("DICEMATH_CACHE_DIR", str(tmp_path / "cache"))


def test_solve_uses_the_compiled_solver_and_matches_the_reference(capsys):
    result = run_json(capsys, "fives", "solve", "--open", "3,8,12", "--board", "5,5,2,5,5,5,5,1,5,5,5,4", "--json")
    assert result["solver"] == "compiled" and result["exact"] is True and result["boards"] == 216
    assert result["arithmetic"] == "float64"
    best, greedy = solve_reduced(FIVES, (3, 8, 12), exact=False), solve_greedy(FIVES, (3, 8, 12), exact=False)
    assert result["expected_turns"] == pytest.approx(float(best.expected_turns), abs=1e-9)
    assert result["greedy_expected_turns"] == pytest.approx(float(greedy.expected_turns), abs=1e-9)
    board = (5, 5, 2, 5, 5, 5, 5, 1, 5, 5, 5, 4)
    assert result["board_expected_turns"] == pytest.approx(float(best.value(board)), abs=1e-9)
    assert result["board_greedy_expected_turns"] == pytest.approx(float(greedy.value(board)), abs=1e-9)


def test_solve_exact_keeps_the_fraction_path(capsys):
    result = run_json(capsys, "fives", "solve", "--open", "6,7", "--exact", "--json")
    assert result["solver"] == "reference" and result["exact"] is True and result["arithmetic"] == "fraction"
    assert result["expected_turns_exact"] == str(solve_reduced(FIVES, (6, 7), exact=True).expected_turns)
    assert main(["fives", "solve", "--open", "1,2,3,4,5", "--exact"]) == 2
    assert "up to 4 open rows" in capsys.readouterr().err
    assert main(["fives", "solve", "--open", "0,3"]) == 2


def test_advise_from_a_built_table_equals_the_reference_solve(capsys, tmp_path, empty_cache):
    rows = (3, 8, 12)
    built = run_json(capsys, "fives", "build-table", "--open", "3,8,12", "--out", str(tmp_path / "t"), "--json")
    assert built["boards"] == 216 and built["dtype"] == "float64"
    reference = solve_reduced(FIVES, rows, exact=False)
    model = TurnValue(FIVES, lambda b: float(reference.values[b]))
    board = (5, 5, 1, 5, 5, 5, 5, 3, 5, 5, 5, 0)
    roll = (3, 3, 6, 6, 2, 6)
    result = run_json(capsys, "fives", "advise", "--board", ",".join(map(str, board)), "--roll",
                      ",".join(map(str, roll)), "--table", str(tmp_path / "t"), "--json")
    assert result["exact"] is True and result["source"] == "table"
    assert result["board_value"] == pytest.approx(float(reference.values[board]), abs=1e-9)
    assert {o["row"] for o in result["options"]} == {3, 8, 12}
    for option in result["options"]:
        stay, rest = model.option(board, option["row"], option["hits"], 6, None)
        assert option["expected_turns"] == pytest.approx(float(rest), abs=1e-9)
        assert option["p_no_progress"] == stay == 0
    assert result["recommendation"] == reference.best_row(board, roll)


def test_advise_on_a_small_board_without_a_table_solves_it(empty_cache):
    board = (5, 5, 5, 5, 5, 0, 0, 5, 5, 5, 5, 5)
    result = advise_throw(FIVES, board, (1, 2, 3, 4, 6, 6)).as_dict()
    assert result["exact"] is True and result["source"] == "solve"
    assert result["board_value"] == pytest.approx(float(solve_reduced(FIVES, (6, 7), exact=False).values[board]),
                                                  abs=1e-9)


def test_advise_without_an_exact_source_labels_estimates(capsys, empty_cache):
    board = "0,0,0,0,0,0,0,0,0,0,0,0"
    result = run_json(capsys, "fives", "advise", "--board", board, "--roll", "1,2,3,4,5,6", "--json")
    assert result["exact"] is False and result["source"] == "estimate"
    assert {"board", "roll", "board_value", "options", "ranking", "recommendation", "greedy_choice"} <= set(result)
    assert main(["fives", "advise", "--board", board, "--roll", "1,2,3,4,5,6"]) == 0
    text = capsys.readouterr().out
    assert "estimated board value" in text and "est. E[turns after this]" in text and "estimates" in text


def test_a_throw_reads_as_the_state_writes_it_and_prints_so(capsys, empty_cache):
    board = "0,0,3,0,0,0,1,0,0,0,0,0"
    dashed = run_json(capsys, "pegs", "advise", "--board", board, "--roll", "3-3-3-5-6-2", "--json")
    assert dashed == run_json(capsys, "pegs", "advise", "--board", board, "--roll", "3,3,3,5,6,2", "--json")
    assert dashed["roll"] == [2, 3, 3, 3, 5, 6] and dashed["state"].endswith("roll 6-5-3-3-3-2")
    assert main(["pegs", "advise", "--board", board, "--roll", "3,3,3,5,6,2"]) == 0
    assert "roll 6-5-3-3-3-2 (" in capsys.readouterr().out
    turn = ("fives", "turn", "--board", "5,5,5,5,5,5,5,5,5,5,5,3", "--json")
    assert run_json(capsys, *turn, "--roll", "6-6-5-4-1-1") == run_json(capsys, *turn, "--roll", "1,1,4,5,6,6")
    with pytest.raises(SystemExit):
        main(["pegs", "advise", "--board", board, "--roll", "3-3-x"])
    assert "argument --roll: cannot read a throw from '3-3-x'" in capsys.readouterr().err


def test_advise_and_build_table_refuse_bad_tables(capsys, tmp_path, empty_cache):
    run_json(capsys, "fives", "build-table", "--open", "6,7", "--out", str(tmp_path / "t"), "--json")
    board = "5,5,5,5,5,0,0,5,5,5,5,5"
    assert main(["pegs", "advise", "--board", board, "--roll", "1,2,3,4,6,6", "--table", str(tmp_path / "t")]) == 2
    assert "other rules" in capsys.readouterr().err
    assert main(["fives", "advise", "--board", "0,5,5,5,5,0,0,5,5,5,5,5", "--roll", "1,2,3,4,6,6",
                 "--table", str(tmp_path / "t")]) == 2
    assert "only open rows" in capsys.readouterr().err
    assert main(["fives", "advise", "--board", board, "--roll", "1,2,3,4,6,6", "--table", str(tmp_path / "no")]) == 2
    assert main(["fives", "build-table", "--open", "6,8", "--out", str(tmp_path / "t")]) == 2
    assert "another table" in capsys.readouterr().err
    assert main(["fives", "build-table", "--open", "6,13", "--out", str(tmp_path / "u")]) == 2
