"""Benchmark: the two-player Pitjesbak game solve, cold (empty cache) and from the cache.

Run: ``python benchmarks/bench_pitjesbak.py [--three]``. Target: < 30 s cold, < 1 s cached.
The cold figure includes the round-maximising comparisons (three value iterations).
``--three`` also times the three-player solve with 2 stripes (cap 4).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        os.environ["DICEMATH_CACHE_DIR"] = folder
        from dicemath.games.pitjesbak.game_solver import solve_game
        from dicemath.games.pitjesbak.round_solver import solve_round

        start = time.perf_counter()
        cold = solve_game()
        cold_seconds = time.perf_counter() - start
        start = time.perf_counter()
        cached = solve_game()
        cached_seconds = time.perf_counter() - start
        assert cached.start_player_win_probability == cold.start_player_win_probability
        start = time.perf_counter()
        solve_game(compare=False, use_cache=False)
        plain_seconds = time.perf_counter() - start
        print(f"game solve (2 players, cap {cold.cap}, {cold.sweeps} sweeps) cold: {cold_seconds:.2f} s "
              f"(optimal values alone {plain_seconds:.2f} s)")
        print(f"game solve from cache: {cached_seconds * 1000:.1f} ms")
        print(f"P(first start player wins) = {cold.start_player_win_probability:.12f}, "
              f"bound width {cold.bound:.1e}")
        for cap in (12, 14):
            coarse = solve_game(cap=cap, compare=False, use_cache=False)
            print(f"  bound width with cap {cap}: {coarse.bound:.1e} (each extra stripe of cap ~100x smaller)")
        loss = cold.start_player_win_probability - sum(cold.comparison["round_vs_optimal"]) / 2
        print(f"round-maximising start player loses {loss:.6f}")
        for players, exact in ((2, True), (4, True), (8, False), (8, True)):
            start = time.perf_counter()
            solve_round(players=players, exact=exact)
            print(f"round solve, {players} players, {'exact' if exact else 'float'}: "
                  f"{time.perf_counter() - start:.2f} s")
        if "--three" in sys.argv:
            from dicemath.games.pitjesbak.rules import Rules
            from dicemath.games.pitjesbak.table_solver import solve_table
            start = time.perf_counter()
            three = solve_table(Rules(players=3, stripes=2), use_cache=False)
            print(f"three-player solve, 2 stripes, cap {three.cap}: {time.perf_counter() - start:.1f} s; "
                  f"P(win) by position {[round(v, 6) for v in three.opening_values]}")


if __name__ == "__main__":
    main()
