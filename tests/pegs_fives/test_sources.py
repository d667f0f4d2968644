"""The chains of sources of Pegs and Fives: the game's chain values every state (the end, a
throw, a decision) from the model its advice uses, its expectation before a throw is the mean
of its values after the throw's outcomes (a second method: the exact probabilities), and race
advice's own chain states its limits in ``covers``."""

from __future__ import annotations

import random

import pytest

from dicemath.core.game import CHANCE, TERMINAL
from dicemath.core.sources import combine
from dicemath.games.pegs_fives.fullboard.advice import SOLVE_MAX_ROWS, board_advisor, source_chain
from dicemath.games.pegs_fives.race_advice import RACE_CHAIN, SOLO_SOLVE_MAX_ROWS, race_position, solo_chain
from dicemath.games.pegs_fives.rules import FIVES, PEGS
from dicemath.games.pegs_fives.state import initial_state


@pytest.mark.parametrize("preset", [PEGS, FIVES], ids=["pegs", "fives"])
def test_expected_is_the_mean_of_the_values_after_each_outcome(preset):
    """Along a random three-row game: at every throw the chain's expectation equals the
    probability-weighted mean of its values after each outcome, at a decision its value is the
    best option's (one turn on: the turn in progress), and the end is worth the turns taken."""
    rules = preset.variant(rows=3)
    chain = source_chain(rules)
    rng = random.Random(5)
    state, throws = initial_state(rules), 0
    while state.current_player() != TERMINAL:
        assert chain.source_for(state).name == "solve"
        if state.current_player() == CHANCE:
            outcomes = [(float(p), chain.value(state.apply(o))) for o, p in state.chance_outcomes()]
            mean, expected = combine(outcomes), chain.expected(state)
            assert expected.exact and mean.exact
            assert expected.values[0] == pytest.approx(mean.values[0], abs=1e-9)
            state = state.apply(rng.choice(state.chance_outcomes())[0])
            throws += 1
        else:
            advice = chain.advise(state)
            assert chain.value(state).values[0] == state.turns + 1 + min(o.value for o in advice.options)
            state = state.apply(rng.choice(state.legal_actions()))
    assert throws > 3
    assert chain.value(state).values == (float(state.turns),) and chain.value(state).exact


def test_a_board_beyond_the_solve_is_valued_by_the_estimate_and_says_so():
    state = initial_state(PEGS)
    chain = source_chain(PEGS)
    source = chain.source_for(state)
    if source.name == "table":                          # a full-board table is built on this machine
        pytest.skip("a finished full-board table answers every board here")
    valued, before = chain.value(state), chain.expected(state)
    assert source.name == "estimate" and not valued.exact and not before.exact
    advisor = board_advisor(chain, state)
    assert advisor.source == "estimate" and valued.values[0] == pytest.approx(advisor.value(state.board), abs=1e-9)


@pytest.mark.parametrize("preset", [PEGS, FIVES], ids=["pegs", "fives"])
def test_the_solo_chain_solves_fewer_rows_than_the_games(preset):
    """The one limit between the solve and the estimate of each chain, stated in its covers."""
    limit = SOLO_SOLVE_MAX_ROWS[preset.name]
    assert limit <= SOLVE_MAX_ROWS
    for rows, game, solo in ((limit, "solve", "solve"), (SOLVE_MAX_ROWS, "solve", "solve" if limit == SOLVE_MAX_ROWS
                                                                                  else "estimate")):
        state = initial_state(preset, [0] * rows + [preset.goal] * (12 - rows))
        if source_chain(preset).source_for(state).name == "table":
            continue
        assert source_chain(preset).source_for(state).name == game
        assert solo_chain(preset).source_for(state).name == solo


def test_the_race_chain_states_its_limits_in_covers():
    position = race_position(PEGS, [5] * 9 + [3, 4, 4], (3, 4, 4, 1, 1, 2), [[5] * 10 + [2, 2]])
    assert RACE_CHAIN.source_for(position).name == "exact race"
    assert RACE_CHAIN.source_for(position, exact_max_rows=2).name == "turn-count model"
    several = race_position(PEGS, [5] * 9 + [3, 4, 4], (3, 4, 4, 1, 1, 2), [[5] * 10 + [2, 2], [5] * 11 + [3]])
    assert RACE_CHAIN.source_for(several).name == "exact three-player race"
    assert RACE_CHAIN.source_for(several, exact_max_rows=2).name == "turn-count model"
    assert RACE_CHAIN.advise(position).exact and RACE_CHAIN.advise(several).exact
    assert not RACE_CHAIN.advise(several, exact_max_rows=2).exact
    assert [s.name for s in RACE_CHAIN.sources] == ["exact race", "exact three-player race", "turn-count model"]
