"""The Pegs kernel on the real 12-row board: re-solve finished slabs of a full table on disk.

Run: ``python benchmarks/bench_pegs_slabs.py TABLE_VALUES --slabs 1000,1100 [--policy lookahead
--guide GUIDE_VALUES]``, where ``TABLE_VALUES`` is the values file of a finished full Pegs
table (``values.npy`` of a table store, or a raw float32 ``values.bin``) and ``GUIDE_VALUES``
the guide table's values for a lookahead. For each slab (the boards ``slab * 6**8`` up to the
next slab, ``--top 4``) it solves the slab again on a copy-on-write map of the table (the file
is never written), from the stored values of the slabs after it, and prints the CPU seconds
of the kernel (one thread) and whether the new values equal the stored ones bit for bit.

Run it from two checkouts (``PYTHONPATH``) to compare two versions of the kernel on the
same slabs; the first run after a reboot also pays for reading the table's pages from disk.
Each slab's values are also printed as a digest, so that two kernels can be compared bit for
bit on a policy whose table is not kept (e.g. ``--policy safe_greedy`` on the optimal table:
the slab is then valued from the optimal values of the later slabs, the same input for both).
"""

from __future__ import annotations

import argparse
import hashlib
import time

import numpy as np

from dicemath.games.pegs_fives.fullboard.layout import FULL_ROWS, BoardLayout
from dicemath.games.pegs_fives.fullboard.pegs_kernel import PegsKernel
from dicemath.games.pegs_fives.rules import PEGS


def open_values(path: str, mode: str) -> np.ndarray:
    """A float32 values file as a memory map: ``.npy`` with its header, else raw."""
    if path.endswith(".npy"):
        return np.load(path, mmap_mode=mode)
    return np.memmap(path, dtype=np.float32, mode=mode)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("values", help="values file of a finished full Pegs table")
    parser.add_argument("--slabs", default="1000,1100", help="comma-separated finished slabs")
    parser.add_argument("--policy", default="optimal", help="the table's policy (optimal, lookahead, ...)")
    parser.add_argument("--guide", default=None, help="values file of the guide (lookahead)")
    parser.add_argument("--top", type=int, default=4, help="top axes per slab of the table's build")
    args = parser.parse_args()
    layout = BoardLayout(PEGS, FULL_ROWS)
    plan = layout.slabs(args.top)
    kernel = PegsKernel(PEGS, layout.rows)
    scratch, stored = open_values(args.values, "c"), open_values(args.values, "r")
    guide = open_values(args.guide, "r") if args.guide else None
    if scratch.size != layout.size:
        raise SystemExit(f"{args.values} holds {scratch.size} values, not the {layout.size} of the full board")
    print(f"Pegs full board, policy {args.policy}, slabs of {plan.slab_size:,} boards, one thread, CPU time:")
    for slab in (int(s) for s in args.slabs.split(",")):
        lo, hi = slab * plan.slab_size, (slab + 1) * plan.slab_size
        if hi - 1 == layout.last:
            hi -= 1
        scratch[lo:hi] = 0.0
        start = time.thread_time()
        kernel.solve_range(scratch, lo, hi, policy=args.policy, guide=guide)
        seconds = time.thread_time() - start
        same = np.array_equal(scratch[lo:hi], stored[lo:hi])
        digest = hashlib.sha256(np.ascontiguousarray(scratch[lo:hi]).tobytes()).hexdigest()[:12]
        print(f"  slab {slab:5d}: {seconds:7.2f} s, {seconds / (hi - lo) * 1e6:6.2f} us/board, "
              f"identical to the stored values: {same}, values sha256 {digest}")


if __name__ == "__main__":
    main()
