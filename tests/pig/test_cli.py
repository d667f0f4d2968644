"""``dicemath pig``: the sub-command registered on a fresh parser (the registry is not Pig's yet)."""

from __future__ import annotations

import argparse
import json

import pytest

from dicemath.core.errors import DicemathError
from dicemath.games.pig import commands
from dicemath.games.pig.game import PIG_GAME


def run(capsys, *argv):
    parser = argparse.ArgumentParser()
    commands.register(parser.add_subparsers(), PIG_GAME)
    args = parser.parse_args(["pig", *argv])
    code = args.func(args)
    return code, capsys.readouterr().out


def test_game_json(capsys):
    code, out = run(capsys, "game", "--json")
    data = json.loads(out)
    assert code == 0 and data["game"] == "pig" and data["rules"] == {"goal": 100}
    p0, p1 = data["win_probabilities"]
    assert round(p0, 4) == data["published"] == 0.5306 and p0 + p1 == pytest.approx(1)
    assert {"hold_at_start", "states", "layers", "sweeps", "tolerance", "solve_seconds"} <= set(data)
    small = json.loads(run(capsys, "game", "--goal", "10", "--json")[1])
    assert small["published"] is None and small["rules"] == {"goal": 10}
    assert "0.530593" in run(capsys, "game")[1]


def test_advise_json_and_svg(capsys, tmp_path):
    target = tmp_path / "pig.svg"
    code, out = run(capsys, "advise", "1:35-62 t12 choose", "--svg", str(target), "--json")
    data = json.loads(out)
    assert code == 0 and data["game"] == "pig" and data["state"] == "1:35-62 t12 choose"
    assert [o["action"] for o in data["options"]] == ["roll", "hold"] and data["best"] == "roll"
    assert all(0 < o["value"] < 1 for o in data["options"]) and target.read_text().startswith("<svg")
    start = json.loads(run(capsys, "advise", "start", "--goal", "30", "--json")[1])
    assert start["state"] == "0:0-0 t0 choose goal 30" and [o["action"] for o in start["options"]] == ["roll"]
    assert "best" in run(capsys, "advise", "0:20-20 t25 choose")[1]


def test_policy_and_show(capsys):
    card = json.loads(run(capsys, "policy", "--step", "25", "--json")[1])
    assert card["scores"] == [0, 25, 50, 75] and card["hold_at"][0][0] == 21
    assert "my score" in run(capsys, "policy")[1]
    shown = json.loads(run(capsys, "show", "0:35-62 t12 rolling", "--json")[1])
    assert shown["to_act"] == "dice" and shown["legal_moves"] == [] and shown["phase"] == "rolling"
    assert shown["scores"] == [35, 62] and shown["rules"] == {"goal": 100}
    assert "legal moves: hold, roll" in run(capsys, "show", "0:35-62 t12 choose")[1]


@pytest.mark.parametrize("argv", [("advise", "0:35-62 t12 rolling"), ("advise", "0:100-62 t0 won"),
                                  ("advise", "nonsense"), ("advise",), ("game", "--goal", "0"),
                                  ("policy", "--step", "0"), ("show", "0:35-62 t1 choose"),
                                  ("advise", "0:10-0 t0 choose goal 50", "--goal", "60")])
def test_bad_input_raises_a_dicemath_error(capsys, argv):
    with pytest.raises(DicemathError):
        run(capsys, *argv)
