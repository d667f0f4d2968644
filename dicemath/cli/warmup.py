"""``dicemath warmup``: compile every kernel and build the first-use tables now, once.

Each game's first query compiles its numba kernels (cached on disk afterwards) and some
build a table on first use (cached in ``dicemath cache``). A user who prefers to wait once,
at install time, runs this: each step asks one small query of the kind that triggers the
work, and says how long it took. The Pegs kernel is C, compiled when the package is
installed, so it needs no step here.
"""

from __future__ import annotations

import contextlib
import io
import sys
import time

STEPS = (
    ("fives", "the Fives kernel (numba)",
     ["fives", "advise", "--board", "5,5,5,5,5,5,5,5,5,5,3,0", "--roll", "1,2,3,4,5,6", "--json"]),
    ("backgammon-moves", "the backgammon move generator (numba)",
     ["backgammon", "moves", "4HPwATDgc/ABMA", "3", "1", "--json"]),
    ("backgammon-cube", "the backgammon bear-off and cube kernels (numba) and their first tables",
     ["backgammon", "cube", "2,2,0,0,0,0", "--versus", "0,0,1,1,1,0", "--json"]),
    ("bohnduell", "the BohnDuell solver (numba)", ["bohnduell", "solve", "--stock", "6", "--json"]),
    ("race", "the Pegs/Fives two-player race kernel (numba)", ["pegs", "race", "--open", "12", "--json"]),
)
"""``(name, what is compiled or built, the query that does it)``, in order."""


def register(subparsers) -> None:
    """Add ``dicemath warmup``."""
    parser = subparsers.add_parser("warmup", help="compile every kernel and build first-use tables now (once)")
    parser.add_argument("--only", nargs="+", choices=[name for name, _, _ in STEPS], metavar="STEP",
                        help=f"only these steps: {', '.join(name for name, _, _ in STEPS)}")
    parser.set_defaults(func=run_warmup)


def run_warmup(args) -> int:
    from dicemath.cli import main

    chosen = [step for step in STEPS if not args.only or step[0] in args.only]
    for name, what, query in chosen:
        print(f"{name}: {what} ...", end=" ", flush=True)
        start = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()):
            code = main(query)
        if code:
            print(f"failed (exit {code}: `dicemath {' '.join(query)}`)", file=sys.stderr)
            return code
        print(f"done in {time.perf_counter() - start:.1f} s", flush=True)
    print("ready: later queries load the compiled kernels and tables from the caches")
    return 0
