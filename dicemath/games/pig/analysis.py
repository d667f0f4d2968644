"""Analysis of played Pig: every roll-or-hold decision's cost in P(win the game).

The value of a state is each player's probability of winning when both play optimally
from there, read from the solution (:func:`~dicemath.games.pig.solver.solve`, float64
value iteration converged to 1e-12): at a decision the best action's value, while the
die rolls the roll's value, 1 and 0 at the end (PIG-6). A decision's values are exactly
those of :func:`~dicemath.games.pig.advice.advise`.

Records (``docs/analyse.md``): a decision entry gives ``state`` (the text form of
:class:`~dicemath.games.pig.state.State`, e.g. ``"0:35-62 t12 choose"``, or ``"start"``)
and ``choice`` (``"roll"`` or ``"hold"``); a whole game lists the moves from the start,
player 0 first (PIG-7): ``"roll"``, the face it showed (``"1"``..``"6"``), ``"hold"``, ...
The record's ``rules`` are :class:`~dicemath.games.pig.rules.Rules` fields (``goal``).

Example:
    >>> result = analyse({"game": "pig", "rules": {"goal": 20},
    ...                   "moves": ["roll", "6", "hold", "roll", "1", "roll", "5", "roll", "4"]})
    >>> [(d.choice, d.best, round(d.loss, 3)) for d in result.decisions]
    [('hold', 'roll', 0.237), ('roll', 'roll', 0.0)]
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any, ClassVar, cast

from dicemath.analysis.engine import GameAnalysis
from dicemath.analysis.records import InvalidRecordError, check_keys
from dicemath.analysis.values import Valued, ValueSource
from dicemath.core.advice import Advice
from dicemath.core.errors import InvalidStateError
from dicemath.games.pig.advice import advise
from dicemath.games.pig.rules import Rules
from dicemath.games.pig.solver import TOLERANCE, solve
from dicemath.games.pig.state import PLAYER_NAMES, State, initial_state, parse_state


def _both(mover: int, value: float) -> tuple[float, float]:
    """The mover's win probability as ``(P(player 0 wins), P(player 1 wins))``."""
    return (value, 1.0 - value) if mover == 0 else (1.0 - value, value)


class SolutionValues(ValueSource[State]):
    """P(each player wins) of any Pig state, from the optimal solution.

    Args:
        rules: the variant (solved once per process).
    """

    def __init__(self, rules: Rules):
        self.rules = rules
        self.solution = solve(rules)
        self.description = (f"exact win probabilities for optimal play (goal {rules.goal}: value iteration, "
                            f"float64, converged to {TOLERANCE:g})")

    def value(self, state: State) -> Valued:
        if state.is_over():
            return Valued(tuple(state.returns()), True)
        return Valued(_both(state.to_move, self.solution.value(state)), True)

    def advice(self, state: State) -> Advice:
        """Roll and hold with their win probabilities, as :func:`~dicemath.games.pig.advice.advise`."""
        return advise(state, self.solution)

    def action_values(self, state: State) -> dict[Hashable, Valued]:
        # the solution's values are float64, never Fractions
        return {o.action: Valued(_both(state.to_move, cast(float, o.value)), True) for o in self.advice(state).options}


class PigAnalysis(GameAnalysis[State]):
    """Pig records (see the module docstring)."""

    game = "pig"
    rules_class = Rules
    unit = "P(win)"
    threshold = 0.01
    seats = PLAYER_NAMES
    required = ("state",)

    def advice(self, state: State, settings: Mapping) -> Advice:
        """The advice of Pig's chain, as ``advise`` gives it: :func:`~dicemath.games.pig.advice.advise`,
        the chain's one source (the solution of ``state.rules``)."""
        return advise(state)

    def initial_state(self, rules: Rules, start: str | None = None) -> State:
        """The start of a game (player 0 rolls), or the state whose text is ``start``.

        Raises:
            InvalidStateError: unreadable text, or a state of another goal.
        """
        return initial_state(rules) if start is None else self._state(start, rules)

    def value_source(self, rules: Rules, settings: Mapping) -> SolutionValues:
        return SolutionValues(rules)

    def value_label(self, rules: Rules, seats: tuple[str, ...]) -> str:
        return f"P({seats[0]} wins)"

    def decision_state(self, entry: Mapping, rules: Rules) -> State:
        """The state of an ``advise`` entry, in the record's variant.

        Raises:
            InvalidRecordError: a missing or unknown key, or a state that is not text.
            InvalidStateError: unreadable text, another goal, or a state without a decision.
        """
        check_keys(entry, self.required, self.optional)
        text = entry["state"]
        if not isinstance(text, str):
            raise InvalidRecordError(f'"state" is the text of a Pig state, got {text!r}')
        state = self._state(text, rules)
        if state.current_player() < 0:
            raise InvalidStateError(f"nobody decides in {state} ({state.phase})")
        return state

    @staticmethod
    def _state(text: str, rules: Rules) -> State:
        state = parse_state(text, rules.goal)
        if state.rules != rules:
            raise InvalidStateError(f"state {text!r} has goal {state.rules.goal}; the record's rules say {rules.goal}")
        return state

    def roller(self, state: State) -> int | None:
        """The die belongs to the player whose turn it is."""
        return state.to_move

    def context(self, state: State) -> dict[str, Any]:
        me = state.to_move
        return {"to_move": PLAYER_NAMES[me], "my_score": state.scores[me], "their_score": state.scores[1 - me],
                "turn_total": state.turn_total}

    groupings: ClassVar[dict[str, tuple[str, ...]]] = {"score": ("ahead", "level", "behind")}

    def groups(self, context: Mapping) -> dict[str, str]:
        """Whether the decider's banked score is ahead of, level with or behind the other's."""
        mine, theirs = context["my_score"], context["their_score"]
        return {"score": "ahead" if mine > theirs else "level" if mine == theirs else "behind"}


ANALYSIS = PigAnalysis()
"""The adapter the registry will list for ``"pig"`` (:data:`dicemath.analysis.GAMES`)."""

analyse = ANALYSIS.analyse
