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


def _one_sided_cases():
    return json.loads((DATA / "gnubg_one_sided.json").read_text())["cases"]


def _board_of(case) -> tuple[int, ...]:
    """The one-sided board bearoffdump shows (as the side NOT on roll in its Position ID)."""
    return Position.from_position_id(case["position_id"]).opponent[:6]


def test_one_sided_table_matches_gnubg_database():
    """gnubg stores P(n rolls) in 1/65535 steps built from rounded entries, and bearoffdump
    prints 3 decimals of percent (means 3 decimals): means agree within 6e-4; most
    probabilities within 1e-4. The few larger gaps (up to ~3e-4) come from near-ties: e.g.
    (7,0,4,1,2,1) rolling 4-3 has two plays whose expected rolls differ by 2e-5, and gnubg,
    working from rounded tables, picks the other one (same mean, different distribution)."""
    table = bo.one_sided_table()
    gaps = []
    for case in _one_sided_cases():
        i = bo.position_index(_board_of(case))
        assert abs(table.mean[i] - case["mean"]) < 6e-4, _board_of(case)
        theirs = np.zeros(bo.DISTRIBUTION_LENGTH)
        for n, p in case["distribution"].items():
            theirs[int(n)] = p
        gaps.append(np.abs(theirs - table.distribution[i]).max())
        if sum(_board_of(case)) == 15:
            assert abs(table.gammon_mean[i] - case["gammon_mean"]) < 6e-4
            gammon = np.zeros(bo.DISTRIBUTION_LENGTH)
            for n, p in case["gammon"].items():
                gammon[int(n)] = p
            assert np.abs(gammon - table.gammon_distribution[i]).max() < 1e-4 + 5e-6
    gaps = np.array(gaps)
    assert len(gaps) > 600
    assert gaps.max() < 5e-4
    assert (gaps < 1e-4 + 5e-6).mean() > 0.99


def test_two_sided_table_matches_gnubg_database():
    """gnubg's 6x6 two-sided database (16-bit) agrees with the exact DP within 1e-4."""
    table = bo.two_sided_table(6)
    cases = json.loads((DATA / "gnubg_two_sided.json").read_text())["cases"]
    assert len(cases) >= 1000
    for case in cases:
        position = Position.from_position_id(case["position_id"])
        x, y = bo.position_index(position.on_roll[:6]), bo.position_index(position.opponent[:6])
        assert abs(table[x, y] - (case["cubeless_equity"] + 1) / 2) < 1e-4, case


@pytest.mark.gnubg
@pytest.mark.skipif(tool("makebearoff") is None or tool("bearoffdump") is None,
                    reason="GNU Backgammon's makebearoff/bearoffdump not installed")
def test_one_sided_table_matches_live_makebearoff(tmp_path):
    import subprocess

    from .gnubg_driver import bearoffdump
    from .make_gnubg_cases import parse_one_sided

    database = tmp_path / "os6.bd"
    subprocess.run([tool("makebearoff"), "-o", "6", "-f", str(database)], check=True, capture_output=True)
    table = bo.one_sided_table()
    for index in random.Random(3).sample(range(1, 54264), 40):
        case = parse_one_sided(bearoffdump(database, index))
        assert abs(table.mean_rolls(_board_of(case)) - case["mean"]) < 6e-4
