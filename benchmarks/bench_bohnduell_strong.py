"""Benchmark the strong BohnDuell table: positions per second in memory and on disk, one and two threads.

Each measurement runs in a fresh subprocess (its peak resident memory is its own), after
loading the compiled kernels:

- ``memory``: :func:`dicemath.games.bohnduell.solver_dense.solve_dense`, one thread;
- ``store, 1 thread`` and ``store, 2 threads``:
  :func:`dicemath.games.bohnduell.strong_table.build_strong` into a temporary folder.

Printed per stock: positions, wall and CPU seconds, positions per wall second, peak resident
MB (for the store this counts the table's pages mapped in memory), and whether the values
are identical to the in-memory table's (SHA-256). Run::

    python benchmarks/bench_bohnduell_strong.py                 # stocks 16 and 18
    python benchmarks/bench_bohnduell_strong.py --stocks 20
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
    parser.add_argument("--stocks", type=int, nargs="+", default=[16, 18])
    parser.add_argument("--one", nargs=2, metavar=("MODE", "STOCK"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure(args.one[0], int(args.one[1]))))
        return
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
