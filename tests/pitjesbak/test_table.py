"""Pitjesbak at a table of n players (:mod:`dicemath.games.pitjesbak.table_round`,
:mod:`dicemath.games.pitjesbak.table_solver`, :mod:`dicemath.games.pitjesbak.table_game`): the
round induction against the exact round solver and against a brute-force enumeration of the
joint throws, the game values against the two-player solver and the former three-player one,
simulation of the computed policy, and bad tables."""

from __future__ import annotations

import random
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

from dicemath.core.errors import InvalidDiceError, InvalidRulesError, InvalidStateError
from dicemath.games.pitjesbak.game_solver import solve_game
from dicemath.games.pitjesbak.round_solver import solve_round
from dicemath.games.pitjesbak.rules import PIPS, Rules
from dicemath.games.pitjesbak.simulate import simulate_game
from dicemath.games.pitjesbak.state import next_start, round_order
from dicemath.games.pitjesbak.table_game import table_advice, table_policy
from dicemath.games.pitjesbak.table_solver import (
    TableSolution,
    solve_table,
    two_player_solution,
)
from dicemath.games.pitjesbak.table_round import solve_table_round
from dicemath.games.pitjesbak.table_states import all_states, state_count, state_index, state_of
from dicemath.games.pitjesbak.throws import class_rows, class_space


# -- the round against the exact round solver (each maximises P(win the round)) --------------

@pytest.mark.parametrize("rules", [Rules(), PIPS], ids=["traditional", "pips"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_round_matches_exact_round_solver(rules, players):
    flags = [bool((players * 7 + k) % 3 == 0) for k in range(players)]
    solved = solve_table_round(rules, flags)
    exact = solve_round(rules, flags, exact=players <= 3)
    assert solved.values == pytest.approx([float(p) for p in exact.win_probabilities], abs=1e-12)


def test_round_decisions_match_round_solver():
    """The follower's stop and throw-again values at a knowledge state equal the round
    solver's plan (position 2 of 4, limit 3, best 5-5-5 held by position 0, position 1 below)."""
    rules = Rules(players=4)
    solved = solve_table_round(rules)
    exact = solve_round(rules, exact=False)
    space = class_space(rules)
    level = space.levels[space.index_of_throw((5, 5, 5))]
    plan = exact.plan(2, 3, level, 1)
    for dice in [(6, 6, 6), (5, 5, 5), (6, 6, 2), (1, 1, 1), (2, 2, 3)]:
        stop, again = solved.decision(2, before=[(5, 5, 5), (6, 4, 1)], limit=3, dice=dice, throws=1)
        c = space.index_of_throw(dice)
        assert stop[2] == pytest.approx(float(plan.stop_values[c]), abs=1e-12)
        assert again[2] == pytest.approx(float(plan.continue_values[0]), abs=1e-12)


# -- the round against brute force over the joint throws, with game values ------------------

def _random_values(players: int, cap: int, start: int, seed: int) -> np.ndarray:
    """Arbitrary positive value vectors (summing to 1) for every state of a table."""
    rng = np.random.default_rng(seed)
    values = rng.random((state_count(players, cap, start), players)) + 0.05
    return values / values.sum(axis=1, keepdims=True)


@lru_cache(maxsize=None)
def _random_solution(cap: int, start: int) -> TableSolution:
    rules = Rules(players=3, stripes=start)
    two = two_player_solution(rules, cap + 4)
    return TableSolution(rules, cap, _random_values(3, cap, start, seed=cap), 0, 0.0, 0.0, {2: two})


def _brute_force_round(solution: TableSolution, stripes, wiped):
    """The round's value vector by backward induction over the explicit histories of counting
    classes (42**3 joint throws), settled directly from docs/rules.md PIT-4..PIT-8; the next
    start player and the turn order come from the engine (:mod:`.state`)."""
    rules = solution.rules
    n = 3
    space = class_space(rules)
    probs = space.probabilities()
    apen = space.apen
    OUT = -1

    def unit(k):
        v = np.zeros(n)
        v[k] = 1.0
        return v

    def successor(alive, new_stripes, new_wiped):
        start = next_start(0, alive)                   # PIT-8, positions as seats
        order = round_order(start, alive)
        answering = solution.solution_for(len(order))
        values = answering.values[state_index([new_stripes[p] for p in order], [new_wiped[p] for p in order],
                                                answering.cap, rules.stripes)]
        out = np.zeros(n)
        for k, pos in enumerate(order):
            out[pos] = values[k]
        return out

    @lru_cache(maxsize=None)
    def settle(history):
        alive = tuple(c != OUT for c in history)
        if sum(alive) == 1:
            return unit(alive.index(True))
        ranked = [(space.levels[c], pos) for pos, c in enumerate(history) if c != OUT]
        top = max(level for level, _ in ranked)
        holders = [pos for level, pos in ranked if level == top]
        total = np.zeros(n)
        for winner in holders:
            wipe = space.classes[history[winner]].wipe if len(holders) == 1 else 1
            new = list(stripes)
            new[winner] = max(0, new[winner] - wipe)
            for pos, c in enumerate(history):
                if c != OUT and space.classes[c].penalty:
                    new[pos] += 1
            if new[winner] == 0:
                total += unit(winner) / len(holders)
                continue
            flags = list(wiped)
            flags[winner] = True
            total += successor(alive, new, flags) / len(holders)
        return total

    @lru_cache(maxsize=None)
    def turn(position, history, limit):
        """Value vector before ``position`` throws (``limit`` throws; position 0: up to 3)."""
        if position == n:
            return settle(history)
        alive_before = [c != OUT for c in history]
        if position == n - 1 and not any(alive_before):
            return unit(position)

        def counted(c, lim):
            if c == apen:
                if wiped[position]:
                    return unit(position)
                return turn(position + 1, history + (OUT,), lim)
            return turn(position + 1, history + (c,), lim)

        throws = 3 if position == 0 else limit
        cont = None
        for t in range(throws, 0, -1):
            lim = t if position == 0 else limit
            stops = [counted(c, lim) for c in range(space.size)]
            if cont is None:
                value = sum(p * s for p, s in zip(probs, stops))
            else:
                value = sum(p * (s if s[position] >= cont[position] else cont) for p, s in zip(probs, stops))
            cont = value
        return cont

    return turn(0, (), 0), turn


@pytest.mark.parametrize("stripes,wiped", [((2, 3, 1), (True, False, True)), ((3, 4, 2), (False, False, True)),
                                           ((1, 1, 1), (True, True, True))])
def test_round_matches_brute_force_three_players(stripes, wiped):
    """Same round, same successor values (arbitrary ones): the knowledge-state induction equals
    the full enumeration of the joint throws, at the start and at follower decisions."""
    solution = _random_solution(cap=4, start=2)
    expected, turn = _brute_force_round(solution, stripes, wiped)
    solved = solution.round_at(stripes, wiped)
    assert solved.values == pytest.approx(list(expected), abs=1e-12)
    space = class_space(solution.rules)
    # position 2 after a 5-5-5 and a 6-6-2, limit 2; position 1 after an elimination, limit 1
    for position, before, history, limit in [(2, [(5, 5, 5), (6, 6, 2)], ((5, 5, 5), (6, 6, 2)), 2),
                                             (1, [None], (None,), 1), (2, [None, (2, 2, 3)], (None, (2, 2, 3)), 3)]:
        if any(d is None and wiped[pos] for pos, d in enumerate(before)):
            continue                                   # a wiped player's 1-1-1 wins, not out (PIT-6)
        hist = tuple(-1 if d is None else space.index_of_throw(d) for d in history)
        stop, _ = solved.decision(position, before=before, limit=limit, dice=(6, 5, 4), throws=limit)
        expected_stop = turn(position + 1, hist + (space.index_of_throw((6, 5, 4)),), limit)
        assert stop == pytest.approx(list(expected_stop), abs=1e-12)
        if limit > 1:
            _, again = solved.decision(position, before=before, limit=limit, dice=(3, 2, 2), throws=1)
            assert again is not None


def test_start_player_values_are_consistent():
    """The start player's value is the expectation over his first throw of the better of
    stopping and throwing again (ties: stop)."""
    solution = solve_table(Rules(players=3, stripes=2), cap=3, use_cache=False)
    solved = solution.round_at((2, 3, 2), (True, False, True))
    stop, again = solved.start_values()
    probs = class_space(solution.rules).probabilities()
    first = np.where((stop[0, :, 0] >= again[0, 0])[:, None], stop[0], again[0][None, :])
    assert solved.values == pytest.approx(list(probs @ first), abs=1e-12)
    assert solution.value((2, 3, 2), (True, False, True)) == pytest.approx(solved.values, abs=1e-12)


# -- the game against the two- and three-player solvers ----------------------------------------

def test_two_players_reproduce_the_exact_solver():
    """n = 2 equals the two-player solver (rigorous bounds) on every state with at most the
    starting stripes, to 1e-10 (measured 2e-15 with the same cap 17)."""
    rules = Rules(stripes=9)
    exact = solve_game(rules, compare=False)
    solution = solve_table(rules.with_players(2), cap=exact.cap, use_cache=False)
    stripes, _ = all_states(2, solution.cap, rules.stripes)
    worst = 0.0
    for index in np.flatnonzero((stripes <= rules.stripes).all(axis=1)):
        (a, b), (fa, fb) = state_of(int(index), 2, solution.cap, rules.stripes)
        v = exact.value(a, fa, b, fb)
        worst = max(worst, abs(solution.values[index, 0] - v), abs(solution.values[index, 1] - (1 - v)))
    assert worst < 1e-10
    assert solution.opening_values[0] == pytest.approx(0.509571, abs=5e-7)


GAME_SOLVER3 = Path(__file__).parent / "data" / "game_solver3_values.npz"
"""The values of the former three-player solver ``game_solver3`` (commit 77752d8: value
iteration over the 42**3 joint throws of every round, an independent implementation; 34 s
and 537 s), in the order of :func:`state_index`, kept when :func:`solve_table` replaced it."""


@pytest.mark.parametrize("stripes,cap", [(1, 2), (2, 4)])
def test_three_players_reproduce_the_joint_throw_solver(stripes, cap):
    """n = 3 equals the former solver that enumerated the joint throws, on every state, to
    1e-11 (measured 4e-15)."""
    expected = np.load(GAME_SOLVER3)[f"stripes{stripes}_cap{cap}"]
    solution = solve_table(Rules(players=3, stripes=stripes), cap=cap)
    assert np.abs(solution.values - expected).max() < 1e-11


def test_win_probabilities_of_an_engine_state():
    from dicemath.games.pitjesbak.state import initial_state

    solution = solve_table(Rules(players=3, stripes=1), cap=2)
    state = initial_state(solution.rules, start=1)
    by_seat = solution.win_probabilities(state)
    assert by_seat == pytest.approx([solution.opening_values[k] for k in (2, 0, 1)], abs=1e-15)
    with pytest.raises(InvalidStateError):
        solution.win_probabilities(state.apply((6, 5, 4)))


def test_values_are_probability_vectors():
    solution = solve_table(Rules(players=4, stripes=1), cap=2, use_cache=False)
    assert np.allclose(solution.values.sum(axis=1), 1.0, atol=1e-10)
    assert (solution.values > 0).all()
    assert solution.residual < 1e-12


# -- Monte Carlo of the computed policy ------------------------------------------------------------

def _simulate(solution: TableSolution, games: int, seed: int) -> list[float]:
    rng = random.Random(seed)
    policy = table_policy(solution)
    wins = [0] * solution.players
    for _ in range(games):
        wins[simulate_game(solution.rules, policy, rng=rng).winner] += 1
    return [w / games for w in wins]


def _within(values, freqs, games, sigmas=4.0):
    for p, f in zip(values, freqs):
        assert abs(f - p) < sigmas * (p * (1 - p) / games) ** 0.5, (values, freqs)


def test_policy_simulation_three_players():
    """1500 simulated games of the computed policy (3 players, 1 stripe): each seat's win
    frequency is within 4 standard errors of the computed probability."""
    solution = solve_table(Rules(players=3, stripes=1), cap=3)
    _within(solution.opening_values, _simulate(solution, 1500, seed=3), 1500)


@pytest.mark.slow
def test_policy_simulation_four_players():
    """4000 games at a table of four with 2 stripes (the three- and two-player subgames after
    eliminations included), within 4 standard errors."""
    solution = solve_table(Rules(players=4, stripes=2), cap=4)
    _within(solution.opening_values, _simulate(solution, 4000, seed=4), 4000)


# -- advice and bad tables ----------------------------------------------------------------------

def test_advice_at_a_table_of_three():
    solution = solve_table(Rules(players=3, stripes=2), cap=4)
    advice = table_advice((2, 2, 3), (True, True, False), 2, before=[(5, 5, 5), (6, 6, 2)], limit=2,
                          dice=(6, 6, 2), throws=1, rules=Rules(stripes=2), solution=solution)
    solved = solution.round_at((2, 2, 3), (True, True, False))
    stop, again = solved.decision(2, before=[(5, 5, 5), (6, 6, 2)], limit=2, dice=(6, 6, 2), throws=1)
    assert advice.stop_probability == stop[2] and advice.throw_probability == again[2]
    assert advice.decision == ("stop" if stop[2] >= again[2] else "throw")
    assert advice.exact and advice.as_dict()["exact"] is True
    last = table_advice((2, 2, 3), (True, True, False), 0, dice=(6, 5, 4), throws=3, rules=Rules(stripes=2),
                        solution=solution)
    assert last.throw_probability is None and last.decision == "stop"


def _three():
    return solve_table(Rules(players=3, stripes=2), cap=4)


@pytest.mark.parametrize("call,error", [
    (lambda: Rules(players=9), InvalidRulesError),
    (lambda: solve_table_round(players=9), InvalidRulesError),
    (lambda: solve_table(Rules(players=5, stripes=9)), InvalidRulesError),
    (lambda: solve_table(Rules(players=3, stripes=2), cap=1), InvalidStateError),
    (lambda: table_advice((2, -1, 2), (True, True, True), 0, dice=(6, 5, 4), throws=1, solution=_three()),
     InvalidStateError),
    (lambda: table_advice((2,), (True,), 0, dice=(6, 5, 4), throws=1, solution=_three()), InvalidRulesError),
    (lambda: table_advice((2,) * 9, (True,) * 9, 0, dice=(6, 5, 4), throws=1, solution=_three()),
     InvalidRulesError),
    (lambda: table_advice((2, 2, 2), (True,) * 3, 0, dice=(6, 5, 4), throws=1, rules=Rules(stripes=3),
                          solution=_three()), InvalidStateError),             # a solution of other rules
])
def test_bad_tables_are_clear_errors(call, error):
    with pytest.raises(error):
        call()


@pytest.mark.parametrize("kwargs,error", [
    ({"stripes": (2, 0, 2)}, InvalidStateError),                  # a player with no stripes: game over
    ({"stripes": (2, 1, 2), "wiped": (True, False, True)}, InvalidStateError),   # never wiped, below start
    ({"wiped": (True, True)}, InvalidStateError),                 # flags of another length
    ({"dice": (7, 1, 1)}, InvalidDiceError),                      # a throw that cannot be
    ({"throws": 3}, InvalidStateError),                           # more throws than the limit
    ({"before": [(5, 5, 5)]}, InvalidStateError),                 # one counting throw missing
    ({"before": [(1, 1, 1), (6, 6, 2)]}, InvalidStateError),      # give None for a player who is out
    ({"before": [None, (6, 6, 2)]}, InvalidStateError),           # a wiped player's 1-1-1 wins (PIT-6)
    ({"limit": 4}, InvalidStateError),
    ({"position": 3}, InvalidStateError),
    ({"stripes": (2, 2, 5)}, InvalidStateError),                  # above the solution's cap
])
def test_bad_situations_are_clear_errors(kwargs, error):
    solution = solve_table(Rules(players=3, stripes=2), cap=4)
    args = {"stripes": (2, 2, 3), "wiped": (True, True, False), "position": 2,
            "before": [(5, 5, 5), (6, 6, 2)], "limit": 2, "dice": (6, 6, 2), "throws": 1}
    args.update(kwargs)
    with pytest.raises(error):
        table_advice(args.pop("stripes"), args.pop("wiped"), args.pop("position"), rules=Rules(stripes=2),
                     solution=solution, **args)


# -- estimates for larger tables ------------------------------------------------------------------

def test_estimate_against_the_exact_four_player_solution():
    """Strengths fitted to the exact three-player solution, used at a table of four (2 stripes):
    the one-round estimate is within 0.05 of the exact values at every state (measured 0.034,
    mean 0.012)."""
    from dicemath.games.pitjesbak.table_estimate import estimate_table, fit_strengths

    rules = Rules(players=4, stripes=2)
    exact = solve_table(rules, cap=4)
    estimate = estimate_table(rules, strengths=fit_strengths(rules, cap=4, players=3))
    assert not estimate.exact
    errors = [np.abs(np.array(estimate.value(*state_of(i, 4, 4, 2))) - exact.values[i]).max()
              for i in range(0, len(exact.values), 7)]
    assert max(errors) < 0.05 and np.mean(errors) < 0.02


def test_estimate_at_a_table_of_eight():
    from dicemath.games.pitjesbak.table_estimate import estimate_table, fit_strengths, measure_estimate

    rules = Rules(players=8, stripes=2)
    estimate = estimate_table(rules, strengths=fit_strengths(rules, cap=4, players=3), exact_upto=2)
    values = estimate.value((2,) * 8, (False,) * 8)
    assert sum(values) == pytest.approx(1, abs=1e-12) and min(values) > 0.05
    advice = table_advice((1, 2, 3, 2, 2, 4, 1, 2), (True, False, False, True, False, False, True, True), 5,
                          before=[(5, 5, 5), (6, 6, 2), None, (4, 4, 4), (6, 5, 4)], limit=2, dice=(6, 6, 2),
                          throws=1, rules=Rules(stripes=2), solution=estimate)
    assert advice.exact is False and advice.as_dict()["exact"] is False
    assert advice.stop_probability < advice.throw_probability          # 6-6-2 loses to 6-5-4: throw
    assert "(estimates)" in str(advice)
    small = Rules(players=3, stripes=1)
    result = measure_estimate(solve_table(small, cap=2), estimate_table(small, strengths=fit_strengths(
        small, cap=2, players=3)), games=10)
    assert result["loss"] >= 0 and result["decisions"] > 0


@pytest.mark.slow
def test_shipped_strengths_are_a_fresh_fit():
    """The strengths kept for the default rules are what fitting the exact four-player solution
    (9 stripes, cap 11: a solve of about a minute) gives."""
    from dicemath.games.pitjesbak.table_estimate import fit_strengths

    shipped = fit_strengths(Rules(stripes=9))
    fresh = fit_strengths(Rules(stripes=9), fresh=True)
    assert np.allclose(shipped.strength, fresh.strength, atol=1e-8)
    assert np.allclose(shipped.position, fresh.position, atol=1e-8)


# -- stop sets and the policy card at any table ----------------------------------------------------

def test_stop_sets_agree_with_the_decisions():
    solution = solve_table(Rules(players=3, stripes=2), cap=4)
    solved = solution.round_at((2, 2, 3), (True, False, False))
    space = class_space(solution.rules)
    throws = {row.throw_class: row.throws[0] for row in class_rows(solution.rules)}
    for position, before, limit, used in [(0, [], None, 1), (0, [], None, 2), (1, [(5, 5, 5)], 3, 1),
                                          (2, [(6, 4, 1), None], 2, 1), (2, [(6, 4, 1), (3, 2, 1)], 3, 2)]:
        stops = solved.stops(position, before=before, limit=limit, throws=used)
        for c, cls in enumerate(space.classes):
            stop, again = solved.decision(position, before=before, limit=limit, dice=throws[cls], throws=used)
            assert stops[c] == (stop[position] >= again[position]), (position, before, cls.label)
    assert solved.stops(1, before=[(5, 5, 5)], limit=2, throws=2).all()          # no throw left: it counts


def test_table_card_for_two_players_is_the_two_player_card():
    """The card at any table, at two players, says what the two-player card says (the
    follower is last, so the limit only sets his throws)."""
    from dicemath.games.pitjesbak.advice import policy_card, table_policy_card

    game = solve_game(Rules(), compare=False)
    old = policy_card(game)
    new = table_policy_card(rules=Rules(), solution=two_player_solution(Rules(), game.cap))
    assert new.start_rules == old.start_rules and new.exact
    assert [(best, texts[1], texts[0]) for best, texts in new.followers[0]] == [tuple(r) for r in old.follower_rows]
    assert all(texts[1] == texts[2] for _, texts in new.followers[0])
    assert new.win_probabilities[0] == pytest.approx(old.start_win_probability, abs=1e-12)
    assert new.thresholds[0] == ("score 68", "score 105")


def test_table_card_thresholds_and_text():
    from dicemath.games.pitjesbak.advice import table_policy_card

    card = table_policy_card(rules=Rules(stripes=2), solution=solve_table(Rules(players=3, stripes=2), cap=4))
    assert len(card.thresholds) == 3 and len(card.followers) == 2
    data = card.as_dict()
    assert data["thresholds"][0]["first_throw"] == card.thresholds[0][0]
    assert "Position 1 (1 player after you)" in card.text() and "**Position 2**" in card.markdown()
    with pytest.raises(InvalidStateError):
        table_policy_card((2, 1, 2), (True, False, True), rules=Rules(stripes=2),
                          solution=solve_table(Rules(players=3, stripes=2), cap=4))


# -- round-optimal play against game-optimal play (table_compare) ------------------------------------

def test_fixed_round_reproduces_the_round_it_follows():
    """A player on fixed decisions, in a round whose values are those of his decisions' round,
    is that round; ``fixed = -1`` is the plain induction."""
    from dicemath.games.pitjesbak import _table_c  # type: ignore[attr-defined]  # C extension, no stubs
    from dicemath.games.pitjesbak.table_round import round_graph, round_win_atoms

    rules = Rules(players=4)
    graph = round_graph(4, rules)
    flags = np.array([1, 0, 0, 1], dtype=np.int64)
    atoms = round_win_atoms(graph)
    ro = solve_table_round(rules, [bool(f) for f in flags])
    W = np.empty((graph.slots, 4))
    out = np.zeros(4)
    for fixed in (-1, 0, 1, 2, 3):
        _table_c.round_backward_fixed(graph.kernel_args, fixed, flags, atoms, W, atoms, ro.W, out)
        assert out == pytest.approx(list(ro.values), abs=1e-14)
    other = np.random.default_rng(5).random((graph.atom_rows, 4))
    _table_c.round_backward(graph.kernel_args, flags, other, W, out)
    plain = out.copy()
    _table_c.round_backward_fixed(graph.kernel_args, -1, flags, other, W, atoms, ro.W, out)
    assert out == pytest.approx(plain, abs=1e-15)


def test_round_maximiser_reproduces_the_two_player_comparison():
    """Two players: the round-maximiser's solution equals the two-player solver's comparison
    (rigorous bounds, a best-responding opponent) to 1e-9 (measured 2e-16), as start player and
    as second player."""
    from dicemath.games.pitjesbak.table_compare import solve_round_maximiser

    rules = Rules(stripes=2)
    game = solve_game(rules)
    solved = solve_round_maximiser(rules, cap=game.cap, use_cache=False)
    opening = solved.optimal.opening
    assert solved.value(0, *opening)[0] == pytest.approx(sum(game.comparison["round_vs_optimal"]) / 2, abs=1e-9)
    assert solved.value(1, *opening)[1] == pytest.approx(sum(game.comparison["round_second_vs_optimal"]) / 2,
                                                         abs=1e-9)
    assert solved.opening_loss(0) > 0 and solved.opening_loss(1) > 0


def test_round_maximiser_at_three_players():
    from dicemath.games.pitjesbak.table_compare import simulated_loss, solve_round_maximiser

    solved = solve_round_maximiser(Rules(players=3, stripes=1), cap=2)
    assert np.allclose(solved.values.sum(axis=2), 1.0, atol=1e-9) and (solved.values >= 0).all()
    assert all(0 <= solved.opening_loss(p) < 0.05 for p in range(3))
    assert solved.residual < 1e-10 and solved.subgames[2].players == 2
    result = simulated_loss(solved.optimal, games=15, seed=2)
    assert result["low"] <= result["loss"] <= result["high"] and result["exact_values"]
    assert result["decisions"] > 0 and result["players"] == 3
    with pytest.raises(InvalidRulesError):
        solve_round_maximiser(Rules(players=5, stripes=1))


@pytest.mark.parametrize("players,stripes", [(3, 2), (4, 1)])
def test_recorded_decisions_reproduce_the_backward_induction(players, stripes):
    """A full sweep records each state's round, under the decisions it took, as a linear map of
    the states the round leads to (followed forward from the round's start to its ends): that
    map gives every state the value the backward induction gave it, away from the solution
    (from 1/n everywhere, where the decisions are not the optimal ones), and it spreads a
    probability (its weights sum to 1)."""
    from dicemath.games.pitjesbak import _table_c  # type: ignore[attr-defined]  # C extension, no stubs
    from dicemath.games.pitjesbak.table_round import round_graph
    from dicemath.games.pitjesbak.table_solver import flat_solutions, policy_buffers

    rules = Rules(players=players, stripes=stripes)
    solution = solve_table(rules, use_cache=False)
    graph = round_graph(players, rules)
    start = np.full_like(solution.values, 1.0 / players)
    swept = np.empty_like(start)
    policy = policy_buffers(len(start), players)
    states = np.arange(len(start))
    _table_c.sweep_states(graph.kernel_args, states, start, swept, solution.cap, stripes,
                          *flat_solutions(solution.subgames)[:3], *policy)
    base, _, coef, terms = policy
    assert np.allclose(base.sum(axis=1) + [coef[s, :terms[s]].sum() for s in states], 1.0, atol=1e-13)
    worst = 0.0
    for s in states:
        values = start.copy()
        _table_c.evaluate_states(players, states[s:s + 1], values, *policy)
        worst = max(worst, float(np.abs(values[s] - swept[s]).max()))
    assert worst < 1e-14
    assert np.abs(swept - start).max() > 0.1                 # the sweep moved the values
