"""Benchmark: Pitjesbak's first answers, and the two-player game solve, cold and cached.

First, before and after (:mod:`side_by_side`: an earlier revision beside this checkout, each
in a fresh process with empty caches): the wall and CPU seconds of the first answer of each
command below, each in its own new process with an empty cache (``pitjesbak advise`` solves
the two-player game with its round-maximising comparisons, ``game``/``card --players 3``
solve the game at a table of three and the two-player game it starts from, ``simulate`` plays 1000
three-player games with round-optimal decisions), then the best CPU seconds of three uncached
two-player solves (optimal values only) and per state and bound, the largest difference of the
two revisions' bounds, and the peak memory. The earlier revisions: the start of the C port of
the game solver (``--previous``, default 0886c06: numpy Bellman operator) and 3ccf0bf (numba).

Then the figures of this checkout alone: the cold and cached game solve (target < 30 s cold,
< 1 s cached; the cold figure includes the round-maximising comparisons, three value
iterations), the bound widths, and the round solves.

Run: ``python benchmarks/bench_pitjesbak.py [--previous 0886c06,3ccf0bf] [--three]``
(``--previous ''``: this checkout alone). ``--three`` also times the three-player solve with
2 stripes (cap 4).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import numpy as np
from side_by_side import compare

FIRST_ANSWERS = """
import json, os, resource, subprocess, sys, tempfile, time
commands = {
    "advise": "advise --my-stripes 9 --their-stripes 9 --role start --throws-used 1 --throw 6-5-4 --json",
    "game_3": "game --players 3 --json",
    "card_3": "card --players 3 --json",
    "simulate_3": "simulate --players 3 --games 1000 --json",
}
figures = {}
for name, command in commands.items():
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "DICEMATH_CACHE_DIR": cache}
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        tic = time.perf_counter()
        run = subprocess.run([sys.executable, "-m", "dicemath", "pitjesbak", *command.split()], env=env,
                             capture_output=True)
        figures[f"{name}_first_answer_wall_s"] = time.perf_counter() - tic if run.returncode == 0 else float("nan")
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        figures[f"{name}_first_answer_cpu_s"] = (after.ru_utime + after.ru_stime
                                                 - before.ru_utime - before.ru_stime)
import numpy as np
from dicemath.games.pitjesbak.game_solver import solve_game
cpus = []
for _ in range(3):
    cpu = time.process_time()
    solution = solve_game(compare=False, use_cache=False)
    cpus.append(time.process_time() - cpu)
figures["game_solve_cpu_s"] = min(cpus)
figures["game_solve_us_per_state_and_bound"] = min(cpus) / (solution.sweeps * solution.low.size * 2) * 1e6
figures["sweeps"] = solution.sweeps
np.savez(os.path.join(OUT, os.environ["PYTHONPATH"].replace("/", "_")), low=solution.low, high=solution.high)
print(json.dumps(figures))
"""


def before_after(previous: str) -> None:
    """Print the first answers and the game solve of this checkout beside ``previous``'s, and
    the largest difference of their bounds."""
    with tempfile.TemporaryDirectory() as out:
        both = compare(f"OUT = {out!r}\n" + FIRST_ANSWERS, previous=previous,
                       title="dicemath pitjesbak, first answers (each a new process) and the two-player solve:")
        bounds = [np.load(path) for path in sorted(Path(out).glob("*.npz"))]
    if len(bounds) == 2 and len(both) == 2:
        difference = max(float(np.max(np.abs(bounds[0][key] - bounds[1][key]))) for key in ("low", "high"))
        print(f"  largest difference of the bounds of every state: {difference:.1e}\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--previous", default="0886c06,3ccf0bf")
    parser.add_argument("--three", action="store_true")
    args = parser.parse_args()
    for previous in filter(None, args.previous.split(",")):
        before_after(previous)
    with tempfile.TemporaryDirectory() as folder:
        os.environ["DICEMATH_CACHE_DIR"] = folder
        from dicemath.games.pitjesbak.game_solver import solve_game
        from dicemath.games.pitjesbak.round_solver import solve_round

        start = time.perf_counter()
        cold = solve_game()
        cold_seconds = time.perf_counter() - start
        start = time.perf_counter()
        cached = solve_game()
        cached_seconds = time.perf_counter() - start
        assert cached.start_player_win_probability == cold.start_player_win_probability
        start = time.perf_counter()
        solve_game(compare=False, use_cache=False)
        plain_seconds = time.perf_counter() - start
        print(f"game solve (2 players, cap {cold.cap}, {cold.sweeps} sweeps) cold: {cold_seconds:.2f} s "
              f"(optimal values alone {plain_seconds:.2f} s)")
        print(f"game solve from cache: {cached_seconds * 1000:.1f} ms")
        print(f"P(first start player wins) = {cold.start_player_win_probability:.12f}, "
              f"bound width {cold.bound:.1e}")
        for cap in (12, 14):
            coarse = solve_game(cap=cap, compare=False, use_cache=False)
            print(f"  bound width with cap {cap}: {coarse.bound:.1e} (each extra stripe of cap ~100x smaller)")
        loss = cold.start_player_win_probability - sum(cold.comparison["round_vs_optimal"]) / 2
        print(f"round-maximising start player loses {loss:.6f}")
        for players, exact in ((2, True), (4, True), (8, False), (8, True)):
            start = time.perf_counter()
            solve_round(players=players, exact=exact)
            print(f"round solve, {players} players, {'exact' if exact else 'float'}: "
                  f"{time.perf_counter() - start:.2f} s")
        if args.three:
            from dicemath.games.pitjesbak.rules import Rules
            from dicemath.games.pitjesbak.table_solver import solve_table
            start = time.perf_counter()
            three = solve_table(Rules(players=3, stripes=2), use_cache=False)
            print(f"three-player solve, 2 stripes, cap {three.cap}: {time.perf_counter() - start:.1f} s; "
                  f"P(win) by position {[round(v, 6) for v in three.opening_values]}")


if __name__ == "__main__":
    main()
