"""Frozen rules of Backgammon (RULES.md section 4): the standard game and the playtive preset.

The rules object is a small frozen dataclass so it can key caches (its ``repr`` enters the
cache key) and be compared. Only one thing differs between the presets: BG-4's variant
``playtive`` closes a point to a player who already has 5 of his own checkers on it.

Example:
    >>> STANDARD.max_per_point is None, PLAYTIVE.max_per_point
    (True, 5)
    >>> PLAYTIVE.is_open_for_own(5)
    False
"""

from __future__ import annotations

from dataclasses import dataclass

from dicemath.core.errors import InvalidRulesError


@dataclass(frozen=True)
class BackgammonRules:
    """The rules a position is played under.

    Attributes:
        name: ``"standard"`` or ``"playtive"`` (or any label of a custom variant).
        max_per_point: BG-4 variant: a point holding this many of the mover's own checkers
            is closed to him; ``None`` (standard game) means no limit.
        checkers: checkers per side (BG-1: 15).
    """

    name: str = "standard"
    max_per_point: int | None = None
    checkers: int = 15

    def __post_init__(self) -> None:
        if self.max_per_point is not None and not 1 <= self.max_per_point <= 15:
            raise InvalidRulesError(f"max_per_point must be 1..15 or None, got {self.max_per_point}")
        if not 1 <= self.checkers <= 15:
            raise InvalidRulesError(f"checkers must be 1..15, got {self.checkers}")

    def is_open_for_own(self, own_on_point: int) -> bool:
        """Whether a point with ``own_on_point`` of the mover's checkers can take one more (BG-4)."""
        return self.max_per_point is None or own_on_point < self.max_per_point


STANDARD = BackgammonRules()
"""The standard game (BG-1..BG-8): no limit on checkers per point."""

PLAYTIVE = BackgammonRules(name="playtive", max_per_point=5)
"""The seed's own rule (BG-4 variant): at most 5 own checkers on a point."""

PRESETS = {"standard": STANDARD, "playtive": PLAYTIVE}
"""The named presets, for the command line."""


def rules_named(name: str) -> BackgammonRules:
    """The preset called ``name``.

    Raises:
        InvalidRulesError: unknown name.
    """
    try:
        return PRESETS[name]
    except KeyError:
        raise InvalidRulesError(f"unknown backgammon rules {name!r}; known: {sorted(PRESETS)}") from None
