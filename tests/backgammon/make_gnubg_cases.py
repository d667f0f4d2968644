"""Regenerate the checked-in GNU Backgammon cases under ``tests/backgammon/data/``.

Run ``python tests/backgammon/make_gnubg_cases.py`` on a machine with gnubg installed
(Debian: ``apt-get install gnubg``). It writes:

* ``gnubg_moves.json``: legal moves of 400 random positions and rolls (seeded), as gnubg
  1.07 lists them with ``hint`` (one move per distinct resulting position);
* ``gnubg_one_sided.json``: a sample of gnubg's one-sided bear-off database
  (``makebearoff -o 6``, read with ``bearoffdump``) and its bear-off index order;
* ``gnubg_two_sided.json``: a sample of gnubg's two-sided 6x6 database.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent.parent))

from gnubg_driver import bearoffdump, gnubg_moves, tool  # noqa: E402
from strategies import random_position  # noqa: E402

DATA = HERE / "data"


def move_cases(count: int = 400, seed: int = 2026) -> list[dict]:
    rng = random.Random(seed)
    cases = []
    while len(cases) < count:
        position = random_position(rng, bear_off_bias=0.25)
        if position.is_over():
            continue
        cases.append({"position_id": position.position_id(), "dice": [rng.randint(1, 6), rng.randint(1, 6)]})
    return [{"position_id": c["position_id"], "dice": c["dice"], "moves": c["moves"]} for c in gnubg_moves(cases)]


def parse_one_sided(text: str) -> dict:
    """Read bearoffdump's one-sided text: position ID, P(n rolls) and gammon P(n), means."""
    lines = text.splitlines()
    result = {"distribution": {}, "gammon": {}}
    rows = False
    for line in lines:
        if "Position ID:" in line:
            result["position_id"] = line.split("Position ID:")[1].strip()
        elif line.startswith("Rolls"):
            rows = True
        elif line.startswith("Average rolls"):
            rows = False
        elif rows:
            parts = line.split()
            if len(parts) >= 3:
                result["distribution"][int(parts[0])] = float(parts[2]) / 100
            if len(parts) >= 5:
                result["gammon"][int(parts[0])] = float(parts[4]) / 100
        elif line.startswith("Mean"):
            parts = line.split()
            result["mean"] = float(parts[2])
            result["gammon_mean"] = float(parts[4])
    return result


def one_sided_cases(folder: Path, sample: int = 600, seed: int = 7) -> dict:
    database = folder / "os6.bd"
    subprocess.run([tool("makebearoff"), "-o", "6", "-f", str(database)], check=True,
                   capture_output=True)
    rng = random.Random(seed)
    indices = sorted(set(range(1, 60)) | set(rng.sample(range(1, 54264), sample)) | {54263})
    cases = []
    for index in indices:
        case = parse_one_sided(bearoffdump(database, index))
        case["gnubg_index"] = index
        cases.append(case)
    return {"source": "makebearoff -o 6 (GNU Backgammon 1.07.001), bearoffdump -n INDEX; "
                      "percentages printed with 3 decimals", "cases": cases}


def parse_two_sided(text: str) -> dict:
    """Read bearoffdump's two-sided text: the Position ID and the cubeless equity."""
    result = {}
    for line in text.splitlines():
        if "Position ID:" in line:
            result["position_id"] = line.split("Position ID:")[1].strip()
        elif line.startswith("Cubeless equity"):
            result["cubeless_equity"] = float(line.split(":")[1])
    return result


def two_sided_cases(folder: Path, sample: int = 1500, seed: int = 11) -> dict:
    database = folder / "ts6.bd"
    subprocess.run([tool("makebearoff"), "-t", "6x6", "-f", str(database)], check=True,
                   capture_output=True)
    rng = random.Random(seed)
    indices = sorted(set(rng.sample(range(924 * 924), sample)))
    cases = []
    for index in indices:
        case = parse_two_sided(bearoffdump(database, index))
        case["gnubg_index"] = index
        cases.append(case)
    return {"source": "makebearoff -t 6x6 (GNU Backgammon 1.07.001), bearoffdump -n INDEX; the ID's "
                      "second side is on roll; cubeless equity 2p-1 printed with 4 decimals",
            "cases": cases}


def main(which=("moves", "one", "two")) -> None:
    DATA.mkdir(exist_ok=True)
    if "moves" in which:
        (DATA / "gnubg_moves.json").write_text(json.dumps({
            "source": "gnubg 1.07.001 -t -p: set board ID, set dice, hint(10000) at 0 ply",
            "cases": move_cases()}, separators=(",", ":")))
    with tempfile.TemporaryDirectory() as folder:
        if "one" in which:
            (DATA / "gnubg_one_sided.json").write_text(json.dumps(one_sided_cases(Path(folder)),
                                                                  separators=(",", ":")))
        if "two" in which:
            (DATA / "gnubg_two_sided.json").write_text(json.dumps(two_sided_cases(Path(folder)),
                                                                  separators=(",", ":")))


if __name__ == "__main__":
    main(tuple(sys.argv[1:]) or ("moves", "one", "two"))
