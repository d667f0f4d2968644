"""Regenerate ``data/gnubg_cube_decisions.json``: GNU Backgammon's own cube decisions of
self-play positions, from the gnubg program (1.07, Debian package ``gnubg``).

The ``gnubg`` Python package that dicemath evaluates with has no cube decision, so the
reference comes from the program's embedded Python (``gnubg -t -q -p script``): its
``cfevaluate(board, cubeinfo, evalcontext)`` returns (equity, no double, double/take,
double/pass, decision code, decision text), computed by GeneralCubeDecisionE and
FindCubeDecision, money play, Jacoby rule off, at 0 and 2 ply. Its 0-ply cubeless
probabilities (``evaluate``) are stored too, to separate the differences of the nets
(gnubg 1.07 vs the ``gnubg`` package 1.1.0a16) from those of the cube method.

Cube states: two in three positions with a centred cube, the others with a cube of 2
owned by the player on roll (a redouble decision).

Usage::

    python tests/backgammon/make_gnubg_cube_cases.py [--positions 600]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from gnubg_driver import run_script

DATA = Path(__file__).resolve().parent / "data"

_SCRIPT = r'''
import json
gnubg.command("set jacoby off")
cases = json.load(open(INPUT))
out = []
for case in cases:
    board = gnubg.positionfromid(case["position_id"])
    owner = {"centred": -1, "on_roll": 0, "opponent": 1}[case["cube_owner"]]
    info = gnubg.cubeinfo(case["cube_value"], owner, 0)
    info["jacoby"] = 0
    result = dict(case)
    result["probabilities_0ply"] = list(gnubg.evaluate(board, info, gnubg.evalcontext(0, 0, 1, 0, 0))[:5])
    for ply in (0, 2):
        equity, nd, dt, dp, code, text = gnubg.cfevaluate(board, info, gnubg.evalcontext(1, ply, 1, 0, 0))
        result["ply%d" % ply] = {"equity": equity, "no_double": nd, "double_take": dt,
                                 "double_pass": dp, "code": code, "decision": text}
    out.append(result)
json.dump(out, open(OUTPUT, "w"))
'''


def gnubg_cube_decisions(cases: list[dict], timeout: float = 3600) -> list[dict]:
    """Run gnubg 1.07 on ``{"position_id", "cube_value", "cube_owner"}`` cases."""
    return run_script(_SCRIPT, cases, timeout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=600)
    args = parser.parse_args()
    positions = json.loads((DATA / "selfplay_positions.json").read_text())["positions"][:args.positions]
    cases = [{"position_id": p["position_id"], "cube_value": 1 if i % 3 else 2,
              "cube_owner": "centred" if i % 3 else "on_roll"} for i, p in enumerate(positions)]
    found = gnubg_cube_decisions(cases)
    (DATA / "gnubg_cube_decisions.json").write_text(json.dumps({
        "about": "GNU Backgammon 1.07 cube decisions (cfevaluate, money, no Jacoby) of self-play "
                 "positions; see tests/backgammon/make_gnubg_cube_cases.py",
        "cases": found}, indent=0) + "\n")
    print(f"{len(found)} cases written")


if __name__ == "__main__":
    main()
