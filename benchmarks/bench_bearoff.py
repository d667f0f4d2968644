"""Benchmark: bear-off database builds, side by side with GNU Backgammon's makebearoff.

Run ``python benchmarks/bench_bearoff.py [--max-checkers 8]``. Prints, for each build, the
best of ``--repeat`` runs in this process (after a warm-up of first builds, its time printed
separately; the on-disk cache is bypassed; the C kernels are compiled at install) and GNU Backgammon's time for the
same table when ``makebearoff`` is installed, with the ratio.

* one-sided, 6 points x 15 checkers (54,264 boards): all legal plays + the DP for the
  distributions of rolls to bear off and to bear off the first checker (both with gammon
  distributions, like ``makebearoff -o 6``);
* two-sided 6x6 (853,776 pairs), cubeless: the plays of the 924 boards + the DP; gnubg's
  ``makebearoff -t 6x6`` also computes cubeful equities, so ``-t 6x6 -C`` (cubeless only)
  is timed too.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from dicemath.games.backgammon import bearoff as bo
from dicemath.games.backgammon.rules import STANDARD


def best_of(repeat: int, function) -> tuple[float, float]:
    """Best wall-clock and best CPU seconds of ``repeat`` calls."""
    walls, cpus = [], []
    for _ in range(repeat):
        start, cpu = time.perf_counter(), time.process_time()
        function()
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    return min(walls), min(cpus)


def makebearoff(arguments: list[str]) -> tuple[float, float] | None:
    """Wall-clock and CPU (user + system) seconds of one makebearoff run, or None."""
    tool = shutil.which("makebearoff")
    if tool is None and Path("/usr/games/makebearoff").exists():
        tool = "/usr/games/makebearoff"
    if tool is None:
        return None
    with tempfile.TemporaryDirectory() as folder:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run([tool, *arguments, "-f", os.path.join(folder, "db.bd")], check=True, capture_output=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def one_sided() -> None:
    moves = bo.MoveTable(STANDARD, **bo._build_moves(STANDARD))
    bo._build_one_sided(STANDARD, moves)


def two_sided(checkers: int) -> None:
    moves = bo.MoveTable(STANDARD, **bo._build_moves(STANDARD, checkers))
    bo._build_two_sided(checkers, STANDARD, moves)


def line(name: str, ours: tuple[float, float], theirs: tuple[float, float] | None, what: str) -> None:
    print(f"{name}")
    print(f"    dicemath           wall {ours[0]:8.3f} s   cpu {ours[1]:8.3f} s")
    if theirs is None:
        print(f"    makebearoff {what}: not installed")
    else:
        print(f"    makebearoff {what:<6} wall {theirs[0]:8.3f} s   cpu {theirs[1]:8.3f} s   "
              f"ratio (theirs / ours) wall {theirs[0] / ours[0]:6.1f}x  cpu {theirs[1] / ours[1]:6.1f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--max-checkers", type=int, default=8, help="largest two-sided table to time")
    args = parser.parse_args()

    start = time.perf_counter()
    two_sided(1)
    one_sided_small = bo.MoveTable(STANDARD, **bo._build_moves(STANDARD))
    bo._build_one_sided(STANDARD, one_sided_small)
    print(f"warm-up (first builds): {time.perf_counter() - start:.2f} s")

    ours = best_of(args.repeat, one_sided)
    line("one-sided 6x15 (54,264 boards)", ours, makebearoff(["-o", "6"]), " -o 6")
    ours = best_of(args.repeat, lambda: two_sided(6))
    line("two-sided 6x6 cubeless", ours, makebearoff(["-t", "6x6", "-C"]), " -t 6x6 -C")
    line("two-sided 6x6 (gnubg adds cubeful)", ours, makebearoff(["-t", "6x6"]), " -t 6x6")
    for checkers in range(7, args.max_checkers + 1):
        wall, cpu = best_of(1, lambda checkers=checkers: two_sided(checkers))
        count = bo.positions_count(checkers)
        print(f"two-sided 6x{checkers} cubeless ({count:,}^2 = {count * count:,} pairs): "
              f"dicemath wall {wall:.3f} s, cpu {cpu:.3f} s")


if __name__ == "__main__":
    main()
