"""Pegs ("popnagels", RULES.md section 1) and Fives (section 2): one engine, two presets.

Example:
    >>> from dicemath.games.pegs_fives import PEGS, FIVES, row_table
    >>> round(float(row_table(PEGS, 7).expected_turns), 3)
    3.517
"""

from dicemath.games.pegs_fives.advisor import Advisor, BoardValue, advise_result, board_value
from dicemath.games.pegs_fives.analysis import analyse
from dicemath.games.pegs_fives.races import last_turn_rest, race_stats
from dicemath.games.pegs_fives.rules import FIVES, PEGS, Rules, preset
from dicemath.games.pegs_fives.rows import RowTable, row_table, row_tables, rows_result
from dicemath.games.pegs_fives.solver import ReducedSolution, solve_greedy, solve_reduced
from dicemath.games.pegs_fives.state import (
    Board, InvalidBoardError, InvalidRollError, TurnState, greedy_policy, legal_rows, play_game, play_turn)
from dicemath.games.pegs_fives.turn import TurnOutcomes, TurnValue, turn_outcome

__all__ = [
    "Advisor", "BoardValue", "advise_result", "analyse", "board_value", "last_turn_rest", "race_stats",
    "FIVES", "PEGS", "Rules", "preset", "RowTable", "row_table", "row_tables", "rows_result",
    "ReducedSolution", "solve_greedy", "solve_reduced", "Board", "InvalidBoardError", "InvalidRollError",
    "TurnState", "greedy_policy", "legal_rows", "play_game", "play_turn", "TurnOutcomes", "TurnValue",
    "turn_outcome",
]
