"""Analysis of played Backgammon: every play's and every cube action's cost in equity.

Checker plays (BG-3..BG-7) are valued by the cubeless money equity (BG-7 points per unit
stake, gammons and backgammons counted) of :mod:`~dicemath.games.backgammon.evaluate`:
exact from the two-sided bear-off table once both sides bear off with at most 8 checkers,
elsewhere the one-sided race model or GNU Backgammon's nets at ``ply`` (estimates; the
optional ``gnubg`` package). A play's value is the mover's equity after it, ranked as
``dicemath backgammon hint`` ranks them (:func:`~dicemath.games.backgammon.hint.rank_results`,
GNU Backgammon's move filter above 0 ply); a roll to come is worth the evaluator's equity
of the player on roll, and a roll's luck is its value against the mean over the 21 rolls
(GNU Backgammon's definition). A whole game is cubeless.

Cube actions (decision lists only, BG-8) are valued by
:func:`~dicemath.games.backgammon.cube_advice.cube_advice`, in equity per unit of the cube
before the double: *no double* against *double* (worth the better of take and pass for the
opponent), *take* against *pass* for the opponent.

Records (``docs/analyse.md``): a play entry holds ``dicemath backgammon hint``'s inputs
``position_id`` (a GNU Backgammon Position ID or XGID, the player on roll to move) and
``dice`` (two numbers), plus ``choice``, the play in the usual notation (``"6/off 5/off"``,
``"8/5(2)"``, ``"(no move)"``); a cube entry holds ``dicemath backgammon cube``'s inputs
``position_id`` (before the roll), optional ``cube_value`` and ``cube_owner``
(``"centred"``, ``"on_roll"``, ``"opponent"``), and ``choice`` ``"double"`` or ``"no double"``
(the player on roll) or ``"take"`` or ``"pass"`` (his opponent, after a double). A whole game
lists the rolls (``"6-5"``; the opening roll as ``"X-O"``, X's die first: ``"3-1"`` lets X
open with 31) and the plays from the start, or from a ``start`` Position ID (X on roll, to
roll). The record's ``rules`` are ``{"name": "standard"}`` or ``{"name": "playtive"}``
(BG-4); its ``settings`` may give ``ply`` (0..3, default 0 as ``hint``).

Example:
    X has checkers on his 1- and 6-points, O on his 2- and 4-points; X rolls 6-1 and
    plays safe instead of bearing both off:

    >>> entry = {"position_id": "EgAACAIAAAAAAA", "dice": [6, 1], "choice": "6/5 5/off"}
    >>> cost = analyse({"game": "backgammon", "decisions": [entry]}).decisions[0]
    >>> cost.best, round(cost.loss, 4), cost.exact
    ('6/off 1/off', 1.2778, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from dicemath.analysis.engine import GameAnalysis
from dicemath.analysis.records import InvalidRecordError, build_rules, check_keys
from dicemath.analysis.values import Valued, ValueSource
from dicemath.core.errors import IllegalMoveError, InvalidDiceError, InvalidStateError
from dicemath.core.game import TERMINAL
from dicemath.games.backgammon.cube_advice import check_cube, cube_advice, may_double
from dicemath.games.backgammon.evaluate import check_ply, evaluate
from dicemath.games.backgammon.hint import rank_results
from dicemath.games.backgammon.moves import BackgammonState, apply_notation, check_dice, format_steps, legal_moves
from dicemath.games.backgammon.position import CHECKERS, Position
from dicemath.games.backgammon.rules import BackgammonRules, rules_named

DOUBLER_ACTIONS = ("double", "no double")
TAKER_ACTIONS = ("pass", "take")


@dataclass(frozen=True)
class CubeDecision:
    """A money cube decision (BG-8) as a state of the game vocabulary, for decision lists.

    Attributes:
        position: the position, the player on roll before rolling.
        cube_value, cube_owner: the cube before the decision (owner seen by the player on roll).
        responding: False: the player on roll doubles or not; True: his opponent takes or
            passes a double.
    """

    position: Position
    cube_value: int = 1
    cube_owner: str = "centred"
    responding: bool = False

    def current_player(self) -> int:
        return self.position.player ^ self.responding

    def legal_actions(self) -> tuple[str, ...]:
        return TAKER_ACTIONS if self.responding else DOUBLER_ACTIONS

    def parse_action(self, text: str) -> str:
        word = text.strip().lower()
        if word not in self.legal_actions():
            raise IllegalMoveError(f"a cube decision here is one of {self.legal_actions()}, got {text!r}")
        return word

    def action_text(self, action: str) -> str:
        return action


def _seats(player: int, equity: float) -> tuple[float, float]:
    """The equity of ``player`` as ``(X's, O's)``."""
    return (equity, -equity) if player == 0 else (-equity, equity)


class EquityValues(ValueSource):
    """Equities of both players (see the module docstring).

    Args:
        rules: STANDARD or PLAYTIVE.
        ply: look-ahead of GNU Backgammon's evaluations, 0..3.
    """

    def __init__(self, rules: BackgammonRules, ply: int):
        self.rules = rules
        self.ply = check_ply(ply)
        self.description = (f"cubeless money equity: exact bear-off tables, else the race model or GNU "
                            f"Backgammon's nets at {self.ply} ply (estimates); cube actions by cube advice")
        self.memo: dict[Position, Valued] = {}

    def position_value(self, position: Position) -> Valued:
        """The value of ``position`` with its player on roll to roll."""
        found = self.memo.get(position)
        if found is None:
            evaluation = evaluate(position, self.rules, self.ply)
            found = self.memo[position] = Valued(_seats(position.player, evaluation.equity),
                                                 evaluation.source == "exact")
        return found

    def value(self, state: BackgammonState) -> Valued:
        if state.current_player() == TERMINAL:
            return Valued(tuple(state.returns()), True)
        if state.opening:
            return self.expected(state)
        if state.dice is None:
            return self.position_value(state.position)
        mover = state.position.player
        return max(self.action_values(state).values(), key=lambda v: v.values[mover])

    def action_values(self, state) -> dict:
        if isinstance(state, CubeDecision):
            return self.cube_values(state)
        moves = sorted(legal_moves(state.position, state.dice, self.rules))
        movers = np.array([m.after.on_roll for m in moves])
        opponents = np.array([m.after.opponent for m in moves])
        _, equities, _, kinds = rank_results(movers, opponents, self.rules, self.ply)
        mover = state.position.player
        return {m.steps: Valued(_seats(mover, float(e)), bool(k == 0)) for m, e, k in zip(moves, equities, kinds)}

    def cube_values(self, decision: CubeDecision) -> dict[str, Valued]:
        """The value of each cube action, per unit of the cube before the double."""
        advice = cube_advice(decision.position, decision.cube_value, decision.cube_owner, self.rules, self.ply)
        exact = advice["source"] == "exact"
        doubler = decision.position.player
        take, keep = advice["double_take"], advice["no_double"]
        if decision.responding:
            options = {"take": take, "pass": advice["double_pass"]}
        else:
            options = {"double": min(take, advice["double_pass"]), "no double": keep}
        return {action: Valued(_seats(doubler, value), exact) for action, value in sorted(options.items())}


class BackgammonAnalysis(GameAnalysis):
    """Backgammon records (see the module docstring)."""

    game = "backgammon"
    rules_class = BackgammonRules
    unit = "equity"
    threshold = 0.04
    seats = ("X", "O")
    required = ("position_id",)
    optional = ("dice", "cube_value", "cube_owner")
    settings = {"ply": 0}

    def rules(self, fields: Mapping) -> BackgammonRules:
        """A preset by ``name`` alone, else the fields of :class:`BackgammonRules`."""
        if set(fields) <= {"name"}:
            return rules_named(fields.get("name", "standard"))
        return build_rules(BackgammonRules, fields)

    def initial_state(self, rules: BackgammonRules, start: str | None = None) -> BackgammonState:
        """The opening roll of a new game, or the position ``start`` with X to roll.

        Raises:
            InvalidStateError: an unreadable Position ID or XGID.
        """
        if start is None:
            return BackgammonState.new_game(rules)
        return BackgammonState(Position.from_str(start), None, rules)

    def value_source(self, rules: BackgammonRules, settings: Mapping) -> EquityValues:
        return EquityValues(rules, settings["ply"])

    def value_label(self, rules: BackgammonRules, seats: tuple[str, ...]) -> str:
        return f"cubeless equity of {seats[0]}"

    def decision_state(self, entry: Mapping, rules: BackgammonRules):
        """A play (with ``dice``) or a cube decision (without), as ``hint`` and ``cube`` read them.

        Raises:
            InvalidRecordError, InvalidStateError, InvalidDiceError: bad inputs, a double
                the cube does not allow (BG-8).
        """
        check_keys(entry, self.required, self.optional)
        text = entry["position_id"]
        if not isinstance(text, str):
            raise InvalidRecordError(f'"position_id" is a Position ID or XGID, got {text!r}')
        position = Position.from_str(text)
        if position.is_over():
            raise InvalidStateError(f"position {text} is a finished game: there is nothing to decide")
        if "dice" in entry:
            if {"cube_value", "cube_owner"} & set(entry):
                raise InvalidRecordError('a play has "dice"; a cube decision has "cube_value" and "cube_owner"')
            return BackgammonState(position, _roll(entry["dice"]), rules)
        owner = entry.get("cube_owner", "centred")
        value, owner = check_cube(entry.get("cube_value", 1 if owner == "centred" else 2), owner)
        if not may_double((value, owner)):
            raise InvalidStateError(f"the player on roll may not double a cube of {value} owned by "
                                    f"{owner} (BG-8): there is no cube decision")
        return CubeDecision(position, value, owner, str(entry.get("choice", "")).strip().lower() in TAKER_ACTIONS)

    def parse(self, state, token):
        """A roll (``"6-5"``, the opening ``"X-O"``), a play (``"24/18 13/11"``) or a cube action.

        Raises:
            InvalidDiceError: a roll that is not two dice 1..6 (two different ones to open).
            IllegalMoveError: a play that is not legal with these dice.
        """
        if not isinstance(token, str):
            raise InvalidRecordError(f"a roll or a play is written as text, got {token!r}")
        if isinstance(state, CubeDecision):
            return state.parse_action(token)
        if state.dice is None:
            dice = check_dice(token.replace("-", " ").replace(",", " ").split() if len(token) > 2 else token)
            if state.opening:
                if dice[0] == dice[1]:
                    raise InvalidDiceError(f"the opening roll needs two different dice (BG-2), got {token!r}")
                return dice
            return tuple(sorted(dice, reverse=True))
        word = token.strip()
        plays = {move.after: move.steps for move in legal_moves(state.position, state.dice, state.rules)}
        target = state.position if word.lower() in ("(no move)", "no move", "-") \
            else apply_notation(state.position, word)
        if target not in plays:
            shown = ", ".join(format_steps(steps) for steps in list(plays.values())[:8])
            raise IllegalMoveError(f"{word} is not a legal play of {state.dice[0]}-{state.dice[1]} in "
                                   f"{state.position.position_id()}; legal: {shown}"
                                   + (", ..." if len(plays) > 8 else ""))
        return plays[target]

    def text(self, state, action) -> str:
        if isinstance(state, CubeDecision):
            return action
        if state.dice is None:
            return f"{action[0]}-{action[1]}"
        return format_steps(action)

    def context(self, state) -> dict:
        position = state.position
        phase = "bear-off" if position.is_bear_off() else "contact" if position.is_contact() else "race"
        context = {"phase": phase, "pips": [position.pip_count(), position.opponent_pip_count()],
                   "borne_off": [CHECKERS - sum(position.on_roll), CHECKERS - sum(position.opponent)]}
        if isinstance(state, CubeDecision):
            context.update(cube_value=state.cube_value, cube_owner=state.cube_owner)
        return context

    def roller(self, state: BackgammonState) -> int | None:
        return None if state.opening else state.position.player

    groupings = {"phase": ("contact", "race", "bear-off"),
                 "stage": ("9-15 checkers left", "6-8 checkers left", "3-5 checkers left", "1-2 checkers left")}

    def groups(self, context: Mapping) -> dict[str, str]:
        """The phase of the game, and the checkers the mover still has to bear off."""
        left = CHECKERS - context["borne_off"][0]
        low = next(low for low in (9, 6, 3, 1) if left >= low)
        return {"phase": context["phase"],
                "stage": next(label for label in self.groupings["stage"] if label.startswith(f"{low}-"))}


def _roll(value) -> tuple[int, int]:
    """Two dice from a list (or ``"6-5"``), high first."""
    if isinstance(value, str):
        value = value.replace("-", " ").split()
    return tuple(sorted(check_dice(value), reverse=True))


ANALYSIS = BackgammonAnalysis()
"""The adapter registered in :data:`dicemath.analysis.GAMES`."""

analyse = ANALYSIS.analyse
