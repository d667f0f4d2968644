"""Exact race advice late in a game: how often the boards reachable from a pair fit the
exact solver, and what the first answer costs, against the revision that solved only whole
reduced boards of up to five rows.

Run: ``python benchmarks/bench_race_box.py [--games 40] [--positions 2] [--previous e6a3e42]
[--kernel]``.
Prints two tables:

* **Reach.** Games of two players who both follow the advisor (``Advisor.policy``, seeded):
  at every turn start, the open rows of both boards together and the pairs reachable from
  the pair (each player's boards reachable from his board,
  :meth:`dicemath.games.pegs_fives.race_box.RaceBox.of_board`). Per number of rows: the turn
  starts, the share whose race advice is exact now (at most ``RACE_MAX_PAIRS`` pairs and
  ``BOX_MAX_BOARDS`` boards a player) and before (at most five rows), the median and largest
  count of pairs, and the median of how many times more pairs one box holding both boards
  (:meth:`~dicemath.games.pegs_fives.race_box.RaceBox.around`) would solve.
* **The largest races** (``--kernel``): the kernel's time on two sets of boards of the most
  pairs it takes on six rows, beside the whole five-row race on rows of the same kind and one
  box of 7,776 boards holding both players' boards on the six rows, one after the other in
  this process (two threads); then two sets on all twelve rows near the limit.
* **First answers**, side by side with ``--previous`` (``side_by_side.compare``: fresh
  processes, empty caches): ``race_advice`` at the first ``--positions`` turn starts of those
  games with five, six, eight and nine open rows, cold; the figures are the positions answered
  exactly, their seconds in total and the slowest.

Recorded (two cores of an AMD EPYC):

* reach, 40 games of each: every turn start with up to seven open rows (both boards
  together) is exact, about 95% (Pegs) and 90% (Fives) with eight, 55 to 62% with nine, 22 to
  35% with ten; such an answer takes well under a second, up to about 7 s with eight rows;
* ``--kernel``: the whole five-row race takes 16 s (Pegs rows 8..12), 47 s (rows 2, 4, .., 10)
  and 161 s (rows 1..5); a box of 7,776 boards on six rows 26 s, 55 s and 184 s on rows of the
  same kind; two sets at the limit of pairs about as long as the whole five-row race on rows
  of the same kind, 15 to 154 s, the longest on Pegs' rows 1..6 (one die a hit); 25 million
  pairs on all twelve rows, one step to go on each, 148 s.
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
from dicemath.games.pegs_fives.limits import RACE_MAX_ROWS  # noqa: E402
from dicemath.games.pegs_fives.race_solver import BOX_MAX_BOARDS, RACE_MAX_BOARDS, RACE_MAX_PAIRS  # noqa: E402
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
for rows in (5, 6, 8, 9):
    union = lambda a, b: set(open_rows_of(a, rules.goal)) | set(open_rows_of(b, rules.goal))
    chosen = list(dict.fromkeys((a, b) for a, b in starts if open_rows_of(a, rules.goal) and len(union(a, b)) == rows))
    times, exact = [], 0
    for a, b in chosen[:{positions}]:
        t = time.perf_counter()
        exact += race_advice(rules, a, throw, [b]).exact
        times.append(time.perf_counter() - t)
    figures[f"rows{{rows}}_exact"] = exact
    figures[f"rows{{rows}}_total_s"] = sum(times)
    figures[f"rows{{rows}}_slowest_s"] = max(times, default=0.0)
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
        rows = tuple(sorted(set(open_rows_of(own, rules.goal)) | set(open_rows_of(other, rules.goal))))
        sizes = RaceBox.of_board(rules, rows, own).size, RaceBox.of_board(rules, rows, other).size
        fits = sizes[0] * sizes[1] <= RACE_MAX_PAIRS and max(sizes) <= BOX_MAX_BOARDS
        one_box = RaceBox.around(rules, own, other).size ** 2 / (sizes[0] * sizes[1])
        by_rows.setdefault(len(rows), []).append((sizes[0] * sizes[1], fits, one_box))
    print(f"{rules.name}: {games} advisor games (seed {seed}); exact now: <= {RACE_MAX_PAIRS:,} pairs, "
          f"<= {BOX_MAX_BOARDS:,} boards a player; before: <= {RACE_MAX_ROWS} rows")
    print(f"  {'rows':>4s}{'turn starts':>13s}{'exact now':>11s}{'before':>8s}{'median pairs':>24s}{'largest':>28s}"
          f"{'one box, x':>12s}")
    for rows in sorted(by_rows):
        pairs = np.array([p for p, _, _ in by_rows[rows]], dtype=np.int64)
        now = float(np.mean([fits for _, fits, _ in by_rows[rows]]))
        one_box = float(np.median([x for _, _, x in by_rows[rows]]))
        print(f"  {rows:4d}{len(pairs):13d}{now:11.0%}{float(rows <= RACE_MAX_ROWS):8.0%}"
              f"{int(np.median(pairs)):24,d}{int(pairs.max()):28,d}{one_box:12,.0f}")


LARGEST = (
    (PEGS, (8, 9, 10, 11, 12), (7, 8, 9, 10, 11, 12), (3, 4, 0, 0, 0, 0), (3, 5, 0, 0, 0, 0)),
    (PEGS, (2, 4, 6, 8, 10), (2, 4, 6, 8, 10, 12), (0, 0, 0, 0, 3, 4), (0, 0, 0, 0, 3, 5)),
    (PEGS, (1, 2, 3, 4, 5), (1, 2, 3, 4, 5, 6), (0, 0, 0, 0, 3, 4), (0, 0, 0, 0, 3, 5)),
    (FIVES, (2, 4, 6, 8, 10), (2, 4, 6, 8, 10, 12), (0, 0, 0, 0, 3, 4), (0, 0, 0, 0, 3, 5)),
)
"""Five rows, and on six rows of the same kind two sets of 7,776 and 3,888 boards: the most
pairs the kernel takes, as many systems as the whole five-row race solves."""


TWELVE_ROWS = ((PEGS, (4,) * 12, (3,) + (4,) * 11), (FIVES, (4,) * 12, (3,) + (4,) * 11))
"""Every row open, one step to go on each (one row two for the second mover): two sets of 4,096
and 6,144 boards, 25 million pairs, near the limit."""


def largest_races() -> None:
    from dicemath.games.pegs_fives.race_solver import solve_race_compiled

    print("the largest races: kernel seconds (two threads); the whole five-row race, and on six rows of the same "
          "kind one box of 7,776 boards holding both players' and two sets at the limit of pairs")
    print(f"  {'game':6s}{'five rows':>16s}{'s':>8s}{'six rows':>20s}{'one box s':>11s}{'two sets s':>12s}"
          f"{'two / five':>12s}")
    for rules, five, six, floors, second_floors in LARGEST:
        whole_s = solve_race_compiled(rules, five, decisions=False).seconds
        box = solve_race_compiled(rules, six, floors=floors, decisions=False)
        assert box.layout.size == RACE_MAX_BOARDS
        box_s = box.seconds
        del box
        two = solve_race_compiled(rules, six, floors=floors, second_floors=second_floors, decisions=False)
        assert two.V1.size == RACE_MAX_PAIRS
        print(f"  {rules.name:6s}{','.join(map(str, five)):>16s}{whole_s:8.1f}{','.join(map(str, six)):>20s}"
              f"{box_s:11.1f}{two.seconds:12.1f}{two.seconds / whole_s:11.2f}x", flush=True)
        del two
    for rules, floors, second_floors in TWELVE_ROWS:
        two = solve_race_compiled(rules, range(1, 13), floors=floors, second_floors=second_floors, decisions=False)
        print(f"  {rules.name}: all twelve rows, one step to go on each, {two.V1.size:,} pairs: {two.seconds:.1f} s",
              flush=True)
        del two


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--positions", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--previous", default="e6a3e42", help="the revision to compare with")
    parser.add_argument("--kernel", action="store_true", help="also time the largest races (minutes)")
    args = parser.parse_args()
    if args.kernel:
        largest_races()
    for rules in (PEGS, FIVES):
        reach(rules, args.games, args.seed)
    for game in ("PEGS", "FIVES"):
        compare(FIRST_ANSWERS.format(game=game, seed=args.seed, games=args.games, positions=args.positions),
                args.previous, title=f"{game.lower()}: race advice at five, six, eight and nine open rows, cold")


if __name__ == "__main__":
    main()
