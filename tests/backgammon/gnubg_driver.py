"""Drive GNU Backgammon non-interactively (``gnubg -t -q -p script.py``) for cross-checks.

Used by ``make_gnubg_cases.py`` (regenerates the checked-in cases under ``data/``) and by
the ``@pytest.mark.gnubg`` tests, which skip when gnubg is not installed.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from pathlib import Path

GNUBG_DIR = Path("/usr/games")


def tool(name: str) -> str | None:
    """Path of a GNU Backgammon program (gnubg, makebearoff, bearoffdump), or None."""
    found = shutil.which(name)
    if found:
        return found
    candidate = GNUBG_DIR / name
    return str(candidate) if candidate.exists() else None


_MOVES_SCRIPT = r'''
import json
gnubg.command("set player 0 human")
gnubg.command("set player 1 human")
gnubg.command("set evaluation chequerplay evaluation plies 0")
cases = json.load(open(INPUT))
out = []
for case in cases:
    gnubg.command("new game")
    gnubg.command("set board " + case["position_id"])
    gnubg.command("set dice %d %d" % tuple(case["dice"]))
    try:
        moves = [m["move"] for m in gnubg.hint(10000)["hint"]]
    except Exception as error:
        moves = None
    out.append({"position_id": case["position_id"], "dice": case["dice"],
                "board": [list(side) for side in gnubg.board()], "moves": moves})
json.dump(out, open(OUTPUT, "w"))
'''


def gnubg_moves(cases: list[dict], timeout: float = 600) -> list[dict]:
    """Ask gnubg for the legal moves of each ``{"position_id", "dice"}`` case.

    Returns:
        The cases with ``moves`` (gnubg's move notation, one per distinct result; ``[]``
        when the roll cannot be played) and ``board`` (gnubg's view, player on roll last).
    """
    gnubg = tool("gnubg")
    if gnubg is None:
        raise RuntimeError("gnubg is not installed")
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        (folder / "in.json").write_text(json.dumps(cases))
        script = folder / "moves.py"
        script.write_text(f"INPUT = {str(folder / 'in.json')!r}\nOUTPUT = {str(folder / 'out.json')!r}\n"
                          + _MOVES_SCRIPT)
        subprocess.run([gnubg, "-t", "-q", "-p", str(script)], check=True, timeout=timeout,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=folder)
        return json.loads((folder / "out.json").read_text())


def bearoffdump(database: str | Path, index: int) -> str:
    """The text bearoffdump prints for position ``index`` of ``database``."""
    return subprocess.run([tool("bearoffdump"), str(database), "-n", str(index)], check=True,
                          capture_output=True, text=True).stdout
