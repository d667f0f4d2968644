"""Boards, game states and the rules engine of Pegs and Fives.

A board is the progress of every row (pegs' steps, PEGS-1; marks, FIVES-1), an immutable
tuple of ``rules.rows`` integers 0..goal; :func:`board_text` and :func:`read_board` write and
read it as ``"0,0,3,..."``. The rules once hits are set aside are :func:`after_hits` and
:func:`miss`, the single implementation of PEGS-3..9 and FIVES-2..5: the game state
(:class:`State`), the exact within-turn model (:mod:`.turn`) and the compiled kernels
(:mod:`.fullboard`) all call them.

:class:`State` speaks the :mod:`dicemath.core.game` vocabulary for a solitaire game:
chance throws the dice in hand, player 0 names a row after a choice throw, and the game
ends when every row is complete (returns: minus the number of turns taken).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from typing import Any

from dicemath.core.dice import check_faces, multiset_counts, read_throw, throw_outcomes, throw_text
from dicemath.core.errors import DicemathError, IllegalMoveError, InvalidDiceError, InvalidStateError
from dicemath.core.game import CHANCE, TERMINAL
from dicemath.games.pegs_fives.hits import hit_distribution, hits_from_counts
from dicemath.games.pegs_fives.rules import PEGS, Rules, read_variant, variant_text

BoardTuple = tuple[int, ...]


class InvalidBoardError(InvalidStateError):
    """A board the rules cannot produce: wrong number of rows, a step outside 0..goal."""


class InvalidRollError(InvalidDiceError):
    """A roll that is not a throw of the dice in hand (too many dice, a face outside 1..6)."""


def check_board(progress: Sequence[int], rules: Rules) -> BoardTuple:
    """Validate a board (PEGS-1 / FIVES-1) and return it as a tuple.

    Raises:
        InvalidBoardError: not ``rules.rows`` entries, or an entry outside ``0..goal``.

    Example:
        >>> from dicemath.games.pegs_fives.rules import PEGS
        >>> check_board([0] * 12, PEGS)[:3]
        (0, 0, 0)
        >>> check_board([6] + [0] * 11, PEGS)
        Traceback (most recent call last):
        ...
        dicemath.games.pegs_fives.state.InvalidBoardError: row 1 is at step 6; steps run 0..5
    """
    progress = tuple(progress)
    if len(progress) != rules.rows:
        raise InvalidBoardError(f"a board has {rules.rows} rows, got {len(progress)}: {progress!r}")
    for row, step in enumerate(progress, 1):
        if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= rules.goal:
            raise InvalidBoardError(f"row {row} is at step {step!r}; steps run 0..{rules.goal}")
    return progress


def check_roll(faces: Sequence[int], dice: int) -> tuple[int, ...]:
    """Validate a throw of the ``dice`` dice in hand and return it sorted.

    Raises:
        InvalidRollError: the wrong number of dice or a face outside 1..6.
    """
    faces = tuple(faces)
    if len(faces) != dice:
        raise InvalidRollError(f"expected a throw of {dice} dice, got {len(faces)}: {faces!r}")
    try:
        return check_faces(faces)
    except InvalidDiceError as error:
        raise InvalidRollError(str(error)) from None


def counts_of(faces: Sequence[int]) -> tuple[int, ...]:
    """Face counts (#1s .. #6s) of a throw."""
    counts = [0] * 6
    for face in faces:
        counts[face - 1] += 1
    return tuple(counts)


def board_text(board: Sequence[int]) -> str:
    """A board as ``"0,0,3,0,..."``, read back by :func:`read_board`."""
    return ",".join(str(s) for s in board)


def read_board(rules: Rules, text: str) -> BoardTuple:
    """Read a board written as ``"0,0,3,..."`` (:func:`board_text`) and validate it.

    Raises:
        InvalidBoardError: not ``rules.rows`` whole numbers 0..goal.

    Example:
        >>> from dicemath.games.pegs_fives.rules import PEGS
        >>> read_board(PEGS, "0,0,3,0,0,0,1,0,0,0,0,0")[:3]
        (0, 0, 3)
    """
    try:
        values = [int(part) for part in text.split(",")]
    except ValueError:
        raise InvalidBoardError(f"a board is comma-separated whole numbers, got {text!r}") from None
    return check_board(values, rules)


def reduced_board(open_rows: Sequence[int], rules: Rules) -> BoardTuple:
    """The board with only ``open_rows`` at 0, every other row already complete.

    Raises:
        InvalidBoardError: a row that does not exist, or no open row.

    Example:
        >>> from dicemath.games.pegs_fives.rules import PEGS
        >>> reduced_board([3, 8], PEGS)
        (5, 5, 0, 5, 5, 5, 5, 0, 5, 5, 5, 5)
    """
    rows = check_open_rows(open_rows, rules)
    return tuple(0 if r in rows else rules.goal for r in range(1, rules.rows + 1))


def rest_points(board: Sequence[int], goal: int) -> int:
    """FIVES-6: sum of (goal - progress) x number over the rows (0 for a complete board).

    Example:
        >>> rest_points([5, 5, 5, 3] + [5] * 8, 5)
        8
    """
    return sum((goal - s) * r for r, s in enumerate(board, 1))


def check_open_rows(open_rows: Sequence[int], rules: Rules) -> tuple[int, ...]:
    """Validate a set of row numbers (in any order); return them sorted.

    Raises:
        InvalidBoardError: no row, a row outside ``1..rules.rows``, or a row named twice.
    """
    open_rows = list(open_rows)
    if not open_rows:
        raise InvalidBoardError("at least one row must be open")
    for r in open_rows:
        if isinstance(r, bool) or not isinstance(r, int) or not 1 <= r <= rules.rows:
            raise InvalidBoardError(f"row {r!r} does not exist; rows are 1..{rules.rows}")
    twice = sorted({r for r in open_rows if open_rows.count(r) > 1})
    if twice:
        raise InvalidBoardError(f"open rows name row {', '.join(map(str, twice))} twice: give each row once, "
                                f"got {','.join(map(str, open_rows))}")
    return tuple(sorted(open_rows))


def legal_rows(board: Sequence[int], faces_or_counts: Sequence[int], goal: int, *,
               counts: bool = False) -> tuple[tuple[int, int], ...]:
    """The rows that may be named after a choice throw, with their hits (PEGS-4, FIVES-2).

    A row is legal when it is not complete and has at least one hit in the throw. A row
    whose hits would overthrow is legal (PEGS-6 then ends the turn).

    Returns:
        ``((row, hits), ...)`` in increasing row order; empty when the turn ends.

    Example:
        >>> legal_rows([0, 0, 3] + [0] * 9, [3, 3, 3, 5, 6, 2], 5)
        ((2, 1), (3, 3), (5, 1), (6, 1), (7, 1), (8, 2), (9, 1), (11, 1))
    """
    c = tuple(faces_or_counts) if counts else counts_of(faces_or_counts)
    result = []
    for r, s in enumerate(board, 1):
        if s < goal:
            h = hits_from_counts(r, c)
            if h:
                result.append((r, h))
    return tuple(result)


@lru_cache(maxsize=None)
def grouped_choice_throws(dice: int, rows: tuple[int, ...]) -> tuple[tuple[int, tuple[tuple[int, int], ...]], ...]:
    """Throws of ``dice`` dice grouped by their hits on ``rows``.

    Returns:
        ``((weight, ((row, hits), ...)), ...)`` with integer weights summing to ``6**dice``;
        only rows with at least one hit are listed (an empty tuple: no legal row).
    """
    groups: dict[tuple, int] = {}
    for c, w in multiset_counts(dice):
        key = tuple((r, h) for r in rows if (h := hits_from_counts(r, c)))
        groups[key] = groups.get(key, 0) + w
    return tuple(sorted(((w, k) for k, w in groups.items()), key=lambda x: x[1]))


@lru_cache(maxsize=None)
def hit_weights(dice: int, row: int) -> tuple[int, ...]:
    """Integer weights (over ``6**dice``) of 0, 1, ... hits for ``row`` with ``dice`` dice."""
    d = hit_distribution(dice, row)
    return tuple(d.get(k, 0) for k in range(max(d) + 1))


@dataclass(frozen=True)
class Cycle:
    """The result of setting hits aside (a step of the engine).

    Attributes:
        board: the board after any move this step committed.
        dice: dice in hand.
        throws: throws left (None: no limit).
        row: the row still being played, or None when the next throw is a choice throw.
        count: hits counted this cycle for ``row`` (not yet on the board).
        over: the turn has ended.
        event: what happened, for logs: ``"continue"``, ``"in"``, ``"all-dice"``,
            ``"overthrow"``, ``"budget"``, ``"miss"``, ``"no-choice"``, ``"done"``.
    """

    board: BoardTuple
    dice: int
    throws: int | None
    row: int | None
    count: int
    over: bool
    event: str


def _with(board: BoardTuple, row: int, value: int) -> BoardTuple:
    return board[:row - 1] + (value,) + board[row:]


def after_hits(rules: Rules, board: BoardTuple, row: int, count: int, dice: int,
               throws: int | None) -> Cycle:
    """Apply the rules once hits are set aside: ``count`` hits this cycle, ``dice`` left.

    Implements PEGS-6 (overthrow), PEGS-8 before PEGS-7 (all dice used, then exactly in),
    PEGS-9 (budget spent), FIVES-4 (all dice used) and FIVES-5 (cap, fresh dice).

    Args:
        board: the board at the start of this cycle (this cycle's count not on it).
        row: the row played. count: its hits so far this cycle (>= 1).
        dice: dice left in hand. throws: throws left (None: no limit).
    """
    need = rules.goal - board[row - 1]
    fresh_throws = rules.throws
    if count > need:
        if rules.overthrow:                                      # PEGS-6
            return Cycle(board, dice, throws, None, 0, True, "overthrow")
        count = need                                             # FIVES-5: hits beyond lost
    if count == need:
        new = _with(board, row, rules.goal)
        if all(s >= rules.goal for s in new):
            return Cycle(new, dice, throws, None, 0, True, "done")
        if dice == 0 and rules.all_dice_first:                   # PEGS-8 before PEGS-7
            return Cycle(new, rules.dice, fresh_throws if rules.fresh_budget_on_all_dice else throws,
                         None, 0, False, "all-dice")
        if rules.on_complete == "fresh":                         # FIVES-5
            return Cycle(new, rules.dice, fresh_throws, None, 0, False, "in")
        if dice > 0 and (throws is None or throws > 0):          # PEGS-7
            return Cycle(new, dice, throws, None, 0, False, "in")
        return Cycle(new, dice, throws, None, 0, True, "in")
    if dice == 0:                                                # PEGS-8 / FIVES-4
        new = _with(board, row, board[row - 1] + count)
        budget = fresh_throws if rules.fresh_budget_on_all_dice else throws
        if budget is not None and budget == 0:
            return Cycle(new, rules.dice, 0, None, 0, True, "budget")
        return Cycle(new, rules.dice, budget, None, 0, False, "all-dice")
    if throws is not None and throws == 0:                       # PEGS-9
        return Cycle(_with(board, row, board[row - 1] + count), dice, 0, None, 0, True, "budget")
    return Cycle(board, dice, throws, row, count, False, "continue")


def miss(board: BoardTuple, row: int, count: int, dice: int, throws: int | None) -> Cycle:
    """A throw with no hit for ``row``: the count stands and the turn ends (PEGS-5/9, FIVES-3)."""
    return Cycle(_with(board, row, board[row - 1] + count), dice, throws, None, 0, True, "miss")


@lru_cache(maxsize=None)
def cycle_terminals(rules: Rules, row: int, step: int, count: int, dice: int, throws: int | None) -> dict:
    """Exact distribution of how a cycle for ``row`` begun at ``step`` ends.

    The state is the moment hits are set aside (the arguments of :func:`after_hits`):
    ``count`` hits this cycle, ``dice`` in hand, ``throws`` left (None: no limit). Returns
    ``{terminal: Fraction}`` with terminals ``("over",)`` (PEGS-6), ``("end", c)`` (the turn
    ends with the row ``c`` steps on), ``("fresh", c)`` (all dice and a fresh budget:
    PEGS-8, FIVES-4/5) and ``("choice", dice, throws)`` (PEGS-7: a choice throw with the
    row in). Another row is kept open, so the board never completes here: what follows a
    last row going in is the caller's to value.
    """
    board = [rules.goal] * rules.rows
    board[row - 1] = step
    board[row % rules.rows] = 0                                         # another row open
    return _terminals_from(rules, row, step, after_hits(rules, tuple(board), row, count, dice, throws))


def _terminals_from(rules: Rules, row: int, step: int, cycle: Cycle) -> dict:
    """:func:`cycle_terminals` from the engine's step ``cycle``."""
    gained = cycle.board[row - 1] - step
    if cycle.over:
        return {("over",) if cycle.event == "overthrow" else ("end", gained): Fraction(1)}
    if cycle.row is None:
        if cycle.dice == rules.dice and cycle.throws == rules.throws:
            return {("fresh", gained): Fraction(1)}
        return {("choice", cycle.dice, cycle.throws): Fraction(1)}
    result: dict = {}
    after = None if cycle.throws is None else cycle.throws - 1          # PEGS-5 / FIVES-3: throw on
    for hits, weight in enumerate(hit_weights(cycle.dice, row)):
        if not weight:
            continue
        if hits == 0:
            following = _terminals_from(rules, row, step, miss(cycle.board, row, cycle.count, cycle.dice, after))
        else:
            following = cycle_terminals(rules, row, step, cycle.count + hits,
                                        cycle.dice - hits * rules.dice_per_hit[row - 1], after)
        p = Fraction(weight, 6 ** cycle.dice)
        for key, q in following.items():
            result[key] = result.get(key, 0) + p * q
    return result


Policy = Callable[[BoardTuple, tuple[tuple[int, int], ...], int, "int | None"], int]
"""``policy(board, legal, dice, throws) -> row``: a row choice after a choice throw.

``legal`` is the tuple of ``(row, hits)`` of :func:`legal_rows`; ``dice`` and ``throws`` are
the dice in hand and throws left *before* the choice throw was made.
"""


def greedy_policy(board: BoardTuple, legal: Sequence[tuple[int, int]], dice: int, throws: int | None) -> int:
    """The greedy policy: the row with the most hits, ties to the higher row."""
    return max(legal, key=lambda rh: (rh[1], rh[0]))[0]


@dataclass(frozen=True)
class SafeGreedy:
    """Greedy without overthrowing: the most hits among rows whose hits fit (PEGS-6), ties
    to the higher row; plain greedy when every legal row would overthrow.

    In Fives (no overthrow) it prefers rows whose hits are not partly lost (FIVES-5). Literal
    greedy is a poor baseline in Pegs: with several rows one step from the top it keeps naming a row with 2 or more hits
    and overthrowing, so some games last thousands of turns.

    Example:
        >>> SafeGreedy(5)((4,) * 12, ((1, 1), (7, 2)), 6, 3)
        1
    """

    goal: int = 5

    def __call__(self, board: BoardTuple, legal: Sequence[tuple[int, int]], dice: int, throws: int | None) -> int:
        fitting = [(r, h) for r, h in legal if board[r - 1] + h <= self.goal]
        return greedy_policy(board, fitting or legal, dice, throws)


def random_throw(rng: random.Random, dice: int) -> tuple[int, ...]:
    """A sorted random throw of ``dice`` dice."""
    return tuple(sorted(rng.randint(1, 6) for _ in range(dice)))


@dataclass(frozen=True)
class State:
    """A solitaire game of Pegs or Fives in the :mod:`dicemath.core.game` vocabulary.

    Chance throws the dice in hand (outcomes: sorted throws with exact probabilities);
    after a choice throw player 0 names a legal row (actions: row numbers); other throws
    are resolved by the rules (:func:`after_hits`, :func:`miss`). A turn that ends starts
    the next one (``turns`` counts the finished turns); the game is terminal when every
    row is complete, with returns ``(-turns,)``. With ``single_turn`` the state is terminal
    at the end of the turn.

    Attributes:
        rules: the game.
        board: the board; this cycle's hits are not on it yet.
        dice: dice in hand.
        throws: throws left (None: no limit, FIVES-3); after a choice throw, the throws
            left once it is made.
        row: the row thrown for this cycle, or None when the next throw is a choice throw.
        count: hits counted for ``row`` this cycle.
        roll: the choice throw waiting for a row to be named, or None.
        turns: turns finished.
        single_turn: the game ends with this turn.
        over: the game has ended.

    The text form (``str(state)``) reads back with :meth:`from_str`, e.g.
    ``pegs | board 0,0,3,0,0,0,1,0,0,0,0,0 | turns 0 | dice 6 throws 2 | row - count 0 | roll 6-5-3-3-3-2``
    (then ``| single turn`` and ``| over`` when they hold; the rules as :func:`.rules.variant_text`).

    Example:
        >>> from dicemath.games.pegs_fives.rules import PEGS
        >>> s = initial_state(PEGS, [5] * 11 + [4])
        >>> s.current_player() == CHANCE
        True
        >>> s2 = s.apply((6, 6, 1, 1, 1, 1))
        >>> s2.legal_actions()
        (12,)
        >>> s2.apply(12).current_player() == TERMINAL
        True
    """

    rules: Rules
    board: BoardTuple
    dice: int
    throws: int | None
    row: int | None = None
    count: int = 0
    roll: tuple[int, ...] | None = None
    turns: int = 0
    single_turn: bool = False
    over: bool = False

    def current_player(self) -> int:
        """0 after a choice throw, :data:`CHANCE` when the dice are thrown next, or :data:`TERMINAL`."""
        if self.over:
            return TERMINAL
        return 0 if self.roll is not None else CHANCE

    def legal_actions(self) -> tuple[int, ...]:
        """The rows that may be named after the choice throw (PEGS-4, FIVES-2), increasing."""
        if self.roll is None or self.over:
            return ()
        return tuple(r for r, _ in legal_rows(self.board, self.roll, self.rules.goal))

    def chance_outcomes(self) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
        """Every throw of the dice in hand (sorted) with its exact probability."""
        if self.over or self.roll is not None:
            return ()
        return throw_outcomes(self.dice)

    def returns(self) -> tuple[float]:
        """Minus the number of turns taken."""
        return (-float(self.turns),)

    def apply(self, action: Any) -> State:
        """The state after a throw (at chance) or after naming a row.

        Args:
            action: the faces thrown, a row number, or either's text, read first by
                :meth:`parse_action` (``"6-5-3-3-3-2"``, ``"11"``).

        Raises:
            IllegalMoveError: the game is over, a row that is not legal after the throw, or
                text that is no row number.
            InvalidRollError: a throw that is not a throw of the dice in hand.
            InvalidDiceError: text that is not a throw of the dice in hand.

        Example:
            >>> from dicemath.games.pegs_fives.rules import PEGS
            >>> s = initial_state(PEGS)
            >>> s.apply("6-5-3-3-3-2") == s.apply((2, 3, 3, 3, 5, 6))
            True
        """
        if isinstance(action, str):
            action = self.parse_action(action)
        rules = self.rules
        if self.over:
            raise IllegalMoveError("the game is over")
        if self.roll is None:
            faces = check_roll(action, self.dice)
            throws = None if self.throws is None else self.throws - 1
            if self.row is None:
                if not legal_rows(self.board, faces, rules.goal):
                    return self._next(Cycle(self.board, self.dice, throws, None, 0, True, "no-choice"))
                return replace(self, throws=throws, roll=faces)
            h = hits_from_counts(self.row, counts_of(faces))
            if h == 0:
                return self._next(miss(self.board, self.row, self.count, self.dice, throws))
            return self._next(after_hits(rules, self.board, self.row, self.count + h,
                                         self.dice - h * rules.dice_per_hit[self.row - 1], throws))
        legal = dict(legal_rows(self.board, self.roll, rules.goal))
        if action not in legal:
            raise IllegalMoveError(f"row {action!r} is not legal after {self.roll}; legal: {sorted(legal)}")
        h = legal[action]
        return self._next(after_hits(rules, self.board, action, h,
                                     self.dice - h * rules.dice_per_hit[action - 1], self.throws))

    def _next(self, cycle: Cycle) -> State:
        if not cycle.over:
            return replace(self, board=cycle.board, dice=cycle.dice, throws=cycle.throws, row=cycle.row,
                           count=cycle.count, roll=None)
        done = all(s >= self.rules.goal for s in cycle.board)
        if done or self.single_turn:
            return replace(self, board=cycle.board, dice=cycle.dice, throws=cycle.throws, row=None, count=0,
                           roll=None, turns=self.turns + 1, over=True)
        return replace(self, board=cycle.board, dice=self.rules.dice, throws=self.rules.throws, row=None,
                       count=0, roll=None, turns=self.turns + 1)

    def action_text(self, action: Any) -> str:
        """A throw as ``"6-5-3-3-3-2"`` (high to low), a row as its number; read back by
        :meth:`parse_action`."""
        return str(action) if self.roll is not None else throw_text(action)

    def parse_action(self, text: str) -> tuple[int, ...] | int:
        """Read a throw of the dice in hand (at chance) or a row number (after a choice throw;
        :meth:`apply` says whether the row is legal).

        Raises:
            InvalidDiceError: not a throw of the dice in hand.
            IllegalMoveError: not a row number, or the game is over.

        Example:
            >>> from dicemath.games.pegs_fives.rules import PEGS
            >>> s = initial_state(PEGS)
            >>> s.parse_action("6-5-3-3-3-2"), s.apply((2, 3, 3, 3, 5, 6)).parse_action("11")
            ((2, 3, 3, 3, 5, 6), 11)
        """
        if self.over:
            raise IllegalMoveError("the game is over")
        if self.roll is None:
            return read_throw(text, self.dice)
        word = text.strip()
        if not word.isdigit() or not 1 <= int(word) <= self.rules.rows:
            raise IllegalMoveError(f"after the choice throw {throw_text(self.roll)} the player names a row "
                                   f"1..{self.rules.rows}, got {text!r}")
        return int(word)

    def __str__(self) -> str:
        parts = [variant_text(self.rules), f"board {board_text(self.board)}", f"turns {self.turns}",
                 f"dice {self.dice} throws {'-' if self.throws is None else self.throws}",
                 f"row {self.row or '-'} count {self.count}",
                 f"roll {'-' if self.roll is None else throw_text(self.roll)}"]
        parts += ["single turn"] * self.single_turn + ["over"] * self.over
        return " | ".join(parts)

    @classmethod
    def from_str(cls, text: str) -> State:
        """Read the text form written by ``str(state)``.

        Raises:
            InvalidStateError: text that is not the text of a state the rules can reach.

        Example:
            >>> from dicemath.games.pegs_fives.rules import FIVES
            >>> s = initial_state(FIVES).apply((1, 2, 3, 4, 5, 6))
            >>> str(s)
            'fives | board 0,0,0,0,0,0,0,0,0,0,0,0 | turns 0 | dice 6 throws - | row - count 0 | roll 6-5-4-3-2-1'
            >>> State.from_str(str(s)) == s
            True
        """
        match = _TEXT.fullmatch(text.strip())
        if match is None:
            raise InvalidStateError(f"cannot read a Pegs/Fives state from {text!r}")
        fields = match.groupdict()
        try:
            rules = read_variant(fields["rules"])
            state = cls(rules, read_board(rules, fields["board"]), int(fields["dice"]),
                        None if fields["throws"] == "-" else int(fields["throws"]),
                        None if fields["row"] == "-" else int(fields["row"]), int(fields["count"]),
                        None if fields["roll"] == "-" else read_throw(fields["roll"], int(fields["dice"])),
                        int(fields["turns"]), bool(fields["single"]), bool(fields["over"]))
            check_state(state)
        except DicemathError as error:
            raise InvalidStateError(f"cannot read a Pegs/Fives state from {text!r}: {error}") from None
        return state

    def _repr_svg_(self) -> str:
        from dicemath.core.svg import picture

        return picture(self)


_TEXT = re.compile(
    r"(?P<rules>[^|]+?) \| board (?P<board>\S+) \| turns (?P<turns>\d+) \| dice (?P<dice>\d+) "
    r"throws (?P<throws>\d+|-) \| row (?P<row>\d+|-) count (?P<count>\d+) \| roll (?P<roll>\S+)"
    r"(?P<single> \| single turn)?(?P<over> \| over)?")


def check_state(state: State) -> None:
    """Raise if ``state`` is not one the rules can reach (the invariant of every state).

    Raises:
        InvalidStateError: dice or throws outside the rules, a row or count that no cycle
            leaves, a choice throw with no legal row, a finished board in play.
    """
    rules, board = state.rules, check_board(state.board, state.rules)
    if not 1 <= state.dice <= rules.dice:
        raise InvalidStateError(f"dice in hand must be 1..{rules.dice}, got {state.dice}")
    if (state.throws is None) != (rules.throws is None) or \
            (state.throws is not None and rules.throws is not None and not 0 <= state.throws <= rules.throws):
        raise InvalidStateError(f"throws left must be {'-' if rules.throws is None else f'0..{rules.throws}'}, "
                                f"got {state.throws}")
    if state.row is None:
        if state.count:
            raise InvalidStateError(f"{state.count} hits counted but no row is being thrown for")
    elif not (1 <= state.row <= rules.rows and 1 <= state.count < rules.goal - board[state.row - 1]) \
            or state.roll is not None:
        raise InvalidStateError(f"row {state.row} with {state.count} hits this cycle is no cycle in play")
    if state.roll is not None and not legal_rows(board, check_roll(state.roll, state.dice), rules.goal):
        raise InvalidStateError(f"the choice throw {throw_text(state.roll)} names no row: the turn has ended")
    complete = all(s >= rules.goal for s in board)
    if complete and not state.over:
        raise InvalidStateError("a finished board ends the game")
    if state.over and not complete and not state.single_turn:
        raise InvalidStateError("the game ends when every row is complete (or a single turn ends)")
    if state.over and (state.roll is not None or state.row is not None):
        raise InvalidStateError("a finished game has no throw in play")


def initial_state(rules: Rules = PEGS, board: Sequence[int] | None = None, *,
                  single_turn: bool = False) -> State:
    """The start of a turn on ``board`` (default: every row at 0).

    Args:
        rules: :data:`~.rules.PEGS`, :data:`~.rules.FIVES` or a variant.
        board: the board at the start of the turn.
        single_turn: the game ends with this turn (to study one turn).

    Raises:
        InvalidBoardError: a board the rules cannot hold.
    """
    b = check_board(board, rules) if board is not None else (0,) * rules.rows
    return State(rules, b, rules.dice, rules.throws, single_turn=single_turn,
                 over=all(s >= rules.goal for s in b))


def choice_throw_dice(rules: Rules, faces: Sequence[int]) -> int:
    """The dice in hand for a choice throw showing ``faces``: all dice, except that a Pegs
    roll of fewer dice is a choice throw with the dice left after a row went in (PEGS-7)."""
    fewer = rules.on_complete == "remaining" and 1 <= len(faces) < rules.dice
    return len(faces) if fewer else rules.dice


def check_throws_left(rules: Rules, throws: int | None) -> int | None:
    """Throws left before a throw: ``throws``, or the full budget when None (PEGS-3; Fives has
    no limit, FIVES-3: None).

    Raises:
        IllegalMoveError: a number outside ``1..rules.throws``, or any number in a game
            without a throw limit.
    """
    if throws is None:
        return rules.throws
    if rules.throws is None:
        raise IllegalMoveError(f"{rules.name} has no throw limit (FIVES-3): no throws left to give")
    if isinstance(throws, bool) or not isinstance(throws, int) or not 1 <= throws <= rules.throws:
        raise IllegalMoveError(f"throws left must be 1..{rules.throws}, got {throws!r}")
    return throws


def choice_state(rules: Rules, board: Sequence[int], faces: Sequence[int], throws: int | None = None) -> State:
    """The state after the choice throw ``faces`` on ``board``, a row to be named.

    Args:
        rules: the game.
        board: the board.
        faces: the choice throw (fewer dice in Pegs: :func:`choice_throw_dice`).
        throws: throws left before the throw (default: the full budget).

    Raises:
        InvalidBoardError, InvalidRollError: a bad board or throw.
        IllegalMoveError: throws left outside the budget, or no row to name (the turn ends).
    """
    b = check_board(board, rules)
    dice = choice_throw_dice(rules, faces)
    faces = check_roll(faces, dice)
    throws = check_throws_left(rules, throws)
    if not legal_rows(b, faces, rules.goal):
        raise IllegalMoveError(f"no row can be named after {throw_text(faces)}: the turn ends, nothing to decide")
    return State(rules, b, dice, None if throws is None else throws - 1, roll=faces)


def finish_turn(state: State, policy: Policy, rng: random.Random) -> State:
    """Play the turn of ``state`` to its end with seeded dice, ``policy`` naming the rows.

    Returns:
        The first state after the turn (a new turn, or the end of the game).
    """
    turns = state.turns
    while state.turns == turns and not state.over:
        if state.roll is None:
            state = state.apply(random_throw(rng, state.dice))
        else:
            legal = legal_rows(state.board, state.roll, state.rules.goal)
            state = state.apply(policy(state.board, legal, state.dice,
                                       None if state.throws is None else state.throws + 1))
    return state


def play_turn(rules: Rules, board: Sequence[int], policy: Policy, rng: random.Random) -> BoardTuple:
    """Play one turn from ``board`` with seeded dice and return the end-of-turn board.

    Example:
        >>> from dicemath.games.pegs_fives.rules import PEGS
        >>> end = play_turn(PEGS, [0] * 12, greedy_policy, random.Random(1))
        >>> len(end), sum(end) >= 0
        (12, True)
    """
    return finish_turn(initial_state(rules, board), policy, rng).board


def play_turns(rules: Rules, policy: Policy, rng: random.Random, *, board: Sequence[int] | None = None,
               max_turns: int = 10_000) -> State:
    """Play a solitaire game with seeded dice until it is over or ``max_turns`` turns are
    played, and return the state reached (``state.over`` says which)."""
    state = initial_state(rules, board)
    while not state.over and state.turns < max_turns:
        state = finish_turn(state, policy, rng)
    return state


def play_game(rules: Rules, policy: Policy, rng: random.Random, *, board: Sequence[int] | None = None,
              max_turns: int = 10_000) -> int:
    """Play a solitaire game to the end and return the number of turns taken.

    Raises:
        RuntimeError: the game is not over after ``max_turns`` turns.
    """
    state = play_turns(rules, policy, rng, board=board, max_turns=max_turns)
    if not state.over:
        raise RuntimeError(f"game not finished after {max_turns} turns")
    return state.turns
