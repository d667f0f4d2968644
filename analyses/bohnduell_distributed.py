"""BohnDuell's strong table beyond one machine: the same bits on a cluster, and what stock 40 would cost.

1. **Bit for bit.** For each stock, the table solved in memory (one thread), built on the
   table store by local threads, and built by a ``dask.distributed`` local cluster of
   ``--processes`` worker processes sharing the folder: the SHA-256 of the values of each,
   their seconds, and how many workers solved parts.
2. **Cost model.** Measured: the build's positions per second on one thread and on two
   (``--rate-stocks``), and the values a worker would fetch from the others on a cluster
   sharing nothing (:func:`dicemath.games.bohnduell.strong_cost.remote_reads`, by stock and
   number of machines). Computed exactly: the positions of stock 40. Extrapolated: core
   hours, the machines whose memory holds their share of the table, and the bytes moved.

Writes ``dicemath/studies/data/bohnduell_distributed.json``.

Usage::

    python analyses/bohnduell_distributed.py --stocks 10 12 14 16 18 20 --processes 3
"""

from __future__ import annotations

import argparse
import hashlib
import json
import platform
import tempfile
import time
from pathlib import Path

import numpy as np

from dicemath.games.bohnduell.rules import Rules
from dicemath.games.bohnduell.solver_dense import side_closure, solve_dense
from dicemath.games.bohnduell.strong_cost import remote_reads
from dicemath.games.bohnduell.strong_table import build_strong, open_strong

DATA = Path(__file__).resolve().parent.parent / "dicemath" / "studies" / "data"
OUT = DATA / "bohnduell_distributed.json"
SOLVED = DATA / "bohnduell_solved_stocks.json"


def digest(values: np.ndarray) -> str:
    """SHA-256 of a table's values, read in slices."""
    sha = hashlib.sha256()
    for start in range(0, values.size, 1 << 26):
        sha.update(np.ascontiguousarray(values[start:start + (1 << 26)]).tobytes())
    return sha.hexdigest()


def solved_parts_of(folder: str) -> int:
    """In a worker process: 1 when it solved parts of the table in ``folder``."""
    from dicemath.games.bohnduell.strong_table import building_here

    return int(folder in building_here())


def same_bits(stocks: list[int], processes: int) -> list[dict]:
    """Part 1 of the module docstring."""
    from distributed import Client, LocalCluster

    rows = []
    with LocalCluster(n_workers=processes, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster) as client:
            for stock in stocks:
                rules = Rules(stock=stock)
                tic = time.perf_counter()
                memory = digest(solve_dense(rules).values)
                memory_seconds = time.perf_counter() - tic
                with tempfile.TemporaryDirectory() as threads_folder, tempfile.TemporaryDirectory() as cluster_folder:
                    threads = build_strong(rules, threads_folder, workers=2, announce=False)
                    threaded = digest(np.asarray(open_strong(threads_folder).values))
                    spread = build_strong(rules, cluster_folder, scheduler=client, parts=processes, announce=False)
                    clustered = digest(np.asarray(open_strong(cluster_folder).values))
                    active = sum(client.run(solved_parts_of, str(Path(cluster_folder))).values())
                rows.append({"stock": stock, "positions": threads.positions, "sha256_memory": memory,
                             "sha256_threads": threaded, "sha256_cluster": clustered,
                             "identical": memory == threaded == clustered, "seconds_memory": round(memory_seconds, 2),
                             "seconds_threads": round(threads.seconds, 2), "seconds_cluster": round(spread.seconds, 2),
                             "cluster_workers": processes, "workers_that_solved_parts": active})
                print(rows[-1], flush=True)
    return rows


def rates(stocks: list[int]) -> list[dict]:
    """The build's positions per second on one and two threads."""
    rows = []
    for stock in stocks:
        for threads in (1, 2):
            with tempfile.TemporaryDirectory() as folder:
                built = build_strong(Rules(stock=stock), folder, workers=threads, announce=False)
            rows.append({"stock": stock, "threads": threads, "positions": built.positions,
                         "seconds": round(built.seconds, 2), "cpu_seconds": round(built.cpu_seconds, 2),
                         "positions_per_second": round(built.positions / built.seconds)})
            print(rows[-1], flush=True)
    return rows


def network(stocks: list[int], machines: list[int]) -> list[dict]:
    """The values each machine would fetch, by stock and number of machines."""
    rows = []
    for stock in stocks:
        for count in machines:
            counted = remote_reads(Rules(stock=stock), count)
            rows.append({"stock": stock, "machines": count, **counted,
                         "bytes_moved_per_position": round(counted["distinct_remote"] / counted["positions"], 4)})
            print(rows[-1], flush=True)
    return rows


def sizing(rate_rows: list[dict], network_rows: list[dict], machines: int, cores: int, memory_gb: int) -> dict:
    """Extrapolate to stock 40 (see the module docstring)."""
    positions = len(side_closure(4, 40)) ** 2
    one_thread = max((r for r in rate_rows if r["threads"] == 1), key=lambda r: r["stock"])
    per_core, at_stock = one_thread["positions_per_second"], one_thread["stock"]
    built = [r for r in json.loads(SOLVED.read_text())["results"]["last"] if r.get("solve_cpu_seconds")
             and r["stock"] > at_stock and "positions_per_second" in r]
    if built:                                   # the largest table built: positions per CPU second
        largest = max(built, key=lambda r: r["stock"])
        per_core, at_stock = round(largest["table_positions"] / largest["solve_cpu_seconds"]), largest["stock"]
    largest = max(r["stock"] for r in network_rows)
    moved = max(r["bytes_moved_per_position"] for r in network_rows if r["stock"] == largest)
    return {"stock": 40, "positions": positions, "table_gigabytes": round(positions / 1e9, 1),
            "rate_per_core_measured": per_core, "rate_measured_at_stock": at_stock,
            "core_hours_estimated": round(positions / per_core / 3600, 1),
            "machines": machines, "cores_per_machine": cores, "memory_gigabytes_per_machine": memory_gb,
            "table_share_gigabytes_per_machine": round(positions / 1e9 / machines, 1),
            "wall_hours_estimated_if_cores_scale": round(positions / per_core / 3600 / (machines * cores), 2),
            "bytes_moved_per_position_measured": moved, "bytes_moved_measured_at_stock": largest,
            "network_terabytes_estimated": round(positions * moved / 1e12, 2),
            "assumptions": "the rate per core is the largest table's positions per CPU second (it falls as the "
                           "stock grows); cores scale linearly (this 2-vCPU machine's two threads gave about 1.7x, "
                           "see rates); the bytes moved per position stay as measured at the largest stock "
                           "counted (they grow with the number of machines)."}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stocks", type=int, nargs="+", default=[10, 12, 14, 16, 18, 20])
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--rate-stocks", type=int, nargs="+", default=[18, 20])
    parser.add_argument("--network-stocks", type=int, nargs="+", default=[10, 12, 14, 16])
    parser.add_argument("--machines", type=int, nargs="+", default=[2, 4, 8, 16])
    parser.add_argument("--only", nargs="+", choices=["same_bits", "rates", "network"],
                        help="run only these parts, keeping the others from the file")
    args = parser.parse_args()
    kept = json.loads(OUT.read_text()) if OUT.exists() and args.only else {}
    run = set(args.only or ["same_bits", "rates", "network"])
    identical = same_bits(args.stocks, args.processes) if "same_bits" in run else kept["same_bits"]
    measured = rates(args.rate_stocks) if "rates" in run else kept["rates"]
    moved = network(args.network_stocks, args.machines) if "network" in run else kept["network"]
    OUT.write_text(json.dumps({
        "description": "BohnDuell's strong table (4 cups, capture last) in memory, on local threads and on a "
                       "dask.distributed local cluster of worker processes: SHA-256 of the values and seconds; "
                       "the build's measured rates; the values a machine of a shared-nothing cluster would fetch "
                       "from the others (one byte each, distinct values summed over the machines); and the "
                       "extrapolated cost of the strong table of stock 40.",
        "produced_by": "python analyses/bohnduell_distributed.py " + " ".join(
            ["--stocks", *map(str, args.stocks), "--processes", str(args.processes), "--rate-stocks",
             *map(str, args.rate_stocks), "--network-stocks", *map(str, args.network_stocks), "--machines",
             *map(str, args.machines)]) + (f" (this run: --only {' '.join(args.only)})" if args.only else ""),
        "machine": f"{platform.machine()}, Python {platform.python_version()}, 2 vCPUs",
        "same_bits": identical, "rates": measured, "network": moved,
        "stock_40": sizing(measured, moved, machines=16, cores=16, memory_gb=64)}, indent=1) + "\n")


if __name__ == "__main__":
    main()
