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
    return run_script(_MOVES_SCRIPT, cases, timeout)


def run_script(body: str, cases: list, timeout: float = 600) -> list:
    """Run ``body`` in gnubg's embedded Python with ``INPUT`` (a JSON file of ``cases``)
    and ``OUTPUT`` (where it writes its JSON answer) defined; return the answer."""
    gnubg = tool("gnubg")
    if gnubg is None:
        raise RuntimeError("gnubg is not installed")
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        (folder / "in.json").write_text(json.dumps(cases))
        script = folder / "script.py"
        script.write_text(f"INPUT = {str(folder / 'in.json')!r}\nOUTPUT = {str(folder / 'out.json')!r}\n" + body)
        subprocess.run([gnubg, "-t", "-q", "-p", str(script)], check=True, timeout=timeout, stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=folder)
        return json.loads((folder / "out.json").read_text())


def bearoffdump(database: str | Path, index: int) -> str:
    """The text bearoffdump prints for position ``index`` of ``database``."""
    return subprocess.run([tool("bearoffdump"), str(database), "-n", str(index)], check=True,
                          capture_output=True, text=True).stdout


def gnubg_bearoff_boards() -> list[tuple[int, ...]]:
    """GNU Backgammon's one-sided (6 points, 15 checkers) bear-off index order: by checker
    count, then the counts (1-point first) in decreasing lexicographic order. Checked equal
    to gnubg's ``positionfrombearoff`` for all 54,264 indices (gnubg 1.07.001)."""
    from dicemath.games.backgammon.bearoff import positions_up_to

    boards = [tuple(int(c) for c in row) for row in positions_up_to(15)]
    return sorted(boards, key=lambda b: (sum(b), tuple(-c for c in b)))


def read_one_sided_database(path: str | Path, count: int = 54264):
    """Read a ``makebearoff -o 6`` file (compressed, with gammon distributions).

    Layout (checked against bearoffdump): a 40-byte header, ``count`` index entries of 8
    bytes (uint32 offset in 16-bit words, then nz, ioff, nzg, ioffg), then uint16 words;
    entry i's nz words are P(ioff + k rolls) * 65535, followed by its nzg gammon words.

    Returns:
        Two float64 arrays ``(count, 64)``: distributions and gammon distributions, in
        gnubg's index order (:func:`gnubg_bearoff_boards`).
    """
    import numpy as np

    raw = Path(path).read_bytes()
    if not raw.startswith(b"gnubg-OS-06-15-1-1"):
        raise ValueError(f"{path} is not a compressed one-sided 6x15 gnubg database with gammons")
    index = np.frombuffer(raw[40:40 + 8 * count], dtype=np.uint8).reshape(count, 8)
    offsets = index[:, :4].copy().view("<u4").ravel()
    words = np.frombuffer(raw[40 + 8 * count:], dtype="<u2")
    dist, gammon = np.zeros((count, 64)), np.zeros((count, 64))
    for i in range(count):
        nz, ioff, nzg, ioffg = (int(v) for v in index[i, 4:])
        start = int(offsets[i])
        dist[i, ioff:ioff + nz] = words[start:start + nz] / 65535
        gammon[i, ioffg:ioffg + nzg] = words[start + nz:start + nz + nzg] / 65535
    return dist, gammon
