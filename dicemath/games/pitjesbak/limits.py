"""The limits of Pitjesbak's chain of value sources, as plain constants: how many players
still in the game (PIT-1) each source answers, and the sources' names.

They sit below every solver so that the table solver, the advice and the chain
(:mod:`.sources`, where the limits are applied) read the same numbers without importing
each other.

Example:
    >>> GAME_SOLUTION_PLAYERS, TABLE_SOLUTION_PLAYERS, ESTIMATE_PLAYERS[-1]
    (2, (3, 4), 8)
"""

from __future__ import annotations

GAME_SOLUTION_PLAYERS = 2
"""Players still in the game that the two-player game solution answers."""

TABLE_SOLUTION_PLAYERS = (3, 4)
"""Players still in the game that the table solver answers exactly (within its work limit)."""

ESTIMATE_PLAYERS = (2, 3, 4, 5, 6, 7, 8)
"""Players still in the game that the labelled estimate answers (every table of PIT-1)."""

GAME_SOLUTION = "two-player game solution"
"""The name (``source``) of the chain's first source: :func:`.game_solver.solve_game`."""

TABLE_SOLUTION = "table solution"
"""The name of the chain's second source: :func:`.table_solver.solve_table`."""

ESTIMATE = "table estimate (fitted strengths)"
"""The name of the chain's last source: :func:`.table_estimate.estimate_table` (an estimate)."""
