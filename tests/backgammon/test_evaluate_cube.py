"""``dicemath.games.backgammon.cube_advice`` and the Position ID form of ``dicemath backgammon cube``."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from dicemath.cli import main
from dicemath.core.errors import InvalidStateError
from dicemath.games.backgammon import gnubg_engine
from dicemath.games.backgammon.cube_advice import cube_advice, efficiency, janowski_states
from dicemath.games.backgammon.cubeful_bearoff import exact_equities
from dicemath.studies.backgammon_gnubg_agreement import GNUBG_ACTIONS, compare_cube
from dicemath.games.backgammon.position import Position
from dicemath.games.backgammon.rules import STANDARD

DATA = Path(__file__).resolve().parent / "data"
needs_gnubg = pytest.mark.skipif(not gnubg_engine.available(), reason="the gnubg package is not installed")


def _cases() -> list[dict]:
    return json.loads((DATA / "gnubg_cube_decisions.json").read_text())["cases"]


@pytest.mark.parametrize("owner, value", [("centred", 1), ("on_roll", 64), ("opponent", 2)])
def test_exact_bear_off_cube_matches_fraction_recursion(owner, value):
    """A cube of v owned under the BG-8 cap of 64 is the exact recursion's cube of 2 under
    the cap 128 / v (the number of doublings left is what matters)."""
    board, versus = (2, 1, 0, 0, 0, 0), (0, 1, 1, 0, 0, 0)
    advice = cube_advice(STANDARD, Position.from_home_boards(board, versus), value, owner)
    name = {"centred": "centred", "on_roll": "owned", "opponent": "opponent_owned"}[owner]
    exact = exact_equities(board, versus, max_cube=64 if owner == "centred" else 128 // value)
    assert advice["method"] == "exact cubeful bear-off" and advice["source"] == "exact"
    assert advice["no_double"] == pytest.approx(float(exact["no_double"][name]), abs=1e-12)
    assert advice["equity"] == pytest.approx(float(exact["optimal"][name]), abs=1e-12)
    assert advice["action"] == exact["action"][name]
    assert advice["may_double"] == (owner != "opponent" and value < 64)
    if not advice["may_double"]:
        assert advice["double_take"] is None and advice["action"] == "no double"


def test_janowski_is_gnubg_zero_ply_on_gnubg_own_probabilities():
    """Fed GNU Backgammon 1.07's own 0-ply probabilities, dicemath's Janowski step gives its
    0-ply no-double and double/take equities (float32 precision): the same method."""
    checked = 0
    for case in _cases():
        position = Position.from_position_id(case["position_id"])
        if position.is_bear_off():
            continue
        state = (case["cube_value"], case["cube_owner"])
        x = efficiency(np.array(position.on_roll), np.array(position.opponent))
        values = janowski_states(np.array([case["probabilities_0ply"]]), x, [state, (2 * state[0], "opponent")])[0]
        assert values[0] == pytest.approx(case["ply0"]["no_double"], abs=2e-6), case["position_id"]
        assert 2 * values[1] == pytest.approx(case["ply0"]["double_take"], abs=4e-6), case["position_id"]
        checked += 1
    assert checked >= 500


@needs_gnubg
def test_zero_ply_actions_agree_with_gnubg():
    """At 0 ply dicemath's action equals GNU Backgammon's on at least 98% of 600 recorded
    self-play positions; every disagreement is a tie or sits on a threshold within the
    difference of the two nets (gnubg 1.07 vs the gnubg package)."""
    found = compare_cube(_cases(), 0)
    assert found["cases"] >= 500 and found["agreement"] >= 0.98
    assert found["classes"]["other"] == 0
    assert found["no_double"]["mean_abs"] < 0.005


@needs_gnubg
@pytest.mark.slow
def test_two_ply_actions_agree_with_gnubg():
    found = compare_cube(_cases(), 2)
    assert found["agreement"] >= 0.95 and found["classes"]["other"] == 0


@needs_gnubg
def test_look_ahead_advice_for_a_contact_position():
    advice = cube_advice(STANDARD, Position.initial(), ply=1)
    assert advice["method"] == "1-ply cubeful look-ahead" and advice["source"] == "gnubg-1ply"
    assert advice["action"] == "no double" and advice["double_take"] < advice["no_double"] < 0.2
    assert advice["efficiency"] == 0.68


def test_gnubg_codes_cover_every_decision_without_beavers():
    assert set(GNUBG_ACTIONS.values()) == {"no double", "double/take", "double/pass", "too good"}


@pytest.mark.parametrize("value, owner", [(3, "on_roll"), (128, "on_roll"), (2, "centred"), (1, "on_roll"),
                                          (2, "nobody")])
def test_bad_cube(value, owner):
    with pytest.raises(InvalidStateError):
        cube_advice(STANDARD, Position.from_home_boards((1, 0, 0, 0, 0, 0), (0, 1, 0, 0, 0, 0)), value, owner)


def test_finished_game_has_no_cube_decision():
    with pytest.raises(InvalidStateError, match="over"):
        cube_advice(STANDARD, Position((0,) * 25, (0,) * 5 + (15,) + (0,) * 19))


def test_cli_position_id_form(capsys):
    assert main(["backgammon", "cube", "AgAAGAAAAAAAAA", "--json"]) == 0   # (0,2,0..) vs (0,1,0..)
    result = json.loads(capsys.readouterr().out)
    for key in ("no_double", "double_take", "double_pass", "action", "source", "ply", "cube_value",
                "cube_owner", "method", "equity", "probabilities"):
        assert key in result
    assert result["action"] == "double/take" and result["double_take"] == pytest.approx(8 / 9)


@pytest.mark.parametrize("argv", [["backgammon", "cube", "notAnId"], ["backgammon", "cube", "4HPwATDgc/ABMA",
                                  "--cube-value", "3", "--cube-owner", "on_roll"],
                                  ["backgammon", "cube", "4HPwATDgc/ABMA", "--ply", "9"]])
def test_cli_bad_input_exits_2(argv, capsys):
    assert main(argv) == 2
    assert "error" in capsys.readouterr().err


def test_efficiency_by_position_class():
    """gnubg's values: contact 0.68; bear-off 0.6; race 0.55 + 0.00125 * pips in [0.6, 0.7]."""
    contact = Position.initial()
    bear_off = Position.from_home_boards((3, 3, 3, 2, 2, 2), (2, 2, 3, 3, 3, 2))
    race = Position((0,) * 6 + (2, 1) + (0,) * 17, (0,) * 6 + (2,) + (0,) * 18)  # 22 pips: at the minimum
    long_race = Position((0,) * 11 + (8,) + (0,) * 13, (0,) * 5 + (1,) + (0,) * 19)  # 8 on 12: 96 pips
    rows = [(contact, 0.68), (bear_off, 0.6), (race, 0.6), (long_race, 0.55 + 0.00125 * 96)]
    for position, expected in rows:
        assert efficiency(np.array(position.on_roll), np.array(position.opponent))[0] == pytest.approx(expected)


def test_a_cube_at_64_is_dead():
    probabilities = np.array([[0.7, 0.2, 0.01, 0.05, 0.0]])
    values = janowski_states(probabilities, np.array([0.68]), [(64, "on_roll"), (64, "opponent")])[0]
    dead = 2 * 0.7 - 1 + 0.2 + 0.01 - 0.05
    assert values == pytest.approx([dead, dead])
