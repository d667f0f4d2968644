"""Analysis of played Backgammon: every checker play's cost in cubeless money equity.

The value of a state is each player's cubeless money equity (BG-7 points per unit stake,
gammons counted) under best play: at a roll to come the equity of the player on roll
(:func:`position_equity`); after the roll the best of the plays' values (the legal plays
of :func:`~dicemath.games.backgammon.moves.legal_moves`, BG-3..BG-6); the points of
:func:`~dicemath.games.backgammon.position.game_result` at the end. The luck of a roll is
its value against the mean over the 21 rolls (GNU Backgammon's definition).

:func:`position_equity` is the one place that values a position: today exactly, from the
two-sided bear-off table (:func:`~dicemath.games.backgammon.bearoff.two_sided_table`),
once both sides bear off with at most :data:`EXACT_CHECKERS` checkers (no gammon is then
possible, so the equity is ``2 P(win) - 1``); the position evaluator of issue 12 (races,
contact, GNU Backgammon's nets) plugs in there. Until then a position beyond the table is
refused with an error naming it.

Records (``docs/analyse.md``): a decision entry holds ``dicemath backgammon moves``'s
inputs ``position_id`` (a GNU Backgammon Position ID or XGID, the player on roll to move)
and ``dice`` (two numbers), plus ``choice``, the play in the usual notation
(``"6/off 5/off"``, ``"8/5(2)"``, ``"(no move)"``). A whole game lists the rolls
(``"6-5"``; the opening roll as ``"X-O"``, X's die first: ``"3-1"`` lets X open with 31)
and the plays from the start, or from a ``start`` Position ID (X on roll, to roll). The
record's ``rules`` are ``{"name": "standard"}`` or ``{"name": "playtive"}`` (BG-4).

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
from functools import lru_cache

import numpy as np

from dicemath.analysis.engine import GameAnalysis
from dicemath.analysis.records import InvalidRecordError, build_rules, check_keys
from dicemath.analysis.values import Valued, ValueSource
from dicemath.core.errors import IllegalMoveError, InvalidDiceError, InvalidStateError
from dicemath.games.backgammon.bearoff import position_index, two_sided_table
from dicemath.games.backgammon.moves import BackgammonState, apply_notation, check_dice, format_steps, legal_moves
from dicemath.games.backgammon.position import CHECKERS, Position, game_result
from dicemath.games.backgammon.rules import BackgammonRules, rules_named

EXACT_CHECKERS = 8
"""Bear-offs with at most this many checkers a side are valued exactly (the two-sided
table of 3,003 x 3,003 boards, built once and cached)."""


@lru_cache(maxsize=4)
def _two_sided(rules: BackgammonRules) -> np.ndarray:
    return two_sided_table(EXACT_CHECKERS, rules)


def position_equity(position: Position, rules: BackgammonRules) -> tuple[float, bool]:
    """Cubeless money equity of the player on roll (to roll) and whether it is exact.

    Raises:
        InvalidStateError: a position no source of the library values yet (contact, a race,
            a bear-off of more than :data:`EXACT_CHECKERS` checkers a side).
    """
    result = game_result(position)
    if result is not None:
        return float(result.points if result.winner == position.player else -result.points), True
    if position.is_bear_off() and max(sum(position.on_roll), sum(position.opponent)) <= EXACT_CHECKERS:
        win = _two_sided(rules)[position_index(position.home_board()), position_index(position.opponent[:6])]
        return 2 * float(win) - 1, True
    raise InvalidStateError(f"position {position.position_id()} is beyond the exact bear-off tables (at most "
                            f"{EXACT_CHECKERS} checkers a side, all home); races and contact positions need "
                            "the position evaluator")


def _seats(player: int, equity: float) -> tuple[float, float]:
    """The equity of ``player`` as ``(X's, O's)``."""
    return (equity, -equity) if player == 0 else (-equity, equity)


class EquityValues(ValueSource):
    """Cubeless money equities of both players (see the module docstring)."""

    def __init__(self, rules: BackgammonRules):
        self.rules = rules
        self.description = (f"exact two-sided bear-off table (at most {EXACT_CHECKERS} checkers a side), "
                            "cubeless money equity")

    def value(self, state: BackgammonState) -> Valued:
        position = state.position
        if position.is_over():
            return Valued(tuple(state.returns()), True)
        if state.opening:
            return self.expected(state)
        if state.dice is None:
            equity, exact = position_equity(position, self.rules)
            return Valued(_seats(position.player, equity), exact)
        mover = position.player
        return max(self.action_values(state).values(), key=lambda v: v.values[mover])

    def action_values(self, state: BackgammonState) -> dict:
        result = {}
        for move in sorted(legal_moves(state.position, state.dice, self.rules)):
            after = move.after.swap()                            # the opponent on roll
            equity, exact = position_equity(after, self.rules)
            result[move.steps] = Valued(_seats(after.player, equity), exact)
        return result


class BackgammonAnalysis(GameAnalysis):
    """Backgammon records (see the module docstring)."""

    game = "backgammon"
    rules_class = BackgammonRules
    unit = "equity"
    threshold = 0.04
    seats = ("X", "O")
    required = ("position_id", "dice")

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
        return EquityValues(rules)

    def value_label(self, rules: BackgammonRules, seats: tuple[str, ...]) -> str:
        return f"cubeless equity of {seats[0]}"

    def decision_state(self, entry: Mapping, rules: BackgammonRules) -> BackgammonState:
        """The position on roll with its dice, as ``dicemath backgammon moves`` reads them.

        Raises:
            InvalidRecordError, InvalidStateError, InvalidDiceError: bad inputs.
        """
        check_keys(entry, self.required, self.optional)
        text = entry["position_id"]
        if not isinstance(text, str):
            raise InvalidRecordError(f'"position_id" is a Position ID or XGID, got {text!r}')
        position = Position.from_str(text)
        if position.is_over():
            raise InvalidStateError(f"position {text} is a finished game: there is nothing to play")
        return BackgammonState(position, _roll(entry["dice"]), rules)

    def parse(self, state: BackgammonState, token):
        """A roll (``"6-5"``, the opening ``"X-O"``) or a play (``"24/18 13/11"``).

        Raises:
            InvalidDiceError: a roll that is not two dice 1..6 (two different ones to open).
            IllegalMoveError: a play that is not legal with these dice.
        """
        if not isinstance(token, str):
            raise InvalidRecordError(f"a roll or a play is written as text, got {token!r}")
        if state.dice is None:
            dice = check_dice(token.replace("-", " ").replace(",", " ").split() if len(token) > 2 else token)
            if state.opening:
                if dice[0] == dice[1]:
                    raise InvalidDiceError(f"the opening roll needs two different dice (BG-2), got {token!r}")
                return dice
            return tuple(sorted(dice, reverse=True))
        word = token.strip()
        plays = {move.after: move.steps for move in legal_moves(state.position, state.dice, state.rules)}
        if word.lower() in ("(no move)", "no move", "-"):
            target = state.position
        else:
            target = apply_notation(state.position, word)
        if target not in plays:
            shown = ", ".join(format_steps(steps) for steps in list(plays.values())[:8])
            raise IllegalMoveError(f"{word} is not a legal play of {state.dice[0]}-{state.dice[1]} in "
                                   f"{state.position.position_id()}; legal: {shown}"
                                   + (", ..." if len(plays) > 8 else ""))
        return plays[target]

    def text(self, state: BackgammonState, action) -> str:
        if state.dice is None:
            return f"{action[0]}-{action[1]}"
        return format_steps(action)

    def context(self, state: BackgammonState) -> dict:
        position = state.position
        phase = "bear-off" if position.is_bear_off() else "contact" if position.is_contact() else "race"
        return {"phase": phase, "pips": [position.pip_count(), position.opponent_pip_count()],
                "borne_off": [CHECKERS - sum(position.on_roll), CHECKERS - sum(position.opponent)]}

    def roller(self, state: BackgammonState) -> int | None:
        return None if state.opening else state.position.player

    groupings = {"stage": ("9-15 checkers left", "6-8 checkers left", "3-5 checkers left", "1-2 checkers left")}

    def groups(self, context: Mapping) -> dict[str, str]:
        """The stage by the checkers the mover still has to bear off."""
        left = CHECKERS - context["borne_off"][0]
        low = next(low for low in (9, 6, 3, 1) if left >= low)
        return {"stage": next(label for label in self.groupings["stage"] if label.startswith(f"{low}-"))}


def _roll(value) -> tuple[int, int]:
    """Two dice from a list (or ``"6-5"``), high first."""
    if isinstance(value, str):
        value = value.replace("-", " ").split()
    return tuple(sorted(check_dice(value), reverse=True))


ANALYSIS = BackgammonAnalysis()
"""The adapter registered in :data:`dicemath.analysis.GAMES`."""

analyse = ANALYSIS.analyse
