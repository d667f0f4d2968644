"""The two-player Fives session (FIVES-7): the session solver against an independent value
iteration written here, the exact Fractions against float64 on the compiled kernel, sanity
that could fail, the command and the session advice."""

from __future__ import annotations

import json
from functools import lru_cache
from itertools import combinations_with_replacement
from math import comb, factorial

import pytest

from dicemath.cli import main
from dicemath.core.errors import DicemathError, InvalidRulesError
from dicemath.games.pegs_fives.race_solver import solve_race_compiled
from dicemath.games.pegs_fives.rules import FIVES, PEGS
from dicemath.games.pegs_fives.session import SessionSolver, SessionTooLargeError, final_win, session_result
from dicemath.games.pegs_fives.session_advice import session_advice
from dicemath.games.pegs_fives.state import InvalidBoardError

SMALL = FIVES.variant(goal=2)
"""Fives with two marks a number: small enough for the value iteration below."""


def independent_session(goal: int, rows: tuple[int, ...], rounds: int, lead: int, start: str = "rotating") -> float:
    """``W_R(D)`` by value iteration over (boards, lead, mover), Fives turns written out
    (FIVES-2..6) for rows 1..6 (one die a hit): a session state is a round's boards, the
    first mover's lead and who is to move; each round's values iterated to convergence."""
    return _independent(goal, rows, start)(rounds, lead)


@lru_cache(maxsize=None)
def _independent(goal: int, rows: tuple[int, ...], start: str):
    assert all(1 <= r <= 6 for r in rows)
    k = len(rows)
    boards = [b for b in _all_boards(goal, k)]
    live = [b for b in boards if any(s < goal for s in b)]

    def rest(board: tuple[int, ...]) -> int:
        return sum((goal - s) * r for s, r in zip(board, rows))

    groups = _throw_groups(k)

    @lru_cache(maxsize=None)
    def win(r: int, d: int) -> float:
        if r == 0:
            return 1.0 if d > 0 else 0.5 if d == 0 else 0.0

        def later(after: int) -> float:     # the round's first mover's chance with lead `after`
            return win(r - 1, after) if start == "fixed" else 1.0 - win(r - 1, -after)

        # V[1][(a, b)]: the first mover to move on a against b; V[2][(b, a)]: the other on b;
        # swept from the most progress down.
        pairs = sorted(((a, b) for a in live for b in live), key=lambda ab: -sum(ab[0]) - sum(ab[1]))
        V = {1: {(a, b): 0.5 for a, b in pairs}, 2: {(b, a): 0.5 for a, b in pairs}}
        term = {1: lambda y: later(d + rest(y)), 2: lambda x: 1.0 - later(d - rest(x))}
        for _ in range(500):
            delta = 0.0
            for player in (1, 2):
                for (a, b) in V[player]:
                    new = _turn_value(goal, a, b, player, V, term, groups)
                    delta = max(delta, abs(new - V[player][(a, b)]))
                    V[player][(a, b)] = new
            if delta < 1e-13:
                break
        fresh = tuple([0] * k)
        return V[1][(fresh, fresh)]

    return win


def _all_boards(goal: int, k: int) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = [()]
    for _ in range(k):
        out = [b + (s,) for b in out for s in range(goal + 1)]
    return out


def _throw_groups(k: int) -> list[tuple[float, tuple[int, ...]]]:
    """Six dice by their count of each open row's face (faces 1..k stand for the rows)."""
    out = []
    for counts in _all_boards(6, k + 1):
        if sum(counts) != 6:
            continue
        ways = factorial(6)
        for c in counts:
            ways //= factorial(c)
        p = ways * (1 / 6) ** sum(counts[:k]) * ((6 - k) / 6) ** counts[k]
        out.append((p, counts[:k]))
    return out


def _turn_value(goal, a, b, player, V, term, groups) -> float:
    other = 3 - player

    def end(x):                                   # the turn ends on x: the opponent moves
        return 1.0 - V[other][(b, x)]

    def fresh(x):                                 # all dice back: a new turn of the same player
        return term[player](b) if all(s >= goal for s in x) else V[player][(x, b)]

    @lru_cache(maxsize=None)
    def mark(x, i, hits, dice):
        y = list(x)
        y[i] = min(goal, y[i] + hits)
        y = tuple(y)
        left = dice - hits
        if all(s >= goal for s in y):
            return term[player](b)
        if y[i] >= goal or left == 0:             # FIVES-4/5
            return fresh(y)
        return throw_on(y, i, left)

    @lru_cache(maxsize=None)
    def throw_on(x, i, dice):                     # FIVES-3
        total = 0.0
        for h in range(dice + 1):
            p = comb(dice, h) * (1 / 6) ** h * (5 / 6) ** (dice - h)
            total += p * (end(x) if h == 0 else mark(x, i, h, dice))
        return total

    value = 0.0
    for p, counts in groups:                      # FIVES-2: the choice throw
        legal = [i for i, c in enumerate(counts) if c and a[i] < goal]
        value += p * (max(mark(a, i, counts[i], 6) for i in legal) if legal else end(a))
    return value


@pytest.mark.parametrize("rules, rows, rounds, lead, start", [
    (SMALL, (1, 2), 1, 0, "rotating"),
    (SMALL, (1, 2), 2, 0, "rotating"),
    pytest.param(SMALL, (1, 2), 2, -3, "rotating", marks=pytest.mark.slow),
    pytest.param(SMALL, (2, 3), 2, 4, "fixed", marks=pytest.mark.slow),
    (FIVES, (1,), 2, 1, "fixed"),
    (FIVES, (1,), 3, -2, "rotating"),
])
def test_compiled_session_matches_the_value_iteration(rules, rows, rounds, lead, start):
    solver = SessionSolver(rules, rows, start=start)
    expected = independent_session(rules.goal, rows, rounds, lead, start)
    assert solver.win(rounds, lead) == pytest.approx(expected, abs=1e-9)


def test_exact_fractions_match_float64():
    exact = SessionSolver(SMALL, [1, 2], exact=True)
    compiled = SessionSolver(SMALL, [1, 2])
    for rounds, lead in ((1, 0), (1, -2), (2, 1)):
        value = exact.win(rounds, lead)
        assert value.denominator > 1
        assert float(value) == pytest.approx(compiled.win(rounds, lead), abs=1e-12)


def test_the_last_round_level_is_the_race_to_finish_first():
    """W_1(0): whoever completes first wins (a live board has rest points): the race whose
    payoff is finishing first."""
    solver = SessionSolver(SMALL, [1, 2])
    race = solve_race_compiled(SMALL.variant(scoring="first_out"), [1, 2], decisions=False)
    assert solver.win(1, 0) == pytest.approx(race.start_value, abs=1e-12)
    assert solver.win(1, 0) > 0.5                # the first mover's edge


def test_win_is_nondecreasing_in_the_lead_and_sure_beyond_a_fresh_board():
    solver = SessionSolver(SMALL, [1, 2])
    m = solver.fresh_rest
    for rounds in (1, 2):
        values = [solver.win(rounds, d) for d in range(-rounds * m - 2, rounds * m + 3)]
        assert all(x <= y + 1e-12 for x, y in zip(values, values[1:]))
        assert values[0] == 0.0 and values[-1] == 1.0
        assert 0.0 < solver.win(rounds, rounds * m) < 1.0      # losing every round fully is a tie
    assert solver.win(1, 10 ** 6) == 1.0
    assert solver.win(3, -10 ** 6) == 0.0


def test_two_level_rounds_give_the_second_round_starter_his_edge():
    """Rotating start: level after one round, the other starts the last; with the start fixed
    the same player starts again (the variant): his chance is higher than with rotation."""
    rotating = SessionSolver(SMALL, [1, 2]).win(2, 0)
    fixed = SessionSolver(SMALL, [1, 2], start="fixed").win(2, 0)
    assert fixed > rotating


def test_final_win_and_bad_input():
    assert final_win(0) == 0.5
    with pytest.raises(InvalidRulesError):
        SessionSolver(PEGS, [1])
    solver = SessionSolver(FIVES, [1])
    with pytest.raises(DicemathError):
        solver.win(1, 0.5)
    with pytest.raises(DicemathError):
        solver.win(-1, 0)
    with pytest.raises(DicemathError):
        SessionSolver(FIVES, [1], start="winner")


def test_session_command_json_and_text(capsys):
    assert main(["fives", "session", "--open", "1", "--rounds", "2", "--lead", "-3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["exact"] is True and out["arithmetic"] == "float64"
    assert out["rounds"] == 2 and out["lead"] == -3 and out["open_rows"] == [1]
    assert out["win_probability"] == pytest.approx(independent_session(5, (1,), 2, -3), abs=1e-9)
    assert main(["fives", "session", "--open", "1", "--rounds", "1", "--lead", "2"]) == 0
    assert "win" in capsys.readouterr().out.lower()


def test_races_needed_counts_the_races_solved_and_the_command_refuses_large_sessions():
    solver = SessionSolver(FIVES, [1, 2])
    needed = solver.races_needed(3, -4)
    solver.win(3, -4)
    assert needed == solver.rounds_solved > 3
    assert solver.races_needed(3, -4) == 0
    with pytest.raises(SessionTooLargeError):
        session_result(FIVES, [1, 2, 3], 3, 0)


@pytest.mark.parametrize("args", [
    ["--open", "1", "--rounds", "0", "--lead", "0"],
    ["--open", "1,2,3,4,5,6", "--rounds", "1", "--lead", "0"],
    ["--open", "13", "--rounds", "1", "--lead", "0"],
    ["--open", "1", "--rounds", "1", "--lead", "x"],
])
def test_session_command_bad_input_exits_2(args, capsys):
    try:
        code = main(["fives", "session", *args])
    except SystemExit as error:                 # argparse's usage errors
        code = error.code
    assert code == 2
    assert "error" in capsys.readouterr().err


# ---------------------------------------------------------------------------------------------
# Session advice
# ---------------------------------------------------------------------------------------------

REDUCED = [0, 0] + [5] * 10
"""A Fives board fresh on the numbers 1 and 2, every other number complete."""


@pytest.mark.parametrize("rounds, start", [(2, "rotating"), (3, "fixed")])
def test_exact_session_advice_at_a_fresh_pair_is_the_session_value(rounds, start):
    advice = session_advice(FIVES, REDUCED, (1, 1, 2, 3, 4, 5), [REDUCED], [10, 13], rounds, session_rows=[1, 2],
                            start=start)
    assert advice.exact and advice.source == "exact session" and advice.extras["objective"] == "session"
    solver = SessionSolver(FIVES, [1, 2], start=start)
    assert advice.extras["session_value_now"] == pytest.approx(solver.win(rounds, 3), abs=1e-12)
    assert [o.action for o in advice.options] == [1, 2] and advice.best.value >= advice.options[1].value


def test_exact_session_advice_averages_to_the_value_before_the_throw():
    """The chance of every throw times its best row's value (the turn's end on the board when
    no row is legal) adds up to the value at the turn's start."""
    board, opponent = [3, 1] + [5] * 10, [2, 4] + [5] * 10
    total = 0.0
    for throw in combinations_with_replacement(range(1, 7), 6):
        ways = factorial(6)
        for face in set(throw):
            ways //= factorial(throw.count(face))
        advice = session_advice(FIVES, board, throw, [opponent], [30, 33], 2, starter=1, session_rows=[1])
        value = advice.best.value if advice.options else advice.extras["session_value_turn_ends"]
        total += ways / 6 ** 6 * value
    assert advice.exact
    assert total == pytest.approx(advice.extras["session_value_now"], abs=1e-9)


def test_session_advice_last_round_out_of_reach_is_lost_and_gambles_when_behind():
    hopeless = session_advice(FIVES, [5] * 10 + [3, 3], (6, 6, 6, 5, 5, 1), [[5] * 11 + [4]], [60, 40], 1)
    assert hopeless.exact and hopeless.extras["session_value_now"] == 0.0
    level = session_advice(FIVES, [5] * 10 + [3, 3], (6, 6, 6, 5, 5, 1), [[5] * 11 + [4]], [40, 40], 1)
    assert 0.0 < level.extras["session_value_now"] < 1.0


def test_session_model_is_labelled_and_rises_with_the_lead():
    values = []
    for opponent_total in (0, 20, 40, 80):
        advice = session_advice(FIVES, [0] * 12, (1, 1, 2, 3, 4, 5), [[0] * 12, [1] * 12], [20, opponent_total, 30],
                                2, starter=1)
        assert not advice.exact and advice.source == "session model" and advice.extras["approximation"]
        assert all(0.0 <= o.value <= 1.0 for o in advice.options)
        values.append(advice.extras["session_value_now"])
    assert values == sorted(values) and values[0] < values[-1]


def test_session_model_for_two_players_beyond_the_exact_later_rounds():
    """Two players on reduced boards whose later rounds are the full board: the exact race this
    round, the later rounds the model: labelled an approximation."""
    advice = session_advice(FIVES, REDUCED, (1, 1, 2, 3, 4, 5), [REDUCED], [10, 13], 2)
    assert not advice.exact and advice.extras["race_pairs"] is not None
    assert advice.extras["round_law"]["sd"] > 0
    too_many = session_advice(FIVES, REDUCED, (1, 1, 2, 3, 4, 5), [REDUCED], [10, 13], 3, session_rows=[1, 2, 3])
    assert not too_many.exact and too_many.extras["round_law"] is not None      # more races than solved on demand


@pytest.mark.parametrize("change, error", [
    ({"totals": [1]}, DicemathError),
    ({"totals": [1, -2]}, DicemathError),
    ({"rounds_left": 0}, DicemathError),
    ({"starter": 2}, DicemathError),
    ({"opponents": [REDUCED] * 6}, DicemathError),
    ({"opponents": [[5] * 12]}, InvalidBoardError),
    ({"rules": PEGS}, DicemathError),
])
def test_session_advice_bad_input(change, error):
    arguments = {"rules": FIVES, "board": REDUCED, "throw": (1, 1, 2, 3, 4, 5), "opponents": [REDUCED],
                 "totals": [10, 13], "rounds_left": 1, **change}
    totals = arguments.pop("totals")
    if "opponents" in change and len(change["opponents"]) == 6:
        totals = [0] * 7
    with pytest.raises(error):
        session_advice(arguments.pop("rules"), arguments.pop("board"), arguments.pop("throw"),
                       arguments.pop("opponents"), totals, **arguments)
