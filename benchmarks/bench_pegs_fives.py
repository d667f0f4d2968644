"""Timings of Pegs/Fives: rows tables, reduced-board solves, advisor latency and quality.

Run: ``python benchmarks/bench_pegs_fives.py [--games N]`` (prints the figures).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from dicemath.games.pegs_fives.advisor import Advisor
from dicemath.games.pegs_fives.report import simulate
from dicemath.games.pegs_fives.rows import row_table, rows_result
from dicemath.games.pegs_fives.rules import FIVES, PEGS
from dicemath.games.pegs_fives.solver import solve_greedy, solve_reduced
from dicemath.games.pegs_fives.state import SafeGreedy, greedy_policy, random_throw


def timed(function, *args, **kwargs):
    start = time.perf_counter()
    result = function(*args, **kwargs)
    return result, time.perf_counter() - start


def all_gaps(k: int) -> None:
    """The advisor's exact gap to the optimum on every reduced board of 2..k open rows."""
    from itertools import combinations

    for rules in (PEGS, FIVES):
        advisor = Advisor(rules)
        for size in range(2, k + 1):
            gaps = []
            safe_gaps = []
            start = time.perf_counter()
            for rows in combinations(range(1, rules.rows + 1), size):
                best = solve_reduced(rules, rows, exact=False).expected_turns
                adv = solve_reduced(rules, rows, exact=False, policy=advisor.policy).expected_turns
                safe = solve_reduced(rules, rows, exact=False, policy=SafeGreedy(rules.goal)).expected_turns
                gaps.append(100 * (adv / best - 1))
                safe_gaps.append(100 * (safe / best - 1))
            print(f"{rules.name} every {size}-row board ({len(gaps)}): advisor gap mean {statistics.mean(gaps):.2f}%, "
                  f"max {max(gaps):.2f}%; safe greedy gap mean {statistics.mean(safe_gaps):.2f}%, "
                  f"max {max(safe_gaps):.2f}% ({time.perf_counter() - start:.0f} s)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200, help="simulated games per policy")
    parser.add_argument("--four", action="store_true", help="also solve a 4-row board (a few seconds)")
    parser.add_argument("--all-gaps", type=int, default=0, metavar="K",
                        help="only measure the advisor's gap to optimal on EVERY reduced board with "
                             "2..K open rows (K=3: 286 boards per game, several minutes)")
    args = parser.parse_args()
    if args.all_gaps:
        all_gaps(args.all_gaps)
        return

    row_table.cache_clear()
    _, seconds = timed(lambda: (rows_result(PEGS), rows_result(FIVES)))
    print(f"rows (both games, cold, exact): {seconds:.2f} s")

    for rules in (PEGS, FIVES):
        for rows, exact in (((6, 7, 8), True), ((6, 7, 8), False), ((1, 7, 12), False)):
            solution, seconds = timed(solve_reduced, rules, rows, exact=exact)
            greedy, g_seconds = timed(solve_greedy, rules, rows, exact=exact)
            print(f"{rules.name} solve {rows} {'exact' if exact else 'float'}: {seconds:.2f} s "
                  f"(greedy eval {g_seconds:.2f} s); optimal {float(solution.expected_turns):.4f}, "
                  f"greedy {float(greedy.expected_turns):.4f}")
        if args.four:
            solution, seconds = timed(solve_reduced, rules, (5, 6, 7, 8), exact=False)
            print(f"{rules.name} solve (5, 6, 7, 8) float: {seconds:.2f} s; optimal {solution.expected_turns:.4f}")

    for rules in (PEGS, FIVES):
        advisor = Advisor(rules)
        rng = random.Random(1)
        latencies = []
        for _ in range(200):
            board = tuple(rng.randint(0, rules.goal - 1) for _ in range(rules.rows))
            throw = random_throw(rng, rules.dice)
            fresh = Advisor(rules, advisor.value)      # no memo carried between queries
            _, seconds = timed(fresh.rank, board, throw)
            latencies.append(seconds * 1000)
        latencies.sort()
        print(f"{rules.name} advisor query latency (cold memo, 200 random boards): median "
              f"{statistics.median(latencies):.2f} ms, p95 {latencies[189]:.2f} ms, max {latencies[-1]:.2f} ms")

        gaps = []
        for rows in ((2, 9), (4, 7), (6, 10), (3, 11), (6, 7, 8), (1, 7, 12), (2, 8, 10), (4, 9, 11)):
            best = solve_reduced(rules, rows, exact=False).expected_turns
            adv = solve_reduced(rules, rows, exact=False, policy=advisor.policy).expected_turns
            gaps.append((rows, best, adv, 100 * (adv / best - 1)))
        for rows, best, adv, gap in gaps:
            print(f"{rules.name} advisor gap on {rows}: optimal {best:.4f}, advisor {adv:.4f} (+{gap:.2f}%)")
        print(f"{rules.name} advisor gap: mean {statistics.mean(g for *_, g in gaps):.2f}%, "
              f"max {max(g for *_, g in gaps):.2f}%")

        for label, policy in (("advisor", advisor.policy), ("safe greedy", SafeGreedy(rules.goal)),
                              ("greedy", greedy_policy)):
            (mean, ci, capped), seconds = timed(simulate, rules, policy, args.games, 2026)
            print(f"{rules.name} {label}: {mean:.2f} ± {ci:.2f} turns from empty "
                  f"({args.games} games, {capped} capped at 2000, {seconds:.1f} s)")


if __name__ == "__main__":
    main()
