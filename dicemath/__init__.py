"""dicemath: exact probabilities and optimal strategies for six table games.

The public names: the shared core (dice, exact distributions, Markov chains, MDP solvers,
game-tree search, the errors), the hits rule of Pegs and Fives (``hits``,
``hit_distribution``, ``hit_probability_table``), and two front doors that hand every game
of :mod:`dicemath.games.registry` to the layer that does the work: :func:`analyse` (a played
game, :mod:`dicemath.analysis`) and :func:`write_reports` (the strategy reports,
:mod:`dicemath.reporting`). Each game lives in its own sub-package under
:mod:`dicemath.games` (``from dicemath.games import pitjesbak``). Every name is loaded on
first use (PEP 562), so ``import dicemath`` stays light; ``dir(dicemath)`` lists them all.

Example:
    >>> import dicemath
    >>> dicemath.hit_distribution(6, 8).probability(3)
    Fraction(1001, 46656)
    >>> "analyse" in dir(dicemath)
    True
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dicemath._version import __version__

if TYPE_CHECKING:
    from dicemath.analysis import Analysis

_EXPORTS = {
    "face_counts": "dicemath.core.dice", "multisets": "dicemath.core.dice",
    "ordered_outcomes": "dicemath.core.dice", "throw_distribution": "dicemath.core.dice",
    "Distribution": "dicemath.core.distribution",
    "DicemathError": "dicemath.core.errors", "IllegalMoveError": "dicemath.core.errors",
    "InvalidDiceError": "dicemath.core.errors", "InvalidProbabilityError": "dicemath.core.errors",
    "InvalidStateError": "dicemath.core.errors",
    "AbsorbingChain": "dicemath.core.markov", "ExactAbsorbingChain": "dicemath.core.markov",
    "bounded_value_iteration": "dicemath.core.mdp", "optimal_stopping": "dicemath.core.mdp",
    "solve_progress_mdp": "dicemath.core.mdp", "solve_self_referential": "dicemath.core.mdp",
    "alpha_beta": "dicemath.core.search", "expectimax": "dicemath.core.search",
    "hit_distribution": "dicemath.games.pegs_fives.hits", "hit_probability_table": "dicemath.games.pegs_fives.hits",
    "hits": "dicemath.games.pegs_fives.hits",
}
"""Each re-exported name and the module that defines it, imported on first use."""


def analyse(record: Any) -> Analysis:
    """The cost of every decision and the luck of every chance event of a played game of any
    registered game: :func:`dicemath.analysis.analyse` handed
    :data:`dicemath.games.registry.GAMES` (``docs/analyse.md``).

    Args:
        record: a record (:class:`dicemath.analysis.Record`), its JSON object, or the path of
            a JSON file; its ``game`` names the game.

    Raises:
        InvalidRecordError: a record of the wrong form or of no registered game.
        DicemathError: the first bad entry (an illegal move, an impossible throw, ...), named.
    """
    from dicemath.analysis import analyse as analyse_record    # the analysis and the games load on first use
    from dicemath.games.registry import GAMES

    return analyse_record(record, GAMES)


def write_reports(out_dir: str | Path = "reports", **options: Any) -> list[Path]:
    """Write the strategy reports of every registered game into ``out_dir``:
    :func:`dicemath.reporting.write_reports` handed the sections of
    :data:`dicemath.games.registry.GAMES` (:func:`dicemath.reporting.sections`); ``options``
    are its keyword arguments (``only``, ``quick``, ``jobs``, ...).

    Returns:
        The paths of the Markdown files written, the index last.

    Raises:
        ValueError: ``only`` names a section that does not exist.
    """
    from dicemath.games.registry import GAMES                  # the report and the games load on first use
    from dicemath.reporting import sections, write_reports as write

    return write(out_dir, sections(GAMES), **options)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'dicemath' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})


__all__ = ["__version__", "analyse", "write_reports", *sorted(_EXPORTS)]
