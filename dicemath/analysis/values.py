"""Value sources: what a state is worth to each player, and whether that is exact.

A *value source* answers, for any state of a game (a :class:`dicemath.core.game.GameState`),
the value of the game for every player under optimal play from there, in the game's
natural unit (the probability of winning the game, expected turns still needed, a bean
margin, an equity), together with a flag saying whether the number is exact or an
estimate. Each game supplies one (``dicemath/games/<game>/analysis.py``) from the best
tables and searches the library has; the generic analysis (:mod:`.engine`) only calls:

* :meth:`ValueSource.value` at any state;
* :meth:`ValueSource.action_values` at a decision: the value after each legal action
  (default: :meth:`value` of each successor; a game may compute them together);
* :meth:`ValueSource.expected` at a chance state: the probability-weighted mean of the
  values after each outcome (default: that sum over ``chance_outcomes()``, exactly the
  expectation GNU Backgammon's luck is measured against);
* :meth:`ValueSource.advice` at a decision, to draw it: the game's advice object from the
  same values (:mod:`.pictures`).

For an exact source :meth:`value` at a chance state equals :meth:`expected` and at a
decision the best of :meth:`action_values`; the tests check that for every game.

Example:
    A coin that pays 1 to player 0 with probability 1/3 (a toy game):

    >>> from dataclasses import dataclass
    >>> from fractions import Fraction
    >>> from dicemath.core.game import CHANCE, TERMINAL
    >>> @dataclass(frozen=True)
    ... class Coin:
    ...     heads: bool | None = None
    ...     def current_player(self):
    ...         return CHANCE if self.heads is None else TERMINAL
    ...     def chance_outcomes(self):
    ...         return ((True, Fraction(1, 3)), (False, Fraction(2, 3)))
    ...     def apply(self, heads):
    ...         return Coin(heads)
    ...     def returns(self):
    ...         return (float(self.heads),)
    >>> class Returns(ValueSource):
    ...     def value(self, state):
    ...         return Valued(tuple(state.returns()), True)
    >>> Returns().expected(Coin())
    Valued(values=(0.3333333333333333,), exact=True)
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

from dicemath.core.game import GameState

S = TypeVar("S", bound=GameState)
"""The state type of one game (a value source, a game's analysis, take that game's states)."""


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
    """``sum(weight * valued)``, exact when every term is."""
    size = len(weighted[0][1].values)
    totals = [0.0] * size
    for weight, valued in weighted:
        for player, value in enumerate(valued.values):
            totals[player] += weight * value
    return Valued(tuple(totals), all(valued.exact for _, valued in weighted))


class ValueSource(Generic[S]):
    """The values of one game's states (see the module docstring); subclasses give :meth:`value`.

    Attributes:
        description: where the values come from, in words (shown with every analysis).
    """

    description = ""

    def value(self, state: S) -> Valued:
        """The value of ``state`` for every player under optimal play from there."""
        raise NotImplementedError

    def advice(self, state: S) -> Any:
        """The game's advice at a decision ``state`` from these values, in the form the game's
        drawing takes (:func:`dicemath.core.svg.picture`): the options, best first, with their
        values."""
        raise NotImplementedError

    def action_values(self, state: S) -> dict[Hashable, Valued]:
        """The value after each legal action of a decision state (default: :meth:`value` of
        each successor)."""
        # a state's successors are states of the same game
        return {action: self.value(cast(S, state.apply(action))) for action in state.legal_actions()}

    def expected(self, state: S) -> Valued:
        """The expected value over the chance outcomes of ``state`` (their exact
        probabilities, as floats), the value each outcome is compared with for its luck."""
        return combine([(float(p), self.value(cast(S, state.apply(outcome))))
                        for outcome, p in state.chance_outcomes()])
