"""Pig's exact solve: the C layer sweep against the earlier numba one, and the solve by goal.

First, before and after (:mod:`side_by_side`: the earlier revision, numba, beside this checkout,
C, each in a fresh process with empty caches): the first answers of ``dicemath pig game``,
``pig advise start`` and ``pig policy`` in one new process (the first one solves goal 100;
numba compiled its sweep there, the C sweep was compiled at install), then the best CPU
seconds of three uncached solves of goal 100, whether both revisions' tables are identical bit
for bit (SHA-256), and the process's peak memory.

Then, per goal: the decision states, the sweeps, the best wall and CPU seconds of ``--repeat``
uncached solves (:func:`dicemath.games.pig.solver.solve` keeps one per process), and the first
player's win probability.

Run: ``python benchmarks/bench_pig.py [--goals 25,50,100] [--repeat 3]``.
"""

from __future__ import annotations

import argparse
import time

from side_by_side import compare

from dicemath.games.pig.rules import Rules
from dicemath.games.pig.solver import _solve
from dicemath.games.pig.state import initial_state

FIRST_ANSWERS = """
import contextlib, hashlib, io, json, time
tic = time.perf_counter()
figures = {}
from dicemath.cli import main
for name, query in (("game", ["pig", "game", "--json"]), ("advise", ["pig", "advise", "start", "--json"]),
                    ("policy", ["pig", "policy", "--json"])):
    with contextlib.redirect_stdout(io.StringIO()):
        main(query)
    figures[f"{name}_answered_at_s"] = time.perf_counter() - tic
from dicemath.games.pig.rules import Rules
from dicemath.games.pig.solver import _solve
cpus = []
for _ in range(3):
    _solve.cache_clear()
    cpu = time.process_time()
    solution = _solve(Rules(goal=100))
    cpus.append(time.process_time() - cpu)
figures["solve_100_cpu_s"] = min(cpus)
figures["table_digest"] = int(hashlib.sha256(solution.win.tobytes()).hexdigest()[:12], 16)
print(json.dumps(figures))
"""


def before_after() -> None:
    """Print the first answers and the solve of goal 100, numba (before) beside C (after)."""
    both = compare(FIRST_ANSWERS, title="dicemath pig, first answers in a new process, and the solve of goal 100:")
    now, before = both.values()
    print(f"  tables identical bit for bit (SHA-256): {now['table_digest'] == before['table_digest']}\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--goals", default="25,50,100")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    before_after()
    print(f"{'goal':>5} {'states':>9} {'sweeps':>7} {'wall s':>8} {'cpu s':>8} {'P(first wins)':>14}")
    for goal in (int(g) for g in args.goals.split(",")):
        rules = Rules(goal=goal)
        walls, cpus = [], []
        for _ in range(args.repeat):
            wall, cpu = time.perf_counter(), time.process_time()
            _solve.cache_clear()
            solution = _solve(rules)
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
        print(f"{goal:5d} {solution.states:9,d} {sum(solution.sweeps):7,d} {min(walls):8.3f} {min(cpus):8.3f} "
              f"{solution.value(initial_state(rules)):14.6f}", flush=True)


if __name__ == "__main__":
    main()
