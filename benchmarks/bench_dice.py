"""Time to compute all 72 exact hit distributions (n = 1..6 dice, targets 1..12).

Target: under 50 ms in total after import. Run: ``python benchmarks/bench_dice.py``.
"""

import time

from dicemath.core import dice
from dicemath.games.pegs_fives import hits


def compute_all() -> float:
    hits._hit_weights.cache_clear()
    dice.multiset_table.cache_clear()
    start = time.perf_counter()
    for n in range(1, 7):
        for target in hits.TARGETS:
            hits.hit_distribution(n, target)
    return time.perf_counter() - start


if __name__ == "__main__":
    times = sorted(compute_all() for _ in range(7))
    print(f"all 72 exact hit distributions, cold caches: median {times[3] * 1000:.1f} ms, "
          f"best {times[0] * 1000:.1f} ms (target < 50 ms)")
