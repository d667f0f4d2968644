"""``dicemath analyse``: JSON keys, plain output, plot, threshold, exit status 2 on bad records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dicemath.analysis import analyse, game_named
from dicemath.games.registry import GAMES, game_names
from dicemath.analysis.play import record_game
from dicemath.cli import main
from dicemath.games.backgammon.gnubg_engine import GnubgUnavailableError
from dicemath.games.bohnduell.players import greedy_player, random_player

DECISION_KEYS = {"index", "player", "choice", "best", "loss", "unit", "exact", "values", "context"}
TOP_KEYS = {"game", "kind", "unit", "source", "value_label", "seats", "threshold", "decisions", "total_loss",
            "mean_loss", "errors", "exact", "rating"}
GAME_KEYS = {"chance", "loss_by_player", "decisions_by_player", "errors_by_player", "luck_by_player",
             "start_value", "end_value", "finished", "trajectory"}


def _write(tmp_path, record, name="record.json"):
    path = tmp_path / name
    path.write_text(json.dumps(record), encoding="utf-8")
    return str(path)


@pytest.fixture
def pitjesbak_game(tmp_path):
    moves = ["2-2-1", "throw", "6-5-1", "stop", "4-4-2", "stop", "3-3-3", "stop", "6-6-1", "6-5-4"]
    return _write(tmp_path, {"game": "pitjesbak", "rules": {"stripes": 3}, "players": ["Ann", "Bob"],
                             "moves": moves})


def test_json_of_a_whole_game(pitjesbak_game, capsys):
    assert main(["analyse", pitjesbak_game, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert TOP_KEYS | GAME_KEYS <= set(result)
    assert result["kind"] == "game" and result["seats"] == ["Ann", "Bob"] and not result["finished"]
    assert all(DECISION_KEYS <= set(d) for d in result["decisions"])
    assert {c["outcome"] for c in result["chance"]} >= {"6-5-4", "3-3-3"}
    assert result["errors"] == sum(d["loss"] > result["threshold"] for d in result["decisions"])
    assert result["total_loss"] == pytest.approx(sum(d["loss"] for d in result["decisions"]))


def test_plain_output_plot_and_threshold(pitjesbak_game, tmp_path, capsys):
    plot = tmp_path / "game.png"
    assert main(["analyse", pitjesbak_game, "--plot", str(plot), "--threshold", "0"]) == 0
    out = capsys.readouterr().out
    assert "Rating: Ann" in out and "Luck" in out and "error(s) above 0" in out
    assert plot.stat().st_size > 1000


def test_decision_list_json_and_plot(tmp_path, capsys):
    record = {"game": "pegs", "decisions": [
        {"board": [5] * 10 + [3, 0], "roll": [6, 6, 5, 5, 1, 1], "choice": 11},
        {"board": [5] * 10 + [3, 0], "roll": [6, 6, 5, 5, 1, 1], "choice": 12}]}
    plot = tmp_path / "losses.png"
    assert main(["analyse", _write(tmp_path, record), "--json", "--plot", str(plot)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert TOP_KEYS <= set(result) and not GAME_KEYS & set(result)
    losses = [d["loss"] for d in result["decisions"]]
    assert min(losses) == 0 < max(losses) and result["unit"] == "turns"
    assert plot.exists()


def test_a_bohnduell_game_from_the_start(tmp_path, capsys):
    record = record_game(game_named("bohnduell", GAMES), (greedy_player, random_player), seed=1, rules={"stock": 8})
    assert main(["analyse", _write(tmp_path, record.as_dict())]) == 0
    assert "bohnduell, whole game" in capsys.readouterr().out


@pytest.mark.parametrize("record, words", [
    ({"game": "pegs", "moves": ["6-6-6-6-6-5", 3]}, "moves entry 1"),
    ({"game": "pitjesbak", "moves": ["7-1-1"]}, "moves entry 0"),
    ({"game": "bohnduell", "moves": ["S5"]}, "moves entry 0"),
    ({"game": "chess", "moves": ["e4"]}, "unknown game 'chess'"),
    ({"game": "pitjesbak", "decisions": [{"my_stripes": 9, "choice": "stop"}]}, "decisions entry 0: missing"),
    ({"moves": ["6-5-4"]}, "needs \"game\""),
    ({"game": "pitjesbak"}, "either \"decisions\""),
])
def test_bad_records_exit_2_naming_the_entry(tmp_path, capsys, record, words):
    assert main(["analyse", _write(tmp_path, record)]) == 2
    assert words in capsys.readouterr().err


def test_unreadable_files_exit_2(tmp_path, capsys):
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    assert main(["analyse", str(broken)]) == 2
    assert "is not JSON" in capsys.readouterr().err
    assert main(["analyse", str(tmp_path / "missing.json")]) == 2
    assert "cannot read the record" in capsys.readouterr().err


EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "docs" / "examples").glob("*.json"))


def test_every_game_has_documented_examples_that_analyse():
    games = set()
    for path in EXAMPLES:
        try:
            result = analyse(path, GAMES)
        except GnubgUnavailableError:     # a contact position needs the optional gnubg package
            continue
        games.add(result.game)
        assert result.decisions
    assert games == set(game_names())
