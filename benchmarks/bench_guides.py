"""The distilled Pegs model's guide table: CPU time a slab of the full board.

Run: ``python benchmarks/bench_guides.py [--slabs 0,2000,5000,7775] [--repeat 3]``. A guide
table evaluates the network on all 2,176,782,336 boards of the full board, 7,776 slabs of
279,936 boards (:func:`dicemath.games.pegs_fives.fullboard.guides.distilled_slab_values`).
For each slab this prints the CPU milliseconds of one thread (the best of ``--repeat``), the
extrapolated CPU seconds of the whole table, and the largest difference from the model's own
values (``DistilledValue.values``, the C statement of the model) on the slab's boards. Compare two
versions by running it from both checkouts (``PYTHONPATH``), alternately.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from dicemath.games.pegs_fives.distilled import DistilledValue
from dicemath.games.pegs_fives.fullboard.guides import SlabSplit, distilled_slab_values, guide_top
from dicemath.games.pegs_fives.fullboard.layout import FULL_ROWS, BoardLayout
from dicemath.games.pegs_fives.rules import PEGS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slabs", default="0,2000,5000,7775", help="comma-separated slabs of the guide")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    model = DistilledValue.load(PEGS)
    layout = BoardLayout(PEGS, FULL_ROWS)
    split = SlabSplit(layout, guide_top(layout))
    values = distilled_slab_values(model, split)
    values(0)                                          # loads the extension and the tables
    count, size = split.plan.count, split.plan.slab_size
    print(f"Pegs distilled guide, {count:,} slabs of {size:,} boards, one thread, CPU time:")
    total = []
    for slab in (int(s) for s in args.slabs.split(",")):
        best = np.inf
        for _ in range(args.repeat):
            start = time.thread_time()
            out = values(slab)
            best = min(best, time.thread_time() - start)
        reference = model.values(split.boards(slab, np.arange(size)))
        total.append(best)
        print(f"  slab {slab:5d}: {best * 1e3:7.1f} ms, "
              f"max |difference| from the model {np.abs(out - reference).max():.2e}")
    print(f"whole table (extrapolated from the mean): {np.mean(total) * count:,.0f} s of CPU")


if __name__ == "__main__":
    main()
