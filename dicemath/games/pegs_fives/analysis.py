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

A table of two to six players (:mod:`.table_state`) is analysed from its decisions: a record
whose entries hold a table state's text (``state``) or the inputs of ``advise`` with the other
players' boards (``opponent``, a list of boards, and in Fives a session's ``totals``,
``rounds_left``, ``starter``) is read by a :class:`TableAnalysis` of that many seats, each
decision valued by the game's advice at the table (playing to win against the others' boards:
Pegs the mover's probability of finishing first, Fives the round's rest-point objective or, in
a session, his probability of winning it); the loss of a decision is in that unit.

Example:
    >>> state = PEGS_ANALYSIS.decision_state({"board": [5] * 11 + [3], "roll": [6, 6, 6, 6, 1, 2]}, PEGS)
    >>> state.legal_actions(), PEGS_ANALYSIS.parse(state, 12)
    ((12,), 12)
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping

from dicemath.analysis.engine import GameAnalysis
from dicemath.analysis.records import InvalidRecordError, Record, build_rules, check_keys, whole_number
from dicemath.core.dice import throw_text
from dicemath.core.errors import DicemathError, IllegalMoveError, InvalidStateError
from dicemath.core.game import GameState, state_of
from dicemath.games.pegs_fives.race_advice import EXACT_ON_DEMAND_ROWS
from dicemath.games.pegs_fives.rules import FIVES, PEGS, Rules
from dicemath.games.pegs_fives.state import State, choice_state, initial_state, read_board
from dicemath.games.pegs_fives.table_state import TableState, is_table_text, table_decision
from dicemath.games.pegs_fives.turn import open_rows_of


STAGES = ("12-9 rows open", "8-5 rows open", "4-1 rows open")
"""The stages of a board by its rows still open, the labels a decision is grouped by."""


def stage_of(context: Mapping) -> dict[str, str]:
    """The stage (:data:`STAGES`) of a decision's board from its context's ``open_rows``."""
    rows = context["open_rows"]
    return {"stage": STAGES[0] if rows >= 9 else STAGES[1] if rows >= 5 else STAGES[2]}


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

    def for_record(self, record: Record) -> GameAnalysis:
        """This adapter for one player's game; a :class:`TableAnalysis` of that many seats for the
        decisions of a table (entries with a table state or ``opponent``).

        Raises:
            InvalidRecordError: a whole game from a table state (a table is analysed from its
                decisions), entries at tables of different sizes or of one player and of several,
                or an unreadable table state.
        """
        if record.decisions is None:
            if record.start is not None and is_table_text(record.start):
                raise InvalidRecordError("a game at a table is analysed from its decisions: give each decision's "
                                         "table state (\"state\") and the row named (\"choice\")")
            return self
        tables = [_table_of(index, entry) for index, entry in enumerate(record.decisions)]
        sizes = sorted({players for players, _ in tables})
        if sizes == [1]:
            return self
        if len(sizes) > 1:
            raise InvalidRecordError(f"every decision of a record is taken at one table: entries at tables of "
                                     f"{', '.join(map(str, sizes))} players")
        return TableAnalysis(self.preset, sizes[0], session=any(session for _, session in tables))

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
        return _own(state).parse_action(_token_text(token))

    def context(self, state: GameState) -> dict[str, int]:
        state = _own(state)
        return {"turn": state.turns + 1, "open_rows": len(open_rows_of(state.board, state.rules.goal)),
                "dice": state.dice}

    def roller(self, state: GameState) -> int:
        return 0

    groupings = {"stage": STAGES}

    def groups(self, context: Mapping) -> dict[str, str]:
        """The board stage by the number of rows still open."""
        return stage_of(context)


def _token_text(token: object) -> str:
    """A record's token as text: a list of dice as a throw, a row number as its digits."""
    if isinstance(token, list):
        token = throw_text(_whole_numbers(token, "a throw"))
    elif isinstance(token, int) and not isinstance(token, bool):
        token = str(token)
    if not isinstance(token, str):
        raise IllegalMoveError(f"a record names a throw or a row, got {token!r}")
    return token


TABLE_INPUTS = ("board", "roll", "opponent")
"""The keys of a decision at a table given by ``advise``'s inputs (with ``throws`` in Pegs)."""

SESSION_INPUTS = ("totals", "rounds_left", "starter")
"""The keys of a Fives decision in a session (FIVES-7), each optional."""


def _table_of(index: int, entry: Mapping) -> tuple[int, bool]:
    """The number of players at the table of decision ``entry`` (1: one player's game) and whether
    it is a Fives session (rounds left after this one, or totals not all equal).

    Raises:
        InvalidRecordError: an unreadable table state or list of opponents, named by entry.
    """
    try:
        if isinstance(entry.get("state"), str) and is_table_text(entry["state"]):
            state = TableState.from_str(entry["state"])
            return state.players, state.rounds_left > 1 or len(set(state.totals)) > 1
        if "opponent" not in entry:
            return 1, False
        opponents, totals = entry["opponent"], entry.get("totals") or [0]
        if not isinstance(opponents, list) or not opponents or not isinstance(totals, list):
            raise InvalidRecordError(f'"opponent" is a list of boards and "totals" a list of numbers, got '
                                     f'{opponents!r} and {totals!r}')
        rounds = entry.get("rounds_left", 1)
        return len(opponents) + 1, (isinstance(rounds, int) and rounds > 1) or len(set(map(str, totals))) > 1
    except DicemathError as error:
        raise InvalidRecordError(f"decisions entry {index}: {error}") from None


class TableAnalysis(GameAnalysis[TableState]):
    """Decisions at a table of Pegs or Fives players (see the module docstring): each entry a
    table state's text (``state``) or ``advise``'s inputs with ``opponent`` (and a session's);
    values and losses in the unit of the game's advice at the table (higher is better).

    Args:
        preset: the game.
        players: the players at the table (2..6).
        session: whether the record's decisions are in a Fives session (FIVES-7): the session's
            win probability is the unit; else Pegs' win probability or Fives' rest points.
    """

    sense = 1
    groupings = {"stage": STAGES}
    settings = {"table": None, "exact_max_rows": EXACT_ON_DEMAND_ROWS}
    """The settings of race and session advice: a table directory of solo values, and the most
    open rows of an exact race solved on demand (0: never)."""

    def __init__(self, preset: Rules, players: int, *, session: bool = False):
        self.preset = preset
        self.game = preset.name
        self.seats = tuple(f"seat {seat}" for seat in range(players))
        rest_points = preset.scoring == "rest_points" and not session
        self.unit = ("session win probability" if session else "expected rest-point difference" if rest_points
                     else "win probability")
        self.threshold = 1.0 if rest_points else 0.02
        self.optional = ("state", *TABLE_INPUTS, *(("throws",) if preset.throws is not None else ()),
                         *(SESSION_INPUTS if preset.scoring == "rest_points" else ()))

    def rules(self, fields: Mapping) -> Rules:
        """The preset with the record's fields changed (its ``name`` stays)."""
        return build_rules(Rules, fields, base=self.preset, fixed=("name",))

    def initial_state(self, rules: Rules, start: str | None = None) -> TableState:
        """Never asked: a table is analysed from its decisions (:meth:`PegsFivesAnalysis.for_record`).

        Raises:
            InvalidRecordError: always.
        """
        raise InvalidRecordError("a game at a table is analysed from its decisions")

    def value_label(self, rules: Rules, seats: tuple[str, ...]) -> str:
        return f"{self.unit} of the player to move"

    def decision_state(self, entry: Mapping, rules: Rules) -> TableState:
        """The table state of a decision: its text (``state``), or the mover in seat 0 after his
        choice throw on ``board`` against the ``opponent`` boards in the order they move after him
        (:func:`~dicemath.games.pegs_fives.table_state.table_decision`, with ``throws`` and a
        session's ``totals``, ``rounds_left``, ``starter``).

        Raises:
            InvalidRecordError: keys of neither form, or a state of other rules than the record's.
            InvalidStateError, InvalidBoardError, InvalidRollError, IllegalMoveError: a state no
                table reaches, or nothing to decide (no choice throw, no legal row).
        """
        if "state" in entry:
            check_keys(entry, ("state",))
            state = TableState.from_str(entry["state"])
            if state.rules != rules:
                raise InvalidRecordError(f"the state is of the rules {state.rules}, the record's are {rules}")
            if state.current_player() < 0:
                raise InvalidStateError(f"no row is to be named in {state}: a decision needs a choice throw")
            return state
        check_keys(entry, TABLE_INPUTS, [key for key in self.optional if key not in TABLE_INPUTS + ("state",)])
        opponents = entry["opponent"]
        return table_decision(rules, _whole_numbers(entry["board"], "board"), _whole_numbers(entry["roll"], "roll"),
                              [_whole_numbers(board, "an opponent's board") for board in opponents],
                              throws=whole_number(entry, "throws") if "throws" in entry else None,
                              totals=None if "totals" not in entry else _whole_numbers(entry["totals"], "totals"),
                              rounds_left=whole_number(entry, "rounds_left", 1),
                              starter=whole_number(entry, "starter", 0))

    def parse(self, state: GameState, token: object) -> Hashable:
        """A row number (``11`` or ``"11"``) at a decision (:meth:`TableState.parse_action`).

        Raises:
            IllegalMoveError: not a row number.
        """
        return state_of(state, TableState, "Pegs/Fives table").parse_action(_token_text(token))

    def context(self, state: GameState) -> dict[str, int]:
        table = state_of(state, TableState, "Pegs/Fives table")
        return {"players": table.players, "seat": table.mover, "rounds_left": table.rounds_left,
                "open_rows": len(open_rows_of(table.boards[table.mover], table.rules.goal))}

    def groups(self, context: Mapping) -> dict[str, str]:
        """The mover's board stage by the number of rows still open."""
        return stage_of(context)


def _whole_numbers(value: Iterable[int | str], name: str) -> list[int]:
    try:
        return [int(v) if isinstance(v, str) else v for v in value]
    except (TypeError, ValueError):
        raise InvalidRecordError(f"{name} is a list of whole numbers, got {value!r}") from None


PEGS_ANALYSIS = PegsFivesAnalysis(PEGS)
"""The Pegs adapter its game object lists (:meth:`dicemath.core.game.Game.analysis`)."""

FIVES_ANALYSIS = PegsFivesAnalysis(FIVES)
"""The Fives adapter its game object lists (:meth:`dicemath.core.game.Game.analysis`)."""

