"""The dense index of a Pitjesbak table's states between rounds (PIT-1, PIT-4, PIT-6, PIT-7).

A state is the stripes and has-wiped flags of the players still in, in turn order from the
round's start player. :func:`state_index` numbers the states the rules can produce,
:func:`state_of` reads a number back and :func:`all_states` lists every state at once; the
table solver (:mod:`.table_solver`), its comparisons and the Luce model (:mod:`.table_luce`)
share this one layout.

Example:
    >>> state_of(state_index((9, 3), (False, True), 11, 9), 2, 11, 9)
    ((9, 3), (False, True))
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

def _radix(cap: int, start: int) -> int:
    return 2 * cap - start + 1


def state_count(players: int, cap: int, start: int) -> int:
    """Number of states of a ``players``-player table with stripes up to ``cap`` that the rules
    can produce from ``start`` stripes each: ``(2 cap - start + 1)**n`` (see :func:`state_index`)."""
    return _radix(cap, start) ** players


def state_index(stripes: Sequence[int], wiped: Sequence[bool], cap: int, start: int) -> int:
    """Dense index of a state (turn order from the start player; stripes clipped to the cap).

    A player who never wiped a stripe has the starting ``start`` stripes plus his 2-2-3
    penalties (PIT-1, PIT-6, PIT-7), so a position's digit is ``a - 1`` (has wiped, 1..cap) or
    ``cap + a - start`` (never wiped, start..cap), base ``2 cap - start + 1``, the start
    player's digit first. Only states the rules can produce are stored: with 9 stripes and
    cap 11 that is 14 digits a position instead of 22 (38,416 states for four players instead
    of 234,256).
    """
    index = 0
    for a, f in zip(stripes, wiped):
        a = min(a, cap)
        index = index * _radix(cap, start) + (a - 1 if f else cap + a - start)
    return index


def state_of(index: int, players: int, cap: int, start: int) -> tuple[tuple[int, ...], tuple[bool, ...]]:
    """``(stripes, wiped)`` of a dense index (:func:`state_index`)."""
    stripes, wiped = [], []
    radix = _radix(cap, start)
    for _ in range(players):
        digit = index % radix
        index //= radix
        stripes.append(digit + 1 if digit < cap else digit - cap + start)
        wiped.append(digit < cap)
    return tuple(reversed(stripes)), tuple(reversed(wiped))


def all_states(players: int, cap: int, start: int) -> tuple[np.ndarray, np.ndarray]:
    """Stripes and has-wiped flags (``(N, n)`` each, ``N`` = :func:`state_count`) of every state,
    in the order of :func:`state_index`."""
    radix = _radix(cap, start)
    rest = np.arange(state_count(players, cap, start), dtype=np.int64)
    stripes = np.empty((rest.size, players), dtype=np.int64)
    wiped = np.empty((rest.size, players), dtype=bool)
    for pos in range(players - 1, -1, -1):
        digit = rest % radix
        stripes[:, pos] = np.where(digit < cap, digit + 1, digit - cap + start)
        wiped[:, pos] = digit < cap
        rest //= radix
    return stripes, wiped
