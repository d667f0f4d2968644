"""Pitjesbak analysis: exact values against the core's expectimax, optimal play costs nothing,
luck and losses add up to the change of value, replay, malformed records."""

from __future__ import annotations

import random

import pytest

from dicemath.analysis import InvalidRecordError, analyse, game_named
from dicemath.games.registry import GAMES
from dicemath.analysis.play import record_game
from dicemath.core.errors import IllegalMoveError, InvalidDiceError, InvalidStateError
from dicemath.core.game import CHANCE, TERMINAL, sample_chance
from dicemath.core.search import action_values
from dicemath.games.pitjesbak import Rules, advise_situation, initial_state, solve_game
from dicemath.games.pitjesbak.advice import game_policy
SMALL = Rules(stripes=3)
PITJESBAK = game_named("pitjesbak", GAMES)
ANALYSIS = PITJESBAK.analysis()


@pytest.fixture(scope="module")
def chain():
    return PITJESBAK.sources(SMALL)


def _leaf_at_next_round(state, solution):
    """Stop the search at the start of the next round, valued by the game solution."""
    first = state.round_number

    def leaf(s):
        if s.winner >= 0 or s.round_number == first:
            return None
        a, fa, b, fb = s.stripes[s.start], s.wiped[s.start], s.stripes[1 - s.start], s.wiped[1 - s.start]
        v = solution.value(a, fa, b, fb)
        return (v, 1 - v) if s.start == 0 else (1 - v, v)
    return leaf


@pytest.mark.parametrize("entry", [
    {"my_stripes": 2, "their_stripes": 3, "role": "follower", "throw_number": 1, "current": "6-4-2",
     "best": "5-5-5", "limit": 3},
    {"my_stripes": 2, "their_stripes": 3, "my_wiped": True, "role": "start", "throw_number": 2,
     "current": "6-6-3"},
])
def test_action_values_equal_expectimax_over_the_engine(entry):
    """Second method: max^n search over the rules engine to the end of the round."""
    state = ANALYSIS.decision_state(entry, SMALL)
    searched = action_values(state, leaf=_leaf_at_next_round(state, solve_game(SMALL)))
    ours = {option.action: option.value for option in PITJESBAK.advise(state).options}
    mover = state.current_player()
    assert set(ours) == set(searched)
    for action, vector in searched.items():
        assert ours[action] == pytest.approx(float(vector[mover]), abs=1e-12)
    # The wrong choice costs exactly the difference the search finds.
    wrong = min(searched, key=lambda a: searched[a][mover])
    right = max(searched, key=lambda a: searched[a][mover])
    result = analyse({"game": "pitjesbak", "rules": {"stripes": 3}, "decisions": [{**entry, "choice": wrong}]},
                     GAMES)
    cost = result.decisions[0]
    assert cost.best == right and cost.exact
    assert cost.loss == pytest.approx(float(searched[right][mover] - searched[wrong][mover]), abs=1e-12)
    assert cost.loss > 0.01


def test_decision_values_are_those_of_advise():
    entry = {"my_stripes": 6, "my_wiped": True, "their_stripes": 4, "their_wiped": True, "role": "follower",
             "throw_number": 1, "current": "6-1-1", "best": "3-2-1", "limit": 2}
    cost = analyse({"game": "pitjesbak", "decisions": [{**entry, "choice": "stop"}]}, GAMES).decisions[0]
    advice = advise_situation(6, True, 4, True, role="follower", throw_number=1, current=(6, 1, 1),
                              best=(3, 2, 1), limit=2, solution=solve_game())
    assert cost.values["stop"] == pytest.approx(advice.stop_probability, abs=1e-12)
    assert cost.values["throw"] == pytest.approx(advice.throw_probability, abs=1e-12)
    assert cost.best == advice.decision


def test_values_are_consistent_along_random_games(chain):
    """At a chance state the value is the mean over its outcomes; at a decision the best option of the advice."""
    rng = random.Random(4)
    checked = 0
    for _ in range(3):
        state = initial_state(SMALL)
        while state.current_player() != TERMINAL:
            if state.current_player() == CHANCE:
                assert chain.value(state).values[0] == pytest.approx(chain.expected(state).values[0], abs=1e-12)
                action = sample_chance(state, rng)
            else:
                mover = state.current_player()
                best = max(option.value for option in PITJESBAK.advise(state).options)
                assert chain.value(state).values[mover] == pytest.approx(best, abs=1e-12)
                action = rng.choice(state.legal_actions())
            state = state.apply(action)
            checked += 1
    assert checked > 20


def _random(state, rng):
    return rng.choice(state.legal_actions())


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_luck_minus_losses_is_the_change_of_value(seed):
    analysis = analyse(record_game(PITJESBAK, (_random, _random), seed=seed, rules={"stripes": 4}), GAMES)
    start, end = analysis.trajectory[0][1].values, analysis.trajectory[-1][1].values
    assert analysis.finished and analysis.exact
    for seat in (0, 1):
        own = sum(d.loss for d in analysis.by_seat(seat))
        other = sum(d.loss for d in analysis.by_seat(1 - seat))
        assert end[seat] - start[seat] == pytest.approx(analysis.luck(seat) - own + other, abs=1e-9)
    assert analysis.luck(0) == pytest.approx(-analysis.luck(1), abs=1e-9)


def test_optimal_play_loses_nothing():
    policy = game_policy(solve_game())
    optimal = lambda state, rng: policy(state)  # noqa: E731
    for seed in range(3):
        analysis = analyse(record_game(PITJESBAK, (optimal, optimal), seed=seed), GAMES)
        assert analysis.decisions and all(d.loss == 0 for d in analysis.decisions)
        assert analysis.rating().startswith("seat 0 perfect")


BASE = {"my_stripes": 9, "their_stripes": 9, "role": "start", "throw_number": 1, "current": "4-2-1"}


@pytest.mark.parametrize("record, error, words", [
    ({"game": "pitjesbak", "moves": ["6-5-4", "stop", "stop"]}, InvalidDiceError, "moves entry 2"),
    ({"game": "pitjesbak", "moves": ["7-1-1"]}, InvalidDiceError, "moves entry 0"),
    ({"game": "pitjesbak", "moves": ["6-5-4", "pass"]}, IllegalMoveError, "moves entry 1"),
    ({"game": "pitjesbak", "rules": {"players": 3}, "moves": ["6-5-4"]}, InvalidRecordError, "two players"),
    ({"game": "pitjesbak", "rules": {"colour": "red"}, "moves": ["6-5-4"]}, InvalidRecordError, "colour"),
    ({"game": "pitjesbak", "decisions": [{**BASE, "choice": "fold"}]}, IllegalMoveError, "decisions entry 0"),
    ({"game": "pitjesbak", "decisions": [{**BASE, "choice": "stop"}, {**BASE, "role": "boss", "choice": "stop"}]},
     InvalidRecordError, "decisions entry 1"),
    ({"game": "pitjesbak", "decisions": [{**BASE, "throw_number": 3, "choice": "stop"}]}, InvalidStateError,
     "nothing to decide"),
    ({"game": "pitjesbak", "decisions": [{**BASE, "best": "6-5-4", "choice": "stop"}]}, InvalidRecordError,
     "no \"best\""),
    ({"game": "pitjesbak", "decisions": [{"my_stripes": 9, "choice": "stop"}]}, InvalidRecordError, "missing"),
    ({"game": "pitjesbak", "decisions": [{**BASE, "mood": "happy", "choice": "stop"}]}, InvalidRecordError,
     "mood"),
])
def test_malformed_records_name_the_first_bad_entry(record, error, words):
    with pytest.raises(error, match=words):
        analyse(record, GAMES)
