"""Benchmark the two exact BohnDuell solvers: positions solved per second, peak memory.

Each measurement runs in a fresh subprocess so its peak resident memory (``ru_maxrss``,
minus the same process's resident size just before solving) is its own:

- baseline: :func:`dicemath.games.bohnduell.solver_dict.solve_from_start` (memoised dict,
  explicit stack; it solves the positions reachable from the start);
- fast: :func:`dicemath.games.bohnduell.solver_dense.solve_dense` (dense int8 table of
  every pair of reachable sides, numba sweep; timed after loading the compiled kernel).

Positions per second are given for the positions each solver actually solves, and for
the fast solver also per reachable position (the baseline's unit), so the speed-up is
like for like. Run::

    python benchmarks/bench_bohnduell.py            # stocks 10 and 12
    python benchmarks/bench_bohnduell.py --stocks 10
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time


def _rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 2**20


def measure(solver: str, stock: int) -> dict:
    from dicemath.games.bohnduell.rules import Rules
    from dicemath.games.bohnduell.state import initial_state
    from dicemath.games.bohnduell.solver_dense import solve_dense
    from dicemath.games.bohnduell.solver_dict import solve_from_start

    if solver == "dense":
        solve_dense(Rules(stock=2))                       # compile / load the kernel
    before = _rss_mb()
    tic, cpu = time.perf_counter(), time.process_time()
    if solver == "dict":
        value, baseline = solve_from_start(Rules(stock=stock))
        positions = reachable = len(baseline.table)
    else:
        table = solve_dense(Rules(stock=stock))
        value = table.position_value(initial_state(table.rules_for(stock)))
        positions = table.positions
    seconds, cpu_seconds = time.perf_counter() - tic, time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if solver == "dense":
        reachable = table.reachable_count()
    return {"solver": solver, "stock": stock, "value": value, "positions": positions,
            "reachable": reachable, "seconds": seconds, "cpu_seconds": cpu_seconds,
            "peak_mb": peak - before}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stocks", type=int, nargs="+", default=[10, 12])
    parser.add_argument("--one", nargs=2)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure(args.one[0], int(args.one[1]))))
        return
    print(f"{'stock':>5} {'solver':>6} {'positions':>12} {'seconds':>8} {'cpu s':>7} "
          f"{'pos/s':>12} {'reach/s':>12} {'peak MB':>8}")
    for stock in args.stocks:
        rows = {}
        for solver in ("dict", "dense"):
            out = subprocess.run([sys.executable, __file__, "--one", solver, str(stock)],
                                 capture_output=True, text=True, check=True).stdout
            r = rows[solver] = json.loads(out.strip().splitlines()[-1])
            print(f"{stock:>5} {solver:>6} {r['positions']:>12,} {r['seconds']:>8.2f} {r['cpu_seconds']:>7.2f} "
                  f"{r['positions'] / r['cpu_seconds']:>12,.0f} {r['reachable'] / r['cpu_seconds']:>12,.0f} "
                  f"{r['peak_mb']:>8.1f}", flush=True)
        assert rows["dict"]["value"] == rows["dense"]["value"]
        d, f = rows["dict"], rows["dense"]
        print(f"      speed-up (cpu): {f['positions'] / f['cpu_seconds'] / (d['positions'] / d['cpu_seconds']):.0f}x "
              f"table positions/s, {f['reachable'] / f['cpu_seconds'] / (d['reachable'] / d['cpu_seconds']):.0f}x "
              f"reachable positions/s; memory {d['peak_mb'] / max(f['peak_mb'], 0.1):.1f}x less", flush=True)


if __name__ == "__main__":
    main()
