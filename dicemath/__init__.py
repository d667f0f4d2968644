"""dicemath: exact probabilities and optimal strategies for six table games.

The shared core (dice, exact distributions, Markov chains, MDP solvers, game-tree search)
is re-exported here; each game lives in its own sub-package under :mod:`dicemath.games`
(``from dicemath.games import pitjesbak``), imported only when asked for, so that
``import dicemath`` stays light. The hits rule of Pegs and Fives (``hits``,
``hit_distribution``, ``hit_probability_table``) is re-exported too, loaded on first use.

Example:
    >>> import dicemath
    >>> dicemath.hit_distribution(6, 8).probability(3)
    Fraction(1001, 46656)
"""

from dicemath._version import __version__
from dicemath.core.dice import face_counts, multisets, ordered_outcomes, throw_distribution
from dicemath.core.distribution import Distribution
from dicemath.core.errors import (
    DicemathError,
    IllegalMoveError,
    InvalidDiceError,
    InvalidProbabilityError,
    InvalidStateError,
)
from dicemath.core.markov import AbsorbingChain, ExactAbsorbingChain
from dicemath.core.mdp import (
    bounded_value_iteration,
    optimal_stopping,
    solve_progress_mdp,
    solve_self_referential,
)
from dicemath.core.search import alpha_beta, expectimax
from dicemath.reporting import write_reports

__all__ = [
    "__version__",
    "AbsorbingChain",
    "Distribution",
    "DicemathError",
    "ExactAbsorbingChain",
    "IllegalMoveError",
    "InvalidDiceError",
    "InvalidProbabilityError",
    "InvalidStateError",
    "alpha_beta",
    "bounded_value_iteration",
    "expectimax",
    "face_counts",
    "hit_distribution",
    "hit_probability_table",
    "hits",
    "multisets",
    "optimal_stopping",
    "ordered_outcomes",
    "solve_progress_mdp",
    "solve_self_referential",
    "throw_distribution",
    "write_reports",
]


_HITS = ("hit_distribution", "hit_probability_table", "hits")
"""The hits rule of Pegs and Fives (:mod:`dicemath.games.pegs_fives.hits`), loaded on first use."""


def __getattr__(name: str):
    if name in _HITS:
        from dicemath.games.pegs_fives import hits

        return getattr(hits, name)
    raise AttributeError(f"module 'dicemath' has no attribute {name!r}")
