"""Cross-checks against GNU Backgammon: checked-in cases always, live gnubg when installed."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from dicemath.games.backgammon import bearoff as bo
from dicemath.games.backgammon.moves import apply_notation, legal_moves
from dicemath.games.backgammon.position import Position

from .gnubg_driver import gnubg_moves, tool
from .strategies import random_position

DATA = Path(__file__).resolve().parent / "data"
needs_gnubg = pytest.mark.skipif(tool("gnubg") is None, reason="GNU Backgammon not installed")


def _compare_moves(case) -> None:
    position = Position.from_position_id(case["position_id"])
    mine = {m.after for m in legal_moves(position, case["dice"])}
    theirs = {apply_notation(position, text) for text in case["moves"]} or {position}
    assert mine == theirs, (case["position_id"], case["dice"], sorted(str(m) for m in legal_moves(position, case["dice"])),
                            case["moves"])


def test_move_lists_match_checked_in_gnubg_cases():
    cases = json.loads((DATA / "gnubg_moves.json").read_text())["cases"]
    assert len(cases) >= 300
    for case in cases:
        _compare_moves(case)


@pytest.mark.gnubg
@needs_gnubg
def test_move_lists_match_live_gnubg():
    rng = random.Random(99)
    cases = []
    while len(cases) < 60:
        position = random_position(rng)
        if not position.is_over():
            cases.append({"position_id": position.position_id(), "dice": [rng.randint(1, 6), rng.randint(1, 6)]})
    for case in gnubg_moves(cases):
        _compare_moves(case)
