"""Race advice at a bigger table, Pegs and Fives, measured: write
``dicemath/games/pegs_fives/data/bigger_table.json`` (the data of the report section
``bigger_table``, :mod:`dicemath.games.pegs_fives.report_bigger_table`).

Steps (each records its figures under ``<game>.<step>``; a recorded step is rerun only with
``--force``):

* ``exact`` -- the turn-count model of :mod:`dicemath.games.pegs_fives.race_advice` against
  the exact values on reduced boards at a table of ``players``
  (:func:`~dicemath.games.pegs_fives.race_table.solve_race_table`, float64): the mover (seat 0)
  playing to win against solo-optimal opponents (``best response``, the opponents the model
  assumes), and every seat playing to win (``whole table``). For every position (the mover's
  board and the opponents', each once, seat 0 to move) the model's value at the start of the
  turn against the exact one (largest and mean error of the win probability, Pegs, or of the
  objective, Fives: the opponents' mean rest points minus the mover's, FIVES-6), and for every
  choice throw with two or more legal rows whether the model's row is an exact best one and
  what it gives up (the exact value lost, chance-weighted); the solo-optimal row beside it.
  Two models: ``fitted`` (every player's remaining turns a fitted Weibull law around his
  expected turns) and ``exact laws`` (the laws of every board under solo play,
  :func:`~dicemath.games.pegs_fives.race_advice.solo_laws`);
* ``simulate`` -- full-board games at tables of 3, 4 and 6 players, the dice seeded per player
  and game: all solo-optimal (the distilled model's one-turn lookahead,
  :class:`~dicemath.games.pegs_fives.advisor.Advisor`), one race player among them (the seat
  turning with the game), and the whole table playing to win (the turn-count model on the
  distilled model's expected turns), each game played the three ways with the same dice; Pegs:
  the win rate, Fives: the rest points a round, each with a 95% interval (normal
  approximation), and the paired difference against the solo game. Estimates.

Usage::

    python analyses/pegs_fives_tables.py pegs exact
    python analyses/pegs_fives_tables.py fives simulate --games 60 --table-games 20
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from dicemath.core.stats import Z95
from dicemath.games.pegs_fives.advisor import Advisor
from dicemath.games.pegs_fives.distilled import DistilledValue
from dicemath.games.pegs_fives.race_advice import TurnLaw, race_turn_model, solo_laws
from dicemath.games.pegs_fives.race_solver import SoloOptimal, _RaceTurn, check_race_rows
from dicemath.games.pegs_fives.race_table import objectives, solve_race_table
from dicemath.games.pegs_fives.rules import PRESETS, Rules
from dicemath.games.pegs_fives.solver import reduced_boards, solve_reduced
from dicemath.games.pegs_fives.state import BoardTuple, grouped_choice_throws, play_turn, rest_points
from dicemath.games.pegs_fives.turn import open_rows_of

RESULTS = Path(__file__).resolve().parent.parent / "dicemath" / "games" / "pegs_fives" / "data" / "bigger_table.json"

EXACT_BOARDS = {3: ((12,), (7,), (2,), (11, 12)), 4: ((12,), (7,)), 6: ((12,),)}
"""Reduced boards of the ``exact`` step by players at the table (open rows)."""

MODELS = ("fitted", "exact laws")
"""The turn-count models measured: the fitted laws, the exact laws of solo play."""

TABLES = (3, 4, 6)
"""Players at the table in the ``simulate`` step."""

TIE = 1e-12
"""A row worth the best within this (relative) counts as a best row."""

Position = tuple[BoardTuple, tuple[BoardTuple, ...]]
"""The mover's board and the opponents' in the order they move after him."""


class ExactTable:
    """Exact values of the mover (seat 0 to move) on a reduced board at a table of
    ``players``, as :func:`measure` reads them: ``values[(x, opponents)]`` his own value at the
    start of his turn (Pegs his probability of finishing first; Fives his objective, the
    opponents' mean rest points minus his own, FIVES-6), :meth:`ended` of a turn ending on a
    board, :meth:`turn` his within-turn model on those values; the solo values of the board."""

    def __init__(self, rules: Rules, open_rows: Sequence[int], players: int) -> None:
        self.rules, self.rows, self.players = rules, check_race_rows(rules, open_rows), players
        goal = self.goal = rules.goal
        boards = reduced_boards(rules, self.rows)
        self.live = [b for b in boards if open_rows_of(b, goal)]
        self.solo_values = solve_reduced(rules, self.rows, exact=False).values
        self.solo = SoloOptimal(rules, self.solo_values.__getitem__, exact=False)
        self.rest = {b: rest_points(b, goal) for b in boards}
        self.values: dict[Position, float] = {}
        self._turns: dict[tuple[BoardTuple, ...], _RaceTurn] = {}

    def complete_value(self, opponents: tuple[BoardTuple, ...]) -> float:
        """The mover's value when he finishes first."""
        if self.rules.scoring == "first_out":
            return 1.0
        return sum(self.rest[o] for o in opponents) / len(opponents)

    def ended(self, x: BoardTuple, opponents: tuple[BoardTuple, ...]) -> float:
        """The mover's value of his turn ending on ``x`` (the opponents move next)."""
        raise NotImplementedError

    def turn(self, opponents: tuple[BoardTuple, ...]) -> _RaceTurn:
        model = self._turns.get(opponents)
        if model is None:
            def restart(x: BoardTuple) -> float:
                return self.complete_value(opponents) if not open_rows_of(x, self.goal) else self.values[(x, opponents)]

            model = self._turns[opponents] = _RaceTurn(self.rules, lambda x: self.ended(x, opponents), restart,
                                                       exact=False)
            model.end = lambda x: self.ended(x, opponents)
        return model

    def groups(self, x: BoardTuple, model: _RaceTurn) -> list[tuple[float, list, tuple]]:
        """The first choice throw of a turn from ``x``: ``(p, [(stay, rest), ...], legal)``."""
        rules = self.rules
        return [(w / 6 ** rules.dice, [model.race_option(x, row, h, rules.dice, _after(rules)) for row, h in legal],
                 legal)
                for w, legal in grouped_choice_throws(rules.dice, open_rows_of(x, self.goal))]


class TableValues(ExactTable):
    """The exact values of a table whose seats play ``policies`` (seat 0 first; ``race`` or
    ``solo``), :func:`~dicemath.games.pegs_fives.race_table.solve_race_table`, as
    :class:`ExactTable`: seat 0's own entry at every position, seat 0 to move."""

    def __init__(self, rules: Rules, open_rows: Sequence[int], players: int = 3,
                 policies: Sequence[str] | None = None) -> None:
        super().__init__(rules, open_rows, players)
        self.solution = solve_race_table(rules, self.rows, players=players, policies=policies)
        self._own: dict[tuple[BoardTuple, ...], tuple[float, ...]] = {}
        for opponents in itertools.product(self.live, repeat=players - 1):
            for x in self.live:
                self.values[(x, opponents)] = self._own_of((x, *opponents))[0]

    def _own_of(self, boards: tuple[BoardTuple, ...], seat: int = 0) -> tuple[float, ...]:
        own = self._own.get(boards) if seat == 0 else None
        if own is None:
            own = tuple(float(v) for v in objectives(self.rules, self.solution.value(boards, seat)))
            if seat == 0:
                self._own[boards] = own
        return own

    def ended(self, x: BoardTuple, opponents: tuple[BoardTuple, ...]) -> float:
        if not open_rows_of(x, self.goal):
            return self.complete_value(opponents)
        return self._own_of((*opponents, x), 1)[-1]


def model_turn(exact: ExactTable, opponents: tuple[BoardTuple, ...], model: str,
               laws: dict[BoardTuple, TurnLaw]) -> _RaceTurn:
    """The turn-count model's within-turn model of the mover against ``opponents`` on the
    exact solo values of the reduced board: ``fitted`` laws or the ``exact laws``."""
    rules, value = exact.rules, exact.solo_values.__getitem__
    if model == "fitted":
        return race_turn_model(rules, value, [(float(value(o)), float(exact.rest[o])) for o in opponents])
    return race_turn_model(rules, value, [laws[o] for o in opponents], own_laws=laws)


def measure(exact: ExactTable, model: str) -> dict:
    """The model's values and choices against ``exact`` (module docstring, ``exact``)."""
    rules = exact.rules
    laws = solo_laws(rules, exact.live[-1], exact.solo_values.__getitem__) if model == "exact laws" else {}
    errors, weight, differ, loss, worst, solo_differ, solo_loss, choices = [], 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0
    for opponents in itertools.product(exact.live, repeat=exact.players - 1):
        approx = model_turn(exact, opponents, model, laws)
        turn = exact.turn(opponents)
        for x in exact.live:
            errors.append(float(approx._restart(x)) - exact.values[(x, opponents)])
            here, guess = exact.ended(x, opponents), approx.end(x)
            for q, options, legal in exact.groups(x, turn):
                if len(legal) < 2:
                    continue
                values = [stay * here + rest for stay, rest in options]
                best = max(values)
                order = sorted(range(len(legal)), key=lambda i: (-legal[i][1], -legal[i][0]))
                chosen = _first_best(order, [stay * guess + rest for stay, rest in
                                             (approx.race_option(x, row, h, rules.dice, _after(rules))
                                              for row, h in legal)])
                solo_row = exact.solo(x, legal, rules.dice, rules.throws)
                solo_value = values[[row for row, _ in legal].index(solo_row)]
                gap = best - values[chosen]
                weight += q
                choices += 1
                differ += q * (gap > TIE * (1 + abs(best)))
                loss += q * gap
                worst = max(worst, gap)
                solo_differ += q * (best - solo_value > TIE * (1 + abs(best)))
                solo_loss += q * (best - solo_value)
    err = np.abs(errors)
    return {"model": model, "positions": len(errors), "choices": choices,
            "largest_error": float(err.max()), "mean_error": float(err.mean()),
            "mean_signed_error": float(np.mean(errors)),
            "differing_choices": differ / weight if weight else 0.0,
            "mean_loss": loss / weight if weight else 0.0, "largest_loss": worst,
            "solo_differing_choices": solo_differ / weight if weight else 0.0,
            "solo_mean_loss": solo_loss / weight if weight else 0.0}


def _after(rules: Rules) -> int | None:
    return None if rules.throws is None else rules.throws - 1


def _first_best(order: Sequence[int], values: Sequence[float]) -> int:
    """The first index in ``order`` whose value no later one beats by more than :data:`TIE`."""
    best = order[0]
    for i in order[1:]:
        if values[i] > values[best] + TIE * (1 + abs(values[best])):
            best = i
    return best


POLICIES = {"best response": "race, then solo", "whole table": "race"}
"""The exact tables the models are measured against: seat 0 playing to win against solo-optimal
opponents (what the model assumes), and every seat playing to win."""


def run_exact(rules: Rules, boards: dict[int, Sequence[Sequence[int]]] = EXACT_BOARDS) -> dict:
    """The ``exact`` step: every board of ``boards`` (players: open rows), both models against
    both exact tables (:data:`POLICIES`)."""
    out = []
    for players, row_sets in boards.items():
        for rows in row_sets:
            start = time.process_time()
            entry: dict = {"players": players, "open_rows": list(rows)}
            for name, policy in POLICIES.items():
                policies = ("race",) * players if policy == "race" else ("race",) + ("solo",) * (players - 1)
                exact = TableValues(rules, rows, players, policies)
                entry[name] = {"start_value": exact.values[(exact.live[-1], (exact.live[-1],) * (players - 1))],
                               "models": {model: measure(exact, model) for model in MODELS}}
            entry["cpu_seconds"] = time.process_time() - start
            out.append(entry)
            print(json.dumps(entry), flush=True)
    return {"kind": "exact (float64) on reduced boards, every position once",
            "value": "win probability" if rules.scoring == "first_out" else
                     "objective: the opponents' mean rest points minus the mover's",
            "tables": POLICIES, "boards": out}


# ---------------------------------------------------------------------------------------------
# Simulated tables on the full board
# ---------------------------------------------------------------------------------------------

class TablePlayers:
    """The policies of the simulated tables: ``solo`` (the distilled model's lookahead) and
    ``race`` (the turn-count model against the other boards, on the distilled model's
    expected turns), for ``rules``."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.value = DistilledValue.load(rules)
        self.solo = Advisor(rules).policy

    def race(self, others: Sequence[BoardTuple]) -> Callable:
        """The race policy of a turn against ``others`` (in the order they move after the mover)."""
        rules, goal = self.rules, self.rules.goal
        made: list[_RaceTurn] = []

        def choose(board: BoardTuple, legal: tuple, dice: int, throws: int | None) -> int:
            if len(legal) == 1:
                return legal[0][0]
            if not made:
                made.append(race_turn_model(rules, self.value, [(float(self.value(o)), float(rest_points(o, goal)))
                                                                 for o in others]))
            model = made[0]
            after = None if throws is None else throws - 1
            here = model.end(board)
            order = sorted(range(len(legal)), key=lambda i: (-legal[i][1], -legal[i][0]))
            values = []
            for row, h in legal:
                stay, rest = model.race_option(board, row, h, dice, after)
                values.append(stay * here + rest)
            return legal[_first_best(order, values)][0]

        return choose


def play_table(players: TablePlayers, kinds: Sequence[str], seeds: Sequence[str]) -> tuple[int, list[int], int]:
    """One round at a table, seat 0 first, seat ``i`` playing ``kinds[i]`` (``solo``/``race``)
    with his own dice (``random.Random(seeds[i])``): ``(winner, rest points by seat, rounds)``."""
    rules, goal = players.rules, players.rules.goal
    n = len(kinds)
    boards: list[BoardTuple] = [(0,) * rules.rows] * n
    dice = [random.Random(seed) for seed in seeds]
    for rounds in range(1, 10_000):
        for seat in range(n):
            others = [boards[(seat + k) % n] for k in range(1, n)]
            policy = players.solo if kinds[seat] == "solo" else players.race(others)
            boards[seat] = play_turn(rules, boards[seat], policy, dice[seat])
            if not open_rows_of(boards[seat], goal):
                return seat, [rest_points(b, goal) for b in boards], rounds
    raise RuntimeError("a round did not end")


def _mean_ci(values: Sequence[float]) -> tuple[float, float]:
    a = np.asarray(values, dtype=np.float64)
    return float(a.mean()), float(Z95 * a.std(ddof=1) / math.sqrt(len(a))) if len(a) > 1 else float("nan")


def _objective(rest: Sequence[int], seat: int) -> float:
    others = [r for i, r in enumerate(rest) if i != seat]
    return sum(others) / len(others) - rest[seat]


def run_simulate(rules: Rules, games: int, table_games: int, seed: int, tables: Sequence[int] = TABLES) -> dict:
    """The ``simulate`` step (module docstring): ``games`` games with one race player and
    ``table_games`` of those also with the whole table playing to win, per table size."""
    players = TablePlayers(rules)
    out = []
    for n in tables:
        start = time.process_time()
        solo_score, race_score, solo_obj, race_obj, all_solo, all_race, first_solo, first_race = ([] for _ in range(8))
        for g in range(games):
            seeds = [f"{seed}-{n}-{g}-{seat}" for seat in range(n)]
            seat = g % n
            kinds = ["solo"] * n
            base = play_table(players, kinds, seeds)
            kinds[seat] = "race"
            one = play_table(players, kinds, seeds)
            if rules.scoring == "first_out":
                solo_score.append(float(base[0] == seat))
                race_score.append(float(one[0] == seat))
            else:
                solo_score.append(float(base[1][seat]))
                race_score.append(float(one[1][seat]))
            solo_obj.append(_objective(base[1], seat))
            race_obj.append(_objective(one[1], seat))
            if g < table_games:
                table = play_table(players, ["race"] * n, seeds)
                if rules.scoring == "first_out":
                    first_solo.append(float(base[0] == 0))
                    first_race.append(float(table[0] == 0))
                all_solo.append(float(np.mean(base[1])))
                all_race.append(float(np.mean(table[1])))
        entry = {"players": n, "games": games, "table_games": table_games,
                 "one_race": _summary(race_score, solo_score), "one_race_objective": _summary(race_obj, solo_obj),
                 "whole_table_rest_points": _summary(all_race, all_solo),
                 "cpu_seconds": time.process_time() - start}
        if first_race:
            entry["whole_table_first_seat_wins"] = _summary(first_race, first_solo)
        out.append(entry)
        print(json.dumps(entry), flush=True)
    return {"kind": "simulated (estimates, 95% intervals, normal approximation)", "seed": seed,
            "score": "win rate of the seat" if rules.scoring == "first_out" else "rest points a round of the seat",
            "race": "the turn-count model (fitted laws) on the distilled model's expected turns",
            "solo": "the distilled model's one-turn lookahead", "tables": out}


def _summary(race: Sequence[float], solo: Sequence[float]) -> dict:
    """Mean and 95% half-width of ``race``, of ``solo``, and of their paired difference."""
    r, s = _mean_ci(race), _mean_ci(solo)
    d = _mean_ci([a - b for a, b in zip(race, solo)])
    return {"race": r[0], "race_ci95": r[1], "solo": s[0], "solo_ci95": s[1], "difference": d[0],
            "difference_ci95": d[1], "games": len(race)}


def _read(path: Path) -> dict:
    return json.loads(path.read_text()) if path.exists() else {}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=("pegs", "fives"))
    parser.add_argument("step", choices=("exact", "simulate"))
    parser.add_argument("--games", type=int, default=60, help="'simulate': games with one race player per table")
    parser.add_argument("--table-games", type=int, default=20,
                        help="'simulate': of those, games also played by a whole table playing to win")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--results", type=Path, default=RESULTS)
    parser.add_argument("--force", action="store_true")
    args = parser.parse_args()
    rules = PRESETS[args.game]
    data = _read(args.results)
    if not args.force and args.step in data.get(args.game, {}):
        print(f"{args.game} {args.step} already recorded (use --force)")
        return
    start = time.process_time()
    if args.step == "exact":
        result = run_exact(rules)
    else:
        result = run_simulate(rules, args.games, args.table_games, args.seed)
    result["cpu_seconds"] = time.process_time() - start
    result["cpu"] = "AMD EPYC, 2 vCPUs shared (loaded)"
    data = _read(args.results)
    data.setdefault(args.game, {})[args.step] = result
    args.results.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
