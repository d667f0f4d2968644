"""BohnDuell analysis: exact losses against the dictionary solver, perfect play costs nothing,
the value changes only by the losses, search values are advise's, malformed records."""

from __future__ import annotations

import random

import pytest

from dicemath.analysis import InvalidRecordError, analyse, game_named
from dicemath.games.registry import GAMES
from dicemath.analysis.play import record_game
from dicemath.core.errors import IllegalMoveError, InvalidStateError
from dicemath.games.bohnduell import DictSolver, Rules, State, initial_state, load_dense
from dicemath.games.bohnduell.players import ExactPlayer, greedy_player, random_player
from dicemath.games.bohnduell.search import SOLVE_POTENTIAL, TABLE_STOCK, source_chain

BOHNDUELL = game_named("bohnduell", GAMES)


def test_losses_are_the_dictionary_solvers_differences():
    """Second method: memoised negamax over sides (not the dense table) on a small game."""
    rules = Rules(stock=7)
    record = record_game(BOHNDUELL, (random_player, greedy_player), seed=5, rules={"stock": 7})
    analysis = analyse(record, GAMES)
    solver = DictSolver(rules)
    state = initial_state(rules)
    costs = {d.index: d for d in analysis.decisions}
    for index, token in enumerate(record.moves):
        values = {str(m): v for m, v in solver.move_values(state).items()}
        if index in costs:
            assert costs[index].exact
            assert costs[index].loss == max(values.values()) - values[token]
            assert costs[index].values == {m: float(v) for m, v in values.items()}
        state = state.apply(token)
    assert any(d.loss > 0 for d in analysis.decisions)


def test_perfect_play_loses_nothing_and_the_value_never_moves():
    table = load_dense(Rules(stock=12))
    perfect = ExactPlayer(table)
    analysis = analyse(record_game(BOHNDUELL, (perfect, perfect), seed=2, rules={"stock": 10}), GAMES)
    assert analysis.exact and analysis.finished
    assert all(d.loss == 0 for d in analysis.decisions)
    values = {v.values for _, v in analysis.trajectory}
    assert len(values) == 1


@pytest.mark.parametrize("seed", [1, 2])
def test_the_value_changes_by_the_losses(seed):
    analysis = analyse(record_game(BOHNDUELL, (random_player, greedy_player), seed=seed, rules={"stock": 9}),
                       GAMES)
    start, end = analysis.trajectory[0][1].values[0], analysis.trajectory[-1][1].values[0]
    loss_a = sum(d.loss for d in analysis.by_seat(0))
    loss_b = sum(d.loss for d in analysis.by_seat(1))
    assert not analysis.chance and analysis.exact
    assert end - start == loss_b - loss_a


def test_search_values_are_advises():
    position = "30:1,2,0,3:2/31:0,1,3,0:3/A"
    entry = {"position": position, "choice": "S1", "depth": 3, "table_stock": 8, "proof_seconds": 0}
    cost = analyse({"game": "bohnduell", "decisions": [entry]}, GAMES).decisions[0]
    advice = BOHNDUELL.advise(State.from_str(position), depth=3, table_stock=8, proof_seconds=0).as_dict()
    assert not cost.exact and cost.source == advice["source"]
    assert cost.values == {m["move"]: m["value"] for m in advice["options"]}
    assert cost.best == advice["best"] or cost.loss == 0


def _random_decisions(seed: int, count: int) -> list[State]:
    """Decision states drawn by random play: small games (in the table), the 40-bean game
    early (searched) and late (down to the exact solve's potential, or into the table)."""
    rng = random.Random(seed)
    states = []
    while len(states) < count:
        stock = rng.choice([6, 10, 40, 40])
        state = initial_state(Rules(stock=stock, capture=rng.choice(["last", "every"])))
        stop = rng.randint(0, 12) if stock < 40 and rng.random() < 0.5 else rng.choice([rng.randint(0, 12), 10**6])
        moves = 0
        while not state.is_over() and moves < stop and (stop < 10**6 or state.potential() > SOLVE_POTENTIAL):
            state = state.apply(random_player(state, rng))
            moves += 1
        if not state.is_over():
            states.append(state)
    return states


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_analyse_values_each_decision_as_advise_does(seed):
    """Random decisions (seeded, within and beyond the table): analyse gives each the values,
    the exact flag and the source that advise gives (the proof on demand off: its first use
    builds a table of 8.7 GB; tests/bohnduell/test_proof_source.py covers it)."""
    rng = random.Random(100 + seed)
    seen = set()
    for state in _random_decisions(seed, 8):
        depth, table_stock = rng.choice([1, 2, 3]), rng.choice([8, TABLE_STOCK])
        choice = rng.choice(state.legal_actions())
        record = {"game": "bohnduell", "rules": {"cups": 4, "capture": state.rules.capture},
                  "decisions": [{"position": str(state), "choice": str(choice), "depth": depth,
                                 "table_stock": table_stock, "proof_seconds": 0}]}
        cost = analyse(record, GAMES).decisions[0]
        advice = BOHNDUELL.advise(state, depth=depth, table_stock=table_stock, proof_seconds=0)
        assert cost.values == {o.text: float(o.value) for o in advice.options}
        assert (cost.exact, cost.source) == (advice.exact, advice.source)
        seen.add(source_chain(state.rules).source_for(state, depth=depth, table_stock=table_stock,
                                                      proof_seconds=0).name)
    assert "search" in seen and seen & {"table", "solve"}


@pytest.mark.parametrize("record, error, words", [
    ({"game": "bohnduell", "rules": {"stock": 6}, "moves": ["S4", "S9"]}, IllegalMoveError, "moves entry 1"),
    ({"game": "bohnduell", "rules": {"stock": 6}, "moves": ["S4", "Q"]}, IllegalMoveError, "cannot read move"),
    ({"game": "bohnduell", "rules": {"stock": 6}, "moves": ["S4", 4]}, InvalidRecordError, "written as text"),
    ({"game": "bohnduell", "rules": {"stock": 1}, "moves": ["S1", "S1", "H1", "P", "S1"]}, InvalidRecordError,
     "already over"),
    ({"game": "bohnduell", "settings": {"depth": 0}, "moves": ["S4"]}, InvalidStateError, "start: .*depth"),
    ({"game": "bohnduell", "settings": {"speed": 3}, "moves": ["S4"]}, InvalidRecordError, "speed"),
    ({"game": "bohnduell", "decisions": [{"position": "1:0,0,0:0/1:0,0,0:0/A", "choice": "S1"}]},
     InvalidRecordError, "3 cups"),
    ({"game": "bohnduell", "decisions": [{"position": "oops", "choice": "S1"}]}, InvalidStateError,
     "decisions entry 0"),
    ({"game": "bohnduell", "decisions": [{"position": "start", "choice": "H1"}]}, IllegalMoveError,
     "H1 is not legal"),
])
def test_malformed_records_name_the_first_bad_entry(record, error, words):
    with pytest.raises(error, match=words):
        analyse(record, GAMES)
