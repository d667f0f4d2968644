"""Two-player game solver (PIT-1..PIT-8): Bellman residual through the rules engine,
simulation, rigorous bounds, and the round-maximising comparison."""

import random

import pytest

from dicemath.core.errors import InvalidStateError
from dicemath.games.pitjesbak.advice import game_policy
from dicemath.games.pitjesbak.game_solver import solve_game
from dicemath.games.pitjesbak.rules import Rules
from dicemath.games.pitjesbak.simulate import simulate_game
from dicemath.games.pitjesbak.state import initial_state

from dicemath.core.search import expectimax


@pytest.fixture(scope="module")
def solution():
    return solve_game()


def engine_round_value(solution, a, fa, b, fb):
    """T(V) at one state computed on the engine's own states by the core's expectimax
    (a second method): the round is searched, the states after it valued by ``solution``."""
    state = initial_state(solution.rules, stripes=(a, b), wiped=(fa, fb))

    def leaf(s):
        if s.winner >= 0:
            value = 1.0 if s.winner == 0 else 0.0
        elif s.round_number != state.round_number:
            assert s.start == 1
            value = 1.0 - solution.value(s.stripes[1], s.wiped[1], s.stripes[0], s.wiped[0])
        else:
            return None
        return (value, 1.0 - value)

    return expectimax(state, leaf=leaf)[0]


@pytest.mark.parametrize("state", [(9, False, 9, False), (1, True, 2, True), (3, True, 10, False)])
def test_bellman_residual_on_engine(solution, state):
    assert solution.value(*state) == pytest.approx(engine_round_value(solution, *state), abs=1e-12)


def test_bounds_are_tight_and_nested(solution):
    low, high = solution.bounds(*solution.opening)
    assert low <= solution.start_player_win_probability <= high and high - low < 1e-12
    coarse = solve_game(cap=11, use_cache=False, compare=False)
    c_low, c_high = coarse.bounds(*coarse.opening)
    assert c_low - 1e-15 <= low and high <= c_high + 1e-15 and c_high - c_low > 1e-9
    assert (solution.low <= solution.high + 1e-15).all()


def test_matches_simulation(solution):
    """2000 simulated games, both seats game-optimal; |error| < 4.5 sigma."""
    policy = game_policy(solution)
    rng = random.Random(5)
    games = 2000
    wins = sum(simulate_game(solution.rules, policy, rng=rng).winner == 0 for _ in range(games))
    p = solution.start_player_win_probability
    sigma = (p * (1 - p) / games) ** 0.5
    assert abs(wins / games - p) < 4.5 * sigma


def test_round_maximiser_loses(solution):
    value = solution.start_player_win_probability
    as_start = sum(solution.comparison["round_vs_optimal"]) / 2
    as_second = sum(solution.comparison["round_second_vs_optimal"]) / 2
    assert 0 < value - as_start < 0.05
    assert 0 < (1 - value) - as_second < 0.05


def test_obvious_values(solution):
    # one stripe, flag set, against 9 without: the start player nearly always wins
    assert solution.value(1, True, 9, False) > 0.9
    assert solution.value(9, False, 1, True) < solution.value(1, True, 9, False)
    # fewer own stripes is better, more of the other's too
    assert solution.value(3, True, 5, True) > solution.value(4, True, 5, True)
    assert solution.value(3, True, 6, True) > solution.value(3, True, 5, True)


def test_pips_variant_solves():
    rules = Rules(stripes=3, die_values="pips")
    pips = solve_game(rules, use_cache=False, compare=False)
    assert 0.3 < pips.start_player_win_probability < 0.8 and pips.bound < 1e-9


def test_invalid_states(solution):
    with pytest.raises(InvalidStateError):
        solution.value(0, True, 9, False)
    with pytest.raises(ValueError):
        solution.value(-1, True, 9, False)
    with pytest.raises(InvalidStateError):
        solution.value(9, False, solution.cap + 1, False)
    with pytest.raises(InvalidStateError):
        solve_game(cap=5, use_cache=False)
