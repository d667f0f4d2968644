"""Race advice at a table of three to six players: the measure of ``analyses/pegs_fives_tables.py``
(the turn-count model against the exact tables of :mod:`dicemath.games.pegs_fives.race_table`),
an independent best response held against that reference and the compiled two-player race, the
exact turn laws, and the report section ``bigger_table``."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
import pytest

from dicemath.games.pegs_fives import report_bigger_table as section
from dicemath.games.pegs_fives.race_advice import RaceLeaves, fitted_law, race_advice, solo_laws
from dicemath.games.pegs_fives.race_solver import _evaluate, solve_race_compiled
from dicemath.games.pegs_fives.race_table import objectives, solve_race_table
from dicemath.games.pegs_fives.rules import FIVES, PEGS, Rules
from dicemath.games.pegs_fives.state import BoardTuple
from dicemath.games.pegs_fives.solver import solve_reduced
from dicemath.games.pegs_fives.turn import end_board_model, open_rows_of, turn_distribution
from dicemath.reporting.context import ReportContext

from ..conftest import analysis_script



@pytest.fixture(scope="module")
def tables():
    """The study script as a module."""
    return analysis_script("pegs_fives_tables")


def best_response_class(ExactTable):
    """The independent best response, on the script's :class:`ExactTable`."""

    class BestResponse(ExactTable):
        """The exact values of seat 0 playing to win against ``players - 1`` independent
        solo-optimal opponents on a reduced board, float64 (:class:`ExactTable`). The opponents'
        turns are chance: each ends on a board of the exact end-of-turn distribution of solo play
        (:func:`.turn.turn_distribution`, fresh starts followed); the mover's turn is the race turn
        (:class:`.race_solver._RaceTurn`) on the values after it. Positions are solved in
        decreasing progress of the opponents, then of the mover; the one cycle (every turn ending
        where it began) by Newton's method on the mover's value."""

        def __init__(self, rules: Rules, open_rows: Sequence[int], players: int = 3) -> None:
            super().__init__(rules, open_rows, players)
            model = end_board_model(rules, self.solo)
            self.steps = {b: [(y, float(p)) for y, p in turn_distribution(rules, b, self.solo, model=model).items()]
                          for b in self.live}
            self._ended: dict[tuple, float] = {}
            self._known: dict[tuple[BoardTuple, tuple[BoardTuple, ...], int], float] = {}
            order = sorted(itertools.product(self.live, repeat=players - 1), key=lambda o: -sum(map(sum, o)))
            for opponents in order:
                for x in self.live:
                    self._solve(x, opponents)

        def _walk(self, x: BoardTuple, opponents: tuple[BoardTuple, ...], j: int) -> tuple[float, float]:
            """``(c, p)``: the value after the mover's turn ended on ``x``, from opponent ``j`` on,
            is ``c + p * values[(x, start)]`` (``p``: the chance that every opponent's turn ends
            where it began, when that value is not yet known)."""
            if j == len(opponents):
                key = (x, opponents)
                return (0.0, 1.0) if key not in self.values else (self.values[key], 0.0)
            known = self._known.get((x, opponents, j))
            if known is not None:
                return known, 0.0
            c = p = 0.0
            for y, q in self.steps[opponents[j]]:
                after = opponents[:j] + (y,) + opponents[j + 1:]
                if open_rows_of(y, self.goal):
                    cy, py = self._walk(x, after, j + 1)
                    c, p = c + q * cy, p + q * py
                elif self.rules.scoring != "first_out":
                    others = sum(self.rest[o] for i, o in enumerate(after) if i != j) / len(after)
                    c += q * (others - self.rest[x])
            if p == 0.0:
                self._known[(x, opponents, j)] = c
            return c, p

        def ended(self, x: BoardTuple, opponents: tuple[BoardTuple, ...]) -> float:
            if not open_rows_of(x, self.goal):
                return self.complete_value(opponents)
            key = (x, opponents)
            v = self._ended.get(key)
            if v is None:
                c, p = self._walk(x, opponents, 0)
                v = self._ended[key] = c + p * self.values[key]
            return v

        def _solve(self, x: BoardTuple, opponents: tuple[BoardTuple, ...]) -> None:
            c, p = self._walk(x, opponents, 0)
            groups = [(q, options) for q, options, _ in self.groups(x, self.turn(opponents))]
            v = new = 0.0
            for _ in range(100):
                h, slope = _evaluate(groups, c + p * v)
                new = (h - slope * p * v) / (1 - slope * p)
                if abs(new - v) <= 1e-15 * (1 + abs(v)):
                    break
                v = new
            self.values[(x, opponents)] = new


    return BestResponse


@pytest.fixture(scope="module")
def best_response(tables):
    return best_response_class(tables.ExactTable)


@pytest.mark.parametrize("rules", [PEGS, FIVES])
@pytest.mark.parametrize("rows", [(12,), (10, 12)])
def test_the_best_response_of_two_players_is_the_compiled_race_of_race_against_solo(best_response, rules, rows):
    exact = best_response(rules, rows, 2)
    race = solve_race_compiled(rules, rows, first="race", second="solo", examples=0)
    worst = max(abs(exact.values[(x, (y,))] - race.value(x, y)) for x in exact.live for y in exact.live)
    assert worst < 1e-9


@pytest.mark.parametrize("rules", [PEGS, FIVES])
@pytest.mark.parametrize("players", [3, 4])
def test_the_best_response_is_the_reference_tables_race_against_solo(best_response, rules, players):
    """Two methods: chance turns of independent solo opponents, and the reference solver of
    every seat's vector with seat 0 racing (:func:`.race_table.solve_race_table`)."""
    exact = best_response(rules, (12,), players)
    table = solve_race_table(rules, (12,), players=players, policies=("race",) + ("solo",) * (players - 1))
    worst = max(abs(v - float(objectives(rules, table.value((x, *o)))[0])) for (x, o), v in exact.values.items())
    assert worst < 1e-9


@pytest.mark.parametrize("rules", [PEGS, FIVES])
@pytest.mark.parametrize("players", [3, 4])
def test_on_one_row_the_exact_laws_give_the_exact_values_and_the_fitted_laws_do_not(tables, rules, players):
    """One open row leaves no choice, so the mover's later play is solo play: the model on the
    exact laws is the exact answer (Fives: every seat's rest points when one opponent ends the
    round, in seat order); the fitted laws are an approximation."""
    exact = tables.TableValues(rules, (12,), players, ("race",) + ("solo",) * (players - 1))
    assert tables.measure(exact, "exact laws")["largest_error"] < 1e-9
    fitted = tables.measure(exact, "fitted")
    assert fitted["largest_error"] > 1e-3 and fitted["choices"] == 0


def test_a_three_player_pegs_start_favours_the_first_seat(tables):
    exact = tables.TableValues(PEGS, (12,), 3)
    start = exact.live[-1]
    first = exact.values[(start, (start, start))]
    assert 1 / 3 < first < 1 and exact.ended(start, (start, start)) < first


@pytest.mark.slow
def test_on_two_rows_the_exact_laws_choose_closer_to_the_exact_table_than_the_fitted_laws(tables):
    exact = tables.TableValues(PEGS, (11, 12), 3)
    laws, fitted = tables.measure(exact, "exact laws"), tables.measure(exact, "fitted")
    assert laws["positions"] == 35 ** 3 and laws["choices"] > 0
    assert 0 <= laws["mean_loss"] <= laws["largest_loss"] and laws["solo_mean_loss"] > 0
    assert laws["mean_error"] < fitted["mean_error"] and laws["mean_loss"] < fitted["mean_loss"]


def test_the_exact_laws_have_the_solved_expected_turns_as_their_means():
    solved = solve_reduced(FIVES, (9, 11, 12), exact=False)
    laws = solo_laws(FIVES, solved.start, solved.values.__getitem__, max_boards=216)
    assert len(laws) == 6 ** 3 - 1
    for board, law in laws.items():
        assert law.survival.sum() == pytest.approx(float(solved.values[board]), rel=1e-9)
        assert law.rest[0] == sum((5 - s) * (r + 1) for r, s in enumerate(board))


def test_the_exact_laws_refuse_a_box_beyond_the_limit():
    with pytest.raises(Exception, match="more than the 10 "):
        solo_laws(PEGS, [0] * 12, lambda board: 1.0, max_boards=10)


def test_with_one_opponent_fives_counts_no_other_rest_points():
    """Two players: the objective is the opponent's rest points minus the mover's; the
    others' term is empty, so a fitted opponent given as a law or as ``(E, R)`` is the same."""
    one = RaceLeaves(FIVES, [(12.0, 40.0)])
    law = RaceLeaves(FIVES, [fitted_law(FIVES, 12.0, 40.0)])
    assert one.end(9.0, 30.0) == law.end(9.0, 30.0) and one.fresh(9.0, 30.0) == law.fresh(9.0, 30.0)


def test_advice_at_a_bigger_table_is_labelled_an_estimate():
    board, throw, opponent = section.POSITIONS[0][1:]
    advice = race_advice(PEGS, board, throw, [opponent] * 3, exact_max_rows=0)
    assert not advice.exact and advice.source == "turn-count model"
    values = [o.value for o in advice.options]
    assert values == sorted(values, reverse=True)


def _models(fitted_error: float, laws_error: float, fitted_loss: float, laws_loss: float) -> dict:
    def model(name, error, loss):
        return {"model": name, "positions": 10, "choices": 4, "largest_error": 4 * error, "mean_error": error,
                "mean_signed_error": 0.0, "differing_choices": 0.1, "mean_loss": loss, "largest_loss": 5 * loss,
                "solo_differing_choices": 0.2, "solo_mean_loss": 0.004}

    return {"start_value": 0.4, "models": {"fitted": model("fitted", fitted_error, fitted_loss),
                                           "exact laws": model("exact laws", laws_error, laws_loss)}}


SAMPLE = {
    "pegs": {
        "exact": {"boards": [{"players": 3, "open_rows": [11, 12],
                              "best response": _models(0.05, 0.003, 0.002, 0.0001),
                              "whole table": _models(0.05, 0.003, 0.006, 0.005)}]},
        "simulate": {"tables": [
            {"players": n, "games": 100, "table_games": 20,
             "one_race": {"race": 0.4, "race_ci95": 0.1, "solo": 0.3, "solo_ci95": 0.1, "difference": d,
                          "difference_ci95": 0.02, "games": 100},
             "whole_table_rest_points": {"race": 0, "race_ci95": 0, "solo": 0, "solo_ci95": 0, "difference": 0,
                                         "difference_ci95": 0, "games": 20},
             "whole_table_first_seat_wins": {"race": 0.5, "race_ci95": 0.2, "solo": 0.4, "solo_ci95": 0.2,
                                             "difference": 0.1, "difference_ci95": 0.05, "games": 20}}
            for n, d in ((3, 0.05), (4, 0.01), (6, 0.0))]},
    },
}


def test_the_sentences_are_read_off_the_numbers():
    record = SAMPLE["pegs"]["exact"]
    text = section.model_sentence(PEGS, record)
    assert text.startswith("Pegs, against the best response: the exact laws model's value is off by 0.30 pp on "
                           "average over the boards (largest 1.20 pp), the fitted model's by 5.00 pp")
    assert text.endswith("0.01 pp for the exact laws model's row, 0.20 pp for the fitted model's row, 0.40 pp for "
                         "the solo-optimal row: the exact laws model loses least.")
    assert section.model_sentence(PEGS, record, "whole table").endswith("the solo-optimal row loses least.")
    sim = section.simulation_sentence(PEGS, SAMPLE["pegs"]["simulate"])
    assert "at 3 players the race player gains (+5.00 ± 2.00 pp)" in sim
    assert "at 6 players the race player shows no difference" in sim
    assert sim.endswith("the gain at 6 players is smaller than at 3, beyond both intervals.")
    assert section.whole_table_sentence(PEGS, SAMPLE["pegs"]["simulate"]).startswith(
        "With the whole table playing to win, the first seat's win rate is up at 3 players (+10.00 ± 5.00 pp, 20 "
        "games)")


def test_the_section_renders_the_committed_study(tmp_path):
    report = section.BiggerTableReport(SAMPLE, tuple(section.advice_at_tables(*p) for p in section.POSITIONS[:1]))
    text = section.render(report, ReportContext(tmp_path, quick=True))
    assert "## The approximation against the exact answer" in text and "Fives: not yet measured." in text
    assert (tmp_path / "bigger_table_gain.png").exists()
    rows = [row for k, row, *_ in report.positions[0].rows]
    assert len(rows) == len(section.OPPONENTS) and np.all(np.array(rows) >= 1)
