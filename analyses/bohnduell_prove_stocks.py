"""Prove the values of BohnDuell starts beyond the strong tables, and check each certificate.

For each stock, :func:`dicemath.games.bohnduell.proof.prove` searches the start over the
strong table of ``--table-stock`` beans (``dicemath bohnduell table build --stock 30``), the
certificate is written to ``--folder`` (not committed: it is rebuilt by the command in the
record), and :func:`dicemath.games.bohnduell.proof_check.check`, which shares no code with
the search, replays it in a fresh process (the search runs in one of its own too). The
record of each stock (value, first moves with their proven intervals, nodes, seconds, the
certificate's rows, bytes and SHA-256, the ``search_command`` that rebuilds it and the
``certificate_command`` that checks it) goes into
``dicemath/studies/data/bohnduell_solved_stocks.json`` under ``proofs``; a start whose every
first move is proven exactly is shipped (``solved_starts.json``, rewritten by
``analyses/bohnduell_solve_stocks.py``'s :func:`write_starts`).

Usage::

    python analyses/bohnduell_prove_stocks.py --stocks 31 32 33 34 35 36 --table-stock 30 --folder /tmp/proofs
    python analyses/bohnduell_prove_stocks.py --stocks 40 --seconds 4000 --all-first-moves
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

from bohnduell_solve_stocks import OUT, write_starts

from dicemath.games.bohnduell.proof import prove
from dicemath.games.bohnduell.rules import Rules
from dicemath.games.bohnduell.strong_table import endgame_table


def prove_one(stock: int, table_stock: int, folder: Path, seconds: float | None, all_first_moves: bool) -> dict:
    """Prove one start and write its certificate (run in a process of its own: the search's
    memory is returned when it ends)."""
    rules = Rules(stock=stock)
    table = endgame_table(rules, table_stock)
    proven = prove(rules, table, seconds=seconds, all_first_moves=all_first_moves)
    path = proven.write(folder / f"bohnduell-cups4-stock{stock}-last-table{table_stock}.proof")
    search = (f"dicemath bohnduell proof search --stock {stock} --table-stock {table_stock}"
              + (" --all-first-moves" if all_first_moves else "") + f" --out {path.name}")
    exact = {str(m): a for m, (a, b) in proven.first_moves.items() if a == b}
    return {"stock": stock, "capture": "last", "cups": 4, "proven": proven.complete,
            "value": proven.value, "lower": proven.lower, "upper": proven.upper,
            "first_moves": exact if len(exact) == len(proven.first_moves) else None,
            "first_move_bounds": {str(m): list(bounds) for m, bounds in proven.first_moves.items()},
            "optimal_first_moves": [str(m) for m in proven.best_moves],
            "solved_by": f"proof over the strong table of stock {table_stock}", "table_stock": table_stock,
            "nodes": proven.nodes, "positions": proven.positions, "seconds": round(proven.seconds, 1),
            "exhausted": proven.exhausted, "peak_rss_megabytes": round(
                resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
            "certificate_rows": proven.certificate.header.rows, "certificate_bytes": path.stat().st_size,
            "certificate_sha256": proven.certificate.digest, "certificate": str(path), "search_command": search,
            "certificate_command": f"dicemath bohnduell proof check {path.name}"}


def check_one(row: dict) -> dict:
    """Replay the certificate of ``row`` with ``dicemath bohnduell proof check`` in a fresh process."""
    tic = time.perf_counter()
    checked = json.loads(subprocess.run(["dicemath", "bohnduell", "proof", "check", row.pop("certificate"), "--json"],
                                        capture_output=True, text=True, check=True).stdout)
    return {**row, "checked": (checked["lower"], checked["upper"], checked["certificate_sha256"])
            == (row["lower"], row["upper"], row["certificate_sha256"]),
            "check_seconds": round(time.perf_counter() - tic, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stocks", type=int, nargs="+", required=True)
    parser.add_argument("--table-stock", type=int, default=30)
    parser.add_argument("--folder", type=Path, default=Path("proofs"))
    parser.add_argument("--seconds", type=float, default=None, help="search budget per stock")
    parser.add_argument("--all-first-moves", action="store_true")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)    # prove one stock, print its row
    args = parser.parse_args()
    args.folder.mkdir(parents=True, exist_ok=True)
    if args.one:
        print(json.dumps(prove_one(args.stocks[0], args.table_stock, args.folder, args.seconds,
                                   args.all_first_moves)))
        return
    for stock in args.stocks:
        output = subprocess.run([sys.executable, __file__, "--one", "--stocks", str(stock), "--table-stock",
                                 str(args.table_stock), "--folder", str(args.folder)]
                                + (["--seconds", str(args.seconds)] if args.seconds else [])
                                + (["--all-first-moves"] if args.all_first_moves else []),
                                capture_output=True, text=True, check=True).stdout
        row = check_one(json.loads(output.strip().splitlines()[-1]))
        data = json.loads(OUT.read_text())
        proofs = {r["stock"]: r for r in data.get("proofs", [])}
        proofs[stock] = row
        data["proofs"] = [proofs[s] for s in sorted(proofs)]
        if stock == data.get("standard_game", {}).get("stock"):
            data["standard_game"].update({key: row[key] for key in (
                "proven", "value", "lower", "upper", "first_move_bounds", "optimal_first_moves", "solved_by",
                "certificate_sha256", "search_command", "certificate_command")})
        OUT.write_text(json.dumps(data, indent=1) + "\n")
        write_starts(data)
        print(json.dumps(row), flush=True)
        if not row["checked"]:
            sys.exit(f"the certificate of stock {stock} did not check")


if __name__ == "__main__":
    main()
