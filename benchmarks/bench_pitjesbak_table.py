"""Benchmark: Pitjesbak at a table of n players, this checkout (C kernels) against the numba
revision :data:`side_by_side.PREVIOUS`, each in a fresh process with empty caches.

Printed side by side, with the process's CPU time and peak memory:

* advice at a table of eight (:func:`table_advice`, an estimate): the first question in a new
  process (it builds the round's knowledge states, loads the kernels and solves one round;
  numba's compilation before) and a second one at another state;
* advice at a table of three in a new process: the first question solves the game at the
  table of three (and its two-player subgame) first;
* rounds per second by number of players (:func:`solve_table_round`, after a first call);
* the game solves of :func:`solve_table` for 3 and 4 players from 9 stripes, cap 11: the
  value iteration of the table's own solution (its subgames solved first, not timed; CPU seconds per
  sweep), and for three players also the whole solve with its two-player subgame
  (:func:`.game_solver.solve_game`); ``--quick`` skips the four-player one (half a minute
  here, a minute and a half before).

``--first-answer`` measures instead the first four-player answer in a new process with an
empty cache (:meth:`PitjesbakGame.advise` at the first decision of a game of four from 9 stripes, then
at a later state), this checkout beside :data:`BEFORE_SHIPPED`, the revision that solved the
table of four on first use (this checkout reads it from the package's data:
:mod:`dicemath.games.pitjesbak.shipped`). Measured on an AMD EPYC, loaded (load average 14 on
2 cores): the first answer 0.59 s against 312 s before; the whole process 0.42 s of CPU and
40 MiB against 81 s and 137 MiB.

Wall times include waiting for the CPU: on a busy machine compare the CPU figures (the
solver and a large round use two threads where two CPUs are free).

Measured on the development machine (AMD EPYC, 2 threads), from 9 stripes with cap 11: three
players are solved in half a second (5 full sweeps; the two-player subgame takes a second
more) and four in about half a minute of CPU (5 full sweeps of 38,416 rounds, 0.1 ms each and
as much again to record their decisions).

Run::

    python benchmarks/bench_pitjesbak_table.py [--quick | --first-answer]
"""

from __future__ import annotations

import sys

from side_by_side import compare

SOLUTION = """
from dicemath.games.pitjesbak.rules import Rules
from dicemath.games.pitjesbak.table_game import table_advice
try:
    from dicemath.games.pitjesbak.sources import default_solution
except ImportError:                  # the revision compared with chose a table's solution in table_game
    from dicemath.games.pitjesbak.table_game import default_solution
"""

ADVICE8 = """
import json, time
t0 = time.perf_counter()
""" + SOLUTION + """
t1 = time.perf_counter()
table_advice((9,) * 8, (False,) * 8, 5, before=[(5, 5, 5), (6, 6, 2), (4, 2, 1), (3, 3, 3), (6, 5, 1)], limit=2,
             dice=(6, 6, 2), throws=1, solution=default_solution(Rules(players=8)))
t2 = time.perf_counter()
table_advice((9, 8, 9, 7, 9, 9, 10, 9), (False, True, False, True, False, False, False, False), 0, dice=(6, 6, 2),
             throws=1, solution=default_solution(Rules(players=8), (9, 8, 9, 7, 9, 9, 10, 9)))
t3 = time.perf_counter()
print(json.dumps({"import_s": t1 - t0, "advice8_first_s": t2 - t1, "advice8_second_s": t3 - t2}))
"""

ADVICE3 = """
import json, time
t0 = time.perf_counter()
""" + SOLUTION + """
t1 = time.perf_counter()
table_advice((9, 9, 9), (False, False, False), 1, before=[(6, 6, 2)], limit=2, dice=(6, 5, 1), throws=1,
             solution=default_solution(Rules(players=3)))
t2 = time.perf_counter()
print(json.dumps({"import_s": t1 - t0, "advice3_first_s": t2 - t1}))
"""

ROUNDS = """
import json, time
from dicemath.games.pitjesbak.table_round import solve_table_round
figures = {}
for players in range(2, 9):
    start = time.perf_counter()
    solve_table_round(players=players)
    figures[f"round{players}_first_s"] = time.perf_counter() - start
    count, start = 0, time.process_time()
    while time.process_time() - start < 0.5:
        solve_table_round(players=players)
        count += 1
    figures[f"round{players}_cpu_ms"] = (time.process_time() - start) / count * 1e3
print(json.dumps(figures))
"""

BEFORE_SHIPPED = "d2a1d66"
"""The last revision without shipped table solutions: a table of four was solved on first use."""

FIRST4 = """
import json, time
t0 = time.perf_counter()
from dicemath.games.pitjesbak.game import PITJESBAK_GAME
from dicemath.games.pitjesbak.rules import Rules
from dicemath.games.pitjesbak.state import initial_state
t1 = time.perf_counter()
first = PITJESBAK_GAME.advise(initial_state(Rules(players=4)).apply((6, 5, 1)))
t2 = time.perf_counter()
later = initial_state(Rules(players=4), stripes=(4, 9, 10, 6), wiped=(True, False, False, True))
PITJESBAK_GAME.advise(later.apply((5, 5, 5)))
t3 = time.perf_counter()
assert first.exact, first.source
print(json.dumps({"import_s": t1 - t0, "advice4_first_s": t2 - t1, "advice4_second_s": t3 - t2}))
"""

GAME = """
import json, time
from dicemath.games.pitjesbak.rules import Rules
from dicemath.games.pitjesbak.table_solver import _iterate, solve_table, two_player_cap, two_player_solution
rules, cap = Rules(players={players}, stripes=9), 11
figures = {{}}
if {players} == 3:
    wall = time.perf_counter()
    solve_table(rules, use_cache=False)
    figures["solve3_with_2p_subgame_s"] = time.perf_counter() - wall
subgames = {{2: two_player_solution(rules, two_player_cap(rules, cap), use_cache=False)}}
for k in range(3, {players}):
    subgames[k] = solve_table(rules.with_players(k), use_cache=False)
wall, cpu = time.perf_counter(), time.process_time()
values, sweeps, residual = _iterate(rules, cap, subgames, tol=1e-12, max_sweeps=100)
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
print(list(values[-1]), sweeps)
figures.update({{"solve{players}_s": wall, "solve{players}_cpu_s": cpu, "cpu_per_sweep{players}_s": cpu / sweeps}})
print(json.dumps(figures))
"""


def main() -> None:
    if "--first-answer" in sys.argv:
        compare(FIRST4, previous=BEFORE_SHIPPED, title="the first four-player answer, cold")
        return
    compare(ADVICE8, title="advice at a table of 8")
    compare(ADVICE3, title="advice at a table of 3")
    compare(ROUNDS, title="one round by players")
    compare(GAME.format(players=3), title="3 players from 9 stripes")
    if "--quick" not in sys.argv:
        compare(GAME.format(players=4), title="4 players from 9 stripes")


if __name__ == "__main__":
    main()
