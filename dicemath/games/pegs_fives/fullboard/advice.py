"""Row advice from exact values where they exist, estimates otherwise: the one chain of
sources of a Pegs or Fives row decision (:func:`source_chain`).

Sources, in order (each limit stated once, in its ``covers``):

1. ``"table"``: a finished optimal table that covers the board: the one given
   (``table=DIR``), else the full-board table or a table of exactly the board's open rows in
   the default location (:func:`.storage.default_table_dir`);
2. ``"solve"``: a board with at most :data:`SOLVE_MAX_ROWS` open rows: its reduced table
   solved now by the compiled kernel (kept for the rest of the process, and answering the
   boards of fewer open rows that a game reaches from it);
3. ``"estimate"``: the one-turn lookahead of :class:`..advisor.Advisor` on the compact model
   distilled from the full table and shipped in the package
   (:class:`..distilled.DistilledValue`), or on the fitted board value of :mod:`..advisor`
   for rules without a shipped model (:func:`estimate_advisor`). Its numbers are estimates
   (``exact`` False).

With an exact source every option's value is the expected number of turns still needed
after this turn under optimal play (:meth:`FivesKernel.option_values` and its Pegs twin)
and the board value is ``E(board)`` at the start of a turn; float64. ``dicemath pegs
advise``, the page, ``dicemath analyse`` and the report all answer from this chain
(:meth:`dicemath.core.game.Game.advise`).

Each source is a :class:`BoardSource`: one model of board values (an :class:`ExactAdvisor`
or the estimate's advisor) gives its advice, the value of any state it covers (a decision,
a throw, the end: the expected total number of turns, taken plus still needed,
:func:`state_value`) and the expectation before a throw (:func:`expected_value`), through
the exact within-turn model :class:`~..turn.TurnValue` on those board values.

Example:
    >>> from dicemath.games.pegs_fives.rules import PEGS
    >>> print(source_chain(PEGS).describe())  # doctest: +NORMALIZE_WHITESPACE
    table (exact, float64): a finished optimal table covering the board (given, or the full-board
        table or one of the board's open rows in the default location)
    solve (exact, float64): at most 8 open rows: the reduced board solved by the compiled kernel
    estimate (estimate): any board: the one-turn lookahead on the shipped distilled model (else the
        fitted board value)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from dicemath.core.advice import Advice, Option
from dicemath.core.errors import InvalidStateError
from dicemath.core.sources import Source, SourceChain, Valued
from dicemath.core.table_store import read_manifest
from dicemath.games.pegs_fives.advisor import Advisor, Ranking, RowAdvice, ranked
from dicemath.games.pegs_fives.fullboard import storage
from dicemath.games.pegs_fives.fullboard.driver import game_of, kernel_for, solve_table
from dicemath.games.pegs_fives.fullboard.layout import FULL_ROWS
from dicemath.games.pegs_fives.rules import Rules
from dicemath.games.pegs_fives.state import BoardTuple, State, check_board, check_roll, check_throws_left
from dicemath.games.pegs_fives.turn import TurnValue, open_rows_of

SOLVE_MAX_ROWS = 8
"""Boards with at most this many open rows are solved on demand (``6**8`` boards) when no
table covers them: the limit of the ``"solve"`` source of :func:`source_chain`."""


class ExactAdvisor:
    """Ranks the legal rows from a value table (the :class:`..advisor.Advisor` interface).

    Args:
        rules: the game.
        rows: the table's open rows.
        values: the table (float32 or float64, the layout of :class:`.layout.BoardLayout`).
        source: where the values come from (``"table"`` or ``"solve"``), for the output.
    """

    exact = True
    estimator = None

    def __init__(self, rules: Rules, rows: tuple[int, ...], values: np.ndarray, source: str):
        self.rules = rules
        self.kernel = kernel_for(rules, rows)
        self.values = values
        self.source = source
        self.evaluator = TurnValue(rules, self.value, exact=False)
        """The within-turn model on these values (float64), which values the states of a turn."""

    def value(self, board: Sequence[int]) -> float:
        """Expected turns from ``board`` at the start of a turn, optimal play (float64)."""
        return float(self.values[self.kernel.layout.index(board)])

    def rank(self, board: Sequence[int], throw: Sequence[int], *, dice: int | None = None,
             throws: int | None = None) -> list[RowAdvice]:
        """Every legal row, best first (fewest expected turns, then more hits, then the higher
        row), with its exact expected turns after this turn (the rows of :meth:`ranking`)."""
        return self.ranking(board, throw, dice=dice, throws=throws).rows

    def ranking(self, board: Sequence[int], throw: Sequence[int], *, dice: int | None = None,
                throws: int | None = None) -> Ranking:
        """The legal rows of :meth:`rank` and the board value they use, ``E(board)``.

        Raises:
            InvalidBoardError, InvalidRollError, IllegalMoveError: bad input.
        """
        rules = self.rules
        dice = rules.dice if dice is None else dice
        throws = rules.throws if throws is None else throws
        return self.checked_ranking(check_board(board, rules), check_roll(throw, dice), dice, throws)

    def checked_ranking(self, board: BoardTuple, roll: tuple[int, ...], dice: int, throws: int | None) -> Ranking:
        """:meth:`ranking` of inputs already checked (a state's on the table's rows): ``throws``
        left before the throw."""
        layout = self.kernel.layout
        index = sum(board[row - 1] * stride for row, stride in zip(layout.rows, layout.strides))
        here = float(self.values[index])
        options = self.kernel.option_values(self.values, index, roll, dice, throws)
        return Ranking(ranked(RowAdvice(row, hits, stay * here + rest, stay) for row, hits, stay, rest in options),
                       here)


def estimate_advisor(rules: Rules) -> Advisor:
    """The advisor used without an exact source: its values are estimates.

    The lookahead on the shipped distilled model of ``rules`` (loaded on first use), else
    on the fitted board value (:class:`.advisor.Advisor`'s default; its ``estimator`` names
    which, ``"distilled"`` or ``"fitted"``)."""
    return _estimate_advisor(rules)


@lru_cache(maxsize=8)
def _estimate_advisor(rules: Rules) -> Advisor:
    return Advisor(rules)


_OPEN_TABLES: dict[Path, storage.Table] = {}
"""Tables opened by this process, by directory (a memory map each)."""

_TABLE_ADVISORS: dict[tuple[Path, Rules], ExactAdvisor] = {}
"""The advisor of each table opened, which keeps its within-turn model's memo."""


def _open(directory: Path, rules: Rules) -> storage.Table:
    table = _OPEN_TABLES.get(directory)
    if table is None:
        table = _OPEN_TABLES[directory] = storage.open_table(directory, rules)
    elif table.rules != rules:
        storage.open_table(directory, rules)            # raises: the table is for other rules
    if table.policy != "optimal":
        raise storage.TableError(f"the table in {directory} holds the values of policy {table.policy!r}, "
                                 "not of optimal play")
    return table


def _default_table(rules: Rules, rows: tuple[int, ...]) -> storage.Table | None:
    directory = storage.default_table_dir(game_of(rules), rules, rows)
    manifest = read_manifest(directory)
    return _open(directory, rules) if manifest is not None and manifest.complete else None


def _table_for(rules: Rules, board: BoardTuple, table: Path | str | None) -> storage.Table | None:
    """The table that answers ``board``: ``table`` (which must cover it), else a finished
    default table of the full board or of its open rows, else None.

    Raises:
        TableError, InvalidRulesError: ``table`` is unusable for these rules.
        InvalidBoardError: ``table`` does not cover the board.
    """
    if table is not None:
        found = _open(Path(table).resolve(), rules)
        found.layout.index(board)
        return found
    open_rows = open_rows_of(board, rules.goal)
    if not open_rows:
        return None
    for rows in (FULL_ROWS[:rules.rows], open_rows):
        default = _default_table(rules, rows)
        if default is not None:
            return default
    return None


def _covered_by_table(state: State, *, table: Path | str | None = None, **settings: object) -> bool:
    return _table_for(state.rules, state.board, table) is not None


def _table_advisor(state: State, *, table: Path | str | None = None, **settings: object) -> ExactAdvisor:
    found = _table_for(state.rules, state.board, table)
    if found is None:                           # the chain asks only when _covered_by_table
        raise storage.TableError(f"no finished table answers {state}")
    key = (found.directory, state.rules)
    advisor = _TABLE_ADVISORS.get(key)
    if advisor is None:
        advisor = _TABLE_ADVISORS[key] = ExactAdvisor(state.rules, found.layout.rows, found.open_values(), "table")
    return advisor


SOLVED_KEPT = 8
"""Reduced tables a process keeps solved (the most recently solved)."""
_SOLVED: dict[tuple[Rules, tuple[int, ...]], ExactAdvisor] = {}


def _solve_advisor(state: State, **settings: object) -> ExactAdvisor:
    """The solved reduced table that answers ``state``: one of the board's open rows, else one
    solved already in this process whose rows include them (a game's later boards, whose open
    rows only shrink, are boards of the table of its earlier ones: one solve answers them all),
    else the table of its open rows, solved now."""
    rules, rows = state.rules, open_rows_of(state.board, state.rules.goal)
    found = _SOLVED.get((rules, rows))
    if found is None:
        found = next((advisor for (solved_rules, solved_rows), advisor in _SOLVED.items()
                      if solved_rules == rules and set(rows) <= set(solved_rows)), None)
    if found is None:
        if len(_SOLVED) >= SOLVED_KEPT:
            del _SOLVED[next(iter(_SOLVED))]
        found = _SOLVED[(rules, rows)] = ExactAdvisor(rules, rows, solve_table(rules, rows), "solve")
    return found


def _estimate(state: State, **settings: object) -> Advisor:
    return estimate_advisor(state.rules)


@dataclass(frozen=True, kw_only=True)
class BoardSource(Source):
    """A source of a Pegs or Fives chain: one model of board values gives its advice, the
    value of every state it covers and the expectation before a throw (:func:`board_source`).

    Attributes:
        advisor: ``advisor(state, **settings)``: the model of a state it covers, an
            :class:`ExactAdvisor` or the estimate's :class:`~..advisor.Advisor` (which also
            values every board the turn can reach).
    """

    advisor: Callable[..., ExactAdvisor | Advisor]


def board_source(name: str, exact: bool, limit: str, covers: Callable[..., bool],
                 advisor: Callable[..., ExactAdvisor | Advisor]) -> BoardSource:
    """The :class:`BoardSource` whose advice, values and expectations all come from
    ``advisor`` (:func:`decision_advice`, :func:`state_value`, :func:`expected_value`); a
    finished game is valued without asking it."""
    def advise(state: State, **settings: object) -> Advice:
        return decision_advice(advisor(state, **settings), state)

    def value(state: State, **settings: object) -> Valued:
        return Valued((float(state.turns),), True) if state.over else state_value(advisor(state, **settings), state)

    def expected(state: State, **settings: object) -> Valued:
        return expected_value(advisor(state, **settings), state)

    return BoardSource(name, exact, limit, covers, advise, value=value, expected=expected, advisor=advisor)


def table_source() -> BoardSource:
    """The ``"table"`` source: a finished optimal table covering the board."""
    return board_source("table", True, "a finished optimal table covering the board (given, or the full-board table "
                                       "or one of the board's open rows in the default location)",
                        _covered_by_table, _table_advisor)


def solve_source(max_rows: int) -> BoardSource:
    """The ``"solve"`` source: a board with at most ``max_rows`` open rows (a finished board
    too), its reduced table solved now by the compiled kernel (kept for the process)."""
    def covers(state: State, **settings: object) -> bool:
        return len(open_rows_of(state.board, state.rules.goal)) <= max_rows

    return board_source("solve", True, f"at most {max_rows} open rows: the reduced board solved by the compiled "
                                       "kernel", covers, _solve_advisor)


def estimate_source() -> BoardSource:
    """The ``"estimate"`` source: any board, the one-turn lookahead of :func:`estimate_advisor`."""
    return board_source("estimate", False, "any board: the one-turn lookahead on the shipped distilled model (else "
                                           "the fitted board value)", lambda state, **settings: True, _estimate)


@lru_cache(maxsize=8)
def source_chain(rules: Rules) -> SourceChain:
    """The chain of sources of ``rules`` (see the module docstring): :func:`table_source`,
    :func:`solve_source` of :data:`SOLVE_MAX_ROWS`, :func:`estimate_source`.

    Each source takes any :class:`~..state.State` and the setting ``table`` (a table
    directory): ``covers`` and ``value`` any state, ``expected`` a throw's, ``advise`` a
    state where a row is to be named (InvalidStateError otherwise).
    """
    return SourceChain(table_source(), solve_source(SOLVE_MAX_ROWS), estimate_source())


def board_advisor(chain: SourceChain, state: State, **settings: object) -> ExactAdvisor | Advisor:
    """The model of the first source of ``chain`` that covers ``state`` (a chain of
    :class:`BoardSource`): its values of every board the turn from ``state`` can reach.

    Raises:
        NoSourceError: no source covers ``state``.
        TypeError: the source is no :class:`BoardSource`.
    """
    source = chain.source_for(state, **settings)
    if not isinstance(source, BoardSource):
        raise TypeError(f"source {source.name!r} gives no board values")
    return source.advisor(state, **settings)


def decision_advice(advisor: Advisor | ExactAdvisor, state: State) -> Advice:
    """The :func:`row_advice` of ``advisor`` at the decision ``state`` (checked: a
    :class:`~..state.State`'s choice throw).

    Raises:
        InvalidStateError: no row is to be named in ``state``.
    """
    if state.current_player() != 0 or state.roll is None:
        raise InvalidStateError(f"no row is to be named in {state}: advice needs a choice throw")
    throws = None if state.throws is None else state.throws + 1
    return advisor_advice(advisor, str(state), state.board, state.roll, state.dice, throws)


def state_value(advisor: Advisor | ExactAdvisor, state: State) -> Valued:
    """The expected total number of turns of ``state`` (taken plus still needed) from
    ``advisor``'s values: ``turns`` at the end; at a decision, the best option of
    :func:`decision_advice` after this turn; at a throw, ``advisor``'s within-turn model
    (:class:`~..turn.TurnValue`; a turn's first throw: ``E(board)`` itself).

    Example:
        >>> from dicemath.games.pegs_fives.rules import PEGS
        >>> from dicemath.games.pegs_fives.state import initial_state
        >>> start = initial_state(PEGS.variant(rows=2))
        >>> chain = source_chain(start.rules)
        >>> value, before = chain.value(start), chain.expected(start)     # exact: equal to rounding
        >>> value.exact, abs(value.values[0] - before.values[0]) < 1e-12
        (True, True)
    """
    if state.over:
        return Valued((float(state.turns),), True)
    if state.roll is not None:
        advice = decision_advice(advisor, state)
        return Valued((state.turns + 1 + min(float(o.value) for o in advice.options),), advice.exact)
    model = advisor.evaluator
    if state.row is None:
        ahead = model.choice(state.board, state.dice, state.throws)
    else:
        stay, rest = model.cycle(state.board, state.row, state.count, state.dice, state.throws)
        ahead = stay * model.value(state.board) + rest
    return Valued((state.turns + 1 + float(ahead),), advisor.exact)


def expected_value(advisor: Advisor | ExactAdvisor, state: State) -> Valued:
    """The expectation before the throw of ``state``: the mean over the throw's outcomes,
    the within-turn model's own sum, which :func:`state_value` uses everywhere but at a
    turn's first throw, where it takes ``E(board)`` instead (equal when exact)."""
    if state.row is not None:
        return state_value(advisor, state)
    model = advisor.evaluator
    return Valued((state.turns + 1 + float(model.lookahead(state.board, state.dice, state.throws)),), advisor.exact)


UNIT = "expected turns after this turn"
"""What the values of Pegs and Fives advice measure: the turns still needed after this turn
ends (fewer is better)."""


def throw_states(rules: Rules, board: Sequence[int], throw: Sequence[int], *, dice: int | None = None,
                 throws: int | None = None) -> tuple[State, State]:
    """The states before and after a choice throw as a player names it, checked once: after
    it a row is to be named, or the turn has ended (no legal row, PEGS-4 / FIVES-2).

    Args:
        rules: the game.
        board: the board at the choice throw.
        throw: the choice throw.
        dice, throws: dice in hand and throws left before the throw (default: the start of
            a cycle, all dice and the full budget).

    Raises:
        InvalidBoardError, InvalidRollError, IllegalMoveError: bad input.
        InvalidStateError: a finished board (every row at the goal: the game is over and
            nobody throws).
    """
    b = check_board(board, rules)
    if not open_rows_of(b, rules.goal):
        raise InvalidStateError(f"the board {','.join(map(str, b))} is finished (every row at the goal): "
                                "the game is over, no throw to advise")
    start = State(rules, b, rules.dice if dice is None else dice, check_throws_left(rules, throws))
    return start, start.apply(tuple(throw))


def turn_ends_advice(chain: SourceChain, start: State, throw: Sequence[int], **settings: object) -> Advice:
    """The advice at a choice throw that allows no row (:func:`throw_states`: the turn ends):
    no options, the board valued by the first source of ``chain`` that covers ``start``."""
    advisor = board_advisor(chain, start, **settings)
    return advisor_advice(advisor, str(start), start.board, tuple(throw), start.dice, start.throws)


def advise_throw(rules: Rules, board: Sequence[int], throw: Sequence[int], *, table: Path | str | None = None,
                 dice: int | None = None, throws: int | None = None) -> Advice:
    """Every legal row after a choice throw as a player names it, best first (fewest expected
    turns still needed after this turn, then more hits, then the higher row): the chain of
    ``rules`` (:func:`source_chain`; what :meth:`dicemath.core.game.Game.advise` answers at
    the state after the throw).

    The values come from the first source that covers the board: exact from a table or a
    compiled solve, else the distilled model's estimates (``exact`` False). A throw that
    allows no row gets no options (the turn ends, PEGS-4 / FIVES-2); the advice's ``state``
    is then the state before the throw.

    Args:
        rules: the game.
        board: the board at the choice throw.
        throw: the choice throw.
        table: a table directory to answer from (it must cover the board).
        dice, throws: dice in hand and throws left before the throw (default: the start of
            a cycle, all dice and the full budget).

    Returns:
        The :class:`~dicemath.core.advice.Advice` (unit :data:`UNIT`): per option the row,
        its ``hits``, ``expected_turns``, ``expected_turns_including_this`` and
        ``p_no_progress``; extras ``board``, ``roll``, ``board_value``, ``ranking``,
        ``recommendation``, ``greedy_choice`` and, for estimates, ``estimator``.

    Raises:
        InvalidBoardError, InvalidRollError, IllegalMoveError, InvalidStateError: bad input
            (:func:`throw_states`).

    Example:
        >>> from dicemath.games.pegs_fives.rules import PEGS
        >>> advice = advise_throw(PEGS, [5] * 10 + [4, 4], (6, 6, 5, 5, 5, 6))
        >>> [o.action for o in advice.options], advice.exact, advice.source
        ([12, 11], True, 'solve')
    """
    start, state = throw_states(rules, board, throw, dice=dice, throws=throws)
    chain = source_chain(rules)
    if state.current_player() == 0:
        return chain.advise(state, table=table)
    return turn_ends_advice(chain, start, throw, table=table)


def advisor_advice(advisor: Advisor | ExactAdvisor, text: str, board: BoardTuple, roll: tuple[int, ...],
                   dice: int, throws: int | None) -> Advice:
    """The :func:`row_advice` of ``advisor``'s ranking of a checked choice throw (``throws``:
    throws left before it), its ``board_value`` the one the ranking uses."""
    ranking = advisor.checked_ranking(board, roll, dice, throws)
    return row_advice(advisor.rules, text, board, roll, ranking.rows, board_value=ranking.board_value,
                      exact=advisor.exact, source=advisor.source, estimator=advisor.estimator)


def row_advice(rules: Rules, text: str, board: BoardTuple, roll: Sequence[int], rows: Sequence[RowAdvice], *,
               board_value: float, exact: bool, source: str, estimator: str | None = None) -> Advice:
    """The :class:`~dicemath.core.advice.Advice` of ranked rows (best first, see
    :func:`advise_throw` for its keys); a finished board is exact, source ``"complete"``."""
    complete = not open_rows_of(board, rules.goal)
    extras = {"board": list(board), "roll": sorted(roll), "board_value": board_value,
              "ranking": [a.row for a in rows], "recommendation": rows[0].row if rows else None,
              "greedy_choice": max(rows, key=lambda a: (a.hits, a.row)).row if rows else None}
    if not (exact or complete):
        extras["estimator"] = estimator
    options = tuple(Option(a.row, str(a.row), a.expected_turns,
                           {"row": a.row, "hits": a.hits, "expected_turns": a.expected_turns,
                            "expected_turns_including_this": a.expected_turns + 1,
                            "p_no_progress": a.p_no_progress}) for a in rows)
    return Advice(game=rules.name, state=text, unit=UNIT, higher_is_better=False, exact=exact or complete,
                  source="complete" if complete else source, options=options, extras=extras)
