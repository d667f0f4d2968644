"""Record BohnDuell proofs reproduced in one command, with the machine, the times and the peak memory.

For each ``STOCK:TABLE[:CAPTURE]`` (capture ``last`` by default, BOHN-4), ``dicemath bohnduell
proof reproduce --stock STOCK --table-stock TABLE --capture CAPTURE --json`` runs in a fresh
process with an empty cache of its own (the strong table is built from nothing; the
certificate goes to ``--folder``, not committed), and its figures
become the game's row of ``dicemath/games/bohnduell/data/proof_records.json`` (``proofs``),
the committed record that the command compares a later reproduction with
(:func:`dicemath.games.bohnduell.proof_record.committed_proof`). A row records the value, the
first moves' bounds, the certificate's SHA-256, rows and bytes, each step's seconds and peak
memory, the machine and the command.

Usage::

    python analyses/bohnduell_reproduce_proofs.py 10:5 20:14 40:24 40:24:every --folder proofs
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

RECORD = Path(__file__).resolve().parent.parent / "dicemath" / "games" / "bohnduell" / "data" / "proof_records.json"
"""The committed record the rows go to."""

KEPT = ("cups", "stock", "capture", "table_stock", "value", "lower", "upper", "certificate_sha256", "certificate_rows",
        "certificate_bytes", "checked", "table_positions", "table_bytes", "table_seconds", "proof_seconds",
        "check_seconds", "table_peak_megabytes", "proof_peak_megabytes", "check_peak_megabytes", "nodes", "positions",
        "replaced", "machine")
"""The fields of the command's answer a row keeps (the paths are this run's, not kept)."""


def reproduce(stock: int, table_stock: int, capture: str, folder: Path) -> dict:
    """One game's row: the command run in a fresh process with an empty cache."""
    command = ["dicemath", "bohnduell", "proof", "reproduce", "--stock", str(stock), "--table-stock", str(table_stock)]
    if capture != "last":
        command += ["--capture", capture]
    with tempfile.TemporaryDirectory() as cache:
        done = subprocess.run([*command, "--folder", str(folder), "--json"], capture_output=True, text=True,
                              env={**os.environ, "DICEMATH_CACHE_DIR": cache})
    if done.returncode not in (0, 1):
        sys.exit(done.stderr)
    answer = json.loads(done.stdout)
    return {**{key: answer[key] for key in KEPT}, "first_move_bounds": answer["first_moves"],
            "command": " ".join(command)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="+", metavar="STOCK:TABLE[:CAPTURE]",
                        help="a game's stock, its proof table's stock and its capture rule (default last)")
    parser.add_argument("--folder", type=Path, default=Path("proofs"), help="where the certificates go")
    args = parser.parse_args()
    args.folder.mkdir(parents=True, exist_ok=True)
    data = json.loads(RECORD.read_text())
    for game in args.games:
        stock, table_stock, capture = (game + ":last").split(":")[:3]
        row = reproduce(int(stock), int(table_stock), capture, args.folder)
        rows = {(r["cups"], r["stock"], r["capture"], r["table_stock"]): r for r in data["proofs"]}
        rows[(row["cups"], row["stock"], row["capture"], row["table_stock"])] = row
        data["proofs"] = [rows[key] for key in sorted(rows)]
        RECORD.write_text(json.dumps(data, indent=1) + "\n")
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
