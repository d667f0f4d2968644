"""The plays of :mod:`~dicemath.games.backgammon.plays` compiled with numba.

Imported only when plays are first generated, so ``import dicemath`` never loads numba.
The rules are not written here: every function of :mod:`.plays` is compiled as it stands,
the names it calls bound to their compiled twins
(:func:`~dicemath.core.jit.compile_functions`). The compiled
:func:`roll_plays` serves the rules engine, self-play and the evaluator's look-ahead.

The bear-off move table (:func:`~dicemath.games.backgammon.bearoff.move_table`) lists the
plays of 54,264 home boards and 21 rolls. For it :func:`~.plays.play_levels` (BG-3) is
compiled a second time over levels of *dense board indices*: its names ``expand`` and
``union`` are bound to :func:`expand_boards` and :func:`union_boards`, which follow a
table of single steps that :func:`single_step_table` fills with the compiled
:func:`~.plays.step_target` (BG-4..BG-6). Same rules, far faster than playing each board out on 25 points.
"""

from __future__ import annotations

import numba
import numpy as np

from dicemath.core.jit import announce_compiles, compile_functions
from dicemath.games.backgammon import plays

announce_compiles()

POSITION_FUNCTIONS = ("step_target", "move_checker", "step_code", "with_step", "_key", "_slots", "_keep",
                      "start_level", "expand", "union", "play_levels", "roll_plays")
"""The functions of :mod:`.plays` compiled over positions (in this order: callees first)."""


_ON_POSITIONS = compile_functions(plays, POSITION_FUNCTIONS,
                                  inline=("step_target", "move_checker", "step_code", "with_step", "_key", "_keep"))
step_target = _ON_POSITIONS["step_target"]
move_checker = _ON_POSITIONS["move_checker"]
roll_plays = _ON_POSITIONS["roll_plays"]


@numba.njit(cache=True)
def board_index(mine, keys, key_order):
    """The dense index of the home board ``mine[:6]`` (``keys``: the sorted base-16 keys
    of every board, ``key_order``: their indices)."""
    key = 0
    for p in range(5, -1, -1):
        key = key * 16 + mine[p]
    return key_order[np.searchsorted(keys, key)]


@numba.njit(cache=True)
def single_step_table(boards, keys, key_order, limit):
    """``table[i, die, p - 1]``: the index of board ``i`` after its checker on point ``p``
    moves (or bears off) with ``die``, or -1 when the rules forbid it
    (:func:`~.plays.step_target`)."""
    count = boards.shape[0]
    table = np.full((count, 7, 6), -1, np.int64)
    mine, theirs = np.zeros(25, np.int8), np.zeros(25, np.int8)
    new_mine, new_theirs = np.zeros(25, np.int8), np.zeros(25, np.int8)
    for x in range(count):
        for p in range(6):
            mine[p] = boards[x, p]
        for die in range(1, 7):
            for point in range(1, 7):
                target = step_target(mine, theirs, point, die, limit)
                if target >= 0:
                    move_checker(mine, theirs, point, target, new_mine, new_theirs)
                    table[x, die, point - 1] = board_index(new_mine, keys, key_order)
    return table


LEVEL_BUFFERS = 6
"""Rows of the level buffers of :func:`expand_boards` (a roll keeps at most five levels)."""
LEVEL_SIZE = 4096
"""Boards a level can hold (far more than one roll reaches)."""


@numba.njit(cache=True, inline="always")
def _next_buffer(counters, buffers):
    """A new stamp, and the next row of ``buffers`` for a level."""
    counters[0] += 1
    counters[1] = (counters[1] + 1) % buffers.shape[0]
    return buffers[counters[1]]


@numba.njit(cache=True, inline="always")
def expand_boards(level, die, limit, context):
    """:func:`~.plays.expand` over dense board indices: ``level = (count, indices)``,
    ``context = (single-step table, marks, counters, buffers)``: a board is taken once per
    stamp ``counters[0]``; the levels live in the rows of ``buffers``, used in turn
    (``counters[1]``; a roll keeps at most five levels)."""
    count, boards = level
    single, mark, counters, buffers = context
    found = _next_buffer(counters, buffers)
    made = 0
    for i in range(count):
        for p in range(6):
            after = single[boards[i], die, p]
            if after >= 0 and mark[after] != counters[0]:
                mark[after] = counters[0]
                found[made] = after
                made += 1
    return made, found


@numba.njit(cache=True, inline="always")
def union_boards(first, second, context):
    """:func:`~.plays.union` over dense board indices."""
    single, mark, counters, buffers = context
    found = _next_buffer(counters, buffers)
    made = 0
    for count, boards in (first, second):
        for i in range(count):
            if mark[boards[i]] != counters[0]:
                mark[boards[i]] = counters[0]
                found[made] = boards[i]
                made += 1
    return made, found


_ON_BOARDS = compile_functions(plays, ("play_levels",), {"expand": expand_boards, "union": union_boards},
                               suffix="_on_boards", inline=("play_levels",))
play_levels_on_boards = _ON_BOARDS["play_levels"]


@numba.njit(cache=True)
def bearoff_successors(single, highs, lows, limit):
    """The compressed bear-off move table (see :func:`~.bearoff.move_table`).

    Args:
        single: :func:`single_step_table` of the boards (dense-index order).
        highs, lows: the dice of the 21 rolls.
        limit: BG-4 ``playtive`` limit, 0 for none.

    Returns:
        ``(starts, targets)``: the boards reached from board ``x`` with roll ``r`` are
        ``targets[starts[x * 21 + r]:starts[x * 21 + r + 1]]`` (int32, sorted).
    """
    count = single.shape[0]
    rolls = len(highs)
    context = (single, np.zeros(count, np.int64), np.zeros(2, np.int64),
               np.empty((LEVEL_BUFFERS, LEVEL_SIZE), np.int64))
    start = (1, np.zeros(1, np.int64))
    starts = np.zeros(count * rolls + 1, np.int64)
    targets = np.empty(8 * count * rolls, np.int32)
    total = 0
    for x in range(count):
        start[1][0] = x
        for r in range(rolls):
            level, used = play_levels_on_boards(start, highs[r], lows[r], limit, context)
            n, found = level
            if total + n > targets.shape[0]:
                larger = np.empty(2 * targets.shape[0] + n, np.int32)
                larger[:total] = targets[:total]
                targets = larger
            for i in range(n):            # insertion sort into the table: the lists are short
                value = found[i]
                j = total + i
                while j > total and targets[j - 1] > value:
                    targets[j] = targets[j - 1]
                    j -= 1
                targets[j] = value
            total += n
            starts[x * rolls + r + 1] = total
    return starts, targets[:total].copy()
