"""Pitjesbak (docs/rules.md section 3): exact throw classes, round and game solvers, advice.

The game vocabulary (see :mod:`dicemath.games`): :class:`Rules` with the presets
:data:`STANDARD` and :data:`PIPS`, :func:`initial_state`, the state :class:`State`,
:func:`advise` (stop or throw again, at any table), :func:`analyse` (the cost of
every decision of a played game, :mod:`.analysis`).

Modules: :mod:`.rules` (frozen rules, variants ``die_values``, ``stripes``, ``players``),
:mod:`.throws` (classes and exact probabilities, PIT-2/3), :mod:`.state` (the rules engine
in the :mod:`dicemath.core.game` vocabulary, PIT-4..8), :mod:`.simulate` (seeded rounds
and games), :mod:`.round_solver` (N players, each maximising P(win the round), exact),
:mod:`.game_solver` (two players, P(win the game), rigorous bounds), :mod:`.table_round` (a round at
a table of 2..8 players, each maximising his own value of the round's end, by knowledge
states), :mod:`.table_states` (the dense index of a table's states), :mod:`.table_luce` (the
Luce model of a table's values), :mod:`.table_solver` (game-optimal play at a table of n players, value iteration on
the vector of win probabilities: 2 to 4 players from 9 stripes, more with few stripes), :mod:`.shipped`
(the presets' table solutions shipped in ``data/``, read instead of solved),
:mod:`.table_estimate` (labelled estimates for 5 to 8 players), :mod:`.table_game` (the
solution each table uses; advice at any table),
:mod:`.table_compare` (what game-optimal play gains over round-optimal play), :mod:`.advice`
(stop or throw again at every table, the core's Advice with the :class:`StopOrThrow` of
:mod:`.advice_type` behind it; policy cards), :mod:`.sources` (the chain of value sources:
which solution answers a decision), :mod:`.limits` (the chain's limits as plain constants),
:mod:`.decision` (the stop-or-throw answer and the Advice each source answers with),
:mod:`.analysis` (the cost of every decision of a played game), :mod:`.view` and
:mod:`.drawing` (the text view and the SVG picture of a state), :mod:`.game` (the
:class:`~dicemath.core.game.Game` object), :mod:`._table_c` (the compiled loops of the
n-player solvers, C) and :mod:`._game_c` (the two-player game solver's round, C); its
command line is :mod:`.commands`, its report section :mod:`.report`.
The solvers run on the core's algorithms: optimal stopping and bounded value iteration
(:mod:`dicemath.core.mdp`); their tests check them against the core's expectimax
(:mod:`dicemath.core.search`) over :class:`State`.

Decisions where docs/rules.md leaves room (all implemented in the engine and the solvers):

* A start player eliminated by 1-1-1 (PIT-6) still sets the limit: the throws used.
* The roll-off (PIT-5) is fair: the engine's chance outcome is its winner, 1/k each (the
  simulator rolls the real one-die roll-off, which has the same law).
* The first start player (chosen by a one-die roll-off in the seed) is seat 0.
* A player indifferent between stopping and throwing again stops (it matters for the limit).
* "Win the round" (round solver) includes winning the game during the round by drie apen
  or by being the last player left (PIT-8).
* Stripes above the starting count (2-2-3 penalties, PIT-7) are unbounded; the solvers
  handle them by a cap with proven bounds (two players) or clipping (three or more).
* "How much a round-maximiser loses": its game win probability against an opponent that
  maximises their own game win probability knowing the round-maximiser's policy (a best
  response), compared with the game value.

Example:
    >>> from dicemath.games.pitjesbak import classify, class_probabilities
    >>> class_probabilities()[classify([6, 5, 4])]
    Fraction(1, 36)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dicemath.core.svg import register_picture
from dicemath.games import export
from dicemath.games.pitjesbak.game import PITJESBAK_GAME
from dicemath.games.pitjesbak.state import State

register_picture(State, PITJESBAK_GAME.draw)  # State._repr_svg_: the game's drawing, imported when first drawn

advise = PITJESBAK_GAME.advise
"""Stop or throw again, at any table (:meth:`dicemath.core.game.Game.advise`; setting ``solution``)."""


def analyse(record: Any) -> Analysis:
    """The cost of every decision and the luck of every chance event of a played game of Pitjesbak
    (a :class:`~dicemath.analysis.Record`, its JSON object or a file's path):
    :func:`dicemath.analysis.analyse` handed this game (``docs/analyse.md``).

    Raises:
        InvalidRecordError: a record of the wrong form or of another game.
        DicemathError: the first bad entry, named.
    """
    from dicemath.analysis import analyse as analyse_record     # the analysis loads when a record is analysed

    return analyse_record(record, (PITJESBAK_GAME,))


if TYPE_CHECKING:
    from dicemath.analysis import Analysis
    from dicemath.games.pitjesbak.advice import (
        PolicyCard, StopOrThrow, TableCard, advise_situation, policy_card, table_policy_card)
    from dicemath.games.pitjesbak.game_solver import GameSolution, solve_game
    from dicemath.games.pitjesbak.round_solver import RoundSolution, round_policy, solve_round
    from dicemath.games.pitjesbak.rules import PIPS, STANDARD, Rules
    from dicemath.games.pitjesbak.simulate import simulate_game, simulate_round
    from dicemath.games.pitjesbak.state import initial_state
    from dicemath.games.pitjesbak.table_game import table_advice, table_policy
    from dicemath.games.pitjesbak.table_round import TableRound, solve_table_round
    from dicemath.games.pitjesbak.table_solver import TableSolution, solve_table
    from dicemath.games.pitjesbak.throws import (
        ThrowClass, class_probabilities, class_rows, class_space, classify, compare)
else:
    def __getattr__(name: str) -> Any:          # a name of __all__ imported above, on first use
        return export(__name__, name)

__all__ = ["PIPS", "STANDARD", "GameSolution", "PolicyCard", "RoundSolution", "Rules", "State", "StopOrThrow",
           "TableCard", "TableRound", "TableSolution", "ThrowClass", "advise", "advise_situation", "analyse",
           "class_probabilities", "class_rows", "class_space", "classify", "compare", "initial_state", "policy_card",
           "round_policy", "simulate_game", "simulate_round", "solve_game", "solve_round", "solve_table",
           "solve_table_round", "table_advice", "table_policy", "table_policy_card"]


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
