"""One ordered chain of value sources per game: which source answers a decision, decided once.

A game answers a decision from the first source of its chain that covers the state: an
exact table, an exact solve on demand, a labelled estimate. Each :class:`Source` states its
limit once (:attr:`Source.covers`, and in words :attr:`Source.limit`); ``advise``,
``analyse``, the page and the report all ask the same :class:`SourceChain`, so the same
state gets the same values, the same ``exact`` flag and the same ``source`` through every
door.

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

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from dicemath.core.advice import Advice
from dicemath.core.errors import InvalidStateError

ARITHMETICS = ("integer", "fraction", "float64", "float32")
"""The arithmetic an exact source may compute in."""


class NoSourceError(InvalidStateError):
    """No source of a game's chain covers the state asked about."""


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

    Raises:
        ValueError: an unknown arithmetic.
    """

    name: str
    exact: bool
    limit: str
    covers: Callable[..., bool]
    advise: Callable[..., Advice]
    arithmetic: str = "float64"

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

    def describe(self) -> str:
        """One line per source: its name, exactness and limit."""
        return "\n".join(f"{s.name} ({s.label()}): {s.limit}" for s in self.sources)
