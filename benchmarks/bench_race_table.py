"""Exact three-player advice late in a game: how often the triples of boards reachable from a
position fit the compiled three-player race, and what the first answer costs.

Run: ``python benchmarks/bench_race_table.py [--games 20] [--positions 3] [--seed 1] [--kernel]``.
Prints, per game (Pegs, then Fives):

* **Reach.** Games of three players who all follow the advisor (``Advisor.policy``, seeded):
  at every turn start, the triples of boards reachable from the position (each seat's boards
  reachable from his board on the rows open on any of the three,
  :func:`dicemath.games.pegs_fives.race_table_compiled.race3_boxes`). Per stage, by the open
  rows of the mover and by the turns played at the table (all seats together, in tens): the
  turn starts, the share the exact source ``"exact three-player race"`` covers (at most
  ``TRIPLES_MAX`` triples), and the median count of triples.
* **First answers.** ``race_advice`` at up to ``--positions`` covered turn starts of those games
  per mover's open rows (drawn at random, seeded: typical positions), each a new race (the cache is a fresh
  temporary folder; the turn tables of the rows and the solo tables are built on the first use
  in this process and counted there): the triples, the seconds of the answer and of the
  kernel, and the CPU seconds of the process over the answer.
* **The largest races** (``--kernel``): the kernel near ``TRIPLES_MAX`` on two threads: Pegs
  and Fives on the three rows 10, 11, 12 (boxes of 125 boards each), and Pegs on rows 1, 2, 3
  (one die a hit, the most choice throws): seconds, triples per second, CPU and peak memory.

Each run prints the CPU it ran on (shared: other processes may slow it down).

Recorded (``--games 20 --positions 3 --kernel``, seed 1, two cores of an AMD EPYC loaded by other
work, wall time 2 to 4 times the CPU time):

* reach: the exact source covers 86%, 79% and 69% of Pegs' turn starts whose mover has 1, 2 and
  3 open rows, 49% with 4, 21% with 5, at most 12% beyond; Fives 89%, 60% and 41%, 25 to 28%
  with 4 or 5, at most 15% beyond. By turns played at the table: Pegs 2% of turns 40-49, 45% of
  50-59, all from 60 on; Fives 18% of 40-49, 87% of 50-59;
* first answers at 22 covered positions each: Fives median 0.11 s of CPU (0.30 s wall), 21 under
  2 s of CPU, the slowest 3.3 s (560,000 triples); Pegs median 3.1 s of CPU (9.2 s wall), 8 under
  2 s: up to 100,000 triples about 1 s of CPU, 10 to 30 microseconds a triple beyond, 46 s at
  1.7 million triples;
* the largest races, 1.9 million live triples on two threads: Pegs rows 10-12 10.6 s of CPU,
  Fives 5.9 s, Pegs rows 1-3 (one die a hit) 32.9 s; 134 MB of values.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import random
import resource
import statistics
import sys
import tempfile
import time

os.environ.setdefault("DICEMATH_CACHE_DIR", tempfile.mkdtemp(prefix="bench-race-table-"))
os.environ.setdefault("DICEMATH_PROGRESS", "0")

from dicemath.games.pegs_fives.advisor import Advisor  # noqa: E402
from dicemath.games.pegs_fives.race_advice import EXACT_ON_DEMAND_ROWS, race_advice  # noqa: E402
from dicemath.games.pegs_fives.race_table_compiled import (  # noqa: E402
    TRIPLES_MAX, race3_boxes, solve_race3_compiled)
from dicemath.games.pegs_fives.races import play_turn  # noqa: E402
from dicemath.games.pegs_fives.rules import FIVES, PEGS  # noqa: E402
from dicemath.games.pegs_fives.turn import open_rows_of  # noqa: E402

Position = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]


def cpu_name() -> str:
    """The CPU's model name (Linux), else the platform's processor."""
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def turn_starts(rules, games: int, seed: int) -> list[tuple[int, Position]]:
    """Every turn start of ``games`` three-player games of advisor play: the turns played at the
    table before it and the position, mover first."""
    advisor = Advisor(rules)
    rng = random.Random(seed)
    starts = []
    for _ in range(games):
        boards = [(0,) * rules.rows] * 3
        seat, played = 0, 0
        while True:
            position = (boards[seat], boards[(seat + 1) % 3], boards[(seat + 2) % 3])
            starts.append((played, position))
            boards[seat] = play_turn(rules, boards[seat], advisor.policy, rng)
            played += 1
            if not open_rows_of(boards[seat], rules.goal):
                break
            seat = (seat + 1) % 3
    return starts


def triples(rules, position: Position) -> tuple[int, bool]:
    """The triples reachable from ``position`` and whether the exact source takes them."""
    rows = tuple(sorted(set().union(*(open_rows_of(b, rules.goal) for b in position))))
    boxes = race3_boxes(rules, position[0], position[1:], rows, EXACT_ON_DEMAND_ROWS)
    if boxes is not None:
        return math.prod(box.size for box in boxes), True
    count = 1
    for board in position:
        count *= math.prod(rules.goal + 1 - board[r - 1] for r in rows)
    return count, False


def reach(rules, starts: list[tuple[int, Position]]) -> None:
    print(f"  reach: {len(starts)} turn starts; exact: at most {TRIPLES_MAX:,} triples")
    for label, key in (("mover's open rows", lambda played, pos: len(open_rows_of(pos[0], rules.goal))),
                       ("turns played", lambda played, pos: 10 * (played // 10))):
        stages: dict[int, list[tuple[int, bool]]] = {}
        for played, position in starts:
            stages.setdefault(key(played, position), []).append(triples(rules, position))
        print(f"    {label:>18s}{'turn starts':>13s}{'exact':>8s}{'median triples':>24s}")
        for stage in sorted(stages):
            found = stages[stage]
            share = sum(fits for _, fits in found) / len(found)
            median = statistics.median(n for n, _ in found)
            name = f"{stage}-{stage + 9}" if label == "turns played" else str(stage)
            shown = f"{median:,.0f}" if median < 1e12 else f"{median:.2e}"
            print(f"    {name:>18s}{len(found):13d}{share:8.0%}{shown:>24s}")


def first_answers(rules, starts: list[tuple[int, Position]], positions: int, seed: int) -> None:
    by_rows: dict[int, list[tuple[int, Position]]] = {}
    for _, position in starts:
        count, fits = triples(rules, position)
        if fits and open_rows_of(position[0], rules.goal):
            by_rows.setdefault(len(open_rows_of(position[0], rules.goal)), []).append((count, position))
    print("  first answers (race_advice, a new race each; the throw 1-2-3-4-5-6):", flush=True)
    print(f"    {'mover rows':>10s}{'triples':>12s}{'answer s':>10s}{'CPU s':>8s}{'exact':>7s}")
    throw = (1, 2, 3, 4, 5, 6)
    rng = random.Random(seed)
    walls = []
    for rows in sorted(by_rows):
        found = list(dict.fromkeys(by_rows[rows]))
        for count, position in sorted(rng.sample(found, min(positions, len(found)))):
            wall, cpu = time.perf_counter(), time.process_time()
            advice = race_advice(rules, position[0], throw, list(position[1:]))
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            walls.append(wall)
            print(f"    {rows:10d}{count:12,d}{wall:10.2f}{cpu:8.2f}{str(advice.exact):>7s}", flush=True)
    if walls:
        print(f"    median {statistics.median(walls):.2f} s, under 2 s: {sum(w < 2 for w in walls)} of {len(walls)}")


LARGEST = ((PEGS, (10, 11, 12)), (FIVES, (10, 11, 12)), (PEGS, (1, 2, 3)))
"""Three rows, every seat's box one step on on each: 5 x 5 x 5 = 125 boards a seat, 1,953,125
triples (the whole three-row board, 216 boards a seat, would be 10 million)."""

SEAT_FLOORS = ((1, 1, 1),) * 3


def largest_races() -> None:
    print(f"the largest races near TRIPLES_MAX = {TRIPLES_MAX:,}: kernel seconds on two threads, the process's "
          "CPU seconds and the growth of its peak memory")
    for rules, rows in LARGEST:
        peak, cpu = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, time.process_time()
        tables = solve_race3_compiled(rules, rows, floors=SEAT_FLOORS, threads=2)
        cpu = time.process_time() - cpu
        grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak) / 1024
        boxes = ' x '.join(str(box.size) for box in tables.boxes)
        print(f"  {rules.name:6s} rows {','.join(map(str, rows)):>8s}: boxes {boxes}, {tables.triples:,} live triples, "
              f"{tables.seconds:.1f} s ({cpu:.1f} s CPU), {tables.triples / tables.seconds:,.0f} triples/s, "
              f"{tables.policy_steps / tables.triples:.2f} linear steps a triple, peak memory +{grown:.0f} MB "
              f"({tables.V.nbytes / 2 ** 20:.0f} MB of values)", flush=True)
        del tables


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--positions", type=int, default=3, help="first answers timed per mover's open rows")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kernel", action="store_true", help="also time the largest races (minutes)")
    args = parser.parse_args()
    print(f"CPU: {cpu_name()}, {os.cpu_count()} logical CPUs")
    for rules in (PEGS, FIVES):
        print(f"{rules.name}: {args.games} three-player advisor games (seed {args.seed})", flush=True)
        starts = turn_starts(rules, args.games, args.seed)
        reach(rules, starts)
        sys.stdout.flush()
        first_answers(rules, starts, args.positions, args.seed)
    if args.kernel:
        largest_races()


if __name__ == "__main__":
    main()
