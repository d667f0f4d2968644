"""The rules engine (PIT-4..PIT-8) and the shared random-play check."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicemath.core.errors import IllegalMoveError, InvalidStateError
from dicemath.core.game import CHANCE, TERMINAL, check_random_play
from dicemath.core.errors import InvalidRulesError
from dicemath.games.pitjesbak.rules import Rules
from dicemath.games.pitjesbak.simulate import (
    simulate_game,
    simulate_round,
    step,
    stop_on_rank,
)
from dicemath.games.pitjesbak.state import check_invariants, initial_state


@pytest.mark.parametrize("players", [2, 3, 5, 8])
def test_random_play(players):
    state = initial_state(Rules(players=players))
    assert check_random_play(state, games=8, seed=players, invariant=check_invariants) > 100


def play(state, *actions):
    for action in actions:
        state = state.apply(action)
    return state


def test_limit_set_by_start_player():
    state = play(initial_state(), (2, 3, 4), "throw", (1, 1, 6), "stop")
    assert state.limit == 2 and state.turn == 1 and state.current_player() == CHANCE
    # Follower's second throw is forced (limit 2): no decision offered.
    state = play(state, (2, 3, 5), "throw", (3, 3, 3))
    # zand 3-3-3 beats 1-1-6: seat 1 wipes 2.
    assert state.stripes == (9, 7) and state.wiped == (False, True)
    assert state.start == 1 and state.round_number == 1


def test_start_player_third_throw_counts():
    state = play(initial_state(), (2, 3, 4), "throw", (2, 3, 4), "throw", (4, 5, 6))
    assert state.limit == 3 and state.turn == 1


def test_soixante_neuf_wipes_three_and_penalty():
    state = play(initial_state(), (4, 5, 6), "stop", (2, 2, 3))
    assert state.stripes == (6, 10)


def test_rolloff_wipes_one_and_223_winner_nets_zero():
    state = play(initial_state(), (2, 2, 3), "stop", (2, 2, 3))
    assert state.current_player() == CHANCE and state.rolloff == (0, 1)
    assert [p for _, p in state.chance_outcomes()] == [0.5, 0.5]
    after = state.apply(1)
    # PIT-7: winner wipes 1 and adds 1; the loser adds 1; the winner's flag is set.
    assert after.stripes == (10, 9) and after.wiped == (False, True)
    with pytest.raises(IllegalMoveError):
        state.apply(3)


def test_cannot_win_by_touching_zero_with_223():
    state = initial_state(stripes=(1, 5), wiped=(True, True))
    state = play(state, (2, 2, 3), "stop", (2, 2, 3), 0)
    assert state.winner == -1 and state.stripes == (1, 6)


def test_wipe_to_zero_wins_and_never_below_zero():
    state = play(initial_state(stripes=(2, 9), wiped=(True, False)), (4, 5, 6), "stop", (1, 1, 6))
    assert state.winner == 0 and state.stripes == (0, 9)
    assert state.current_player() == TERMINAL and state.returns() == (1.0, 0.0)


def test_drie_apen_with_flag_wins_at_once():
    state = initial_state(Rules(players=3), stripes=(5, 9, 9), wiped=(True, False, False))
    state = play(state, (1, 1, 1), "stop")
    assert state.winner == 0


def test_drie_apen_forced_on_follower_with_flag():
    state = initial_state(Rules(players=3), stripes=(9, 5, 9), wiped=(False, True, False))
    state = play(state, (1, 1, 6), "stop", (1, 1, 1))   # limit 1: the throw counts
    assert state.winner == 1


def test_drie_apen_without_flag_eliminates():
    rules = Rules(players=3)
    state = play(initial_state(rules), (1, 1, 1), "stop")
    assert state.alive == (False, True, True) and state.limit == 1 and state.winner == -1
    state = play(state, (2, 3, 4), (2, 3, 5))
    assert state.stripes == (9, 9, 8) and state.start == 1 and state.order == (1, 2)
    # Two players eliminated: the last one wins (PIT-8).
    state = play(state, (1, 1, 1), "stop")
    assert state.winner == 2


def test_two_players_elimination_ends_game():
    state = play(initial_state(), (1, 1, 1), "stop")
    assert state.winner == 1


def test_start_rotation_skips_eliminated():
    rules = Rules(players=4)
    state = play(initial_state(rules, start=3), (2, 3, 4), "stop", (1, 1, 1), (2, 3, 5), (2, 3, 6))
    assert state.alive == (False, True, True, True)
    assert state.start == 1 and state.order == (1, 2, 3)


@pytest.mark.parametrize("kwargs", [dict(players=9), dict(players=1), dict(stripes=-1),
                                    dict(stripes=0), dict(die_values="metric")])
def test_invalid_rules_raise(kwargs):
    with pytest.raises(ValueError):
        Rules(**kwargs)
    with pytest.raises((InvalidStateError, InvalidRulesError)):
        Rules(**kwargs)


def test_invalid_states_raise():
    with pytest.raises(InvalidStateError):
        initial_state(stripes=(9, -1))
    with pytest.raises(InvalidStateError):
        initial_state(stripes=(9, 9, 9))
    with pytest.raises(InvalidStateError):
        initial_state(start=2)
    with pytest.raises(ValueError):
        initial_state().apply((1, 2, 3, 4))
    with pytest.raises(IllegalMoveError):
        initial_state().apply((1, 2, 3)).apply("pass")


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 8), seed=st.integers(0, 10_000), rank=st.integers(0, 2000))
def test_stripes_conservation_per_round(players, seed, rank):
    """Per round exactly one player wipes (at most 3) and each 2-2-3 adds one stripe."""
    rules = Rules(players=players)
    record = simulate_round(rules, stop_on_rank(rank), seed=seed)
    before, after = record.start_state, record.end_state
    if after.winner >= 0 and after.last_round_winner == -1 and after.round_number == 0 \
            and after.stripes == before.stripes:
        return  # ended by drie apen / elimination: no stripes change
    penalties = sum(1 for d in record.results if d is not None and sorted(d) == [2, 2, 3])
    change = sum(after.stripes) - sum(before.stripes)
    assert penalties - 3 <= change <= penalties - 1 or after.winner >= 0
    assert 1 <= record.limit <= 3
    assert sum(after.wiped) - sum(before.wiped) in (0, 1)


def test_games_end_and_seeded():
    rules = Rules(players=4)
    first = simulate_game(rules, stop_on_rank(100), seed=11)
    second = simulate_game(rules, stop_on_rank(100), seed=11)
    assert first == second and 0 <= first.winner < 4


def test_step_drives_rolloff():
    state = play(initial_state(), (2, 2, 3), "stop", (2, 2, 3))
    after = step(state, stop_on_rank(0), random.Random(0))
    assert after.round_number == 1


def test_state_speaks_the_core_protocol():
    from dicemath.core.game import GameState
    state = initial_state()
    assert isinstance(state, GameState)
    assert hash(state) == hash(initial_state()) and state == initial_state()
    assert "round 0" in str(state)


def test_text_form_round_trips():
    from dicemath.core.game import random_playout
    from dicemath.games.pitjesbak.state import State
    seen = []
    for players in (2, 4):
        random_playout(initial_state(Rules(players=players, die_values="pips")), random.Random(players),
                       on_state=seen.append)
    assert len(seen) > 50
    for state in seen:
        assert State.from_str(str(state)) == state
    with pytest.raises(InvalidStateError):
        State.from_str("[0:9 1:9] round 0")


def test_apply_reads_action_text_with_parse_action():
    state = initial_state()
    assert state.apply("6-5-4") == state.apply(state.parse_action("6-5-4")) == state.apply((4, 5, 6))
    thrown = state.apply("6-5-4")
    assert thrown.apply("stop") == thrown.apply(" Stop ") and thrown.apply("THROW") == thrown.apply("throw")
    with pytest.raises(IllegalMoveError):
        thrown.apply("hold")


def test_state_copy_equals_dataclasses_replace():
    from dataclasses import replace

    from dicemath.games.pitjesbak.state import _copy
    state = initial_state(Rules(players=3)).apply((4, 5, 6))
    changes = {"turn": 1, "throws": 0, "current": None, "limit": 1}
    copy = _copy(state, **changes)
    assert copy == replace(state, **changes) and hash(copy) == hash(replace(state, **changes))
    assert copy != state and state.current == (4, 5, 6)  # the original is unchanged
