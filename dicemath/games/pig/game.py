"""Pig as a :class:`~dicemath.core.game.Game` object (docs/rules.md section 6).

Its chain has one source: the solution of :func:`~dicemath.games.pig.solver.solve` (the
core's layered value iteration, float64, converged to its stated tolerance), which covers
every state of every goal: it advises at a decision
(:func:`~dicemath.games.pig.advice.advise`) and values any state for both players
(:func:`~dicemath.games.pig.advice.win_probabilities`); the expectation before a roll is the
mean over the six faces. :data:`advise` is the Game's advice, the one door to it.

Example:
    >>> advise(PIG_GAME.read_state("0:0-0 t0 choose")).best.text
    'roll'
    >>> valued = PIG_GAME.sources(PIG_GAME.standard).value(PIG_GAME.read_state("0:0-0 t0 choose"))
    >>> [round(p, 4) for p in valued.values], valued.exact
    ([0.5306, 0.4694], True)
"""

from __future__ import annotations

from typing import Any

from dicemath.core.game import Game
from dicemath.core.sources import Source, SourceChain
from dicemath.games.pig.rules import STANDARD
from dicemath.games.pig.state import State, initial_state


def _covers(state: State, **settings: Any) -> bool:
    return True


def _advise(state: State, **settings: Any) -> Any:
    from dicemath.games.pig.advice import advise

    return advise(state)


def _value(state: State, **settings: Any) -> Any:
    from dicemath.games.pig.advice import win_probabilities

    return win_probabilities(state)


SOLUTION = Source("value iteration", True, "every state (the whole game is solved)", _covers, _advise,
                  value=_value)
"""The one source of Pig: the exact solution, float64."""


class PigGame(Game):
    """Pig: one die, roll or hold, first to the goal."""

    name = "pig"
    title = "Pig"
    rules_headings = ("6. Pig",)

    def presets(self) -> dict[str, Any]:
        return {"standard": STANDARD}

    def initial_state(self, rules: Any = None) -> State:
        return initial_state(rules or STANDARD)

    def read_state(self, text: str, rules: Any = None) -> State:
        return State.from_str(text, rules)

    def draw(self, state: Any, advice: Any = None) -> str:
        from dicemath.games.pig.drawing import draw

        return draw(state, advice)

    def sources(self, rules: Any) -> SourceChain:
        return SourceChain(SOLUTION)

    def register_commands(self, subparsers: Any) -> None:
        from dicemath.games.pig import commands

        commands.register(subparsers, self)

    def report_sections(self) -> tuple[Any, ...]:
        from dicemath.games.pig import report
        from dicemath.reporting.section import Section

        return (Section("pig", "Pig: when to hold", report.compute, report.render),)

    def analysis(self) -> Any:
        from dicemath.games.pig.analysis import ANALYSIS

        return ANALYSIS


PIG_GAME = PigGame()
"""Pig."""

advise = PIG_GAME.advise
"""Roll or hold? The win probability of each at a decision (:meth:`dicemath.core.game.Game.advise`; no settings)."""
