"""``dicemath bohnduell``: JSON keys, values against the solvers, errors exit 2."""

from __future__ import annotations

import json

import pytest

from dicemath.cli import main
from dicemath.games.bohnduell import Rules, State, initial_state
from dicemath.games.bohnduell.search import MAX_DEPTH
from dicemath.games.bohnduell.solver_dict import DictSolver


def run_json(capsys, *argv):
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def test_solve_json(capsys):
    result = run_json(capsys, "bohnduell", "solve", "--cups", "4", "--stock", "7", "--json", "--reachable")
    start = initial_state(Rules(stock=7))
    solver = DictSolver(start.rules)
    assert result["value"] == solver.position_value(start)
    assert result["first_moves"] == {str(m): v for m, v in solver.move_values(start).items()}
    assert result["reachable_positions"] == len(solver.table)
    assert set(result["optimal_first_moves"]) == {m for m, v in result["first_moves"].items()
                                                  if v == result["value"]}
    # the principal variation ends in a finished game whose pot difference is the value
    final = start
    for move in result["principal_variation"]:
        final = final.apply(move)
    assert final.is_over() and final.pots[0] - final.pots[1] == result["value"]


def test_solve_every_variant(capsys):
    result = run_json(capsys, "bohnduell", "solve", "--stock", "6", "--capture", "every", "--json")
    start = initial_state(Rules(stock=6, capture="every"))
    assert result["value"] == DictSolver(start.rules).position_value(start)


def test_advise_exact_and_searched(capsys):
    result = run_json(capsys, "bohnduell", "advise", "1:1,0,0,0:1/0:3,2,0,0:2/A", "--json")
    assert [(m["move"], m["value"], m["method"]) for m in result["options"]] == [
        ("H1", 3, "exact"), ("S1", 1, "exact")]
    result = run_json(capsys, "bohnduell", "advise", "start", "--stock", "45", "--depth", "2", "--table-stock", "6",
                      "--json")                                   # a start beyond the solved ones: searched
    assert result["state"] == str(initial_state(Rules(stock=45)))
    assert [m["move"] for m in result["options"]] != [] and all(m["method"].startswith("searched")
                                                               for m in result["options"])
    assert main(["bohnduell", "advise", "start", "--stock", "5"]) == 0
    assert "exact" in capsys.readouterr().out


def test_show_and_errors(capsys):
    assert main(["bohnduell", "show", "2:0,0,0,1:1/3:0,0,0,0:1/B"]) == 0
    out = capsys.readouterr().out
    assert "B stock" in out and "legal moves: S1, S2, S3" in out
    assert main(["bohnduell", "advise", "2:0,0,0,1:1/3:0,0,0,0:1/X"]) == 2
    assert "cannot read position" in capsys.readouterr().err
    assert main(["bohnduell", "solve", "--cups", "2"]) == 2
    assert State.from_str("2:0,0,0,1:1/3:0,0,0,0:1/B").rules.stock == 4


@pytest.mark.parametrize("depth", ["-1", "0", "13", "x"])
def test_advise_refuses_depths_out_of_range(capsys, depth):
    """Refused by argparse before any work, exit 2; the help states the range."""
    with pytest.raises(SystemExit) as stop:
        main(["bohnduell", "advise", "start", "--depth", depth])
    assert stop.value.code == 2 and "--depth" in capsys.readouterr().err


def test_advise_help_states_the_depth_range(capsys):
    with pytest.raises(SystemExit):
        main(["bohnduell", "advise", "--help"])
    assert f"1..{MAX_DEPTH}" in capsys.readouterr().out


def test_advise_a_finished_game_exits_2(capsys):
    assert main(["bohnduell", "advise", "0:0,0,0,0:2/0:0,0,0,0:4/A"]) == 2
    assert "game is over" in capsys.readouterr().err


def test_solve_beyond_memory_answers_the_shipped_start_as_advise_does(capsys):
    """A game too big for memory and without a strong table: ``solve`` answers the shipped
    solved start, the same values ``advise`` gives, with no principal variation."""
    result = run_json(capsys, "bohnduell", "solve", "--stock", "31", "--json")
    advice = run_json(capsys, "bohnduell", "advise", "start", "--stock", "31", "--json")
    assert advice["exact"] and advice["source"] == "solved start"
    assert result["first_moves"] == {o["move"]: o["value"] for o in advice["options"]}
    assert result["value"] == advice["options"][0]["value"] and result["optimal_first_moves"] == [advice["best"]]
    assert result["source"].startswith("solved start") and result["principal_variation"] == []
    assert result["positions"] is None and result["final_pots"] is None
    assert main(["bohnduell", "solve", "--stock", "31", "--reachable"]) == 2
