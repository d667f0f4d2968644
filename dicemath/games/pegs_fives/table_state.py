"""Pegs and Fives at a table of 2 to 6 players: every player's board, the running totals, the rounds.

A :class:`TableState` is a whole game at one table in the :mod:`dicemath.core.game`
vocabulary: the seats move in turn (seat 0 starts the first round); the mover's turn in
progress is today's solitaire turn (:class:`~.state.State`: dice in hand, throws left, the
row thrown for and its hits, the choice throw), so chance throws the mover's dice and the
mover names his rows (PEGS-3..9, FIVES-2..5). A turn that ends on an incomplete board passes
to the next seat with all dice; a turn that completes the mover's board ends the round
(PEGS-2, FIVES-6): Fives adds every player's rest points to his running total (FIVES-6) and,
while rounds are left, starts the next round on fresh boards, started by the next seat
(FIVES-7: the start player moves one seat each round); the last round ends the game.

Results (:meth:`TableState.returns`): Pegs, 1 for the player who finished first and 0 for
the others (PEGS-2; Pegs is one game: one round, no totals); Fives, the session's result:
each of the ``k`` players tied for the lowest total counts ``1/k`` (FIVES-7), a single round
being a session of one round.

The text form (``str(state)``, read back by :meth:`TableState.from_str`) names the rules, the
boards in seat order, the mover, his turn's fields as the solitaire text writes them, the
totals, the rounds left (0: the game is over) and the seat that started the round.

Example:
    >>> from dicemath.games.pegs_fives.rules import FIVES
    >>> start = table_start(FIVES.variant(rows=2), 3, rounds=2)
    >>> print(start)  # doctest: +NORMALIZE_WHITESPACE
    fives rows=2 | boards 0,0; 0,0; 0,0 | mover 0 | dice 6 throws - | row - count 0 | roll - | totals 0,0,0
    | rounds left 2 | starter 0
    >>> TableState.from_str(str(start)) == start
    True
    >>> start.apply((1, 1, 1, 2, 2, 6)).legal_actions()
    (1, 2)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from dicemath.core.dice import read_throw, throw_text
from dicemath.core.errors import DicemathError, IllegalMoveError, InvalidStateError
from dicemath.core.game import CHANCE, TERMINAL
from dicemath.games.pegs_fives.limits import SESSION_MAX_ROUNDS, TABLE_MAX_PLAYERS
from dicemath.games.pegs_fives.rules import Rules, read_variant, variant_text
from dicemath.games.pegs_fives.state import (
    BoardTuple, InvalidBoardError, State, board_text, check_board, check_roll, check_state, check_throws_left,
    choice_throw_dice, read_board, rest_points)

MIN_PLAYERS = 2
"""The fewest players at a table."""


def _complete(board: BoardTuple, rules: Rules) -> bool:
    return all(step >= rules.goal for step in board)


@dataclass(frozen=True)
class TableState:
    """A game of Pegs or a session of Fives at one table (see the module docstring).

    Attributes:
        rules: the game (:data:`~.rules.PEGS`, :data:`~.rules.FIVES` or a variant).
        boards: every player's board, in seat order (2 to :data:`TABLE_MAX_PLAYERS`).
        mover: the seat to move (once the game is over: the seat that ended it).
        dice, throws, row, count, roll: the mover's turn in progress, as the solitaire
            :class:`~.state.State` has them (dice in hand, throws left, the row thrown for
            and its hits this cycle, the choice throw waiting for a row).
        totals: the running totals by seat (Fives: the rest points of the rounds played,
            FIVES-6/7; Pegs: zeros).
        rounds_left: the rounds still to play including this one; 0 once the game is over.
        starter: the seat that started this round (FIVES-7: the next round's is the next seat).
    """

    rules: Rules
    boards: tuple[BoardTuple, ...]
    mover: int
    dice: int
    throws: int | None
    row: int | None
    count: int
    roll: tuple[int, ...] | None
    totals: tuple[int, ...]
    rounds_left: int = 1
    starter: int = 0

    @property
    def players(self) -> int:
        """The number of players at the table."""
        return len(self.boards)

    @property
    def player(self) -> int:
        """The seat whose turn it is, throwing or naming a row (:attr:`mover`); -1 once the game is
        over (as every whole-game state says it: the page names the seat to throw by it)."""
        return -1 if self.over else self.mover

    @property
    def over(self) -> bool:
        """Whether the game (the session) is over."""
        return self.rounds_left == 0

    @property
    def turn(self) -> State:
        """The mover's turn in progress as a solitaire state of one turn (``single_turn``)."""
        return State(self.rules, self.boards[self.mover], self.dice, self.throws, self.row, self.count, self.roll,
                     single_turn=True, over=self.over)

    def seat_order(self) -> tuple[int, ...]:
        """The seats from the mover's on, in the order they move: the mover's first."""
        return tuple((self.mover + k) % self.players for k in range(self.players))

    @property
    def opponents(self) -> tuple[BoardTuple, ...]:
        """The other players' boards in the order they move after the mover."""
        return tuple(self.boards[seat] for seat in self.seat_order()[1:])

    @property
    def totals_from_mover(self) -> tuple[int, ...]:
        """The running totals in :meth:`seat_order`, the mover's first."""
        return tuple(self.totals[seat] for seat in self.seat_order())

    @property
    def starter_from_mover(self) -> int:
        """The seat that started this round, counted in :meth:`seat_order` (0: the mover)."""
        return (self.starter - self.mover) % self.players

    def current_player(self) -> int:
        """The mover's seat after a choice throw, :data:`CHANCE` when the dice are thrown next,
        :data:`TERMINAL` once the game is over."""
        if self.over:
            return TERMINAL
        return self.mover if self.roll is not None else CHANCE

    def legal_actions(self) -> tuple[int, ...]:
        """The rows the mover may name after his choice throw (PEGS-4, FIVES-2), increasing."""
        return self.turn.legal_actions()

    def chance_outcomes(self) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
        """Every throw of the mover's dice in hand (sorted) with its exact probability."""
        return self.turn.chance_outcomes()

    def returns(self) -> tuple[float, ...]:
        """Every player's result once the game is over, by seat: Pegs 1 for the player who
        finished first (PEGS-2); Fives ``1/k`` for each of the ``k`` players tied for the
        lowest total (FIVES-7), 0 for the others.

        Raises:
            InvalidStateError: the game is not over.
        """
        if not self.over:
            raise InvalidStateError(f"the game is not over: no results yet in {self}")
        if self.rules.scoring == "first_out":
            return tuple(float(seat == self.mover) for seat in range(self.players))
        low = min(self.totals)
        winners = sum(1 for total in self.totals if total == low)
        return tuple(1.0 / winners if total == low else 0.0 for total in self.totals)

    def apply(self, action: Any) -> TableState:
        """The state after a throw of the mover's dice (at chance) or after he names a row.

        Args:
            action: the faces thrown, a row number, or either's text (:meth:`parse_action`).

        Raises:
            IllegalMoveError: the game is over, or a row that is not legal after the throw.
            InvalidDiceError: a throw that is not a throw of the dice in hand.

        Example:
            >>> from dicemath.games.pegs_fives.rules import PEGS
            >>> state = table_start(PEGS.variant(rows=1), 2).apply("6-6-6-6-6-1").apply(1)
            >>> state.row, state.count, state.dice                  # throwing on for row 1 (PEGS-5)
            (1, 1, 5)
            >>> state = state.apply("6-6-6-6-6")                     # no 1: the turn ends, seat 1 moves
            >>> state.boards, state.mover, state.current_player() == CHANCE
            (((1,), (0,)), 1, True)
        """
        if self.over:
            raise IllegalMoveError("the game is over")
        after = self.turn.apply(action)
        boards = self.boards[:self.mover] + (after.board,) + self.boards[self.mover + 1:]
        if not after.over:
            return replace(self, boards=boards, dice=after.dice, throws=after.throws, row=after.row,
                           count=after.count, roll=after.roll)
        rules = self.rules
        if not _complete(after.board, rules):
            return self._fresh_turn(boards=boards, mover=(self.mover + 1) % self.players)
        totals = self.totals
        if rules.scoring == "rest_points":                                   # FIVES-6
            totals = tuple(total + rest_points(board, rules.goal) for total, board in zip(totals, boards))
        if self.rounds_left == 1:
            return self._fresh_turn(boards=boards, totals=totals, rounds_left=0)
        starter = (self.starter + 1) % self.players                          # FIVES-7
        return self._fresh_turn(boards=((0,) * rules.rows,) * self.players, mover=starter, totals=totals,
                                rounds_left=self.rounds_left - 1, starter=starter)

    def _fresh_turn(self, **changes: Any) -> TableState:
        """``changes`` made, and no turn in progress: all dice in hand, the full budget."""
        return replace(self, dice=self.rules.dice, throws=self.rules.throws, row=None, count=0, roll=None, **changes)

    def action_text(self, action: Any) -> str:
        """A throw as ``"6-5-3-3-3-2"`` (high to low), a row as its number (:meth:`parse_action`)."""
        return self.turn.action_text(action)

    def parse_action(self, text: str) -> tuple[int, ...] | int:
        """Read a throw of the mover's dice in hand (at chance) or a row number (after a choice throw).

        Raises:
            InvalidDiceError: not a throw of the dice in hand.
            IllegalMoveError: not a row number, or the game is over.
        """
        return self.turn.parse_action(text)

    def __str__(self) -> str:
        parts = [variant_text(self.rules), "boards " + "; ".join(board_text(b) for b in self.boards),
                 f"mover {self.mover}", f"dice {self.dice} throws {'-' if self.throws is None else self.throws}",
                 f"row {self.row or '-'} count {self.count}",
                 f"roll {'-' if self.roll is None else throw_text(self.roll)}",
                 "totals " + ",".join(map(str, self.totals)), f"rounds left {self.rounds_left}",
                 f"starter {self.starter}"]
        return " | ".join(parts)

    @classmethod
    def from_str(cls, text: str) -> TableState:
        """Read the text form written by ``str(state)``.

        Raises:
            InvalidStateError: text that is not the text of a table state the rules can reach.
        """
        match = _TEXT.fullmatch(text.strip())
        if match is None:
            raise InvalidStateError(f"cannot read a Pegs/Fives table state from {text!r}")
        fields = match.groupdict()
        try:
            rules = read_variant(fields["rules"])
            dice = int(fields["dice"])
            state = cls(rules, tuple(read_board(rules, part.strip()) for part in fields["boards"].split(";")),
                        int(fields["mover"]), dice, None if fields["throws"] == "-" else int(fields["throws"]),
                        None if fields["row"] == "-" else int(fields["row"]), int(fields["count"]),
                        None if fields["roll"] == "-" else read_throw(fields["roll"], dice),
                        tuple(int(t) for t in fields["totals"].split(",")), int(fields["rounds"]),
                        int(fields["starter"]))
            check_table_state(state)
        except DicemathError as error:
            raise InvalidStateError(f"cannot read a Pegs/Fives table state from {text!r}: {error}") from None
        return state


_TEXT = re.compile(
    r"(?P<rules>[^|]+?) \| boards (?P<boards>[\d,; ]+?) \| mover (?P<mover>\d+) \| dice (?P<dice>\d+) "
    r"throws (?P<throws>\d+|-) \| row (?P<row>\d+|-) count (?P<count>\d+) \| roll (?P<roll>\S+) "
    r"\| totals (?P<totals>[\d,]+) \| rounds left (?P<rounds>\d+) \| starter (?P<starter>\d+)")


def is_table_text(text: str) -> bool:
    """Whether ``text`` is written as a table state (its ``boards`` field), not a solitaire state."""
    return " | boards " in text


def check_table_state(state: TableState) -> None:
    """Raise if ``state`` is not one the rules can reach at a table (the invariant of every table state).

    Raises:
        InvalidStateError: a number of players outside 2..:data:`TABLE_MAX_PLAYERS`, a seat that does
            not exist, totals that are not one whole number >= 0 per player, Pegs with totals or
            more than one round, a complete board in a round still played (or none when the
            game is over), a turn the solitaire rules cannot reach (:func:`~.state.check_state`).
        InvalidBoardError: a board the rules cannot hold.
    """
    rules, n = state.rules, len(state.boards)
    if not MIN_PLAYERS <= n <= TABLE_MAX_PLAYERS:
        raise InvalidStateError(f"a table has {MIN_PLAYERS}..{TABLE_MAX_PLAYERS} players, got {n}")
    for board in state.boards:
        check_board(board, rules)
    for name, seat in (("mover", state.mover), ("starter", state.starter)):
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise InvalidStateError(f"the {name} is a seat 0..{n - 1}, got {seat!r}")
    if len(state.totals) != n or any(isinstance(t, bool) or not isinstance(t, int) or t < 0 for t in state.totals):
        raise InvalidStateError(f"totals are {n} whole numbers >= 0 (one per player), got {state.totals!r}")
    if isinstance(state.rounds_left, bool) or not isinstance(state.rounds_left, int) or \
            not 0 <= state.rounds_left <= SESSION_MAX_ROUNDS:
        raise InvalidStateError(f"rounds left is a whole number 0..{SESSION_MAX_ROUNDS}, got {state.rounds_left!r}")
    if rules.scoring == "first_out" and (any(state.totals) or state.rounds_left > 1):
        raise InvalidStateError(f"{rules.name} is one game to the first finish (PEGS-2): no totals, no later rounds")
    complete = [seat for seat, board in enumerate(state.boards) if _complete(board, rules)]
    if state.over:
        if complete != [state.mover]:
            raise InvalidStateError(f"a finished game has the board of its last mover (seat {state.mover}) complete "
                                    f"and no other; complete: {complete}")
        if (state.dice, state.throws, state.row, state.count, state.roll) != (rules.dice, rules.throws, None, 0, None):
            raise InvalidStateError("a finished game has no turn in progress")
        return
    if complete:
        raise InvalidStateError(f"the board of seat {complete[0]} is complete: its round is over")
    check_state(state.turn)


def table_start(rules: Rules, players: int, *, rounds: int = 1) -> TableState:
    """The start of a game of ``players`` at one table: empty boards, seat 0 to move.

    Args:
        rules: the game.
        players: 2..:data:`TABLE_MAX_PLAYERS`.
        rounds: Fives, the rounds of the session (FIVES-7; default 1); Pegs plays one game.

    Raises:
        InvalidStateError: players outside 2..6, rounds below 1, or Pegs with more than one round.
    """
    if isinstance(players, bool) or not isinstance(players, int) or not MIN_PLAYERS <= players <= TABLE_MAX_PLAYERS:
        raise InvalidStateError(f"a table has {MIN_PLAYERS}..{TABLE_MAX_PLAYERS} players, got {players!r}")
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= SESSION_MAX_ROUNDS:
        raise InvalidStateError(f"rounds must be a whole number 1..{SESSION_MAX_ROUNDS}, got {rounds!r}")
    state = TableState(rules, ((0,) * rules.rows,) * players, 0, rules.dice, rules.throws, None, 0, None,
                       (0,) * players, rounds, 0)
    check_table_state(state)
    return state


def table_decision(rules: Rules, board: Sequence[int], roll: Sequence[int], opponents: Sequence[Sequence[int]], *,
                   throws: int | None = None, totals: Sequence[int] | None = None, rounds_left: int = 1,
                   starter: int = 0) -> TableState:
    """The table state of a decision as ``advise`` reads it: the mover (seat 0) after his choice
    throw ``roll`` on ``board``, the opponents in the order they move after him.

    Args:
        rules: the game.
        board: the mover's board. roll: the choice throw (fewer dice in Pegs: a PEGS-7 choice
            throw with the dice left, :func:`~.state.choice_throw_dice`).
        opponents: the other players' boards (1 to 5), in the order they move after the mover.
        throws: throws left before the throw (default: the full budget).
        totals: the running totals before this round, the mover's first (default: zeros).
        rounds_left: the rounds still to play including this one (default 1).
        starter: who started this round, counted from the mover (0) in the order of play.

    Raises:
        InvalidStateError, InvalidBoardError, InvalidRollError, IllegalMoveError: bad input,
            as :func:`check_table_state` and :func:`~.state.choice_state` say; a choice throw
            with no row to name (the turn ends, nothing to decide).

    Example:
        >>> from dicemath.games.pegs_fives.rules import FIVES
        >>> state = table_decision(FIVES, [5] * 11 + [3], (6, 6, 6, 6, 1, 2), [[4] * 12, [5] * 11 + [0]],
        ...                        totals=(10, 30, 25), rounds_left=2)
        >>> state.current_player(), state.legal_actions(), state.totals_from_mover
        (0, (12,), (10, 30, 25))
    """
    boards = [check_board(board, rules)]
    for number, opponent in enumerate(opponents, 1):
        try:
            boards.append(check_board(opponent, rules))
        except InvalidBoardError as error:
            raise InvalidBoardError(f"opponent {number}'s board: {error}") from None
        if _complete(boards[-1], rules):
            raise InvalidBoardError(f"opponent {number}'s board is complete: the round is over, nothing to decide")
    dice = choice_throw_dice(rules, roll)
    throws = check_throws_left(rules, throws)
    if isinstance(rounds_left, bool) or not isinstance(rounds_left, int) or not 1 <= rounds_left <= SESSION_MAX_ROUNDS:
        raise InvalidStateError(f"rounds left (this one included) must be a whole number 1..{SESSION_MAX_ROUNDS}, "
                                f"got {rounds_left!r}")
    turn = State(rules, boards[0], dice, None if throws is None else throws - 1, roll=check_roll(roll, dice))
    if not turn.legal_actions():
        raise IllegalMoveError(f"no row can be named after {throw_text(roll)}: the turn ends, nothing to decide")
    state = TableState(rules, tuple(boards), 0, turn.dice, turn.throws, None, 0, turn.roll,
                       (0,) * len(boards) if totals is None else tuple(totals), rounds_left, starter)
    check_table_state(state)
    return state
