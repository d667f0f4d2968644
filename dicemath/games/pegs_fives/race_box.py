"""The boards a race can still reach: boxes of the reduced board.

A player's board only moves on (PEGS-5, FIVES-3): from board ``a`` he reaches only boards
whose every row ``rows[j]`` is at least ``a``'s on that row, a box of
``prod(goal + 1 - floors[j])`` boards closed under every turn (:meth:`RaceBox.of_board`; a row
complete on ``a`` stays complete). From a pair ``(a, b)`` the race reaches only the pairs of
``a``'s box against ``b``'s, and their mirrors: the exact race on those pairs
(:func:`.race_solver.solve_race_compiled` with ``floors`` and ``second_floors``) gives the
values of every pair reachable from ``(a, b)`` without the rest of the reduced board. One box
holding both (:meth:`RaceBox.around`, each row from the lesser progress) is a race of one set
of boards; the box of floors zero is the whole reduced board.

A board's index is ``sum_j (s_j - floors[j]) * strides[j]``, ``s_j`` the progress of row
``rows[j]``, the lowest open row varying fastest (the order of
:class:`.fullboard.layout.BoardLayout`, which is the box of floors zero): every move raises
the index.

Example:
    Rows 3 and 8 open; the boards from the pair below have row 3 at least 2 on and row 8
    at least 4 on: 4 x 2 boards.

    >>> from dicemath.games.pegs_fives.rules import PEGS
    >>> board = [5] * 12
    >>> board[2], board[7] = 2, 5
    >>> other = [5] * 12
    >>> other[2], other[7] = 3, 4
    >>> box = RaceBox.around(PEGS, board, other)
    >>> box.rows, box.floors, box.size
    ((3, 8), (2, 4), 8)
    >>> box.board(box.index(other)) == tuple(other)
    True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from dicemath.games.pegs_fives.rules import Rules
from dicemath.games.pegs_fives.state import BoardTuple, InvalidBoardError, check_board, check_open_rows


@dataclass(frozen=True)
class RaceBox:
    """The boards with ``rows`` open whose every row ``rows[j]`` is at least ``floors[j]`` on.

    Attributes:
        rules: the game (its ``goal``: a row's steps).
        rows: the open rows, sorted and distinct.
        floors: per open row, the least progress of a board of the box (``0 .. goal``, a
            row at the goal staying complete; default all 0: the whole reduced board).

    Raises:
        InvalidBoardError: a bad row, or floors not one per row in ``0 .. goal``.
    """

    rules: Rules
    rows: tuple[int, ...]
    floors: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        rows = check_open_rows(self.rows, self.rules)
        floors = tuple(self.floors) or (0,) * len(rows)
        goal = self.rules.goal
        if len(floors) != len(rows) or any(
                isinstance(f, bool) or not isinstance(f, (int, np.integer)) or not 0 <= f <= goal for f in floors):
            raise InvalidBoardError(f"floors must give each of the {len(rows)} open rows a progress 0..{goal}, "
                                    f"got {list(self.floors)}")
        object.__setattr__(self, "rows", rows)
        object.__setattr__(self, "floors", tuple(int(f) for f in floors))

    @classmethod
    def around(cls, rules: Rules, mover: Sequence[int], opponent: Sequence[int]) -> RaceBox:
        """The box of every pair reachable from ``(mover, opponent)``: the rows open on either
        board, each from the lesser progress of the two.

        Raises:
            InvalidBoardError: a bad board, or both boards complete.
        """
        a, b = check_board(mover, rules), check_board(opponent, rules)
        rows = tuple(r for r in range(1, rules.rows + 1) if min(a[r - 1], b[r - 1]) < rules.goal)
        if not rows:
            raise InvalidBoardError("both boards are complete: no race is left")
        return cls(rules, rows, tuple(min(a[r - 1], b[r - 1]) for r in rows))

    @classmethod
    def of_board(cls, rules: Rules, rows: Sequence[int], board: Sequence[int]) -> RaceBox:
        """The boards reachable from ``board`` on the open ``rows`` (``board`` among them).

        Raises:
            InvalidBoardError: a bad board or rows, or a row open on ``board`` outside ``rows``.
        """
        b = check_board(board, rules)
        rows = check_open_rows(rows, rules)
        outside = [r for r, s in enumerate(b, 1) if s < rules.goal and r not in rows]
        if outside:
            raise InvalidBoardError(f"rows {outside} are open on board {list(b)} but the race has only rows "
                                    f"{list(rows)} open")
        return cls(rules, rows, tuple(b[r - 1] for r in rows))

    @property
    def k(self) -> int:
        """Number of axes (open rows)."""
        return len(self.rows)

    @cached_property
    def bases(self) -> tuple[int, ...]:
        """Values per axis: ``goal + 1 - floors[j]``."""
        return tuple(self.rules.goal + 1 - f for f in self.floors)

    @property
    def size(self) -> int:
        """Number of boards."""
        return math.prod(self.bases)

    @cached_property
    def strides(self) -> tuple[int, ...]:
        """The index step of one more step on axis ``j``."""
        return tuple(math.prod(self.bases[:j]) for j in range(self.k))

    def steps(self) -> np.ndarray:
        """``[index, j]``: the progress of row ``rows[j]`` on every board (int64)."""
        index = np.arange(self.size, dtype=np.int64)
        return np.stack([(index // s) % base + f for s, base, f in zip(self.strides, self.bases, self.floors)],
                        axis=1).astype(np.int64)

    def board(self, index: int) -> BoardTuple:
        """The whole board (``rules.rows`` entries) of ``index``; rows not open at the goal.

        Raises:
            InvalidBoardError: not an index of the box.
        """
        if isinstance(index, bool) or not isinstance(index, (int, np.integer)) or not 0 <= index < self.size:
            raise InvalidBoardError(f"board index must be 0..{self.size - 1}, got {index!r}")
        board = [self.rules.goal] * self.rules.rows
        for row, s, base, f in zip(self.rows, self.strides, self.bases, self.floors):
            board[row - 1] = (int(index) // s) % base + f
        return tuple(board)

    def index(self, board: Sequence[int]) -> int:
        """The index of a whole board.

        Raises:
            InvalidBoardError: a bad board, a row below the goal that is not open here, or a
                row behind its floor.
        """
        b = check_board(board, self.rules)
        outside = [r for r, s in enumerate(b, 1) if s < self.rules.goal and r not in self.rows]
        if outside:
            raise InvalidBoardError(f"rows {outside} are open on board {list(b)} but this race has only rows "
                                    f"{list(self.rows)} open")
        behind = [r for r, f in zip(self.rows, self.floors) if b[r - 1] < f]
        if behind:
            raise InvalidBoardError(f"board {list(b)} is behind this race's boards on rows {behind}: they start at "
                                    f"{[f for r, f in zip(self.rows, self.floors) if r in behind]}")
        return sum((b[r - 1] - f) * s for r, f, s in zip(self.rows, self.floors, self.strides))
