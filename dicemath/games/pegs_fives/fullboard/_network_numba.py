"""The distilled network on a whole slab of boards, compiled (numba; imported on demand).

Writing a guide table evaluates the network of :class:`..distilled.DistilledValue` on every
board of the full layout (2.2e9 boards). numpy spends about 3 us a board on it (the
matrix products of 280,000 boards a slab, and five passes over float32 arrays of that
size); this loop keeps one board's activations in registers, skips the second layer's rows
of inactive first-layer units, and releases the GIL so that the guide's threads run it in
parallel. Its twin is :func:`..distilled.activations` (tested equal within float32
rounding).
"""

from __future__ import annotations

import numba
import numpy as np
from dicemath.core.jit import announce_compiles

announce_compiles()


@numba.njit(nogil=True, fastmath=True, cache=True)
def two_layer_network(first: np.ndarray, offset: np.ndarray, w2: np.ndarray, b2: np.ndarray, w3: np.ndarray,
                      b3: np.ndarray, out: np.ndarray) -> None:
    """``out[i] = relu(relu(first[i] + offset) @ w2 + b2) @ w3[:, 0] + b3[0]`` for every board.

    Args:
        first: float32 ``[board, unit]``, each board's first-layer pre-activation without
            ``offset`` (the lower rows' part of a slab).
        offset: float32 ``[unit]``, the part shared by every board (bias and top rows).
        w2, b2, w3, b3: the second and output layers (float32).
        out: float64 ``[board]``, written.
    """
    boards, units = first.shape
    width = w2.shape[1]
    hidden = np.empty(width, dtype=np.float32)
    for i in range(boards):
        for k in range(width):
            hidden[k] = b2[k]
        for j in range(units):
            x = first[i, j] + offset[j]
            if x > 0.0:
                for k in range(width):
                    hidden[k] += x * w2[j, k]
        total = b3[0]
        for k in range(width):
            if hidden[k] > 0.0:
                total += hidden[k] * w3[k, 0]
        out[i] = total
