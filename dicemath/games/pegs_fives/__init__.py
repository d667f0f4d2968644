"""Pegs ("popnagels", docs/rules.md section 1) and Fives (section 2): one engine, two presets.

The game vocabulary (see :mod:`dicemath.games`): :class:`Rules` with the presets
:data:`PEGS` and :data:`FIVES` (the two games; ``Rules()`` is Pegs), :func:`initial_state`,
the state :class:`State` and :func:`advise` (the game object's advice: the value of every
legal row after a choice throw).

Modules: :mod:`.rules` (every rule point a named field), :mod:`.hits` (how a throw scores
for a number), :mod:`.state` (boards, the rules engine and :class:`State`),
:mod:`.table_state` (a game at a table of 2 to 6 players, Fives sessions), :mod:`.turn`
(the one exact within-turn recursion, :class:`TurnValue`), :mod:`.rows` (one row alone,
exact), :mod:`.solver` (exact optimal play on reduced boards), :mod:`.advisor` (the
full-board advisor: an exact one-turn lookahead on an estimated board value),
:mod:`.distilled` (the shipped model of the board value, distilled from the full table; C:
``_distilled_c.h``),
:mod:`.fullboard` (compiled kernels, tables, exact advice),
:mod:`.races` (Fives races and rest points, simulated), :mod:`.race_solver` (the exact
two-player race on reduced boards, Pegs and Fives; its C kernel :mod:`._race_c`),
:mod:`.race_table` (the exact race of 2 to 6 players at one table on reduced boards, the
plain-Python reference) and :mod:`.race_table_compiled` (three players, C kernel
``_race3_c.c``), :mod:`.session` and :mod:`.session_advice` (Fives sessions, FIVES-7; the
command ``fives session`` in :mod:`.session_commands`),
:mod:`.race_advice` (race-aware row advice on the full board; compiled race games
:mod:`._race_simulation`, C playing the turn of ``_turn_c.h``), :mod:`.analysis` (records
of played games), :mod:`.view` and :mod:`.drawing` (the text view and
the SVG picture of a state),
:mod:`.game` (the two :class:`~dicemath.core.game.Game` objects). The
command line is :mod:`.commands` (``dicemath pegs``, ``dicemath fives``) and
:mod:`.dice_commands` (``dicemath dice``); the report sections are :mod:`.report_dice`,
:mod:`.report` (``pegs``, ``fives``), :mod:`.report_full_board`,
:mod:`.report_playing_to_win`, :mod:`.report_bigger_table` and :mod:`.report_sessions`; the
full-board results and the distillation study are in :mod:`dicemath.studies`.

Example:
    >>> from dicemath.games.pegs_fives import PEGS, FIVES, row_table
    >>> round(float(row_table(PEGS, 7).expected_turns), 3)
    3.517
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dicemath.core.svg import register_picture
from dicemath.games import export
from dicemath.games.pegs_fives.game import FIVES_GAME, PEGS_GAME
from dicemath.games.pegs_fives.state import State

register_picture(State, PEGS_GAME.draw)  # State._repr_svg_: the game's drawing, imported when first drawn


def analyse(record: Any) -> Analysis:
    """The cost of every decision and the luck of every throw of a played game of Pegs or Fives
    (a :class:`~dicemath.analysis.Record`, its JSON object or a file's path; its ``game`` says
    which): :func:`dicemath.analysis.analyse` handed these two games (``docs/analyse.md``).

    Raises:
        InvalidRecordError: a record of the wrong form or of another game.
        DicemathError: the first bad entry, named.
    """
    from dicemath.analysis import analyse as analyse_record     # the analysis loads when a record is analysed

    return analyse_record(record, (PEGS_GAME, FIVES_GAME))

if TYPE_CHECKING:
    from dicemath.analysis import Analysis
    from dicemath.games.pegs_fives.advisor import Advisor, BoardValue, Ranking, RowAdvice, board_value
    from dicemath.games.pegs_fives.fullboard.advice import advise_throw
    from dicemath.games.pegs_fives.game import advise
    from dicemath.games.pegs_fives.race_solver import solve_race, solve_race_compiled
    from dicemath.games.pegs_fives.races import last_turn_rest, race_stats
    from dicemath.games.pegs_fives.rows import RowTable, row_table, row_tables, rows_result
    from dicemath.games.pegs_fives.rules import FIVES, PEGS, Rules, preset
    from dicemath.games.pegs_fives.solver import ReducedSolution, solve_greedy, solve_reduced
    from dicemath.games.pegs_fives.state import (
        InvalidBoardError, InvalidRollError, choice_state, greedy_policy, initial_state, legal_rows, play_game,
        play_turn, read_board, reduced_board)
    from dicemath.games.pegs_fives.turn import TurnValue, turn_distribution, turn_outcome
else:
    def __getattr__(name: str) -> Any:          # a name of __all__ imported above, on first use
        return export(__name__, name)

__all__ = ["FIVES", "PEGS", "Advisor", "BoardValue", "InvalidBoardError", "InvalidRollError", "Ranking",
           "ReducedSolution", "RowAdvice", "RowTable", "Rules", "State", "TurnValue", "advise", "advise_throw",
           "analyse",
           "board_value", "choice_state", "greedy_policy", "initial_state", "last_turn_rest", "legal_rows", "play_game",
           "play_turn", "preset", "race_stats", "read_board", "reduced_board", "row_table", "row_tables", "rows_result",
           "solve_greedy", "solve_race", "solve_race_compiled", "solve_reduced", "turn_distribution", "turn_outcome"]


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
