"""Benchmark: Pitjesbak at a table of n players.

* round solves per second by number of players (:func:`solve_table_round`, each player
  maximising his own value; the compiled induction alone, and through the public call which
  also allocates the knowledge slots);
* the game solves of :func:`solve_table` for 3 and 4 players from 9 stripes (cold: no cache);
* advice at a table of eight (:func:`table_advice`, an estimate) in a new process with an
  empty dicemath cache: the first question (it builds the round's knowledge states, loads the
  compiled kernels and solves one round) and a second one at another state;
* ``--quick`` skips the four-player game solve (a minute or two).

Timings taken while the machine is busy are larger; the load average is printed beside them.
Run::

    python benchmarks/bench_pitjesbak_table.py [--quick] [--json]
"""

from __future__ import annotations

import json
import os
import sys
import time


def round_rates(seconds: float = 1.0) -> dict:
    import numpy as np

    from dicemath.games.pitjesbak._table_kernels import round_backward
    from dicemath.games.pitjesbak.table_round import round_graph, round_win_atoms, solve_table_round

    rates = {}
    for players in range(2, 9):
        graph = round_graph(players)
        atoms = round_win_atoms(graph)
        flags = np.zeros(players, dtype=np.int64)
        W = np.empty((graph.slots, players))
        out = np.zeros(players)
        round_backward(players, flags, atoms, W, *graph.kernel_args(), out)      # compile / load
        count, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            round_backward(players, flags, atoms, W, *graph.kernel_args(), out)
            count += 1
        kernel = count / (time.perf_counter() - start)
        count, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            solve_table_round(players=players)
            count += 1
        public = count / (time.perf_counter() - start)
        rates[players] = {"knowledge_states": sum(graph.nodes), "kernel_per_s": round(kernel, 1),
                          "call_per_s": round(public, 1)}
        print(f"{players} players: {sum(graph.nodes):>9,} knowledge states, {kernel:10.1f} rounds/s "
              f"(induction), {public:8.1f} rounds/s (solve_table_round)", flush=True)
    return rates


def game_times(players_list) -> dict:
    from dicemath.games.pitjesbak.rules import Rules
    from dicemath.games.pitjesbak.table_solver import solve_table, state_count

    out = {}
    for players in players_list:
        rules = Rules(players=players, stripes=9)
        for k in range(3, players):                  # subgames first, so they are not timed
            solve_table(rules.with_players(k), use_cache=False)
        start = time.perf_counter()
        solution = solve_table(rules, use_cache=False)
        seconds = time.perf_counter() - start
        out[players] = {"seconds": round(seconds, 1), "sweeps": solution.sweeps, "cap": solution.cap,
                        "states": state_count(players, solution.cap, 9),
                        "opening": [round(v, 6) for v in solution.opening_values]}
        print(f"{players} players, 9 stripes, cap {solution.cap}: {seconds:.1f} s, {solution.sweeps} sweeps, "
              f"P(win) by position {out[players]['opening']} (load {os.getloadavg()[0]:.1f})", flush=True)
    return out


ADVICE = """
import time
t0 = time.perf_counter()
from dicemath.games.pitjesbak.table_game import table_advice
t1 = time.perf_counter()
table_advice((9,) * 8, (False,) * 8, 5, before=[(5, 5, 5), (6, 6, 2), (4, 2, 1), (3, 3, 3), (6, 5, 1)], limit=2,
             dice=(6, 6, 2), throws=1)
t2 = time.perf_counter()
table_advice((9, 8, 9, 7, 9, 9, 10, 9), (False, True, False, True, False, False, False, False), 0, dice=(6, 6, 2),
             throws=1)
t3 = time.perf_counter()
print(round(t1 - t0, 3), round(t2 - t1, 3), round(t3 - t2, 3))
"""


def advice_latency() -> dict:
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        env = dict(os.environ, DICEMATH_CACHE_DIR=folder)
        line = subprocess.run([sys.executable, "-c", ADVICE], env=env, capture_output=True, text=True,
                              check=True).stdout.split()
    imported, first, second = map(float, line)
    print(f"advice at a table of 8 (estimate), new process, empty cache: import {imported:.2f} s, first "
          f"{first:.2f} s, second state {second:.2f} s (load {os.getloadavg()[0]:.1f})", flush=True)
    return {"import_s": imported, "first_s": first, "second_s": second}


def main() -> None:
    print(f"load average {os.getloadavg()}")
    result = {"rounds": round_rates(), "advice8": advice_latency()}
    result["games"] = game_times((3,) if "--quick" in sys.argv else (3, 4))
    if "--json" in sys.argv:
        print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
