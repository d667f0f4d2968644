"""Round solver (PIT-4..PIT-6): exact values against the engine and against simulation."""

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st
import pytest

from dicemath.core.errors import InvalidStateError
from dicemath.games.pitjesbak.game_solver import round_maximising_round
from dicemath.games.pitjesbak.round_solver import round_policy, solve_round
from dicemath.games.pitjesbak.rules import Rules
from dicemath.games.pitjesbak.simulate import round_win_frequencies
from dicemath.games.pitjesbak.state import initial_state

from dicemath.core.search import expectimax


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_probabilities_sum_to_one(players):
    solution = solve_round(players=players)
    assert sum(solution.win_probabilities) == pytest.approx(1, abs=1e-12)
    if solution.exact:
        assert sum(solution.win_probabilities) == 1
        assert all(isinstance(p, Fraction) for p in solution.win_probabilities)


@pytest.mark.parametrize("wiped", [(False, False), (True, True)])
def test_two_players_matches_engine_expectimax(wiped):
    """Second method: expectimax over engine states, payoff = start player wins the round."""
    rules = Rules()
    state = initial_state(rules, wiped=wiped)

    def leaf(s):
        if s.winner < 0 and s.round_number == state.round_number:
            return None
        won = 1.0 if (s.winner if s.winner >= 0 else s.last_round_winner) == 0 else 0.0
        return (won, 1.0 - won)

    expected = expectimax(state, leaf=leaf)[0]
    solution = solve_round(rules, wiped)
    assert float(solution.win_probabilities[0]) == pytest.approx(expected, abs=1e-12)
    # and the numpy two-player round agrees
    assert float(round_maximising_round(rules, *wiped).value) == pytest.approx(expected, abs=1e-12)


def test_hand_checked_two_player_limit_one():
    """If the start player stops on 6-5-4 after throw 1, the follower (one throw) wins only
    by a roll-off after another 6-5-4: P = 6/216 * 1/2; with the flag also by 1-1-1."""
    rules = Rules()
    solution = solve_round(rules, (False, False))
    from dicemath.games.pitjesbak.throws import class_space, classify
    space = class_space(rules)
    space_index = space.index(classify([6, 5, 4]))
    stop, stop_value, _ = solution.start_decision(1, space_index)
    assert stop and stop_value == 1 - Fraction(6, 216) / 2
    flagged = solve_round(rules, (False, True))
    assert flagged.start_decision(1, space_index)[1] == 1 - Fraction(6, 216) / 2 - Fraction(1, 216)


@pytest.mark.parametrize("players,wiped", [(3, None), (4, (True, False, True, False))])
def test_matches_simulation(players, wiped):
    """Monte Carlo of the engine with the solver's policy; 6000 rounds, |error| < 4.5 sigma."""
    rules = Rules(players=players)
    solution = solve_round(rules, wiped)
    rounds = 6000
    freqs = round_win_frequencies(rules, solution.policy(), rounds, seed=players, wiped=wiped)
    for exact, freq in zip(solution.win_probabilities, freqs):
        sigma = (float(exact) * (1 - float(exact)) / rounds) ** 0.5
        assert abs(freq - float(exact)) < 4.5 * sigma


def test_exact_and_float_agree():
    exact = solve_round(players=3, exact=True)
    floats = solve_round(players=3, exact=False)
    for e, f in zip(exact.win_probabilities, floats.win_probabilities):
        assert float(e) == pytest.approx(f, abs=1e-12)


def test_symmetric_holders_and_plans():
    """Two holders of the same best throw have the same chance; the last player's plan
    depends only on what they must beat (symmetric situations, symmetric answers)."""
    solution = solve_round(players=3)
    plan = solution.plan(2, 2, 10, 2)
    assert plan.holders_value * 2 + plan.value == 1
    # the last follower facing one holder or two holders of the same throw stops alike
    assert solution.plan(2, 3, 10, 1).stop == solution.plan(2, 3, 10, 2).stop


def test_only_survivor_wins():
    solution = solve_round(players=3)
    assert solution.plan(2, 1, -1, 0).auto_win and solution.plan(2, 1, -1, 0).value == 1


def test_invalid_input():
    with pytest.raises(ValueError):
        solve_round(players=9)
    with pytest.raises(ValueError):
        solve_round(players=1)
    with pytest.raises(InvalidStateError):
        solve_round(wiped=(True, False), players=3)
    solution = solve_round(players=3)
    with pytest.raises(InvalidStateError):
        solution.plan(0, 1, 3, 1)
    with pytest.raises(InvalidStateError):
        solution.plan(1, 1, -1, 1)


def test_round_policy_plays_games():
    from dicemath.games.pitjesbak.simulate import simulate_game
    record = simulate_game(Rules(players=4), round_policy(), seed=3)
    assert 0 <= record.winner < 4


@settings(max_examples=15, deadline=None)
@given(st.lists(st.booleans(), min_size=2, max_size=5))
def test_any_seating_is_a_distribution(flags):
    solution = solve_round(wiped=flags, exact=False)
    probs = [float(p) for p in solution.win_probabilities]
    assert sum(probs) == pytest.approx(1, abs=1e-12)
    assert all(0 <= p <= 1 for p in probs)
    # a flag never hurts its owner: 1-1-1 wins instead of eliminating
    if not flags[0]:
        better = solve_round(wiped=[True] + list(flags[1:]), exact=False)
        assert float(better.win_probabilities[0]) >= probs[0] - 1e-12
