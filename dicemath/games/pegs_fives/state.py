"""Boards, within-turn states and the rules engine of Pegs and Fives.

A board is the progress of every row (pegs' steps, PEGS-1; marks, FIVES-1), an immutable
tuple wrapped in :class:`Board`. The within-turn state (:class:`TurnState`) adds the dice in
hand, the throws left, the row being played this cycle and its count. The transition
functions here are the single implementation of PEGS-3..9 and FIVES-2..5; the exact models
(:mod:`.turn`, :mod:`.solver`) and the simulator call them or mirror them and are tested
against each other.

:class:`TurnState` speaks the :mod:`dicemath.core.game` vocabulary for a solitaire game:
chance throws the dice, player 0 names a row after a choice throw, and the game ends when
every row is complete (returns: minus the number of turns taken).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from dicemath.core.dice import multiset_counts, multisets
from dicemath.games.pegs_fives.hits import hit_distribution, hits_from_counts
from dicemath.core.errors import IllegalMoveError, InvalidDiceError, InvalidStateError
from dicemath.core.game import CHANCE, TERMINAL
from dicemath.games.pegs_fives.rules import Rules

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
    """Validate a throw of ``dice`` dice and return it sorted.

    Raises:
        InvalidRollError: the wrong number of dice or a face outside 1..6.
    """
    faces = tuple(faces)
    if len(faces) != dice:
        raise InvalidRollError(f"expected a throw of {dice} dice, got {len(faces)}: {faces!r}")
    for face in faces:
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 6:
            raise InvalidRollError(f"a die face must be 1..6, got {face!r} in {faces!r}")
    return tuple(sorted(faces))


def counts_of(faces: Sequence[int]) -> tuple[int, ...]:
    """Face counts (#1s .. #6s) of a throw."""
    counts = [0] * 6
    for face in faces:
        counts[face - 1] += 1
    return tuple(counts)


@dataclass(frozen=True)
class Board:
    """An immutable board: the progress of every row, with the goal it counts towards.

    Example:
        >>> from dicemath.games.pegs_fives.rules import PEGS
        >>> b = Board.parse("0,0,3,0,0,0,1,0,0,0,0,0", PEGS)
        >>> b.open_rows()[:3], b.is_complete()
        ((1, 2, 3), False)
        >>> str(b)
        '0,0,3,0,0,0,1,0,0,0,0,0'
    """

    progress: BoardTuple
    goal: int = 5

    @classmethod
    def of(cls, progress: Sequence[int], rules: Rules) -> Board:
        """A validated board for ``rules``."""
        return cls(check_board(progress, rules), rules.goal)

    @classmethod
    def empty(cls, rules: Rules) -> Board:
        """Every row at 0."""
        return cls((0,) * rules.rows, rules.goal)

    @classmethod
    def reduced(cls, open_rows: Sequence[int], rules: Rules) -> Board:
        """Only ``open_rows`` at 0, every other row already complete."""
        open_rows = check_open_rows(open_rows, rules)
        return cls(tuple(0 if r in open_rows else rules.goal for r in range(1, rules.rows + 1)), rules.goal)

    @classmethod
    def parse(cls, text: str, rules: Rules) -> Board:
        """Parse ``"0,0,3,..."`` (the :meth:`__str__` form)."""
        try:
            values = [int(part) for part in text.split(",")]
        except ValueError:
            raise InvalidBoardError(f"a board is comma-separated whole numbers, got {text!r}") from None
        return cls.of(values, rules)

    def __str__(self) -> str:
        return ",".join(str(s) for s in self.progress)

    def open_rows(self) -> tuple[int, ...]:
        """Rows (1-based) not yet complete."""
        return tuple(r for r, s in enumerate(self.progress, 1) if s < self.goal)

    def is_complete(self) -> bool:
        """Every row complete (PEGS-2 / FIVES-6: the player is out)."""
        return all(s >= self.goal for s in self.progress)

    def rest_points(self) -> int:
        """FIVES-6 rest points: sum over rows of (missing marks) x (row number).

        >>> from dicemath.games.pegs_fives.rules import FIVES
        >>> Board.of([5, 5, 5, 3] + [5] * 8, FIVES).rest_points()
        8
        """
        return rest_points(self.progress, self.goal)


def rest_points(board: Sequence[int], goal: int) -> int:
    """FIVES-6: sum of (goal - progress) x number over the rows (0 for a complete board)."""
    return sum((goal - s) * r for r, s in enumerate(board, 1))


def check_open_rows(open_rows: Sequence[int], rules: Rules) -> tuple[int, ...]:
    """Validate a set of row numbers; return them sorted and distinct."""
    rows = tuple(sorted(set(open_rows)))
    if not rows:
        raise InvalidBoardError("at least one row must be open")
    for r in rows:
        if isinstance(r, bool) or not isinstance(r, int) or not 1 <= r <= rules.rows:
            raise InvalidBoardError(f"row {r!r} does not exist; rows are 1..{rules.rows}")
    return rows


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


Policy = Callable[[BoardTuple, tuple[tuple[int, int], ...], int, "int | None"], int]
"""``policy(board, legal, dice, throws) -> row``: a row choice after a choice throw.

``legal`` is the tuple of ``(row, hits)`` of :func:`legal_rows`; ``dice`` and ``throws`` are
the dice in hand and throws left *before* the choice throw was made.
"""


def greedy_policy(board: BoardTuple, legal, dice: int, throws) -> int:
    """The greedy policy: the row with the most hits, ties to the higher row."""
    return max(legal, key=lambda rh: (rh[1], rh[0]))[0]


@dataclass(frozen=True)
class SafeGreedy:
    """Greedy without overthrowing: the most hits among rows whose hits fit (PEGS-6), ties
    to the higher row; plain greedy when every legal row would overthrow.

    In Fives (no overthrow) it prefers rows whose hits are not partly lost (FIVES-5). Literal greedy is a poor baseline in
    Pegs: with several rows one step from the top it keeps naming a row with 2 or more hits
    and overthrowing, so some games last thousands of turns.

    Example:
        >>> SafeGreedy(5)((4,) * 12, ((1, 1), (7, 2)), 6, 3)
        1
    """

    goal: int = 5

    def __call__(self, board: BoardTuple, legal, dice: int, throws) -> int:
        fitting = [(r, h) for r, h in legal if board[r - 1] + h <= self.goal]
        return greedy_policy(board, fitting or legal, dice, throws)


def roll(rng: random.Random, dice: int) -> tuple[int, ...]:
    """A sorted random throw of ``dice`` dice."""
    return tuple(sorted(rng.randint(1, 6) for _ in range(dice)))


def play_turn(rules: Rules, board: Sequence[int], policy: Policy, rng: random.Random, *,
              first_throw: Sequence[int] | None = None, first_row: int | None = None,
              log: list | None = None) -> BoardTuple:
    """Play one turn with seeded dice and return the end-of-turn board.

    Args:
        rules: the game.
        board: the board at the start of the turn.
        policy: chooses a row after every choice throw.
        rng: the source of dice.
        first_throw: use this as the first choice throw instead of rolling.
        first_row: name this row after the first choice throw instead of asking ``policy``.
        log: if a list, receives ``(throw, row, event)`` for every throw.

    Raises:
        IllegalMoveError: ``first_row`` is not legal after ``first_throw``.

    Example:
        >>> from dicemath.games.pegs_fives.rules import PEGS
        >>> end = play_turn(PEGS, [0] * 12, greedy_policy, random.Random(1))
        >>> len(end), sum(end) >= 0
        (12, True)
    """
    b = check_board(board, rules)
    if all(s >= rules.goal for s in b):
        return b
    dice, throws, row, count = rules.dice, rules.throws, None, 0
    first = True
    while True:
        faces = check_roll(first_throw, dice) if (first and first_throw is not None) else roll(rng, dice)
        if throws is not None:
            throws -= 1
        if row is None:
            legal = legal_rows(b, faces, rules.goal)
            if not legal:
                if log is not None:
                    log.append((faces, None, "no-choice"))
                return b
            if first and first_row is not None:
                if first_row not in dict(legal):
                    raise IllegalMoveError(f"row {first_row} is not legal after {faces}; legal: {[r for r, _ in legal]}")
                row = first_row
            else:
                row = policy(b, legal, dice, throws if throws is None else throws + 1)
            h = dict(legal)[row]
            cycle = after_hits(rules, b, row, h, dice - h * rules.dice_per_hit[row - 1], throws)
        else:
            h = hits_from_counts(row, counts_of(faces))
            if h == 0:
                cycle = miss(b, row, count, dice, throws)
            else:
                cycle = after_hits(rules, b, row, count + h, dice - h * rules.dice_per_hit[row - 1], throws)
        if log is not None:
            log.append((faces, row, cycle.event))
        first = False
        if cycle.over:
            return cycle.board
        b, dice, throws, row, count = cycle.board, cycle.dice, cycle.throws, cycle.row, cycle.count


def play_game(rules: Rules, policy: Policy, rng: random.Random, *, board: Sequence[int] | None = None,
              max_turns: int = 10_000) -> int:
    """Play a solitaire game to the end and return the number of turns taken."""
    b = check_board(board, rules) if board is not None else (0,) * rules.rows
    turns = 0
    while not all(s >= rules.goal for s in b):
        b = play_turn(rules, b, policy, rng)
        turns += 1
        if turns >= max_turns:
            raise RuntimeError(f"game not finished after {max_turns} turns")
    return turns


@lru_cache(maxsize=None)
def _chance_table(dice: int) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    return tuple((t, Fraction(w, 6 ** dice)) for t, w in multisets(dice))


@dataclass(frozen=True)
class TurnState:
    """A solitaire game of Pegs or Fives in the :mod:`dicemath.core.game` vocabulary.

    Chance throws the dice in hand (outcomes: sorted throws with exact probabilities);
    after a choice throw player 0 names a legal row (actions: row numbers); other throws
    are resolved by the rules. A turn that ends starts the next one (``turns`` counts the
    finished turns); the game is terminal when every row is complete, with returns
    ``[-turns]``. With ``single_turn=True`` the state is terminal at the end of the turn.

    Example:
        >>> from dicemath.games.pegs_fives.rules import PEGS
        >>> s = TurnState.start(PEGS, [5] * 11 + [4])
        >>> s.current_player() == CHANCE
        True
        >>> s2 = s.apply((6, 6, 1, 1, 1, 1))
        >>> s2.legal_actions()
        [12]
        >>> s2.apply(12).current_player() == TERMINAL
        True
    """

    rules: Rules
    board: BoardTuple
    dice: int
    throws: int | None
    row: int | None = None
    count: int = 0
    pending: tuple[int, ...] | None = None
    turns: int = 0
    single_turn: bool = False
    over: bool = False

    @classmethod
    def start(cls, rules: Rules, board: Sequence[int] | None = None, *, single_turn: bool = False) -> TurnState:
        """The start of a turn on ``board`` (default: empty)."""
        b = check_board(board, rules) if board is not None else (0,) * rules.rows
        return cls(rules, b, rules.dice, rules.throws, single_turn=single_turn,
                   over=all(s >= rules.goal for s in b))

    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        return 0 if self.pending is not None else CHANCE

    def legal_actions(self) -> list[int]:
        if self.pending is None or self.over:
            return []
        return [r for r, _ in legal_rows(self.board, self.pending, self.rules.goal)]

    def chance_outcomes(self) -> list[tuple[tuple[int, ...], Fraction]]:
        if self.over or self.pending is not None:
            return []
        return list(_chance_table(self.dice))

    def returns(self) -> list[float]:
        return [-float(self.turns)]

    def _next(self, cycle: Cycle) -> TurnState:
        if not cycle.over:
            return TurnState(self.rules, cycle.board, cycle.dice, cycle.throws, cycle.row, cycle.count,
                             None, self.turns, self.single_turn, False)
        done = all(s >= self.rules.goal for s in cycle.board)
        if done or self.single_turn:
            return TurnState(self.rules, cycle.board, cycle.dice, cycle.throws, None, 0, None,
                             self.turns + 1, self.single_turn, True)
        return TurnState(self.rules, cycle.board, self.rules.dice, self.rules.throws, None, 0, None,
                         self.turns + 1, self.single_turn, False)

    def apply(self, action) -> TurnState:
        rules = self.rules
        if self.over:
            raise IllegalMoveError("the game is over")
        if self.pending is None:
            faces = check_roll(action, self.dice)
            throws = None if self.throws is None else self.throws - 1
            if self.row is None:
                if not legal_rows(self.board, faces, rules.goal):
                    return self._next(Cycle(self.board, self.dice, throws, None, 0, True, "no-choice"))
                return TurnState(rules, self.board, self.dice, throws, None, 0, faces, self.turns,
                                 self.single_turn, False)
            h = hits_from_counts(self.row, counts_of(faces))
            if h == 0:
                return self._next(miss(self.board, self.row, self.count, self.dice, throws))
            return self._next(after_hits(rules, self.board, self.row, self.count + h,
                                         self.dice - h * rules.dice_per_hit[self.row - 1], throws))
        legal = dict(legal_rows(self.board, self.pending, rules.goal))
        if action not in legal:
            raise IllegalMoveError(f"row {action!r} is not legal after {self.pending}; legal: {sorted(legal)}")
        h = legal[action]
        return self._next(after_hits(rules, self.board, action, h,
                                     self.dice - h * rules.dice_per_hit[action - 1], self.throws))
