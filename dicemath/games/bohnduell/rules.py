"""The frozen rules of BohnDuell (docs/rules.md section 5) and their variants.

BohnDuell is the 2x4 version of Cups (Amberstone, in Sackson's *A Gamut of Games*): each
player owns a row of ``cups`` cups ending in a pot and a stock of ``stock`` beans
(BOHN-1). The variants are the number of cups (3..10), the stock, and the capture rule of
BOHN-4: ``"last"`` (only the cup that receives the last bean captures; the published
rule and the default) or ``"every"`` (every sown cup that was empty captures; a literal
reading of the Dutch seed text).

Presets: :data:`STANDARD` (4 cups, 40 beans, capture ``last``) and :data:`CAPTURE_EVERY`.

Example:
    >>> rules = Rules(cups=4, stock=10)
    >>> rules
    Rules(cups=4, stock=10, capture='last')
    >>> Rules(cups=2)
    Traceback (most recent call last):
    ...
    dicemath.core.errors.InvalidRulesError: cups must be a whole number 3..10 (BOHN-1), got 2
"""

from __future__ import annotations

from dataclasses import dataclass

from dicemath.core.errors import InvalidRulesError

CAPTURE_RULES = ("last", "every")
"""The two readings of BOHN-4: only the last sown bean captures, or every sown bean."""

MIN_CUPS, MAX_CUPS = 3, 10
"""The range of the ``cups`` variant (BOHN-1)."""

STANDARD_STOCK = 40
"""Beans per player in the standard game (BOHN-1)."""


@dataclass(frozen=True)
class Rules:
    """One variant of BohnDuell.

    Attributes:
        cups: cups per row, 3..10 (BOHN-1; standard 4).
        stock: beans each player starts with in his stock (BOHN-1; standard 40).
        capture: ``"last"`` (BOHN-4, default) or ``"every"`` (variant).

    Raises:
        InvalidRulesError: a value outside those ranges.
    """

    cups: int = 4
    stock: int = STANDARD_STOCK
    capture: str = "last"

    def __post_init__(self) -> None:
        if (not isinstance(self.cups, int) or isinstance(self.cups, bool)
                or not MIN_CUPS <= self.cups <= MAX_CUPS):
            raise InvalidRulesError(
                f"cups must be a whole number {MIN_CUPS}..{MAX_CUPS} (BOHN-1), got {self.cups!r}")
        if not isinstance(self.stock, int) or isinstance(self.stock, bool) or self.stock < 0:
            raise InvalidRulesError(f"stock must be a whole number >= 0 (BOHN-1), got {self.stock!r}")
        if self.capture not in CAPTURE_RULES:
            raise InvalidRulesError(
                f"capture must be one of {CAPTURE_RULES} (BOHN-4), got {self.capture!r}")

    @property
    def every(self) -> bool:
        """True for the ``capture="every"`` variant of BOHN-4."""
        return self.capture == "every"


STANDARD = Rules()
"""The standard game: 4 cups, 40 beans each, only the last sown bean captures (BOHN-1, BOHN-4)."""

CAPTURE_EVERY = Rules(capture="every")
"""The standard game with the ``every`` reading of BOHN-4."""
