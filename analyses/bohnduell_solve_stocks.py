"""Solve the 4-cup BohnDuell game from the start for every stock, both capture rules.

Writes ``dicemath/studies/data/bohnduell_solved_stocks.json`` (rewritten after every solved
stock, so an interrupted run keeps what it finished) and, from it, the first moves the
package ships (``dicemath/games/bohnduell/data/solved_starts.json``, the chain's ``solved
start`` source). Each stock is solved in a fresh subprocess by the dense solver
(:func:`dicemath.games.bohnduell.solver_dense.solve_dense`) so its peak memory
(``ru_maxrss``) is its own. A stock is skipped when the previous one took so long that this
one would exceed the time limit (positions grow ~1.5x per stock).

Stocks beyond memory are read off a strong table built on disk (``dicemath bohnduell table
build --stock 30``): ``--strong FOLDER --min-stock 27 --max-stock 30``. A table of stock S
holds every smaller game; the build's own cost is recorded for S, and for the smaller
stocks read off it the time its positions would take at the build's rate, labelled
``solve_seconds_estimated``.

Usage::

    python analyses/bohnduell_solve_stocks.py --max-stock 20 --captures last every
    python analyses/bohnduell_solve_stocks.py --one 12 --capture last     # one stock, JSON out
    python analyses/bohnduell_solve_stocks.py --strong ~/.cache/dicemath/bohnduell-strong/cups4-stock30-last \
        --min-stock 27 --max-stock 30
"""

from __future__ import annotations

import argparse
import json
import platform
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "dicemath" / "studies" / "data" / "bohnduell_solved_stocks.json"
STARTS = ROOT / "dicemath" / "games" / "bohnduell" / "data" / "solved_starts.json"


def solve_one(stock: int, capture: str, cups: int = 4, overfill_upto: int = 16, reach_upto: int = 23) -> dict:
    from dicemath.games.bohnduell.rules import Rules
    from dicemath.games.bohnduell.solver_dense import solve_dense
    from dicemath.games.bohnduell.state import initial_state

    solve_dense(Rules(cups=cups, stock=1, capture=capture))            # load the compiled kernel before timing
    start, cpu = time.perf_counter(), time.process_time()
    table = solve_dense(Rules(cups=cups, stock=stock, capture=capture))
    solve_seconds = time.perf_counter() - start
    solve_cpu = time.process_time() - cpu
    solve_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    position = initial_state(table.rules_for(stock))
    moves = table.move_values(position)
    value = table.position_value(position)
    tic = time.perf_counter()
    reachable = table.reachable_count() if stock <= reach_upto else None   # as long as the solve
    reach_seconds = time.perf_counter() - tic
    row = {
        "stock": stock, "capture": capture, "cups": cups,
        "value": value,
        "first_moves": {str(m): v for m, v in moves.items()},
        "optimal_first_moves": [str(m) for m, v in moves.items() if v == value],
        "table_positions": table.positions,
        **({"reachable_positions": reachable} if reachable is not None else {}),
        "solve_seconds": round(solve_seconds, 3),
        "solve_cpu_seconds": round(solve_cpu, 3),
        "sweep_seconds": round(table.seconds, 3),
        "reach_seconds": round(reach_seconds, 3),
        "table_megabytes": round(table.nbytes / 1e6, 1),
    }
    if stock <= overfill_upto:
        row["overfill"] = table.overfill_stats()
    row["peak_rss_megabytes"] = round(solve_peak, 1)       # solve only
    row["peak_rss_with_scans_megabytes"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    return row


def strong_rows(folder: Path, stocks: range) -> list[dict]:
    """The rows of ``stocks`` read off the strong table in ``folder`` (see the module docstring)."""
    from dicemath.core.table_store import TableStore
    from dicemath.games.bohnduell.solver_dense import side_closure
    from dicemath.games.bohnduell.state import initial_state
    from dicemath.games.bohnduell.strong_table import KIND, open_strong

    table = open_strong(folder)
    manifest = TableStore.open(folder, KIND).manifest
    runs = manifest.runs
    wall = manifest.wall_seconds
    rate = table.positions / wall
    rows = []
    for stock in stocks:
        position = initial_state(table.rules_for(stock))
        moves = table.move_values(position)
        value = table.position_value(position)
        positions = len(side_closure(table.cups, stock)) ** 2
        row = {"stock": stock, "capture": table.capture, "cups": table.cups, "value": value,
               "first_moves": {str(m): v for m, v in moves.items()},
               "optimal_first_moves": [str(m) for m, v in moves.items() if v == value],
               "table_positions": positions, "solved_by": f"strong table of stock {table.stock}"}
        if stock == table.stock:
            row.update({"solve_seconds": round(wall, 3),
                        "solve_cpu_seconds": round(sum(r.get("cpu_seconds", 0.0) for r in runs), 3),
                        "table_megabytes": round(positions / 1e6, 1),
                        "peak_rss_megabytes": max(r.get("peak_rss_megabytes", 0.0) for r in runs),
                        "positions_per_second": round(rate), "build_runs": runs})
        else:
            row["solve_seconds_estimated"] = round(positions / rate, 1)
        rows.append(row)
    return rows


def standard_game_row(rate: float, cups: int = 4, stock: int = 40) -> dict:
    """What the strong table of the standard game would take: its positions counted exactly
    (reachable sides squared), the time at ``rate`` positions per second (an estimate)."""
    from dicemath.games.bohnduell.solver_dense import side_closure

    positions = len(side_closure(cups, stock)) ** 2
    return {"stock": stock, "cups": cups, "capture": "last", "proven": False, "table_positions": positions,
            "disk_gigabytes": round(positions / 1e9, 1), "build_hours_estimated": round(positions / rate / 3600, 1),
            "rate_positions_per_second": round(rate)}


def write_starts(data: dict) -> None:
    """Write the shipped first moves (``solved_starts.json``) from the studies' results."""
    starts = {f"cups{rows[0]['cups']}-{capture}": {
        str(row["stock"]): {"value": row["value"], "first_moves": row["first_moves"],
                            "solved_by": row.get("solved_by", "dense table in memory")}
        for row in rows} for capture, rows in data["results"].items() if rows}
    for row in data.get("proofs", []):              # proven starts whose every first move is exact
        if row["proven"] and row["first_moves"] is not None:
            starts.setdefault(f"cups{row['cups']}-{row['capture']}", {})[str(row["stock"])] = {
                "value": row["value"], "first_moves": row["first_moves"], "solved_by": row["solved_by"],
                "certificate_sha256": row["certificate_sha256"], "certificate_command": row["certificate_command"]}
    STARTS.parent.mkdir(parents=True, exist_ok=True)
    STARTS.write_text(json.dumps({
        "description": "BohnDuell starts solved exactly: per variant and stock, the value of each first move "
                       "(final pot difference A - B under best play, A moving first, BOHN-7). Written by "
                       "analyses/bohnduell_solve_stocks.py from dicemath/studies/data/bohnduell_solved_stocks.json.",
        "starts": starts}, indent=1) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--min-stock", type=int, default=1)
    parser.add_argument("--max-stock", type=int, default=20)
    parser.add_argument("--captures", nargs="+", default=["last", "every"])
    parser.add_argument("--limit", type=float, default=600.0, help="seconds allowed per stock")
    parser.add_argument("--one", type=int, help="solve only this stock and print its JSON row")
    parser.add_argument("--capture", default="last")
    parser.add_argument("--strong", type=Path, help="read the stocks off the strong table in this folder")
    args = parser.parse_args()
    if args.one is not None:
        print(json.dumps(solve_one(args.one, args.capture)))
        return
    data = json.loads(OUT.read_text()) if OUT.exists() else {}
    this_run = " ".join(sys.argv[1:]).replace(str(Path.home()), "~")
    data.update({
        "description": "4-cup BohnDuell solved from the start by the dense solver (reachable "
                       "sides); value = final pot difference A - B under best play (A moves "
                       "first, BOHN-7); first_moves = A's value after each first move; "
                       "table_positions = size of the dense table, reachable_positions = "
                       "positions reachable from the start; times are wall-clock on a "
                       "shared 2-core machine (cpu = process time).",
        "produced_by": "python analyses/bohnduell_solve_stocks.py (runs: "
                       + ", ".join(sorted(set(data.get("runs", [])) | {this_run})) + ")",
        "machine": f"{platform.processor() or platform.machine()}, {platform.python_version()}, one thread",
    })
    data["runs"] = sorted(set(data.get("runs", [])) | {this_run})
    results = data.setdefault("results", {})
    if args.strong is not None:
        found = strong_rows(args.strong, range(args.min_stock, args.max_stock + 1))
        rows = {row["stock"]: row for row in results.get(found[0]["capture"], [])}
        rows.update({row["stock"]: row for row in found})
        results[found[0]["capture"]] = [rows[s] for s in sorted(rows)]
        built = max((row for row in found if "positions_per_second" in row), key=lambda row: row["stock"])
        data["standard_game"] = standard_game_row(built["positions_per_second"])
        OUT.write_text(json.dumps(data, indent=1) + "\n")
        write_starts(data)
        for row in found:
            print(f"stock {row['stock']}: value {row['value']}, first moves {row['first_moves']}", flush=True)
        return
    for capture in args.captures:
        rows = {row["stock"]: row for row in results.get(capture, [])}
        last_seconds = 0.0
        for stock in range(args.min_stock, args.max_stock + 1):
            if last_seconds * 1.8 > args.limit:
                print(f"skip {capture} {stock}: predicted over {args.limit} s", flush=True)
                break
            tic = time.perf_counter()
            output = subprocess.run([sys.executable, __file__, "--one", str(stock), "--capture", capture],
                                    capture_output=True, text=True, check=True).stdout
            row = json.loads(output.strip().splitlines()[-1])
            last_seconds = row["solve_seconds"]
            rows[stock] = row
            results[capture] = [rows[s] for s in sorted(rows)]
            OUT.parent.mkdir(parents=True, exist_ok=True)
            OUT.write_text(json.dumps(data, indent=1) + "\n")
            write_starts(data)
            print(f"{capture} stock {stock}: value {row['value']}, best {row['optimal_first_moves']}, "
                  f"{row['table_positions']} positions ({row.get('reachable_positions', '?')} reachable), "
                  f"{row['solve_seconds']} s, peak {row['peak_rss_megabytes']} MB "
                  f"(total {time.perf_counter() - tic:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
