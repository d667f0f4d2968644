"""The rules engine: conservation, legality of every generated play, known move counts."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicemath.core.errors import IllegalMoveError, InvalidDiceError, InvalidStateError
from dicemath.core.game import check_random_play, check_state_consistency, random_playout
from dicemath.games.backgammon.moves import apply_notation, legal_moves, single_steps
from dicemath.games.backgammon.position import CHECKERS, Position, game_result
from dicemath.games.backgammon.rules import PLAYTIVE, STANDARD
from dicemath.games.backgammon.state import OVER, PLAY, ROLL_ON, State, initial_state

from .strategies import random_position

positions = st.integers(0, 2**32).map(lambda seed: random_position(random.Random(seed)))
dice = st.tuples(st.integers(1, 6), st.integers(1, 6))


def _totals(position: Position) -> tuple[int, int]:
    return sum(position.on_roll) + position.borne_off(), sum(position.opponent) + position.opponent_borne_off()


@settings(max_examples=80, deadline=None)
@given(positions, dice, st.sampled_from([STANDARD, PLAYTIVE]))
def test_checkers_conserved_and_every_play_legal(position, roll, rules):
    moves = legal_moves(rules, position, roll)
    assert moves, "there is always at least the empty play"
    assert len({m.after for m in moves}) == len(moves), "duplicates merged"
    for move in moves:
        assert _totals(move.after) == (CHECKERS, CHECKERS)
        assert move.after.player == position.player
        # replay the steps one die at a time: each must be a legal single step (BG-3..BG-6)
        dice_left = [roll[0]] * 4 if roll[0] == roll[1] else list(roll)
        ok = _steps_replay(position, list(move.steps), dice_left, rules, move.after)
        assert ok, (position.position_id(), roll, str(move))
        if rules.max_per_point is not None:
            assert max(move.after.on_roll[:24]) <= max(rules.max_per_point, max(position.on_roll[:24]))


def _steps_replay(position, steps, dice_left, rules, target) -> bool:
    """Whether the steps can be played in some order, each a legal single step, reaching target."""
    if not steps:
        return position == target
    for i, (source, dest) in enumerate(steps):
        for j, die in enumerate(dice_left):
            for step, after in single_steps(rules, position, die):
                if step == (source, dest):
                    if _steps_replay(after, steps[:i] + steps[i + 1:], dice_left[:j] + dice_left[j + 1:],
                                     rules, target):
                        return True
    return False


@settings(max_examples=60, deadline=None)
@given(positions, dice)
def test_maximal_dice_usage(position, roll):
    """BG-3: no legal play uses fewer dice than another one (unless it ends the game)."""
    moves = legal_moves(STANDARD, position, roll)
    lengths = [len(m.steps) for m in moves if sum(m.after.on_roll) > 0]
    assert len(set(lengths)) <= 1


def test_opening_move_counts():
    # distinct opening plays (also checked against GNU Backgammon in test_gnubg.py)
    counts = {roll: len(legal_moves(STANDARD, Position.initial(), roll)) for roll in [(3, 1), (2, 1)]}
    assert counts == {(3, 1): 16, (2, 1): 15}


def test_bar_entry_first_and_closed_points():
    # X has a checker on the bar; O holds X's entry points 19..24 except the 20 (O's 5-point)
    o = [0] * 25
    for q in (1, 2, 3, 4, 6):
        o[q - 1] = 2
    x = [0] * 25
    x[24] = 1
    x[12] = 14
    position = Position(x, o)
    assert [str(m) for m in legal_moves(STANDARD, position, (5, 3))] == ["bar/20 20/17", "bar/20 13/10"]
    assert all(str(m).startswith("bar/20 ") and len(m.steps) == 4 for m in legal_moves(STANDARD, position, (5, 5)))
    assert [str(m) for m in legal_moves(STANDARD, position, (6, 4))] == ["(no move)"]


def test_larger_die_rule():
    # single X checker on its 8-point; O blocks X's 2-point, so 6 then 5... : 8/2 closed.
    x = [0] * 25
    x[7] = 1
    o = [0] * 25
    o[22] = 2  # O's 23-point = X's 2-point: 8/2 closed
    o[18] = 2  # O's 19 = X's 6-point: 8/6 closed
    # roll 6-2: 6 closed directly, 2 closed; nothing playable
    assert [str(m) for m in legal_moves(STANDARD, Position(x, o), (6, 2))] == ["(no move)"]
    # roll 5-1: 8/3 then 3/2 closed; 8/7 then 7/2 closed -> one die only, the larger: 8/3
    assert [str(m) for m in legal_moves(STANDARD, Position(x, o), (5, 1))] == ["8/3"]


def test_higher_die_bear_off():
    position = Position.from_home_boards((0, 0, 1, 0, 1, 0), (0, 0, 0, 0, 0, 3))
    plays = {str(m) for m in legal_moves(STANDARD, position, (6, 4))}
    assert plays == {"5/off 3/off", "5/1 3/off"}  # 4 first (5/1), then 6 bears off the 3
    plays = {str(m) for m in legal_moves(STANDARD, position, (4, 1))}
    # 4 cannot bear off from 3 while the 5-point is occupied: 5/1 or 5/4/off etc.
    assert "3/off" not in " ".join(plays)


def test_playtive_limit():
    x = [0] * 25
    x[5] = 5
    x[7] = 1
    x[12] = 1
    position = Position(x, [0] * 25)
    assert any(m.after.on_roll[5] == 6 for m in legal_moves(STANDARD, position, (5, 2)))  # 13/8 8/6
    assert all(m.after.on_roll[5] <= 5 for m in legal_moves(PLAYTIVE, position, (5, 2)))
    assert all(m.after.on_roll[5] <= 5 for m in legal_moves(PLAYTIVE, position, (2, 2)))


def test_game_results():
    gammon = Position((0,) * 25, (0, 0, 0, 0, 0, 15) + (0,) * 19)
    assert game_result(gammon).kind == "gammon"
    single = Position((0,) * 25, (0, 0, 0, 0, 0, 14) + (0,) * 19)
    assert game_result(single).points == 1
    assert game_result(Position.initial()) is None
    with pytest.raises(InvalidStateError):
        game_result(gammon, cube=0)


def test_random_play_shared_check():
    """Random money games (random cube actions end many early) and random checker play to
    the last checker (never doubling) keep the vocabulary's contract and every checker."""
    def invariant(state):
        assert _totals(state.position) == (CHECKERS, CHECKERS)

    def check(state):
        check_state_consistency(state)
        invariant(state)

    def never_double(state, rng):
        actions = state.legal_actions()
        return ROLL_ON if ROLL_ON in actions else rng.choice(actions)

    rng = random.Random(5)
    for rules, games in ((STANDARD, 2), (PLAYTIVE, 1)):
        visited = check_random_play(initial_state(rules), games=10 * games, seed=5, invariant=invariant)
        assert visited > 100
        for _ in range(games):
            assert random_playout(initial_state(rules), rng, policy=never_double, on_state=check).phase == OVER


def test_bad_input():
    with pytest.raises(InvalidDiceError):
        legal_moves(STANDARD, Position.initial(), (0, 7))
    with pytest.raises(InvalidStateError):
        Position((1,) * 25, (0,) * 25)
    with pytest.raises(IllegalMoveError):
        apply_notation(Position.initial(), "23/20")
    state = State(Position.initial(), STANDARD, PLAY, (3, 1))
    with pytest.raises(IllegalMoveError):
        state.apply(((24, 20),))


def test_apply_notation_matches_moves():
    position = Position.initial()
    for move in legal_moves(STANDARD, position, (4, 4)):
        assert apply_notation(position, str(move)) == move.after
    assert apply_notation(position, "8/5(2)") == apply_notation(position, "8/5 8/5")
