"""The shared game vocabulary and its random-play check, on a toy game."""

from dataclasses import dataclass
from fractions import Fraction

import pytest

from dicemath.core.errors import InvalidProbabilityError
from dicemath.core.game import CHANCE, TERMINAL, check_random_play


@dataclass(frozen=True)
class Race:
    """Two players race to 3 points; a coin decides who scores after each 'go'."""

    scores: tuple = (0, 0)
    tossing: bool = False
    coin: tuple = (Fraction(1, 2), Fraction(1, 2))

    def current_player(self):
        if max(self.scores) >= 3:
            return TERMINAL
        return CHANCE if self.tossing else 0

    def legal_actions(self):
        return [] if self.current_player() != 0 else ["go"]

    def chance_outcomes(self):
        return list(zip((0, 1), self.coin))

    def apply(self, action):
        if self.tossing:
            scores = list(self.scores)
            scores[action] += 1
            return Race(tuple(scores), False, self.coin)
        return Race(self.scores, True, self.coin)

    def returns(self):
        return (1, -1) if self.scores[0] >= 3 else (-1, 1)


def test_random_play_visits_states_and_keeps_invariants():
    seen = []
    visited = check_random_play(Race(), games=10, invariant=lambda s: seen.append(sum(s.scores) <= 5))
    assert visited == len(seen) > 10 and all(seen)


def test_broken_chance_is_caught():
    with pytest.raises(InvalidProbabilityError, match="sum to"):
        check_random_play(Race(coin=(Fraction(1, 2), Fraction(1, 3))), games=1)


def test_invariant_failure_propagates():
    def never(state):
        raise AssertionError("invariant broken")

    with pytest.raises(AssertionError, match="invariant broken"):
        check_random_play(Race(), games=1, invariant=never)
