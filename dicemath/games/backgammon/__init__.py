"""Backgammon (docs/rules.md section 4): rules engine, cube, bear-off databases, evaluation and advice.

The game vocabulary (see :mod:`dicemath.games`): :class:`Rules` with the presets
:data:`STANDARD` and :data:`PLAYTIVE`, :func:`initial_state`, the state :class:`State`
(a money game with the doubling cube) with its plays :class:`Move`, and :func:`advise`
(every legal action ranked: the plays of a roll, or double / roll, take / pass).

Modules:

* :mod:`.rules`: ``STANDARD`` and ``PLAYTIVE`` (at most 5 own checkers per point, BG-4).
* :mod:`.plays`: the rules that move checkers (BG-3..BG-6), written once in C
  (``_plays_c.c``) for the engine and the bear-off move table.
* :mod:`.position`, :mod:`.moves`, :mod:`.state`: positions and their text forms (GNU
  Backgammon Position IDs, XGID position fields, the text board), legal plays and notation,
  the game as a :class:`~dicemath.core.game.GameState` (BG-1..BG-8).
* :mod:`.bearoff`, :mod:`.bearoff_database`: dense index of home boards, every legal play,
  exact one- and two-sided tables, the complete two-sided database.
* :mod:`.race`: pip counts and the one-sided approximation.
* :mod:`.cube_rules`, :mod:`.cube`: the cube's rules and decision (BG-7, BG-8), and its models; :mod:`.cubeful_bearoff`,
  :mod:`.race_cube`, :mod:`.cube_advice`: exact cubeful bear-offs, race rules, cube advice
  for any position.
* :mod:`.evaluate`: any position's cubeless probabilities from the best source (exact tables,
  race model, GNU Backgammon's nets via the optional ``gnubg`` package, :mod:`.gnubg_engine`);
  :mod:`.hint`: every play of a roll ranked; :mod:`.advice`: the chain of sources (advice at
  every decision, the value of every state).
* :mod:`.limits`: the limits of the exact sources (checkers a side for the exact tables).
* :mod:`.analysis`: its records; :func:`analyse`, the cost of every play and cube action of a played game.
* :mod:`.view`, :mod:`.drawing`: the plain-text view and the SVG picture of a state.
* :mod:`.game`: the :class:`~dicemath.core.game.Game` object and :func:`advise`, its advice; :mod:`.commands`
  (``dicemath backgammon``), :mod:`.commands_cube` (its ``cube`` command) and
  :mod:`.commands_hint` (its ``hint`` command): the command line; :mod:`.report_bearoff`,
  :mod:`.report_cube` and :mod:`.report_playtive`: the report sections.
* :mod:`._bearoff_kernels`, :mod:`._cube_kernels`: the compiled kernels of the bear-off and
  cube tables (C extensions ``_bearoff_c.c``, ``_cube_c.c``, built at install).

The studies (self-play, the Playtive rule measured, agreement with GNU Backgammon) are in
:mod:`dicemath.studies`.

Example:
    >>> from dicemath.games.backgammon import STANDARD, Position, initial_state, legal_moves
    >>> len(legal_moves(STANDARD, Position.initial(), (6, 5)))  # 24/13 counted once
    7
    >>> state = initial_state().apply((6, 5))          # X's 6 beats O's 5: X plays 6-5
    >>> str(state)
    '4HPwATDgc/ABMA X play 6-5 cube 1'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dicemath.core.svg import register_picture
from dicemath.games import export
from dicemath.games.backgammon.game import BACKGAMMON_GAME
from dicemath.games.backgammon.state import State

register_picture(State, BACKGAMMON_GAME.draw)  # State._repr_svg_: the game's drawing, imported when first drawn


def analyse(record: Any) -> Analysis:
    """The cost of every decision and the luck of every chance event of a played game of Backgammon
    (a :class:`~dicemath.analysis.Record`, its JSON object or a file's path):
    :func:`dicemath.analysis.analyse` handed this game (``docs/analyse.md``).

    Raises:
        InvalidRecordError: a record of the wrong form or of another game.
        DicemathError: the first bad entry, named.
    """
    from dicemath.analysis import analyse as analyse_record     # the analysis loads when a record is analysed

    return analyse_record(record, (BACKGAMMON_GAME,))


if TYPE_CHECKING:
    from dicemath.analysis import Analysis
    from dicemath.games.backgammon.bearoff import (
        one_sided_table, position_from_index, position_index, positions_up_to, two_sided_table, win_probability)
    from dicemath.games.backgammon.cube import CubeModel, CubelessProbabilities, keeler_spencer, model_summary
    from dicemath.games.backgammon.cubeful_bearoff import cubeful_table, position_equities
    from dicemath.games.backgammon.game import advise
    from dicemath.games.backgammon.hint import MoveValue
    from dicemath.games.backgammon.moves import Move, legal_moves
    from dicemath.games.backgammon.position import GameResult, Position, game_result
    from dicemath.games.backgammon.race import one_sided_win_probability, pip_count
    from dicemath.games.backgammon.race_cube import race_cube_advice
    from dicemath.games.backgammon.rules import PLAYTIVE, STANDARD, Rules
    from dicemath.games.backgammon.state import initial_state
else:
    def __getattr__(name: str) -> Any:          # a name of __all__ imported above, on first use
        return export(__name__, name)

__all__ = ["PLAYTIVE", "STANDARD", "CubeModel", "CubelessProbabilities", "GameResult", "Move", "MoveValue", "Position",
           "Rules", "State", "advise", "analyse", "cubeful_table", "game_result", "initial_state", "keeler_spencer",
           "legal_moves", "model_summary", "one_sided_table", "one_sided_win_probability", "pip_count",
           "position_equities", "position_from_index", "position_index", "positions_up_to", "race_cube_advice",
           "two_sided_table", "win_probability"]


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
