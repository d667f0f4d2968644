"""The frozen rules of Backgammon (docs/rules.md section 4): the standard game and the Playtive rule.

One variant: BG-4's ``playtive`` (the seed's own rule) closes a point to a player who
already has 5 of his own checkers on it. The rules object keys the solvers' caches.

Presets: :data:`STANDARD` (BG-1..BG-8) and :data:`PLAYTIVE`.

Example:
    >>> STANDARD.max_per_point is None, PLAYTIVE.max_per_point, PLAYTIVE.name
    (True, 5, 'playtive')
    >>> Rules(playtive="yes")
    Traceback (most recent call last):
    ...
    dicemath.core.errors.InvalidRulesError: playtive must be True or False (BG-4), got 'yes'
"""

from __future__ import annotations

from dataclasses import dataclass

from dicemath.core.errors import InvalidRulesError

PLAYTIVE_LIMIT = 5
"""BG-4 ``playtive``: a point holding this many of the mover's own checkers is closed to him."""


@dataclass(frozen=True)
class Rules:
    """The rules a game is played under.

    Attributes:
        playtive: BG-4's variant: at most :data:`PLAYTIVE_LIMIT` (5) own checkers on a
            point (default False: the standard game, no limit).

    Raises:
        InvalidRulesError: ``playtive`` not a bool.
    """

    playtive: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.playtive, bool):
            raise InvalidRulesError(f"playtive must be True or False (BG-4), got {self.playtive!r}")

    @property
    def max_per_point(self) -> int | None:
        """Own checkers a point may hold (BG-4): 5 under ``playtive``, else None (no limit)."""
        return PLAYTIVE_LIMIT if self.playtive else None

    @property
    def name(self) -> str:
        """``"standard"`` or ``"playtive"`` (the preset's name, used on the command line)."""
        return "playtive" if self.playtive else "standard"


STANDARD = Rules()
"""The standard game (BG-1..BG-8): no limit on checkers per point."""

PLAYTIVE = Rules(playtive=True)
"""The seed's own rule (BG-4 variant): at most 5 own checkers on a point."""

PRESETS = {"standard": STANDARD, "playtive": PLAYTIVE}
"""The named presets, for the command line."""


def rules_named(name: str) -> Rules:
    """The preset called ``name``.

    Raises:
        InvalidRulesError: unknown name.
    """
    try:
        return PRESETS[name]
    except KeyError:
        raise InvalidRulesError(f"unknown backgammon rules {name!r}; known: {sorted(PRESETS)}") from None
