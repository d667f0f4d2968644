"""Race-aware advice for Pegs and Fives, measured: write ``dicemath/studies/data/race_results.json``.

Steps (each records its figures under ``games.<game>.<step>``; a recorded step is rerun only
with ``--force``):

* ``exact`` -- on reduced boards, the approximate race policy of
  :mod:`dicemath.games.pegs_fives.race_advice` (the turn-count model on the exact solo values,
  as the full board uses the distilled model's) evaluated **exactly** inside the two-player
  race by the plain-Python race solver (a fixed policy maker,
  :func:`~dicemath.games.pegs_fives.race_solver.solve_race`), against exact race play
  (best response to a solo-optimal opponent) and against solo play, from the empty pair,
  first mover and second mover; plus how often its turn-start choice equals the exact race
  choice (:func:`~dicemath.games.pegs_fives.race_advice.decision_agreement`). Float64, exact
  arithmetic of the policies' values (no sampling);
* ``simulate`` -- the full board, head to head: the approximate race policy against
  solo-optimal play (the distilled model's one-turn lookahead, the source of ``advise``
  without a table), the first mover alternating, seeded, compiled
  (:mod:`dicemath.games.pegs_fives._race_simulation`); Pegs: the race player's win rate,
  Fives: the mean rest points of the solo player minus the race player's, each with a 95%
  interval (normal approximation). Estimates.

The agreement of ``exact`` on boards of four and five open rows runs in plain Python over
every pair (1.7 and 60 million pairs): ``--agreement-pairs N`` draws ``N`` pairs (seeded) on
boards of ``--agreement-sample-rows`` or more open rows instead, ``--skip-agreement-rows K``
leaves out boards of ``K`` or more; both are recorded with the figures (``trimmed``,
``agreement_skipped``). The report section ``playing_to_win``
(:mod:`dicemath.games.pegs_fives.report_playing_to_win`) reads the results.

Usage::

    python analyses/pegs_fives_race.py fives simulate --games 100000
    python analyses/pegs_fives_race.py pegs simulate --games 20000
    python analyses/pegs_fives_race.py pegs exact --agreement-pairs 2000
    python analyses/pegs_fives_race.py fives exact --agreement-pairs 2000
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import time
from pathlib import Path

import numpy as np

from dicemath.games.pegs_fives.rules import PRESETS
from dicemath.studies import DATA

RESULTS = DATA / "race_results.json"

Z95 = 1.959963984540054


def _read(path: Path) -> dict:
    return json.loads(path.read_text()) if path.exists() else {"games": {}}


def _record(path: Path, game: str, step: str, value: dict) -> None:
    data = _read(path)
    data.setdefault("games", {}).setdefault(game, {})[step] = value
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")


def run_simulate(rules, games: int, seed: int) -> dict:
    """Race policy (player A) against solo play (B), A first in even games."""
    from dicemath.games.pegs_fives._race_simulation import simulate

    simulate(rules, (1, 0), 2, seed)                                      # tables built, not timed
    out, info = simulate(rules, (1, 0), games, seed)
    wins = out[:, 0] == 0
    p = float(wins.mean())
    first = (np.arange(games) % 2) == 0
    diff = (out[:, 2] - out[:, 1]).astype(np.float64)                     # B's rest points minus A's (A: race)
    result = {
        "kind": "simulated", "games": games, "seed": seed,
        "first_mover": "alternating (race player first in even games)",
        "race_win_rate": p, "race_win_rate_ci95": Z95 * math.sqrt(p * (1 - p) / games),
        "race_win_rate_moving_first": float(wins[first].mean()),
        "race_win_rate_moving_second": float(wins[~first].mean()),
        "rest_point_difference": float(diff.mean()),
        "rest_point_difference_ci95": Z95 * float(diff.std(ddof=1)) / math.sqrt(games),
        "race_mean_rest_points": float(out[:, 1].mean()), "solo_mean_rest_points": float(out[:, 2].mean()),
        "mean_turns": float(out[:, 3:].mean()),
        "wall_seconds": info["wall_seconds"], "cpu_seconds": info["cpu_seconds"],
        "games_per_second": games / info["wall_seconds"], "games_per_cpu_second": games / info["cpu_seconds"],
        "loadavg": list(os.getloadavg()),
        "baseline": "solo against solo is 0.5 / 0 rest points by symmetry (first mover alternating)",
        "policies": "race: race_advice's turn-count model on the distilled model's expected turns; "
                    "solo: the distilled model's one-turn lookahead",
    }
    return result


def run_exact(rules, row_sets, *, agreement_sets=(), agreement_pairs: int | None = None,
              agreement_sample_rows: int = 4, agreement_seed: int = 0) -> dict:
    """The approximate policy evaluated exactly on reduced boards (module docstring)."""
    from dicemath.games.pegs_fives.race_advice import RacePolicy, decision_agreement
    from dicemath.games.pegs_fives.race_solver import solve_race, solve_race_compiled
    from dicemath.games.pegs_fives.solver import solve_reduced

    rows_out = []
    cpu = time.process_time()
    for rows in row_sets:
        solo = solve_reduced(rules, rows, exact=False).values
        policy = RacePolicy(rules, solo.__getitem__)

        def maker(opponent, policy=policy):
            return lambda board, legal, dice, throws: policy.choose(opponent, board, legal, dice, throws)

        approx = solve_race(rules, rows, first=maker, second="solo", exact=False)
        approx_second = solve_race(rules, rows, first="solo", second=maker, exact=False)
        race = solve_race_compiled(rules, rows, first="race", second="solo")
        base = solve_race_compiled(rules, rows, first="solo", second="solo")
        entry = {"open_rows": list(rows),
                 "solo_vs_solo": base.start_value,
                 "race_vs_solo": race.start_value, "approx_vs_solo": float(approx.start_value),
                 "solo_vs_race": float(race.V2[0, 0]),
                 "solo_vs_approx": float(approx_second.start_value)}
        entry["approx_gain_first"] = entry["approx_vs_solo"] - entry["solo_vs_solo"]
        entry["race_gain_first"] = entry["race_vs_solo"] - entry["solo_vs_solo"]
        entry["approx_gives_up_first"] = entry["race_vs_solo"] - entry["approx_vs_solo"]
        entry["approx_gain_second"] = entry["solo_vs_solo"] - entry["solo_vs_approx"]
        entry["race_gain_second"] = entry["solo_vs_solo"] - entry["solo_vs_race"]
        rows_out.append(entry)
    agreement = []
    for rows in agreement_sets:
        start = time.process_time()
        sample = agreement_pairs if agreement_pairs and len(rows) >= agreement_sample_rows else None
        entry = decision_agreement(rules, rows, pairs=sample, seed=agreement_seed)
        entry["cpu_seconds"] = time.process_time() - start
        if sample is not None:
            entry["trimmed"] = (f"{entry['pairs']:,} pairs drawn (seed {agreement_seed}) of "
                                f"{((rules.goal + 1) ** len(rows) - 1) ** 2:,} live pairs")
        agreement.append(entry)
    total = {k: float(np.mean([e[k] for e in rows_out])) for k in
             ("approx_gain_first", "race_gain_first", "approx_gives_up_first", "approx_gain_second",
              "race_gain_second")}
    return {"kind": "exact (float64 policy evaluation on reduced boards; the policy is the approximation)",
            "value": "first mover's win probability" if rules.scoring == "first_out" else
                     "first mover's expected rest-point difference (opponent's minus his)",
            "row_sets": rows_out, "mean_over_row_sets": total, "agreement": agreement,
            "cpu_seconds": time.process_time() - cpu}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=("pegs", "fives"))
    parser.add_argument("step", choices=("simulate", "exact"))
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--sets", type=int, default=12, help="2-row sets in 'exact' (seeded selection)")
    parser.add_argument("--agreement-pairs", type=int, default=None,
                        help="'exact': agreement on boards of --agreement-sample-rows or more open rows over this "
                             "many seeded pairs instead of every pair (recorded as 'trimmed')")
    parser.add_argument("--agreement-sample-rows", type=int, default=4)
    parser.add_argument("--skip-agreement-rows", type=int, default=None,
                        help="'exact': leave out agreement boards with this many open rows or more (recorded)")
    parser.add_argument("--results", type=Path, default=RESULTS)
    parser.add_argument("--force", action="store_true")
    args = parser.parse_args()
    rules = PRESETS[args.game]
    if not args.force and args.step in _read(args.results).get("games", {}).get(args.game, {}):
        print(f"{args.game} {args.step} already recorded (use --force)")
        return
    if args.step == "simulate":
        result = run_simulate(rules, args.games, args.seed)
    else:
        rng = np.random.default_rng(args.seed)
        pairs = list(itertools.combinations(range(1, 13), 2))
        chosen = [pairs[i] for i in sorted(rng.choice(len(pairs), args.sets, replace=False))]
        singles = [(r,) for r in range(1, 13)]
        triples = [(2, 7, 12), (3, 8, 11)]
        agreement = [(3, 8), (7, 12), (1, 6), (2, 7, 12), (4, 9, 11, 12), (1, 6, 8, 11, 12)]
        skipped = [rows for rows in agreement if args.skip_agreement_rows and len(rows) >= args.skip_agreement_rows]
        result = run_exact(rules, singles + chosen + triples,
                           agreement_sets=[rows for rows in agreement if rows not in skipped],
                           agreement_pairs=args.agreement_pairs, agreement_sample_rows=args.agreement_sample_rows)
        if skipped:
            result["agreement_skipped"] = {"open_rows": [list(rows) for rows in skipped],
                                           "why": "left out for time (--skip-agreement-rows)"}
    _record(args.results, args.game, args.step, result)
    print(json.dumps(result, indent=1)[:3000])


if __name__ == "__main__":
    main()
