"""Pig (docs/rules.md section 6): rules engine, optimal solution, advice, policy card.

The game vocabulary (see :mod:`dicemath.games`): :class:`Rules` with the preset
:data:`STANDARD` (goal 100), :func:`initial_state`, the state :class:`State` (actions
``"roll"`` and ``"hold"``, die faces ``1..6`` as chance outcomes), :func:`advise` (the win
probability of rolling and of holding), :func:`solve` (every state's win probability for
optimal play), :func:`policy_card` (the hold thresholds) and :func:`analyse` (the cost of
every decision of a played game, :mod:`.analysis`).

Modules:

- :mod:`~dicemath.games.pig.rules`: :class:`Rules` (the goal).
- :mod:`~dicemath.games.pig.state`: :class:`State` (immutable, text form that round-trips).
- :mod:`~dicemath.games.pig.solver`: :func:`solve`, the core's layered value iteration
  (:func:`dicemath.core.mdp.layered_value_iteration`) over a layer sweep in C (``_pig_c.c``,
  compiled at install).
- :mod:`~dicemath.games.pig.advice`: :func:`advise`, :func:`policy_card`.
- :mod:`~dicemath.games.pig.drawing`: the SVG picture of a state.
- :mod:`~dicemath.games.pig.analysis`: :data:`~dicemath.games.pig.analysis.ANALYSIS`.
- :mod:`~dicemath.games.pig.game`: the :class:`~dicemath.core.game.Game` object.
- :mod:`~dicemath.games.pig.commands`: ``dicemath pig`` (``register(subparsers, game)``).
- :mod:`~dicemath.games.pig.report`: the report section (``compute``, ``render``).

Example:
    >>> from dicemath.games.pig import initial_state, solve
    >>> round(solve().value(initial_state()), 4)      # Neller and Presser (2004): 53.06%
    0.5306
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dicemath.core.svg import register_picture
from dicemath.games import export
from dicemath.games.pig.game import PIG_GAME
from dicemath.games.pig.state import State

register_picture(State, PIG_GAME.draw)  # State._repr_svg_: the game's drawing, imported when first drawn


def analyse(record: Any) -> Analysis:
    """The cost of every decision and the luck of every chance event of a played game of Pig
    (a :class:`~dicemath.analysis.Record`, its JSON object or a file's path):
    :func:`dicemath.analysis.analyse` handed this game (``docs/analyse.md``).

    Raises:
        InvalidRecordError: a record of the wrong form or of another game.
        DicemathError: the first bad entry, named.
    """
    from dicemath.analysis import analyse as analyse_record     # the analysis loads when a record is analysed

    return analyse_record(record, (PIG_GAME,))


if TYPE_CHECKING:
    from dicemath.analysis import Analysis
    from dicemath.games.pig.advice import PolicyCard, policy_card
    from dicemath.games.pig.game import advise
    from dicemath.games.pig.rules import STANDARD, Rules
    from dicemath.games.pig.solver import PigSolution, solve
    from dicemath.games.pig.state import initial_state
else:
    def __getattr__(name: str) -> Any:          # a name of __all__ imported above, on first use
        return export(__name__, name)

__all__ = ["STANDARD", "PigSolution", "PolicyCard", "Rules", "State", "advise", "analyse", "initial_state",
           "policy_card", "solve"]


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
