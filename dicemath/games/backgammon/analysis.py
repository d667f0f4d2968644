"""Analysis of played Backgammon: how its records read (every play's and every cube action's cost in equity).

The values are the game's own (:mod:`~dicemath.games.backgammon.game`, its chain of sources
:func:`~dicemath.games.backgammon.advice.sources`): a decision is valued by its advice,
exactly as ``advise`` values it (the same values, ``exact`` flag and ``source``), a state
by the same sources:

* a checker play (BG-3..BG-7) by the cubeless money equity (BG-7 points per unit stake,
  gammons and backgammons counted) of :mod:`~dicemath.games.backgammon.evaluate` after it:
  exact from the two-sided bear-off table when both sides bear off with at most
  :data:`~dicemath.games.backgammon.limits.EXACT_CHECKERS` checkers, elsewhere the one-sided
  race model or GNU Backgammon's nets at ``ply`` (estimates; the optional ``gnubg``
  package), ranked as ``dicemath backgammon hint`` ranks them (GNU Backgammon's move filter
  above 0 ply);
* a cube action (decision lists only, BG-8) by
  :func:`~dicemath.games.backgammon.cube_advice.cube_advice`, in equity per unit of the cube
  before the double: ``"roll"`` (no double) against ``"double"`` (worth the opponent's better
  answer for him), ``"take"`` against ``"pass"`` for the opponent; exact from the cubeful
  tables within :data:`~dicemath.games.backgammon.limits.EXACT_CUBE_CHECKERS` checkers a side
  (standard rules), else an estimate.

A whole game is a cubeless :class:`~dicemath.games.backgammon.state.State`
(``initial_state(rules, cube=False)``): a roll to come is worth the evaluator's equity of
the player on roll, and a roll's luck is its value against the mean over the 21 rolls (GNU
Backgammon's definition).

Records (``docs/analyse.md``): a play entry holds ``dicemath backgammon hint``'s inputs
``position_id`` (a GNU Backgammon Position ID or XGID, the player on roll to move) and
``dice`` (two numbers), plus ``choice``, the play in the usual notation (``"6/off 5/off"``,
``"8/5(2)"``, ``"(no move)"``); a cube entry holds ``dicemath backgammon cube``'s inputs
``position_id`` (before the roll), optional ``cube_value`` and ``cube_owner``
(``"centred"``, ``"on_roll"``, ``"opponent"``), and ``choice`` ``"double"`` or ``"roll"``
(the player on roll) or ``"take"`` or ``"pass"`` (his opponent, after a double). A whole game
lists the rolls (``"6-5"``; the opening roll as ``"X-O"``, X's die first: ``"3-1"`` lets X
open with 31) and the plays from the start, or from a ``start`` Position ID (X on roll, to
roll). The record's ``rules`` are ``{"name": "standard"}`` or ``{"name": "playtive"}``
(BG-4); its ``settings`` may give ``ply`` (0..3, default 0 as ``hint``).

Example:
    X has checkers on his 1- and 6-points, O on his 2- and 4-points; X rolls 6-1 and
    plays safe instead of bearing both off:

    >>> from dicemath.games.backgammon import analyse
    >>> entry = {"position_id": "EgAACAIAAAAAAA", "dice": [6, 1], "choice": "6/5 5/off"}
    >>> cost = analyse({"game": "backgammon", "decisions": [entry]}).decisions[0]
    >>> cost.best, round(cost.loss, 4), cost.exact
    ('6/off 1/off', 1.2778, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dicemath.analysis.engine import GameAnalysis
from dicemath.analysis.records import InvalidRecordError, build_rules, check_keys
from dicemath.games.backgammon.cube import check_cube
from dicemath.games.backgammon.moves import check_roll
from dicemath.games.backgammon.position import CHECKERS, Position
from dicemath.games.backgammon.rules import Rules, rules_named
from dicemath.games.backgammon.state import (DOUBLED, MAY_DOUBLE, OPENING, PASS, PLAY, ROLL, TAKE, State,
                                             absolute_owner, initial_state)


class BackgammonAnalysis(GameAnalysis[State]):
    """Backgammon records (see the module docstring)."""

    game = "backgammon"
    rules_class = Rules
    unit = "equity"
    threshold = 0.04
    seats = ("X", "O")
    required = ("position_id",)
    optional = ("dice", "cube_value", "cube_owner")
    settings = {"ply": 0}

    def rules(self, fields: Mapping) -> Rules:
        """A preset by ``name`` alone, else the fields of :class:`~dicemath.games.backgammon.rules.Rules`."""
        if set(fields) <= {"name"}:
            return rules_named(fields.get("name", "standard"))
        return build_rules(Rules, fields)

    def initial_state(self, rules: Rules, start: str | None = None) -> State:
        """The opening roll of a new cubeless game, or the position ``start`` with X to roll.

        Raises:
            InvalidStateError: an unreadable Position ID or XGID, or a finished game.
        """
        if start is None:
            return initial_state(rules, cube=False)
        return State(Position.from_str(start), rules, ROLL, cube_value=None)

    def value_label(self, rules: Rules, seats: tuple[str, ...]) -> str:
        return f"cubeless equity of {seats[0]}"

    def decision_state(self, entry: Mapping, rules: Rules) -> State:
        """A play (with ``dice``) or a cube decision (without), as ``hint`` and ``cube`` read them.

        Raises:
            InvalidRecordError, InvalidStateError, InvalidDiceError: bad inputs, a finished
                game, a double the cube does not allow (BG-8).
        """
        check_keys(entry, self.required, self.optional)
        text = entry["position_id"]
        if not isinstance(text, str):
            raise InvalidRecordError(f'"position_id" is a Position ID or XGID, got {text!r}')
        position = Position.from_str(text)
        if "dice" in entry:
            if {"cube_value", "cube_owner"} & set(entry):
                raise InvalidRecordError('a play has "dice"; a cube decision has "cube_value" and "cube_owner"')
            return State(position, rules, PLAY, check_roll(entry["dice"]), None)
        owner = entry.get("cube_owner", "centred")
        value, owner = check_cube(entry.get("cube_value", 1 if owner == "centred" else 2), owner)
        phase = DOUBLED if str(entry.get("choice", "")).strip().lower() in (TAKE, PASS) else MAY_DOUBLE
        return State(position, rules, phase, None, value, absolute_owner(owner, position.player))

    def context(self, state: State) -> dict[str, Any]:
        position = state.position
        phase = "bear-off" if position.is_bear_off() else "contact" if position.is_contact() else "race"
        context: dict[str, Any] = {"phase": phase, "pips": [position.pip_count(), position.opponent_pip_count()],
                   "borne_off": [CHECKERS - sum(position.on_roll), CHECKERS - sum(position.opponent)]}
        if state.phase in (MAY_DOUBLE, DOUBLED):
            context.update(cube_value=state.cube_value, cube_owner=state.relative_owner)
        return context

    def roller(self, state: State) -> int | None:
        return None if state.phase == OPENING else state.position.player

    groupings = {"phase": ("contact", "race", "bear-off"),
                 "stage": ("9-15 checkers left", "6-8 checkers left", "3-5 checkers left", "1-2 checkers left")}

    def groups(self, context: Mapping) -> dict[str, str]:
        """The phase of the game, and the checkers the mover still has to bear off."""
        left = CHECKERS - context["borne_off"][0]
        low = next(low for low in (9, 6, 3, 1) if left >= low)
        return {"phase": context["phase"],
                "stage": next(label for label in self.groupings["stage"] if label.startswith(f"{low}-"))}


ANALYSIS = BackgammonAnalysis()
"""Backgammon's records (:meth:`BACKGAMMON_GAME.analysis() <dicemath.core.game.Game.analysis>`)."""
