"""Analysis of played Pig: how its records read (every roll-or-hold decision's cost in P(win the game)).

The values are the game's own (:mod:`~dicemath.games.pig.game`): a decision's are its
advice, a state's the win probabilities of its chain's one source, both from the optimal
solution (:func:`~dicemath.games.pig.solver.solve`).

Records (``docs/analyse.md``): a decision entry gives ``state`` (the text form of
:class:`~dicemath.games.pig.state.State`, e.g. ``"0:35-62 t12 choose"``, or ``"start"``)
and ``choice`` (``"roll"`` or ``"hold"``); a whole game lists the moves from the start,
player 0 first (PIG-7): ``"roll"``, the face it showed (``"1"``..``"6"``), ``"hold"``, ...
The record's ``rules`` are :class:`~dicemath.games.pig.rules.Rules` fields (``goal``).

Example:
    >>> from dicemath.games.pig import analyse
    >>> result = analyse({"game": "pig", "rules": {"goal": 20},
    ...                   "moves": ["roll", "6", "hold", "roll", "1", "roll", "5", "roll", "4"]})
    >>> [(d.choice, d.best, round(d.loss, 3)) for d in result.decisions]
    [('hold', 'roll', 0.237), ('roll', 'roll', 0.0)]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from dicemath.analysis.engine import GameAnalysis
from dicemath.analysis.records import InvalidRecordError, check_keys
from dicemath.core.errors import InvalidStateError
from dicemath.games.pig.rules import Rules
from dicemath.games.pig.state import PLAYER_NAMES, State, initial_state, parse_state


class PigAnalysis(GameAnalysis[State]):
    """Pig records (see the module docstring)."""

    game = "pig"
    rules_class = Rules
    unit = "P(win)"
    threshold = 0.01
    seats = PLAYER_NAMES
    required = ("state",)

    def initial_state(self, rules: Rules, start: str | None = None) -> State:
        """The start of a game (player 0 rolls), or the state whose text is ``start``.

        Raises:
            InvalidStateError: unreadable text, or a state of another goal.
        """
        return initial_state(rules) if start is None else self._state(start, rules)

    def value_label(self, rules: Rules, seats: tuple[str, ...]) -> str:
        return f"P({seats[0]} wins)"

    def decision_state(self, entry: Mapping, rules: Rules) -> State:
        """The state of an ``advise`` entry, in the record's variant.

        Raises:
            InvalidRecordError: a missing or unknown key, or a state that is not text.
            InvalidStateError: unreadable text, or another goal.
        """
        check_keys(entry, self.required, self.optional)
        text = entry["state"]
        if not isinstance(text, str):
            raise InvalidRecordError(f'"state" is the text of a Pig state, got {text!r}')
        return self._state(text, rules)

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
"""Pig's records (:meth:`PIG_GAME.analysis() <dicemath.core.game.Game.analysis>`)."""
