"""One advice type for every game: the options of a decision, valued and ranked.

Every game's ``advise(state)`` returns an :class:`Advice`: the state (its text form, which
the game's ``State.from_str`` reads back), the unit of the values, whether they are exact,
where they come from, and every legal action as an :class:`Option`, best first. What only
one game has (the board value of Pegs, a cube decision's windows, Pitjesbak's every-player
win probabilities) rides along in ``extras`` (per advice or per option) and, as an object,
in ``detail``; it never replaces the common shape.

:meth:`Advice.as_dict` is the one JSON envelope of ``dicemath GAME advise STATE --json``:
``game``, ``state``, ``unit``, ``exact``, ``source``, ``best``, ``options`` (each with
``action``, ``value`` and the option's extras), then the advice's extras.

Example:
    >>> advice = Advice(game="toy", state="3 left", unit="win probability", higher_is_better=True,
    ...                 exact=True, source="solve",
    ...                 options=(Option(1, "take 1", 0.75), Option(2, "take 2", 0.25)))
    >>> advice.best.text, advice.as_dict()["best"]
    ('take 1', 'take 1')
    >>> print(advice)
    toy at 3 left: best take 1 (win probability 0.75, exact; source: solve)
    >>> Advice(game="toy", state="3 left", unit="win probability", higher_is_better=True, exact=True,
    ...        source="solve", options=(Option(2, "take 2", 0.25), Option(1, "take 1", 0.75)))
    Traceback (most recent call last):
    ...
    ValueError: the options of an Advice are best first: 'take 2' (0.25) before 'take 1' (0.75)
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, cast

from dicemath.core.numbers import number_text


ENVELOPE = ("game", "state", "unit", "exact", "source", "best", "options")
"""The keys every advice's JSON starts with (:meth:`Advice.as_dict`)."""


@dataclass(frozen=True)
class Option:
    """One legal action of a decision and its value.

    Attributes:
        action: the action as the game's state takes it (``state.apply(action)``).
        text: the action as the game's ``state.action_text(action)`` writes it.
        value: its value in the advice's unit (float64, or a ``Fraction`` when exact
            arithmetic was used).
        extras: what the game adds per option (JSON-ready values), e.g. Pegs' ``hits``.
    """

    action: Hashable
    text: str
    value: float | Fraction
    extras: Mapping[str, Any] = field(default_factory=dict, compare=False)

    def as_dict(self) -> dict[str, Any]:
        """``action`` (the text), ``value``, then the extras."""
        value = self.value if not isinstance(self.value, Fraction) else float(self.value)
        return {"action": self.text, "value": value, **self.extras}


@dataclass(frozen=True)
class Advice:
    """The advice for one decision of any game.

    Attributes:
        game: the game's name (``"pegs"``).
        state: the state's text form (``str(state)``).
        unit: what the values measure, e.g. ``"expected turns after this turn"``.
        higher_is_better: True when the best option has the highest value.
        exact: every value is exact (an exact solve or table); False: estimates.
        source: where the values come from (a table, a solve, a model; game-specific words).
        options: every legal action, best first; empty when there is nothing to choose.
        extras: what the game adds to the envelope (JSON-ready values).
        detail: the game's own richer object (e.g. Pitjesbak's thresholds), or None.

    Raises:
        ValueError: options not in order, best first; extras that reuse a key of the envelope.
    """

    game: str
    state: str
    unit: str
    higher_is_better: bool
    exact: bool
    source: str
    options: tuple[Option, ...]
    extras: Mapping[str, Any] = field(default_factory=dict, compare=False)
    detail: Any = field(default=None, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", tuple(self.options))
        clash = set(self.extras) & set(ENVELOPE)
        if clash:
            raise ValueError(f"extras may not reuse the envelope's keys: {sorted(clash)}")
        sign = 1 if self.higher_is_better else -1
        for first, second in zip(self.options, self.options[1:]):
            magnitude = cast("float | Fraction", abs(first.value))     # typeshed joins abs of the union to object
            if sign * (second.value - first.value) > 1e-12 * max(1.0, magnitude):
                raise ValueError(f"the options of an Advice are best first: {first.text!r} ({first.value}) before "
                                 f"{second.text!r} ({second.value})")

    @property
    def best(self) -> Option | None:
        """The best option (None when there is none)."""
        return self.options[0] if self.options else None

    def option(self, action: Hashable) -> Option:
        """The option of ``action``.

        Raises:
            KeyError: ``action`` is not among the options.
        """
        for option in self.options:
            if option.action == action:
                return option
        raise KeyError(f"{action!r} is not an option of this decision ({[o.text for o in self.options]})")

    def as_dict(self) -> dict[str, Any]:
        """The JSON envelope: ``game``, ``state``, ``unit``, ``exact``, ``source``, ``best``
        (the best action's text, or None), ``options``, then the extras."""
        return {"game": self.game, "state": self.state, "unit": self.unit, "exact": self.exact,
                "source": self.source, "best": None if self.best is None else self.best.text,
                "options": [o.as_dict() for o in self.options], **self.extras}

    def _label(self) -> str:
        return "exact" if self.exact else "estimate"

    def short_state(self) -> str:
        """The state's text without the game's name when it begins with it (a Pegs state's
        text begins ``pegs | ...``), for sentences that name the game already.

        Example:
            >>> Advice(game="toy", state="toy | 3 left", unit="win probability", higher_is_better=True,
            ...        exact=True, source="solve", options=()).short_state()
            '3 left'
        """
        first, _, rest = self.state.partition(" ")
        if first.lower() != self.game.lower() or not rest.strip():
            return self.state
        return rest.lstrip("| ").strip()

    def __str__(self) -> str:
        """``GAME at POSITION: best ACTION (UNIT VALUE, exact|estimate; source: SOURCE)``."""
        if self.best is None:
            return f"{self.game} at {self.short_state()}: nothing to choose"
        return (f"{self.game} at {self.short_state()}: best {self.best.text} ({self.unit} "
                f"{number_text(self.best.value)}, {self._label()}; source: {self.source})")

    def _repr_markdown_(self) -> str:
        head = f"**{self.game}** `{self.short_state()}`: {self._label()} values ({self.unit}); source: {self.source}"
        if not self.options:
            return head + "\n\nNothing to choose."
        rows = "\n".join(f"| {'**' if i == 0 else ''}{o.text}{'**' if i == 0 else ''} | {number_text(o.value)} |"
                         for i, o in enumerate(self.options))
        return f"{head}\n\n| action | {self.unit} |\n|---|---|\n{rows}"
