"""The rules engine: seed examples, PEGS-6/7/8, FIVES-4/5, invalid input, properties."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicemath.core.errors import DicemathError, IllegalMoveError
from dicemath.core.game import CHANCE, TERMINAL, check_random_play
from dicemath.games.pegs_fives.rules import FIVES, PEGS
from dicemath.games.pegs_fives.state import (
    InvalidBoardError, InvalidRollError, SafeGreedy, State, after_hits, board_text, check_board, check_state,
    greedy_policy, initial_state, legal_rows, play_game, play_turn, read_board, reduced_board)

SEED_THROW = (3, 3, 3, 5, 6, 2)  # the seed's example throw: row 3 (three 3s) or row 8 (6+2, 5+3)


def at(board_row_steps: dict, rules=PEGS, default=0) -> tuple:
    return tuple(board_row_steps.get(r, default) for r in range(1, 13))


# --- the seed's examples (pegs-popnagels.nl.txt) -------------------------------------------

def test_seed_example_row_8_all_dice_used_gives_fresh_dice_and_budget():
    # "Kies je voor rij 8 ... 6+2 en 5+3 terzijde. ... weer een 8 ... drie achten. Zet de
    # popnagel drie stappen naar voren ... Je mag alle dobbelstenen opnieuw gooien"
    s = initial_state(PEGS).apply(SEED_THROW)
    assert s.current_player() == 0 and 8 in s.legal_actions() and 3 in s.legal_actions()
    s = s.apply(8)
    assert (s.row, s.count, s.dice, s.throws) == (8, 2, 2, 2)
    s = s.apply((4, 4))
    assert s.board[7] == 3 and s.dice == 6 and s.throws == 3 and s.row is None
    assert s.current_player() == CHANCE and s.turns == 0       # the same turn goes on
    # "Je gooit geen 8 meer ... twee plaatsen naar voren": the turn ends with 2 steps.
    s = initial_state(PEGS).apply(SEED_THROW).apply(8).apply((1, 1))
    assert s.board[7] == 2 and s.turns == 1


@pytest.mark.parametrize("last, step", [((3, 1), 5), ((3, 3), 0), ((1, 2), 4)])
def test_seed_example_row_3_three_endings(last, step):
    # three 3s, then one 3, then with two dice: one 3 -> in (after 3 throws the turn ends);
    # two 3s -> six 3s, overthrown, no move; no 3 -> four steps.
    s = initial_state(PEGS, single_turn=True).apply(SEED_THROW).apply(3).apply((3, 4, 5))
    assert (s.count, s.dice, s.throws, s.over) == (4, 2, 1, False)
    s = s.apply(last)
    assert s.over and s.board[2] == step


def test_overthrow_on_the_choice_throw_ends_the_turn():
    s = initial_state(PEGS, at({3: 3})).apply(SEED_THROW).apply(3)
    assert s.board[2] == 3 and s.turns == 1 and s.dice == 6


def test_pegs_7_in_with_dice_left_gives_a_choice_throw_with_the_rest():
    s = initial_state(PEGS, at({3: 2})).apply(SEED_THROW).apply(3)
    assert s.board[2] == 5 and s.dice == 3 and s.throws == 2 and s.row is None and s.turns == 0


def test_pegs_8_goes_before_pegs_7():
    throw = (1, 2, 3, 4, 5, 6)   # three pairs for 7: all dice used and row 7 exactly in
    s = initial_state(PEGS, at({7: 2})).apply(throw).apply(7)
    assert s.board[6] == 5 and s.dice == 6 and s.throws == 3 and s.turns == 0
    variant = PEGS.variant(all_dice_first=False)
    s = initial_state(variant, at({7: 2})).apply(throw).apply(7)
    assert s.board[6] == 5 and s.turns == 1   # PEGS-7 first: no dice left, the turn ends


def test_pegs_budget_spent_ends_the_turn():
    cycle = after_hits(PEGS, (0,) * 12, 1, 2, 3, 0)
    assert cycle.over and cycle.event == "budget" and cycle.board[0] == 2


def test_fives_cap_and_fresh_dice_on_completion():
    s = initial_state(FIVES, at({3: 3})).apply(SEED_THROW).apply(3)
    assert s.board[2] == 5 and s.dice == 6 and s.throws is None and s.turns == 0


def test_fives_all_dice_used():
    s = initial_state(FIVES).apply((1, 2, 3, 4, 5, 6)).apply(7)
    assert s.board[6] == 3 and s.dice == 6 and s.turns == 0


def test_fives_marks_stand_after_a_miss():
    s = initial_state(FIVES).apply(SEED_THROW).apply(3).apply((1, 1, 2))
    assert s.board[2] == 3 and s.turns == 1


# --- invalid input ------------------------------------------------------------------------

@pytest.mark.parametrize("board", [[6] + [0] * 11, [0] * 13, [0] * 11, [-1] + [0] * 11, [0.5] + [0] * 11])
def test_invalid_boards_raise(board):
    with pytest.raises(InvalidBoardError) as error:
        check_board(board, PEGS)
    assert isinstance(error.value, ValueError)


@pytest.mark.parametrize("roll", [(1, 2, 3, 4, 5, 6, 1), (0, 1, 2, 3, 4, 5), (1, 2, 3, 4, 5, 7), (1, 2)])
def test_invalid_rolls_raise(roll):
    with pytest.raises(InvalidRollError):
        initial_state(PEGS).apply(roll)


def test_illegal_row_raises():
    s = initial_state(PEGS).apply(SEED_THROW)
    with pytest.raises(IllegalMoveError):
        s.apply(4)
    with pytest.raises(IllegalMoveError):
        s.apply(s.parse_action("1"))
    with pytest.raises(IllegalMoveError):
        s.parse_action("13")


def test_invalid_rules_raise():
    with pytest.raises(DicemathError):
        PEGS.variant(goal=0)
    with pytest.raises(DicemathError):
        PEGS.variant(on_complete="sometimes")


def test_board_text_round_trip():
    b = read_board(PEGS, "0,0,3,0,0,0,1,0,0,0,0,0")
    assert read_board(PEGS, board_text(b)) == b == at({3: 3, 7: 1})
    assert reduced_board([6, 7], PEGS) == at({6: 0, 7: 0}, default=5)
    with pytest.raises(InvalidBoardError):
        read_board(PEGS, "0,0,x")


# --- the shared game check and properties -------------------------------------------------

def _invariant(state):
    check_state(state)
    assert State.from_str(str(state)) == state
    assert all(0 <= s <= state.rules.goal for s in state.board)
    assert 0 <= state.dice <= state.rules.dice
    if state.row is not None:
        assert state.board[state.row - 1] + state.count <= state.rules.goal


@pytest.mark.parametrize("rules", [PEGS, FIVES])
def test_check_random_play_reduced_board(rules):
    visited = check_random_play(initial_state(rules, reduced_board([3, 8, 12], rules)),
                                games=15, seed=1, invariant=_invariant)
    assert visited > 100


def test_check_random_play_full_fives_board():
    assert check_random_play(initial_state(FIVES), games=2, seed=2, invariant=_invariant) > 100


boards = st.lists(st.integers(0, 5), min_size=12, max_size=12).map(tuple)
throws = st.lists(st.integers(1, 6), min_size=6, max_size=6).map(tuple)


@settings(max_examples=150, deadline=None)
@given(board=boards, seed=st.integers(0, 10**6), fives=st.booleans())
def test_a_turn_only_moves_forward_within_the_board(board, seed, fives):
    rules = FIVES if fives else PEGS
    end = play_turn(rules, board, SafeGreedy(5), random.Random(seed))
    assert all(b <= e <= rules.goal for b, e in zip(board, end))


@settings(max_examples=150, deadline=None)
@given(board=boards, throw=throws)
def test_legal_rows_have_hits_and_are_open(board, throw):
    for row, hits in legal_rows(board, throw, 5):
        assert board[row - 1] < 5 and hits >= 1
        assert hits * (1 if row <= 6 else 2) <= 6


@settings(max_examples=200, deadline=None)
@given(board=boards, row=st.integers(1, 12), count=st.integers(1, 6), dice=st.integers(0, 5),
       throws=st.integers(0, 2), fives=st.booleans())
def test_after_hits_conserves_progress(board, row, count, dice, throws, fives):
    rules = FIVES if fives else PEGS
    if board[row - 1] >= 5:
        return
    cycle = after_hits(rules, board, row, count, dice, None if fives else throws)
    moved = [r for r in range(12) if cycle.board[r] != board[r]]
    assert moved in ([], [row - 1])
    assert all(b <= e <= 5 for b, e in zip(board, cycle.board))
    if cycle.event == "overthrow":
        assert not fives and cycle.board == board and board[row - 1] + count > 5
    if not cycle.over and cycle.row is not None:
        assert cycle.board == board and cycle.count == count
    else:
        moved_by = cycle.board[row - 1] - board[row - 1]
        assert moved_by in (0, min(count, 5 - board[row - 1]))


def test_chance_outcomes_sum_to_one_for_every_dice_count():
    for dice in range(1, 7):
        state = State(PEGS, (0,) * 12, dice, 3)
        assert sum(p for _, p in state.chance_outcomes()) == 1


def test_game_ends_with_negative_turns():
    rng = random.Random(4)
    assert 1 <= play_game(FIVES, greedy_policy, rng, board=reduced_board([7], FIVES)) < 200
    s = initial_state(PEGS, (5,) * 12)
    assert s.current_player() == TERMINAL and s.returns() == (-0.0,)


@settings(max_examples=40, deadline=None)
@given(rows=st.lists(st.integers(1, 12), min_size=1, max_size=2, unique=True),
       steps=st.lists(st.integers(0, 4), min_size=2, max_size=2), fives=st.booleans(), throw=throws)
def test_exact_turn_distributions_sum_to_one_and_never_go_back(rows, steps, fives, throw):
    from dicemath.games.pegs_fives.turn import turn_distribution, turn_outcome

    rules = FIVES if fives else PEGS
    board = [5] * 12
    for r, s in zip(rows, steps):
        board[r - 1] = s
    board = tuple(board)
    dist = turn_distribution(rules, board, SafeGreedy(5))
    assert sum(dist.values()) == 1 and all(p > 0 for p in dist.values())
    assert all(all(b <= e <= 5 for b, e in zip(board, end)) for end in dist)
    for row, d in turn_outcome(rules, board, throw).items():
        assert sum(d.probability(b) for b in d) == 1
        assert all(end[row - 1] >= board[row - 1] for end in d)


def test_apply_reads_action_text_with_parse_action():
    state = initial_state(PEGS)
    assert state.apply("6-5-3-3-3-2") == state.apply(state.parse_action("6-5-3-3-3-2")) \
        == state.apply((2, 3, 3, 3, 5, 6))
    chosen = state.apply("6,5,3,3,3,2")
    assert chosen.apply("11") == chosen.apply(11)
    with pytest.raises(DicemathError):
        state.apply("6-5-4")
    with pytest.raises(IllegalMoveError):
        chosen.apply("row")
