"""Benchmark BohnDuell's alpha-beta advisor on one fixed position and depth.

Times :meth:`~dicemath.games.bohnduell.search.SearchAdvisor.advise` (a fresh advisor, so an
empty transposition table) on the standard 40-bean game after ``S2 S3 S1 S4`` at depth 6
with the 12-bean exact table, after loading the table and the fitted weights (cached on
disk). Prints the seconds of the search and a digest of the values, so that two versions
can be compared for speed and checked for identical values. Run::

    python benchmarks/bench_bohnduell_search.py [--depth 10] [--repeat 3]

Compare two checkouts with ``farm-bench --vs 'OLD' -- NEW`` (each command this script under
another ``PYTHONPATH``).
"""

from __future__ import annotations

import argparse
import hashlib
import time

from dicemath.games.bohnduell.rules import STANDARD
from dicemath.games.bohnduell.search import TABLE_STOCK, SearchAdvisor
from dicemath.games.bohnduell.state import initial_state

MOVES = ("S2", "S3", "S1", "S4")
"""The fixed line from the standard start to the position searched."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    position = initial_state(STANDARD)
    for move in MOVES:
        position = position.apply(move)
    SearchAdvisor(STANDARD, depth=1, table_stock=TABLE_STOCK)       # load the table and weights
    times, values = [], None
    for _ in range(args.repeat):
        advisor = SearchAdvisor(STANDARD, depth=args.depth, table_stock=TABLE_STOCK)
        tic = time.perf_counter()
        advice = advisor.advise(position)
        times.append(time.perf_counter() - tic)
        values = [(str(o.action), repr(float(o.value))) for o in advice.options]
    digest = hashlib.sha256(repr(values).encode()).hexdigest()[:16]
    print(f"position {position} depth {args.depth}: best of {args.repeat} {min(times):.3f} s, "
          f"values {digest}: {values}")


if __name__ == "__main__":
    main()
