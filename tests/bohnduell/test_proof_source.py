"""The chain's proof on demand (proof_source.py): exact answers anywhere, checked against the dense solver.

On small stocks, with the dense table of the chain switched off (``table_stock=0``) and a
small proof table, every position of random games is answered by the source ``proof`` and its
values must be the strong solution's (the dense solver of the whole game, a second method).
Beyond its reach or its time limit the chain falls through to the search estimate, which says so.
"""

from __future__ import annotations

import json
import random
from functools import lru_cache

import pytest

from dicemath.cli import main
from dicemath.core.errors import InvalidStateError
from dicemath.games.bohnduell import proof_source
from dicemath.games.bohnduell.game import BOHNDUELL_GAME
from dicemath.games.bohnduell.proof_compiled import search_compiled
from dicemath.games.bohnduell.proof_source import PROOF_REACH, prove_position, table_built
from dicemath.games.bohnduell.rules import Rules
from dicemath.games.bohnduell.search import source_chain
from dicemath.games.bohnduell.solver_dense import DenseTable, solve_dense
from dicemath.games.bohnduell.state import State, initial_state

PROOF = {"table_stock": 0, "proof_seconds": 60}
"""Settings that leave the positions of small games to the proof (no dense table in the chain)."""


@lru_cache(maxsize=None)
def strong(stock: int, capture: str) -> DenseTable:
    return solve_dense(Rules(stock=stock, capture=capture))


def positions(rules: Rules, games: int, seed: int) -> list[State]:
    """The positions of ``games`` random games from the start, each once, the finished ones left out."""
    rng, seen = random.Random(seed), {}
    for _ in range(games):
        state = initial_state(rules)
        while not state.is_over():
            seen.setdefault(str(state), state)
            state = state.apply(rng.choice(state.legal_actions()))
    return list(seen.values())


@pytest.mark.parametrize("stock, capture, proof_table_stock", [(8, "last", 4), (9, "every", 5), (7, "last", 0)])
def test_the_proven_values_are_the_strong_solutions(stock, capture, proof_table_stock):
    rules = Rules(stock=stock, capture=capture)
    table, chain = strong(stock, capture), source_chain(rules)
    beyond = 0
    for state in positions(rules, 6, seed=stock):
        advice = chain.advise(state, proof_table_stock=proof_table_stock, **PROOF)
        if advice.source != "proof":                   # the start's shipped solution, or a small solve
            assert advice.source in ("solved start", "solve") and advice.exact
            continue
        beyond += 1
        assert advice.exact and advice.extras["proof"].endswith(f"the table of {proof_table_stock} beans a side")
        assert {o.action: o.value for o in advice.options} == table.move_values(state)
        valued = chain.value(state, proof_table_stock=proof_table_stock, **PROOF)
        assert valued.exact and valued.values[state.to_move] == table.position_value(state)
    assert beyond >= 5


def test_the_game_and_the_page_answer_through_the_proof():
    state = initial_state(Rules(stock=8)).apply("S3").apply("S1")
    advice = BOHNDUELL_GAME.advise(state, proof_table_stock=4, **PROOF)
    assert advice.source == "proof" and advice.exact
    page = BOHNDUELL_GAME.page_advice({"position": str(state), "cups": None, "stock": None, "capture": "last",
                                       "depth": 6, "table_stock": 0, "proof_seconds": 60, "proof_table_stock": 4})
    assert page["source"] == "proof" and page["options"] == advice.as_dict()["options"]


def test_the_command_answers_exactly_by_the_proof(capsys):
    state = initial_state(Rules(stock=8)).apply("S2")
    assert main(["bohnduell", "advise", str(state), "--table-stock", "0", "--proof-table-stock", "4", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["exact"] and answer["source"] == "proof"
    assert {o["action"]: o["value"] for o in answer["options"]} == {
        str(m): v for m, v in strong(8, "last").move_values(state).items()}
    assert main(["bohnduell", "advise", str(state), "--table-stock", "0", "--proof-table-stock", "4"]) == 0
    assert "exact: perfect play (proof, proven in" in capsys.readouterr().out


def test_beyond_its_reach_the_estimate_answers_and_says_why():
    table_stock = 2
    state = initial_state(Rules(stock=table_stock + PROOF_REACH + 1)).apply("S1")      # not a shipped start
    proof = prove_position(state, 60, table_stock)
    assert proof.values is None and not proof.tried and proof.seconds == 0
    advice = BOHNDUELL_GAME.advise(state, depth=1, table_stock=0, proof_table_stock=table_stock)
    assert not advice.exact and advice.source.startswith("search")
    assert advice.extras["proof"] == f"not tried: a side holds more than {table_stock + PROOF_REACH} beans"
    assert "proof" not in BOHNDUELL_GAME.advise(state, depth=1, table_stock=0, proof_seconds=0).extras


def test_a_proof_out_of_time_falls_through_to_the_estimate(monkeypatch):
    state = initial_state(Rules(stock=16)).apply("S1")
    unfinished = search_compiled(Rules(stock=16), None, node_budget=50, all_first_moves=True, rows=False,
                                 sides=state.mover_sides)
    assert unfinished.exhausted
    monkeypatch.setattr(proof_source, "search_compiled", lambda *args, **kwargs: unfinished)
    proof_source._proof.cache_clear()
    try:
        advice = BOHNDUELL_GAME.advise(state, depth=1, table_stock=0, proof_seconds=1, proof_table_stock=8)
    finally:
        proof_source._proof.cache_clear()
    assert not advice.exact and advice.extras["proof"] == "not finished within 1 s over the table of 8 beans a side"


def test_the_search_of_a_position_without_rows_is_the_search_with_them():
    rules = Rules(stock=9)
    sides = initial_state(rules).apply("S2").apply("S1").mover_sides
    table = strong(5, "last")
    bare = search_compiled(rules, table, all_first_moves=True, sides=sides, rows=False)
    full = search_compiled(rules, table, all_first_moves=True, sides=sides)
    assert bare.rows.size == 0 < full.rows.size
    assert (bare.lower, bare.upper, bare.first_moves, bare.nodes) == (full.lower, full.upper, full.first_moves,
                                                                        full.nodes)


def test_the_first_use_says_so_with_its_cost(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DICEMATH_CACHE_DIR", str(tmp_path))
    proof_source._proof_table.cache_clear()
    proof_source._proof.cache_clear()
    try:
        assert not table_built(Rules(stock=3))
        prove_position(initial_state(Rules(stock=6)).apply("S1"), 60, 3)
        assert table_built(Rules(stock=3))
        proof_source._proof_table.cache_clear()
        proof_source._proof.cache_clear()
        prove_position(initial_state(Rules(stock=6)).apply("S1"), 60, 3)
    finally:
        proof_source._proof_table.cache_clear()
        proof_source._proof.cache_clear()
    err = capsys.readouterr().err
    assert err.count("dicemath: BohnDuell proves positions beyond its exact tables by search over the table of 3 "
                     "beans a side, built once now") == 1


@pytest.mark.parametrize("settings, message", [
    ({"proof_seconds": -1}, "proof seconds must be a whole number 0..600"),
    ({"proof_seconds": 601}, "proof seconds"),
    ({"proof_seconds": True}, "proof seconds"),
    ({"proof_table_stock": 64}, "proof table stock must be a whole number 0..63"),
    ({"proof_table_stock": 2.5}, "proof table stock"),
])
def test_bad_settings_are_refused(settings, message):
    with pytest.raises(InvalidStateError, match=message):
        BOHNDUELL_GAME.advise(initial_state(Rules(stock=8)), **settings)


@pytest.mark.parametrize("flag, value", [("--proof-seconds", "-1"), ("--proof-seconds", "x"),
                                         ("--proof-table-stock", "64")])
def test_bad_flags_exit_2(capsys, flag, value):
    with pytest.raises(SystemExit) as exit_:
        main(["bohnduell", "advise", "start", "--stock", "8", flag, value])
    assert exit_.value.code == 2 and flag in capsys.readouterr().err
