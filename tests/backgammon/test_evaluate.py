"""``dicemath.games.backgammon.evaluate``: sources, agreement where they overlap, errors."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from dicemath.core.errors import DicemathError, InvalidStateError
from dicemath.games.backgammon import bearoff as bo
from dicemath.games.backgammon import gnubg_engine
from dicemath.games.backgammon.evaluate import _look_ahead, cubeless_equity, evaluate, evaluate_many
from dicemath.games.backgammon.position import Position
from dicemath.games.backgammon.rules import PLAYTIVE, STANDARD

DATA = Path(__file__).resolve().parent / "data"
needs_gnubg = pytest.mark.skipif(not gnubg_engine.available(), reason="the gnubg package is not installed")


def _sampled(count: int) -> list[Position]:
    positions = json.loads((DATA / "selfplay_positions.json").read_text())["positions"]
    return [Position.from_position_id(p["position_id"]) for p in positions[:count]]


def test_exact_source_is_the_two_sided_table():
    position = Position.from_home_boards((3, 0, 0, 0, 0, 0), (0, 1, 1, 0, 0, 0))
    result = evaluate(STANDARD, position)
    assert result.source == "exact" and result.ply == 0
    assert result.win == pytest.approx(bo.win_probability(STANDARD, (3, 0, 0, 0, 0, 0), (0, 1, 1, 0, 0, 0)), abs=1e-15)
    assert result.win_gammon == result.lose_gammon == 0.0
    assert result.equity == pytest.approx(2 * result.win - 1)


def test_finished_games_are_exact_bg7_results():
    # The player on roll lost with all 15 checkers left, one in the winner's home: backgammon.
    lost = Position((0,) * 20 + (14, 0, 0, 1, 0), (0,) * 25)
    result = evaluate(STANDARD, lost)
    assert result.source == "exact"
    assert (result.win, result.lose_gammon, result.lose_backgammon) == (0.0, 1.0, 1.0)
    assert result.equity == -3.0


def test_race_model_gammons_by_hand():
    """15 checkers on the 1-point against one checker on the 1-point: the player on roll
    cannot finish in one roll and the opponent then finishes at once (win 0), but his first
    roll takes checkers off, so he is never gammoned."""
    position = Position.from_home_boards((15, 0, 0, 0, 0, 0), (1, 0, 0, 0, 0, 0))
    result = evaluate(STANDARD, position)
    assert result.source == "race"
    assert result.win == pytest.approx(0.0, abs=1e-12)
    assert result.lose_gammon == pytest.approx(0.0, abs=1e-12)
    # Reversed: he has one checker on the 6-point, the opponent 15 on the 1-point:
    # he wins at once with 27/36 (a gammon, the opponent has borne off nothing).
    other = evaluate(STANDARD, Position.from_home_boards((0, 0, 0, 0, 0, 1), (15, 0, 0, 0, 0, 0)))
    assert other.win_gammon == pytest.approx(27 / 36, abs=1e-12)


def test_race_model_equals_exact_table_within_the_one_sided_error():
    """Where both exist (8 checkers a side) the race model is the one-sided approximation:
    within 0.05 of the exact table (race.approximation_error measures it exactly)."""
    rng = np.random.default_rng(3)
    boards = bo.positions_up_to(8)
    boards = boards[boards.sum(axis=1) > 0]
    x, y = boards[rng.integers(len(boards), size=300)], boards[rng.integers(len(boards), size=300)]
    on_roll, opponent = np.zeros((300, 25), int), np.zeros((300, 25), int)
    on_roll[:, :6], opponent[:, :6] = x, y
    exact, kinds = evaluate_many(STANDARD, on_roll, opponent)
    race, _ = evaluate_many(STANDARD, on_roll, opponent, kinds=np.ones(300, int))
    assert (kinds == 0).all()
    assert np.abs(exact[:, 0] - race[:, 0]).max() < 0.05


@needs_gnubg
def test_gnubg_source_is_gnubg_evaluate_with_the_board_the_right_way_round():
    import gnubg

    for position in _sampled(40):
        if evaluate(STANDARD, position).source != "gnubg-0ply":
            continue
        theirs = gnubg.evaluate(gnubg.position_from_id(position.position_id()), gnubg_engine.money_cube_info(),
                                gnubg.eval_context(0, 0))
        assert evaluate(STANDARD, position).probabilities() == pytest.approx(theirs[:5], abs=1e-12)
        assert evaluate(STANDARD, position).equity == pytest.approx(theirs[5], abs=2e-6)


@needs_gnubg
def test_gnubg_bear_off_evaluation_against_the_exact_tables():
    """gnubg answers bear-offs from its own databases (not its nets): the two-sided 6x6
    one (16-bit, within 5e-5) and a one-sided approximation beyond (measured up to 0.008
    for 7-8 checkers a side)."""
    rng = np.random.default_rng(1)
    boards = bo.positions_up_to(8)
    for low, high, tolerance in ((1, 6, 1e-4), (7, 8, 0.02)):
        pool = boards[(boards.sum(axis=1) >= low) & (boards.sum(axis=1) <= high)]
        on_roll, opponent = np.zeros((400, 25), int), np.zeros((400, 25), int)
        on_roll[:, :6] = pool[rng.integers(len(pool), size=400)]
        opponent[:, :6] = pool[rng.integers(len(pool), size=400)]
        exact, _ = evaluate_many(STANDARD, on_roll, opponent)
        nets, _ = evaluate_many(STANDARD, on_roll, opponent, kinds=np.full(400, 2))
        assert np.abs(exact[:, 0] - nets[:, 0]).max() < tolerance


@needs_gnubg
def test_look_ahead_with_standard_plays_is_gnubg_one_ply():
    """dicemath's look-ahead (used under playtive) with the standard rules reproduces gnubg's
    own 1-ply evaluation: same method, dicemath's move generator."""
    checked = 0
    for position in _sampled(60):
        if evaluate(STANDARD, position).source != "gnubg-0ply":
            continue
        mine = _look_ahead(np.array(position.on_roll), np.array(position.opponent), STANDARD, 1)
        theirs = evaluate(STANDARD, position, 1)
        assert mine == pytest.approx(theirs.probabilities(), abs=2e-4), position.position_id()
        checked += 1
    assert checked >= 30


@needs_gnubg
def test_playtive_two_ply_uses_only_bg4_plays():
    """At the start no play breaks BG-4 one roll deep, but the opening 6-5 (24/13) does:
    the playtive 1-ply value differs from the standard one exactly through such rolls."""
    start = Position.initial()
    standard, playtive = evaluate(STANDARD, start, 1), evaluate(PLAYTIVE, start, 1)
    assert playtive.source == "gnubg-1ply"
    assert standard.equity != pytest.approx(playtive.equity, abs=1e-6)


def test_missing_gnubg_raises_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "gnubg", None)          # import gnubg now fails
    gnubg_engine._import.cache_clear()
    try:
        with pytest.raises(gnubg_engine.GnubgUnavailableError, match=r"pip install 'dicemath\[gnubg\]'"):
            evaluate(STANDARD, Position.initial())
        assert issubclass(gnubg_engine.GnubgUnavailableError, DicemathError)
        assert evaluate(STANDARD, Position.from_home_boards((1, 0, 0, 0, 0, 0), (0, 1, 0, 0, 0, 0))).source == "exact"
        from dicemath.games.backgammon.hint import hint

        monkeypatch.setattr("dicemath.games.backgammon.hint.legal_moves", None)  # said before any play is made
        with pytest.raises(gnubg_engine.GnubgUnavailableError, match="contact"):
            hint(STANDARD, Position.initial(), (6, 5))
    finally:
        gnubg_engine._import.cache_clear()


@pytest.mark.parametrize("kwargs", [{"ply": 4}, {"ply": -1}, {"ply": 1.5}, {"source": "oracle"}])
def test_bad_ply_or_source(kwargs):
    with pytest.raises(InvalidStateError):
        evaluate(STANDARD, Position.from_home_boards((1, 0, 0, 0, 0, 0), (0, 1, 0, 0, 0, 0)), **kwargs)


def test_a_source_that_does_not_cover_the_position():
    with pytest.raises(InvalidStateError, match="does not cover"):
        evaluate(STANDARD, Position.initial(), source="exact")


def test_equity_helper():
    assert cubeless_equity(np.array([0.5, 0.2, 0.1, 0.1, 0.05])) == pytest.approx(0.15)
