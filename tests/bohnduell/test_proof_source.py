"""The chain's proof on demand (proof_source.py): exact answers anywhere, checked against the dense solver.

On small stocks, with the dense table of the chain switched off (``table_stock=0``) and a
small proof table, every position of random games is answered by the source ``proof`` and its
values must be the strong solution's (the dense solver of the whole game, a second method).
Beyond its reach or its time limit the chain falls through to the search estimate, which says so.
A transposition table kept from position to position proves what a fresh one proves, within
its memory.
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
from dicemath.games.bohnduell.proof_compiled import ENTRY_BYTES, search_compiled, transpositions
from dicemath.games.bohnduell.proof_format import decode_move
from dicemath.games.bohnduell.proof_source import PROOF_REACH, prove_position, table_built
from dicemath.games.bohnduell.rules import Rules
from dicemath.games.bohnduell.search import source_chain
from dicemath.games.bohnduell.solver_dense import DenseTable, solve_dense
from dicemath.games.bohnduell.state import State, initial_state

PROOF = {"table_stock": 0, "proof_seconds": 60}
"""Settings that leave the positions of small games to the proof (no dense table in the chain)."""


@pytest.fixture(autouse=True, scope="module")
def own_cache(tmp_path_factory):
    """A cache of this file's own: the proof builds its strong tables there, and the chain's
    source ``strong table`` answers what they cover, so a larger one built by another test file
    in the shared cache would take the small games' positions from the proof."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DICEMATH_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
        proof_source._proof_table.cache_clear()
        yield
    proof_source._proof_table.cache_clear()


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
        if advice.source != "proof":                   # the start's shipped solution, a small solve, the proof's table
            assert advice.source in ("solved start", "solve", "strong table") and advice.exact
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
        advice = BOHNDUELL_GAME.advise(state, depth=1, table_stock=0, proof_seconds=1, proof_table_stock=4)
    finally:
        proof_source._proof.cache_clear()
    assert not advice.exact and advice.extras["proof"] == "not finished within 1 s over the table of 4 beans a side"


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
    assert err.count("dicemath: BohnDuell proves positions beyond its exact tables by search over the strong table "
                     "of 3 beans a side, built once now") == 1
    assert err.count("dicemath: building the strong BohnDuell table") == 1 and "GB on disk" in err


def game_positions(rules: Rules, seed: int) -> list[State]:
    """The positions of one random game in the order of play, the finished one left out."""
    rng, state, found = random.Random(seed), initial_state(rules), []
    while not state.is_over():
        found.append(state)
        state = state.apply(rng.choice(state.legal_actions()))
    return found


def proven(outcome) -> dict | None:
    """Each first move's proven future value, or None when one is not exact."""
    if outcome.exhausted or any(low != high for _, low, high in outcome.first_moves):
        return None
    return {decode_move(code): low for code, low, _ in outcome.first_moves}


@pytest.mark.parametrize("stock, capture, table_stock", [(11, "last", 5), (10, "every", 4)])
def test_a_kept_table_proves_what_a_fresh_one_proves(stock, capture, table_stock):
    """A game's positions in order of play, each searched with a table of its own and with one
    table kept from position to position: the same values, the dense solver's, in fewer nodes."""
    rules = Rules(stock=stock, capture=capture)
    table, truth = strong(table_stock, capture), strong(stock, capture)
    kept = transpositions(rules, 1 << 24)
    nodes = {"fresh": 0, "kept": 0}
    for state in game_positions(rules, seed=stock):
        base = state.pots[state.to_move] - state.pots[1 - state.to_move]
        fresh = search_compiled(rules, table, all_first_moves=True, sides=state.mover_sides, rows=False)
        reused = search_compiled(rules, table, all_first_moves=True, sides=state.mover_sides, rows=False,
                                 transpositions=kept)
        assert proven(reused) == proven(fresh)
        assert {m: base + v for m, v in proven(reused).items()} == truth.move_values(state)
        nodes["fresh"] += fresh.nodes
        nodes["kept"] += reused.nodes
    assert nodes["kept"] < nodes["fresh"]


@pytest.mark.parametrize("capture", ["last", "every"])
def test_a_kept_table_stays_within_its_memory(capture):
    """A kept table of 1,024 entries (the games' proofs hold thousands of positions) replaces
    entries, never grows beyond its memory, and its values stay the dense solver's; dropping the
    positions beyond a game's sides empties it of them."""
    rules = Rules(stock=10, capture=capture)
    table, truth = strong(4, capture), strong(10, capture)
    kept = transpositions(rules, 1024 * ENTRY_BYTES)
    for seed in range(3):
        for state in game_positions(rules, seed):
            base = state.pots[state.to_move] - state.pots[1 - state.to_move]
            outcome = search_compiled(rules, table, all_first_moves=True, sides=state.mover_sides, rows=False,
                                      transpositions=kept)
            assert {m: base + v for m, v in proven(outcome).items()} == truth.move_values(state)
            assert outcome.positions == kept.positions <= kept.capacity == 1024
            assert kept.bytes <= 1024 * ENTRY_BYTES
    assert kept.replaced > 0
    held = kept.positions
    assert kept.drop_beyond(10, 20) == 0 and kept.positions == held         # no side holds more than the stock
    assert kept.drop_beyond(0, 0) == held and kept.positions == 0


def test_the_source_keeps_one_table_for_a_game():
    """The chain's proofs of a game's positions share the process's table of the variant."""
    rules = Rules(stock=9)
    kept, _ = proof_source._kept(rules.cups, rules.capture)
    before = kept.positions
    proof_source._proof.cache_clear()
    for state in game_positions(rules, seed=1)[:6]:
        prove_position(state, 60, 4)
    assert kept.positions > before and kept.capacity * ENTRY_BYTES <= proof_source.PROOF_MEMORY


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
