"""Pictures of the costliest decisions: valid SVG, the choice played against the best, from the
analysis's own values; ``dicemath analyse --pictures DIR``."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from dicemath.analysis import analyse, game_named, read_record
from dicemath.games.registry import GAMES
from dicemath.analysis.pictures import costliest, decision_pictures, write_pictures
from dicemath.analysis.result import DecisionCost
from dicemath.cli import main
from dicemath.core.errors import OutputPathError

SVG = "{http://www.w3.org/2000/svg}"
PEGS = {"game": "pegs", "decisions": [
    {"board": [5] * 10 + [3, 0], "roll": [6, 6, 5, 5, 1, 1], "choice": 11},
    {"board": [5] * 10 + [3, 0], "roll": [6, 6, 5, 5, 1, 1], "choice": 12},
    {"board": [5] * 11 + [3], "roll": [6, 6, 6, 6, 1, 2], "choice": 12}]}
BOHNDUELL = {"game": "bohnduell", "rules": {"stock": 6}, "moves": ["S2", "S2", "S4", "S4", "H1", "H1"]}
"""Four choices that lose a bean each."""


def _texts(document: str) -> list[str]:
    return ["".join(t.itertext()) for t in ET.fromstring(document).iter(f"{SVG}text")]


def _game(record):
    return game_named(record.game, GAMES)


def _cost(index, loss):
    return DecisionCost(index, 0, "a", "b", loss, True, {})


def test_costliest_leaves_out_optimal_choices_and_keeps_record_order_on_ties():
    decisions = [_cost(0, 0.5), _cost(1, 0.0), _cost(2, 2.0), _cost(3, 0.5), _cost(4, 0.1)]
    assert [d.index for d in costliest(decisions)] == [2, 0, 3]
    assert [d.index for d in costliest(decisions, 10)] == [2, 0, 3, 4]
    assert costliest([_cost(0, 0.0)]) == []


def test_a_decision_list_draws_the_choice_against_the_best(tmp_path):
    record = read_record(PEGS)
    analysis = analyse(record, GAMES)
    paths = write_pictures(record, analysis, tmp_path / "pictures", _game(record))
    losing = [d for d in analysis.decisions if d.loss > 0]
    assert len(losing) == 1 and [p.name for p in paths] == [f"entry-{losing[0].index}.svg"]
    document = paths[0].read_text(encoding="utf-8")
    root = ET.fromstring(document)                          # valid XML, one nested picture of the position
    assert root.tag == f"{SVG}svg" and len(root.findall(f"{SVG}svg")) == 1
    texts = _texts(document)
    cost = losing[0]
    assert f"Played by player: {cost.choice}, {cost.loss:.4g} turns worse than the best" in texts
    assert f"Best: {cost.best} (framed in blue in the picture)" in texts
    advised = [g for g in root.iter(f"{SVG}g") if g.get("class") == "advised"]
    assert len(advised) == 1 and f"row {cost.best}," in advised[0].find(f"{SVG}title").text
    width, height = float(root.get("width")), float(root.get("height"))
    nested = root.find(f"{SVG}svg")
    assert float(nested.get("width")) <= width and float(nested.get("y")) + float(nested.get("height")) == height


def test_a_whole_game_draws_at_most_three_decisions_costliest_first(tmp_path):
    record = read_record(BOHNDUELL)
    analysis = analyse(record, GAMES)
    assert sum(d.loss > 0 for d in analysis.decisions) == 4
    paths = write_pictures(record, analysis, tmp_path, _game(record))
    assert [p.name for p in paths] == ["entry-0.svg", "entry-1.svg", "entry-2.svg"]
    for path, cost in zip(paths, analysis.decisions):
        texts = _texts(path.read_text(encoding="utf-8"))
        assert texts[0] == f"Entry {cost.index} of the bohnduell record: {'AB'[cost.player]} lost 1 beans"
        assert f"Played by {'AB'[cost.player]}: {cost.choice}, 1 beans worse than the best" in texts
        assert any(t.startswith("Best: ") and f"({cost.best})" in t for t in texts)  # the drawing's own caption
    uneven = read_record({**BOHNDUELL, "moves": ["S1", "S1", "S4", "S3", "H1", "S2", "S1"]})
    paths = write_pictures(uneven, analyse(uneven, GAMES), tmp_path / "uneven", _game(uneven))
    assert [p.name for p in paths] == ["entry-3.svg", "entry-2.svg"]       # 5 beans lost, then 3


def test_the_pictured_values_are_the_analysis_values():
    record = read_record(BOHNDUELL)
    analysis = analyse(record, GAMES)
    cost = costliest(analysis.decisions, 1)[0]
    texts = _texts(decision_pictures(record, analysis, [cost], _game(record))[0])
    for move, value in cost.values.items():                     # the mover's final pot difference
        assert any(f"({move}): {value:+.0f}" in t for t in texts), move


def test_a_perfect_game_draws_nothing(tmp_path):
    record = read_record({"game": "bohnduell", "rules": {"stock": 6}, "moves": ["S1"]})
    assert write_pictures(record, analyse(record, GAMES), tmp_path / "none", _game(record)) == []
    assert list((tmp_path / "none").iterdir()) == []


def test_a_folder_that_cannot_hold_pictures_is_an_error(tmp_path):
    record = read_record(BOHNDUELL)
    analysis = analyse(record, GAMES)
    (tmp_path / "file").write_text("x")
    with pytest.raises(OutputPathError, match="it is a file"):
        write_pictures(record, analysis, tmp_path / "file", _game(record))
    with pytest.raises(OutputPathError, match="does not exist"):
        write_pictures(record, analysis, tmp_path / "missing" / "dir", _game(record))


def test_cli_pictures_option(tmp_path, capsys):
    path = tmp_path / "record.json"
    path.write_text(json.dumps(BOHNDUELL), encoding="utf-8")
    folder = tmp_path / "drawn"
    assert main(["analyse", str(path), "--pictures", str(folder), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert len(result["pictures"]) == 3 and all(ET.parse(p).getroot().tag == f"{SVG}svg" for p in result["pictures"])
    assert main(["analyse", str(path), "--pictures", str(folder)]) == 0
    assert "Costliest decisions drawn: " + str(folder / "entry-") in capsys.readouterr().out
    assert main(["analyse", str(path), "--pictures", str(tmp_path / "no" / "such")]) == 2
    assert "does not exist" in capsys.readouterr().err
