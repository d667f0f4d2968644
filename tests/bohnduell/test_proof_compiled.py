"""The compiled proof search (proof_compiled.py, _proof_c.c) against the Python search and the solvers.

While its transposition table never replaces an entry the compiled search must be the Python
search (proof.py's _Prover) node for node: the same bounds, first moves, nodes, positions and
certificate bytes. With a table too small for the proof it replaces entries and must still
prove the dense solver's values, with a certificate the independent checker accepts.
"""

from __future__ import annotations

from functools import lru_cache

import pytest

from dicemath.core.errors import InvalidRulesError
from dicemath.games.bohnduell.proof import prove
from dicemath.games.bohnduell.proof_check import check_certificate
from dicemath.games.bohnduell.proof_compiled import ENTRY_BYTES, certificate, search_compiled, transpositions
from dicemath.games.bohnduell.proof_format import decode_move, pack
from dicemath.games.bohnduell.rules import Rules
from dicemath.games.bohnduell.search import solved_start
from dicemath.games.bohnduell.solver_dense import DenseTable, solve_dense
from dicemath.games.bohnduell.state import initial_state


@lru_cache(maxsize=None)
def dense(stock: int, capture: str = "last", cups: int = 4) -> DenseTable:
    return solve_dense(Rules(cups=cups, stock=stock, capture=capture))


def truth(rules: Rules) -> tuple[int, dict]:
    """The dense solver's value of the start and of each first move."""
    table, start = dense(rules.stock, rules.capture, rules.cups), initial_state(rules)
    return table.position_value(start), table.move_values(start)


def assert_same(compiled, python) -> None:
    assert compiled.engine == "compiled" and python.engine == "python" and compiled.replaced == 0
    assert (compiled.lower, compiled.upper, compiled.first_moves, compiled.exhausted) == (
        python.lower, python.upper, python.first_moves, python.exhausted)
    assert (compiled.nodes, compiled.positions) == (python.nodes, python.positions)
    assert pack(compiled.certificate) == pack(python.certificate)


@pytest.mark.parametrize("rules, table_stock, all_first_moves", [
    (Rules(stock=4), 0, True), (Rules(stock=7, capture="every"), 0, True), (Rules(stock=8), 0, False),
    (Rules(stock=10), 6, False), (Rules(stock=9, capture="every"), 6, False), (Rules(cups=3, stock=7), 0, True),
    (Rules(cups=7, stock=5), 0, True)])
def test_the_compiled_search_is_the_python_search(rules, table_stock, all_first_moves):
    table = dense(table_stock, rules.capture, rules.cups) if table_stock else None
    compiled = prove(rules, table, all_first_moves=all_first_moves)
    python = prove(rules, table, all_first_moves=all_first_moves, engine="python")
    assert_same(compiled, python)
    value, moves = truth(rules)
    assert compiled.value == value and check_certificate(compiled.certificate, table).value == value
    if all_first_moves:
        assert compiled.first_moves == {m: (v, v) for m, v in moves.items()}


@pytest.mark.parametrize("budget", [0, 50, 3000])
def test_a_node_budget_stops_both_searches_at_the_same_bounds(budget):
    rules, table = Rules(stock=10), dense(6)
    compiled = prove(rules, table, node_budget=budget, all_first_moves=True)
    assert_same(compiled, prove(rules, table, node_budget=budget, all_first_moves=True, engine="python"))
    assert compiled.exhausted and compiled.nodes == budget and not compiled.complete
    checked = check_certificate(compiled.certificate, table)
    assert (checked.lower, checked.upper) == (compiled.lower, compiled.upper)


def test_no_time_gives_the_static_bounds():
    result = prove(Rules(stock=12), dense(8), seconds=0)
    assert result.exhausted and (result.lower, result.upper) == (-24, 24) and result.engine == "compiled"


@pytest.mark.parametrize("capture", ["last", "every"])
@pytest.mark.parametrize("entries", [8, 256, 2048])
def test_a_small_table_replaces_entries_and_proves_the_same_values(capture, entries):
    """Far fewer entries than the 15,000 positions of the proof: replaced bounds are proven again."""
    rules = Rules(stock=10, capture=capture)
    result = prove(rules, dense(6, capture), all_first_moves=True, memory=entries * ENTRY_BYTES)
    value, moves = truth(rules)
    assert result.replaced > 0 and result.positions <= entries
    assert result.value == value and result.first_moves == {m: (v, v) for m, v in moves.items()}
    assert result.best_moves == [m for m, v in moves.items() if v == value]
    checked = check_certificate(result.certificate, dense(6, capture))
    assert (checked.lower, checked.upper, checked.first_moves) == (value, value, result.first_moves)


def test_a_small_table_under_a_budget_gives_honest_bounds():
    rules, table = Rules(stock=10), dense(6)
    value, moves = truth(rules)
    result = prove(rules, table, node_budget=8_000, memory=512 * ENTRY_BYTES, all_first_moves=True)
    assert result.lower <= value <= result.upper
    assert all(low <= moves[m] <= high for m, (low, high) in result.first_moves.items())
    checked = check_certificate(result.certificate, table)
    assert (checked.lower, checked.upper) == (result.lower, result.upper)


def test_refusals():
    with pytest.raises(InvalidRulesError, match="at most 7 cups"):
        prove(Rules(cups=8, stock=3), engine="compiled")
    assert prove(Rules(cups=8, stock=2)).engine == "python"
    with pytest.raises(InvalidRulesError, match="engine"):
        prove(Rules(stock=3), engine="fast")
    with pytest.raises(InvalidRulesError, match="at least"):
        prove(Rules(stock=3), memory=10)
    with pytest.raises(InvalidRulesError, match="capture"):
        search_compiled(Rules(stock=8), dense(4, "every"))


@pytest.mark.slow
@pytest.mark.parametrize("stock", [16, 18])
def test_every_first_move_against_the_solved_starts(stock):
    """Beyond the fast tests' stocks: the shipped solution (data/solved_starts.json, from the dense
    tables), over a 12-bean table, and the certificate checked."""
    shipped = solved_start(Rules(stock=stock))
    result = prove(Rules(stock=stock), dense(12), all_first_moves=True)
    assert result.value == shipped["value"]
    assert {str(m): low for m, (low, high) in result.first_moves.items() if low == high} == shipped["first_moves"]
    assert check_certificate(result.certificate, dense(12)).value == result.value


@pytest.mark.parametrize("rules, table_stock", [(Rules(stock=10), 6), (Rules(stock=9, capture="every"), 5)])
def test_a_fresh_kept_table_searches_as_a_table_of_its_own(rules, table_stock):
    table, memory = dense(table_stock, rules.capture), 1 << 22
    own = search_compiled(rules, table, all_first_moves=True, memory=memory)
    kept = transpositions(rules, memory)
    shared = search_compiled(rules, table, all_first_moves=True, transpositions=kept)
    assert (shared.lower, shared.upper, shared.first_moves, shared.nodes, shared.positions, shared.replaced) == (
        own.lower, own.upper, own.first_moves, own.nodes, own.positions, own.replaced)
    assert shared.rows.tobytes() == own.rows.tobytes() and kept.positions == own.positions


@pytest.mark.parametrize("capture", ["last", "every"])
def test_a_certificate_from_a_kept_table_checks(capture):
    """The kept table first proves a position after two moves; the start's proof then reuses its
    bounds (fewer nodes) and its certificate is accepted by the independent checker."""
    rules, table = Rules(stock=10, capture=capture), dense(6, capture)
    value, moves = truth(rules)
    kept = transpositions(rules, 1 << 22)
    later = initial_state(rules).apply("S2").apply("S1")
    search_compiled(rules, table, all_first_moves=True, sides=later.mover_sides, rows=False, transpositions=kept)
    shared = search_compiled(rules, table, all_first_moves=True, transpositions=kept)
    assert shared.nodes < search_compiled(rules, table, all_first_moves=True).nodes
    checked = check_certificate(certificate(rules, shared, 6), table)
    assert checked.value == value == shared.lower == shared.upper
    assert {decode_move(code): low for code, low, high in shared.first_moves if low == high} == moves


def test_a_kept_table_of_another_variant_is_refused():
    kept = transpositions(Rules(capture="every"), 1 << 16)
    with pytest.raises(ValueError, match="every=1"):
        search_compiled(Rules(stock=6), None, transpositions=kept)
    with pytest.raises(InvalidRulesError, match="at least"):
        transpositions(Rules(), 10)
