"""Latency of ``advise`` on the full board: from the distilled model (no table;
target under 50 ms) and from a full table (``--table DIR``; target under 5 ms).

Run: ``python benchmarks/bench_full_board_advice.py [--game fives] [--table DIR] [--queries 300]``.
Times :func:`dicemath.games.pegs_fives.fullboard.advice.advise_throw` (what
``dicemath fives advise --json`` computes) on random boards with at least 9 open rows (no
on-demand solve) and random choice throws with a legal row; prints the first query (loading
the model or opening the table) and the mean and 95th percentile of warm queries, with the
load average (the machine may be shared).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

import numpy as np

from dicemath.games.pegs_fives.fullboard.advice import advise_throw
from dicemath.games.pegs_fives.rules import preset
from dicemath.games.pegs_fives.state import legal_rows


def queries(rules, count: int, seed: int = 1) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Random ``(board, throw)`` pairs: boards with 9 to 12 open rows, throws with a legal row."""
    rng = np.random.default_rng(seed)
    found = []
    while len(found) < count:
        board = np.full(rules.rows, rules.goal)
        open_rows = rng.choice(rules.rows, int(rng.integers(9, rules.rows + 1)), replace=False)
        board[open_rows] = rng.integers(0, rules.goal, len(open_rows))
        throw = tuple(int(x) for x in rng.integers(1, 7, rules.dice))
        board = tuple(int(x) for x in board)
        if legal_rows(board, tuple(sorted(throw)), rules.goal):
            found.append((board, throw))
    return found


def latency(rules, pairs, table: str | None) -> tuple[float, float, float, bool]:
    """(first query ms, mean warm ms, 95th percentile warm ms, exact) over ``pairs``."""
    start = time.perf_counter()
    result = advise_throw(rules, *pairs[0], table=table)
    first = time.perf_counter() - start
    times = []
    for board, throw in pairs[1:]:
        start = time.perf_counter()
        advise_throw(rules, board, throw, table=table)
        times.append(time.perf_counter() - start)
    times = np.array(times) * 1e3
    return first * 1e3, float(times.mean()), float(np.percentile(times, 95)), result.exact


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("fives", "pegs"), default="fives")
    parser.add_argument("--table", default=None, metavar="DIR", help="a full optimal table to time as well")
    parser.add_argument("--queries", type=int, default=300)
    args = parser.parse_args()
    rules = preset(args.game)
    pairs = queries(rules, args.queries)
    os.environ["DICEMATH_CACHE_DIR"] = tempfile.mkdtemp()          # no table in the default location
    sources = [("distilled model (no table)", None)] + ([("table", args.table)] if args.table else [])
    for name, table in sources:
        first, mean, p95, exact = latency(rules, pairs, table)
        print(f"{args.game} advice from the {name}: first query {first:.1f} ms, warm mean {mean:.2f} ms, "
              f"95th percentile {p95:.2f} ms over {len(pairs) - 1} queries (exact={exact}); "
              "load %.1f %.1f %.1f" % os.getloadavg())


if __name__ == "__main__":
    main()
