"""GNU Backgammon Position IDs, XGID position fields and the diagram."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicemath.core.errors import InvalidStateError
from dicemath.games.backgammon.position import diagram
from dicemath.games.backgammon.position import Position
from dicemath.games.backgammon.position import (decode_position_id, encode_position_id, position_from_xgid,
                                                   position_key, xgid_position_field)

from .gnubg_driver import tool
from .strategies import random_position

positions = st.integers(0, 2**32).map(lambda seed: random_position(random.Random(seed)))


def test_published_starting_position():
    # GNU Backgammon manual (Position ID section): the starting position is 4HPwATDgc/ABMA
    assert encode_position_id(Position.initial()) == "4HPwATDgc/ABMA"
    # eXtreme Gammon's XGID of the starting position, X on roll
    assert xgid_position_field(Position.initial()) == "-b----E-C---eE---c-e----B-"


def test_bit_layout_by_hand():
    # opponent (not on roll) first: one checker on its 1-point -> bits "1 0" then 24 zeros;
    # then the player on roll: 2 on its 6-point -> 5 zeros, "1 1 0": bits 31 and 32 set
    position = Position((0, 0, 0, 0, 0, 2) + (0,) * 19, (1,) + (0,) * 24)
    key = position_key(position)
    assert key == bytes([0x01, 0, 0, 0x80, 0x01, 0, 0, 0, 0, 0])
    assert encode_position_id(position) == "AQAAgAEAAAAAAA"  # what gnubg 1.07 writes for it


@settings(max_examples=200, deadline=None)
@given(positions)
def test_round_trips(position):
    assert decode_position_id(encode_position_id(position), position.player) == position
    assert position_from_xgid(xgid_position_field(position), position.player) == position
    turn = "1" if position.player == 0 else "-1"
    assert position_from_xgid(f"XGID={xgid_position_field(position)}:0:0:{turn}:00:0:0:0:0:10") == position


@pytest.mark.parametrize("bad", ["", "4HPwATDgc/ABM", "4HPwATDgc/ABM!", "////////////////"[:14]])
def test_bad_ids(bad):
    with pytest.raises(InvalidStateError):
        decode_position_id(bad)


def test_bad_xgid():
    with pytest.raises(InvalidStateError):
        position_from_xgid("-b----E-C---eE---c-e----B")
    with pytest.raises(InvalidStateError):
        position_from_xgid("-b----E-C---eE---c-e----B-:0:0:2:00")
    with pytest.raises(InvalidStateError):
        position_from_xgid("Ab----E-C---eE---c-e----B-")


def test_diagram_shows_everything():
    position = Position.from_position_id("AQAAgAEAAAAAAA")
    text = diagram(position)
    assert "X: pips 12, off 13" in text and "O: pips 1, off 14" in text
    assert "AQAAgAEAAAAAAA" in text
    assert position._repr_markdown_().startswith("```")


@pytest.mark.gnubg
@pytest.mark.skipif(tool("gnubg") is None, reason="GNU Backgammon not installed")
def test_gnubg_reads_our_ids_as_we_do():
    from .gnubg_driver import gnubg_moves

    rng = random.Random(5)
    cases = []
    while len(cases) < 30:
        position = random_position(rng)
        if not position.is_over():
            cases.append({"position_id": position.position_id(), "dice": [1, 2]})
    for case in gnubg_moves(cases):
        position = Position.from_position_id(case["position_id"])
        opponent, on_roll = case["board"]
        assert (tuple(on_roll), tuple(opponent)) == (position.on_roll, position.opponent)
