"""Benchmark: the complete two-sided bear-off database (builds, scaling, lookups, gnubg).

Run ``python benchmarks/bench_bearoff_database.py --checkers 8 10 12 13 --out /work/tables/bench``
(tables are written under ``--out``, outside the repository, and deleted after each size
unless ``--keep``). For each size it prints the build's wall and CPU seconds (this process:
Dask's threaded scheduler on every core), chunks per second, pairs per second, the memory
of the worker (one process with all threads: its peak anonymous memory; the tables are
memory-mapped files whose pages the kernel may drop, counted in the process's peak RSS
once touched) and the size on disk. Then:

* the extrapolation to 15 checkers from the CPU cost per unit of kernel work measured at
  the largest size (work = pairs x successors scanned; the 15-checker build adds the two
  gammon tables), for the wall time at the parallel speed-up measured there and on all
  cores free;
* lookup latency from the memory-mapped table of the largest size (``--lookups`` random
  queries through :meth:`BearoffDatabase.win_probability`, median and 99th percentile);
* GNU Backgammon's ``makebearoff -t 6xN`` (``--gnubg N``, 0 to skip) timed side by side
  with our build of the same N, wall and CPU seconds (its file also holds cubeful
  equities; ``-C`` drops them and is timed too). On a shared machine compare the CPU
  seconds: ours are summed over both threads.

``os.getloadavg()`` is printed beside the timings: the machine may be shared.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import statistics
import time
from pathlib import Path

import numpy as np
from bench_bearoff import makebearoff  # this folder is on the path when the script runs

from dicemath.games.backgammon import bearoff as bo
from dicemath.games.backgammon import bearoff_database as db


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def build(checkers: int, out: Path, keep: bool) -> dict:
    folder = db.table_folder(checkers, out)
    shutil.rmtree(folder, ignore_errors=True)
    start_cpu, start = cpu_seconds(), time.perf_counter()
    summary = db.build_database(checkers, out, show_progress=False)
    wall, cpu = time.perf_counter() - start, cpu_seconds() - start_cpu
    disk = sum(f.stat().st_blocks * 512 for f in folder.iterdir() if f.is_file())
    result = {"checkers": checkers, "pairs": summary.pairs_run, "chunks": summary.chunks_run, "wall": wall,
              "cpu": cpu, "work": db.build_work(checkers)["scans"], "disk": disk,
              "peak_memory": max(summary.peak_memory), "load": os.getloadavg(),
              "max_rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}
    print(f"6x{checkers}: {summary.pairs_run:,} pairs in {summary.chunks_run} chunks: wall {wall:.1f} s, "
          f"cpu {cpu:.1f} s ({cpu / wall:.2f} cores), {summary.chunks_run / wall:.1f} chunks/s, "
          f"{summary.pairs_run / wall / 1e6:.1f} M pairs/s, {cpu / result['work'] * 1e9:.3f} ns cpu per "
          f"successor scan; worker memory {result['peak_memory'] / 2**20:.0f} MiB (+ mapped table pages: "
          f"process peak RSS so far {result['max_rss'] / 2**20:.0f} MiB); disk {disk / 1e9:.2f} GB; "
          f"load {tuple(round(x, 2) for x in result['load'])}", flush=True)
    if not keep:
        shutil.rmtree(folder)
    return result


def lookups(checkers: int, out: Path, count: int) -> None:
    database = db.open_database(checkers, out)
    rng = random.Random(1)
    boards = bo.positions_up_to(checkers)
    pairs = [(tuple(boards[rng.randrange(len(boards))]), tuple(boards[rng.randrange(len(boards))]))
             for _ in range(count)]
    start = time.perf_counter()
    database.win_probability(*pairs[0])   # builds the board index dictionary once per process
    first = time.perf_counter() - start
    times = []
    for board, versus in pairs:
        start = time.perf_counter()
        database.win_probability(board, versus)
        times.append(time.perf_counter() - start)
    times.sort()
    print(f"lookup from the memory-mapped 6x{checkers} table ({count:,} random pairs): median "
          f"{statistics.median(times) * 1e6:.1f} us, 99th percentile {times[int(0.99 * count)] * 1e6:.1f} us, "
          f"max {times[-1] * 1e3:.2f} ms (first query of the process {first * 1e3:.0f} ms)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkers", type=int, nargs="+", default=[8, 10, 12])
    parser.add_argument("--out", type=Path, required=True, help="folder for the tables (outside the repository)")
    parser.add_argument("--keep", action="store_true", help="keep the tables built")
    parser.add_argument("--lookups", type=int, default=20_000)
    parser.add_argument("--gnubg", type=int, default=0, help="time makebearoff -t 6xN for this N (0: skip)")
    args = parser.parse_args()

    db.build_database(2, args.out / "warm-up", show_progress=False)   # the move table built
    results = [build(n, args.out, args.keep or n == max(args.checkers)) for n in sorted(args.checkers)]

    last = results[-1]
    per_work, speedup = last["cpu"] / last["work"], last["cpu"] / last["wall"]
    size = db.build_work(15)
    work, pairs = size["scans"], size["pairs"]
    disk = pairs * 4
    print(f"extrapolated 15x15 (win + gammon tables, {pairs:,} entries, {work:.3e} successor scans) at the "
          f"cost measured for 6x{last['checkers']}: cpu {work * per_work / 60:.0f} min, wall "
          f"{work * per_work / speedup / 60:.0f} min at the {speedup:.2f} cores this run got "
          f"({work * per_work / os.cpu_count() / 60:.1f} min on {os.cpu_count()} free cores); "
          f"{len(db.chunk_plan(15))} chunks; disk {disk / 1e9:.1f} GB")
    lookups(last["checkers"], args.out, args.lookups)
    if not args.keep:
        shutil.rmtree(db.table_folder(last["checkers"], args.out))
    shutil.rmtree(args.out / "warm-up")

    if args.gnubg:
        n = args.gnubg
        mine = next((r for r in results if r["checkers"] == n), None) or build(n, args.out, False)
        for extra, what in (([], "cubeful + cubeless"), (["-C"], "cubeless only (-C)")):
            theirs = makebearoff(["-t", f"6x{n}", *extra])
            if theirs is None:
                print("makebearoff: not installed")
                break
            print(f"makebearoff -t 6x{n} {' '.join(extra)} ({what}): wall {theirs[0]:.1f} s, cpu {theirs[1]:.1f} s; "
                  f"dicemath wall {mine['wall']:.2f} s, cpu {mine['cpu']:.2f} s: ratio wall "
                  f"{theirs[0] / mine['wall']:.0f}x, cpu {theirs[1] / mine['cpu']:.0f}x "
                  f"(load {tuple(round(x, 2) for x in os.getloadavg())})")
    print(f"numpy {np.__version__}, {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
