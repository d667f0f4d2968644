"""Analysis of played Pegs and Fives: every row choice's cost in expected turns.

A game is one player's solitaire race (the :class:`~dicemath.games.pegs_fives.state.State`
engine, PEGS-3..9, FIVES-2..5). The value of a state is the expected total number of
turns of the game: the turns already taken plus the expected turns still needed under
optimal play (fewer is better), built from a value ``E(board)`` of boards at the start of
a turn and the exact within-turn model :class:`~dicemath.games.pegs_fives.turn.TurnValue`
(the turn's later choices made optimally, overthrows and restarts included).

Each decision is valued by the game's chain of sources, as ``dicemath pegs advise`` values
it (:meth:`PegsFivesAnalysis.advice`, :func:`~dicemath.games.pegs_fives.fullboard.advice.source_chain`):
the same values, ``exact`` flag and ``source``. The values of the other states (the plotted
course of a game) take ``E`` from the same chain (:func:`exact_board_values`):

1. exact: a finished optimal table that covers the board (the full-board table or one of
   the board's open rows, in the default location), else the compiled reduced-board solve
   once at most :data:`~dicemath.games.pegs_fives.fullboard.advice.SOLVE_MAX_ROWS` rows are
   open (the solve covers every later board of the game, whose open rows can only be fewer);
2. otherwise the estimate ``advise`` answers from
   (:func:`~dicemath.games.pegs_fives.fullboard.advice.estimate_advisor`: the distilled model
   shipped for the game, else the fitted board value).

Records (``docs/analyse.md``): a decision entry holds ``dicemath pegs advise``'s inputs
``board`` (12 numbers), ``roll`` (the choice throw) and, in Pegs, optionally ``throws``
(throws left before the roll; a roll of fewer dice is a PEGS-7 choice throw with the dice
left), plus ``choice`` (a row number); a whole game lists every throw (``"6-5-3-3-3-2"``
or a list of dice) and every row named (``11``) from the empty board, in order.

Example:
    >>> entry = {"board": [5] * 11 + [3], "roll": [6, 6, 6, 6, 1, 2], "choice": 12}
    >>> result = analyse({"game": "pegs", "decisions": [entry]})
    >>> result.decisions[0].loss, result.decisions[0].exact
    (0.0, True)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping

from dicemath.analysis.engine import GameAnalysis
from dicemath.analysis.result import Analysis
from dicemath.analysis.records import InvalidRecordError, Record, build_rules, check_keys, read_record, whole_number
from dicemath.analysis.values import Valued, ValueSource
from dicemath.core.advice import Advice
from dicemath.core.dice import throw_text
from dicemath.core.errors import IllegalMoveError, InvalidStateError
from dicemath.core.game import GameState, state_of
from dicemath.games.pegs_fives.advisor import RowAdvice, ranked
from dicemath.games.pegs_fives.rules import FIVES, PEGS, Rules
from dicemath.games.pegs_fives.fullboard.advice import (
    SOLVE_MAX_ROWS, advise, advisor_advice, advisor_for, estimate_advisor, row_advice)
from dicemath.games.pegs_fives.state import (
    BoardTuple, State, check_board, choice_state, initial_state, legal_rows, read_board)
from dicemath.games.pegs_fives.turn import TurnValue, open_rows_of

def exact_board_values(rules: Rules, open_rows: tuple[int, ...]) -> tuple[Callable[[BoardTuple], float], str] | None:
    """Exact ``E(board)`` for every board whose open rows lie within ``open_rows``, and its
    source (``"table"`` or ``"solve"``), or None.

    Args:
        rules: the game.
        open_rows: the rows open on the board to value.

    Returns:
        A function of boards (float64 expected turns at the start of a turn, optimal play)
        and where its values come from, or None when no exact source covers these rows.
    """
    board = tuple(0 if r in open_rows else rules.goal for r in range(1, rules.rows + 1))
    advisor = advisor_for(rules, board)
    return (advisor.value, advisor.source) if advisor.exact else None


def _own(state: GameState) -> State:
    return state_of(state, State, "Pegs/Fives")


class TurnValues(ValueSource):
    """Expected total turns of Pegs/Fives states (see the module docstring).

    Args:
        rules: the game (a preset or variant).
    """

    def __init__(self, rules: Rules):
        self.rules = rules
        self.models: dict[tuple[int, ...], tuple[TurnValue, str]] = {}
        estimator = estimate_advisor(rules).estimator
        self.description = ("exact optimal values from a full-board table where one is built, else "
                            f"from a compiled solve once at most {SOLVE_MAX_ROWS} rows are open; "
                            f"before that the {estimator} model's values, as `advise` gives them (an estimate)")

    def turn_value(self, board: BoardTuple) -> tuple[TurnValue, bool]:
        """The within-turn model over the best board values for ``board``, and whether exact."""
        model, source = self.turn_model(board)
        return model, source != "estimate"

    def turn_model(self, board: BoardTuple) -> tuple[TurnValue, str]:
        """The within-turn model over the best board values for ``board``, and their source
        (``"table"``, ``"solve"`` or ``"estimate"``)."""
        rows = open_rows_of(board, self.rules.goal)
        found = self.models.get(rows)
        if found is None:
            found = next(((model, source) for covered, (model, source) in self.models.items()
                          if source != "estimate" and set(rows) <= set(covered)), None)
            if found is None:
                exact = exact_board_values(self.rules, rows)
                found = (self.estimate, "estimate") if exact is None else \
                    (TurnValue(self.rules, exact[0], exact=False), exact[1])
            self.models[rows] = found
        return found

    @property
    def estimate(self) -> TurnValue:
        """The within-turn model of the advisor ``advise`` uses without an exact source (one
        model for both)."""
        return estimate_advisor(self.rules).evaluator

    def value(self, state: GameState) -> Valued:
        state = _own(state)
        if state.over:
            return Valued((float(state.turns),), True)
        model, exact = self.turn_value(state.board)
        if state.roll is not None:
            return Valued((min(v.values[0] for v in self.action_values(state).values()),), exact)
        if state.row is None:
            ahead = model.choice(state.board, state.dice, state.throws)
        else:
            stay, rest = model.cycle(state.board, state.row, state.count, state.dice, state.throws)
            ahead = stay * model.value(state.board) + rest
        return Valued((state.turns + 1 + float(ahead),), exact)

    def expected(self, state: GameState) -> Valued:
        """The mean over the throw's outcomes: the within-turn model's own sum, which
        :meth:`value` uses everywhere but at a choice throw with all dice and a fresh
        budget (a turn's start), where it takes ``E(board)`` instead (equal when exact)."""
        state = _own(state)
        if state.row is not None:
            return self.value(state)
        model, exact = self.turn_value(state.board)
        return Valued((state.turns + 1 + float(model.lookahead(state.board, state.dice, state.throws)),), exact)

    def advice(self, state: GameState) -> Advice:
        """Every legal row after the choice throw of ``state``, best first, with its turns still
        needed after this turn, from the same values as :meth:`value`
        (:func:`~dicemath.games.pegs_fives.fullboard.advice.row_advice`); with an estimate,
        the advice of ``advise`` itself (its ranking on a trap of the estimate included,
        :meth:`~dicemath.games.pegs_fives.advisor.Advisor.start_value`)."""
        state = _own(state)
        if state.roll is None:
            raise InvalidStateError(f"no row is to be named in {state}: advice needs a choice throw")
        model, source = self.turn_model(state.board)
        if source == "estimate":
            throws = None if state.throws is None else state.throws + 1
            return advisor_advice(estimate_advisor(self.rules), str(state), state.board, state.roll, state.dice,
                                  throws)
        here = float(model.value(state.board))
        rows = []
        for row, hits in legal_rows(state.board, state.roll, self.rules.goal):
            stay, rest = model.option(state.board, row, hits, state.dice, state.throws)
            rows.append(RowAdvice(row, hits, float(stay * here + rest), float(stay)))
        return row_advice(self.rules, str(state), state.board, state.roll, ranked(rows), board_value=here,
                          exact=True, source=source)

    def action_values(self, state: GameState) -> dict[Hashable, Valued]:
        state = _own(state)
        advice = self.advice(state)
        return {option.action: Valued((state.turns + 1 + option.value,), advice.exact) for option in advice.options}


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

    def advice(self, state: GameState, settings: Mapping) -> Advice:
        """The advice of ``dicemath pegs advise`` (``fives advise``) at the decision ``state``:
        the game's chain of sources (:func:`dicemath.games.pegs_fives.fullboard.advice.advise`);
        a record has no settings to map (``table`` is a command-line option only).

        Raises:
            InvalidStateError: no row is to be named in ``state``.
        """
        return advise(_own(state))

    def value_source(self, rules: Rules, settings: Mapping) -> TurnValues:
        return TurnValues(rules)

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
        board = check_board(_whole_numbers(entry["board"], "board"), rules)
        throws = whole_number(entry, "throws") if "throws" in entry else None
        return choice_state(rules, board, _whole_numbers(entry["roll"], "roll"), throws)

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


def analyse(record: Record | Mapping | str) -> Analysis:
    """Analyse a Pegs or a Fives record (the record's ``game`` says which).

    Raises:
        InvalidRecordError: a record of another game or of the wrong form.
        DicemathError: the first bad entry, named.
    """
    checked = record if isinstance(record, Record) else read_record(record)
    adapters = {PEGS_ANALYSIS.game: PEGS_ANALYSIS, FIVES_ANALYSIS.game: FIVES_ANALYSIS}
    if checked.game not in adapters:
        raise InvalidRecordError(f"this is a record of {checked.game!r}, not of pegs or fives")
    return adapters[checked.game].analyse(checked)
