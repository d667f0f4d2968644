"""Benchmark BohnDuell's proof search: the compiled search beside the Python one, stock by stock.

For each stock, :func:`dicemath.games.bohnduell.proof.prove` proves the start (4 cups, capture
``last``) over the dense table of ``--table`` beans a side, once with ``engine="compiled"`` and
once with ``engine="python"``, each in a fresh process with empty caches
(:func:`side_by_side.figures`: the table is solved in the process first). Prints, per stock and
engine: the value (or the bounds proven in the time allowed), positions expanded, positions in
the transposition table, entries replaced, seconds of the search, the process's peak resident
memory and the memory the search added (peak minus the resident memory before it) per position.
Run::

    python benchmarks/bench_bohnduell_proof.py [--stocks 20 22 24 26 28] [--table 14]
        [--seconds 240] [--python-seconds 150] [--python-stocks 20 22 24] [--all-first-moves]
        [--memory-mib 1024]

A search that runs out of its seconds reports the bounds proven so far (``exhausted``).
"""

from __future__ import annotations

import argparse
import os
import platform

from side_by_side import HERE, figures

SNIPPET = """
import json, time
from dicemath.games.bohnduell.proof import prove
from dicemath.games.bohnduell.rules import Rules
from dicemath.games.bohnduell.solver_dense import solve_dense

def resident():
    return next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmRSS:")) / 1024

table = solve_dense(Rules(stock={table}))
before = resident()
result = prove(Rules(stock={stock}), table, seconds={seconds}, all_first_moves={all_first_moves},
               engine={engine!r}, memory={memory})
print(json.dumps({{"before_mib": before, "lower": result.lower, "upper": result.upper, "nodes": result.nodes,
                  "positions": result.positions, "replaced": result.replaced, "search_s": result.seconds,
                  "exhausted": result.exhausted, "rows": result.certificate.header.rows,
                  "first_moves": {{str(m): list(b) for m, b in result.first_moves.items()}}}}))
"""


def measure(stock: int, engine: str, table: int, seconds: float, all_first_moves: bool, memory: int) -> dict:
    """The figures of one proof in a fresh process (see the module docstring)."""
    return figures(SNIPPET.format(stock=stock, engine=engine, table=table, seconds=seconds,
                                  all_first_moves=all_first_moves, memory=memory), HERE)


def line(stock: int, engine: str, f: dict) -> str:
    """One row of the printed table."""
    value = f"{f['lower']}" if f["lower"] == f["upper"] else f"{f['lower']}..{f['upper']}"
    added = (f["peak_rss_mib"] - f["before_mib"]) * 2 ** 20 / max(f["positions"], 1)
    return (f"{stock:>5} {engine:>8} {value:>8} {f['nodes']:>12,} {f['positions']:>12,} {f['replaced']:>10,} "
            f"{f['search_s']:>9.1f} {f['peak_rss_mib']:>9.0f} {added:>8.0f}  "
            f"{'exhausted' if f['exhausted'] else ''} {f['first_moves']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stocks", type=int, nargs="+", default=[20, 22, 24, 26, 28])
    parser.add_argument("--python-stocks", type=int, nargs="*", default=[20, 22, 24],
                        help="the stocks the Python search runs too")
    parser.add_argument("--table", type=int, default=14, help="the dense table's beans a side")
    parser.add_argument("--seconds", type=float, default=240.0, help="the compiled search's time limit")
    parser.add_argument("--python-seconds", type=float, default=150.0, help="the Python search's time limit")
    parser.add_argument("--all-first-moves", action="store_true", help="prove every first move's value too")
    parser.add_argument("--memory-mib", type=int, default=1024, help="the compiled search's table bound")
    args = parser.parse_args()
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, load %.1f %.1f %.1f; "
          % os.getloadavg() + f"table {args.table} beans, all first moves: {args.all_first_moves}")
    print(f"{'stock':>5} {'engine':>8} {'value':>8} {'nodes':>12} {'positions':>12} {'replaced':>10} "
          f"{'search s':>9} {'peak MiB':>9} {'B/pos':>8}")
    for stock in args.stocks:
        runs = [("compiled", args.seconds)] + ([("python", args.python_seconds)] if stock in args.python_stocks else [])
        for engine, seconds in runs:
            f = measure(stock, engine, args.table, seconds, args.all_first_moves, args.memory_mib << 20)
            print(line(stock, engine, f), flush=True)


if __name__ == "__main__":
    main()
