"""Row advice from exact values where they exist, estimates otherwise: the one chain of
sources of a Pegs or Fives row decision (:func:`source_chain`).

Sources, in order (each limit stated once, in its ``covers``):

1. ``"table"``: a finished optimal table that covers the board: the one given
   (``table=DIR``), else the full-board table or a table of exactly the board's open rows in
   the default location (:func:`.storage.default_table_dir`);
2. ``"solve"``: a board with at most :data:`SOLVE_MAX_ROWS` open rows: its reduced table
   solved now by the compiled kernel (kept for the rest of the process);
3. ``"estimate"``: the one-turn lookahead of :class:`..advisor.Advisor` on the compact model
   distilled from the full table and shipped in the package
   (:class:`..distilled.DistilledValue`), or on the fitted board value of :mod:`..advisor`
   for rules without a shipped model (:func:`estimate_advisor`). Its numbers are estimates
   (``exact`` False).

With an exact source every option's value is the expected number of turns still needed
after this turn under optimal play (:meth:`FivesKernel.option_values` and its Pegs twin)
and the board value is ``E(board)`` at the start of a turn; float64. ``dicemath pegs
advise``, the page, ``dicemath analyse`` and the report all answer from this chain.

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

from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

import numpy as np

from dicemath.core.advice import Advice, Option
from dicemath.core.errors import InvalidStateError
from dicemath.core.sources import Source, SourceChain
from dicemath.core.table_store import read_manifest
from dicemath.games.pegs_fives.advisor import Advisor, Ranking, RowAdvice, ranked
from dicemath.games.pegs_fives.fullboard import storage
from dicemath.games.pegs_fives.fullboard.driver import game_of, kernel_for, solve_table
from dicemath.games.pegs_fives.fullboard.layout import FULL_ROWS
from dicemath.games.pegs_fives.rules import Rules
from dicemath.games.pegs_fives.state import (
    BoardTuple, State, check_board, check_roll, check_throws_left, initial_state)
from dicemath.games.pegs_fives.turn import open_rows_of

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
        index = self.kernel.layout.index(check_board(board, rules))
        here = float(self.values[index])
        options = self.kernel.option_values(self.values, index, check_roll(throw, dice), dice, throws)
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


@lru_cache(maxsize=8)
def _solved(rules: Rules, rows: tuple[int, ...]) -> np.ndarray:
    return solve_table(rules, rows)


def _table_for(rules: Rules, board: BoardTuple, table: Path | str | None) -> tuple[tuple[int, ...], np.ndarray] | None:
    """The open rows and values of the table that answers ``board``: ``table`` (which must
    cover it), else a finished default table of the full board or of its open rows, else None.

    Raises:
        TableError, InvalidRulesError: ``table`` is unusable for these rules.
        InvalidBoardError: ``table`` does not cover the board.
    """
    if table is not None:
        found = _open(Path(table).resolve(), rules)
        found.layout.index(board)
        return found.layout.rows, found.open_values()
    open_rows = open_rows_of(board, rules.goal)
    if not open_rows:
        return None
    for rows in (FULL_ROWS[:rules.rows], open_rows):
        default = _default_table(rules, rows)
        if default is not None:
            return rows, default.open_values()
    return None


def _covered_by_table(state: State, *, table: Path | str | None = None, **settings: object) -> bool:
    return _table_for(state.rules, state.board, table) is not None


def _covered_by_solve(state: State, **settings: object) -> bool:
    return 0 < len(open_rows_of(state.board, state.rules.goal)) <= SOLVE_MAX_ROWS


def _table_advisor(state: State, table: Path | str | None = None) -> ExactAdvisor:
    found = _table_for(state.rules, state.board, table)
    if found is None:                           # the chain asks only when _covered_by_table
        raise storage.TableError(f"no finished table answers {state}")
    rows, values = found
    return ExactAdvisor(state.rules, rows, values, "table")


def _solve_advisor(state: State) -> ExactAdvisor:
    rows = open_rows_of(state.board, state.rules.goal)
    return ExactAdvisor(state.rules, rows, _solved(state.rules, rows), "solve")


def _decision_advice(advisor: Advisor | ExactAdvisor, state: State) -> Advice:
    if state.current_player() != 0 or state.roll is None:
        raise InvalidStateError(f"no row is to be named in {state}: advice needs a choice throw")
    throws = None if state.throws is None else state.throws + 1
    return advisor_advice(advisor, str(state), state.board, state.roll, state.dice, throws)


@lru_cache(maxsize=8)
def source_chain(rules: Rules) -> SourceChain:
    """The chain of sources of a row decision of ``rules`` (see the module docstring).

    Each source's ``covers(state, table=None)`` and ``advise(state, table=None)`` take a
    :class:`~..state.State`; ``advise`` needs a state where a row is to be named and raises
    InvalidStateError otherwise.
    """
    return SourceChain(
        Source("table", True, "a finished optimal table covering the board (given, or the full-board table or "
                              "one of the board's open rows in the default location)",
               _covered_by_table, lambda state, table=None, **_: _decision_advice(_table_advisor(state, table), state)),
        Source("solve", True, f"at most {SOLVE_MAX_ROWS} open rows: the reduced board solved by the compiled kernel",
               _covered_by_solve, lambda state, **_: _decision_advice(_solve_advisor(state), state)),
        Source("estimate", False, "any board: the one-turn lookahead on the shipped distilled model (else the "
                                  "fitted board value)",
               lambda state, **_: True, lambda state, **_: _decision_advice(estimate_advisor(state.rules), state)))


def advisor_for(rules: Rules, board: Sequence[int], table: Path | str | None = None, *,
                solve_max_rows: int = SOLVE_MAX_ROWS) -> ExactAdvisor | Advisor:
    """The advisor of the first source of :func:`source_chain` that covers ``board`` (at the
    start of a turn), which also values the boards after it.

    Args:
        rules: the game.
        board: the board (validated).
        table: a table directory to use (it must cover the board).
        solve_max_rows: the ``"solve"`` source answers only boards with at most this many
            open rows (a caller's tighter time limit; at most :data:`SOLVE_MAX_ROWS`); a board
            it leaves out gets the estimate.

    Returns:
        An :class:`ExactAdvisor` (source ``"table"`` or ``"solve"``), or
        :func:`estimate_advisor` (``exact`` False).

    Raises:
        TableError, InvalidRulesError: ``table`` is unusable for these rules.
        InvalidBoardError: a bad board, or one ``table`` does not cover.
    """
    state = initial_state(rules, check_board(board, rules))
    source = source_chain(rules).source_for(state, table=table)
    if source.name == "table":
        return _table_advisor(state, table)
    if source.name == "solve" and len(open_rows_of(state.board, rules.goal)) <= solve_max_rows:
        return _solve_advisor(state)
    return estimate_advisor(rules)


UNIT = "expected turns after this turn"
"""What the values of Pegs and Fives advice measure: the turns still needed after this turn
ends (fewer is better)."""


def advise(state: State, *, table: Path | str | None = None) -> Advice:
    """Every legal row after the choice throw of ``state``, best first (fewest expected
    turns still needed after this turn, then more hits, then the higher row).

    The values come from the first source of :func:`source_chain` that covers the board:
    exact from a table or a compiled solve, else the distilled model's estimates (``exact``
    False).

    Args:
        state: a state where a row is to be named (``state.current_player() == 0``).
        table: a table directory to answer from (it must cover the board).

    Returns:
        The :class:`~dicemath.core.advice.Advice` (unit :data:`UNIT`): per option the row,
        its ``hits``, ``expected_turns``, ``expected_turns_including_this`` and
        ``p_no_progress``; extras ``board``, ``roll``, ``board_value``, ``ranking``,
        ``recommendation``, ``greedy_choice`` and, for estimates, ``estimator``.

    Raises:
        InvalidStateError: nobody decides in ``state`` (a throw is next, or the game is over).

    Example:
        >>> from dicemath.games.pegs_fives.rules import PEGS
        >>> from dicemath.games.pegs_fives.state import initial_state
        >>> state = initial_state(PEGS, [5] * 10 + [4, 4]).apply((6, 6, 5, 5, 5, 6))
        >>> advice = advise(state)
        >>> [o.action for o in advice.options], advice.exact, advice.source
        ([12, 11], True, 'solve')
    """
    if state.current_player() != 0:
        raise InvalidStateError(f"no row is to be named in {state}: advice needs a choice throw")
    return source_chain(state.rules).advise(state, table=table)


def advise_throw(rules: Rules, board: Sequence[int], throw: Sequence[int], *, table: Path | str | None = None,
                 dice: int | None = None, throws: int | None = None) -> Advice:
    """The advice of :func:`advise` for a board and a choice throw as a player names them.

    Also answers a throw that allows no row (no options: the turn ends, PEGS-4 / FIVES-2);
    the advice's ``state`` is then the state before the throw.

    Args:
        rules: the game.
        board: the board at the choice throw.
        throw: the choice throw.
        table: a table directory to answer from (it must cover the board).
        dice, throws: dice in hand and throws left before the throw (default: the start of
            a cycle, all dice and the full budget).

    Raises:
        InvalidBoardError, InvalidRollError, IllegalMoveError: bad input.
        InvalidStateError: a finished board (every row at the goal: the game is over and
            nobody throws, as :func:`advise` says of a finished state).

    Example:
        >>> from dicemath.games.pegs_fives.rules import PEGS
        >>> advise_throw(PEGS, [5] * 10 + [4, 4], (6, 6, 5, 5, 5, 6)).best.action
        12
    """
    b = check_board(board, rules)
    if not open_rows_of(b, rules.goal):
        raise InvalidStateError(f"the board {','.join(map(str, b))} is finished (every row at the goal): "
                                "the game is over, no throw to advise")
    dice = rules.dice if dice is None else dice
    faces = check_roll(throw, dice)
    throws = check_throws_left(rules, throws)
    start = replace(initial_state(rules, b), dice=dice, throws=throws)
    state = start.apply(faces)
    if state.current_player() == 0:
        return source_chain(rules).advise(state, table=table)
    return advisor_advice(advisor_for(rules, b, table), str(start), b, faces, dice, throws)


def advisor_advice(advisor: Advisor | ExactAdvisor, text: str, board: BoardTuple, roll: Sequence[int],
                   dice: int, throws: int | None) -> Advice:
    """The :func:`row_advice` of ``advisor``'s ranking of a choice throw (``throws``: throws
    left before it), its ``board_value`` the one the ranking uses."""
    ranking = advisor.ranking(board, roll, dice=dice, throws=throws)
    return row_advice(advisor.rules, text, board, roll, ranking.rows, board_value=ranking.board_value,
                      exact=advisor.exact, source=advisor.source, estimator=advisor.estimator)


def row_advice(rules: Rules, text: str, board: BoardTuple, roll: Sequence[int], rows: Sequence[RowAdvice], *,
               board_value: float, exact: bool, source: str, estimator: str | None = None) -> Advice:
    """The :class:`~dicemath.core.advice.Advice` of ranked rows (best first, see
    :func:`advise` for its keys); a finished board is exact, source ``"complete"``."""
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
