"""The three-player race on each seat's own boards, compiled (float64): exact late in a game.

Seats 0, 1, 2 move in turn, seat 0 first (the three-player race of ``docs/rules.md``; the
values, turns and choices as :mod:`.race_table` states them). A position is the three boards
and the seat to move, at the start of his turn; its value is a vector, one entry per seat:

* Pegs (``scoring="first_out"``): each seat's chance of finishing first (PEGS-2);
* Fives (``scoring="rest_points"``): each seat's expected rest points at the end of the round
  (FIVES-6). A seat's *objective* is ``u = (the others' rest points) / 2 - his own``.

A player playing ``"race"`` maximises his own entry (Pegs) or his ``u`` (Fives); among options
within :data:`~.race_solver.TIE` (relative) of the best, the lowest row. ``"solo"`` plays
solo-optimally (:class:`.race_solver.SoloOptimal`'s choices, from the whole reduced board's
expected turns: at most :data:`~.race_solver.SOLO_MAX_ROWS` open rows).

A board only moves on (PEGS-5, FIVES-3): from a position the race reaches only each seat's
boards of :meth:`.race_box.RaceBox.of_board` on the rows open on any of the three boards, so
:func:`solve_race3_compiled` solves the triples of three boxes, one per seat (:mod:`._race3_c`,
``_race3_c.c``; the turn tables of :func:`.race_solver.kernel_tables`), at most
:data:`TRIPLES_MAX` of them. The three turns of one triple form a cycle (a turn may end on the
mover's board itself); each cycle is solved by policy iteration on each mover's own value, every
step a linear system, the triples by decreasing total progress so that everything else a turn
reaches is final. The box of floors zero is the whole reduced board: from the empty boards the
values are those of the reference :mod:`.race_table`.

:func:`race3_boxes` and :func:`race3_model` are what :mod:`.race_advice` asks for the exact
three-player advice (its source ``"exact three-player race"``).

Example:
    Fives with only the 1s open, everybody playing to win: the rest points of the three seats
    at the end of the round, and their objectives, which sum to zero.

    >>> from dicemath.games.pegs_fives.rules import FIVES
    >>> t = solve_race3_compiled(FIVES, [1])
    >>> rest = t.start_value
    >>> rest[0] < rest[1] < rest[2]
    True
    >>> abs(sum(t.objectives(rest))) < 1e-12
    True
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from dicemath.core.cache import cached_arrays
from dicemath.core.errors import DicemathError, InvalidRulesError
from dicemath.games.pegs_fives.race_box import RaceBox
from dicemath.games.pegs_fives.race_solver import (
    BOX_MAX_ROWS, POLICIES, SOLO_MAX_ROWS, RaceTooLargeError, _RaceTurn, cycle_coefficients, solo_choice_table)
from dicemath.games.pegs_fives.race_table import objectives, own_value
from dicemath.games.pegs_fives.rules import Rules
from dicemath.games.pegs_fives.state import BoardTuple, InvalidBoardError, check_board, check_open_rows, rest_points
from dicemath.games.pegs_fives.turn import open_rows_of

SEATS = 3
"""Players of the compiled race."""

BYTES_PER_TRIPLE = 72
"""The memory of one triple of boards: its value vector (three float64) with each seat to move."""

TRIPLES_MAX = 2_000_000
"""The most triples of boards (the three seats' boxes multiplied) the compiled race solves:
0.14 GB of values (:data:`BYTES_PER_TRIPLE`). The time grows with the triples and the open rows:
measured on an AMD EPYC, some 3 to 7 microseconds of CPU a triple in Fives and 5 to 30 in Pegs
(its PEGS-7 choice throws), up to about a minute of CPU at the limit
(``benchmarks/bench_race_table.py``)."""

THREADED_TRIPLES = 20_000
"""Triples from which the compiled race runs a thread per CPU by default (fewer: one)."""

RACE3_TRIPLE_FORMAT = 1
"""The format version of the cached table ``pegs-fives-race-triple``: change it when its
computation or layout changes."""


@dataclass
class Race3Tables:
    """Every position's value of a three-player race solved by the compiled kernel (float64).

    Attributes:
        rules: the game.
        rows: the open rows the three boxes share.
        policies: each seat's policy (:data:`~.race_solver.POLICIES`), seat 0 first.
        boxes: each seat's boards (:class:`.race_box.RaceBox`), seat 0 first.
        V: ``[s, a, b, c, i]``: seat ``i``'s outcome (Pegs: chance to finish first; Fives:
            expected rest points) with seat ``s`` to move, seats 0, 1, 2 on board indices
            ``a``, ``b``, ``c`` of their boxes. NaN where a board is complete.
        seconds: the kernel's wall time.
        policy_steps: linear solves over all triples; most_steps: the most of one triple.
        triples: the triples of incomplete boards solved.
    """

    rules: Rules
    rows: tuple[int, ...]
    policies: tuple[str, str, str]
    boxes: tuple[RaceBox, RaceBox, RaceBox]
    V: np.ndarray = field(repr=False)
    seconds: float
    policy_steps: int
    most_steps: int
    triples: int

    @property
    def start_value(self) -> tuple[float, ...]:
        """Every seat's value from the boxes' first boards (the empty boards of a whole reduced
        board), seat 0 to move."""
        return tuple(float(v) for v in self.V[0, 0, 0, 0])

    def value(self, boards: Sequence[Sequence[int]], mover: int = 0) -> tuple[float, ...]:
        """The value vector of a position, mover first (T1): ``boards`` the mover's board, then
        the next seat's, then the one after; ``mover`` the seat to move.

        Raises:
            InvalidBoardError: not three boards, a board outside its seat's box, or a complete
                board (the round is over).
            DicemathError: a seat outside 0..2.
        """
        if isinstance(mover, bool) or mover not in range(SEATS):
            raise DicemathError(f"the seat to move is 0, 1 or 2, got {mover!r}")
        if len(boards) != SEATS:
            raise InvalidBoardError(f"a three-player position has three boards, got {len(boards)}")
        index = [0] * SEATS
        for i, board in enumerate(boards):
            seat = (mover + i) % SEATS
            b = check_board(board, self.rules)
            if not open_rows_of(b, self.rules.goal):
                raise InvalidBoardError(f"board {list(b)} is complete: the round is over")
            index[seat] = self.boxes[seat].index(b)
        vector = self.V[(mover, *index)]
        return tuple(float(vector[(mover + i) % SEATS]) for i in range(SEATS))

    def objectives(self, vector: Sequence[float]) -> tuple[float, ...]:
        """Each player's objective from a value vector (:func:`.race_table.objectives`): Pegs
        the vector itself; Fives ``u_i = (sum of the others' rest points) / 2 - R_i``."""
        return tuple(float(u) for u in objectives(self.rules, vector))


def check_race3_boxes(rules: Rules, open_rows: Sequence[int],
                      floors: Sequence[Sequence[int]] | None = None) -> tuple[RaceBox, RaceBox, RaceBox]:
    """Each seat's boards of a three-player race: the boxes of ``floors`` (one per seat, each a
    progress per open row; None: the whole reduced board for every seat), on at most
    :data:`~.race_solver.BOX_MAX_ROWS` rows and :data:`TRIPLES_MAX` triples.

    Raises:
        InvalidBoardError: bad rows or floors.
        RaceTooLargeError: more triples than that.

    Example:
        >>> from dicemath.games.pegs_fives.rules import PEGS
        >>> [b.size for b in check_race3_boxes(PEGS, [11, 12], [[0, 0], [3, 0], [5, 4]])]
        [36, 18, 2]
    """
    rows = check_open_rows(open_rows, rules)
    chosen = [()] * SEATS if floors is None else [tuple(f) for f in floors]
    if len(chosen) != SEATS:
        raise InvalidBoardError(f"a three-player race has floors for three seats, got {len(chosen)}")
    boxes = (RaceBox(rules, rows, chosen[0]), RaceBox(rules, rows, chosen[1]), RaceBox(rules, rows, chosen[2]))
    if len(rows) > BOX_MAX_ROWS:
        raise RaceTooLargeError(f"the exact race is solved for at most {BOX_MAX_ROWS} open rows; got {len(rows)}")
    triples = math.prod(box.size for box in boxes)
    if triples > TRIPLES_MAX:
        raise RaceTooLargeError(
            f"the compiled three-player race is solved for at most {TRIPLES_MAX:,} triples of boards "
            f"({BYTES_PER_TRIPLE} bytes each); rows {list(rows)} from the floors {[list(b.floors) for b in boxes]} "
            f"are {' x '.join(f'{b.size:,}' for b in boxes)} = {triples:,}")
    return boxes


@lru_cache(maxsize=8)
def _shared_tables(rules: Rules, rows: tuple[int, ...]) -> tuple[np.ndarray, ...]:
    """The turn tables of :mod:`._race3_c` that every box shares: the cycle coefficients and
    the choice-throw groups of :func:`.race_solver.kernel_tables`, and the dice a hit sets aside."""
    from dicemath.games.pegs_fives.fullboard.pegs_kernel import throw_groups

    T = rules.throws or 1
    if T > 3:
        raise InvalidRulesError(f"the race kernels compile PEGS-7 choice throws for at most 3 throws (PEGS-3), "
                                f"got throws={rules.throws}")
    coef = np.ascontiguousarray(cycle_coefficients(rules, rows), dtype=np.float64)
    groups = throw_groups(rules, rows)
    entry_idx = (groups["entry_row"] * (rules.dice + 1) + groups["entry_hits"]).astype(np.int64)
    per_hit = np.array([rules.dice_per_hit[r - 1] for r in rows], np.int64)
    return (coef, np.ascontiguousarray(groups["group_start"], np.int64),
            np.ascontiguousarray(groups["group_p"], np.float64),
            np.ascontiguousarray(groups["entry_start"], np.int64), entry_idx, per_hit)


def _box_tables(rules: Rules, box: RaceBox, policy: str) -> tuple[np.ndarray, ...]:
    """A seat's boards as :mod:`._race3_c` reads them: steps, strides, completeness, rest
    points (FIVES-6) and, for a solo player, the solo choices (else empty)."""
    steps = np.ascontiguousarray(box.steps(), dtype=np.int64)
    complete = np.ascontiguousarray((steps >= rules.goal).all(axis=1), dtype=np.uint8)
    RP = np.ascontiguousarray(((rules.goal - steps) * np.array(box.rows)).sum(axis=1), dtype=np.float64)
    if policy == "solo":
        solo = np.ascontiguousarray(solo_choice_table(rules, box.rows, box.floors), dtype=np.int32)
    else:
        solo = np.zeros(0, dtype=np.int32)
    return steps, np.array(box.strides, np.int64), complete, RP, solo


def solve_race3_compiled(rules: Rules, open_rows: Sequence[int], *, floors: Sequence[Sequence[int]] | None = None,
                         policies: Sequence[str] = ("race", "race", "race"),
                         threads: int | None = None) -> Race3Tables:
    """Solve the three-player race on each seat's own boards with the compiled kernel (float64).

    Args:
        rules: :data:`~.rules.PEGS`, :data:`~.rules.FIVES` or a variant (the scoring decides:
            ``"first_out"`` values chances to finish first, ``"rest_points"`` rest points).
        open_rows: the rows the boxes share (at most :data:`~.race_solver.BOX_MAX_ROWS`).
        floors: each seat's box (:func:`check_race3_boxes`); None: the whole reduced board.
        policies: each seat's policy, ``"race"`` or ``"solo"`` (solo needs at most
            :data:`~.race_solver.SOLO_MAX_ROWS` open rows).
        threads: threads of the kernel (default one per CPU from :data:`THREADED_TRIPLES`
            triples, else one); the values are the same whatever the threads.

    Raises:
        InvalidBoardError, RaceTooLargeError: bad or too many rows, floors or triples.
        DicemathError: policies not three of :data:`~.race_solver.POLICIES`.
        InvalidRulesError: more than three throws (PEGS-3).
        RuntimeError: a triple whose policy iteration does not settle.
    """
    from dicemath.games.pegs_fives import _race3_c  # type: ignore[attr-defined]  # C extension, no stubs

    boxes = check_race3_boxes(rules, open_rows, floors)
    chosen = tuple(policies)
    if len(chosen) != SEATS or any(p not in POLICIES for p in chosen):
        raise DicemathError(f"a three-player race takes three policies of {POLICIES}, got {list(policies)}")
    rows = boxes[0].rows
    if "solo" in chosen and len(rows) > SOLO_MAX_ROWS:
        raise RaceTooLargeError(f"a solo player's choices come from the whole board's expected turns: at most "
                                f"{SOLO_MAX_ROWS} open rows, got {len(rows)}")
    shared = _shared_tables(rules, rows)
    tables = tuple(_box_tables(rules, box, policy) for box, policy in zip(boxes, chosen))
    V = np.full((SEATS, *(box.size for box in boxes), SEATS), np.nan)
    triples = math.prod(box.size for box in boxes)
    if threads is None:
        threads = (os.cpu_count() or 1) if triples >= THREADED_TRIPLES else 1
    T = rules.throws or 1
    start = time.perf_counter()
    steps, solved, most = _race3_c.solve_triples(
        shared, tables, (len(rows), rules.goal, rules.dice, T), V,
        tuple(p == "race" for p in chosen) + (rules.scoring == "first_out",), threads)
    seconds = time.perf_counter() - start
    return Race3Tables(rules, rows, (chosen[0], chosen[1], chosen[2]), boxes, V, seconds, steps, most, solved)


# ---------------------------------------------------------------------------------------------
# Exact advice at a table of three (race_advice's source "exact three-player race")
# ---------------------------------------------------------------------------------------------

def race3_boxes(rules: Rules, board: BoardTuple, opponents: Sequence[BoardTuple], rows: tuple[int, ...],
                max_rows: int) -> tuple[RaceBox, RaceBox, RaceBox] | None:
    """The boards reachable from the mover's ``board`` and from each of the two ``opponents``'
    (in the order they move after him) on the open ``rows``; None when no exact three-player
    race is solved: not two opponents, more rows than ``max_rows`` (or
    :data:`~.race_solver.BOX_MAX_ROWS`), or more triples than :data:`TRIPLES_MAX`.

    Example:
        >>> from dicemath.games.pegs_fives.rules import PEGS
        >>> board = (5,) * 10 + (2, 3)
        >>> boxes = race3_boxes(PEGS, board, [(5,) * 10 + (4, 0), (5,) * 11 + (1,)], (11, 12), 12)
        >>> [b.size for b in boxes]
        [12, 12, 5]
    """
    if len(opponents) != 2 or not 0 < len(rows) <= min(max_rows, BOX_MAX_ROWS):
        return None
    boxes = (RaceBox.of_board(rules, rows, board), RaceBox.of_board(rules, rows, opponents[0]),
             RaceBox.of_board(rules, rows, opponents[1]))
    return boxes if math.prod(box.size for box in boxes) <= TRIPLES_MAX else None


def race3_model(rules: Rules, board: BoardTuple, opponents: Sequence[BoardTuple],
                boxes: tuple[RaceBox, RaceBox, RaceBox]) -> tuple[_RaceTurn, float]:
    """The exact three-player race's within-turn model of the mover (every seat playing to win)
    on the boards reachable from the position, ``boxes`` (:func:`race3_boxes`), and the mover's
    own value of the position (Pegs: his chance to finish first; Fives: his objective ``u``).

    The mover is seat 0, the opponents seats 1 and 2. A turn of his ending on his board ``x``
    is worth his own value of seat 1 to move at ``x`` against the opponents' boards; a fresh
    start on ``x``, of his own turn there; a complete board ends the round (Pegs: 1; Fives:
    the opponents' mean rest points). The race is solved once and these two rows kept in the
    cache (``pegs-fives-race-triple``).

    Raises:
        RaceTooLargeError: boxes beyond :data:`TRIPLES_MAX`.
    """
    mine, first, second = boxes
    y, z = first.index(opponents[0]), second.index(opponents[1])

    def solve() -> dict[str, np.ndarray]:
        race = solve_race3_compiled(rules, mine.rows, floors=[box.floors for box in boxes])
        return {"end": race.V[1, :, y, z].copy(), "restart": race.V[0, :, y, z].copy()}

    leaves = cached_arrays("pegs-fives-race-triple", (rules, mine.rows, tuple(box.floors for box in boxes)), solve,
                           format_version=RACE3_TRIPLE_FORMAT)
    ends, restarts = leaves["end"], leaves["restart"]
    goal = rules.goal
    win = 1.0 if rules.scoring == "first_out" else (
        rest_points(opponents[0], goal) + rest_points(opponents[1], goal)) / 2

    def own(vector: np.ndarray) -> float:
        return float(own_value(rules, [float(v) for v in vector]))

    def end(x: BoardTuple) -> float:
        return win if not open_rows_of(x, goal) else own(ends[mine.index(x)])

    def restart(x: BoardTuple) -> float:
        return win if not open_rows_of(x, goal) else own(restarts[mine.index(x)])

    model = _RaceTurn(rules, end, restart, exact=False)
    model.end = end
    return model, own(restarts[mine.index(board)])
