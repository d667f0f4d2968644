"""Benchmark BohnDuell's certificate checkers side by side: the compiled one and the Python replay.

Makes a certificate: :func:`dicemath.games.bohnduell.proof.prove` of the start of ``--stock``
beans (4 cups, capture ``--capture``, every first move) over the dense table of ``--table``
beans, solved in memory first (:func:`~dicemath.games.bohnduell.solver_dense.solve_dense`).
Then checks it, in this process:

- ``compiled``: :func:`~dicemath.games.bohnduell.proof_check.check_certificate` with
  ``engine="compiled"``, every row and the claims;
- ``python``: the same rows replayed by the Python route (its rows indexed in dicts, then
  each row verified in file order) until ``--python-seconds`` run out; its rows a second are
  those of the rows it verified, the whole check's time extrapolated from them.

Prints rows, wall and CPU seconds and rows a second (by the wall clock and by CPU time) of both,
and the load average when each ran: on a shared machine the CPU figures are the comparable ones.
Run::

    python benchmarks/bench_bohnduell_check.py [--stock 28] [--table 18] [--capture last]
        [--python-seconds 60]
"""

from __future__ import annotations

import argparse
import os
import platform
import time

from dicemath.games.bohnduell.proof import prove
from dicemath.games.bohnduell.proof_check import _Replay, check_certificate
from dicemath.games.bohnduell.rules import Rules
from dicemath.games.bohnduell.solver_dense import solve_dense


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stock", type=int, default=28)
    parser.add_argument("--table", type=int, default=18)
    parser.add_argument("--capture", default="last", choices=("last", "every"))
    parser.add_argument("--python-seconds", type=float, default=60.0)
    args = parser.parse_args()
    rules = Rules(stock=args.stock, capture=args.capture)
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores; load average "
          f"{os.getloadavg()[0]:.2f} at the start")
    began = time.perf_counter()
    table = solve_dense(Rules(stock=args.table, capture=args.capture))
    print(f"table of {args.table} beans: {table.positions:,} positions in {time.perf_counter() - began:.1f} s")
    proven = prove(rules, table, all_first_moves=True)
    certificate = proven.certificate
    rows = certificate.header.rows
    print(f"proof of {args.stock} beans over it: value {proven.value}, {rows:,} rows in {proven.seconds:.1f} s")

    cpu = time.process_time()
    compiled = check_certificate(certificate, table, engine="compiled")
    compiled_cpu = time.process_time() - cpu
    compiled_load = os.getloadavg()[0]

    began = time.perf_counter()
    replay, body = _Replay.indexed(certificate, table)
    indexed = time.perf_counter() - began
    began, cpu = time.perf_counter(), time.process_time()
    done = 0
    while done < rows and time.perf_counter() - began < args.python_seconds:
        for i in range(done, min(done + 1000, rows)):
            replay.verify_row(i, body[i])
        done = min(done + 1000, rows)
    verified = time.perf_counter() - began
    python_cpu = time.process_time() - cpu
    python_load = os.getloadavg()[0]
    whole = indexed + verified * rows / done

    print(f"\n{'engine':10s} {'rows':>12s} {'wall s':>8s} {'CPU s':>8s} {'rows/s wall':>12s} {'rows/s CPU':>12s} "
          f"{'load':>6s}")
    print(f"{'compiled':10s} {compiled.rows:12,d} {compiled.seconds:8.2f} {compiled_cpu:8.2f} "
          f"{compiled.rows / compiled.seconds:12,.0f} {compiled.rows / compiled_cpu:12,.0f} {compiled_load:6.2f}   "
          f"(every row and the claims: value {compiled.value})")
    print(f"{'python':10s} {done:12,d} {verified:8.2f} {python_cpu:8.2f} {done / verified:12,.0f} "
          f"{done / python_cpu:12,.0f} {python_load:6.2f}   (the rows indexed first in "
          f"{indexed:.1f} s; the whole check about {whole:,.0f} s wall)")
    print(f"compiled / python: {compiled.rows / compiled.seconds / (done / verified):,.0f} times the rows a second "
          f"(wall clock, the indexing left out)")


if __name__ == "__main__":
    main()
