"""The compiled sweep of one layer of the Pig solution (numba; imported on first use only).

A layer is every decision state whose two scores add up to the same ``total``
(:mod:`~dicemath.games.pig.solver`); :func:`sweep_layer` recomputes its win
probabilities in place, Gauss-Seidel, and returns the largest change.
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True)
def sweep_layer(win: np.ndarray, total: int, goal: int, faces: int) -> float:
    """One Gauss-Seidel sweep of the Bellman equation (PIG-2..PIG-6) over layer ``total``.

    ``win[i, j, k]`` is the probability that the player to move, with score ``i`` against
    ``j`` and turn total ``k`` (``i + k < goal``), wins when both play to win; a turn total
    that reaches the goal is worth 1 (hold and win, PIG-6). For each pair of scores the
    turn totals are swept from the highest down, so a roll sees the newest values of the
    totals it leads to (PIG-4); a 1 (PIG-3) hands the opponent ``win[j, i, 0]``, a hold
    (PIG-5) ``win[j, i + k, 0]`` of a layer solved before.
    """
    change = 0.0
    share = 1.0 / faces
    low = max(0, total - goal + 1)
    high = min(total, goal - 1)
    for i in range(low, high + 1):
        j = total - i
        lose = 1.0 - win[j, i, 0]
        for k in range(goal - i - 1, -1, -1):
            roll = lose * share
            for face in range(2, faces + 1):
                after = k + face
                roll += share * (1.0 if i + after >= goal else win[i, j, after])
            value = roll
            if k > 0:
                hold = 1.0 - win[j, i + k, 0]
                value = max(value, hold)
            delta = abs(value - win[i, j, k])
            change = max(change, delta)
            win[i, j, k] = value
    return change
