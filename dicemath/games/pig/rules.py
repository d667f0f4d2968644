"""The frozen rules of Pig (docs/rules.md section 6): the goal to reach.

Pig is the folk jeopardy dice game (PIG-1..PIG-7): two players, one die, a turn of rolls
that a 1 wipes out, a hold that banks the turn. The one variant is the ``goal`` (PIG-1,
standard 100); the die is always a six-sided one.

Presets: :data:`STANDARD` (goal 100).

Example:
    >>> Rules(goal=50)
    Rules(goal=50)
    >>> Rules(goal=0)
    Traceback (most recent call last):
    ...
    dicemath.core.errors.InvalidRulesError: goal must be a whole number 1..200 (PIG-1), got 0
"""

from __future__ import annotations

from dataclasses import dataclass

from dicemath.core.errors import InvalidRulesError

FACES = 6
"""The die's faces 1..6 (PIG-1)."""

MAX_GOAL = 200
"""The largest goal allowed: the solution holds ``goal**3`` float64 values (64 MB at 200)."""


@dataclass(frozen=True)
class Rules:
    """One variant of Pig.

    Attributes:
        goal: the score that wins, 1..200 (PIG-1; standard 100).

    Raises:
        InvalidRulesError: a goal that is not a whole number in that range.
    """

    goal: int = 100

    def __post_init__(self) -> None:
        if not isinstance(self.goal, int) or isinstance(self.goal, bool) or not 1 <= self.goal <= MAX_GOAL:
            raise InvalidRulesError(f"goal must be a whole number 1..{MAX_GOAL} (PIG-1), got {self.goal!r}")


STANDARD = Rules()
"""The standard game: goal 100 (PIG-1)."""
