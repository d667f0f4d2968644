"""The backgammon kernels, C (this checkout) beside numba (:data:`side_by_side.PREVIOUS`).

Each measurement runs in a fresh process with empty caches on both revisions
(:func:`side_by_side.compare`, which adds the process's wall and CPU seconds and peak memory):

* ``moves``, ``cube``: the first answer of ``dicemath backgammon moves 4HPwATDgc/ABMA 3 1`` and
  of ``dicemath backgammon cube 2,2,0,0,0,0 --versus 0,0,1,1,1,0`` (a bear-off: it builds the
  move table, the one-sided table and the 6-checker cubeful table capped at 64 on first use;
  numba also compiles its kernels there);
* ``tables``: CPU per unit of each kernel once compiled (numba's compile left out by a first
  call): the plays of a roll per position (random positions of both presets; as arrays,
  ``roll_results``, and as the engine's list of ``Move``, mostly Python), the bear-off
  move table and the one-sided table per board (54,264), the two-sided tables of 6 and 8
  checkers per pair;
* ``cubeful``: the 6-checker cubeful tables (unbounded cube, and capped at 64) per pair;
* ``database``: the two-sided database of 9 checkers per pair (after a warm-up build of 4).

Each also prints whether both revisions' tables are the same bits (a digest of every array).

Run: ``python benchmarks/bench_backgammon_kernels.py [--only moves,cube,tables,cubeful,database]``
(a few minutes: the earlier revision compiles its numba kernels in every process).
"""

from __future__ import annotations

import argparse

from side_by_side import HERE, compare

PRELUDE = """
import contextlib, hashlib, io, json, random, sys, tempfile, time
import numpy as np
figures, digest = {}, hashlib.sha256()
def note(arrays):
    for key in sorted(arrays):
        digest.update(np.ascontiguousarray(arrays[key]).tobytes())
def cpu_per(name, unit, count, work):
    cpu = time.process_time()
    result = work()
    figures[f"{name}_cpu_us_per_{unit}"] = (time.process_time() - cpu) / count * 1e6
    return result
def finish():
    figures["digest"] = int(digest.hexdigest()[:12], 16)
    print(json.dumps(figures))
"""

FIRST_ANSWER = PRELUDE + """
tic = time.perf_counter()
from dicemath.cli import main
with contextlib.redirect_stdout(io.StringIO()) as out:
    main(QUERY)
figures["answered_at_s"] = time.perf_counter() - tic
digest.update(out.getvalue().encode())
finish()
"""

TABLES = PRELUDE + """
sys.path.insert(0, TESTS)
from strategies import random_position
from dicemath.games.backgammon import bearoff
from dicemath.games.backgammon.moves import legal_moves, roll_results
from dicemath.games.backgammon.rules import PLAYTIVE, STANDARD
rng = random.Random(1)
cases = []
while len(cases) < 4000:
    position = random_position(rng, bear_off_bias=0.3)
    if not position.is_over():
        cases.append((position, (rng.randint(1, 6), rng.randint(1, 6)), rng.choice((STANDARD, PLAYTIVE))))
legal_moves(cases[0][2], *cases[0][:2])
sides = [(rules, p.on_roll, p.opponent, dice[0], dice[1]) for p, dice, rules in cases]
cpu_per("roll_results", "position", len(cases), lambda: [roll_results(*side) for side in sides])
plays = cpu_per("legal_moves", "position", len(cases), lambda: [legal_moves(r, p, d) for p, d, r in cases])
digest.update(repr([[(m.steps, m.after.position_id()) for m in found] for found in plays]).encode())
bearoff._build_moves(STANDARD, 2)
boards = bearoff.positions_count()
for rules in (STANDARD, PLAYTIVE):
    moves = cpu_per(f"move_table_{rules.name}", "board", boards, lambda: bearoff._build_moves(rules))
    note(moves)
table = bearoff.move_table(STANDARD)
bearoff._build_one_sided(STANDARD, table)
note(cpu_per("one_sided", "board", boards, lambda: bearoff._build_one_sided(STANDARD, table)))
bearoff._build_two_sided(2, STANDARD, table)
for checkers in (6, 8):
    pairs = bearoff.positions_count(checkers) ** 2
    note(cpu_per(f"two_sided_{checkers}", "pair", pairs,
                              lambda: bearoff._build_two_sided(checkers, STANDARD, table)))
finish()
"""

CUBEFUL = PRELUDE + """
from dicemath.games.backgammon.bearoff import move_table, positions_count
from dicemath.games.backgammon.cubeful_bearoff import build_cubeful_arrays
move_table()
build_cubeful_arrays(2, max_cube=64)
pairs = positions_count(6) ** 2
note(cpu_per("cubeful_6", "pair", pairs, lambda: build_cubeful_arrays(6)))
note(cpu_per("cubeful_6_cap_64", "pair", pairs, lambda: build_cubeful_arrays(6, max_cube=64)))
finish()
"""

DATABASE = PRELUDE + """
from pathlib import Path
from dicemath.games.backgammon import bearoff_database as db
from dicemath.games.backgammon.bearoff import move_table
move_table()
with tempfile.TemporaryDirectory() as folder:
    db.build_database(4, Path(folder) / "warm-up", show_progress=False)
    pairs = db.build_work(9)["pairs"]
    cpu_per("database_9", "pair", pairs, lambda: db.build_database(9, folder, show_progress=False))
    note({"win": np.load(Path(folder) / "two-sided-9" / "win.npy")})
finish()
"""

MEASUREMENTS = {
    "moves": ("first answer of `dicemath backgammon moves 4HPwATDgc/ABMA 3 1`:",
              FIRST_ANSWER.replace("QUERY", repr(["backgammon", "moves", "4HPwATDgc/ABMA", "3", "1", "--json"]))),
    "cube": ("first answer of `dicemath backgammon cube 2,2,0,0,0,0 --versus 0,0,1,1,1,0` (builds 3 tables):",
             FIRST_ANSWER.replace("QUERY", repr(["backgammon", "cube", "2,2,0,0,0,0", "--versus", "0,0,1,1,1,0",
                                                 "--json"]))),
    "tables": ("plays, move tables, one- and two-sided tables (compiled beforehand):",
               TABLES.replace("TESTS", repr(str(HERE / "tests" / "backgammon")))),
    "cubeful": ("cubeful bear-off tables of 6 checkers (compiled beforehand):", CUBEFUL),
    "database": ("two-sided bear-off database of 9 checkers (compiled beforehand):", DATABASE),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default=",".join(MEASUREMENTS), help="measurements to run, comma-separated")
    args = parser.parse_args()
    for name in args.only.split(","):
        title, snippet = MEASUREMENTS[name]
        both = compare(snippet, title=title)
        now, before = both.values()
        print(f"  same output and tables, bit for bit (SHA-256): {now['digest'] == before['digest']}\n", flush=True)


if __name__ == "__main__":
    main()
