"""``dicemath pitjesbak`` sub-commands."""

import json
from fractions import Fraction

import pytest

from dicemath.cli import pitjesbak as pit_cli


def run(capsys, *argv):
    import argparse
    parser = argparse.ArgumentParser()
    pit_cli.register(parser.add_subparsers())
    args = parser.parse_args(["pitjesbak", *argv])
    code = args.func(args)
    return code, capsys.readouterr().out


def test_classes_json(capsys):
    code, out = run(capsys, "classes", "--json")
    data = json.loads(out)
    assert code == 0 and data["total_weight"] == 216
    by_label = {c["label"]: c for c in data["classes"]}
    assert by_label["6-5-4"]["exact"] == "1/36" and by_label["2-2-3"]["weight"] == 3
    assert sum(Fraction(c["exact"]) for c in data["classes"]) == 1


def test_classes_text(capsys):
    assert "soixante-neuf" in run(capsys, "classes")[1]


def test_game_json(capsys):
    code, out = run(capsys, "game", "--players", "2", "--json")
    data = json.loads(out)
    assert 0.5 < data["start_player_win_probability"] < 0.52
    assert data["round_max_loss_as_start_player"] > 0


def test_round_and_card_and_advise(capsys):
    data = json.loads(run(capsys, "round", "--players", "3", "--json")[1])
    assert sum(Fraction(p) for p in data["win_probabilities_exact"]) == 1
    card = json.loads(run(capsys, "card", "--state", "2,1,9,0", "--json")[1])
    assert card["state"] == [2, True, 9, False]
    advice = json.loads(run(capsys, "advise", "--my-stripes", "9", "--their-stripes", "9", "--role",
                            "follower", "--throw-number", "1", "--current", "1-2-3", "--best", "1-1-2",
                            "--limit", "2", "--json")[1])
    assert advice["decision"] in ("stop", "throw") and advice["limit"] == 2


def test_errors_exit_2(capsys):
    from dicemath.cli import main
    assert main(["pitjesbak", "game", "--players", "4"]) == 2
    assert main(["pitjesbak", "game", "--players", "3", "--stripes", "9"]) == 2
    assert main(["pitjesbak", "round", "--players", "9"]) == 2
    assert main(["pitjesbak", "classes", "--stripes", "-1"]) == 2
    assert "error" in capsys.readouterr().err
