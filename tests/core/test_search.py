"""Generic search (expectimax, alpha-beta) against hand values and plain recursion."""

import random
from dataclasses import dataclass
from fractions import Fraction

import pytest

from dicemath.core.game import CHANCE, TERMINAL
from dicemath.core.search import action_values, alpha_beta, expectimax, negamax


@dataclass(frozen=True)
class Coins:
    """Players take 1 or 2 coins from the left of a row; returns are score differences."""

    row: tuple
    scores: tuple = (0, 0)
    mover: int = 0

    def current_player(self):
        return TERMINAL if not self.row else self.mover

    def legal_actions(self):
        return [] if not self.row else [k for k in (1, 2) if k <= len(self.row)]

    def chance_outcomes(self):
        return []

    def apply(self, k):
        scores = list(self.scores)
        scores[self.mover] += sum(self.row[:k])
        return Coins(self.row[k:], tuple(scores), 1 - self.mover)

    def returns(self):
        d = self.scores[0] - self.scores[1]
        return (d, -d)


def plain_negamax(state, depth, evaluate):
    """Negamax by plain recursion, no pruning and no table (a second method)."""
    if depth == 0:
        return evaluate(state)
    best = float("-inf")
    for action in state.legal_actions():
        child = state.apply(action)
        if child.current_player() == TERMINAL:
            best = max(best, child.returns()[state.mover])
        else:
            best = max(best, -plain_negamax(child, depth - 1, evaluate))
    return best


@pytest.mark.parametrize("seed", range(12))
def test_alpha_beta_equals_expectimax_and_plain_recursion(seed):
    rng = random.Random(seed)
    start = Coins(tuple(rng.randint(-3, 9) for _ in range(rng.randint(1, 11))))
    exact = expectimax(start)
    assert exact[0] == -exact[1]
    assert alpha_beta(start, depth=20) == exact[0]
    assert alpha_beta(start, depth=20, table={}) == plain_negamax(start, 20, None)
    # depth-limited, with an evaluation (own score lead plus the coins in reach)
    def evaluate(s):
        return s.scores[s.mover] - s.scores[1 - s.mover] + sum(s.row[:1])

    for depth in (1, 2, 3):
        assert alpha_beta(start, depth, evaluate=evaluate) == plain_negamax(start, depth, evaluate)


def row_moves(row):
    """The moves of Coins keyed by the row alone (the scores so far left out): rewards are
    the coins taken, the largest take searched first (move ordering)."""
    moves = [(sum(row[:k]), row[k:] or None, -1) for k in (1, 2) if k <= len(row)]
    return sorted(moves, key=lambda move: -move[0])


@pytest.mark.parametrize("seed", range(12))
def test_negamax_on_a_smaller_key_with_leaves_and_ordering(seed):
    """negamax over rows (a key without the scores), with move ordering, exact leaves (short
    rows, valued by alpha_beta on whole states) and a reused table, gives the values of
    plain recursion over whole states: exact to the end and depth-limited."""
    rng = random.Random(seed)
    row = tuple(rng.randint(-3, 9) for _ in range(rng.randint(1, 11)))
    start = Coins(row)
    table = {}
    assert negamax(row, 20, children=row_moves, table=table) == plain_negamax(start, 20, None)
    assert negamax(row, 20, children=row_moves, table=table) == plain_negamax(start, 20, None)
    def leaf(r):
        return alpha_beta(Coins(r), 20) if len(r) <= 3 else None

    assert negamax(row, 20, children=row_moves, leaf=leaf) == plain_negamax(start, 20, None)

    def evaluate(r):
        return sum(r[:1])

    def state_evaluate(s):
        return s.scores[s.mover] - s.scores[1 - s.mover] + sum(s.row[:1])

    for depth in (1, 2, 3):
        assert negamax(row, depth, children=row_moves, evaluate=evaluate) == plain_negamax(start, depth,
                                                                                          state_evaluate)
    # alpha_beta's leaf: exact values of whole states stop the search
    assert alpha_beta(start, 1, leaf=lambda s: alpha_beta(s, 20)) == plain_negamax(start, 20, None)
    with pytest.raises(ValueError, match="evaluate"):
        negamax(row + (1, 1, 1), 1, children=row_moves)


def test_action_values_pick_the_best():
    start = Coins((1, 5, 1))
    values = action_values(start)
    # take 1: the other takes both (5 + 1) -> 1 - 6 = -5
    # take 2 (1 + 5): he takes the last 1 -> 6 - 1 = 5
    assert values == {1: (-5, 5), 2: (5, -5)}
    assert expectimax(start) == (5, -5)


@dataclass(frozen=True)
class Loop:
    """A state that returns to itself: the search must say so, not hang."""

    def current_player(self):
        return 0

    def legal_actions(self):
        return ["again"]

    def apply(self, action):
        return Loop()

    def chance_outcomes(self):
        return []


def test_cycles_are_refused_and_leaves_cut_them():
    with pytest.raises(ValueError, match="cycle"):
        expectimax(Loop())
    assert expectimax(Loop(), leaf=lambda s: (Fraction(1, 2),)) == (Fraction(1, 2),)


@dataclass(frozen=True)
class DiceRace:
    """Throw a die: a six scores for player 1, anything else for player 0; first to 2."""

    scores: tuple = (0, 0)

    def current_player(self):
        return TERMINAL if max(self.scores) == 2 else CHANCE

    def chance_outcomes(self):
        return [(face, Fraction(1, 6)) for face in range(1, 7)]

    def apply(self, face):
        seat = 1 if face == 6 else 0
        return DiceRace(tuple(s + (i == seat) for i, s in enumerate(self.scores)))

    def returns(self):
        return tuple(Fraction(int(s == 2)) for s in self.scores)

    def legal_actions(self):
        return []


def test_chance_is_exact():
    # player 1 needs two sixes before two non-sixes: 1/36 + 2 * (5/6)(1/6)(1/6)
    p1 = Fraction(1, 36) + 2 * Fraction(5, 6) * Fraction(1, 36)
    assert expectimax(DiceRace()) == (1 - p1, p1)
    with pytest.raises(ValueError, match="chance"):
        alpha_beta(DiceRace(), 3)
