"""The rules that move checkers (BG-3..BG-6), written once for the engine and the kernels.

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
  steps of one play that reaches it.

The functions are written in the subset of Python that numba compiles (loops, integer
arithmetic, numpy arrays). The rules engine (:mod:`~dicemath.games.backgammon.moves`)
calls :func:`step_target` and :func:`move_checker` as plain Python, and the compiled
:func:`roll_plays` of :mod:`~dicemath.games.backgammon._play_kernels`; self-play, the
evaluator's look-ahead and the bear-off move table (:mod:`~dicemath.games.backgammon.bearoff`)
call the same compiled functions. A rule change is one edit here.

One source for engine and kernels costs the kernels a little speed: each result carries the
steps of one play, and the levels are generic (``benchmarks/bench_evaluate.py`` prints
self-play games per second).

The count of dice is strict, as in GNU Backgammon: a play that bears off the last checker
with one die is not legal when another play uses both dice (one checker on the 4-point, a
blot on the 2-point, roll 4-2: only ``4/2*/off``, which may win a backgammon).

Example:
    >>> start = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)
    >>> step_target(start, start, 24, 6, 0), step_target(start, start, 8, 2, 0), step_target(start, start, 8, 2, 5)
    (18, 6, -1)
"""

from __future__ import annotations

import numpy as np

from dicemath.games.backgammon.position import BAR, OFF

STEP_BITS = 10
"""A step is coded ``source * 32 + target`` in 10 bits; a play's steps, sorted from the
highest down, are packed four to an int64 (the first step in the highest bits), so two
plays with as many steps compare like the tuples of their sorted steps."""

_HIT_SHIFT = 39
"""Key of a state: bits 0..38 the mover's counts as runs of ones (at most 15 ones and 24
separating zeros); bits 39..62 the opponent's blots hit, on the mover's points 1..24."""


def step_target(mine, theirs, source, die, limit) -> int:
    """Where a checker of the mover on ``source`` lands with ``die``, or -1 if he may not.

    BG-5: with a checker on the bar, only the bar moves. BG-4: a point holding two or
    more opposing checkers is closed; with ``limit > 0`` (``playtive``: 5) so is a point
    holding ``limit`` of his own. BG-6: bearing off (target ``OFF`` = 0) needs every
    checker home, and a die above the point only bears off from the highest one.
    """
    if mine[source - 1] == 0:
        return -1
    if mine[BAR - 1] > 0 and source != BAR:
        return -1
    target = source - die
    if target >= 1:
        if theirs[24 - target] >= 2:
            return -1
        if limit > 0 and mine[target - 1] >= limit:
            return -1
        return target
    for point in range(7, BAR + 1):
        if mine[point - 1] > 0:
            return -1
    if target < 0:
        for point in range(source + 1, 7):
            if mine[point - 1] > 0:
                return -1
    return OFF


def move_checker(mine, theirs, source, target, new_mine, new_theirs) -> int:
    """Write both sides after the step ``source -> target`` (assumed legal); return 1 if it
    hits a blot, which goes to the opponent's bar (BG-5), else 0."""
    new_mine[:] = mine
    new_theirs[:] = theirs
    new_mine[source - 1] -= 1
    if target == OFF:
        return 0
    new_mine[target - 1] += 1
    if theirs[24 - target] == 1:
        new_theirs[24 - target] = 0
        new_theirs[BAR - 1] += 1
        return 1
    return 0


def step_code(source, target) -> int:
    """The 10-bit code of a step (see :data:`STEP_BITS`)."""
    return source * 32 + target


def with_step(steps, step) -> int:
    """The packed steps ``steps`` (at most three) with the step code ``step`` added in order."""
    result = 0
    read = 0
    placed = False
    for slot in range(4):
        current = (steps >> (STEP_BITS * (3 - read))) & 1023 if read < 4 else 0
        if not placed and step > current:
            value = step
            placed = True
        else:
            value = current
            read += 1
        result |= value << (STEP_BITS * (3 - slot))
    return result


def _key(mine, hits) -> int:
    """The state's key (see :data:`_HIT_SHIFT`): equal keys, equal states."""
    key = 0
    bit = 0
    for i in range(BAR):
        count = int(mine[i])
        key |= ((1 << count) - 1) << bit
        bit += count + 1
    return key | (int(hits) << _HIT_SHIFT)


def _slots(rows):
    """An empty open-addressing table for up to ``rows`` states (-1: free)."""
    size = 16
    while size < 2 * rows:
        size *= 2
    return np.full(size, -1, np.int64)


def _keep(slots, keys, mines, hits, steps, row, code) -> int:
    """Keep the state just written to ``row`` (steps ``code``) unless it is there already,
    in which case that one keeps the higher steps; return the next free row."""
    key = _key(mines[row], hits[row])
    mask = slots.shape[0] - 1
    slot = (key ^ (key >> 17) ^ (key >> 31)) & mask
    while slots[slot] >= 0 and keys[slots[slot]] != key:
        slot = (slot + 1) & mask
    if slots[slot] >= 0:
        if code > steps[slots[slot]]:
            steps[slots[slot]] = code
        return row
    slots[slot] = row
    keys[row] = key
    steps[row] = code
    return row + 1


def start_level(mine, theirs):
    """The level of the position before the roll: ``(count, mines, theirs, hits, steps)``
    (a *level* holds the distinct states after as many dice)."""
    return (1, mine.reshape(1, BAR).copy(), theirs.reshape(1, BAR).copy(), np.zeros(1, np.int64),
            np.zeros(1, np.int64))


def expand(level, die, limit, context):
    """Every state one legal step of ``die`` away from a state of ``level``, merged
    (``context`` is not used by this representation of states)."""
    count, mines, theirs, hits, steps = level
    size = 16 * count + 1    # a side has at most 15 checkers to move
    new_mines, new_theirs = np.empty((size, BAR), np.int8), np.empty((size, BAR), np.int8)
    new_hits, new_steps, keys = np.empty(size, np.int64), np.empty(size, np.int64), np.empty(size, np.int64)
    slots = _slots(size)
    made = 0
    for i in range(count):
        mine, their = mines[i], theirs[i]
        for source in range(BAR, 0, -1):
            target = step_target(mine, their, source, die, limit)
            if target < 0:
                continue
            hit = move_checker(mine, their, source, target, new_mines[made], new_theirs[made])
            new_hits[made] = hits[i] | (1 << (target - 1)) if hit else hits[i]
            made = _keep(slots, keys, new_mines, new_hits, new_steps, made,
                         with_step(steps[i], step_code(source, target)))
    return made, new_mines, new_theirs, new_hits, new_steps


def union(first, second, context):
    """The states of two levels together, merged."""
    size = first[0] + second[0] + 1
    mines, theirs = np.empty((size, BAR), np.int8), np.empty((size, BAR), np.int8)
    hits, steps, keys = np.empty(size, np.int64), np.empty(size, np.int64), np.empty(size, np.int64)
    slots = _slots(size)
    made = 0
    for level in (first, second):
        for i in range(level[0]):
            mines[made], theirs[made], hits[made] = level[1][i], level[2][i], level[3][i]
            made = _keep(slots, keys, mines, hits, steps, made, level[4][i])
    return made, mines, theirs, hits, steps


def play_levels(start, first, second, limit, context):
    """BG-3: the level of the legal plays of the roll ``first``-``second`` from ``start``.

    Both dice are played if possible, else one die, and then the larger if either can be
    played; doubles are played four times, or as many times as possible. A state with no
    checker left (the game is won) has no step: a play ends there.

    Written over levels (:func:`start_level`, :func:`expand`, :func:`union`); the bear-off
    move table compiles it again with those names bound to levels of dense board indices
    (:mod:`~dicemath.games.backgammon._play_kernels`).

    Returns:
        ``(level, dice used)``; ``(start, 0)`` when nothing can be played.
    """
    if first == second:
        level, used = start, 0
        for _ in range(4):
            following = expand(level, first, limit, context)
            if following[0] == 0:
                break
            level, used = following, used + 1
        return level, used
    high, low = max(first, second), min(first, second)
    after_high, after_low = expand(start, high, limit, context), expand(start, low, limit, context)
    both = union(expand(after_high, low, limit, context), expand(after_low, high, limit, context), context)
    if both[0] > 0:
        return both, 2
    if after_high[0] > 0:
        return after_high, 1
    if after_low[0] > 0:
        return after_low, 1
    return start, 0


def roll_plays(mine, theirs, first, second, limit):
    """Every distinct result of the legal plays of the roll ``first``-``second`` (BG-3).

    Two plays reaching the same position are one result (see :func:`play_levels`).

    Args:
        mine, theirs: int8 arrays of the mover's and the opponent's 25 counts.
        first, second: the dice, 1..6.
        limit: BG-4 ``playtive`` limit of own checkers on a point (5), 0 for none.

    Returns:
        ``(mines, theirs, steps, dice_used)``: int8 ``(k, 25)`` arrays of both sides after
        each result (the mover's first; ordered by :func:`_key`), the packed steps of one play reaching it (the
        play whose sorted steps are highest, see :data:`STEP_BITS`) and the dice every
        play uses; one result, the position itself with no steps, when nothing can be
        played.
    """
    (count, mines, theirs, hits, steps), used = play_levels(start_level(mine, theirs), first, second, limit, 0)
    keys = np.empty(count, np.int64)
    for i in range(count):
        keys[i] = _key(mines[i], hits[i])
    order = np.argsort(keys)
    return mines[order], theirs[order], steps[order], used


def unpack_steps(steps, used) -> tuple[tuple[int, int], ...]:
    """The ``(source, target)`` pairs of packed steps, highest first (plain Python)."""
    codes = [(int(steps) >> (STEP_BITS * (3 - slot))) & 1023 for slot in range(used)]
    return tuple((code // 32, code % 32) for code in codes)
