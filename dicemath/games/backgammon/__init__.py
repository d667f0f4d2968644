"""Backgammon (RULES.md section 4): rules engine, GNU Backgammon Position IDs, bear-off databases.

* :mod:`.rules`: ``STANDARD`` and ``PLAYTIVE`` (at most 5 own checkers per point, BG-4).
* :mod:`.position`, :mod:`.moves`: immutable positions, legal plays (BG-2..BG-7), the game as a
  ``GameState``.
* :mod:`.position_id`, :mod:`.diagram`: GNU Backgammon Position IDs, XGID position fields, text board.
* :mod:`.bearoff`: dense index of home boards, all legal plays, exact one- and two-sided tables.
* :mod:`.race`: pip counts and the one-sided approximation.
* ``cube*`` modules: the doubling cube (BG-8); :mod:`.cube_advice`: cube advice for any position.
* :mod:`.evaluate`: any position's cubeless probabilities from the best source (exact tables,
  race model, GNU Backgammon's nets via the optional ``gnubg`` package, :mod:`.gnubg_engine`);
  :mod:`.hint`: every play of a roll ranked; :mod:`.selfplay`, :mod:`.playtive`: the
  Playtive rule (BG-4) measured by self-play.
* :mod:`.analysis`: the cost of every play of a played game (:func:`analyse`).

Example:
    >>> from dicemath.games.backgammon import Position, legal_moves
    >>> len(legal_moves(Position.initial(), (6, 5)))  # 24/13 counted once
    7
"""

from dicemath.games.backgammon.analysis import analyse
from dicemath.games.backgammon.bearoff import (ROLLS, one_sided_table, position_from_index, position_index,
                                               positions_up_to, two_sided_table, win_probability)
from dicemath.games.backgammon.cube import CubelessProbabilities, CubeModel, keeler_spencer, model_summary
from dicemath.games.backgammon.cubeful_bearoff import cubeful_table, position_equities
from dicemath.games.backgammon.moves import BackgammonState, Move, legal_moves
from dicemath.games.backgammon.position import GameResult, Position, game_result
from dicemath.games.backgammon.race import one_sided_win_probability, pip_count
from dicemath.games.backgammon.race_cube import race_advice
from dicemath.games.backgammon.rules import PLAYTIVE, STANDARD, BackgammonRules

__all__ = [
    "PLAYTIVE", "ROLLS", "STANDARD", "BackgammonRules", "BackgammonState", "GameResult", "Move", "Position",
    "game_result", "legal_moves", "one_sided_table", "position_from_index", "position_index", "positions_up_to",
    "two_sided_table", "win_probability", "pip_count", "one_sided_win_probability",
    "CubelessProbabilities", "CubeModel", "keeler_spencer", "model_summary", "cubeful_table",
    "position_equities", "race_advice", "analyse",
]
