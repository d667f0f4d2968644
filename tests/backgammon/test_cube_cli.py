"""``dicemath backgammon cube`` (:mod:`dicemath.games.backgammon.commands_cube`)."""

from __future__ import annotations

import argparse
import json

import pytest

from dicemath.core.errors import DicemathError
from dicemath.games.backgammon.cube import CubeModel, CubelessProbabilities
from dicemath.games.backgammon.commands_cube import add_cube_command
from dicemath.games.backgammon.cubeful_bearoff import exact_equities
from dicemath.games.backgammon.game import BACKGAMMON_GAME


def run(argv: list[str], capsys) -> tuple[int, str]:
    parser = argparse.ArgumentParser(prog="dicemath backgammon")
    add_cube_command(parser.add_subparsers(dest="backgammon_command"))
    parser.set_defaults(game=BACKGAMMON_GAME)          # as dicemath backgammon hands it
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


SVG = "{http://www.w3.org/2000/svg}"


def drawn(path) -> tuple[str, list[str], list[str]]:
    """The verdict written in the picture at ``path``, the titles of the advised option and the
    texts of the other options."""
    import xml.etree.ElementTree as ET

    root = ET.parse(path).getroot()
    (verdict,) = [e for e in root.iter(f"{SVG}text") if e.get("class") == "verdict"]
    advised = [g.find(f"{SVG}text").text for g in root.iter(f"{SVG}g") if g.get("class") == "advised"]
    others = [g.find(f"{SVG}text").text for g in root.iter(f"{SVG}g") if g.get("class") == "option"]
    return verdict.find(f"{SVG}title").tail, advised, others


def test_svg_draws_the_position_with_the_cube_verdict_and_each_actions_equity(capsys, tmp_path):
    picture = tmp_path / "cube.svg"
    code, out = run(["cube", "AgAAGAAAAAAAAA", "--svg", str(picture), "--json"], capsys)  # (0,2,..) vs (0,1,..)
    result = json.loads(out)
    assert code == 0 and result["svg"] == str(picture) and result["action"] == "double/take"
    verdict, advised, others = drawn(picture)
    assert verdict == "Proper cube action: Double, take"
    assert advised == [f"Best action: double, equity {result['double_take']:+.3f} per cube unit (exact)"]
    assert others == [f"roll, equity {result['no_double']:+.3f} ({result['no_double'] - result['double_take']:+.3f})"]


def test_svg_of_a_cube_he_may_not_turn_says_so(capsys, tmp_path):
    picture = tmp_path / "cube.svg"
    code, out = run(["cube", "AgAAGAAAAAAAAA", "--cube-owner", "opponent", "--cube-value", "2",
                     "--svg", str(picture)], capsys)
    verdict, advised, others = drawn(picture)
    assert code == 0 and verdict == "No cube action: the player on roll may not double (BG-8)"
    assert advised == others == [] and "Cube 2, owned by O" in picture.read_text()


def test_svg_of_the_bear_off_form_draws_both_home_boards_and_the_centred_verdict(capsys, tmp_path):
    picture = tmp_path / "bearoff.svg"
    code, out = run(["cube", "2,2,0,0,0,0", "--versus", "0,0,1,1,1,0", "--svg", str(picture), "--json"], capsys)
    result = json.loads(out)
    verdict, _, _ = drawn(picture)
    assert code == 0 and result["action"]["centred"] == "double/pass"
    assert verdict == (f"Proper cube action: Double, pass (equity {result['centred']:+.3f} per unit cube; "
                       f"without doubling {result['no_double']['centred']:+.3f})")
    text = picture.read_text()
    assert text.count('class="checker x"') == 4 and text.count('class="checker o"') == 3


def test_svg_needs_a_position(capsys, tmp_path):
    from dicemath.cli import main

    assert main(["backgammon", "cube", "--win", "0.7", "--svg", str(tmp_path / "cube.svg")]) == 2
    assert "--svg draws a position" in capsys.readouterr().err and not (tmp_path / "cube.svg").exists()
