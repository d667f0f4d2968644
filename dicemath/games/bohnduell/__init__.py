"""BohnDuell (docs/rules.md section 5): rules engine, exact solvers and a search advisor.

The game vocabulary (see :mod:`dicemath.games`): :class:`Rules` with the presets
:data:`STANDARD` and :data:`CAPTURE_EVERY`, :func:`initial_state`, the state
:class:`State` with its :class:`Move`, :func:`advise` (the value of every legal move) and
:func:`analyse` (the cost of every move of a played game, :mod:`.analysis`).

Modules:

- :mod:`~dicemath.games.bohnduell.rules`: :class:`Rules` (cups 3..10, stock, capture
  ``"last"``/``"every"``).
- :mod:`~dicemath.games.bohnduell.sides`: the rules that move beans (sow, capture,
  harvest, pass) for the engine; the C kernels have their twin (``_dense_c_sides.h``).
- :mod:`~dicemath.games.bohnduell.state`: :class:`State` and :class:`Move` (immutable,
  text forms that round-trip, board diagram, the termination argument).
- :mod:`~dicemath.games.bohnduell.solver_dict`: :class:`DictSolver`, memoised negamax
  over pairs of sides in Python.
- :mod:`~dicemath.games.bohnduell.solver_dense`: :func:`solve_dense` (``rules``), the dense
  solver (its kernels in C, ``_dense_c.c``, compiled at install), and :func:`load_dense`
  (cached on disk).
- :mod:`~dicemath.games.bohnduell.strong_table`: strong tables larger than memory on the
  core's table store (``dicemath bohnduell table build``), on threads or a Dask cluster;
  :mod:`~dicemath.games.bohnduell.strong_cost`: the values a cluster's machines exchange.
- :mod:`~dicemath.games.bohnduell.proof`: a start's value proven by search over an endgame
  table, with a certificate (:mod:`~dicemath.games.bohnduell.proof_format`) that
  :mod:`~dicemath.games.bohnduell.proof_check` replays independently.
- :mod:`~dicemath.games.bohnduell.search`: the chain of value sources (exact tables, solved
  starts, exact solve, alpha-beta estimate), :func:`advise` through it, and :class:`SearchAdvisor`.
- :mod:`~dicemath.games.bohnduell.game`: the :class:`~dicemath.core.game.Game` object;
  :mod:`~dicemath.games.bohnduell.commands`: ``dicemath bohnduell``;
  :mod:`~dicemath.games.bohnduell.report`: its report section.
- :mod:`~dicemath.games.bohnduell.players`: random, greedy, search and exact players, matches.
- :mod:`~dicemath.games.bohnduell.analysis`: its records (:func:`analyse` asks it);
  :mod:`~dicemath.games.bohnduell.drawing`: the SVG picture of a state.

Values are final pot differences under best play, from the view of the player to move
(``position_value``) or of player A, who moves first (``dicemath bohnduell solve``).

Example:
    >>> from dicemath.games.bohnduell import Rules, initial_state, solve_dense
    >>> start = initial_state(Rules(stock=6))
    >>> [str(m) for m in start.legal_actions()]
    ['S1', 'S2', 'S3', 'S4']
    >>> solve_dense(Rules(stock=6)).position_value(start)
    -1
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dicemath.core.svg import register_picture
from dicemath.games import export
from dicemath.games.bohnduell.game import BOHNDUELL_GAME
from dicemath.games.bohnduell.state import State

register_picture(State, BOHNDUELL_GAME.draw)  # State._repr_svg_: the game's drawing, imported when first drawn

advise = BOHNDUELL_GAME.advise
"""The value of every legal move (:meth:`dicemath.core.game.Game.advise`, settings ``depth`` and ``table_stock``)."""


def analyse(record: Any) -> Analysis:
    """The cost of every decision and the luck of every chance event of a played game of BohnDuell
    (a :class:`~dicemath.analysis.Record`, its JSON object or a file's path):
    :func:`dicemath.analysis.analyse` handed this game (``docs/analyse.md``).

    Raises:
        InvalidRecordError: a record of the wrong form or of another game.
        DicemathError: the first bad entry, named.
    """
    from dicemath.analysis import analyse as analyse_record     # the analysis loads when a record is analysed

    return analyse_record(record, (BOHNDUELL_GAME,))


if TYPE_CHECKING:
    from dicemath.analysis import Analysis
    from dicemath.games.bohnduell.rules import CAPTURE_EVERY, STANDARD, Rules
    from dicemath.games.bohnduell.search import SearchAdvisor
    from dicemath.games.bohnduell.solver_dense import DenseTable, load_dense, solve_dense
    from dicemath.games.bohnduell.solver_dict import DictSolver
    from dicemath.games.bohnduell.state import Move, initial_state
else:
    def __getattr__(name: str) -> Any:          # a name of __all__ imported above, on first use
        return export(__name__, name)

__all__ = ["CAPTURE_EVERY", "STANDARD", "DenseTable", "DictSolver", "Move", "Rules", "SearchAdvisor", "State", "advise",
           "analyse", "initial_state", "load_dense", "solve_dense"]


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
