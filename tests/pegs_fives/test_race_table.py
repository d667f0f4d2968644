"""The exact race at a table (race_table): against an independent value iteration, the two-player
race, Fractions, and the command ``race --players 3``."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import pytest

from dicemath.cli import main
from dicemath.core.errors import DicemathError
from dicemath.games.pegs_fives.race_solver import TIE, RaceTooLargeError, SoloOptimal, solve_race
from dicemath.games.pegs_fives.race_table import (
    EXACT_MAX_TUPLES, TABLE_MAX_TUPLES, TurnForms, check_table, objectives, solve_race_table)
from dicemath.games.pegs_fives.rules import FIVES, PEGS, Rules
from dicemath.games.pegs_fives.solver import reduced_boards, solve_reduced
from dicemath.games.pegs_fives.state import (
    InvalidBoardError, after_hits, grouped_choice_throws, hit_weights, miss, rest_points)

SMALL_PEGS = PEGS.variant(goal=2)
SMALL_FIVES = FIVES.variant(goal=2)
THREE_STEPS = {"pegs": PEGS.variant(goal=3), "fives": FIVES.variant(goal=3)}


# ---------------------------------------------------------------------------------------------
# An independent solver: value iteration over every position, seats in absolute order, the turn
# followed through the rules engine (after_hits / miss) with its own recursion.
# ---------------------------------------------------------------------------------------------

def _own(rules: Rules, vector: tuple[float, ...], seat: int) -> float:
    if rules.scoring == "first_out":
        return vector[seat]
    n = len(vector)
    return sum(v for j, v in enumerate(vector) if j != seat) / (n - 1) - vector[seat]


def _terminal(rules: Rules, boards: tuple, seat: int) -> tuple[float, ...]:
    if rules.scoring == "first_out":
        return tuple(float(j == seat) for j in range(len(boards)))
    return tuple(0.0 if j == seat else float(rest_points(b, rules.goal)) for j, b in enumerate(boards))


def value_iteration(rules: Rules, rows, players: int, policies, sweeps: int = 500) -> dict:
    """``{(seat, boards): vector}``: boards and vector in seat order (seat 0 first), ``seat`` to move.

    Gauss-Seidel sweeps over the positions of one total of progress at a time, from the most
    progress down, each to convergence; every turn followed through the rules engine."""
    goal = rules.goal
    live = [b for b in reduced_boards(rules, rows) if not all(s >= goal for s in b)]
    levels: dict[int, list] = {}
    for boards in itertools.product(live, repeat=players):
        for seat in range(players):
            levels.setdefault(sum(map(sum, boards)), []).append((seat, boards))
    V: dict = {}
    solo = SoloOptimal(rules, solve_reduced(rules, rows, exact=False).values.__getitem__, exact=False)
    full = rules.throws

    def add(a, b):
        return tuple(x + y for x, y in zip(a, b))

    def scale(p, a):
        return tuple(p * x for x in a)

    def turn(seat, boards):
        memo: dict = {}

        def with_board(board):
            return boards[:seat] + (board,) + boards[seat + 1:]

        def end(board):
            if all(s >= goal for s in board):
                return _terminal(rules, with_board(board), seat)
            return V.get(((seat + 1) % players, with_board(board)), (0.0,) * players)

        def after(cycle):
            if cycle.over:
                return end(cycle.board)
            if cycle.row is None:
                if cycle.dice == rules.dice and cycle.throws == full:
                    return V[(seat, with_board(cycle.board))]          # a fresh start: the same mover
                return throw(cycle.board, cycle.dice, cycle.throws)
            return throw_on(cycle.board, cycle.row, cycle.count, cycle.dice, cycle.throws)

        def throw_on(board, row, count, dice, throws):
            key = ("on", board, row, count, dice, throws)
            if key not in memo:
                left = None if throws is None else throws - 1
                total = (0.0,) * players
                for hits, weight in enumerate(hit_weights(dice, row)):
                    if weight:
                        cycle = (miss(board, row, count, dice, left) if hits == 0 else
                                 after_hits(rules, board, row, count + hits,
                                            dice - hits * rules.dice_per_hit[row - 1], left))
                        total = add(total, scale(weight / 6 ** dice, after(cycle)))
                memo[key] = total
            return memo[key]

        def throw(board, dice, throws):
            key = ("choice", board, dice, throws)
            if key not in memo:
                left = None if throws is None else throws - 1
                total = (0.0,) * players
                open_rows = tuple(r for r, s in enumerate(board, 1) if s < goal)
                for weight, legal in grouped_choice_throws(dice, open_rows):
                    scored = [(row, after(after_hits(rules, board, row, h, dice - h * rules.dice_per_hit[row - 1],
                                                     left))) for row, h in legal]
                    if not legal:
                        best = end(board)
                    elif policies[seat] == "solo":
                        best = dict(scored)[solo(board, legal, dice, throws)]
                    else:
                        top = max(_own(rules, v, seat) for _, v in scored)
                        best = next(v for _, v in scored if _own(rules, v, seat) >= top - TIE * (1 + abs(top)))
                    total = add(total, scale(weight / 6 ** dice, best))
                memo[key] = total
            return memo[key]

        return throw(boards[seat], rules.dice, full)

    for level in sorted(levels, reverse=True):
        for _ in range(sweeps):
            change = 0.0
            for position in levels[level]:
                new = turn(*position)
                change = max([change] + [abs(a - b) for a, b in zip(new, V.get(position, (0.0,) * players))])
                V[position] = new
            if change < 1e-14:
                break
        else:
            raise AssertionError("the value iteration did not converge")
    return V


def assert_agrees(solution, independent: dict, players: int) -> None:
    worst = 0.0
    for (seat, boards), vector in independent.items():
        mover_first = boards[seat:] + boards[:seat]
        expected = vector[seat:] + vector[:seat]
        got = solution.value(mover_first, seat)
        worst = max(worst, max(abs(float(a) - b) for a, b in zip(got, expected)))
    assert worst < 1e-9


ONE_STEP = {"pegs": PEGS.variant(goal=1), "fives": FIVES.variant(goal=1)}
SLOW = pytest.mark.slow


@pytest.mark.parametrize("rules, rows, policies", [
    (ONE_STEP["pegs"], (3, 8), ("race", "race", "race")), (ONE_STEP["pegs"], (2, 12), ("race", "solo", "solo")),
    (ONE_STEP["pegs"], (4, 9), ("solo", "race", "race")), (ONE_STEP["fives"], (2, 11), ("race", "race", "race")),
    (ONE_STEP["fives"], (3, 7), ("solo", "race", "solo")), (PEGS, (12,), ("race", "race", "race")),
    pytest.param(SMALL_PEGS, (3, 8), ("race", "race", "race"), marks=SLOW),
    pytest.param(SMALL_PEGS, (3, 8), ("race", "solo", "solo"), marks=SLOW),
    pytest.param(SMALL_FIVES, (2, 11), ("race", "race", "race"), marks=SLOW),
    pytest.param(SMALL_FIVES, (2, 11), ("solo", "race", "solo"), marks=SLOW),
    pytest.param(FIVES, (4,), ("race", "race", "race"), marks=SLOW)],
    ids=lambda v: "-".join(map(str, v)) if isinstance(v, tuple) else None)
def test_every_position_equals_an_independent_value_iteration(rules, rows, policies):
    solution = solve_race_table(rules, rows, policies=policies)
    assert_agrees(solution, value_iteration(rules, rows, 3, policies), 3)


def test_four_players_equal_the_independent_value_iteration():
    policies = ("race", "solo", "race", "race")
    solution = solve_race_table(ONE_STEP["pegs"], (5, 9), players=4, policies=policies)
    assert_agrees(solution, value_iteration(ONE_STEP["pegs"], (5, 9), 4, policies), 4)


# ---------------------------------------------------------------------------------------------
# Second methods and sanity
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("rules, rows", [(SMALL_PEGS, (3, 8)), (SMALL_FIVES, (2, 11)), (PEGS, (12,))])
@pytest.mark.parametrize("first, second", [("race", "race"), ("race", "solo"), ("solo", "race")])
def test_two_players_are_the_two_player_race_exactly(rules, rows, first, second):
    table = solve_race_table(rules, rows, players=2, policies=(first, second), exact=True)
    pair = solve_race(rules, rows, first=first, second=second, exact=True)
    for (a, b), value in pair.values[1].items():
        assert table.objectives((a, b), 0)[0] == value
    for (a, b), value in pair.values[2].items():
        assert table.objectives((a, b), 1)[0] == value


@pytest.mark.parametrize("name", ["pegs", "fives"])
def test_fractions_and_float64_agree(name):
    rules, rows, policies = ONE_STEP[name], (3, 8, 11), ("race", "solo", "race")
    exact = solve_race_table(rules, rows, policies=policies, exact=True)
    close = solve_race_table(rules, rows, policies=policies)
    live = [b for b in reduced_boards(rules, rows) if not all(s >= rules.goal for s in b)]
    for boards in itertools.product(live, repeat=3):
        for seat in range(3):
            vector = exact.value(boards, seat)
            assert all(isinstance(v, Fraction) for v in vector)
            assert [float(v) for v in vector] == pytest.approx(close.value(boards, seat), abs=1e-12)


@pytest.mark.parametrize("name", ["pegs", "fives"])
def test_values_add_up_and_seat_zero_leads(name):
    rules = THREE_STEPS[name]
    solution = solve_race_table(rules, (6, 9))
    live = [b for b in reduced_boards(rules, (6, 9)) if not all(s >= rules.goal for s in b)]
    for boards in itertools.product(live, repeat=3):
        vector = solution.value(boards)
        if name == "pegs":
            assert sum(vector) == pytest.approx(1, abs=1e-12) and min(vector) >= 0
        else:
            assert sum(solution.objectives(boards)) == pytest.approx(0, abs=1e-9)
            assert all(0 <= r <= rest_points(b, rules.goal) for r, b in zip(vector, boards))
    start = solution.start_objectives
    assert start[0] > start[1] > start[2]
    for rows in ((7,), (12,)):
        start = solve_race_table(PEGS if name == "pegs" else FIVES, rows).start_objectives
        assert start[0] > start[1] > start[2]


@pytest.mark.parametrize("name", ["pegs", "fives"])
def test_a_best_response_gains_and_race_play_differs_from_solo(name):
    rules = THREE_STEPS[name]
    solo = solve_race_table(rules, (6, 9), policies=("solo",) * 3)
    best = solve_race_table(rules, (6, 9), policies=("race", "solo", "solo"))
    race = solve_race_table(rules, (6, 9))
    assert best.start_objectives[0] > solo.start_objectives[0]
    assert race.start_objectives != pytest.approx(solo.start_objectives, abs=1e-6)
    assert solo.tie_decisions.choices == 0
    counted = race.tie_decisions
    assert counted.choices > 0 and 0 <= counted.deciding <= counted.ties <= counted.choices


def test_a_complete_board_ends_the_round():
    solution = solve_race_table(PEGS, (12,), exact=True)
    board, done = (5,) * 11 + (2,), (5,) * 12
    assert solution.value((board, done, board)) == (0, 1, 0)
    fives = solve_race_table(FIVES, (12,))
    assert fives.value((done, board, (5,) * 11 + (0,))) == (0, 36, 60)
    assert objectives(FIVES, (0, 36, 60)) == (48, -6, -42)
    # one step short: the turn either brings row 12 in (the round is over) or ends where it began
    forms = TurnForms(PEGS)
    short, other = (5,) * 11 + (4,), (5,) * 11 + (0,)
    follow = solution.value((other, other, short))
    stays = follow[-1:] + follow[:-1]
    total = [Fraction(0)] * 3
    for weight, legal in grouped_choice_throws(6, (12,)):
        p = Fraction(weight, 6 ** 6)
        if not legal:
            total = [t + p * v for t, v in zip(total, stays)]
            continue
        stay, rest = forms.option(short, 12, dict(legal)[12], 6, 2)
        ends = dict(rest) if rest else {}
        assert all(key[3:] == done for key in ends)
        total = [t + p * (stay * v + sum(ends.values()) * w) for t, v, w in zip(total, stays, (1, 0, 0))]
    assert tuple(total) == solution.value((short, other, other))


def test_bad_input_is_a_clear_error():
    with pytest.raises(DicemathError, match="2..6 players"):
        solve_race_table(PEGS, (12,), players=1)
    with pytest.raises(DicemathError, match="one policy per seat"):
        solve_race_table(PEGS, (12,), policies=("race", "solo"))
    with pytest.raises(DicemathError, match="policy"):
        solve_race_table(PEGS, (12,), policies=("race", "greedy", "solo"))
    with pytest.raises(RaceTooLargeError, match=f"{TABLE_MAX_TUPLES:,}"):
        check_table(PEGS, (1, 2, 3), 3)
    with pytest.raises(RaceTooLargeError, match=f"fractions for at most {EXACT_MAX_TUPLES:,}"):
        check_table(PEGS, (1, 2), 3, exact=True)
    with pytest.raises(InvalidBoardError):
        check_table(PEGS, (13,), 3)
    solution = solve_race_table(PEGS, (12,))
    board = (5,) * 11 + (0,)
    with pytest.raises(InvalidBoardError, match="3 boards"):
        solution.value((board, board))
    with pytest.raises(InvalidBoardError, match="complete"):
        solution.value(((5,) * 12, (5,) * 12, board))
    with pytest.raises(InvalidBoardError, match="open"):
        solution.value(((0,) * 12, board, board))
    with pytest.raises(DicemathError, match="seat"):
        solution.value((board,) * 3, 3)


# ---------------------------------------------------------------------------------------------
# The command
# ---------------------------------------------------------------------------------------------

def test_race_command_three_players(capsys):
    assert main(["pegs", "race", "--open", "12", "--players", "3", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    reference = solve_race_table(PEGS, (12,))
    assert result["players"] == 3 and result["policies"] == ["race"] * 3 and result["open_rows"] == [12]
    assert result["win_probabilities"] == pytest.approx([float(v) for v in reference.start_values], abs=1e-12)
    assert result["exact"] is True and result["arithmetic"] == "float64"
    assert set(result["tie_decisions"]) >= {"choices", "ties", "deciding"}
    assert main(["fives", "race", "--open", "12", "--players", "3", "--policies", "race,solo,solo", "--exact",
                 "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    reference = solve_race_table(FIVES, (12,), policies=("race", "solo", "solo"), exact=True)
    assert result["arithmetic"] == "fraction" and result["policies"] == ["race", "solo", "solo"]
    assert result["expected_rest_points_exact"] == [str(v) for v in reference.start_values]
    assert result["objectives"] == pytest.approx([float(v) for v in reference.start_objectives], abs=1e-12)
    assert main(["pegs", "race", "--open", "12", "--players", "3"]) == 0
    text = capsys.readouterr().out
    assert "seat 0" in text and "lowest row" in text


def test_race_command_two_players_is_unchanged(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("DICEMATH_CACHE_DIR", str(tmp_path))
    assert main(["fives", "race", "--open", "12", "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert main(["fives", "race", "--open", "12", "--players", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == plain


@pytest.mark.parametrize("argv, message", [
    (["pegs", "race", "--open", "12", "--players", "4"], "2 or 3 players"),
    (["pegs", "race", "--open", "12", "--players", "3", "--policies", "race,solo"], "one policy per seat"),
    (["pegs", "race", "--open", "12", "--players", "3", "--policies", "race,solo,greedy"], "policy"),
    (["pegs", "race", "--open", "12", "--policies", "race,solo"], "--players 3"),
    (["pegs", "race", "--open", "1,2,3", "--players", "3"], "tuples"),
    (["pegs", "race", "--open", "1,2", "--players", "3", "--exact"], "fractions"),
    (["fives", "race", "--players", "3"], "--open"),
    (["pegs", "race", "--open", "12", "--players", "3", "--boards", "0", "0"], "--boards"),
    (["pegs", "race", "--open", "12", "--exact"], "--players 3")])
def test_race_command_bad_input_exits_2(capsys, argv, message):
    assert main(argv) == 2
    assert message in capsys.readouterr().err
