"""Benchmark the strong BohnDuell table: positions per second in memory and on disk, one and two threads.

First, before and after (:mod:`side_by_side`: the earlier revision, numba kernels, beside this
checkout, C kernels, each in a fresh process with empty caches): the build of the table of
stock ``--stock`` (16) on one and on two threads, positions per wall second of each, the peak
memory, and whether the two revisions' tables are identical (SHA-256).

Then each measurement runs in a fresh subprocess (its peak resident memory is its own), after
loading the compiled kernels:

- ``memory``: :func:`dicemath.games.bohnduell.solver_dense.solve_dense`, one thread;
- ``store, 1 thread`` and ``store, 2 threads``:
  :func:`dicemath.games.bohnduell.strong_table.build_strong` into a temporary folder.

Printed per stock: positions, wall and CPU seconds, positions per wall second, peak resident
MB (for the store this counts the table's pages mapped in memory), and whether the values
are identical to the in-memory table's (SHA-256). Measured on the development machine (AMD
EPYC, two vCPUs): about 1.0e7 positions per wall second on two threads, the speed the build's
first-use estimate assumes (:data:`dicemath.games.bohnduell.strong_table.POSITIONS_PER_SECOND`).
Run::

    python benchmarks/bench_bohnduell_strong.py                 # before/after at 16, then stocks 16 and 18
    python benchmarks/bench_bohnduell_strong.py --stock 14 --stocks 20
"""

from __future__ import annotations

import argparse
import hashlib
import json
import platform
import resource
import subprocess
import sys
import tempfile
import time

import numpy as np
from side_by_side import compare

STORE = """
import hashlib, json, tempfile, time
import numpy as np
from dicemath.games.bohnduell.rules import Rules
from dicemath.games.bohnduell.strong_table import build_strong, open_strong
figures = {}
with tempfile.TemporaryDirectory() as warm:
    build_strong(Rules(stock=3), warm, workers=2, announce=False)        # load (or compile) the kernels
for threads in (1, 2):
    with tempfile.TemporaryDirectory() as folder:
        built = build_strong(Rules(stock=STOCK), folder, workers=threads, announce=False)
        values = np.asarray(open_strong(folder).values)
        figures[f"positions_per_s_{threads}_thread"] = built.positions / built.seconds
        figures[f"cpu_s_{threads}_thread"] = built.cpu_seconds
        figures["values_digest"] = int(hashlib.sha256(values.tobytes()).hexdigest()[:12], 16)
print(json.dumps(figures))
"""


def before_after(stock: int) -> None:
    """Print the store's build of ``stock`` on one and two threads, numba (before) beside C (after)."""
    both = compare(STORE.replace("STOCK", str(stock)), title=f"strong table, stock {stock}:")
    now, before = both.values()
    print(f"  values identical (SHA-256 of the table): {now['values_digest'] == before['values_digest']}\n")


def measure(mode: str, stock: int) -> dict:
    from dicemath.games.bohnduell.rules import Rules
    from dicemath.games.bohnduell.solver_dense import solve_dense
    from dicemath.games.bohnduell.strong_table import build_strong, open_strong

    with tempfile.TemporaryDirectory() as warm:
        build_strong(Rules(stock=3), warm, workers=2, announce=False)        # load the compiled kernels
    tic, cpu = time.perf_counter(), time.process_time()
    with tempfile.TemporaryDirectory() as folder:
        if mode == "memory":
            values = solve_dense(Rules(stock=stock)).values
        else:
            build_strong(Rules(stock=stock), folder, workers=int(mode[-1]), announce=False)
            values = np.asarray(open_strong(folder).values)
        seconds, cpu_seconds = time.perf_counter() - tic, time.process_time() - cpu
        sha = hashlib.sha256(values.tobytes()).hexdigest()
    return {"mode": mode, "stock": stock, "positions": int(values.size), "seconds": seconds,
            "cpu_seconds": cpu_seconds, "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "sha256": sha}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stock", type=int, default=16, help="the stock of the before/after build")
    parser.add_argument("--stocks", type=int, nargs="+", default=[16, 18])
    parser.add_argument("--one", nargs=2, metavar=("MODE", "STOCK"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure(args.one[0], int(args.one[1]))))
        return
    before_after(args.stock)
    print(f"machine: {platform.machine()} {platform.processor()}, Python {platform.python_version()}")
    print(f"{'stock':>5} {'mode':>16} {'positions':>14} {'wall s':>8} {'cpu s':>8} {'pos/s':>10} {'peak MB':>8}  same")
    for stock in args.stocks:
        reference = None
        for mode in ("memory", "store, 1 thread", "store, 2 threads"):
            key = "memory" if mode == "memory" else f"store{mode[7]}"
            output = subprocess.run([sys.executable, __file__, "--one", key, str(stock)], capture_output=True,
                                    text=True, check=True).stdout
            r = json.loads(output.strip().splitlines()[-1])
            reference = reference or r["sha256"]
            print(f"{stock:>5} {mode:>16} {r['positions']:>14,} {r['seconds']:>8.2f} {r['cpu_seconds']:>8.2f} "
                  f"{r['positions'] / r['seconds']:>10.3g} {r['peak_mb']:>8.0f}  {r['sha256'] == reference}",
                  flush=True)


if __name__ == "__main__":
    main()
