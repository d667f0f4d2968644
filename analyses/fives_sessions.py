"""Fives sessions, measured on reduced boards (issue 47): write ``analyses/data/fives_sessions.json``.

Steps (each records its figures under its own key; ``--only STEP`` reruns one):

* ``approximation`` -- the session model of :mod:`dicemath.games.pegs_fives.session_advice`
  (``exact: False``) against the exact two-player session ``W_R(D)``
  (:class:`~dicemath.games.pegs_fives.session.SessionSolver`) at the fresh pair of a reduced
  board, every round fresh on the same numbers: the largest and the mean absolute error of the
  first mover's win probability over rounds left and leads.
* ``choices`` -- at the first mover's turn-start choices (two or more legal rows) of sampled
  pairs of a round, the session model's row against the exact session row: the chance-weighted
  share where they differ and what the model's row costs (exact session win probability, mean
  and largest), by rounds left and lead; the same for the rest-point row (the exact race of
  FIVES-6, what ``fives advise --opponent`` maximises).
* ``departure`` -- over every live pair of a round, the chance-weighted share of turn-start
  choices where the exact session row differs from the exact rest-point row, by rounds left and
  lead, and the smallest lead (in absolute value) at which they differ at the round's first
  choice (the fresh pair): when to gamble.

All exact values are float64 on the compiled race kernel; the model's are estimates.

Usage::

    python analyses/fives_sessions.py                  # every step, a few minutes of CPU
    python analyses/fives_sessions.py --only departure
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from pathlib import Path

import numpy as np

from dicemath.games.pegs_fives.race_solver import _RaceTurn, kernel_tables, solve_race_compiled, win_value
from dicemath.games.pegs_fives.rules import FIVES
from dicemath.games.pegs_fives.session import SessionSolver, round_payoffs
from dicemath.games.pegs_fives.session_advice import SessionLeaves, round_law
from dicemath.games.pegs_fives.solver import solve_reduced
from dicemath.games.pegs_fives.state import grouped_choice_throws, rest_points
from dicemath.games.pegs_fives.turn import open_rows_of

OUT = Path(__file__).resolve().parent / "data" / "fives_sessions.json"
"""Where the figures go."""

STEPS = ("approximation", "choices", "departure")


def _live(layout) -> list[int]:
    return [i for i in range(layout.size) if open_rows_of(layout.board(i), FIVES.goal)]


class ExactLeaves:
    """The first mover's leaves against opponent board index ``ib`` from solved tables: the
    mirror ``1 - v`` (session) or ``-v`` (rest points), completing worth ``win``."""

    def __init__(self, layout, V1, V2, ib: int, win: float, session: bool) -> None:
        self.layout, self.V1, self.V2, self.ib, self.win, self.session = layout, V1, V2, ib, win, session

    def end(self, x) -> float:
        if not open_rows_of(x, FIVES.goal):
            return self.win
        v = float(self.V2[self.ib, self.layout.index(x)])
        return 1.0 - v if self.session else -v

    def restart(self, x) -> float:
        return self.win if not open_rows_of(x, FIVES.goal) else float(self.V1[self.layout.index(x), self.ib])


def _option_values(model: _RaceTurn, end, a) -> list[tuple[float, list[tuple[float, int]]]]:
    """Every choice throw of two or more legal rows at the start of ``a``'s turn: its chance
    and each row's value, most hits then the higher row first (the tie order)."""
    here = end(a)
    out = []
    for weight, legal in grouped_choice_throws(FIVES.dice, open_rows_of(a, FIVES.goal)):
        if len(legal) < 2:
            continue
        values = []
        for row, hits in sorted(legal, key=lambda rh: (-rh[1], -rh[0])):
            stay, rest = model.race_option(a, row, hits, FIVES.dice, None)
            values.append((float(stay * here + rest), row))
        out.append((weight / 6 ** FIVES.dice, values))
    return out


def _best(values: list[tuple[float, int]]) -> int:
    best_value, best_row = values[0]
    for v, row in values[1:]:
        if v > best_value + 1e-12 * (1 + abs(best_value)):
            best_value, best_row = v, row
    return best_row


def _session_tables(solver: SessionSolver, rounds: int, lead: int):
    """The exact round (tables) and the first mover's payoff by the rest points left."""
    race = solver.solve_round(rounds, lead)
    first, _ = round_payoffs(solver.round_later(rounds), lead)
    return race, first


def approximation(rows: tuple[int, ...], max_rounds: int, lead_step: int) -> dict:
    solver = SessionSolver(FIVES, rows)
    fresh = solver.fresh
    m = solver.fresh_rest
    errors = []
    cases = []
    for rounds in range(1, max_rounds + 1):
        law = round_law(FIVES, rows, 2)
        for lead in range(-rounds * m, rounds * m + 1, lead_step):
            exact = float(solver.win(rounds, lead))
            leaves = SessionLeaves(FIVES, [fresh], [0, lead], rounds - 1, law,
                                   _solo_values(rows).__getitem__)
            model = leaves.restart(fresh)
            errors.append(abs(model - exact))
            cases.append({"rounds": rounds, "lead": lead, "exact": exact, "model": model})
    return {"open_rows": list(rows), "rounds": max_rounds, "lead_step": lead_step, "cases": cases,
            "max_error": float(max(errors)), "mean_error": float(np.mean(errors)),
            "races_solved": solver.rounds_solved}


_SOLO: dict = {}


def _solo_values(rows: tuple[int, ...]) -> dict:
    if rows not in _SOLO:
        values = solve_reduced(FIVES, rows, exact=False).values
        _SOLO[rows] = {board: float(v) for board, v in values.items()}
    return _SOLO[rows]


def choices(rows: tuple[int, ...], rounds_list: list[int], leads: list[int], pairs: int, seed: int) -> dict:
    solver = SessionSolver(FIVES, rows)
    layout = kernel_tables(FIVES, rows)["layout"]
    live = _live(layout)
    rest_race = solve_race_compiled(FIVES, rows, decisions=False)
    rng = np.random.default_rng(seed)
    picked = [(live[i], live[j]) for i, j in zip(rng.integers(len(live), size=pairs),
                                                 rng.integers(len(live), size=pairs))]
    solo = _solo_values(rows)
    out = []
    for rounds in rounds_list:
        law = round_law(FIVES, rows, 2)
        for lead in leads:
            race, first = _session_tables(solver, rounds, lead)
            weight = model_differs = model_loss = model_worst = rest_differs = rest_loss = rest_worst = 0.0
            for ia, ib in picked:
                a, b = layout.board(ia), layout.board(ib)
                exact = ExactLeaves(layout, race.V1, race.V2, ib, float(first(rest_points(b, FIVES.goal))), True)
                exact_model = _RaceTurn(race.rules, exact.end, exact.restart, exact=False)
                leaves = SessionLeaves(FIVES, [b], [0, lead], rounds - 1, law, solo.__getitem__)
                approx_model = _RaceTurn(FIVES, leaves.end, leaves.restart, exact=False)
                rp = ExactLeaves(layout, rest_race.V1, rest_race.V2, ib, float(win_value(FIVES, b)), False)
                rp_model = _RaceTurn(FIVES, rp.end, rp.restart, exact=False)
                for (p, values), (_, approx), (_, rest) in zip(_option_values(exact_model, exact.end, a),
                                                              _option_values(approx_model, leaves.end, a),
                                                              _option_values(rp_model, rp.end, a)):
                    by_row = {row: v for v, row in values}
                    best = max(by_row.values())
                    weight += p
                    for chosen, kind in ((_best(approx), "model"), (_best(rest), "rest")):
                        loss = best - by_row[chosen]
                        if kind == "model":
                            model_differs += p * (loss > 1e-12)
                            model_loss += p * loss
                            model_worst = max(model_worst, loss)
                        else:
                            rest_differs += p * (loss > 1e-12)
                            rest_loss += p * loss
                            rest_worst = max(rest_worst, loss)
            out.append({"rounds": rounds, "lead": lead, "choice_chance": weight,
                        "model_differs": model_differs / weight, "model_mean_loss": model_loss / weight,
                        "model_max_loss": model_worst, "rest_points_differs": rest_differs / weight,
                        "rest_points_mean_loss": rest_loss / weight, "rest_points_max_loss": rest_worst})
    return {"open_rows": list(rows), "pairs": pairs, "seed": seed, "cases": out,
            "counted": "the first mover's turn-start choice throws with two or more legal rows at the sampled pairs, "
                       "chance-weighted; a row differs when it is worth less than the exact session row by more "
                       "than 1e-12; losses in session win probability"}


def departure(rows: tuple[int, ...], rounds_list: list[int], leads: list[int]) -> dict:
    solver = SessionSolver(FIVES, rows)
    layout = kernel_tables(FIVES, rows)["layout"]
    live = _live(layout)
    rest_race = solve_race_compiled(FIVES, rows, decisions=False)
    rest_rows: dict[tuple[int, int], list[int]] = {}
    for ib in live:
        b = layout.board(ib)
        rp = ExactLeaves(layout, rest_race.V1, rest_race.V2, ib, float(win_value(FIVES, b)), False)
        model = _RaceTurn(FIVES, rp.end, rp.restart, exact=False)
        for ia in live:
            rest_rows[(ia, ib)] = [_best(v) for _, v in _option_values(model, rp.end, layout.board(ia))]
    out: list[dict] = []
    for rounds in rounds_list:
        first_lead = None
        for lead in leads:
            race, first = _session_tables(solver, rounds, lead)
            weight = differs = loss = 0.0
            fresh_differs = False
            for ib in live:
                b = layout.board(ib)
                exact = ExactLeaves(layout, race.V1, race.V2, ib, float(first(rest_points(b, FIVES.goal))), True)
                model = _RaceTurn(race.rules, exact.end, exact.restart, exact=False)
                for ia in live:
                    for (p, values), rest_row in zip(_option_values(model, exact.end, layout.board(ia)),
                                                     rest_rows[(ia, ib)]):
                        by_row = {row: v for v, row in values}
                        gap = max(by_row.values()) - by_row[rest_row]
                        weight += p
                        differs += p * (gap > 1e-12)
                        loss += p * gap
                        if ia == 0 and ib == 0 and gap > 1e-12:
                            fresh_differs = True
            if fresh_differs and (first_lead is None or abs(lead) < abs(first_lead)):
                first_lead = lead
            out.append({"rounds": rounds, "lead": lead, "differs": differs / weight, "mean_loss": loss / weight,
                        "differs_at_the_fresh_pair": fresh_differs})
        out.append({"rounds": rounds, "smallest_departing_lead_at_the_fresh_pair": first_lead})
    return {"open_rows": list(rows), "leads": leads, "cases": out,
            "counted": "every live pair's first-mover turn-start choice throws with two or more legal rows, each "
                       "pair once, chance-weighted: the share where the exact rest-point row (FIVES-6) is worth less "
                       "session win probability than the exact session row, and the mean loss"}


def _cpu() -> str:
    """The CPU's model name (Linux), else the platform's word for it."""
    info = Path("/proc/cpuinfo")
    if info.exists():
        for line in info.read_text().splitlines():
            if line.startswith("model name"):
                return line.partition(":")[2].strip()
    return platform.processor() or platform.machine()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=STEPS, default=None)
    parser.add_argument("--pairs", type=int, default=40, help="sampled pairs of the choices step")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    results = json.loads(OUT.read_text()) if OUT.exists() else {}
    results["machine"] = {"cpu": _cpu(), "note": "shared with other work (loaded)"}
    for step in STEPS:
        if args.only not in (None, step):
            continue
        start = time.perf_counter()
        figures: dict
        if step == "approximation":
            figures = {"rows_1_2": approximation((1, 2), 3, 1), "rows_1_2_3": approximation((1, 2, 3), 2, 5)}
        elif step == "choices":
            figures = choices((1, 2), [1, 2, 3], [-10, -5, 0, 5, 10], args.pairs, args.seed)
        else:
            figures = departure((1, 2), [1, 2, 3], list(range(-15, 16)))
        figures["seconds"] = time.perf_counter() - start
        results[step] = figures
        OUT.parent.mkdir(parents=True, exist_ok=True)
        OUT.write_text(json.dumps(results, indent=1) + "\n")
        print(step, f"{figures['seconds']:.0f} s")


if __name__ == "__main__":
    main()
