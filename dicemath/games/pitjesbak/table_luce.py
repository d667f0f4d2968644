"""The Luce (softmax) model of a table's game values: fitted to an exact solution, evaluated on
every state (PIT-1).

``P(position k wins) = exp(s(a_k, f_k) + d(k)) / sum_j exp(s(a_j, f_j) + d(j))``, with a
strength ``s`` per stripe count ``a`` and has-wiped flag ``f`` and an effect ``d`` of the turn
position. The estimate of large tables (:mod:`.table_estimate`) plays with it, and the table
solver (:mod:`.table_solver`) starts its value iteration from it.

Example:
    >>> import numpy as np
    >>> from dicemath.games.pitjesbak.table_states import state_count
    >>> values = luce_values(np.linspace(2.0, -2.0, 6), np.array([0.0, -0.1]), 2, 3, 2)
    >>> values.shape == (state_count(2, 3, 2), 2) and bool(np.allclose(values.sum(axis=1), 1))
    True
    >>> strength, position = fit_luce(values, 2, 3, 2)
    >>> bool(np.allclose(luce_values(strength, position, 2, 3, 2), values))
    True
"""

from __future__ import annotations

import numpy as np

from dicemath.games.pitjesbak.table_states import all_states


def fit_luce(values: np.ndarray, players: int, cap: int, start: int) -> tuple[np.ndarray, np.ndarray]:
    """Least squares of ``log(V_k / V_0) = s_k - s_0 + d_k - d_0`` over every state.

    Args:
        values: ``values[state, k]``, P(turn position k wins), in the order of
            :func:`.table_states.state_index`.
        players, cap, start: the table's players, stripe cap and starting stripes.

    Returns:
        ``(strength, position)``: ``strength[(a - 1) * 2 + f]`` for stripes ``a`` 1..cap and
        has-wiped flag ``f``; ``position[k]`` the effect of turn position ``k`` (position 0: 0).
    """
    stripes, wiped = all_states(players, cap, start)
    feature = (stripes - 1) * 2 + wiped                       # strength index per position
    width = 2 * cap
    rows, targets = [], []
    for k in range(1, players):
        x = np.zeros((len(values), width + players - 1))
        x[np.arange(len(values)), feature[:, k]] += 1.0
        x[np.arange(len(values)), feature[:, 0]] -= 1.0
        x[:, width + k - 1] = 1.0
        rows.append(x)
        targets.append(np.log(values[:, k] / values[:, 0]))
    theta, *_ = np.linalg.lstsq(np.concatenate(rows), np.concatenate(targets), rcond=None)
    strength = theta[:width].copy()
    used = np.zeros(width, dtype=bool)
    used[np.unique(feature)] = True
    strength[~used] = strength[(start - 1) * 2]              # states the rules cannot produce
    position = np.concatenate([[0.0], theta[width:]])
    return strength, position


def luce_values(strength: np.ndarray, position: np.ndarray, players: int, cap: int, start: int) -> np.ndarray:
    """The model's ``values[state, k]`` on every state of a table of ``players`` (the order of
    :func:`.table_states.state_index`); ``position`` holds at least ``players`` effects."""
    stripes, wiped = all_states(players, cap, start)
    scores = strength[(stripes - 1) * 2 + wiped] + position[None, :players]
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    return weights / weights.sum(axis=1, keepdims=True)
