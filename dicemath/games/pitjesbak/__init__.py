"""Pitjesbak (RULES.md section 3): exact throw classes, round and game solvers, advice.

Example:
    >>> from dicemath.games.pitjesbak import classify, class_probabilities
    >>> class_probabilities()[classify([6, 5, 4])]
    Fraction(1, 36)
"""

from dicemath.games.pitjesbak.rules import InvalidRulesError, PitjesbakRules
from dicemath.games.pitjesbak.state import PitjesbakState, initial_state
from dicemath.games.pitjesbak.throws import (
    ThrowClass,
    class_probabilities,
    class_space,
    class_table,
    classify,
    compare,
)

__all__ = [
    "InvalidRulesError",
    "PitjesbakRules",
    "PitjesbakState",
    "ThrowClass",
    "class_probabilities",
    "class_space",
    "class_table",
    "classify",
    "compare",
    "initial_state",
]
