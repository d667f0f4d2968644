"""Cross-checks against GNU Backgammon: checked-in cases always, live gnubg when installed."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from dicemath.core.dice import TWO_DICE_ROLLS
from dicemath.games.backgammon import bearoff as bo
from dicemath.games.backgammon.moves import apply_notation, legal_moves
from dicemath.games.backgammon.position import Position
from dicemath.games.backgammon.rules import STANDARD

from .gnubg_driver import gnubg_moves, tool
from .strategies import random_position

DATA = Path(__file__).resolve().parent / "data"
needs_gnubg = pytest.mark.skipif(tool("gnubg") is None, reason="GNU Backgammon not installed")


def _compare_moves(case) -> None:
    position = Position.from_position_id(case["position_id"])
    mine = {m.after for m in legal_moves(STANDARD, position, case["dice"])}
    theirs = {apply_notation(position, text) for text in case["moves"]} or {position}
    assert mine == theirs, (case["position_id"], case["dice"],
                            sorted(str(m) for m in legal_moves(STANDARD, position, case["dice"])), case["moves"])


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
    table = bo.two_sided_table(STANDARD, 6)
    cases = json.loads((DATA / "gnubg_two_sided.json").read_text())["cases"]
    assert len(cases) >= 1000
    for case in cases:
        position = Position.from_position_id(case["position_id"])
        x, y = bo.position_index(position.on_roll[:6]), bo.position_index(position.opponent[:6])
        assert abs(table[x, y] - (case["cubeless_equity"] + 1) / 2) < 1e-4, case


@pytest.mark.gnubg
@pytest.mark.slow
@pytest.mark.skipif(tool("makebearoff") is None, reason="GNU Backgammon's makebearoff not installed")
def test_whole_one_sided_database_against_makebearoff(tmp_path):
    """All 54,263 non-empty boards against gnubg's file (read directly: 1/65535 steps; the
    fast form is :func:`test_one_sided_table_matches_gnubg_database` on recorded boards).

    Measured (gnubg 1.07.001): means within 2e-4 everywhere, gammon distributions of the
    15-checker boards within 3e-5; the bear-off distributions of 220 boards differ by more
    than 1e-4, at most 2.8e-3 for (1,0,4,1,3,0). There rolls 5-2 and 6-2 each have two plays
    whose expected rolls differ by only 3.8e-5; gnubg, working from its rounded entries,
    takes the other play for both, and with those two choices our distribution matches its
    one within 3e-5. Such near-ties explain the other differences too."""
    import subprocess

    from .gnubg_driver import gnubg_bearoff_boards, read_one_sided_database

    database = tmp_path / "os6.bd"
    subprocess.run([tool("makebearoff"), "-o", "6", "-f", str(database)], check=True, capture_output=True)
    dist, gammon = read_one_sided_database(database)
    boards = np.array(gnubg_bearoff_boards())
    ours = bo.indices_of(boards)
    table = bo.one_sided_table()
    rolls = np.arange(bo.DISTRIBUTION_LENGTH)
    assert np.abs(dist @ rolls - table.mean[ours]).max() < 2.5e-4
    full = boards.sum(axis=1) == 15
    assert np.abs(gammon[full] - table.gammon_distribution[ours[full]]).max() < 5e-5
    gaps = np.abs(dist - table.distribution[ours]).max(axis=1)
    assert (gaps > 1e-4).sum() < 300 and gaps.max() < 3e-3

    # the worst board, replayed with gnubg's choices on its two near-tied rolls
    worst = bo.position_index((1, 0, 4, 1, 3, 0))
    moves = bo.move_table()
    replay = np.zeros(bo.DISTRIBUTION_LENGTH)
    for r, roll in enumerate(TWO_DICE_ROLLS):
        plays = moves.successors(worst, r)
        ranked = plays[np.argsort(table.mean[plays], kind="stable")]
        if roll in ((5, 2), (6, 2)):
            assert table.mean[ranked[1]] - table.mean[ranked[0]] < 1e-4
            ranked = ranked[1:]
        replay[1:] += bo.ROLL_PROBABILITIES[r] * table.distribution[ranked[0]][:-1]
    theirs = dist[list(map(tuple, boards)).index((1, 0, 4, 1, 3, 0))]
    assert np.abs(theirs - table.distribution[worst]).max() > 2e-3
    assert np.abs(theirs - replay).max() < 5e-5


@pytest.mark.gnubg
@pytest.mark.slow
@pytest.mark.skipif(tool("makebearoff") is None, reason="GNU Backgammon's makebearoff not installed")
def test_whole_two_sided_database_against_makebearoff(tmp_path):
    """All 853,776 pairs of ``makebearoff -t 6x6`` (a 40-byte header, then per pair four
    uint16 words, cubeless equity first, equity = u / 32767.5 - 1; ~20 s CPU). Measured:
    max difference 5.7e-5 in P(win)."""
    import subprocess

    from .gnubg_driver import gnubg_bearoff_boards

    database = tmp_path / "ts6.bd"
    subprocess.run([tool("makebearoff"), "-t", "6x6", "-f", str(database)], check=True, capture_output=True)
    raw = np.fromfile(database, dtype="<u2", offset=40).reshape(924, 924, 4)
    theirs = raw[:, :, 0] / 65535.0
    ours = bo.indices_of(np.array(gnubg_bearoff_boards()[:924]))
    table = bo.two_sided_table(STANDARD, 6)[np.ix_(ours, ours)]
    assert np.abs(table - theirs)[1:, 1:].max() < 1e-4


@pytest.mark.gnubg
@pytest.mark.slow
@pytest.mark.skipif(tool("makebearoff") is None, reason="GNU Backgammon's makebearoff not installed")
def test_bearoff_database_against_makebearoff_six_by_eight(tmp_path):
    """The 6x8 database against ``makebearoff -t 6x8 -C`` (cubeless only: a 40-byte header,
    then one uint16 per pair, P(on roll wins) = u / 65535, pairs in gnubg's order; several
    minutes of CPU: 380 s measured). gnubg computes from its own rounded 16-bit entries, so
    its values drift by a few of its steps (1.5e-5): measured at most 7.2e-5, for 8 checkers
    on the 5-point on roll against 8 on the 6-point (0.806786 here, 0.806714 in gnubg)."""
    import subprocess

    from dicemath.games.backgammon import bearoff_database as db
    from dicemath.games.backgammon.cubeful_bearoff import gnubg_index

    database_file = tmp_path / "ts68.bd"
    subprocess.run([tool("makebearoff"), "-t", "6x8", "-C", "-f", str(database_file)], check=True,
                   capture_output=True)
    assert database_file.read_bytes()[:16] == b"gnubg-TS-06-08-0"
    count = bo.positions_count(8)
    theirs = np.fromfile(database_file, dtype="<u2", offset=40).reshape(count, count) / 65535.0
    db.build_database(8, tmp_path, show_progress=False)
    rank = db._axes(8, db.MAX_CHECKERS)[0].rank[:count]
    ours = np.asarray(db.open_database(8, tmp_path).tables[db.WIN])[np.ix_(rank, rank)].T / db.SCALE
    order = np.array([gnubg_index(b, 6, 8) for b in bo.positions_up_to(8)])
    gap = np.abs(ours - theirs[np.ix_(order, order)])[1:, 1:]
    assert gap.max() < 1e-4
