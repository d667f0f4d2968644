"""Three-player game solver: its round induction against the exact round solver, and (slow)
the whole solve against simulation."""

import random

import numpy as np
import pytest

from dicemath.core.errors import InvalidStateError
from dicemath.games.pitjesbak.game_solver3 import _patterns, _round3, game3_policy, solve_game3
from dicemath.games.pitjesbak.round_solver import solve_round
from dicemath.games.pitjesbak.rules import Rules
from dicemath.games.pitjesbak.simulate import simulate_game
from dicemath.games.pitjesbak.throws import class_space


def round_win_result(flags):
    """Result tensor (1, 3, C, C, C) whose payoff is winning the round (ties split)."""
    pattern_map, keys = _patterns("traditional")
    table = np.zeros((len(keys), 3))
    for k, (apens, best, _, _) in enumerate(keys):
        alive = [True] * 3
        for pos in range(3):
            if apens[pos]:
                if flags[pos]:
                    table[k, pos] = 1
                    break
                alive[pos] = False
                if sum(alive) == 1:
                    table[k, alive.index(True)] = 1
                    break
        else:
            for pos in best:
                table[k, pos] = 1 / len(best)
    return np.ascontiguousarray(table.T)[None][:, :, pattern_map]


@pytest.mark.parametrize("flags", [(False, False, False), (True, False, True)])
def test_round_induction_matches_round_solver(flags):
    value = _round3(round_win_result(flags), class_space().probabilities())[0][0]
    expected = [float(p) for p in solve_round(wiped=flags).win_probabilities]
    assert value == pytest.approx(expected, abs=1e-12)


def test_invalid_cap():
    with pytest.raises(InvalidStateError):
        solve_game3(Rules(players=3, stripes=2), cap=13, use_cache=False)
    with pytest.raises(InvalidStateError):
        solve_game3(Rules(players=3, stripes=3), cap=2, use_cache=False)


@pytest.mark.slow
def test_one_stripe_game_against_simulation():
    """With one stripe a round win nearly always ends the game: the opening values are close
    to the round's; and 3000 simulated games agree within 4.5 sigma."""
    rules = Rules(players=3, stripes=1)
    solution = solve_game3(rules, cap=3)
    values = solution.opening_values
    assert sum(values) == pytest.approx(1, abs=1e-9)
    rounds = [float(p) for p in solve_round(players=3).win_probabilities]
    assert values == pytest.approx(rounds, abs=0.01)
    policy = game3_policy(solution)
    rng = random.Random(1)
    games = 3000
    wins = [0, 0, 0]
    for _ in range(games):
        wins[simulate_game(rules, policy, rng=rng).winner] += 1
    for p, w in zip(values, wins):
        assert abs(w / games - p) < 4.5 * (p * (1 - p) / games) ** 0.5
