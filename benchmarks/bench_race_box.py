"""Exact race advice late in a game: how often the boards reachable from a pair fit the
exact solver, and what the first answer costs, against the revision that solved only whole
reduced boards of up to five rows.

Run: ``python benchmarks/bench_race_box.py [--games 40] [--positions 3] [--previous e6a3e42]
[--kernel]``.
Prints two tables:

* **Reach.** Games of two players who both follow the advisor (``Advisor.policy``, seeded):
  at every turn start, the open rows of both boards together and the boards reachable from
  the pair (:meth:`dicemath.games.pegs_fives.race_box.RaceBox.around`). Per number of rows:
  the turn starts, the share whose race advice is exact now (the box at most
  ``RACE_MAX_BOARDS`` boards, at most ``BOX_MAX_ROWS`` rows) and before (at most five rows),
  and the median and largest box.
* **Largest boxes** (``--kernel``): the kernel's time on a box of the most boards it takes on
  six rows, beside the whole five-row race on rows of the same kind, one after the other in
  this process (two threads).
* **First answers**, side by side with ``--previous`` (``side_by_side.compare``: fresh
  processes, empty caches): ``race_advice`` at the first ``--positions`` turn starts of those
  games with five and with six open rows, cold; the figures are the positions answered
  exactly, their seconds in total and the slowest.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from side_by_side import compare  # noqa: E402

from dicemath.games.pegs_fives.advisor import Advisor  # noqa: E402
from dicemath.games.pegs_fives.race_box import RaceBox  # noqa: E402
from dicemath.games.pegs_fives.race_solver import BOX_MAX_ROWS, RACE_MAX_BOARDS, RACE_MAX_ROWS  # noqa: E402
from dicemath.games.pegs_fives.races import play_race  # noqa: E402
from dicemath.games.pegs_fives.rules import FIVES, PEGS  # noqa: E402
from dicemath.games.pegs_fives.turn import open_rows_of  # noqa: E402

FIRST_ANSWERS = """
import json, random, time
from dicemath.games.pegs_fives.advisor import Advisor
from dicemath.games.pegs_fives.race_advice import race_advice
from dicemath.games.pegs_fives.races import play_race
from dicemath.games.pegs_fives.rules import {game} as rules
from dicemath.games.pegs_fives.turn import open_rows_of

advisor = Advisor(rules)
starts = []
def maker(own, other):
    starts.append((own, other))
    return advisor.policy
rng = random.Random({seed})
for _ in range({games}):
    play_race(rules, [maker, maker], rng)
figures = {{}}
throw = (1, 2, 3, 4, 5, 6)
for rows in (5, 6):
    union = lambda a, b: set(open_rows_of(a, rules.goal)) | set(open_rows_of(b, rules.goal))
    chosen = list(dict.fromkeys((a, b) for a, b in starts if open_rows_of(a, rules.goal) and len(union(a, b)) == rows))
    times, exact = [], 0
    for a, b in chosen[:{positions}]:
        t = time.perf_counter()
        exact += race_advice(rules, a, throw, [b]).exact
        times.append(time.perf_counter() - t)
    figures[f"rows{{rows}}_exact"] = exact
    figures[f"rows{{rows}}_total_s"] = sum(times)
    figures[f"rows{{rows}}_slowest_s"] = max(times)
print(json.dumps(figures))
"""


def turn_starts(rules, games: int, seed: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every turn start ``(mover, opponent)`` of ``games`` advisor-played races."""
    advisor = Advisor(rules)
    starts = []

    def maker(own, other):
        starts.append((own, other))
        return advisor.policy

    rng = random.Random(seed)
    for _ in range(games):
        play_race(rules, [maker, maker], rng)
    return starts


def reach(rules, games: int, seed: int) -> None:
    by_rows: dict[int, list[int]] = {}
    for own, other in turn_starts(rules, games, seed):
        if not open_rows_of(own, rules.goal):
            continue
        rows = len(set(open_rows_of(own, rules.goal)) | set(open_rows_of(other, rules.goal)))
        by_rows.setdefault(rows, []).append(RaceBox.around(rules, own, other).size)
    print(f"{rules.name}: {games} advisor games (seed {seed}); exact now: box <= {RACE_MAX_BOARDS:,} boards "
          f"and <= {BOX_MAX_ROWS} rows; before: <= {RACE_MAX_ROWS} rows")
    print(f"  {'rows':>4s}{'turn starts':>13s}{'exact now':>11s}{'before':>8s}{'median box':>12s}{'largest':>14s}")
    for rows in sorted(by_rows):
        sizes = np.array(by_rows[rows])
        now = float(np.mean((sizes <= RACE_MAX_BOARDS) & (rows <= BOX_MAX_ROWS)))
        print(f"  {rows:4d}{len(sizes):13d}{now:11.0%}{float(rows <= RACE_MAX_ROWS):8.0%}"
              f"{int(np.median(sizes)):12,d}{int(sizes.max()):14,d}")


LARGEST = (
    (PEGS, (8, 9, 10, 11, 12), (7, 8, 9, 10, 11, 12), (3, 4, 0, 0, 0, 0)),
    (PEGS, (2, 4, 6, 8, 10), (2, 4, 6, 8, 10, 12), (0, 0, 0, 0, 3, 4)),
    (PEGS, (1, 2, 3, 4, 5), (1, 2, 3, 4, 5, 6), (0, 0, 0, 0, 3, 4)),
    (FIVES, (2, 4, 6, 8, 10), (2, 4, 6, 8, 10, 12), (0, 0, 0, 0, 3, 4)),
)
"""Five rows and a six-row box of 7,776 boards on rows of the same kind."""


def largest_boxes() -> None:
    from dicemath.games.pegs_fives.race_solver import solve_race_compiled

    print("the largest boxes: kernel seconds (two threads), the whole five-row race beside a six-row box")
    print(f"  {'game':6s}{'five rows':>22s}{'s':>8s}{'six-row box':>26s}{'s':>8s}{'ratio':>8s}")
    for rules, five, six, floors in LARGEST:
        whole = solve_race_compiled(rules, five, decisions=False)
        box = solve_race_compiled(rules, six, floors=floors, decisions=False)
        assert whole.layout.size == box.layout.size == RACE_MAX_BOARDS
        print(f"  {rules.name:6s}{','.join(map(str, five)):>22s}{whole.seconds:8.1f}"
              f"{','.join(map(str, six)):>26s}{box.seconds:8.1f}{box.seconds / whole.seconds:7.2f}x", flush=True)
        del whole, box


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--positions", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--previous", default="e6a3e42", help="the revision to compare with")
    parser.add_argument("--kernel", action="store_true", help="also time the largest boxes (minutes)")
    args = parser.parse_args()
    if args.kernel:
        largest_boxes()
    for rules in (PEGS, FIVES):
        reach(rules, args.games, args.seed)
    for game in ("PEGS", "FIVES"):
        compare(FIRST_ANSWERS.format(game=game, seed=args.seed, games=args.games, positions=args.positions),
                args.previous, title=f"{game.lower()}: race advice at five and six open rows, cold")


if __name__ == "__main__":
    main()
