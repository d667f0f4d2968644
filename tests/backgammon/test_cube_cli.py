"""``dicemath backgammon cube`` (dicemath.cli.backgammon_cube)."""

from __future__ import annotations

import argparse
import json

import pytest

from dicemath.core.errors import DicemathError
from dicemath.games.backgammon.cube import CubeModel, CubelessProbabilities
from dicemath.cli.backgammon_cube import add_cube_command
from dicemath.games.backgammon.cubeful_bearoff import exact_equities


def run(argv: list[str], capsys) -> tuple[int, str]:
    parser = argparse.ArgumentParser(prog="dicemath backgammon")
    add_cube_command(parser.add_subparsers(dest="backgammon_command"))
    args = parser.parse_args(argv)
    code = args.func(args)
    return code, capsys.readouterr().out


def test_bear_off_form_json(capsys):
    code, out = run(["cube", "2,2,0,0,0,0", "--versus", "0,0,1,1,1,0", "--json"], capsys)
    result = json.loads(out)
    assert code == 0
    for name in ("centred", "owned", "opponent_owned"):
        assert name in result and name in result["no_double"] and name in result["action"]
    # Second method: exact Fractions by plain recursion, with BG-8's cap at 64 like the CLI.
    assert result["max_cube"] == 64
    exact = exact_equities((2, 2, 0, 0, 0, 0), (0, 0, 1, 1, 1, 0), max_cube=64)
    for name in ("centred", "owned", "opponent_owned"):
        assert result[name] == pytest.approx(float(exact["optimal"][name]), abs=1e-12)
        assert result["no_double"][name] == pytest.approx(float(exact["no_double"][name]), abs=1e-12)
        assert result["action"][name] == exact["action"][name]


def test_unbounded_cube_is_gnubg_model(capsys):
    code, out = run(["cube", "2,2,0,0,0,0", "--versus", "0,0,1,1,1,0", "--unbounded-cube", "--json"],
                    capsys)
    result = json.loads(out)
    exact = exact_equities((2, 2, 0, 0, 0, 0), (0, 0, 1, 1, 1, 0))
    assert code == 0 and result.get("max_cube") is None
    for name in ("centred", "owned", "opponent_owned"):
        assert result[name] == pytest.approx(float(exact["optimal"][name]), abs=1e-12)


def test_bear_off_form_text(capsys):
    code, out = run(["cube", "0,2,0,0,0,0", "--versus", "0,1,0,0,0,0"], capsys)
    assert code == 0 and "Double, take" in out and "centred" in out and "cannot double" in out
    result = json.loads(run(["cube", "0,2,0,0,0,0", "--versus", "0,1,0,0,0,0", "--json"], capsys)[1])
    assert result["action"]["centred"] == "double/take"           # the JSON keeps its action names


def test_model_form_json(capsys):
    argv = ["cube", "--win", "0.72", "--gammon", "0.12", "--lose-gammon", "0.03", "--json"]
    code, out = run(argv, capsys)
    result = json.loads(out)
    model = CubeModel(CubelessProbabilities(0.72, 0.12, 0.0, 0.03))
    assert result["take_point"] == pytest.approx(model.take_point(result["efficiency"]))
    assert result["doubling_point"] <= result["cash_point"]
    assert result["action"] in ("no double", "double/take", "double/pass", "too good")
    assert {"cubeful_equity", "no_double", "take_point_dead", "take_point_live"} <= set(result)


def test_model_form_text(capsys):
    code, out = run(["cube", "--win", "0.6", "--efficiency", "1"], capsys)
    assert code == 0 and "take_point" in out


@pytest.mark.parametrize("argv", [
    ["cube", "2,2,0,0,0,0"],
    ["cube"],
    ["cube", "--win", "1.3"],
    ["cube", "--win", "0.3", "--gammon", "0.5"],
    ["cube", "9,0,0,0,0,0", "--versus", "1,0,0,0,0,0"],
])
def test_bad_input_raises_a_dicemath_error(argv, capsys):
    with pytest.raises(DicemathError):
        run(argv, capsys)


def test_through_the_main_command(capsys):
    from dicemath.cli import main

    code = main(["backgammon", "cube", "--win", "0.5", "--json"])
    assert code == 0
    assert json.loads(capsys.readouterr().out)["action"] == "no double"
