"""dicemath's backgammon advice against GNU Backgammon's own decisions, at 0 and 2 ply.

Cube: :func:`dicemath.studies.backgammon_gnubg_agreement.compare_cube` on the recorded gnubg
1.07 decisions of 600 self-play positions (``tests/backgammon/data/gnubg_cube_decisions.json``).
Moves: :func:`~dicemath.studies.backgammon_gnubg_agreement.compare_top_play` against
``gnubg.find_best_move`` on ``--positions`` self-play positions. Writes
``dicemath/studies/data/gnubg_agreement.json`` (read by the report).

Usage::

    nice -n 10 python analyses/backgammon_gnubg_agreement.py --positions 600
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from dicemath.studies import DATA as STUDY_DATA
from dicemath.studies.backgammon_gnubg_agreement import CLASSES, compare_cube, compare_top_play

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "backgammon" / "data"
OUT = STUDY_DATA / "gnubg_agreement.json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=600)
    parser.add_argument("--plies", type=int, nargs="+", default=[0, 2])
    parser.add_argument("--parts", nargs="+", choices=("cube", "top_play"), default=["cube", "top_play"],
                        help="what to (re)compute; the other part is kept from the existing file")
    args = parser.parse_args()
    cases = json.loads((DATA / "gnubg_cube_decisions.json").read_text())["cases"]
    positions = json.loads((DATA / "selfplay_positions.json").read_text())["positions"][:args.positions]
    found = json.loads(OUT.read_text()) if OUT.exists() else {"cube": {}, "top_play": {}}
    found["classes"] = CLASSES
    for ply in args.plies:
        for part, compare, items in (("cube", compare_cube, cases), ("top_play", compare_top_play, positions)):
            if part in args.parts:
                started = time.time()
                found[part][str(ply)] = compare(items, ply)
                found[part][str(ply)]["seconds"] = time.time() - started
        print(f"ply {ply}: cube {found['cube'][str(ply)]['agreement']:.2%} "
              f"({found['cube'][str(ply)]['classes']}), top play "
              f"{len(found['top_play'][str(ply)]['different'])} different, "
              f"{len(found['top_play'][str(ply)].get('mixed_plies', []))} mixed plies; "
              f"load {os.getloadavg()[0]:.1f}", flush=True)
    OUT.write_text(json.dumps(found, indent=1) + "\n")


if __name__ == "__main__":
    main()
