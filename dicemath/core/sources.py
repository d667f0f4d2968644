"""One ordered chain of value sources per game: which source answers a state, decided once.

A game answers a decision from the first source of its chain that covers the state: an
exact table, an exact solve on demand, a labelled estimate. Each :class:`Source` states its
limit once (:attr:`Source.covers`, and in words :attr:`Source.limit`); ``advise``,
``analyse``, the page and the report all ask the same :class:`SourceChain`, so the same
state gets the same values, the same ``exact`` flag and the same ``source`` through every
door.

One value system: a source gives the advice at a decision (:attr:`Source.advise`) and, for
the analysis of played games, the value of any state for every player (:attr:`Source.value`,
a :class:`Valued`) and the expectation before a chance event (:attr:`Source.expected`, by
default the probability-weighted mean of :attr:`Source.value` after each outcome).
:meth:`SourceChain.value` and :meth:`SourceChain.expected` ask the first source that covers
the state and gives values.

``exact`` means one thing: the values come from an exact solution of the game (a table or a
solve), in the arithmetic :attr:`Source.arithmetic` names (``"integer"`` or ``"fraction"``
for exact whole or rational numbers, ``"float64"`` for floats exact to their rounding); an estimate is
``exact=False``.

Example:
    >>> from dicemath.core.advice import Advice, Option
    >>> def solve(state, **settings):
    ...     return Advice(game="toy", state=str(state), unit="win probability", higher_is_better=True,
    ...                   exact=True, source="solve", options=(Option("a", "a", 0.75), Option("b", "b", 0.25)))
    >>> def guess(state, **settings):
    ...     return Advice(game="toy", state=str(state), unit="win probability", higher_is_better=True,
    ...                   exact=False, source="estimate", options=(Option("a", "a", 0.5),))
    >>> chain = SourceChain(Source("solve", True, "at most 3 left", lambda s, **_: s <= 3, solve),
    ...                     Source("estimate", False, "any state", lambda s, **_: True, guess))
    >>> chain.source_for(2).name, chain.source_for(9).name
    ('solve', 'estimate')
    >>> chain.advise(9).exact
    False
    >>> print(chain.describe())
    solve (exact, float64): at most 3 left
    estimate (estimate): any state
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from dicemath.core.advice import Advice
from dicemath.core.errors import InvalidStateError
from dicemath.core.game import CHANCE

ARITHMETICS = ("integer", "fraction", "float64", "float32")
"""The arithmetic an exact source may compute in."""


class NoSourceError(InvalidStateError):
    """No source of a game's chain covers the state asked about."""


@dataclass(frozen=True)
class Valued:
    """The value of a state for every player, and whether it is exact.

    Attributes:
        values: one float per player, in the game's unit.
        exact: False when any part of the number is an estimate.
    """

    values: tuple[float, ...]
    exact: bool


def combine(weighted: Sequence[tuple[float, Valued]]) -> Valued:
    """``sum(weight * valued)``, exact when every term is.

    Example:
        >>> combine([(0.25, Valued((1.0, 0.0), True)), (0.75, Valued((0.0, 1.0), False))])
        Valued(values=(0.25, 0.75), exact=False)
    """
    size = len(weighted[0][1].values)
    totals = [0.0] * size
    for weight, valued in weighted:
        for player, value in enumerate(valued.values):
            totals[player] += weight * value
    return Valued(tuple(totals), all(valued.exact for _, valued in weighted))


@dataclass(frozen=True)
class Source:
    """One source of a game's chain.

    Attributes:
        name: its name, the ``source`` of every answer it gives (``"table"``, ``"solve"``,
            ``"estimate"``, or a more precise word of the game's).
        exact: True when its values come from an exact solution (see the module docstring).
        limit: what it covers, in words (shown in help, docs and errors).
        covers: ``covers(state, **settings)``: whether it answers ``state``; the limit, written once.
        advise: ``advise(state, **settings) -> Advice``, the values of every option.
        arithmetic: the arithmetic of an exact source (one of :data:`ARITHMETICS`).
        value: ``value(state, **settings) -> Valued``: the value of any state it covers (a
            decision, a chance event or the end) for every player, as its advice values the
            options; None: the source gives advice only.
        expected: ``expected(state, **settings) -> Valued`` at a chance state: the expectation
            before the outcome, which an outcome's luck is measured against; None: the mean of
            :attr:`value` after each outcome, weighted by its exact probability.

    Raises:
        ValueError: an unknown arithmetic.
    """

    name: str
    exact: bool
    limit: str
    covers: Callable[..., bool]
    advise: Callable[..., Advice]
    arithmetic: str = "float64"
    value: Callable[..., Valued] | None = None
    expected: Callable[..., Valued] | None = None

    def __post_init__(self) -> None:
        if self.arithmetic not in ARITHMETICS:
            raise ValueError(f"unknown arithmetic {self.arithmetic!r}; choose from {ARITHMETICS}")

    def label(self) -> str:
        """``"exact, float64"`` or ``"estimate"``."""
        return f"exact, {self.arithmetic}" if self.exact else "estimate"


class SourceChain:
    """A game's sources in the order they are asked (best first).

    Args:
        sources: the sources, the exact ones before the estimates.

    Raises:
        ValueError: no source given.
    """

    def __init__(self, *sources: Source):
        if not sources:
            raise ValueError("a chain needs at least one source")
        self.sources = tuple(sources)

    def source_for(self, state: Any, **settings: Any) -> Source:
        """The first source that covers ``state``.

        Raises:
            NoSourceError: none does.
        """
        for source in self.sources:
            if source.covers(state, **settings):
                return source
        limits = "; ".join(f"{s.name}: {s.limit}" for s in self.sources)
        raise NoSourceError(f"no source answers {state} ({limits})")

    def advise(self, state: Any, **settings: Any) -> Advice:
        """The advice of the first source that covers ``state``.

        Raises:
            NoSourceError: no source covers it.
            ValueError: the source's answer disagrees with its own ``exact`` flag.
        """
        source = self.source_for(state, **settings)
        advice = source.advise(state, **settings)
        if advice.exact != source.exact:
            raise ValueError(f"source {source.name!r} is {source.label()} but answered exact={advice.exact}")
        return advice

    def value(self, state: Any, **settings: Any) -> Valued:
        """The value of ``state`` (any state: a decision, a chance event, the end) for every
        player, from the first source that covers it and gives values.

        Raises:
            NoSourceError: no such source.
        """
        value = self._valuer(state, **settings).value
        assert value is not None                    # _valuer returns sources that give values
        return value(state, **settings)

    def expected(self, state: Any, **settings: Any) -> Valued:
        """The expectation before the chance event ``state``, from the first source that covers
        it and gives values (its :attr:`Source.expected`, or the mean of its values after each
        outcome, weighted by their exact probabilities).

        Raises:
            NoSourceError: no such source.
            InvalidStateError: ``state`` is no chance state.
        """
        if state.current_player() != CHANCE:
            raise InvalidStateError(f"{state} is no chance event: nothing to expect")
        source = self._valuer(state, **settings)
        if source.expected is not None:
            return source.expected(state, **settings)
        value = source.value
        assert value is not None                    # _valuer returns sources that give values
        return combine([(float(p), value(state.apply(outcome), **settings))
                        for outcome, p in state.chance_outcomes()])

    def _valuer(self, state: Any, **settings: Any) -> Source:
        for source in self.sources:
            if source.value is not None and source.covers(state, **settings):
                return source
        limits = "; ".join(f"{s.name}: {s.limit}" for s in self.sources if s.value is not None)
        raise NoSourceError(f"no source values {state} ({limits or 'no source of this chain gives values'})")

    def describe(self) -> str:
        """One line per source: its name, exactness and limit."""
        return "\n".join(f"{s.name} ({s.label()}): {s.limit}" for s in self.sources)
