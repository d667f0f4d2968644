"""Records of played Pegs and Fives: how a record's entries become states and rows.

A game is one player's solitaire race (the :class:`~dicemath.games.pegs_fives.state.State`
engine, PEGS-3..9, FIVES-2..5). The analysis (:mod:`dicemath.analysis.engine`) values every
decision by the game's advice and every state by the game's chain of sources
(:func:`~dicemath.games.pegs_fives.fullboard.advice.source_chain`, as ``dicemath pegs
advise`` answers): the expected total number of turns of the game, the turns already taken
plus the expected turns still needed (fewer is better), exact from a table or a solve where
one covers the board, else the estimate's.

Records (``docs/analyse.md``): a decision entry holds ``dicemath pegs advise``'s inputs
``board`` (12 numbers), ``roll`` (the choice throw) and, in Pegs, optionally ``throws``
(throws left before the roll; a roll of fewer dice is a PEGS-7 choice throw with the dice
left), plus ``choice`` (a row number); a whole game lists every throw (``"6-5-3-3-3-2"``
or a list of dice) and every row named (``11``) from the empty board, in order.

Example:
    >>> state = PEGS_ANALYSIS.decision_state({"board": [5] * 11 + [3], "roll": [6, 6, 6, 6, 1, 2]}, PEGS)
    >>> state.legal_actions(), PEGS_ANALYSIS.parse(state, 12)
    ((12,), 12)
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping

from dicemath.analysis.engine import GameAnalysis
from dicemath.analysis.records import InvalidRecordError, build_rules, check_keys, whole_number
from dicemath.core.dice import throw_text
from dicemath.core.errors import IllegalMoveError
from dicemath.core.game import GameState, state_of
from dicemath.games.pegs_fives.rules import FIVES, PEGS, Rules
from dicemath.games.pegs_fives.state import State, choice_state, initial_state, read_board
from dicemath.games.pegs_fives.turn import open_rows_of


def _own(state: GameState) -> State:
    return state_of(state, State, "Pegs/Fives")


class PegsFivesAnalysis(GameAnalysis):
    """Pegs or Fives records (see the module docstring); one instance per preset."""

    unit = "turns"
    sense = -1
    threshold = 0.1
    seats = ("player",)
    required = ("board", "roll")

    def __init__(self, preset: Rules):
        self.preset = preset
        self.game = preset.name
        self.optional = ("throws",) if preset.throws is not None else ()

    def rules(self, fields: Mapping) -> Rules:
        """The preset with the record's fields changed (its ``name`` stays)."""
        return build_rules(Rules, fields, base=self.preset, fixed=("name",))

    def initial_state(self, rules: Rules, start: str | None = None) -> State:
        """The empty board, or the board ``start`` (``"0,0,3,..."``), at the start of a turn.

        Raises:
            InvalidBoardError: a board the rules cannot hold.
        """
        return initial_state(rules, None if start is None else read_board(rules, start))

    def value_label(self, rules: Rules, seats: tuple[str, ...]) -> str:
        return "expected total turns (taken + still needed)"

    def decision_state(self, entry: Mapping, rules: Rules) -> State:
        """The state after a choice throw, as ``advise`` reads its inputs
        (:func:`~dicemath.games.pegs_fives.state.choice_state`).

        Raises:
            InvalidRecordError, InvalidBoardError, InvalidRollError, IllegalMoveError: bad
                inputs, or a roll with no legal row (the turn ends, PEGS-4 / FIVES-2).
        """
        check_keys(entry, self.required, self.optional)
        throws = whole_number(entry, "throws") if "throws" in entry else None
        return choice_state(rules, _whole_numbers(entry["board"], "board"), _whole_numbers(entry["roll"], "roll"),
                            throws)

    def parse(self, state: GameState, token: object) -> Hashable:
        """A throw (``"6-5-3-3-3-2"``, ``"653332"`` or a list of dice) at a chance state, a row
        number (``11`` or ``"11"``) at a decision: the state's ``parse_action`` of its text.

        Raises:
            InvalidDiceError: a throw of the wrong number of dice or a face outside 1..6.
            IllegalMoveError: not a legal row.
        """
        if isinstance(token, list):
            token = throw_text(_whole_numbers(token, "a throw"))
        elif isinstance(token, int) and not isinstance(token, bool):
            token = str(token)
        if not isinstance(token, str):
            raise IllegalMoveError(f"a record names a throw or a row, got {token!r}")
        return _own(state).parse_action(token)

    def context(self, state: GameState) -> dict[str, int]:
        state = _own(state)
        return {"turn": state.turns + 1, "open_rows": len(open_rows_of(state.board, state.rules.goal)),
                "dice": state.dice}

    def roller(self, state: GameState) -> int:
        return 0

    groupings = {"stage": ("12-9 rows open", "8-5 rows open", "4-1 rows open")}

    def groups(self, context: Mapping) -> dict[str, str]:
        """The board stage by the number of rows still open."""
        rows = context["open_rows"]
        return {"stage": "12-9 rows open" if rows >= 9 else "8-5 rows open" if rows >= 5 else "4-1 rows open"}


def _whole_numbers(value: Iterable[int | str], name: str) -> list[int]:
    try:
        return [int(v) if isinstance(v, str) else v for v in value]
    except (TypeError, ValueError):
        raise InvalidRecordError(f"{name} is a list of whole numbers, got {value!r}") from None


PEGS_ANALYSIS = PegsFivesAnalysis(PEGS)
"""The Pegs adapter its game object lists (:meth:`dicemath.core.game.Game.analysis`)."""

FIVES_ANALYSIS = PegsFivesAnalysis(FIVES)
"""The Fives adapter its game object lists (:meth:`dicemath.core.game.Game.analysis`)."""

