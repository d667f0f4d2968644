"""Race-aware advice and the compiled full-board race games, before (numba, revision 3ccf0bf)
and after (C built at install) side by side, each in a fresh process with empty caches
(:mod:`side_by_side`).

Run: ``python benchmarks/bench_race_advice.py [--games 300] [--boards 30]``. Prints two tables:

* **advice**: the first answer of ``dicemath pegs advise ... --opponent ...`` and of Fives'
  (imports included: the cold start of a command), then the warm latency of
  :func:`dicemath.games.pegs_fives.race_advice.race_advice` on random full-board pairs (no
  table: the distilled model), median and worst, and the worst over random pairs of boards
  with 1 to 12 open rows each (where solo tables are solved on demand; the exact race on
  demand up to three open rows in both trees, as four take seconds and five minutes), with
  the open rows of the slowest pair; and the turn-count laws' Newton solve on their grid
  (:func:`dicemath.games.pegs_fives.race_advice.weibull_survival`, Pegs, 3,951 laws);
* **games**: the first call of :func:`dicemath.games.pegs_fives._race_simulation.simulate`
  (its tables, and numba's compilation before), CPU per game of the race policy against solo
  play (Fives and Pegs), and the distilled model's values
  (:meth:`dicemath.games.pegs_fives.distilled.DistilledValue.values`): CPU per board in a batch
  and per call on one board (the advisor's use).

Each table adds the process's wall and CPU time and its peak resident memory.

Recorded (an AMD EPYC): the solo tables race advice solves on demand
(``SOLO_SOLVE_MAX_ROWS``) take at most 0.13 s (Pegs, six open rows) and 0.19 s (Fives, eight);
Pegs' seven rows take 0.5 s and eight 2.2 s, which is why Pegs' limit is six.
"""

from __future__ import annotations

import argparse
import os
import subprocess

from side_by_side import compare

ADVICE = """
import json, random, statistics, time
start = time.perf_counter()
from dicemath.cli import main
main(["pegs", "advise", "--board", "0,0,3,0,0,0,1,0,0,0,0,0", "--roll", "3,3,3,5,6,2",
      "--opponent", "3,4,5,2,1,0,2,3,4,1,0,2"])
pegs_first = time.perf_counter() - start
start = time.perf_counter()
main(["fives", "advise", "--board", "3,3,3,3,3,3,3,3,3,3,3,3", "--roll", "6,6,6,6,2,1",
      "--opponent", "5,5,5,5,5,5,5,5,5,5,5,4"])
fives_first = time.perf_counter() - start
from dicemath.games.pegs_fives.race_advice import race_advice
from dicemath.games.pegs_fives.rules import FIVES, PEGS
from dicemath.games.pegs_fives.state import random_throw
rng = random.Random(7)
times = []
for rules in (PEGS, FIVES):
    for _ in range(%(boards)d):
        board = [rng.randint(0, 4) for _ in range(12)]
        opponent = [rng.randint(0, 5) for _ in range(11)] + [rng.randint(0, 4)]
        start = time.perf_counter()
        race_advice(rules, board, random_throw(rng, 6), [opponent])
        times.append(time.perf_counter() - start)
figures = {"pegs_advise_first_answer_s": pegs_first, "fives_advise_first_answer_s": fives_first,
           "advice_warm_median_ms": 1000 * statistics.median(times), "advice_warm_max_ms": 1000 * max(times)}


def reduced_board(rules):
    open_rows = set(rng.sample(range(12), rng.randint(1, 12)))
    return [rng.randint(0, rules.goal - 1) if row in open_rows else rules.goal for row in range(12)]


slowest = (0.0, "", 0, 0)
for rules in (PEGS, FIVES):
    for _ in range(%(pairs)d):
        board, opponent = reduced_board(rules), reduced_board(rules)
        start = time.perf_counter()
        race_advice(rules, board, random_throw(rng, 6), [opponent], exact_max_rows=3)
        took = time.perf_counter() - start
        if took > slowest[0]:
            slowest = (took, rules.name, sum(r < rules.goal for r in board), sum(r < rules.goal for r in opponent))
from dicemath.games.pegs_fives.race_advice import shape_of, turn_laws, weibull_survival
grid = turn_laws(PEGS).mu
start = time.perf_counter()
weibull_survival(grid, shape_of(PEGS, grid))
figures["weibull_survival_grid_ms"] = 1000 * (time.perf_counter() - start)
figures.update({"worst_case_ms": 1000 * slowest[0], "worst_case_is_fives": float(slowest[1] == "fives"),
                "worst_case_mover_open_rows": slowest[2], "worst_case_opponent_open_rows": slowest[3]})
print(json.dumps(figures))
"""

GAMES = """
import json, time
import numpy as np
from dicemath.games.pegs_fives.rules import FIVES, PEGS
start = time.perf_counter()
from dicemath.games.pegs_fives._race_simulation import simulate
simulate(FIVES, (1, 0), 2, 1)
figures = {"games_first_call_s": time.perf_counter() - start}
for rules, games in ((FIVES, %(games)d), (PEGS, max(1, %(games)d // 4))):
    _, info = simulate(rules, (1, 0), games, 2)
    figures[f"{rules.name}_ms_cpu_per_game"] = 1000 * info["cpu_seconds"] / games
from dicemath.games.pegs_fives.distilled import DistilledValue
model = DistilledValue.load(PEGS)
boards = np.random.default_rng(1).integers(0, PEGS.goal + 1, size=(200_000, 12))
cpu = time.process_time()
model.values(boards)
figures["model_ns_cpu_per_board_batch"] = 1e9 * (time.process_time() - cpu) / len(boards)
cpu = time.process_time()
for board in boards[:3000]:
    model(board)
figures["model_us_cpu_per_one_board_call"] = 1e6 * (time.process_time() - cpu) / 3000
print(json.dumps(figures))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="Fives games (Pegs: a quarter)")
    parser.add_argument("--boards", type=int, default=30, help="random board pairs per game for the warm latency")
    parser.add_argument("--pairs", type=int, default=40,
                        help="random pairs of boards with 1 to 12 open rows per game for the worst case")
    args = parser.parse_args()
    cpu = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
    print(next((line.split(":", 1)[1].strip() for line in cpu.splitlines() if line.startswith("Model name")), "?"),
          f"({os.cpu_count()} CPUs)")
    compare(ADVICE % {"boards": args.boards, "pairs": args.pairs}, title="race advice")
    compare(GAMES % {"games": args.games}, title="race games")


if __name__ == "__main__":
    main()
