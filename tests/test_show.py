"""``dicemath GAME show STATE``: every game's state as text, as JSON and as a picture."""

from __future__ import annotations

import importlib
import json
import xml.etree.ElementTree as ET

import pytest

from dicemath.cli import main

SVG = "{http://www.w3.org/2000/svg}"

PEGS_CHOICE = ("pegs | board 5,5,5,5,5,5,5,5,5,3,2,0 | turns 0 | dice 6 throws 2 | row - count 0 | "
               "roll 6-6-5-5-2-1")
PITJESBAK_DECISION = ("[0:9 1:9] round 0 start 0 order 0,1 turn 0 limit 0 throws 1 current 235 results - "
                      "rolloff - winner - | last winner - limit 0 results - | 2 players 9 stripes traditional")

CASES = [
    # game, STATE as typed, the package whose State reads the text, the canonical text, to_act, legal moves,
    # the picture's title
    ("pegs", PEGS_CHOICE, "pegs_fives", PEGS_CHOICE, "player", ["10", "11", "12"], "Pegs, turn 1"),
    ("fives", "5,5,5,5,5,5,5,5,5,4,2,0", "pegs_fives",
     "fives | board 5,5,5,5,5,5,5,5,5,4,2,0 | turns 0 | dice 6 throws - | row - count 0 | roll -", "dice", [],
     "Fives, turn 1"),
    ("pitjesbak", PITJESBAK_DECISION.replace("current 235", "current 532"), "pitjesbak", PITJESBAK_DECISION,
     "seat 0", ["stop", "throw"], "Pitjesbak, round 1"),
    ("backgammon", "4HPwATDgc/ABMA", "backgammon", "4HPwATDgc/ABMA X may-double cube 1", "X", ["double", "roll"],
     "Backgammon"),
    ("backgammon", "4HPwATDgc/ABMA O play 6-5 cube 2X playtive", "backgammon",
     "4HPwATDgc/ABMA O play 6-5 cube 2X playtive", "O",
     ["8/3 8/2", "13/7 8/3", "13/8 8/2", "13/8 13/7", "24/18 8/3", "24/18 13/8"],
     "Backgammon (Playtive: at most 5 checkers a point)"),
    ("bohnduell", "2:0,0,0,1:1/3:0,0,0,0:1/B", "bohnduell", "2:0,0,0,1:1/3:0,0,0,0:1/B", "B", ["S1", "S2", "S3"],
     "BohnDuell"),
]


def show_json(capsys, game: str, state: str, *options: str) -> dict:
    assert main([game, "show", state, "--json", *options]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("game, typed, package, text, to_act, moves, title", CASES,
                         ids=[f"{case[0]}-{i}" for i, case in enumerate(CASES)])
def test_show_prints_the_canonical_text_that_reads_back(game, typed, package, text, to_act, moves, title,
                                                        capsys, tmp_path):
    picture = tmp_path / "state.svg"
    result = show_json(capsys, game, typed, "--svg", str(picture))
    assert result["game"] == game and result["state"] == text
    assert result["to_act"] == to_act and result["legal_moves"] == moves
    state = importlib.import_module(f"dicemath.games.{package}").State.from_str(result["state"])
    assert str(state) == text
    assert [state.action_text(action) for action in state.legal_actions()] == moves
    # the canonical text shows the same state: the answer is a fixed point
    again = show_json(capsys, game, result["state"])
    assert again == {key: value for key, value in result.items() if key != "svg"}
    # the picture is a well-formed SVG document of that state
    assert result["svg"] == str(picture)
    root = ET.parse(picture).getroot()
    assert root.tag == f"{SVG}svg" and root.find(f"{SVG}title").text == title
    # the plain text is the diagram and the legal moves
    assert main([game, "show", typed]) == 0
    out = capsys.readouterr().out
    assert out.startswith(result["diagram"]) and result["diagram"].count("\n") >= 3
    assert ("legal moves: " + ", ".join(moves) in out) == bool(moves)


@pytest.mark.parametrize("game, options, text", [
    ("pegs", [], "pegs | board 0,0,0,0,0,0,0,0,0,0,0,0 | turns 0 | dice 6 throws 3 | row - count 0 | roll -"),
    ("fives", [], "fives | board 0,0,0,0,0,0,0,0,0,0,0,0 | turns 0 | dice 6 throws - | row - count 0 | roll -"),
    ("pitjesbak", ["--players", "3", "--stripes", "4"],
     "[0:4 1:4 2:4] round 0 start 0 order 0,1,2 turn 0 limit 0 throws 0 current - results - rolloff - "
     "winner - | last winner - limit 0 results - | 3 players 4 stripes traditional"),
    ("backgammon", [], "4HPwATDgc/ABMA X opening cube 1"),
    ("bohnduell", ["--stock", "5", "--cups", "3"], "5:0,0,0:0/5:0,0,0:0/A"),
])
def test_start_is_the_start_of_a_game(game, options, text, capsys):
    result = show_json(capsys, game, "start", *options)
    assert result["state"] == text and result["to_act"] == ("A" if game == "bohnduell" else "dice")


def test_the_json_holds_what_each_state_holds(capsys):
    pegs = show_json(capsys, "pegs", PEGS_CHOICE)
    assert (pegs["board"], pegs["roll"], pegs["throws"], pegs["dice"], pegs["over"]) == (
        [5] * 9 + [3, 2, 0], [1, 2, 5, 5, 6, 6], 2, 6, False)
    pitjesbak = show_json(capsys, "pitjesbak", PITJESBAK_DECISION)
    assert (pitjesbak["current"], pitjesbak["stripes"], pitjesbak["winner"]) == ("5-3-2", [9, 9], None)
    backgammon = show_json(capsys, "backgammon", "4HPwATDgc/ABMA O play 6-5 cube 2X playtive")
    assert (backgammon["phase"], backgammon["dice"], backgammon["cube_value"], backgammon["cube_owner"],
            backgammon["rules"], backgammon["pip_count"]) == ("play", [6, 5], 2, "X", "playtive", 167)
    bohnduell = show_json(capsys, "bohnduell", "0:0,0,0,0:2/0:1,0,0,0:3/B")
    assert (bohnduell["pots"], bohnduell["stocks"], bohnduell["cups"][1]) == ([2, 3], [0, 0], [1, 0, 0, 0])
    over = show_json(capsys, "bohnduell", "0:0,0,0,0:2/0:0,0,0,0:4/A")
    assert over["to_act"] is None and over["legal_moves"] == []


def test_the_text_views_show_the_board(capsys):
    assert main(["pegs", "show", PEGS_CHOICE]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Pegs, turn 1: Name a row for the choice throw 6-6-5-5-2-1 (2 throws left after it)"
    assert lines[2].split() == ["step", "5", "5", "5", "5", "5", "5", "5", "5", "5", "3", "2", "0"]
    assert main(["pitjesbak", "show", PITJESBAK_DECISION]) == 0
    out = capsys.readouterr().out
    assert "Seat 0  ||||| ||||   9 stripes  starts  [5-3-2] score 10: stop or throw?" in out
    assert main(["backgammon", "show", "4HPwATDgc/ABMA O play 6-5 cube 2X"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "O to play 6-5" and "Cube 2, owned by X; rules: standard" in lines


PEGS_START = "pegs | board 0,0,0,0,0,0,0,0,0,0,0,0 | turns 0 | dice 6 throws 3 | row - count 0 | roll -"


@pytest.mark.parametrize("argv, message", [
    (["pegs", "show", "pegs | board 9"], "cannot read a Pegs/Fives state"),
    (["pegs", "show", "1,2"], "a board has 12 rows"),
    (["pegs", "show", PEGS_START.replace("throws 3", "throws 4")], "throws left must be 0..3"),
    (["pegs", "show", PEGS_START.replace("pegs", "fives").replace("throws 3", "throws -")],
     "show it with `dicemath fives show`"),
    (["fives", "show", "nonsense"], "a board is comma-separated whole numbers"),
    (["pitjesbak", "show", PITJESBAK_DECISION.replace("turn 0", "turn 5")], "turn 5 is no place in the round order"),
    (["pitjesbak", "show", PITJESBAK_DECISION.replace("[0:9 1:9]", "[0:9]")], "2 players need 2 seats"),
    (["pitjesbak", "show", "start", "--players", "9"], "players must be 2..8"),
    (["backgammon", "show", "notAnId"], "a Position ID is 14 base64 characters"),
    (["backgammon", "show", "4HPwATDgc/ABMA X nowhere cube 1"], "phase must be one of"),
    (["bohnduell", "show", "nonsense"], "cannot read position"),
    (["pegs", "show", "start", "--svg", "board.png"], "name a file ending in .svg"),
    (["bohnduell", "show", "start", "--svg", "/nonexistent/folder/board.svg"], "does not exist"),
])
def test_bad_input_is_a_message_and_exit_status_2(argv, message, capsys):
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("dicemath: error: ") and message in captured.err, captured.err
    assert "Traceback" not in captured.err
