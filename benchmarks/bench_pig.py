"""Pig's exact solve: wall and CPU time of the layered value iteration by goal.

Run: ``python benchmarks/bench_pig.py [--goals 25,50,100] [--repeat 3]``. Each solve runs
uncached (:func:`dicemath.games.pig.solver.solve` keeps one per process); the first one also
loads the compiled layer sweep. Prints, per goal, the decision states, the sweeps, the best
wall and CPU seconds of ``--repeat`` solves, and the first player's win probability.
"""

from __future__ import annotations

import argparse
import time

from dicemath.games.pig.rules import Rules
from dicemath.games.pig.solver import _solve
from dicemath.games.pig.state import initial_state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--goals", default="25,50,100")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
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
