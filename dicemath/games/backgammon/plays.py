"""The rules that move checkers (BG-3..BG-6), written once in C (``_plays_c.c``, built at
install) for the rules engine and the kernels.

A *side* is 25 checker counts in its owner's numbering: index ``p - 1`` is his point
``p`` (1..24, he bears off from his home board 1..6), index 24 his bar. The mover's side
is ``mine``, his opponent's ``theirs`` (in the opponent's numbering: my point ``p`` is his
point ``25 - p``). A *step* moves one checker with one die from ``source`` (1..24, or
the bar :data:`~.position.BAR` = 25) to ``target`` (1..24, or borne off, :data:`~.position.OFF` = 0).

* :func:`step_target`: where a step of one die lands, or -1 when the rules forbid it
  (BG-4 closed points and the ``playtive`` limit, BG-5 the bar first, BG-6 bearing off);
* :func:`move_checker`: the two sides after a step, hitting a blot (BG-5);
* :func:`roll_plays`: every distinct result of the legal plays of a roll (BG-3: both dice
  if possible, else one die, the larger if either; doubles four times), each with the
  steps of one play that reaches it;
* :func:`bearoff_move_table`: the same rule of a roll (one C function, run over dense
  indices of home boards) for every home board and roll, the bear-off move table.

The rules engine (:mod:`~dicemath.games.backgammon.moves`), self-play, the evaluator's
look-ahead and the bear-off tables (:mod:`~dicemath.games.backgammon.bearoff`) all call
these functions. A rule change is one edit of ``_plays_c.c``.

The count of dice is strict, as in GNU Backgammon: a play that bears off the last checker
with one die is not legal when another play uses both dice (one checker on the 4-point, a
blot on the 2-point, roll 4-2: only ``4/2*/off``, which may win a backgammon).

Example:
    >>> start = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)
    >>> step_target(start, start, 24, 6, 0), step_target(start, start, 8, 2, 0), step_target(start, start, 8, 2, 5)
    (18, 6, -1)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from dicemath.games.backgammon import _plays_c  # type: ignore[attr-defined]  # C extension, no stubs
from dicemath.games.backgammon.position import BAR

STEP_BITS = 10
"""A step is coded ``source * 32 + target`` in 10 bits; a play's steps, sorted from the
highest down, are packed four to an int64 (the first step in the highest bits), so two
plays with as many steps compare like the tuples of their sorted steps."""

Side = Sequence[int] | np.ndarray
"""25 checker counts: a tuple or list of ints, or an int8 array."""


def _side(counts: Side) -> bytes:
    """A side as the C functions read it: 25 int8 counts."""
    return counts.astype(np.int8, copy=False).tobytes() if isinstance(counts, np.ndarray) else bytes(counts)


def step_target(mine: Side, theirs: Side, source: int, die: int, limit: int) -> int:
    """Where a checker of the mover on ``source`` lands with ``die``, or -1 if he may not.

    BG-5: with a checker on the bar, only the bar moves. BG-4: a point holding two or
    more opposing checkers is closed; with ``limit > 0`` (``playtive``: 5) so is a point
    holding ``limit`` of his own. BG-6: bearing off (target ``OFF`` = 0) needs every
    checker home, and a die above the point only bears off from the highest one.
    """
    return int(_plays_c.step_target(_side(mine), _side(theirs), source, die, limit))


def move_checker(mine: Side, theirs: Side, source: int, target: int) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """Both sides after the step ``source -> target`` (assumed legal; a blot hit goes to the
    opponent's bar, BG-5), and 1 if it hits, else 0.

    >>> mine, theirs, hit = move_checker((0,) * 7 + (1,) + (0,) * 17, (0,) * 19 + (1,) + (0,) * 5, 8, 5)
    >>> mine[4], theirs[19], theirs[BAR - 1], hit
    (1, 0, 1, 1)
    """
    new_mine, new_theirs, hit = _plays_c.move_checker(_side(mine), _side(theirs), source, target)
    return tuple(new_mine), tuple(new_theirs), int(hit)


def roll_plays(mine: Side, theirs: Side, first: int, second: int,
               limit: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Every distinct result of the legal plays of the roll ``first``-``second`` (BG-3).

    Both dice are played if possible, else one die, and then the larger if either can be
    played; doubles are played four times, or as many times as possible. A state with no
    checker left (the game is won) has no step: a play ends there. Two plays reaching the
    same position are one result.

    Args:
        mine, theirs: the mover's and the opponent's 25 counts.
        first, second: the dice, 1..6.
        limit: BG-4 ``playtive`` limit of own checkers on a point (5), 0 for none.

    Returns:
        ``(mines, theirs, steps, dice_used)``: int8 ``(k, 25)`` arrays of both sides after
        each result (the mover's first; ordered by a key of the mover's counts and the blots
        hit), the packed steps of one play reaching it (the play whose sorted steps are
        highest, see :data:`STEP_BITS`) and the dice every play uses; one result, the
        position itself with no steps, when nothing can be played.
    """
    mines, others, steps, used = _plays_c.roll_plays(_side(mine), _side(theirs), first, second, limit)
    return (np.frombuffer(mines, np.int8).reshape(-1, BAR), np.frombuffer(others, np.int8).reshape(-1, BAR),
            np.frombuffer(steps, np.int64), used)


def unpack_steps(steps: int, used: int) -> tuple[tuple[int, int], ...]:
    """The ``(source, target)`` pairs of packed steps, highest first."""
    codes = [(int(steps) >> (STEP_BITS * (3 - slot))) & 1023 for slot in range(used)]
    return tuple((code // 32, code % 32) for code in codes)


def bearoff_move_table(boards: np.ndarray, keys: np.ndarray, order: np.ndarray, highs: np.ndarray,
                       lows: np.ndarray, limit: int) -> tuple[np.ndarray, np.ndarray]:
    """The plays of every home board and roll, by :func:`roll_plays`'s rule of a roll run
    over dense board indices (single steps by :func:`step_target`, looked up in a table).

    Args:
        boards: ``(count, 6)`` home boards in dense-index order (:func:`~.bearoff.positions_up_to`).
        keys, order: the sorted base-16 keys of every board and their dense indices.
        highs, lows: the dice of the 21 rolls.
        limit: BG-4 ``playtive`` limit, 0 for none.

    Returns:
        ``(starts, targets)``: the boards reached from board ``x`` with roll ``r`` are
        ``targets[starts[x * 21 + r]:starts[x * 21 + r + 1]]`` (int32, sorted).
    """
    boards = np.ascontiguousarray(boards, dtype=np.int64)
    count = len(boards)
    single = np.empty((count, 7, 6), np.int64)
    starts = np.empty(count * len(highs) + 1, np.int64)
    targets = _plays_c.bearoff_moves(boards, np.ascontiguousarray(keys, dtype=np.int64),
                                     np.ascontiguousarray(order, dtype=np.int64),
                                     np.ascontiguousarray(highs, dtype=np.int64),
                                     np.ascontiguousarray(lows, dtype=np.int64), limit, single, starts)
    return starts, np.frombuffer(targets, np.int32)
