"""``dicemath warmup``: build the first-use tables now, once.

The kernels are C, compiled when the package is installed; some queries build a table on
first use (cached in ``dicemath cache``). A user who prefers to wait once, at install time,
runs this: each step asks one small query of the kind that builds such tables, and says how
long it took and how much it added to the cache.
"""

from __future__ import annotations

import contextlib
import io
import sys
import time

from dicemath.core.cache import cache_entries, size_text
from dicemath.games import registry


def steps() -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """``(name, what is compiled or built, the query that does it)``, every game's
    (:attr:`dicemath.core.game.Game.warmup`), in registry order."""
    return tuple(step for game in registry.GAMES for step in game.warmup)


def register(subparsers) -> None:
    """Add ``dicemath warmup``."""
    parser = subparsers.add_parser("warmup", help="build the first-use tables now (once)")
    parser.add_argument("--only", nargs="+", choices=[name for name, _, _ in steps()], metavar="STEP",
                        help=f"only these steps: {', '.join(name for name, _, _ in steps())}")
    parser.set_defaults(func=run_warmup)


def _cached_bytes() -> int:
    """The bytes the cache holds (:func:`~dicemath.core.cache.cache_entries`)."""
    return sum(entry.bytes for entry in cache_entries())


def run_warmup(args) -> int:
    """Run each chosen step's query through ``args.main``, the command line's entry point
    (:func:`dicemath.cli.main`, which the parser hands every command)."""
    chosen = [step for step in steps() if not args.only or step[0] in args.only]
    for name, what, query in chosen:
        print(f"{name}: {what} ...", end=" ", flush=True)
        start, before = time.perf_counter(), _cached_bytes()
        with contextlib.redirect_stdout(io.StringIO()):
            code = args.main(list(query))
        if code:
            print(f"failed (exit {code}: `dicemath {' '.join(query)}`)", file=sys.stderr)
            return code
        print(f"done in {time.perf_counter() - start:.1f} s, {size_text(_cached_bytes() - before)} more in the cache",
              flush=True)
    print("ready: later queries load these tables from the cache")
    return 0
