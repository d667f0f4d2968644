"""The Fives full-board kernel before (numba, revision 3ccf0bf) and after (C compiled at install),
side by side in one run: cold start, CPU per board, a 10-number table build, peak memory.

Run: ``python benchmarks/bench_fives_kernel.py [--open 2..11] [--previous REV]``. Each side runs
in a fresh process with empty caches (:func:`side_by_side.compare`):

* ``cold_start_s``: import and the first solve of a 2-number table (numba's compile before,
  nothing after: the C kernel is compiled at install);
* ``ns_per_board_8_numbers``: one thread, CPU time per board of a warm in-memory solve of
  numbers 5..12 by the slab lanes (``solve_slabs``, the kernel call of a table build);
* ``build_wall_s``, ``build_cpu_s``, ``build_ns_per_board``: ``build_table`` of the open
  numbers (default 2..11, 6**10 boards, float32 on disk, every core: the issue's measure), wall
  and CPU (the first compile included before);
* the process's wall, CPU and peak resident memory (side_by_side's figures).

The issue's target: the build of 10 open numbers in at most 0.7x the independent solver's time,
which the numba kernel took 1.18x of on this kind of machine, so ``build_wall_s`` at most 0.59x
the numba kernel's.
"""

from __future__ import annotations

import argparse

from side_by_side import PREVIOUS, compare

SNIPPET = """
import json, tempfile, time
from pathlib import Path
import numpy as np
start = time.perf_counter()
from dicemath.games.pegs_fives.fullboard.driver import build_table, default_top, kernel_for, solve_sequential
from dicemath.games.pegs_fives.rules import FIVES
kernel = kernel_for(FIVES, (3, 8))
solve_sequential(kernel, np.zeros(kernel.layout.size))
cold = time.perf_counter() - start
kernel = kernel_for(FIVES, tuple(range(5, 13)))
plan = kernel.layout.slabs(default_top(kernel.layout, 16))
E = np.zeros(kernel.layout.size)
for timed in (False, True):                                # the first pass compiles numba's variant
    cpu = time.process_time()
    for group in plan.groups(16):
        kernel.solve_slabs(E, np.array(group), plan.top)
per_board = (time.process_time() - cpu) / 6 ** 8 * 1e9
rows = {rows!r}
with tempfile.TemporaryDirectory() as folder:
    wall, cpu = time.perf_counter(), time.process_time()
    build_table(FIVES, rows, out=Path(folder) / "table")
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
print(json.dumps({{"cold_start_s": cold, "ns_per_board_8_numbers": per_board, "build_wall_s": wall,
                  "build_cpu_s": cpu, "build_ns_per_board": cpu / 6 ** len(rows) * 1e9}}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--open", default="2..11", help="open numbers of the build, first..last (default 2..11)")
    parser.add_argument("--previous", default=PREVIOUS, help=f"revision to compare with (default {PREVIOUS})")
    args = parser.parse_args()
    first, last = map(int, args.open.split(".."))
    rows = tuple(range(first, last + 1))
    compare(SNIPPET.format(rows=rows), args.previous, f"Fives kernel, build of numbers {args.open}")


if __name__ == "__main__":
    main()
