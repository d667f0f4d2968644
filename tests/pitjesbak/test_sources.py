"""The chain's values: the two-player game solution values every state it covers, and every
source's covers accepts every state of the game."""

import random

import pytest

from dicemath.core.errors import InvalidStateError
from dicemath.core.game import CHANCE, TERMINAL, sample_chance
from dicemath.core.sources import NoSourceError, Valued
from dicemath.games.pitjesbak.game import PITJESBAK_GAME
from dicemath.games.pitjesbak.game_solver import solve_game
from dicemath.games.pitjesbak.limits import ESTIMATE, GAME_SOLUTION, TABLE_SOLUTION
from dicemath.games.pitjesbak.rules import Rules
from dicemath.games.pitjesbak.sources import default_solution, game_value, source_chain
from dicemath.games.pitjesbak.state import State, check_state, initial_state
from dicemath.games.pitjesbak.table_game import table_advice
from dicemath.games.pitjesbak.table_solver import table_solvable


def _states(start, seed, games=3):
    """Every state of a few random games (seeded) from ``start``, the end included."""
    rng = random.Random(seed)
    for _ in range(games):
        state = start
        while True:
            yield state
            if state.current_player() == TERMINAL:
                break
            actions = state.legal_actions() if state.current_player() >= 0 else None
            state = state.apply(sample_chance(state, rng) if actions is None else rng.choice(actions))


def test_values_agree_with_the_advice_and_the_expectation():
    """At a decision the mover's value is the best option of the game's advice; at a chance
    state the value is the expectation over the throws (an exact source); at the end the
    returns; the seats' values sum to 1."""
    rules = Rules(stripes=3)
    chain = PITJESBAK_GAME.sources(rules)
    kinds = set()
    for state in _states(initial_state(rules), seed=4):
        valued = chain.value(state)
        assert valued.exact and chain.source_for(state).name == GAME_SOLUTION
        assert sum(valued.values) == pytest.approx(1.0, abs=1e-12)
        player = state.current_player()
        if player == TERMINAL:
            assert valued == Valued(tuple(state.returns()), True)
        elif player == CHANCE:
            assert chain.expected(state).values == pytest.approx(valued.values, abs=1e-12)
        else:
            advice = PITJESBAK_GAME.advise(state)
            assert valued.values[player] == advice.best.value
        kinds.add(player if player < 0 else 0)
    assert kinds == {CHANCE, TERMINAL, 0}


def test_a_given_solution_values_as_the_default():
    small = solve_game(Rules(stripes=2), use_cache=False, compare=False)
    state = initial_state(small.rules).apply((6, 5, 4))
    assert game_value(state, solution=small) == source_chain().value(state)
    opening = game_value(initial_state(small.rules), solution=small).values[0]
    assert opening == pytest.approx(small.start_player_win_probability, abs=1e-12)
    with pytest.raises(InvalidStateError, match="game solution"):
        game_value(state, solution=object())


def test_every_source_covers_every_state_of_a_larger_table():
    """Chance, decisions and the end of games of three players: every source's covers answers;
    the two-player game solution values them once a player is out since an earlier round (his
    value 0) and values a finished game; no source values a round of three."""
    rules = Rules(players=3, stripes=2)
    chain = source_chain(rules)
    one_out = State(rules, (2, 2, 1), (False, False, True), (True, False, True), 2, (2, 0))
    check_state(one_out)
    valued = 0
    for state in [*_states(initial_state(rules), seed=2, games=4), *_states(one_out, seed=3)]:
        covered = [source.covers(state) for source in chain.sources]
        assert any(covered)
        if state.current_player() == TERMINAL:
            assert chain.source_for(state).name == GAME_SOLUTION
            assert chain.value(state) == Valued(tuple(state.returns()), True)
        elif len(state.order) == 2:
            values = chain.value(state).values
            out = next(seat for seat in range(3) if seat not in state.order)
            assert values[out] == 0.0 and sum(values) == pytest.approx(1.0, abs=1e-12)
            valued += 1
        else:
            with pytest.raises(NoSourceError):
                chain.value(state)
    assert valued


@pytest.mark.parametrize("players, stripes, kind", [(2, 2, GAME_SOLUTION), (3, 2, TABLE_SOLUTION),
                                                    (5, 2, ESTIMATE)])
def test_the_solution_of_a_table_is_the_one_of_the_source_that_covers_it(players, stripes, kind):
    """default_solution reads the chain: two players the game solution (exact), three within the
    table solver's limit the table solution (exact), five the estimate; the chain's advice at a
    decision of that table is table_advice from that solution."""
    rules = Rules(players=players, stripes=stripes)
    solution = default_solution(rules)
    assert solution.exact == (kind != ESTIMATE)
    assert table_solvable(rules, (stripes,) * players) == (kind == TABLE_SOLUTION)
    state = initial_state(rules).apply((6, 6, 2))
    advice = source_chain(rules).advise(state)
    assert advice.source == kind
    if players > 2:
        assert advice.detail == table_advice((stripes,) * players, (False,) * players, 0, dice=(6, 6, 2), throws=1,
                                             rules=rules, solution=solution)
