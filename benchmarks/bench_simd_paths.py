"""The compiled code paths (``DICEMATH_SIMD``): CPU time of a small kernel run on each.

Run: ``python benchmarks/bench_simd_paths.py [--repeat 5]``. For each code path this CPU runs
(``_pegs_c.PATHS``, fastest first; a build without paths runs once, as built) a new process
with ``DICEMATH_SIMD`` set to it prints the CPU milliseconds of one thread (the best of
``--repeat``) of

* the Pegs kernel on the 46,656 boards of rows 2, 4, 6, 8, 10 and 12, optimal play and the
  lookahead on the fitted guide (``solve_range``, float64), and
* the distilled network on slab 2000 of the full board's guide (279,936 boards,
  :func:`dicemath.games.pegs_fives.fullboard.guides.distilled_slab_values`),

each with the sha256 of its values, so that two builds or paths can be compared bit for bit.
Compare a ``-march=native`` build (``DICEMATH_CFLAGS="-O3 -march=native -fno-math-errno"``) with
the default one by running it from both checkouts (``PYTHONPATH``), alternately.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import time

import numpy as np

ROWS = (2, 4, 6, 8, 10, 12)
SLAB = 2000


def digest(values: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(values).tobytes()).hexdigest()[:12]


def best_of(repeat: int, run) -> tuple[float, np.ndarray]:
    """The least thread CPU seconds of ``repeat`` calls of ``run`` and its last values."""
    best = np.inf
    for _ in range(repeat):
        start = time.thread_time()
        values = run()
        best = min(best, time.thread_time() - start)
    return best, values


def child(repeat: int) -> None:
    """Time the runs on the path this process imported and print one line."""
    from dicemath.games.pegs_fives.advisor import board_value
    from dicemath.games.pegs_fives.distilled import DistilledValue
    from dicemath.games.pegs_fives.fullboard import _network_c, _pegs_c
    from dicemath.games.pegs_fives.fullboard.guides import SlabSplit, distilled_slab_values, guide_top
    from dicemath.games.pegs_fives.fullboard.layout import FULL_ROWS, BoardLayout
    from dicemath.games.pegs_fives.fullboard.pegs_kernel import PegsKernel
    from dicemath.games.pegs_fives.rules import PEGS

    kernel = PegsKernel(PEGS, ROWS)
    fitted = board_value(PEGS)
    boards = np.full((kernel.size, PEGS.rows), PEGS.goal)
    boards[:, [row - 1 for row in ROWS]] = [kernel.digits(i) for i in range(kernel.size)]
    guide = np.array([fitted(tuple(board)) for board in boards])

    def solve(policy: str) -> np.ndarray:
        E = np.zeros(kernel.size)
        kernel.solve_range(E, 0, kernel.size - 1, policy=policy, guide=guide if policy == "lookahead" else None)
        return E

    model = DistilledValue.load(PEGS)
    layout = BoardLayout(PEGS, FULL_ROWS)
    slab_values = distilled_slab_values(model, SlabSplit(layout, guide_top(layout)))
    figures = [best_of(repeat, lambda: solve("optimal")), best_of(repeat, lambda: solve("lookahead")),
               best_of(repeat, lambda: slab_values(SLAB))]
    print(f"  {_pegs_c.simd():7s} {_network_c.SUMMATION:7s}"
          + "".join(f" {seconds * 1e3:9.1f} ms {digest(values)}" for seconds, values in figures), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.repeat)
        return
    from dicemath.games.pegs_fives.fullboard import _pegs_c

    paths = getattr(_pegs_c, "PATHS", (None,))
    print(f"one thread, CPU time (best of {args.repeat}) and values sha256; Pegs kernel on rows {ROWS}, "
          f"network on guide slab {SLAB}:")
    print(f"  {'pegs':7s} {'network':7s} {'optimal':>22s} {'lookahead':>22s} {'network slab':>22s}")
    for path in paths:
        env = dict(os.environ) if path is None else dict(os.environ, DICEMATH_SIMD=path)
        subprocess.run([sys.executable, __file__, "--child", "--repeat", str(args.repeat)], env=env, check=True)


if __name__ == "__main__":
    main()
