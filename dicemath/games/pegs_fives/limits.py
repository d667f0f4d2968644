"""Limits of the Pegs and Fives solvers that the command line states, below the solvers: the
parser reads them without importing a solver.

Example:
    >>> 6 ** RACE_MAX_ROWS
    7776
"""

RACE_MAX_ROWS = 5
"""The most open rows a whole reduced board's race is solved for (``5``: 7,776 boards a side,
7,776^2 pairs, two float64 tables of 7,776^2 values, 0.97 GB, four in a mixed matchup). Six rows
would need tables of 46,656^2 values, 17.4 GB each: more memory than the machines the project
runs on. Beyond five rows a race is solved on the boards reachable from a pair
(:data:`~.race_solver.RACE_MAX_BOARDS`, :data:`~.race_solver.RACE_MAX_PAIRS`)."""

SESSION_MAX_ROUNDS = 20
"""The most rounds a Fives session is solved for (:mod:`.session`, FIVES-7)."""

SESSION_STARTS = ("rotating", "fixed")
"""Who starts a session's next round: ``"rotating"`` (the next seat, the FIVES-7 decision) or
``"fixed"`` (the same player every round, a variant)."""

TABLE_MAX_PLAYERS = 6
"""The most players at a table of Pegs or Fives (:mod:`.table_state`, the page's form, session advice)."""
