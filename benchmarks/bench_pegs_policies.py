"""Where a Pegs board's work goes, and what each policy mode of the kernel costs.

Run: ``python benchmarks/bench_pegs_policies.py [--samples 200] [--rows 1,...,7]
[--policies optimal,lookahead] [--dtype float32]``. Prints

* the option evaluations one board of the full board needs (averaged over random boards):
  the turn's first choice throw (one Newton pass) and the PEGS-7 choice throws after a row
  goes in (two throws left, then one); counted from the throw groups, no timing;
* CPU µs a board of a whole in-memory sweep of ``--rows`` for each policy the kernel
  evaluates (optimal, greedy, safe greedy, and the lookahead guided by the optimal values),
  and the board values from the empty board (inf: the policy never finishes). Compare two
  versions of the kernel by running this script from both checkouts (``PYTHONPATH``).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from dicemath.games.pegs_fives.fullboard.pegs_kernel import POLICIES, PegsKernel
from dicemath.games.pegs_fives.rules import PEGS
from dicemath.games.pegs_fives.state import grouped_choice_throws

FULL = tuple(range(1, 13))


def option_counts(samples: int, seed: int = 1) -> dict[str, float]:
    """Average option evaluations of one full board, by level of the turn."""
    groups = {d: grouped_choice_throws(d, FULL) for d in range(1, 7)}
    per_hit = [PEGS.dice_per_hit[r - 1] for r in FULL]
    goal = PEGS.goal

    def options(d: int, board) -> int:
        return sum(1 for _, legal in groups[d] for r, _ in legal if board[r - 1] < goal)

    rng = np.random.default_rng(seed)
    top = one = two = 0
    for _ in range(samples):
        board = list(rng.integers(0, goal + 1, 12))
        top += options(6, board)
        for r in range(12):
            left = 6 - per_hit[r] * (goal - board[r])
            if board[r] >= goal or left < 1:
                continue
            after = board.copy()
            after[r] = goal
            if all(s >= goal for s in after):
                continue
            one += 2 * options(left, after)                 # two throws left, then one
            for r2 in range(12):
                left2 = left - per_hit[r2] * (goal - after[r2])
                if after[r2] < goal and left2 >= 1:
                    final = after.copy()
                    final[r2] = goal
                    two += options(left2, final)
    return {"first choice throw (one pass)": top / samples, "PEGS-7, one row in": one / samples,
            "PEGS-7, two rows in": two / samples}


def policy_costs(rows: tuple[int, ...], policies: tuple[str, ...] = POLICIES, dtype: str = "float64") -> None:
    kernel = PegsKernel(PEGS, rows)
    optimal = np.zeros(kernel.size, dtype=dtype)
    kernel.solve_range(optimal, 0, kernel.size - 1)
    for policy in policies:
        values = np.zeros(kernel.size, dtype=dtype)
        start = time.process_time()
        kernel.solve_range(values, 0, kernel.size - 1, policy=policy,
                           guide=optimal if policy == "lookahead" else None)
        seconds = time.process_time() - start
        print(f"  {policy:12s} {seconds / kernel.size * 1e6:6.2f} us/board   empty board {values[0]:.6f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--rows", default="1,2,3,4,5,6,7")
    parser.add_argument("--policies", default=",".join(POLICIES), help="comma-separated kernel policies")
    parser.add_argument("--dtype", default="float64", choices=("float64", "float32"), help="stored dtype")
    args = parser.parse_args()
    print(f"option evaluations of one full board (mean over {args.samples} random boards):")
    for name, count in option_counts(args.samples).items():
        print(f"  {name:32s} {count:8.0f}")
    rows = tuple(int(r) for r in args.rows.split(","))
    print(f"policy sweeps on rows {args.rows}, {args.dtype}, one thread, CPU time:")
    policy_costs(rows, tuple(args.policies.split(",")), args.dtype)


if __name__ == "__main__":
    main()
