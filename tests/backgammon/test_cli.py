"""``dicemath backgammon``: JSON keys and values, errors exit 2."""

from __future__ import annotations

import json

import pytest

from dicemath.cli import main
from dicemath.games.backgammon.position import Position


def _json(capsys, argv):
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_one_sided_json(capsys):
    result = _json(capsys, ["backgammon", "bearoff", "0,0,0,0,0,2", "--json"])
    # 2 checkers on the 6-point come off in one roll with 3-3, 4-4, 5-5, 6-6: 4/36
    assert result["distribution"][1] == pytest.approx(4 / 36)
    assert sum(result["distribution"]) == pytest.approx(1)
    assert result["mean_rolls"] == pytest.approx(sum(n * p for n, p in enumerate(result["distribution"])))


def test_two_sided_json(capsys):
    result = _json(capsys, ["backgammon", "bearoff", "3,0,0,0,0,0", "--versus", "0,1,1,0,0,0", "--json"])
    # on roll: doubles (6/36) win at once; else the opponent misses with 11/36 (any 1 but 1-1... see
    # test_bearoff for the general check): 6/36 + 30/36 * 11/36
    assert result["win_probability"] == pytest.approx(6 / 36 + 30 / 36 * 11 / 36)


def test_moves_lists_opening_plays(capsys):
    result = _json(capsys, ["backgammon", "moves", Position.initial().position_id(), "3", "1", "--json"])
    assert len(result["moves"]) == 16
    assert "8/5 6/5" in {m["move"] for m in result["moves"]}
    assert main(["backgammon", "moves", "4HPwATDgc/ABMA", "6", "6"]) == 0
    assert "legal moves" in capsys.readouterr().out
    xgid = _json(capsys, ["backgammon", "moves", "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10",
                          "3", "1", "--json"])
    assert xgid["moves"] == result["moves"]


def test_show_and_errors(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("DICEMATH_BEAROFF_DIR", str(tmp_path))  # no database: 9 checkers are beyond the tables
    assert main(["backgammon", "show", "4HPwATDgc/ABMA"]) == 0
    assert "Position ID 4HPwATDgc/ABMA" in capsys.readouterr().out
    assert main(["backgammon", "bearoff", "0,0,0,0,0,16"]) == 2
    assert main(["backgammon", "bearoff", "9,0,0,0,0,0", "--versus", "1,0,0,0,0,0"]) == 2
    assert main(["backgammon", "moves", "not-an-id", "3", "1"]) == 2
    assert main(["backgammon", "moves", "4HPwATDgc/ABMA", "7", "1"]) == 2
    assert "error" in capsys.readouterr().err
