"""The first answer of every command, cold: each query of :data:`QUERIES` (one typical query
per command of the command line) runs as ``python -m dicemath ...`` in a new process whose
caches are all empty (``DICEMATH_CACHE_DIR``, ``DICEMATH_BEAROFF_DIR``, ``NUMBA_CACHE_DIR``,
``XDG_CACHE_HOME`` in a new temporary folder), on this checkout and on an earlier revision
(default :data:`side_by_side.PREVIOUS`, the last with numba kernels), and the wall seconds are
printed side by side, with the issue's target of 2 s marked.

Run: ``python benchmarks/bench_first_answers.py [--previous REV] [--only WORD ...]``
(a few minutes: the earlier revision compiles its numba kernels in every cold process).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from side_by_side import HERE, PREVIOUS, build_in_place

TARGET_SECONDS = 2.0
"""The most a first answer may take in a new process with empty caches."""

SIX_OPEN = "5,5,5,5,5,5,0,0,0,0,0,0"
FOUR_OPEN = "5,5,5,5,5,5,5,5,0,0,0,0"
ROLL = "1,2,3,4,5,6"
PEGS_STATE = "pegs | board 5,5,5,5,5,5,0,0,0,0,0,0 | turns 0 | dice 6 throws 2 | row - count 0 | roll 6-5-4-3-2-1"
BACKGAMMON_START = "4HPwATDgc/ABMA"

QUERIES: tuple[tuple[str, ...], ...] = (
    ("cache", "list", "--json"),
    ("dice", "hits", "--dice", "6", "--target", "3", "--json"),
    ("pegs", "rules"),
    ("pegs", "rows", "--json"),
    ("pegs", "solve", "--open", "9,10,11,12", "--json"),
    ("pegs", "advise", "--board", SIX_OPEN, "--roll", ROLL, "--json"),
    ("pegs", "turn", "--board", FOUR_OPEN, "--roll", ROLL, "--json"),
    ("pegs", "show", "--json", PEGS_STATE),
    ("pegs", "race", "--open", "10,11,12", "--json"),
    ("fives", "rules"),
    ("fives", "rows", "--json"),
    ("fives", "solve", "--open", "9,10,11,12", "--json"),
    ("fives", "advise", "--board", SIX_OPEN, "--roll", ROLL, "--json"),
    ("fives", "turn", "--board", FOUR_OPEN, "--roll", ROLL, "--json"),
    ("fives", "race", "--open", "10,11,12", "--games", "1000", "--json"),
    ("pitjesbak", "rules"),
    ("pitjesbak", "classes", "--json"),
    ("pitjesbak", "round", "--players", "3", "--json"),
    ("pitjesbak", "game", "--players", "3", "--json"),
    ("pitjesbak", "advise", "--my-stripes", "9", "--their-stripes", "9", "--role", "start", "--throws-used", "1",
     "--throw", "6-5-4", "--json"),
    ("pitjesbak", "advise", "--stripes-left", "4,9,9,1,3,6,9,9", "--wiped", "1,0,0,1,1,1,0,0", "--position", "2",
     "--before", "5-5-5,6-6-2", "--limit", "2", "--throw", "6-6-2", "--throws-used", "1", "--json"),
    ("pitjesbak", "card", "--players", "3", "--json"),
    ("pitjesbak", "simulate", "--players", "3", "--games", "1000", "--json"),
    ("pitjesbak", "show", "--json", "start"),
    ("backgammon", "rules"),
    ("backgammon", "bearoff", "0,0,2,2,2,1", "--versus", "1,1,1,2,1,1", "--json"),
    ("backgammon", "moves", BACKGAMMON_START, "3", "1", "--json"),
    ("backgammon", "cube", "2,2,0,0,0,0", "--versus", "0,0,1,1,1,0", "--json"),
    ("backgammon", "hint", BACKGAMMON_START, "3", "1", "--json"),
    ("backgammon", "show", "--json", BACKGAMMON_START),
    ("bohnduell", "rules"),
    ("bohnduell", "solve", "--stock", "6", "--json"),
    ("bohnduell", "advise", "start", "--json"),
    ("bohnduell", "table", "list", "--json"),
    ("bohnduell", "show", "--json", "start"),
    ("pig", "rules"),
    ("pig", "game", "--json"),
    ("pig", "advise", "start", "--json"),
    ("pig", "policy", "--json"),
)
"""One typical query per command (two for Pitjesbak's advice: a table of 2 and one of 8)."""


def cold_seconds(tree: Path, argv: tuple[str, ...]) -> tuple[float, int]:
    """Wall seconds and exit code of ``python -m dicemath argv`` on ``tree`` with empty caches."""
    with tempfile.TemporaryDirectory() as scratch:
        env = {**os.environ, "PYTHONPATH": str(tree), "DICEMATH_PROGRESS": "0"}
        for name in ("DICEMATH_CACHE_DIR", "DICEMATH_BEAROFF_DIR", "NUMBA_CACHE_DIR", "XDG_CACHE_HOME"):
            env[name] = f"{scratch}/{name.lower()}"
        start = time.perf_counter()
        run = subprocess.run([sys.executable, "-m", "dicemath", *argv], env=env, cwd=scratch, capture_output=True)
        return time.perf_counter() - start, run.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--previous", default=PREVIOUS, help="the revision to compare with ('' for none)")
    parser.add_argument("--only", nargs="+", help="only the queries of these commands (first word)")
    args = parser.parse_args()
    queries = [q for q in QUERIES if not args.only or q[0] in args.only]
    trees = {"this checkout": HERE}
    with tempfile.TemporaryDirectory() as folder:
        if args.previous:
            old = Path(folder) / "previous"
            subprocess.run(["git", "worktree", "add", "--detach", str(old), args.previous], cwd=HERE, check=True,
                           capture_output=True)
            build_in_place(old)
            trees[args.previous] = old
        try:
            print(f"first answers in new processes with empty caches  [load {os.getloadavg()[0]:.1f}]")
            print(f"  {'query':70s}" + "".join(f"{name:>16s}" for name in trees))
            slow = 0
            for argv in queries:
                cells = []
                for name, tree in trees.items():
                    seconds, code = cold_seconds(tree, argv)
                    mark = "!" if code else ("*" if seconds > TARGET_SECONDS else " ")
                    slow += name == "this checkout" and mark != " "
                    cells.append(f"{seconds:14.2f} {mark}")
                print(f"  {' '.join(argv)[:70]:70s}" + "".join(cells), flush=True)
            print(f"  * over {TARGET_SECONDS:g} s, ! failed; this checkout: {slow} of {len(queries)} marked")
        finally:
            if args.previous:
                subprocess.run(["git", "worktree", "remove", "--force", str(old)], cwd=HERE, check=True)


if __name__ == "__main__":
    main()
