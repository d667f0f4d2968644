"""The exact two-player race kernel: numba (before) beside C (after), then pairs per second.

First, before and after (:mod:`side_by_side`: the earlier revision, numba, or ``--previous``,
beside this checkout, C, each in a fresh process with empty caches): the cold start (the first
race solved in the new process, one open row: numba compiled its kernel there, the C kernel was
compiled at install),
then the solve of ``--rows`` both playing to win with the differing decisions counted (as
``dicemath pegs race`` does): its CPU seconds, live ordered pairs per CPU second, the greatest
difference of the two revisions' values over every pair (the earlier revision reads this
checkout's from a scratch file), and the process's peak memory. A C kernel runs on one thread
there, so CPU seconds compare like with like; its figures on a thread per CPU and with the
values alone (``decisions=False``, what race advice and the table of ``race --mover`` use, one
thread) follow.

Then, per matchup (``--matchups``), this checkout alone: the kernel's wall time, the process
CPU time of the solve, the live ordered pairs solved (both players' tables in a mixed matchup),
pairs per CPU second, Newton steps per pair system and the first mover's value from the empty
pair. The solo tables (from the compiled expected-turns kernel) are built first and not timed.

Run: ``python benchmarks/bench_race.py [--game pegs|fives] [--rows 9,10,11,12]
[--matchups race-race,solo-solo,race-solo] [--no-compare] [--previous REVISION]`` (an empty
``--matchups`` skips the second part; ``--previous 12167b4``: the C kernel that solved a pair at
a time).
"""

from __future__ import annotations

import argparse
import tempfile
import time

from side_by_side import PREVIOUS, compare

from dicemath.games.pegs_fives.race_solver import kernel_tables, solo_choice_table, solve_race_compiled
from dicemath.games.pegs_fives.rules import FIVES, PEGS

BEFORE_AFTER = """
import inspect, json, os, time
import numpy as np
tic = time.perf_counter()
from dicemath.games.pegs_fives.race_solver import solve_race_compiled
from dicemath.games.pegs_fives.rules import FIVES, PEGS
rules, rows, scratch = {{"pegs": PEGS, "fives": FIVES}}[{game!r}], {rows}, {scratch!r}
solve_race_compiled(rules, rows[:1])
figures = {{"cold_start_s": time.perf_counter() - tic}}
compiled_c = "threads" in inspect.signature(solve_race_compiled).parameters
cpu = time.process_time()
tables = solve_race_compiled(rules, rows, **({{"threads": 1}} if compiled_c else {{}}))
figures["solve_cpu_s"] = time.process_time() - cpu
figures["pairs_per_cpu_s"] = tables.pairs / figures["solve_cpu_s"]
figures["first_mover_value"] = tables.start_value
after = os.path.join(scratch, "after.npy")
if not os.path.exists(after):                          # this checkout runs first
    np.save(after, tables.V1)
else:
    figures["max_abs_difference"] = float(np.nanmax(np.abs(tables.V1 - np.load(after))))
if compiled_c:
    runs = (("all_cpus", {{"threads": os.cpu_count()}}), ("values_alone", {{"threads": 1, "decisions": False}}))
    for name, options in runs:
        cpu, wall = time.process_time(), time.perf_counter()
        solve_race_compiled(rules, rows, **options)
        figures[f"solve_{{name}}_cpu_s"] = time.process_time() - cpu
        figures[f"solve_{{name}}_wall_s"] = time.perf_counter() - wall
print(json.dumps(figures))
"""


def before_after(game: str, rows: tuple[int, ...], previous: str) -> None:
    """Print the cold start and one solve of ``rows``, revision ``previous`` (before) beside
    this checkout (after)."""
    with tempfile.TemporaryDirectory() as scratch:
        snippet = BEFORE_AFTER.format(game=game, rows=rows, scratch=scratch)
        both = compare(snippet, previous, title=f"the exact race, {game}, open rows {list(rows)}, race against race:")
    now, before = both.values()
    print(f"  greatest difference of a pair's value: {before['max_abs_difference']:.3g}; this checkout on every "
          f"CPU {now['solve_all_cpus_wall_s']:.2f} s wall ({now['solve_all_cpus_cpu_s']:.2f} s CPU); the values "
          f"alone on one thread {now['solve_values_alone_cpu_s']:.2f} s CPU\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("pegs", "fives"), default="pegs")
    parser.add_argument("--rows", default="9,10,11,12", help="open rows (at most 5)")
    parser.add_argument("--matchups", default="race-race,solo-solo,race-solo")
    parser.add_argument("--no-compare", action="store_true", help="skip the earlier revision")
    parser.add_argument("--previous", default=PREVIOUS, help="the earlier revision (default: numba's)")
    args = parser.parse_args()
    rules = {"pegs": PEGS, "fives": FIVES}[args.game]
    rows = tuple(int(r) for r in args.rows.split(","))
    if not args.no_compare:
        before_after(args.game, rows, args.previous)
    kernel_tables(rules, rows)
    solo_choice_table(rules, rows)
    print(f"{rules.name}, open rows {list(rows)}, this checkout")
    for matchup in filter(None, args.matchups.split(",")):
        first, second = matchup.split("-")
        cpu = time.process_time()
        tables = solve_race_compiled(rules, rows, first=first, second=second)
        cpu = time.process_time() - cpu
        systems = tables.pairs / 2
        print(f"  {first} vs {second}: {tables.seconds:.1f} s wall, {cpu:.1f} s CPU, {tables.pairs:,} pairs, "
              f"{tables.pairs / cpu:,.0f} pairs per CPU second, {tables.newton_steps / systems:.3f} Newton steps "
              f"per pair system, first mover's value {tables.start_value:.6f}")
        del tables


if __name__ == "__main__":
    main()
