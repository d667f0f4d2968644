"""Throughput of the two-player race kernel: pairs solved per second.

Run: ``python benchmarks/bench_race.py [--game pegs|fives] [--rows 8,9,10,11,12]
[--matchups race-race,solo-solo,race-solo]``. For each matchup it prints the kernel's wall
time, the process CPU time of the solve (the machine may be shared: CPU time is the
comparable figure), live ordered pairs solved (both players' tables in a mixed matchup),
pairs per CPU second, Newton steps per pair system and the first mover's value from the
empty pair. Float64; the solo tables (from the compiled expected-turns kernel) and the
kernel's compilation are done first and not timed.
"""

from __future__ import annotations

import argparse
import time

from dicemath.games.pegs_fives.race_solver import kernel_tables, solo_choice_table, solve_race_compiled
from dicemath.games.pegs_fives.rules import FIVES, PEGS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("pegs", "fives"), default="pegs")
    parser.add_argument("--rows", default="9,10,11,12", help="open rows (at most 5)")
    parser.add_argument("--matchups", default="race-race,solo-solo,race-solo")
    args = parser.parse_args()
    rules = {"pegs": PEGS, "fives": FIVES}[args.game]
    rows = tuple(int(r) for r in args.rows.split(","))
    kernel_tables(rules, rows)
    solo_choice_table(rules, rows)
    solve_race_compiled(rules, rows[:1])                 # compile (or load) the kernel
    print(f"{rules.name}, open rows {list(rows)}")
    for matchup in args.matchups.split(","):
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
