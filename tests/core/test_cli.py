"""The command line: dice queries, JSON keys, errors, and the report entry point."""

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from dicemath.cli import main
from dicemath.games.pegs_fives.hits import hit_distribution
from dicemath import write_reports

REPO = Path(__file__).resolve().parent.parent.parent


def test_dice_hits_json(capsys):
    assert main(["dice", "hits", "--dice", "6", "--target", "8", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["dice"] == 6 and result["target"] == 8
    exact = [Fraction(x) for x in result["exact"]]
    assert sum(exact) == 1
    assert exact == [hit_distribution(6, 8).probability(k) for k in range(4)]
    assert result["distribution"] == [float(x) for x in exact]


def test_dice_hits_plain_table(capsys):
    assert main(["dice", "hits", "--dice", "2", "--target", "7"]) == 0
    out = capsys.readouterr().out
    assert "1/6" in out and "hits" in out


def test_bad_input_is_a_clear_error(capsys):
    assert main(["dice", "hits", "--dice", "6", "--target", "13"]) == 2
    assert "target must be a number 1..12" in capsys.readouterr().err


def test_console_script_help():
    result = subprocess.run([sys.executable, "-m", "dicemath", "--help"], capture_output=True,
                            text=True, check=True)
    assert "dice" in result.stdout and "report" in result.stdout


def test_dice_report_is_regenerated(tmp_path):
    written = write_reports(tmp_path, only=["dice"], quick=True, log=lambda *a, **k: None)
    text = (tmp_path / "dice.md").read_text()
    assert (tmp_path / "dice_hits.png").stat().st_size > 1000
    # The report's 6-dice table shows P(3 hits for 8) = 1001/46656 rounded to 4 places.
    assert f"{1001 / 46656:.4f}" in text
    assert written[-1] == tmp_path / "README.md"


def test_bad_outputs_and_negative_values_are_clear_errors(capsys, tmp_path):
    """Exit 2 with a message naming the problem, never a traceback (output paths included)."""
    cases = [
        (["analyse", "docs/examples/pegs-game.json", "--plot", str(tmp_path / "missing" / "x.png")], "does not exist"),
        (["analyse", "docs/examples/pegs-game.json", "--plot", str(tmp_path / "x.txt")], "name a file ending in .png"),
        (["report", "--out", "/proc/forbidden", "--only", "dice", "--quick"], "cannot write /proc/forbidden"),
        (["pegs", "advise", "--board", "-1,0,0,0,0,0,0,0,0,0,0,0", "--roll", "1,2,3,4,5,6"], "step -1"),
    ]
    for argv, message in cases:
        if argv[0] == "analyse":
            argv[1] = str(REPO / argv[1])
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err, (argv, err)
    with pytest.raises(SystemExit):
        main(["pegs", "advise", "--board"])            # argparse's own usage error (exit 2) stays



def test_advise_and_show_draw_the_position_into_an_svg_file(tmp_path, capsys):
    import xml.etree.ElementTree as ET

    picture = tmp_path / "pegs.svg"
    assert main(["pegs", "advise", "--board", "5,5,5,5,5,5,5,5,5,4,2,0", "--roll", "6,6,5,5,2,1",
                 "--svg", str(picture), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["svg"] == str(picture)
    text = picture.read_text()
    ET.fromstring(text)
    best = min(result["options"], key=lambda o: o["expected_turns"])
    assert best["row"] == result["recommendation"] and f"best: {best['expected_turns']:.2f} turns" in text
    assert main(["bohnduell", "show", "start", "--svg", str(tmp_path / "b.svg")]) == 0
    ET.fromstring((tmp_path / "b.svg").read_text())
    assert main(["pitjesbak", "advise", "--stripes", "2", "--my-stripes", "1", "--my-wiped", "--their-stripes", "2",
                 "--role", "follower", "--throw-number", "1", "--current", "6-6-2", "--best", "5-5-5", "--limit", "2",
                 "--svg", str(tmp_path / "p.svg")]) == 0
    assert "advised" in (tmp_path / "p.svg").read_text()
    assert main(["pegs", "advise", "--board", "5,5,5,5,5,5,5,5,5,4,2,0", "--roll", "6,6,5,5,2,1",
                 "--svg", str(tmp_path / "x.png")]) == 2


def test_warmup_runs_its_queries_and_says_how_long_each_took(capsys):
    assert main(["warmup", "--only", "backgammon-cube"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("backgammon-cube: the backgammon bear-off move, one-sided and cubeful tables ... done in ")
    assert "ready" in out
