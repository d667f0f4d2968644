"""Benchmark the exact BohnDuell solvers: the C kernels against the earlier numba ones, and the
dense solver against the memoised one: positions solved per second, cold start, peak memory.

First, before and after (:mod:`side_by_side`: the earlier revision, numba, and this checkout,
C, each in a fresh process with empty caches):

- cold start: the first answer of ``dicemath bohnduell solve --stock 6 --json`` in a new
  process (numba compiled its kernels there; the C kernels were compiled at install);
- :func:`~dicemath.games.bohnduell.solver_dense.solve_dense` of stock ``--stock`` (16) after a
  first small solve: CPU seconds and positions per CPU second, the table's digest (equal in
  both), the process's peak memory.

Then the dense solver against the baseline, each measurement in a fresh subprocess so its peak
resident memory (``ru_maxrss``, minus the same process's resident size just before solving) is
its own:

- baseline: :func:`dicemath.games.bohnduell.solver_dict.solve_from_start` (memoised dict,
  explicit stack; it solves the positions reachable from the start);
- fast: :func:`dicemath.games.bohnduell.solver_dense.solve_dense` (dense int8 table of
  every pair of reachable sides, C sweep; timed after a first small solve).

Positions per second are given for the positions each solver actually solves, and for
the fast solver also per reachable position (the baseline's unit), so the speed-up is
like for like. Run::

    python benchmarks/bench_bohnduell.py            # before/after at stock 16, then stocks 10 and 12
    python benchmarks/bench_bohnduell.py --stock 14 --stocks 10
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time

from side_by_side import compare

COLD_START = """
import contextlib, io, json, time
tic = time.perf_counter()
from dicemath.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    main(["bohnduell", "solve", "--stock", "6", "--json"])
print(json.dumps({"first_answer_s": time.perf_counter() - tic}))
"""

DENSE_SOLVE = """
import hashlib, json, time
from dicemath.games.bohnduell.rules import Rules
from dicemath.games.bohnduell.solver_dense import solve_dense
tic = time.perf_counter()
solve_dense(Rules(stock=2))
first = time.perf_counter() - tic
cpu = time.process_time()
table = solve_dense(Rules(stock=STOCK))
cpu = time.process_time() - cpu
digest = int(hashlib.sha256(table.values.tobytes()).hexdigest()[:12], 16)
print(json.dumps({"first_small_solve_s": first, "solve_cpu_s": cpu, "positions": table.positions,
                  "positions_per_cpu_s": table.positions / cpu, "values_digest": digest}))
"""


def before_after(stock: int) -> None:
    """Print the cold start and the dense solve of ``stock``, numba (before) beside C (after)."""
    compare(COLD_START, title="dicemath bohnduell solve --stock 6 --json, first answer:")
    both = compare(DENSE_SOLVE.replace("STOCK", str(stock)), title=f"solve_dense, stock {stock}:")
    now, before = both.values()
    print(f"  values identical (SHA-256 of the table): {now['values_digest'] == before['values_digest']}\n")


def _rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 2**20


def measure(solver: str, stock: int) -> dict:
    from dicemath.games.bohnduell.rules import Rules
    from dicemath.games.bohnduell.state import initial_state
    from dicemath.games.bohnduell.solver_dense import solve_dense
    from dicemath.games.bohnduell.solver_dict import solve_from_start

    if solver == "dense":
        solve_dense(Rules(stock=2))                       # load the kernel
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
    parser.add_argument("--stock", type=int, default=16, help="the stock of the before/after solve")
    parser.add_argument("--stocks", type=int, nargs="+", default=[10, 12])
    parser.add_argument("--one", nargs=2)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure(args.one[0], int(args.one[1]))))
        return
    before_after(args.stock)
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
