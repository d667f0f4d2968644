"""Compiled kernels of the dense BohnDuell solver (numba).

Imported only when a table is solved or scanned (:mod:`~dicemath.games.bohnduell.solver_dense`
imports this module inside its functions), so ``import dicemath`` never loads numba.

The rules are not written here: :func:`can_harvest`, :func:`sow_limit`, :func:`sow`,
:func:`harvest` and :func:`overfills` are the functions of
:mod:`~dicemath.games.bohnduell.sides` (the ones the rules engine runs as plain Python)
compiled with numba. The kernels only walk the table: a position is the pair ``(mover's
side, other side)`` at the index :func:`position` gives (the layout of
:class:`~dicemath.games.bohnduell.solver_dense.SideIndex`: blocks by the two sides'
potentials, so that one ``Phi`` is one contiguous range), and a side's rank is looked up from
its mixed-radix code ``sum side[j] * powers[j]``.

:func:`solve_moves` and :func:`solve_passes` solve any range of ranks of one potential and
release the GIL: the in-memory solve
(:func:`~dicemath.games.bohnduell.solver_dense.solve_dense`) runs them over whole potentials,
the strong table's build (:mod:`~dicemath.games.bohnduell.strong_table`) over parts of them
on threads or on a cluster.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from dicemath.games.bohnduell import sides
from dicemath.core.jit import announce_compiles

announce_compiles()

can_harvest = njit(cache=True, inline="always")(sides.can_harvest)
sow_limit = njit(cache=True, inline="always")(sides.sow_limit)
sow = njit(cache=True, inline="always")(sides.sow)
harvest = njit(cache=True, inline="always")(sides.harvest)
overfills = njit(cache=True, inline="always")(sides.overfills)

BEST_START = -1000
"""Below every value (values lie in [-2S, 2S] with S <= 63)."""


@njit(cache=True, inline="always")
def _code(side, powers):
    code = 0
    for j in range(side.shape[0]):
        code += side[j] * powers[j]
    return code


@njit(cache=True, inline="always")
def load_side(ranked, row, out):
    """Copy the side of rank ``row`` into the buffer ``out``."""
    for j in range(out.shape[0]):
        out[j] = ranked[row, j]


@njit(cache=True)
def work_buffers(n):
    """Work arrays: the two loaded sides, the two new sides, and per move (at most ``2n``)
    its gain, the index of the position after it and whether it overfills."""
    return (np.zeros(n + 1, dtype=np.int64), np.zeros(n + 1, dtype=np.int64),
            np.zeros(n + 1, dtype=np.int64), np.zeros(n + 1, dtype=np.int64),
            np.zeros(2 * n, dtype=np.int64), np.zeros(2 * n, dtype=np.int64), np.zeros(2 * n, dtype=np.bool_))


@njit(cache=True, inline="always")
def position(me, opp, potentials, starts, block_offsets):
    """The table index of the position ``(mover rank me, other rank opp)``.

    Positions lie in blocks ``(K(mover), K(other))``, ordered by ``Phi = K(mover) + K(other)``
    and inside one ``Phi`` by ``K(other)``; inside a block, mover-major.
    """
    k_me = potentials[me]
    k_opp = potentials[opp]
    return (block_offsets[k_me, k_opp] + (me - starts[k_me]) * (starts[k_opp + 1] - starts[k_opp])
            + (opp - starts[k_opp]))


@njit(cache=True, inline="always")
def successors(every, powers, rank, potentials, starts, block_offsets, my_side, opp_side, new_me, new_opp, gains,
                following, over):
    """Every sow and harvest of the loaded mover: its gain, the table index of the position
    after it (the other player moves there) and whether it overfills; returns the count."""
    count = 0
    r_opp = rank[_code(opp_side, powers)]
    for d in range(1, my_side.shape[0]):
        if can_harvest(my_side, d):
            gains[count] = harvest(my_side, d, new_me)
            following[count] = position(r_opp, rank[_code(new_me, powers)], potentials, starts, block_offsets)
            over[count] = overfills(my_side, True, d)
            count += 1
    for k in range(1, sow_limit(my_side) + 1):
        gains[count] = sow(my_side, opp_side, k, every, new_me, new_opp)
        following[count] = position(rank[_code(new_opp, powers)], rank[_code(new_me, powers)], potentials, starts,
                                    block_offsets)
        over[count] = overfills(my_side, False, k)
        count += 1
    return count


@njit(cache=True, nogil=True)
def solve_moves(phi, opp_first, opp_last, every, powers, ranked, rank, potentials, starts, block_offsets, movable,
                values, out, out_base):
    """Solve the positions of potential ``phi`` whose other side has a rank in
    ``opp_first .. opp_last - 1`` and whose mover has a move: ``out[i - out_base]`` for the
    position at index ``i``. Their successors have a smaller ``Phi`` and are read from
    ``values`` (already solved). Releases the GIL.
    """
    my_side, opp_side, new_me, new_opp, gains, following, over = work_buffers(ranked.shape[1] - 1)
    kmax = starts.shape[0] - 2
    for opp in range(opp_first, opp_last):
        k_me = phi - potentials[opp]
        if k_me < 0 or k_me > kmax:
            continue
        load_side(ranked, opp, opp_side)
        for me in range(starts[k_me], starts[k_me + 1]):
            if movable[me]:
                load_side(ranked, me, my_side)
                found = successors(every, powers, rank, potentials, starts, block_offsets, my_side, opp_side, new_me,
                                    new_opp, gains, following, over)
                best = BEST_START
                for m in range(found):
                    best = max(best, gains[m] - values[following[m]])
                out[position(me, opp, potentials, starts, block_offsets) - out_base] = best


@njit(cache=True, nogil=True)
def solve_passes(phi, opp_first, opp_last, potentials, starts, block_offsets, movable, values):
    """Solve the positions of potential ``phi`` (other side's rank in ``opp_first ..
    opp_last - 1``) where the mover must pass (BOHN-6): minus the value of the same sides
    swapped (solved by :func:`solve_moves`), or 0 when neither can move (the game is over).
    Writes ``values`` in place; releases the GIL.
    """
    kmax = starts.shape[0] - 2
    for opp in range(opp_first, opp_last):
        k_me = phi - potentials[opp]
        if k_me < 0 or k_me > kmax:
            continue
        for me in range(starts[k_me], starts[k_me + 1]):
            if not movable[me]:
                here = position(me, opp, potentials, starts, block_offsets)
                if movable[opp]:
                    values[here] = -values[position(opp, me, potentials, starts, block_offsets)]
                else:
                    values[here] = 0


@njit(cache=True, inline="always")
def _potentials(phi, kmax):
    """The other side's potentials ``lo..hi`` of the positions with ``Phi = phi``."""
    return (phi - kmax if phi > kmax else 0), (phi if phi < kmax else kmax)


@njit(cache=True, inline="always")
def _mark(seen, i):
    seen[i >> 3] |= np.uint8(1 << (i & 7))


@njit(cache=True)
def reach(start_me, start_opp, every, powers, ranked, rank, potentials, starts, block_offsets, movable, seen):
    """Mark (bit array ``seen``) every position reachable from ``(start_me, start_opp)``.

    Sweeps ``Phi`` downwards; inside one ``Phi`` the passes first (they lead to the same
    ``Phi``). Returns the number of reachable positions.
    """
    my_side, opp_side, new_me, new_opp, gains, following, over = work_buffers(ranked.shape[1] - 1)
    kmax = starts.shape[0] - 2
    _mark(seen, position(start_me, start_opp, potentials, starts, block_offsets))
    total = 0
    for phi in range(2 * kmax, -1, -1):
        lo, hi = _potentials(phi, kmax)
        for phase in range(2):
            for k_opp in range(lo, hi + 1):
                k_me = phi - k_opp
                for opp in range(starts[k_opp], starts[k_opp + 1]):
                    for me in range(starts[k_me], starts[k_me + 1]):
                        if movable[me] == (phase == 0):
                            continue
                        i = position(me, opp, potentials, starts, block_offsets)
                        if not (seen[i >> 3] >> (i & 7)) & 1:
                            continue
                        total += 1
                        if phase == 0:
                            if movable[opp]:
                                _mark(seen, position(opp, me, potentials, starts, block_offsets))
                            continue
                        load_side(ranked, me, my_side)
                        load_side(ranked, opp, opp_side)
                        found = successors(every, powers, rank, potentials, starts, block_offsets, my_side, opp_side,
                                            new_me, new_opp, gains, following, over)
                        for m in range(found):
                            _mark(seen, following[m])
    return total


@njit(cache=True)
def overfill_scan(every, powers, ranked, rank, potentials, starts, block_offsets, movable, values, seen):
    """Over reachable positions offering both an overfilling and a clean move: counts of
    (overfill strictly best, tie, strictly worse), the summed loss of the best overfilling
    move against the best move, and the number of such positions."""
    my_side, opp_side, new_me, new_opp, gains, following, over = work_buffers(ranked.shape[1] - 1)
    result = np.zeros(5, dtype=np.int64)   # better, tie, worse, summed loss, positions
    for me in range(ranked.shape[0]):
        if not movable[me]:
            continue
        load_side(ranked, me, my_side)
        for opp in range(ranked.shape[0]):
            i = position(me, opp, potentials, starts, block_offsets)
            if not (seen[i >> 3] >> (i & 7)) & 1:
                continue
            load_side(ranked, opp, opp_side)
            found = successors(every, powers, rank, potentials, starts, block_offsets, my_side, opp_side, new_me,
                                new_opp, gains, following, over)
            best_over = BEST_START
            best_clean = BEST_START
            for m in range(found):
                value = gains[m] - values[following[m]]
                if over[m]:
                    best_over = max(best_over, value)
                else:
                    best_clean = max(best_clean, value)
            if best_over == BEST_START or best_clean == BEST_START:
                continue
            result[4] += 1
            if best_over > best_clean:
                result[0] += 1
            elif best_over == best_clean:
                result[1] += 1
            else:
                result[2] += 1
                result[3] += best_clean - best_over
    return result
