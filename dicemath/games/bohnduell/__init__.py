"""BohnDuell (RULES.md section 5): rules engine, exact solvers and a search advisor.

Modules:

- :mod:`~dicemath.games.bohnduell.rules`: :class:`BohnRules` (cups 3..10, stock, capture
  ``"last"``/``"every"``).
- :mod:`~dicemath.games.bohnduell.state`: :class:`Position` and :class:`Move` (immutable,
  text forms that round-trip, board diagram, the termination argument).
- :mod:`~dicemath.games.bohnduell.solver_dict`: :class:`DictSolver`, the memoised baseline.
- :mod:`~dicemath.games.bohnduell.solver_dense`: :func:`solve_dense`, the dense numba
  solver, and :func:`load_dense` (cached on disk).
- :mod:`~dicemath.games.bohnduell.search`: :class:`Advisor` (alpha-beta + exact tables).
- :mod:`~dicemath.games.bohnduell.players`: random, greedy, search and exact players, matches.

Values are final pot differences under best play, from the view of the player to move
(``position_value``) or of player A, who moves first (``dicemath bohnduell solve``).

Example:
    >>> from dicemath.games.bohnduell import BohnRules, solve_dense
    >>> start = BohnRules(stock=6).initial()
    >>> [str(m) for m in start.legal_actions()]
    ['S1', 'S2', 'S3', 'S4']
    >>> solve_dense(4, 6).position_value(start)
    -1
"""

from dicemath.games.bohnduell.rules import BohnRules, InvalidRulesError
from dicemath.games.bohnduell.search import Advisor
from dicemath.games.bohnduell.solver_dense import DenseTable, load_dense, solve_dense
from dicemath.games.bohnduell.solver_dict import DictSolver
from dicemath.games.bohnduell.state import Move, Position

__all__ = ["Advisor", "BohnRules", "DenseTable", "DictSolver", "InvalidRulesError", "Move", "Position",
           "load_dense", "solve_dense"]
