"""Timings of the full-board solver: kernel speed, reduced-board builds, the full
board (measured or extrapolated), memory, disk, float32 vs float64, advice latency.

Run: ``python benchmarks/bench_fullboard.py [--game fives|pegs] [--max-rows 10]
[--full DIR] [--previous REV]`` (prints the figures; the load average is printed beside every
timing, since the machine may be shared). ``--full DIR`` also builds the whole 12-row table
into DIR (resumable; minutes for Fives, about 70 minutes for Pegs).

``--previous REV`` first prints the kernel figures of this checkout and of revision ``REV``
side by side (each in a fresh process with empty caches, ``REV`` from a temporary ``git
worktree``): cold start (numba's compile, or nothing for a kernel compiled at install, whose
compile time is measured separately), CPU µs a board on rows 7..12, 1..6 and 1..8 and the
wall time of the on-demand solves of a 6- and an 8-row board. For Pegs the default ``REV`` is
``0ad4532``, for Fives ``3ccf0bf``: the last revisions with their numba kernels.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import resource
import shutil
import tempfile
import time
from pathlib import Path

import numpy as np

from dicemath.games.pegs_fives.fullboard import storage
from dicemath.games.pegs_fives.fullboard.advice import ExactAdvisor
from dicemath.games.pegs_fives.fullboard.driver import build_table, kernel_for, solve_sequential, solve_table
from dicemath.games.pegs_fives.fullboard.layout import FULL_ROWS, BoardLayout
from dicemath.games.pegs_fives.rules import preset

CORES = os.cpu_count() or 1


def load() -> str:
    return "load %.1f %.1f %.1f" % os.getloadavg()


def peak_rss_gib() -> float:
    """Peak resident memory of this process and its finished children (GiB)."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(own, children) / 2**20


def kernel_speed(rules, rows) -> float:
    """Single-thread CPU nanoseconds per board of a whole in-memory solve of ``rows``."""
    kernel = kernel_for(rules, rows)
    solve_sequential(kernel, np.zeros(kernel.layout.size))            # compile / warm
    start = time.process_time()
    solve_sequential(kernel, np.zeros(kernel.layout.size))
    seconds = time.process_time() - start
    return seconds / kernel.layout.size * 1e9


FIGURE_ROWS = ((7, 8, 9, 10, 11, 12), (1, 2, 3, 4, 5, 6), (1, 2, 3, 4, 5, 6, 7, 8))
"""The reduced boards whose per-board kernel cost is compared across revisions."""

PREVIOUS = {"pegs": "0ad4532", "fives": "3ccf0bf"}
"""Default revision to compare with: for each game the last one with its numba kernel."""


def kernel_figures(rules) -> dict:
    """Cold start, CPU µs a board and on-demand solve times of this process's kernel (run in
    a fresh process with empty caches: the first call pays any compile)."""
    start = time.perf_counter()
    kernel = kernel_for(rules, (3, 8))
    solve_sequential(kernel, np.zeros(kernel.layout.size))
    figures = {"cold_start_seconds": time.perf_counter() - start}
    for rows in FIGURE_ROWS:
        figures[f"us_per_board_{rows[0]}_{rows[-1]}"] = kernel_speed(rules, rows) / 1e3
    for rows in (FIGURE_ROWS[1], FIGURE_ROWS[2]):
        kernel_for(rules, rows)
        start = time.perf_counter()
        solve_table(rules, rows)
        figures[f"solve_{len(rows)}_rows_seconds"] = time.perf_counter() - start
    return figures


def figures_of(game: str, tree: Path) -> dict:
    """:func:`kernel_figures` of the checkout in ``tree``, in a fresh process with empty
    numba and dicemath caches."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "PYTHONPATH": str(tree), "NUMBA_CACHE_DIR": cache, "DICEMATH_CACHE_DIR": cache,
               "DICEMATH_PROGRESS": "0"}
        out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--game", game, "--figures"],
                             env=env, cwd=cache, check=True, capture_output=True, text=True).stdout
    return json.loads(out.splitlines()[-1])


def install_compile_seconds(tree: Path) -> float | None:
    """Seconds to compile the C extensions of ``tree`` as an install does (None: it has none)."""
    if not (tree / "setup.py").exists():
        return None
    with tempfile.TemporaryDirectory() as build:
        start = time.perf_counter()
        subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--build-lib", build, "--build-temp", build],
                       cwd=tree, check=True, capture_output=True)
        return time.perf_counter() - start


def compare_revisions(game: str, previous: str) -> None:
    """Print this checkout's kernel figures beside those of revision ``previous``."""
    here = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as folder:
        old = Path(folder) / "previous"
        subprocess.run(["git", "worktree", "add", "--detach", str(old), previous], cwd=here, check=True,
                       capture_output=True)
        try:
            if (old / "setup.py").exists():         # a revision with a C kernel: built in place, as an install
                subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=old, check=True,
                               capture_output=True)
            figures = {"this checkout": figures_of(game, here), previous: figures_of(game, old)}
            compile_seconds = {"this checkout": install_compile_seconds(here), previous: install_compile_seconds(old)}
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(old)], cwd=here, check=True)
    names = list(figures)
    print(f"{game} kernel, this checkout vs {previous} (fresh processes, empty caches)  [{load()}]")
    print(f"  {'figure':34s}" + "".join(f"{n:>16s}" for n in names) + f"{'ratio':>9s}")
    compiled = ["-" if compile_seconds[n] is None else f"{compile_seconds[n]:.1f}" for n in names]
    print(f"  {'C extension compile at install (s)':34s}" + "".join(f"{c:>16s}" for c in compiled))
    for key in figures[names[0]]:
        a, b = figures[names[0]][key], figures[names[1]][key]
        print(f"  {key:34s}{a:16.3f}{b:16.3f}{b / a:8.2f}x")


def reduced_builds(rules, max_rows: int, folder: Path) -> float:
    """Build reduced tables of 6..max_rows open rows on disk; return the CPU ns per board
    of the largest."""
    per_board = 0.0
    for k in range(6, max_rows + 1):
        rows = tuple(range(13 - k, 13))                 # the hardest rows
        out = folder / f"rows{k}"
        start = time.perf_counter()
        build_table(rules, rows, out=out)
        wall = time.perf_counter() - start
        table = storage.open_table(out, rules)
        cpu, slabs = table.cpu_seconds, table.slab_count
        size = BoardLayout(rules, rows).size
        per_board = cpu / size * 1e9
        disk = table.store.path(storage.VALUES).stat().st_size
        print(f"  {k:2d} rows {size:>12,} boards: wall {wall:8.2f} s ({CORES} cores), cpu {cpu:8.2f} s, "
              f"{per_board:6.0f} ns/board/core, {slabs} slabs ({cpu / slabs:.3f} cpu s/slab), "
              f"{table.dtype} {disk / 2**20:.1f} MiB  [{load()}]")
        table.close()
    return per_board


def float32_error(rules, rows) -> float:
    """Largest |float32 storage - float64| over a reduced table."""
    kernel = kernel_for(rules, rows)
    e64 = solve_sequential(kernel, np.zeros(kernel.layout.size))
    e32 = solve_sequential(kernel, np.zeros(kernel.layout.size, dtype=np.float32))
    return float(np.abs(e32.astype(np.float64) - e64).max())


def advice_latency(rules, table_dir: Path, queries: int = 2000) -> tuple[float, float]:
    """(first query incl. opening the table and the kernel, mean warm query) in ms."""
    rng = np.random.default_rng(1)
    start = time.perf_counter()
    table = storage.open_table(table_dir, rules)
    advisor = ExactAdvisor(rules, table.layout.rows, table.values, "table")
    boards = [table.layout.board(int(i)) for i in rng.integers(0, table.layout.last, queries)]
    throws = [tuple(int(x) for x in rng.integers(1, 7, rules.dice)) for _ in range(queries)]
    advisor.rank(boards[0], throws[0])
    first = time.perf_counter() - start
    start = time.perf_counter()
    for board, throw in zip(boards, throws):
        advisor.rank(board, throw)
        advisor.value(board)
    warm = (time.perf_counter() - start) / queries
    table.close()
    return first * 1e3, warm * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", choices=("fives", "pegs"), default="fives")
    parser.add_argument("--max-rows", type=int, default=10, help="largest reduced build (default 10)")
    parser.add_argument("--full", default=None, metavar="DIR", help="also build the full table into DIR")
    parser.add_argument("--previous", default=None, metavar="REV",
                        help="compare the kernel with revision REV first (default for Pegs: the numba kernel)")
    parser.add_argument("--figures", action="store_true", help=argparse.SUPPRESS)   # child of --previous
    args = parser.parse_args()
    rules = preset(args.game)
    os.environ.setdefault("DICEMATH_PROGRESS", "0")
    if args.figures:
        print(json.dumps(kernel_figures(rules)))
        return
    compare_revisions(args.game, args.previous or PREVIOUS[args.game])
    print(f"{rules.name}: full-board solver benchmarks, {CORES} cores")

    print("kernel, one thread, in memory (float64):")
    for rows in [tuple(range(7, 13)), tuple(range(4, 13))]:
        ns = kernel_speed(rules, rows)
        print(f"  {len(rows)} rows: {ns:6.0f} ns/board = {1e9 / ns:,.0f} boards/s per core  [{load()}]")
    for rows in [tuple(range(7, 13)), tuple(range(4, 13))]:
        start = time.perf_counter()
        solve_table(rules, rows)
        print(f"  solve_table {len(rows)} rows ({CORES} threads): {time.perf_counter() - start:.3f} s wall  [{load()}]")

    rows = tuple(range(5, 13))
    print(f"float32 storage vs float64, {len(rows)} rows: max |difference| {float32_error(rules, rows):.2e}")

    folder = Path(tempfile.mkdtemp(prefix="bench_fullboard_"))
    try:
        print("reduced builds on disk (Dask local threads):")
        per_board = reduced_builds(rules, args.max_rows, folder)
        full = 6 ** 12
        print(f"full board, EXTRAPOLATED from the {args.max_rows}-row build: {full * per_board / 1e9 / CORES / 60:.1f} "
              f"min on {CORES} cores, {full * 4 / 2**30:.1f} GiB float32 on disk")
        first, warm = advice_latency(rules, folder / f"rows{args.max_rows}")
        print(f"advice from the {args.max_rows}-row table: first query {first:.1f} ms (opening table and kernel), "
              f"then {warm:.3f} ms per query  [{load()}]")
    finally:
        shutil.rmtree(folder)

    if args.full:
        start = time.perf_counter()
        directory = build_table(rules, FULL_ROWS, out=args.full)
        wall = time.perf_counter() - start
        table = storage.open_table(directory, rules)
        cpu, slabs = table.cpu_seconds, table.slab_count
        print(f"full board MEASURED: wall {wall / 60:.1f} min (this run), cpu {cpu / 60:.1f} min over "
              f"{slabs} slabs ({cpu / slabs:.2f} cpu s/slab), {cpu / full * 1e9:.0f} ns/board/core, "
              f"disk {table.store.path(storage.VALUES).stat().st_size / 2**30:.2f} GiB  [{load()}]")
        table.close()
        first, warm = advice_latency(rules, directory)
        print(f"advice from the full table: first query {first:.1f} ms, then {warm:.3f} ms per query")
    print(f"peak resident memory: {peak_rss_gib():.2f} GiB (memory-mapped table pages included)")


if __name__ == "__main__":
    main()
