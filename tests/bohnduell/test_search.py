"""Advisor (alpha-beta + exact tables) and the baseline players."""

from __future__ import annotations

import random

import pytest

from dicemath.games.bohnduell import Move, Rules, State, initial_state
from dicemath.games.bohnduell.players import (ExactPlayer, MatchResult, SearchPlayer, greedy_player,
                                              match, play_match_game, random_player)
from dicemath.core.errors import InvalidStateError
from dicemath.games.bohnduell.game import BOHNDUELL_GAME
from dicemath.games.bohnduell.rules import STANDARD
from dicemath.core.sources import Valued
from dicemath.games.bohnduell.search import MAX_DEPTH, SOLVE_POTENTIAL, TABLE_STOCK, SearchAdvisor, source_chain
from dicemath.games.bohnduell.solver_dense import solve_dense
from dicemath.games.bohnduell.solver_dict import DictSolver


@pytest.mark.parametrize("capture", ["last", "every"])
def test_full_depth_search_is_exact(capture):
    """Alpha-beta to the end of the game (no table) gives the exact solver's values."""
    rules = Rules(stock=7, capture=capture)
    start = initial_state(rules)
    advisor = SearchAdvisor(rules, depth=200, table_stock=0)
    exact = DictSolver(rules).move_values(start)
    advice = advisor.advise(start)
    assert {a.action: a.value for a in advice.options} == exact
    assert not advice.exact and not any(a.extras["method"] == "exact" for a in advice.options)
    # deeper in the game too
    position = start
    for move in ("S1", "S2", "S1", "S3"):
        position = position.apply(move)
    assert {a.action: a.value for a in advisor.advise(position).options} == DictSolver(rules).move_values(position)


def test_table_values_are_marked_exact():
    """The search marks the options it looks up exactly; the chain answers from the table."""
    position = State.from_str("1:1,0,0,0:1/0:3,2,0,0:2/A")
    advice = SearchAdvisor(position.rules, depth=1, table_stock=8).advise(position)
    assert [(a.text, a.value, a.extras["method"]) for a in advice.options] == [("H1", 3, "exact"), ("S1", 1, "exact")]
    assert not advice.exact and advice.source.startswith("search (depth 1)")
    chained = BOHNDUELL_GAME.advise(position, depth=1, table_stock=8)
    assert chained.exact and chained.source == "table"
    assert [(a.text, a.value) for a in chained.options] == [("H1", 3), ("S1", 1)]


def test_search_values_are_those_before_the_core_rebase():
    """The advisor on the core's negamax gives the values its own alpha-beta gave (pinned)."""
    position = initial_state(STANDARD)
    for move in ("S2", "S3", "S1", "S4"):
        position = position.apply(move)
    advice = SearchAdvisor(STANDARD, depth=6, table_stock=TABLE_STOCK).advise(position)
    assert [(str(o.action), o.value) for o in advice.options] == [
        ("S2", pytest.approx(0.4918233071086755, rel=1e-12)), ("S1", pytest.approx(-2.5686043845831117, rel=1e-12)),
        ("S3", pytest.approx(-4.251632547310189, rel=1e-12)), ("S4", pytest.approx(-5.718969243498869, rel=1e-12))]


@pytest.fixture
def own_cache(tmp_path, monkeypatch):
    """A cache of the test's own: the proof builds its strong table there, which would otherwise
    answer other files' small games from the shared cache (``solve``'s covering table)."""
    from dicemath.games.bohnduell import proof_source

    monkeypatch.setenv("DICEMATH_CACHE_DIR", str(tmp_path))
    proof_source._proof_table.cache_clear()
    yield
    proof_source._proof_table.cache_clear()


def test_the_chain_answers_from_its_first_covering_source(own_cache):
    chain = source_chain(STANDARD)
    assert [s.name for s in chain.sources] == ["table", "strong table", "solved start", "solve", "proof", "search"]
    in_table = initial_state(Rules(stock=TABLE_STOCK))
    small = State.from_str("0:0,0,0,20:0/0:1,0,0,0:59/A")           # a side of 20 beans, potential 81
    smaller = State.from_str("0:3,0,0,10:0/0:1,0,0,0:66/A")          # outside the table, potential 44
    assert small.potential() > SOLVE_POTENTIAL >= smaller.potential()
    assert max(map(sum, smaller.mover_sides)) > TABLE_STOCK
    beyond = initial_state(Rules(stock=45))                           # a start beyond the solved ones
    no_proof, small_proof = {"proof_seconds": 0}, {"proof_table_stock": 10}      # beyond the proof, or within it
    for state, name, settings in ((in_table, "table", no_proof), (smaller, "solve", no_proof),
                                  (small, "search", no_proof), (beyond, "search", small_proof),
                                  (small, "proof", small_proof)):
        source = chain.source_for(state, **settings)
        advice = BOHNDUELL_GAME.advise(state, depth=2, **settings)
        assert source.name == name and advice.exact == source.exact and advice.source.startswith(name)
        assert advice == chain.advise(state, depth=2, **settings)
    solved = BOHNDUELL_GAME.advise(smaller)
    assert {o.action: o.value for o in solved.options} == DictSolver(smaller.rules).move_values(smaller)


@pytest.mark.parametrize("depth", [0, -1, MAX_DEPTH + 1, True])
def test_depths_out_of_range_are_refused(depth):
    with pytest.raises(InvalidStateError, match="depth"):
        BOHNDUELL_GAME.advise(initial_state(), depth=depth)
    with pytest.raises(InvalidStateError, match="depth"):
        source_chain(STANDARD).value(initial_state(), depth=depth)


def test_a_finished_game_is_refused():
    over = State.from_str("0:0,0,0,0:2/0:0,0,0,0:4/A")
    with pytest.raises(InvalidStateError, match="over"):
        BOHNDUELL_GAME.advise(over)


def test_every_source_values_the_end_of_a_game_exactly():
    """A finished game's value is its final pot difference, exact, whichever source covers it."""
    over = State.from_str("0:0,0,0,0:2/0:0,0,0,0:4/A")
    chain = source_chain(over.rules)
    assert chain.source_for(over).name == "table"
    for source in chain.sources:
        assert source.value is not None and source.value(over) == Valued((-2.0, 2.0), True)
    assert chain.value(over, table_stock=0) == Valued((-2.0, 2.0), True)


@pytest.mark.parametrize("moves, source", [((), "table"), (("S1",), "table"), (("S2", "S1"), "table")])
def test_values_are_the_exact_tables_from_each_players_view(moves, source):
    """The chain's value of a position in the table: the dense table's final pot difference
    (mover's view), turned to ``(A - B, B - A)``."""
    rules = Rules(stock=6)
    state = initial_state(rules)
    for move in moves:
        state = state.apply(move)
    table = solve_dense(rules)
    mover = table.position_value(state)
    expected = (mover, -mover) if state.to_move == 0 else (-mover, mover)
    chain = source_chain(rules)
    assert chain.source_for(state, table_stock=6).name == source
    assert chain.value(state, table_stock=6) == Valued(tuple(float(v) for v in expected), True)


def test_values_are_the_best_advice_of_the_source_that_covers_the_position():
    """Beyond the exact sources a position's value is the search's best option, an estimate;
    in the solve's reach the exact solver's value."""
    solvable = State.from_str("0:3,0,0,10:0/0:1,0,0,0:66/A")
    searched = initial_state(STANDARD).apply("S1")
    solved_value = max(DictSolver(solvable.rules).move_values(solvable).values())
    assert source_chain(STANDARD).value(solvable) == Valued((float(solved_value), -float(solved_value)), True)
    best = SearchAdvisor(STANDARD, depth=2, table_stock=6).advise(searched).best
    assert best is not None and searched.to_move == 1
    assert source_chain(STANDARD).value(searched, depth=2, table_stock=6) == Valued((-best.value, best.value), False)


def test_greedy_takes_the_capture():
    # A: S1 captures nothing, S2's last bean lands in empty d3 facing B's d2 (3 beans).
    position = State.from_str("2:0,0,0,0:0/0:0,3,0,0:5/A")
    assert greedy_player(position, random.Random(0)) == Move("sow", 2)


def test_players_and_match():
    rules = Rules(stock=12)
    table = solve_dense(Rules(stock=12))
    exact = ExactPlayer(table)
    rng = random.Random(5)
    final = play_match_game(rules, exact, exact, rng)
    assert final.is_over() and final.pots[0] - final.pots[1] == table.position_value(initial_state(rules))
    result = match(rules, SearchPlayer(SearchAdvisor(rules, depth=2, table_stock=6)), random_player, games=20, seed=2)
    assert result.games == 20 and result.score > 0.5 and result.margin > 0
    low, high = result.score_interval()
    assert 0 <= low <= result.score <= high <= 1
    # perfect play guarantees at least the game value from its seat against anything
    value = table.position_value(initial_state(rules))
    for seed in range(4):
        as_a = play_match_game(rules, exact, greedy_player, random.Random(seed))
        as_b = play_match_game(rules, random_player, exact, random.Random(seed))
        assert as_a.pots[0] - as_a.pots[1] >= value and as_b.pots[1] - as_b.pots[0] >= -value


def test_wilson_interval():
    half = MatchResult(100, 50, 0, 50, 0.0, 1.0)
    low, high = half.score_interval()
    assert low == pytest.approx(1 - high) and 0.40 < low < 0.41   # Wilson, n=100, p=0.5: 0.4038


@pytest.mark.parametrize("depth", [1, 3])
def test_depth_limited_search_equals_core_alpha_beta(depth):
    """The advisor's side-keyed search against the core's alpha-beta over engine states,
    with the same horizon evaluation (pot difference plus the fitted estimate)."""
    from dicemath.core.search import alpha_beta
    rules = Rules(stock=9)
    advisor = SearchAdvisor(rules, depth=depth, table_stock=0)

    def evaluate(state):
        me, other = state.to_move, 1 - state.to_move
        return state.pots[me] - state.pots[other] + advisor.evaluate(*state.mover_sides)

    position = initial_state(rules)
    for move in ("S2", "S4", "S1", "S3", "S1"):
        position = position.apply(move)
        table = {}
        for advice in advisor.advise(position).options:
            child = position.apply(advice.action)
            if child.current_player() < 0:
                expected = child.returns()[position.to_move]
            else:
                expected = -alpha_beta(child, depth - 1, evaluate=evaluate, table=table)
            assert advice.value == pytest.approx(expected, abs=1e-9)
