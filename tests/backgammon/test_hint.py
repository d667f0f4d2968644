"""``dicemath.games.backgammon.hint`` and ``dicemath backgammon hint``."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from dicemath.cli import main
from dicemath.core.errors import InvalidDiceError, InvalidStateError
from dicemath.games.backgammon import gnubg_engine
from dicemath.studies.backgammon_gnubg_agreement import compare_top_play
from dicemath.games.backgammon.hint import hint
from dicemath.games.backgammon.moves import legal_moves
from dicemath.games.backgammon.position import Position
from dicemath.games.backgammon.rules import PLAYTIVE, STANDARD

from .strategies import random_position

DATA = Path(__file__).resolve().parent / "data"
needs_gnubg = pytest.mark.skipif(not gnubg_engine.available(), reason="the gnubg package is not installed")


def _sampled() -> list[dict]:
    return json.loads((DATA / "selfplay_positions.json").read_text())["positions"]


def _playtive_positions(count: int):
    """Random positions that BG-4 allows (at most 5 own checkers on every point) in which the
    player on roll has a point of 4 or 5 checkers, so that the limit can matter."""
    rng = random.Random(11)
    found = []
    while len(found) < count:
        position = random_position(rng, bear_off_bias=0.3)
        if not position.is_over() and max(position.on_roll[:24]) in (4, 5) and max(position.opponent[:24]) <= 5:
            found.append(position)
    return found


@needs_gnubg
@pytest.mark.parametrize("count", [10, pytest.param(40, marks=pytest.mark.slow)])
def test_playtive_hint_never_makes_a_sixth_checker_on_a_point(count):
    rng = random.Random(5)
    for position in _playtive_positions(count):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        moves = hint(PLAYTIVE, position, dice)
        expected = {str(m) for m in legal_moves(PLAYTIVE, position, dice)}
        assert {m.move for m in moves} == expected
        for move in moves:
            after = Position.from_position_id(move.position_id).swap()
            assert max(after.on_roll[:24]) <= 5, (position.position_id(), dice, move.move)


@needs_gnubg
def test_hint_is_sorted_and_complete():
    position = Position.initial()
    moves = hint(STANDARD, position, (3, 1))
    assert len(moves) == len(legal_moves(STANDARD, position, (3, 1)))
    assert [m.equity for m in moves] == sorted((m.equity for m in moves), reverse=True)
    assert moves[0].move == "8/5 6/5"
    assert sum(moves[0].probabilities[:1]) > 0.5 and moves[0].source == "gnubg-0ply"


@needs_gnubg
def test_zero_ply_top_play_equals_gnubg_find_best_move():
    """On 500 positions of self-play dicemath's first play is gnubg.find_best_move's (ties
    within 1e-9 excepted; where gnubg's move tuple is cut short at a checker borne off, the
    play it describes)."""
    found = compare_top_play(_sampled()[:500], 0)
    assert found["positions"] == 500 and found["ties"] < 20
    assert found["different"] == []
    assert found["max_equity_difference"] < 5e-6


@needs_gnubg
@pytest.mark.slow
def test_two_ply_top_play_equals_gnubg_find_best_move():
    found = compare_top_play(_sampled()[:520], 2)
    assert found["different"] == []


@needs_gnubg
def test_two_ply_hint_prunes_like_gnubg():
    moves = hint(STANDARD, Position.initial(), (4, 1), 2)
    plies = [m.ply for m in moves]
    assert plies[0] == 2 and plies == sorted(plies, reverse=True) and 0 in plies
    assert moves[0].move == "24/23 13/9"


def test_bear_off_hint_without_gnubg_uses_the_tables():
    """Checkers on the 2- and 3-points cannot both come off with 2-1, and the opponent's
    two checkers on his 1- and 2-points come off with any roll: every play loses for sure."""
    moves = hint(STANDARD, Position.from_home_boards((0, 1, 1, 0, 0, 0), (1, 1, 0, 0, 0, 0)), (2, 1))
    assert {m.source for m in moves} == {"exact"}
    assert [m.equity for m in moves] == pytest.approx([-1.0] * len(moves))
    winning = hint(STANDARD, Position.from_home_boards((1, 1, 0, 0, 0, 0), (0, 0, 0, 0, 0, 3)), (2, 1))
    assert winning[0].move == "2/off 1/off" and winning[0].equity == pytest.approx(1.0)


@pytest.mark.parametrize("dice", [(0, 3), (7, 1), ("a", 2)])
def test_bad_dice(dice):
    with pytest.raises(InvalidDiceError):
        hint(STANDARD, Position.from_home_boards((0, 1, 1, 0, 0, 0), (1, 1, 0, 0, 0, 0)), dice)


def test_bad_position_id_and_finished_game():
    with pytest.raises(InvalidStateError):
        Position.from_position_id("4HPwATDgc/AB")
    with pytest.raises(InvalidStateError, match="over"):
        hint(STANDARD, Position((0,) * 25, (0,) * 5 + (15,) + (0,) * 19), (3, 1))


@needs_gnubg
def test_cli_json(capsys):
    assert main(["backgammon", "hint", "4HPwATDgc/ABMA", "6", "5", "--rules", "playtive", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["rules"] == "playtive" and result["dice"] == [6, 5]
    assert [m["move"] for m in result["moves"]][:1] == ["24/18 13/8"]
    assert set(result["moves"][0]) == {"move", "equity", "probabilities", "ply", "source", "position_id"}
    assert "24/18 18/13" not in [m["move"] for m in result["moves"]]


@pytest.mark.parametrize("argv", [["backgammon", "hint", "garbage", "3", "1"],
                                  ["backgammon", "hint", "4HPwATDgc/ABMA", "3", "9"],
                                  ["backgammon", "hint", "4HPwATDgc/ABMA", "3", "1", "--ply", "5"]])
def test_cli_bad_input_exits_2(argv, capsys):
    assert main(argv) == 2
    assert "error" in capsys.readouterr().err
