"""The rules of Pegs (docs/rules.md section 1) and Fives (section 2) as one frozen object.

Both games throw 6 dice, name a number 1..12 after a *choice throw*, set aside the hits and
throw on for the same number. Every point where they differ is a named field of
:class:`Rules`; :data:`PEGS` and :data:`FIVES` are the two presets, and a table that plays a
point differently builds a variant with :meth:`Rules.variant`.

Example:
    >>> PEGS.goal, PEGS.throws, PEGS.overthrow
    (5, 3, True)
    >>> FIVES.throws is None, FIVES.overthrow
    (True, False)
    >>> PEGS.variant(goal=4).goal
    4
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from functools import cached_property
from typing import Any

from dicemath.core.errors import InvalidRulesError

ON_COMPLETE_CHOICES = ("remaining", "fresh")


@dataclass(frozen=True)
class Rules:
    """Every rule point of the Pegs/Fives family.

    Attributes:
        name: ``"pegs"`` or ``"fives"`` (or a variant's name).
        rows: number of rows / numbers, 1..rows (12 in both games; PEGS-1, FIVES-1).
        goal: steps to the top hole (PEGS-1, variant ``steps``) or marks per number
            (FIVES-1, variant ``marks``). Default 5.
        dice: dice in hand at the start of a turn and of a fresh cycle (6).
        throws: throw budget of a cycle, the choice throw included (PEGS-3: 3), or None for
            no limit (FIVES-3).
        overthrow: True: hits of a cycle beyond the goal cancel the whole cycle and end the
            turn (PEGS-6). False: hits beyond the goal are lost and the row completes
            (FIVES-5).
        on_complete: what follows completing a row: ``"remaining"`` -- the next throw is a
            choice throw with the remaining dice and throws, the turn ends if none remain
            (PEGS-7); ``"fresh"`` -- take all dice and a new budget (FIVES-5).
        all_dice_first: PEGS-8 goes before PEGS-7: a cycle that uses the last die and
            completes the row also gives all dice back with a fresh budget (default True).
        fresh_budget_on_all_dice: using the last die resets the throw budget (PEGS-8
            Decision, default True); False keeps the throws that were left.
        scoring: ``"first_out"`` (PEGS-2: the first to finish wins) or ``"rest_points"``
            (FIVES-6: losers score missing marks x number).
    """

    name: str = "pegs"
    rows: int = 12
    goal: int = 5
    dice: int = 6
    throws: int | None = 3
    overthrow: bool = True
    on_complete: str = "remaining"
    all_dice_first: bool = True
    fresh_budget_on_all_dice: bool = True
    scoring: str = "first_out"

    def __post_init__(self) -> None:
        if not isinstance(self.rows, int) or not 1 <= self.rows <= 12:
            raise InvalidRulesError(f"rows must be 1..12, got {self.rows!r}")
        if not isinstance(self.goal, int) or self.goal < 1:
            raise InvalidRulesError(f"goal (steps/marks) must be an integer >= 1, got {self.goal!r}")
        if not isinstance(self.dice, int) or not 1 <= self.dice <= 6:
            raise InvalidRulesError(f"dice must be 1..6, got {self.dice!r}")
        if self.throws is not None and (not isinstance(self.throws, int) or self.throws < 1):
            raise InvalidRulesError(f"throws must be None or an integer >= 1, got {self.throws!r}")
        if self.on_complete not in ON_COMPLETE_CHOICES:
            raise InvalidRulesError(f"on_complete must be one of {ON_COMPLETE_CHOICES}, got {self.on_complete!r}")
        if self.scoring not in ("first_out", "rest_points"):
            raise InvalidRulesError(f"scoring must be 'first_out' or 'rest_points', got {self.scoring!r}")

    def variant(self, **changes: Any) -> Rules:
        """A copy with some rule points changed (validated like the presets)."""
        return replace(self, **changes)

    @cached_property
    def dice_per_hit(self) -> tuple[int, ...]:
        """Dice set aside per hit, indexed by row - 1 (1 for rows 1..6, 2 for 7..12; PEGS-4)."""
        return tuple(1 if r <= 6 else 2 for r in range(1, self.rows + 1))


PEGS = Rules()
"""Pegs ("popnagels"), docs/rules.md PEGS-1..9: 5 steps, 3 throws, overthrow, PEGS-8 before PEGS-7."""

FIVES = Rules(name="fives", throws=None, overthrow=False, on_complete="fresh",
              scoring="rest_points")
"""Fives, docs/rules.md FIVES-1..7: 5 marks, no throw limit, hits beyond 5 lost, fresh dice on
completion (FIVES-5) and when all dice are used (FIVES-4), rest points (FIVES-6)."""

PRESETS = {"pegs": PEGS, "fives": FIVES}


def preset(name: str) -> Rules:
    """The preset called ``name`` (``"pegs"`` or ``"fives"``)."""
    try:
        return PRESETS[name]
    except KeyError:
        raise InvalidRulesError(f"unknown game {name!r}; known: {sorted(PRESETS)}") from None


def variant_text(rules: Rules) -> str:
    """The rules as text: the preset's name and every field that differs from the preset
    (a name that is no preset counts from :data:`PEGS`); :func:`read_variant` reads it back.

    Example:
        >>> variant_text(FIVES), variant_text(PEGS.variant(rows=3, throws=None))
        ('fives', 'pegs rows=3 throws=none')
    """
    base = PRESETS.get(rules.name, PEGS)
    changed = [f"{f.name}={_value_text(getattr(rules, f.name))}" for f in fields(Rules)
               if f.name != "name" and getattr(rules, f.name) != getattr(base, f.name)]
    return " ".join([rules.name, *changed])


def read_variant(text: str) -> Rules:
    """Read the text of :func:`variant_text`.

    Raises:
        InvalidRulesError: an unknown field, a value the field does not take, or no name.
    """
    name, *changes = text.split() or [""]
    if not name or "=" in name:
        raise InvalidRulesError(f"rules text starts with the game's name, got {text!r}")
    known = {f.name for f in fields(Rules)} - {"name"}
    values: dict[str, Any] = {}                 # read from text: Rules validates them
    for change in changes:
        key, _, value = change.partition("=")
        if key not in known or not value:
            raise InvalidRulesError(f"a rule change is field=value with a field of {sorted(known)}, got {change!r}")
        values[key] = _read_value(value)
    return replace(PRESETS.get(name, PEGS), name=name, **values)


def _value_text(value: object) -> str:
    return "none" if value is None else ("yes" if value else "no") if isinstance(value, bool) else str(value)


def _read_value(text: str) -> bool | int | str | None:
    words = {"none": None, "yes": True, "no": False}
    if text in words:
        return words[text]
    return int(text) if text.lstrip("-").isdigit() else text
