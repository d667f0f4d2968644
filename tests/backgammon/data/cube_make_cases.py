"""Regenerate ``cube_gnubg_6x6_cases.csv`` from GNU Backgammon (run by hand, not a test).

    makebearoff -t 6x6 -f /tmp/bo6x6.bd
    python tests/backgammon/data/cube_make_cases.py /tmp/bo6x6.bd

Writes a seeded random sample of (player on roll, opponent) bear-off positions with the four
raw 16-bit values gnubg stores (u / 32767.5 - 1 = cubeless, owned, centred, opponent owns).
"""

from __future__ import annotations

import sys
from math import comb
from pathlib import Path

import numpy as np

from dicemath.games.backgammon.bearoff import positions_up_to
from dicemath.games.backgammon.cubeful_bearoff import gnubg_index

SAMPLE = 6000
SEED = 20261130


def main(path: str) -> None:
    size = comb(12, 6)
    raw = np.fromfile(path, dtype="<u2", offset=40).reshape(size, size, 4)
    boards = positions_up_to(6)
    rng = np.random.default_rng(SEED)
    pairs = rng.integers(1, size, size=(SAMPLE, 2))
    out = Path(__file__).with_name("cube_gnubg_6x6_cases.csv")
    lines = ["# makebearoff -t 6x6 (GNU Backgammon makebearoff 1.111); position;versus;raw u16 "
             "cubeless,owned,centred,opponent_owns (value = u / 32767.5 - 1); boards are "
             "counts on points 1..6"]
    for x, y in pairs:
        bx, by = boards[x], boards[y]
        u = raw[gnubg_index(bx), gnubg_index(by)]
        lines.append("".join(map(str, bx)) + ";" + "".join(map(str, by)) + ";"
                     + ",".join(str(int(v)) for v in u))
    out.write_text("\n".join(lines) + "\n", encoding="ascii")
    print(f"wrote {out} ({out.stat().st_size} bytes)")


if __name__ == "__main__":
    main(sys.argv[1])
