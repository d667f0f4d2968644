"""The rules of Pitjesbak as a frozen object (docs/rules.md section 3, PIT-1..PIT-8).

Defaults follow docs/rules.md: 2..8 players, 9 stripes each (PIT-1), three dice (PIT-1), at
most 3 throws for the start player (PIT-4), traditional die values 1 = 100, 6 = 60 (PIT-2).

Named variants (fields of :class:`Rules`):

* ``die_values="pips"`` scores plain pips (PIT-2 decision); 2-2-3 still adds a stripe
  (PIT-7) but is then no longer the lowest throw.
* ``stripes``: the starting number of stripes (PIT-1).
* ``players``: the number of players, 2..8 (PIT-1).

Presets: :data:`STANDARD` (the defaults) and :data:`PIPS`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from dicemath.core.errors import InvalidRulesError, InvalidStateError

DIE_VALUE_VARIANTS = ("traditional", "pips")
"""Known values of :attr:`Rules.die_values`."""

DICE = 3
"""Dice in a throw (PIT-1)."""

MAX_THROWS = 3
"""The start player throws at most this often in a round (PIT-4)."""


def check_players(players: int) -> int:
    """Return ``players`` if it is 2..8 (PIT-1), else raise :class:`InvalidRulesError`."""
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 8:
        raise InvalidRulesError(f"players must be 2..8 (PIT-1), got {players!r}")
    return players


@dataclass(frozen=True)
class Rules:
    """Frozen Pitjesbak rules (PIT-1, PIT-2).

    Attributes:
        players: number of players, 2..8 (PIT-1).
        stripes: stripes every player starts with (PIT-1), >= 1.
        die_values: ``"traditional"`` (1 = 100, 6 = 60) or ``"pips"`` (PIT-2).

    Raises:
        InvalidRulesError: players outside 2..8, stripes < 1, or an unknown
            ``die_values`` variant.

    Example:
        >>> Rules()
        Rules(players=2, stripes=9, die_values='traditional')
        >>> Rules(players=9)
        Traceback (most recent call last):
        ...
        dicemath.core.errors.InvalidRulesError: players must be 2..8 (PIT-1), got 9
    """

    players: int = 2
    stripes: int = 9
    die_values: str = "traditional"

    def __post_init__(self) -> None:
        check_players(self.players)
        if isinstance(self.stripes, bool) or not isinstance(self.stripes, int) or self.stripes < 1:
            raise InvalidRulesError(f"stripes must be a whole number >= 1 (PIT-1), got {self.stripes!r}")
        if self.die_values not in DIE_VALUE_VARIANTS:
            raise InvalidRulesError(
                f"die_values must be one of {DIE_VALUE_VARIANTS} (PIT-2), got {self.die_values!r}")

    def with_players(self, players: int) -> Rules:
        """The same rules for another number of players."""
        return replace(self, players=players)


STANDARD = Rules()
"""Two players, 9 stripes, traditional die values (docs/rules.md section 3)."""

PIPS = Rules(die_values="pips")
"""The plain-pips variant of PIT-2."""


def check_stripes(stripes: int, name: str = "stripes") -> int:
    """Return ``stripes`` if it is a whole number >= 0, else raise :class:`InvalidStateError`."""
    if isinstance(stripes, bool) or not isinstance(stripes, int) or stripes < 0:
        raise InvalidStateError(f"{name} must be a whole number >= 0, got {stripes!r}")
    return stripes
