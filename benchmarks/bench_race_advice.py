"""Race-aware advice: latency of :func:`dicemath.games.pegs_fives.race_advice.race_advice` on the
full board (no table: the distilled model) and throughput of the compiled full-board games.

Run: ``python benchmarks/bench_race_advice.py [--games 2000]``. Prints the cold (first) and
warm latency of advice for a few boards, Pegs and Fives, and games per second (wall and CPU)
of the approximate race policy against solo play (:mod:`dicemath.games.pegs_fives._race_simulation`,
compilation not timed).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from dicemath.games.pegs_fives.race_advice import race_advice
from dicemath.games.pegs_fives.rules import FIVES, PEGS
from dicemath.games.pegs_fives.state import random_throw


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--boards", type=int, default=30)
    args = parser.parse_args()
    rng = random.Random(7)
    for rules in (PEGS, FIVES):
        start = time.perf_counter()
        race_advice(rules, [0] * 12, (1, 2, 3, 4, 5, 6), [[0] * 12])
        cold = time.perf_counter() - start
        times = []
        for _ in range(args.boards):
            board = [rng.randint(0, 4) for _ in range(12)]
            opponent = [rng.randint(0, 5) for _ in range(11)] + [rng.randint(0, 4)]
            start = time.perf_counter()
            race_advice(rules, board, random_throw(rng, 6), [opponent])
            times.append(time.perf_counter() - start)
        print(f"{rules.name}: advice cold {cold * 1000:.0f} ms; warm median {statistics.median(times) * 1000:.1f} ms, "
              f"max {max(times) * 1000:.1f} ms over {args.boards} random board pairs")
    from dicemath.games.pegs_fives._race_simulation import simulate

    for rules in (FIVES, PEGS):
        simulate(rules, (1, 0), 2, 1)
        games = args.games if rules is FIVES else max(1, args.games // 10)
        _, info = simulate(rules, (1, 0), games, 2)
        print(f"{rules.name}: {games} games race vs solo, {games / info['wall_seconds']:.0f} games/s wall, "
              f"{games / info['cpu_seconds']:.0f} games/CPU-s")


if __name__ == "__main__":
    main()
