"""Exact solvers: the dense table against the dictionary search, and hand-solved positions."""

from __future__ import annotations

import pytest

from dicemath.core.errors import InvalidStateError
from dicemath.games.bohnduell import Move, Rules, State, initial_state
from dicemath.games.bohnduell.solver_dense import side_closure, side_count, solve_dense
from dicemath.games.bohnduell.solver_dict import DictSolver, solve_from_start


@pytest.mark.parametrize("cups,stock,capture", [
    (4, 4, "last"), (4, 4, "every"), (3, 5, "last"), (3, 5, "every"), (5, 3, "last"),
])
def test_dense_equals_dict_on_every_position(cups, stock, capture):
    """Every pair of sides with <= stock beans each (not only reachable ones)."""
    table = solve_dense(Rules(cups=cups, stock=stock, capture=capture), sides="all")
    baseline = DictSolver(Rules(cups=cups, stock=stock, capture=capture))
    sides = [tuple(s) for s in table.index.sides.tolist()]
    assert len(sides) == side_count(cups, stock)
    for me in sides:
        for opp in sides:
            assert table.value(me, opp) == baseline.value(me, opp), (me, opp)
    # the default table (reachable sides only) holds the same values
    small = solve_dense(Rules(cups=cups, stock=stock, capture=capture))
    reachable = side_closure(cups, stock)
    assert {tuple(s) for s in small.index.sides.tolist()} == reachable
    for me in reachable:
        for opp in reachable:
            assert small.value(me, opp) == table.value(me, opp)


def test_side_closure_holds_every_reachable_side():
    """Every side met in the dictionary search from the start lies in the closure."""
    for capture in ("last", "every"):
        _, baseline = solve_from_start(Rules(stock=9, capture=capture))
        closure = side_closure(4, 9)
        assert {side for key in baseline.table for side in key} <= closure


@pytest.mark.parametrize("capture", ["last", "every"])
def test_dense_equals_dict_from_the_start(capture):
    """Stock 8: every reachable position, the reachable count, and the first moves."""
    rules = Rules(stock=8, capture=capture)
    value, baseline = solve_from_start(rules)
    table = solve_dense(Rules(stock=8, capture=capture))
    assert table.reachable_count() == len(baseline.table)
    for (me, opp), v in baseline.table.items():
        assert table.value(me, opp) == v
    start = initial_state(rules)
    assert table.position_value(start) == value
    assert table.move_values(start) == baseline.move_values(start)
    # a smaller game is answered by the same table
    small = initial_state(Rules(stock=5, capture=capture))
    assert table.position_value(small) == DictSolver(small.rules).position_value(small)


def test_hand_solved_harvest_before_capture():
    """A: stock 1, d1 = 1; B: d1 = 3 (overfilled), d2 = 2; pots 1 - 2, A to move.

    H1 (+1) lets B harvest H2 (+1), which fills B's d1 to 4; A's S1 then lands in his
    empty d4 facing B's d1 and captures 4: pots 6 - 3, A ahead by 3.
    S1 first captures only 3; then B H2 (+1), A H1 (+1), B H1 (+1): pots 5 - 4, +1.
    """
    position = State.from_str("1:1,0,0,0:1/0:3,2,0,0:2/A")
    expected = {Move("harvest", 1): 3, Move("sow", 1): 1}
    for solver in (DictSolver(position.rules), solve_dense(Rules(stock=5), sides="all"), solve_dense(Rules(stock=8))):
        assert solver.move_values(position) == expected
        assert solver.position_value(position) == 3
    assert not solve_dense(Rules(stock=5)).covers(position)   # B's side cannot arise with 5 beans
    line = solve_dense(Rules(stock=5), sides="all").principal_variation(position)
    assert [str(m) for m, _ in line] == ["H1", "H2", "S1"] and line[-1][1].pots == (6, 3)


@pytest.mark.parametrize("capture,best", [("last", 3), ("every", 6)])
def test_hand_solved_capture_variants(capture, best):
    """A: stock 2, B: d1 = 3, d2 = 4 (both overfilled, B can never move); pots 2 - 3.

    S2 sows d4 and d3: "last" captures only B's d2 (4 beans), "every" both (7 beans);
    S1 captures B's d1 (3) and the second S1 captures nothing. Values: last 4 vs 3,
    every 7 vs 3, minus the pot deficit 1.
    """
    position = State.from_str(f"2:0,0,0,0:2/0:3,4,0,0:3/A/{capture}")
    expected = {Move("sow", 1): 2, Move("sow", 2): best}
    assert DictSolver(position.rules).move_values(position) == expected
    assert solve_dense(Rules(stock=7, capture=capture), sides="all").move_values(position) == expected


def test_pass_positions_and_end():
    position = State.from_str("0:0,0,0,5:0/0:1,0,0,0:4/A")   # A passes, B harvests
    table = solve_dense(Rules(stock=5), sides="all")
    assert table.move_values(position) == {Move("pass"): -5}
    assert table.position_value(position) == DictSolver(position.rules).position_value(position) == -5
    over = position.apply("P").apply("H1")
    assert table.move_values(over) == {} and table.position_value(over) == -5


def test_table_bounds():
    table = solve_dense(Rules(stock=3))
    with pytest.raises(InvalidStateError):
        table.position_value(initial_state(Rules(stock=4)))
    with pytest.raises(InvalidStateError):
        table.position_value(initial_state(Rules(stock=3, capture="every")))
    with pytest.raises(InvalidStateError):
        table.rules_for(4)


def _overfills(me, move):
    """Python check: the move puts a bean into an own cup already holding its distance."""
    n = len(me) - 1
    if move.kind == "sow":
        cups = range(n, n - move.count, -1)
    elif move.kind == "harvest":
        cups = range(1, move.count)
    else:
        return False
    return any(me[d] == d for d in cups)


@pytest.mark.parametrize("capture", ["last", "every"])
def test_overfill_stats_against_python_count(capture):
    rules = Rules(stock=7, capture=capture)
    _, baseline = solve_from_start(rules)
    counts = {"positions": 0, "overfill_better": 0, "tie": 0, "overfill_worse": 0}
    loss = 0
    from dicemath.games.bohnduell.solver_dict import successors
    for (me, opp) in list(baseline.table):
        values = {m: g - baseline.value(*k) for m, g, k in successors(me, opp, rules.every)}
        over = [v for m, v in values.items() if _overfills(me, m)]
        clean = [v for m, v in values.items() if not _overfills(me, m) and m.kind != "pass"]
        if not over or not clean:
            continue
        counts["positions"] += 1
        if max(over) > max(clean):
            counts["overfill_better"] += 1
        elif max(over) == max(clean):
            counts["tie"] += 1
        else:
            counts["overfill_worse"] += 1
            loss += max(clean) - max(over)
    stats = solve_dense(Rules(stock=7, capture=capture)).overfill_stats()
    assert {k: stats[k] for k in counts} == counts and counts["positions"] > 300
    assert stats["mean_loss_when_worse"] == pytest.approx(loss / counts["overfill_worse"])


@pytest.mark.slow
@pytest.mark.parametrize("capture", ["last", "every"])
def test_dense_equals_dict_stock_10(capture):
    """Every position reachable from the 10-bean start (623,491 with capture last)."""
    rules = Rules(stock=10, capture=capture)
    _, baseline = solve_from_start(rules)
    table = solve_dense(Rules(stock=10, capture=capture))
    assert table.reachable_count() == len(baseline.table)
    assert all(table.value(me, opp) == v for (me, opp), v in baseline.table.items())


@pytest.mark.parametrize("cups,stock,capture", [(4, 5, "last"), (4, 5, "every"), (3, 5, "last"), (5, 6, "every")])
def test_solvers_agree_with_core_expectimax(cups, stock, capture):
    """The core's generic search over the rules engine's states (a method that knows
    nothing of sides, keys or tables) against the dictionary and dense solvers, at every
    reachable state."""
    from dicemath.core.search import expectimax
    rules = Rules(cups=cups, stock=stock, capture=capture)
    memo = {}
    start = initial_state(rules)
    expectimax(start, memo=memo)
    baseline = DictSolver(rules)
    table = solve_dense(Rules(cups=cups, stock=stock, capture=capture))
    assert len(memo) > 200
    for state, values in memo.items():
        if state.current_player() < 0:
            continue
        mover = state.to_move
        assert values[mover] == baseline.position_value(state) == table.position_value(state), state
        for move, value in table.move_values(state).items():
            assert value == memo[state.apply(move)][mover]
