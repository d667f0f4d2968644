"""The Pig rules engine: the vocabulary, hand-checked moves, text round trips, bad input."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dicemath.core.errors import (
    DicemathError,
    IllegalMoveError,
    InvalidRulesError,
    InvalidStateError,
)
from dicemath.core.game import CHANCE, TERMINAL, GameState, check_random_play
from dicemath.games.pig import STANDARD, Rules, State, initial_state


def _invariant(state: State) -> None:
    goal = state.rules.goal
    assert sum(s >= goal for s in state.scores) <= 1
    assert state.turn_total != 1 and 1 not in state.scores
    assert State.from_str(str(state)) == state
    if state.current_player() >= 0:
        assert state.legal_actions() == (("roll",) if state.turn_total == 0 else ("hold", "roll"))


def test_protocol_and_random_play():
    for rules in (STANDARD, Rules(goal=20), Rules(goal=1)):
        start = initial_state(rules)
        assert isinstance(start, GameState)
        assert check_random_play(start, games=15, seed=2, invariant=_invariant) > 15


def test_a_turn_by_hand():
    state = initial_state()
    assert state.current_player() == 0 and state.legal_actions() == ("roll",)     # PIG-2
    rolling = state.apply("roll")
    assert rolling.current_player() == CHANCE and rolling.legal_actions() == ()
    assert [(f, str(p)) for f, p in rolling.chance_outcomes()] == [(f, "1/6") for f in range(1, 7)]
    state = rolling.apply(6).apply("roll").apply(4)                               # PIG-4
    assert str(state) == "0:0-0 t10 choose"
    assert str(state.apply("roll").apply(1)) == "1:0-0 t0 choose"                 # PIG-3: the 10 are lost
    held = state.apply("hold")                                                    # PIG-5
    assert held.scores == (10, 0) and held.to_move == 1 and held.turn_total == 0


def test_a_hold_that_reaches_the_goal_wins():
    state = State.from_str("1:40-96 t4 choose")
    assert state.apply("hold").current_player() == TERMINAL                       # PIG-6
    over = state.apply("hold")
    assert str(over) == "1:40-100 t0 won" and over.winner() == 1 and over.returns() == (0.0, 1.0)
    # reaching the goal is not enough: the turn total is banked only by a hold
    assert state.apply("roll").apply(3).current_player() == 1


@given(st.integers(0, 1), st.integers(0, 99), st.integers(0, 99), st.integers(0, 150),
       st.sampled_from(["choose", "rolling"]), st.sampled_from([None, 100, 120]))
def test_text_round_trip(mover, first, second, turn, phase, goal):
    if 1 in (first, second, turn) or (goal == 120 and max(first, second) >= 120):
        return
    text = f"{mover}:{first}-{second} t{turn} {phase}" + (f" goal {goal}" if goal else "")
    state = State.from_str(text)
    assert State.from_str(str(state)) == state
    assert str(state) == text.replace(" goal 100", "")
    for action in state.legal_actions():
        assert state.parse_action(state.action_text(action)) == action
    for face, _ in state.chance_outcomes():
        assert state.parse_action(state.action_text(face)) == face


@given(st.integers(0, 1), st.integers(2, 99), st.integers(0, 99))
def test_finished_games_round_trip(winner, margin, loser):
    scores = [loser if loser != 1 else 0] * 2
    scores[winner] = 100 + margin
    state = State(STANDARD, tuple(scores), winner)
    assert State.from_str(str(state)) == state and state.winner() == winner


@pytest.mark.parametrize("text", ["", "0:0-0", "2:0-0 t0 choose", "0:0-0 t0 hold", "0:1-0 t0 choose",
                                  "0:0-0 t1 choose", "0:100-0 t0 choose", "1:100-0 t0 won", "0:100-100 t0 won",
                                  "0:100-0 t5 won", "0:10-0 t0 won", "0:10-0 t0 choose goal 0",
                                  "0:10-0 t0 choose goal 500", "0:60-0 t0 choose goal 50"])
def test_bad_text_is_refused(text):
    with pytest.raises(InvalidStateError):
        State.from_str(text)


def test_bad_rules_and_goal_mismatch():
    for goal in (0, -5, 201, 10.0, True, "100"):
        with pytest.raises(InvalidRulesError):
            Rules(goal=goal)
    with pytest.raises(InvalidStateError, match="names goal 50"):
        State.from_str("0:10-0 t0 choose goal 50", rules=STANDARD)


def test_illegal_actions():
    start = initial_state()
    for state, action in ((start, "hold"), (start, 3), (start.apply("roll"), "roll"), (start.apply("roll"), 7),
                          (start.apply("roll"), True), (State.from_str("0:100-0 t0 won"), "roll")):
        with pytest.raises(IllegalMoveError):
            state.apply(action)
    with pytest.raises(IllegalMoveError, match="expected 'roll', 'hold' or a face"):
        start.parse_action("pass")
    assert issubclass(IllegalMoveError, DicemathError)


def test_diagram_and_svg():
    state = State.from_str("0:35-62 t12 rolling")
    assert "die is rolling" in state.diagram()
    assert state._repr_svg_().startswith("<svg")
