"""The exact two-player race: the compiled kernel against the plain-Python
reference on every pair, solo play against independently computed turn-count
distributions, Monte Carlo of the solved policies, the ``race`` command and bad input."""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest

from dicemath.cli import main
from dicemath.core.errors import DicemathError
from dicemath.games.pegs_fives.race_solver import (
    RacePlay, RaceTooLargeError, SoloOptimal, _c_tables, exact_race_result, kernel_tables, solo_choice_table,
    solve_race, solve_race_compiled)
from dicemath.games.pegs_fives.races import play_race
from dicemath.games.pegs_fives.rules import FIVES, PEGS
from dicemath.games.pegs_fives.solver import solve_reduced
from dicemath.games.pegs_fives.state import InvalidBoardError, legal_rows, rest_points
from dicemath.games.pegs_fives.turn import end_board_model, turn_distribution

BOARDS = [(PEGS, (12,)), (PEGS, (1, 2)), (PEGS, (3, 8)), (PEGS, (7, 12)),
          (FIVES, (1,)), (FIVES, (1, 6)), (FIVES, (3, 8)), (FIVES, (9, 11))]
"""Races on 1 and 2 open rows: rows of one die per hit, of two, and one of each."""

MATCHUPS = (("solo", "solo"), ("race", "solo"), ("race", "race"))
"""The three solves that give all four figures (race vs solo holds solo vs race too)."""

_reference: dict = {}


def reference(rules, rows, first, second, exact=False):
    key = (rules.name, rows, first, second, exact)
    if key not in _reference:
        _reference[key] = solve_race(rules, rows, first=first, second=second, exact=exact)
    return _reference[key]


@pytest.mark.parametrize("rules, rows", BOARDS, ids=lambda x: getattr(x, "name", None) or str(x))
def test_compiled_kernel_equals_the_reference_on_every_pair(rules, rows):
    _check_every_pair(rules, rows, MATCHUPS)


@pytest.mark.slow
@pytest.mark.parametrize("rules, rows", [(PEGS, (2, 7, 12)), (FIVES, (1, 6, 11))], ids=["pegs", "fives"])
def test_compiled_kernel_equals_the_reference_on_three_rows(rules, rows):
    """Three rows: PEGS-7 choice throws after a row going in can follow each other (about a minute)."""
    _check_every_pair(rules, rows, (("race", "solo"), ("race", "race")))


@pytest.mark.parametrize("rules, rows", [(PEGS, (2, 7, 12)), (FIVES, (1, 6, 11)), (PEGS, (1, 2, 3))],
                         ids=["pegs", "fives", "pegs-low-rows"])
def test_values_and_counts_are_the_same_whatever_the_threads(rules, rows):
    """The kernel's threads take chunks of boards as they come, waiting for each other between
    levels of progress: every value, count and example is the same on one thread and on three,
    and the values without the counts too."""
    for first, second in (("race", "race"), ("race", "solo")):
        one = solve_race_compiled(rules, rows, first=first, second=second, threads=1)
        three = solve_race_compiled(rules, rows, first=first, second=second, threads=3)
        alone = solve_race_compiled(rules, rows, first=first, second=second, threads=2, decisions=False)
        for tables in (three, alone):
            assert np.array_equal(tables.V1, one.V1, equal_nan=True)
            assert np.array_equal(tables.V2, one.V2, equal_nan=True)
        assert alone.decisions is None
        assert three.decisions == one.decisions
        assert (one.decisions is not None) == (first == second == "race")
    boxes = {"floors": (1, 0, 2), "second_floors": (0, 3, 1)}            # each player's own boards
    one = solve_race_compiled(rules, rows, threads=1, **boxes)
    three = solve_race_compiled(rules, rows, threads=3, **boxes)
    assert np.array_equal(three.V1, one.V1, equal_nan=True) and np.array_equal(three.V2, one.V2, equal_nan=True)


def test_values_and_counts_are_the_same_on_every_code_path():
    """A lane's arithmetic is the scalar one, term by term: every code path this CPU runs
    (DICEMATH_SIMD) gives the same values and counts, bit for bit."""
    from dicemath.games.pegs_fives import _race_c  # type: ignore[attr-defined]  # C extension, no stubs

    snippet = ("import hashlib\n"
               "from dicemath.games.pegs_fives.race_solver import solve_race_compiled\n"
               "from dicemath.games.pegs_fives.rules import PEGS\n"
               "for second in ('race', 'solo'):\n"
               "    t = solve_race_compiled(PEGS, (2, 7, 12), second=second)\n"
               "    print(hashlib.sha256(t.V1.tobytes() + t.V2.tobytes()).hexdigest(), repr(t.decisions))\n"
               "t = solve_race_compiled(PEGS, (2, 7, 12), floors=(1, 0, 2), second_floors=(0, 3, 1))\n"
               "print(hashlib.sha256(t.V1.tobytes() + t.V2.tobytes()).hexdigest())\n")
    outputs = {path: subprocess.run([sys.executable, "-c", snippet], env={**os.environ, "DICEMATH_SIMD": path},
                                    capture_output=True, text=True, check=True).stdout for path in _race_c.PATHS}
    assert len(set(outputs.values())) == 1, outputs


def test_the_kernel_rejects_tables_that_do_not_fit():
    from dicemath.games.pegs_fives import _race_c  # type: ignore[attr-defined]  # C extension, no stubs

    rows = (11, 12)
    tables, (N, k, goal, dice, T) = _c_tables(kernel_tables(PEGS, rows), solo_choice_table(PEGS, rows))
    V, VT = np.full((N, N), np.nan), np.full((N, N), np.nan)
    counts = (np.zeros(4), np.full(1, -1.0), np.zeros((1, 6), dtype=np.int64), np.zeros((1, 2)))
    flags = (True, True, True, True, False)
    shape = (N, k, goal, dice, T)
    _race_c.solve_pairs(tables, shape, tables, shape, (V, V, VT, VT), flags, *counts, 1)
    assert V[0, 0] == solve_race_compiled(PEGS, rows).start_value
    for bad in ((N, k + 1, goal, dice, T), (N - 1, k, goal, dice, T), (N, k, goal, dice, 4)):
        with pytest.raises(ValueError):
            _race_c.solve_pairs(tables, bad, tables, bad, (V, V, VT, VT), flags, *counts, 1)
    with pytest.raises(ValueError):
        _race_c.solve_pairs(tables, shape, tables, shape, (V, V, VT, VT), flags, *counts, 0)
    with pytest.raises(ValueError):
        _race_c.solve_pairs(tables, shape, tables, shape, (V[1:], V, VT, VT), flags, *counts, 1)
    other_tables, other_shape = _c_tables(kernel_tables(PEGS, rows, (2, 3)), solo_choice_table(PEGS, rows, (2, 3)))
    M = other_shape[0]
    V1, V2 = np.full((N, M), np.nan), np.full((M, N), np.nan)
    two = (V1, V2, np.full((M, N), np.nan), np.full((N, M), np.nan))
    with pytest.raises(ValueError, match="two sets of boards"):      # one policy for two sets: two tables
        _race_c.solve_pairs(tables, shape, other_tables, other_shape, two, flags, *counts, 1)
    _race_c.solve_pairs(tables, shape, other_tables, other_shape, two, (True, True, False, True, False), *counts, 1)
    assert not np.isnan(V1[0, 0]) and not np.isnan(V2[0, 0])
    with pytest.raises(ValueError):
        _race_c.solve_pairs(tables, shape, other_tables, other_shape, (V, V, VT, VT), flags[:2] + (False,) + flags[3:],
                            *counts, 1)


def _check_every_pair(rules, rows, matchups):
    for first, second in matchups:
        compiled = solve_race_compiled(rules, rows, first=first, second=second)
        slow = reference(rules, rows, first, second)
        fast = compiled.as_dict()
        for player in (1, 2):
            assert fast[player].keys() == slow.values[player].keys()
            worst = max(abs(fast[player][pair] - float(v)) for pair, v in slow.values[player].items())
            assert worst < 1e-12, (first, second, player, worst)
        if (first, second) == ("race", "race"):
            ours, theirs = compiled.decisions, slow.decisions
            assert (ours.pairs, ours.pairs_differing) == (theirs.pairs, theirs.pairs_differing)
            assert (ours.choice, ours.differing) == pytest.approx((theirs.choice, theirs.differing), rel=1e-11)


@pytest.mark.parametrize("rules, rows", [(PEGS, (12,)), (FIVES, (3,)), (FIVES, (1, 6))],
                         ids=["pegs-12", "fives-3", "fives-1-6"])
def test_exact_reference_agrees_with_float64(rules, rows):
    exact = reference(rules, rows, "race", "race", exact=True)
    assert isinstance(exact.start_value, Fraction)
    fast = solve_race_compiled(rules, rows).as_dict()[1]
    assert max(abs(fast[pair] - float(v)) for pair, v in exact.values[1].items()) < 1e-12


def _turn_counts(rules, rows, board, policy, turns=600):
    """From ``board``, playing ``policy`` alone: ``P(T = n)`` and ``E[R(board after n turns)]``
    for n = 0..turns, from the exact end-of-turn distributions (:func:`.turn.turn_distribution`,
    another route than the race solver's)."""
    model = end_board_model(rules, policy)
    step: dict = {}
    mass = {board: 1.0}
    finished, rest = [0.0], [sum(p * rest_points(b, rules.goal) for b, p in mass.items())]
    complete = tuple(rules.goal for _ in board)
    for _ in range(turns):
        following: dict = {}
        for b, p in mass.items():
            if b == complete:
                following[b] = following.get(b, 0.0) + p
                continue
            if b not in step:
                step[b] = {e: float(q) for e, q in turn_distribution(rules, b, policy, model=model).items()}
            for e, q in step[b].items():
                following[e] = following.get(e, 0.0) + p * q
        mass = following
        finished.append(mass.get(complete, 0.0))
        rest.append(sum(p * rest_points(b, rules.goal) for b, p in mass.items()))
    done = [finished[n] - finished[n - 1] for n in range(1, turns + 1)]
    assert 1 - finished[-1] < 1e-13
    return done, rest


@pytest.mark.parametrize("rules, rows", [(PEGS, (3, 8)), (PEGS, (1, 2)), (FIVES, (3, 8)), (FIVES, (9, 11))],
                         ids=["pegs-3-8", "pegs-1-2", "fives-3-8", "fives-9-11"])
def test_solo_play_in_the_race_is_two_independent_solitaires(rules, rows):
    """Both solo: the first mover (on ``a``) wins iff he needs no more turns than the second,
    P = sum_n P(Ta = n) P(Tb >= n); in Fives the value is sum_n P(Ta = n) E[R(B_{n-1})] -
    sum_m P(Tb = m) E[R(A_m)] (rest points are 0 once complete)."""
    solution = reference(rules, rows, "solo", "solo")
    solo_values = solve_reduced(rules, rows, exact=False)
    solo = SoloOptimal(rules, solo_values.values.__getitem__, exact=False)
    start = solution.start
    pairs = [(start, start), (_with(start, rows[0], 3), start), (start, _with(start, rows[-1], 4))]
    for a, b in pairs:
        done_a, rest_a = _turn_counts(rules, rows, a, solo)
        done_b, rest_b = _turn_counts(rules, rows, b, solo)
        if rules.scoring == "first_out":
            left_b = [1 - sum(done_b[:n - 1]) for n in range(1, len(done_b) + 1)]      # P(Tb >= n)
            expected = sum(p * q for p, q in zip(done_a, left_b))
        else:
            expected = sum(p * rest_b[n] for n, p in enumerate(done_a)) - \
                       sum(p * rest_a[n + 1] for n, p in enumerate(done_b))
        assert float(solution.value(a, b)) == pytest.approx(expected, abs=1e-11)
        turns = sum((n + 1) * p for n, p in enumerate(done_a))
        assert turns == pytest.approx(float(solo_values.value(a)), abs=1e-10)      # the solitaire's expected turns


@pytest.mark.parametrize("rules", [PEGS, FIVES], ids=["pegs", "fives"])
def test_compiled_solo_play_is_two_independent_solitaires_on_three_rows(rules):
    """The same identity for the compiled kernel on three rows, beyond the reference's reach."""
    rows = (4, 9, 12)
    solo_values = solve_reduced(rules, rows, exact=False)
    done, rest = _turn_counts(rules, rows, solo_values.start, SoloOptimal(rules, solo_values.values.__getitem__,
                                                                          exact=False))
    if rules.scoring == "first_out":
        expected = sum(p * (1 - sum(done[:n])) for n, p in enumerate(done))
    else:
        expected = sum(p * (rest[n] - rest[n + 1]) for n, p in enumerate(done))
    assert solve_race_compiled(rules, rows, first="solo", second="solo").start_value == pytest.approx(expected,
                                                                                                      abs=1e-11)


def _with(board, row, step):
    b = list(board)
    b[row - 1] = step
    return tuple(b)


@pytest.mark.parametrize("rules, rows", [(PEGS, (3, 8)), (FIVES, (1, 6))], ids=["pegs", "fives"])
def test_playing_to_win_is_a_best_response(rules, rows):
    """race vs solo >= solo vs solo >= solo vs race, and race vs solo >= race vs race >= solo vs race."""
    figures = {}
    for first, second in MATCHUPS:
        s = reference(rules, rows, first, second)
        figures[f"{first}_vs_{second}"] = float(s.start_value)
        if first != second:
            figures["solo_vs_race"] = float(s.values[2][(s.start, s.start)])
    eps = 1e-12
    assert figures["race_vs_solo"] >= figures["solo_vs_solo"] - eps >= figures["solo_vs_race"] - 2 * eps
    assert figures["race_vs_solo"] >= figures["race_vs_race"] - eps >= figures["solo_vs_race"] - 2 * eps
    assert figures["race_vs_solo"] > figures["solo_vs_solo"]           # on these boards playing to win pays


@pytest.mark.parametrize("rules, rows, first, second, seed",
                         [(PEGS, (3, 8), "race", "race", 1), (PEGS, (3, 8), "race", "solo", 2),
                          (FIVES, (3, 8), "race", "race", 3), (FIVES, (3, 8), "solo", "race", 4)],
                         ids=["pegs-race-race", "pegs-race-solo", "fives-race-race", "fives-solo-race"])
def test_monte_carlo_of_the_solved_policies_agrees_within_4_standard_errors(rules, rows, first, second, seed):
    solution = reference(rules, rows, first, second)
    makers = [RacePlay(solution, 1), RacePlay(solution, 2)]
    rng = random.Random(seed)
    games = 3000
    outcomes = []
    for _ in range(games):
        winner, rest, _ = play_race(rules, makers, rng, start=[solution.start, solution.start])
        outcomes.append(float(winner == 0) if rules.scoring == "first_out" else float(rest[1] - rest[0]))
    mean = sum(outcomes) / games
    error = math.sqrt(sum((x - mean) ** 2 for x in outcomes) / (games - 1) / games)
    assert abs(mean - float(solution.start_value)) < 4 * error


def test_differing_decisions_are_real_choices():
    """Every example: the throw's legal rows are as stated, the race row is worth more than the
    solo row, and the solo row is what solo-optimal play names."""
    compiled = solve_race_compiled(FIVES, (3, 8))
    solo_values = solve_reduced(FIVES, (3, 8), exact=False)
    solo = SoloOptimal(FIVES, solo_values.values.__getitem__, exact=False)

    assert compiled.decisions.examples
    for e in compiled.decisions.examples:
        assert legal_rows(e.mover, e.throw, FIVES.goal) == e.legal
        assert e.race_value > e.solo_value and e.race_row != e.solo_row
        assert solo(e.mover, e.legal, 6, None) == e.solo_row


def test_race_command_json_and_boards(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("DICEMATH_CACHE_DIR", str(tmp_path))
    assert main(["pegs", "race", "--open", "3,8", "--json", "--boards", "2,3", "5,3"]) == 0
    result = json.loads(capsys.readouterr().out)
    for key in ("solo_vs_solo", "race_vs_solo", "solo_vs_race", "race_vs_race"):
        assert 0 < result[key] < 1
    assert result["race_vs_race"] == pytest.approx(float(reference(PEGS, (3, 8), "race", "race").start_value),
                                                   abs=1e-12)
    mixed = reference(PEGS, (3, 8), "race", "solo")
    assert result["solo_vs_race"] == pytest.approx(float(mixed.values[2][(mixed.start, mixed.start)]), abs=1e-12)
    assert result["race_vs_solo"] == pytest.approx(float(mixed.start_value), abs=1e-12)
    mine, theirs = (5, 5, 2, 5, 5, 5, 5, 3, 5, 5, 5, 5), (5, 5, 5, 5, 5, 5, 5, 3, 5, 5, 5, 5)
    assert result["boards"] == {"mover": list(mine), "opponent": list(theirs)}
    assert result["value"] == pytest.approx(float(reference(PEGS, (3, 8), "race", "race").value(mine, theirs)),
                                            abs=1e-12)
    assert 0 < result["differing_decisions"]["share_of_choices"] < 1 and result["exact"] is True
    assert result["arithmetic"] == "float64" and isinstance(result["value_text"], str)
    assert main(["fives", "race", "--open", "12", "--boards", "5,5,5,5,5,5,5,5,5,5,5,2", "0"]) == 0
    text = capsys.readouterr().out
    assert "race" in text and "solo" in text and "both playing to win" in text
    assert main(["fives", "race", "--games", "2", "--json"]) == 0                  # the simulated races remain
    assert "advisor_vs_greedy" in json.loads(capsys.readouterr().out)


def test_bad_input_is_a_clear_error(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("DICEMATH_CACHE_DIR", str(tmp_path))
    with pytest.raises(RaceTooLargeError, match="at most 5 open rows"):
        exact_race_result(PEGS, [1, 2, 3, 4, 5, 6])
    with pytest.raises(RaceTooLargeError):
        solve_race_compiled(FIVES, range(1, 13))
    with pytest.raises(RaceTooLargeError, match="at most 3"):
        solve_race(PEGS, [1, 2, 3, 4])
    with pytest.raises(InvalidBoardError):
        solve_race(PEGS, [13])
    with pytest.raises(DicemathError, match="policy"):
        solve_race(PEGS, [1], first="greedy")
    with pytest.raises(InvalidBoardError, match="complete"):
        reference(PEGS, (12,), "race", "race").value((5,) * 12, (5,) * 11 + (0,))
    with pytest.raises(InvalidBoardError, match="open"):
        reference(PEGS, (12,), "race", "race").value((5,) * 10 + (0, 0), (5,) * 11 + (0,))
    for argv, message in [
            (["pegs", "race", "--open", "1,2,3,4,5,6", "--json"], "at most 5 open rows"),
            (["fives", "race", "--open", "0,3"], "does not exist"),
            (["pegs", "race", "--open", "3,8", "--boards", "1,2,3", "0,0"], "entries"),
            (["pegs", "race", "--open", "3,8", "--boards", "5,5", "0,0"], "complete"),
            (["pegs", "race", "--open", "3,8", "--boards", "0,0,0,5,5,5,5,0,5,5,5,5", "0,0"], "open"),
            (["fives", "race", "--boards", "0", "0"], "--open")]:
        assert main(argv) == 2, argv
        assert message in capsys.readouterr().err, argv
    with pytest.raises(SystemExit) as stop:
        main(["pegs", "race", "--json"])                                 # Pegs has no simulated race
    assert stop.value.code == 2
