"""Pegs and Fives analysis: exact losses against expectimax in Fractions, optimal play costs
nothing, luck minus losses is the change of value, advice values, replay, malformed records."""

from __future__ import annotations

import random

import pytest

from dicemath.analysis import InvalidRecordError, analyse, game_named
from dicemath.games.registry import GAMES
from dicemath.analysis.play import record_game
from dicemath.core.errors import IllegalMoveError, InvalidDiceError, InvalidStateError
from dicemath.core.game import CHANCE, TERMINAL, sample_chance
from dicemath.core.search import action_values
from dicemath.games.pegs_fives import FIVES, PEGS, solve_reduced
from dicemath.games.pegs_fives.fullboard.advice import estimate_advisor
from dicemath.games.pegs_fives.state import initial_state, legal_rows

PRESETS = {"pegs": PEGS, "fives": FIVES}
BOARD = [5] * 7 + [2, 5, 5, 5, 3]


@pytest.mark.parametrize("game", ["pegs", "fives"])
def test_loss_equals_expectimax_in_fractions(game):
    """Second method: the core's expectimax over the engine to the end of the turn, exact
    Fractions, the boards after it valued by the exact reduced solve (Fractions)."""
    rules = PRESETS[game]
    adapter = game_named(game, GAMES).analysis()
    exact = solve_reduced(rules, [8, 12], exact=True)

    def leaf(state):
        return (-(state.turns + exact.values[state.board]),) if state.over or state.turns else None

    entry = {"board": BOARD, "roll": [6, 6, 2, 2, 4, 1]}
    searched = action_values(adapter.decision_state(entry, rules), leaf=leaf)
    expected_turns = {row: -value[0] for row, value in searched.items()}
    wrong = max(expected_turns, key=expected_turns.get)
    cost = analyse({"game": game, "decisions": [{**entry, "choice": wrong}]}, GAMES).decisions[0]
    assert cost.exact and cost.best == str(min(expected_turns, key=expected_turns.get))
    assert cost.loss == pytest.approx(float(max(expected_turns.values()) - min(expected_turns.values())), abs=1e-12)
    # a decision's values are advise's: the turns still needed after this one
    assert cost.values == pytest.approx({str(r): float(v) - 1 for r, v in expected_turns.items()}, abs=1e-12)


def test_values_of_estimated_boards_are_the_advisors():
    board = [0, 2, 5, 1, 0, 0, 3, 0, 0, 0, 1, 0]
    cost = analyse({"game": "pegs", "decisions": [{"board": board, "roll": [3, 3, 3, 5, 6, 2], "throws": 2,
                                                   "choice": 2}]}, GAMES).decisions[0]
    ranked = estimate_advisor(PEGS).rank(board, (3, 3, 3, 5, 6, 2), throws=2)   # what `advise` answers
    assert not cost.exact
    assert cost.values == pytest.approx({str(a.row): a.expected_turns for a in ranked}, abs=1e-9)
    assert cost.best == str(ranked[0].row)


def _optimal_policy(game, rules, rows):
    """Optimal play of a reduced game, from the solver's own tables: its recorded choice at
    a choice throw with all dice and a fresh budget, else the row with the fewest expected turns."""
    solution = solve_reduced(rules, rows, exact=False)

    def policy(state, rng):
        if state.dice == rules.dice and state.throws == (None if rules.throws is None else rules.throws - 1):
            legal = legal_rows(state.board, state.roll, rules.goal)
            chosen = solution.choices[state.board].get(legal)
            if chosen is not None:
                return chosen
        return game.advise(state).best.action
    return policy


@pytest.mark.parametrize("game", ["pegs", "fives"])
def test_optimal_play_loses_nothing(game):
    rules = PRESETS[game].variant(rows=3)
    played = game_named(game, GAMES)
    policy = _optimal_policy(played, rules, (1, 2, 3))
    analysis = analyse(record_game(played, (policy,), seed=4, rules={"rows": 3}), GAMES)
    assert analysis.exact and analysis.decisions
    assert all(d.loss == 0 for d in analysis.decisions)


def _random(state, rng):
    return rng.choice(state.legal_actions())


@pytest.mark.parametrize("game, seed", [("pegs", 1), ("pegs", 2), ("fives", 1)])
def test_luck_minus_losses_is_the_change_of_value(game, seed):
    """On a three-row game every value is exact: turns taken - expected turns at the start
    = losses - luck (fewer turns are better)."""
    analysis = analyse(record_game(game_named(game, GAMES), (_random,), seed=seed, rules={"rows": 3}), GAMES)
    start, end = analysis.trajectory[0][1].values[0], analysis.trajectory[-1][1].values[0]
    assert analysis.exact and analysis.finished
    assert end - start == pytest.approx(analysis.total_loss - analysis.luck(0), abs=1e-9)


def test_chance_values_are_the_mean_of_their_outcomes():
    rules = PEGS.variant(rows=3)
    chain = game_named("pegs", GAMES).sources(rules)
    rng = random.Random(6)
    state, checked = initial_state(rules), 0
    while state.current_player() != TERMINAL:
        if state.current_player() == CHANCE:
            outcomes = [(float(p), chain.value(state.apply(o)).values[0]) for o, p in state.chance_outcomes()]
            mean = sum(p * v for p, v in outcomes)
            assert chain.value(state).values[0] == pytest.approx(mean, abs=1e-9)
            assert chain.expected(state).values[0] == pytest.approx(mean, abs=1e-12)
            state = state.apply(sample_chance(state, rng))
            checked += 1
        else:
            state = state.apply(_random(state, rng))
    assert checked > 5


@pytest.mark.parametrize("record, error, words", [
    ({"game": "pegs", "moves": ["6-6-6-6-6-7"]}, InvalidDiceError, "moves entry 0"),
    ({"game": "pegs", "moves": ["6-6-6-6-6"]}, InvalidDiceError, "has exactly 6 dice"),
    ({"game": "pegs", "moves": ["6-6-6-6-6-5", 3]}, IllegalMoveError, "moves entry 1.*row 3 is not legal"),
    ({"game": "pegs", "moves": ["6-6-6-6-6-5", "row"]}, IllegalMoveError, "names a row"),
    ({"game": "fives", "decisions": [{"board": BOARD, "roll": [1, 2, 3, 4, 5, 6], "throws": 2, "choice": 8}]},
     InvalidRecordError, "throws"),
    ({"game": "pegs", "decisions": [{"board": [0] * 11, "roll": [1, 2, 3, 4, 5, 6], "choice": 1}]},
     InvalidStateError, "a board has 12 rows"),
    ({"game": "pegs", "decisions": [{"board": BOARD, "roll": [1, 1, 1, 1, 1, 1], "choice": 1}]},
     IllegalMoveError, "nothing to decide"),
    ({"game": "pegs", "decisions": [{"board": BOARD, "roll": [6, 6, 2, 2, 4, 1], "choice": 5}]},
     IllegalMoveError, "5 is not legal here"),
    ({"game": "pegs", "rules": {"name": "fives"}, "moves": ["1-1-1-1-1-1"]}, InvalidRecordError, "name"),
])
def test_malformed_records_name_the_first_bad_entry(record, error, words):
    with pytest.raises(error, match=words):
        analyse(record, GAMES)
