"""The solutions shipped with the package (:mod:`dicemath.games.pitjesbak.shipped`): what the
solvers give, read instead of solved, ignored under another format version."""

from __future__ import annotations

import random

import numpy as np
import pytest

from dicemath.games.pitjesbak import game_solver, table_solver
from dicemath.games.pitjesbak.game import PITJESBAK_GAME
from dicemath.games.pitjesbak.game_solver import GAME_SOLUTION_FORMAT, solve_game
from dicemath.games.pitjesbak.rules import PIPS, STANDARD, Rules
from dicemath.games.pitjesbak.shipped import SHIPPED, shipped_arrays, write_shipped
from dicemath.games.pitjesbak.sources import default_solution, source_chain
from dicemath.games.pitjesbak.state import initial_state
from dicemath.games.pitjesbak.table_solver import SOLUTION_FORMAT, solve_table, table_cap
from dicemath.games.pitjesbak.table_states import state_of

PRESETS = pytest.mark.parametrize("preset", [STANDARD, PIPS], ids=["traditional", "pips"])


TABLE = "pitjesbak-table-solution"


def _params(rules: Rules) -> tuple:
    """The parameters the chain solves a table with (the solver's defaults)."""
    return rules, table_cap(rules), 1e-12, 100


def _table(rules: Rules) -> dict:
    arrays = shipped_arrays(TABLE, _params(rules), SOLUTION_FORMAT)
    assert arrays is not None, f"no shipped solution of {rules}"
    return arrays


def test_the_file_is_written_with_the_solvers_formats():
    """A change of a solver's format version fails here until the file is written again."""
    with np.load(SHIPPED) as data:
        keys = [str(data[name]) for name in data.files if name.startswith("key_")]
        formats = {int(data[f"format_{i}"]) for i in range(len(keys))}
    assert sum(key.startswith("('pitjesbak-game'") for key in keys) == 4 and formats <= {SOLUTION_FORMAT,
                                                                                        GAME_SOLUTION_FORMAT}
    assert sum(key.startswith(f"('{TABLE}'") for key in keys) == 4
    assert shipped_arrays(TABLE, _params(Rules(players=4)), SOLUTION_FORMAT + 1) is None
    assert shipped_arrays("pitjesbak-game", _params(Rules(players=4)), SOLUTION_FORMAT) is None


@PRESETS
@pytest.mark.parametrize("players", [3, 4])
def test_the_chain_reads_the_shipped_solution(monkeypatch, preset, players):
    """The presets' tables of three and four players are read, never solved nor cached."""
    def refuse(*args, **kwargs):
        raise AssertionError(f"solved or cached: {args[:2]}")

    monkeypatch.setattr(table_solver, "cached_arrays", refuse)
    monkeypatch.setattr(game_solver, "cached_arrays", refuse)
    rules = preset.with_players(players)
    solution = default_solution(rules)
    assert solution.exact and solution.players == players and solution.cap == table_cap(rules)
    assert np.array_equal(solution.values, _table(rules)["values"])
    state = initial_state(rules).apply((6, 5, 1))
    assert source_chain().source_for(state).name == "table solution"
    assert PITJESBAK_GAME.advise(state).exact


@pytest.mark.parametrize("preset,compare", [(STANDARD, True), (PIPS, False)], ids=["traditional", "pips"])
def test_the_two_player_game_is_a_fresh_solve(monkeypatch, preset, compare):
    """The two-player game solution (the two-player advice with its comparison of policies, a
    larger table's subgame without) is read, and is what a fresh solve gives."""
    fresh = solve_game(preset, use_cache=False, compare=compare)
    monkeypatch.setattr(game_solver, "cached_arrays", lambda *args, **kwargs: pytest.fail("solved or cached"))
    shipped = solve_game(preset, compare=compare)
    assert np.array_equal(shipped.low, fresh.low) and np.array_equal(shipped.high, fresh.high)
    assert shipped.sweeps == fresh.sweeps and shipped.comparison == fresh.comparison
    assert len(shipped.comparison) == (3 if compare else 0)


@PRESETS
def test_three_players_are_a_fresh_solve(preset):
    rules = preset.with_players(3)
    fresh = solve_table(rules, use_cache=False)
    shipped = _table(rules)
    assert np.abs(shipped["values"] - fresh.values).max() < 1e-13
    assert int(shipped["sweeps"]) == fresh.sweeps


@PRESETS
def test_four_players_are_a_fixed_point_of_the_table_solvers_round(preset):
    """Each of 150 seeded states (and the opening) solved once more by backward induction over
    its round from the shipped values (the solver's Bellman operator) gives its shipped values
    back, and they are probabilities summing to 1."""
    rules = preset.with_players(4)
    solution = default_solution(rules)
    rng = random.Random(4)
    indices = [len(solution.values) - 1, *rng.sample(range(len(solution.values)), 150)]
    worst = 0.0
    for index in indices:
        stripes, wiped = state_of(index, 4, solution.cap, rules.stripes)
        again = np.array(solution.round_at(stripes, wiped).values)
        worst = max(worst, float(np.abs(again - solution.values[index]).max()))
    assert worst < 1e-10
    assert np.allclose(solution.values.sum(axis=1), 1.0, atol=1e-9) and (solution.values >= 0).all()
    assert np.isclose(sum(solution.opening_values), 1.0) and len(set(solution.opening_values)) == 4


@pytest.mark.slow
@PRESETS
def test_four_players_are_a_fresh_solve(preset):
    """The whole four-player solve (about half a minute) gives the shipped values."""
    rules = preset.with_players(4)
    fresh = solve_table(rules, use_cache=False)
    assert np.abs(_table(rules)["values"] - fresh.values).max() < 1e-13


def test_written_solutions_read_back(tmp_path):
    path = tmp_path / "solutions.npz"
    params = (Rules(players=3, stripes=1), 2, 1e-12, 100)
    arrays = {"values": np.arange(6.0).reshape(3, 2), "sweeps": np.array(4), "residual": np.array(1e-13)}
    other = {"low": np.zeros(3), "high": np.ones(3)}
    assert write_shipped([(TABLE, params, 7, arrays), ("other", params, 2, other)], path) == path.stat().st_size
    read = shipped_arrays(TABLE, params, 7, path)
    assert read is not None and read.keys() == arrays.keys()
    assert all(np.array_equal(read[name], arrays[name]) for name in arrays)
    assert not read["values"].flags.writeable           # shared by every solution read
    read.pop("values")
    assert shipped_arrays(TABLE, params, 7, path).keys() == arrays.keys()
    assert shipped_arrays("other", params, 2, path).keys() == other.keys()
    assert shipped_arrays(TABLE, params, 8, path) is None and shipped_arrays("other", params, 7, path) is None
    assert shipped_arrays(TABLE, (Rules(players=3, stripes=2), 2, 1e-12, 100), 7, path) is None
    assert shipped_arrays(TABLE, params, 7, tmp_path / "none.npz") is None
    with pytest.raises(ValueError, match="same name and parameters"):
        write_shipped([(TABLE, params, 7, arrays), (TABLE, params, 8, arrays)], path)
    with pytest.raises(ValueError, match="no arrays"):
        write_shipped([(TABLE, params, 7, {})], path)
