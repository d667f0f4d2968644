"""The money game as states (``dicemath.games.backgammon.state``) and :func:`advise`: the
opening, the cube's flow, the end of a game, text forms, and the whole cubeful game of
small bear-offs searched by the core's expectimax against the exact cubeful solver."""

from __future__ import annotations

from fractions import Fraction

import pytest

from dicemath.core.errors import IllegalMoveError, InvalidDiceError, InvalidStateError
from dicemath.core.game import CHANCE, TERMINAL
from dicemath.core.search import action_values, expectimax
from dicemath.games.backgammon import advise
from dicemath.games.backgammon.bearoff import win_probability
from dicemath.games.backgammon.cubeful_bearoff import exact_equities
from dicemath.games.backgammon.position import Position
from dicemath.games.backgammon.rules import PLAYTIVE, STANDARD
from dicemath.games.backgammon.state import (DOUBLED, MAY_DOUBLE, OVER, PASSED, PLAY, ROLL, State,
                                             initial_state)


def _bear_off(board, versus, phase=MAY_DOUBLE, cube_value=1, cube_owner=None, player=0) -> State:
    return State(Position.from_home_boards(board, versus, player), STANDARD, phase, None, cube_value, cube_owner)


def test_opening_throw():
    start = initial_state(PLAYTIVE)
    outcomes = start.chance_outcomes()
    assert start.current_player() == CHANCE and len(outcomes) == 30
    assert sum(p for _, p in outcomes) == 1 and {p for _, p in outcomes} == {Fraction(1, 30)}
    x_starts, o_starts = start.apply((6, 5)), start.apply((2, 4))
    assert (x_starts.current_player(), x_starts.dice, x_starts.phase) == (0, (6, 5), PLAY)
    assert (o_starts.current_player(), o_starts.dice, o_starts.rules) == (1, (4, 2), PLAYTIVE)
    with pytest.raises(InvalidDiceError):
        start.apply((3, 3))                     # BG-2: equal dice are thrown again


def test_the_cube_changes_hands():
    state = _bear_off((0, 0, 2, 0, 0, 0), (0, 0, 0, 2, 0, 0))
    assert state.current_player() == 0 and state.legal_actions() == ["double", "roll"]
    doubled = state.apply("double")
    assert doubled.phase == DOUBLED and doubled.current_player() == 1
    assert doubled.legal_actions() == ["pass", "take"]
    passed = doubled.apply("pass")
    assert passed.phase == PASSED and passed.current_player() == TERMINAL and passed.returns() == [1, -1]
    taken = doubled.apply("take")
    assert (taken.phase, taken.cube_value, taken.cube_owner, taken.current_player()) == (ROLL, 2, 1, CHANCE)
    # X rolls and plays; O, who owns the cube, may redouble before his roll.
    played = taken.apply((2, 1))
    after = played.apply(played.legal_actions()[0])
    assert after.phase == MAY_DOUBLE and after.current_player() == 1
    # X owning a cube of 64 cannot turn it again (BG-8): straight to the roll.
    assert _bear_off((0, 0, 2, 0, 0, 0), (0, 0, 0, 2, 0, 0), ROLL, 64, 0).current_player() == CHANCE
    with pytest.raises(InvalidStateError):
        _bear_off((0, 0, 2, 0, 0, 0), (0, 0, 0, 2, 0, 0), MAY_DOUBLE, 64, 0)


def test_the_last_checker_scores_the_cube():
    """X bears off his last checker while O has all 15 on his 6-point: a gammon, times the cube."""
    state = State(Position.from_home_boards((0, 1, 0, 0, 0, 0), (0, 0, 0, 0, 0, 15)), STANDARD, PLAY, (6, 5), 4, 1)
    [move] = state.legal_actions()
    end = state.apply(move)
    assert end.phase == OVER and end.current_player() == TERMINAL and end.returns() == [8, -8]
    with pytest.raises(IllegalMoveError, match="over"):
        end.apply("roll")


def test_text_forms():
    for text in ("4HPwATDgc/ABMA X opening cube 1", "4HPwATDgc/ABMA O play 6-5 cube 1 playtive",
                 "AgAAGAAAAAAAAA X may-double cube 1", "AgAAGAAAAAAAAA O doubled cube 4O",
                 "AgAAGAAAAAAAAA X roll cube 64X", "AgAAGAAAAAAAAA O passed cube 2X",
                 "4HPwATDgc/ABMA X opening cube none"):
        assert str(State.from_str(text)) == text
    state = State.from_str("4HPwATDgc/ABMA O play 6-5 cube 1")
    assert state.parse_action("24/13") == state.parse_action("24/18 18/13") != state.parse_action("24/18 13/8")
    assert state.action_text(state.parse_action("24/13")) == "24/18 18/13"
    with pytest.raises(IllegalMoveError):
        state.parse_action("bar/20")


def test_a_cubeless_game_has_no_cube_decisions():
    """Without the cube a game goes roll, play, roll, ... from the opening on; the core's
    expectimax is then the cubeless equity of the exact two-sided table (2p - 1: no gammon
    once both sides bear off)."""
    opened = initial_state(cube=False).apply((6, 5))
    played = opened.apply(opened.parse_action("24/13"))
    assert (played.phase, played.cube_value, played.current_player()) == (ROLL, None, CHANCE)
    board, versus = (2, 1, 0, 0, 0, 0), (0, 1, 1, 0, 0, 0)
    state = State(Position.from_home_boards(board, versus), STANDARD, ROLL, cube_value=None)
    assert float(expectimax(state)[0]) == pytest.approx(2 * win_probability(STANDARD, board, versus) - 1, abs=1e-12)
    with pytest.raises(InvalidStateError, match="may not double"):
        State(state.position, STANDARD, MAY_DOUBLE, cube_value=None)
    with pytest.raises(InvalidStateError, match="no cube owner"):
        State(state.position, STANDARD, ROLL, cube_value=None, cube_owner=0)


def test_expectimax_of_the_cubeful_game_is_the_exact_cubeful_equity():
    """The core's expectimax over these states (checker plays, rolls, doubles, takes and
    passes, the cube capped at 64) gives the exact cubeful equity of the bear-off solver."""
    board, versus = (2, 1, 0, 0, 0, 0), (0, 1, 1, 0, 0, 0)
    exact = exact_equities(board, versus, max_cube=64)
    memo = {}
    assert expectimax(_bear_off(board, versus), memo=memo)[0] == exact["optimal"]["centred"]
    assert expectimax(_bear_off(board, versus, ROLL, 2, 1), memo=memo)[0] == 2 * exact["no_double"]["opponent_owned"]
    values = action_values(_bear_off(board, versus), memo=memo)
    best = max(values, key=lambda action: values[action][0])
    assert best == ("double" if exact["action"]["centred"].startswith("double") else "roll")


def test_advise_ranks_the_cube_actions_by_the_exact_tables():
    board, versus = (2, 1, 0, 0, 0, 0), (0, 1, 1, 0, 0, 0)
    exact = exact_equities(board, versus, max_cube=64)
    state = _bear_off(board, versus)
    roll = advise(state).option("roll")
    assert roll.value == pytest.approx(float(exact["no_double"]["centred"]), abs=1e-12)
    answers = advise(state.apply("double"))
    assert {a.text for a in answers.options} == {"take", "pass"}
    assert answers.options[0].value >= answers.options[1].value
    assert answers.exact and [a.extras["source"] for a in answers.options] == ["exact", "exact"]
    plays = advise(state.apply("roll").apply((2, 1)))
    assert plays.best.value == max(p.value for p in plays.options)
    assert {p.action for p in plays.options} == set(state.apply("roll").apply((2, 1)).legal_actions())
    with pytest.raises(InvalidStateError):
        advise(state.apply("roll"))
