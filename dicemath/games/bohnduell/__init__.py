"""BohnDuell (RULES.md section 5): rules engine, exact solvers and a search advisor.

Example:
    >>> from dicemath.games.bohnduell import BohnRules, Move
    >>> start = BohnRules(stock=6).initial()
    >>> [str(m) for m in start.legal_actions()]
    ['S1', 'S2', 'S3', 'S4']
"""

from dicemath.games.bohnduell.rules import BohnRules, InvalidRulesError
from dicemath.games.bohnduell.state import Move, Position

__all__ = ["BohnRules", "InvalidRulesError", "Move", "Position"]
