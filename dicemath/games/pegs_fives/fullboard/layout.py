"""The layout of a full-board table: which index holds which board (:mod:`.layout`).

A table covers the boards of a game with the rows ``rows`` open (every other row complete,
at the goal; PEGS-1 / FIVES-1). With ``base = goal + 1`` and ``k = len(rows)``, board
``index = sum_j s_j * base**j``, where ``s_j`` is the progress of row ``rows[j]``: the lowest
open row has stride 1. The full board is ``rows = (1, ..., 12)`` (``6**12`` boards).

Every transition that makes progress raises the index, so decreasing index order is a valid
solve order, and boards with the same total progress are mutually independent.

A table is built in *slabs*: the values of the ``top`` highest axes fixed, the lower axes
free. Slab ``t`` reads only slabs whose top digits are componentwise at least ``t``, so a
slab needs only its direct successors (one top digit higher) to be finished.

Example:
    >>> from dicemath.games.pegs_fives.rules import FIVES
    >>> layout = BoardLayout(FIVES, (3, 8))
    >>> layout.size, layout.index(layout.board(14)), layout.board(14)[2], layout.board(14)[7]
    (36, 14, 2, 2)
"""

from __future__ import annotations

from collections.abc import Container, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from dicemath.games.pegs_fives.rules import Rules
from dicemath.games.pegs_fives.state import InvalidBoardError, check_board, check_open_rows

FULL_ROWS = tuple(range(1, 13))
"""The open rows of the full board."""


def kernel_guide(E: np.ndarray, guide: np.ndarray | None) -> np.ndarray:
    """The guide array a kernel reads, as a read-only view: ``guide``, or ``E`` itself for a
    policy without a guide (the kernel then reads none of it). Read-only whether it is an
    array or a memory map opened read-only, so that each table dtype compiles one kernel
    variant.

    Raises:
        ValueError: ``guide`` has another dtype than ``E`` (``driver.guide_for`` converts it).
    """
    if guide is not None and guide.dtype != E.dtype:
        raise ValueError(f"guide must have the dtype of E ({E.dtype}), got {guide.dtype} "
                         "(driver.guide_for converts it)")
    view = (E if guide is None else guide).view()
    view.flags.writeable = False
    return view


@dataclass(frozen=True)
class BoardLayout:
    """Index <-> board for the boards with ``rows`` open.

    Attributes:
        rules: the game (its ``goal`` sets the base).
        rows: the open rows, sorted and distinct (validated on construction).

    Raises:
        InvalidBoardError: a row outside ``1..rules.rows`` or no row at all.
    """

    rules: Rules
    rows: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "rows", check_open_rows(self.rows, self.rules))

    @property
    def base(self) -> int:
        """Values per axis: ``goal + 1``."""
        return self.rules.goal + 1

    @property
    def k(self) -> int:
        """Number of axes (open rows)."""
        return len(self.rows)

    @property
    def size(self) -> int:
        """Number of boards: ``base ** k``."""
        return self.base ** self.k

    @property
    def last(self) -> int:
        """Index of the complete board (every open row at the goal)."""
        return self.size - 1

    @cached_property
    def strides(self) -> tuple[int, ...]:
        """``base ** j`` for each axis ``j``."""
        return tuple(self.base ** j for j in range(self.k))

    def digits(self, index: int) -> tuple[int, ...]:
        """The progress of each open row (axis order) of board ``index``."""
        self.check_index(index)
        return tuple((index // s) % self.base for s in self.strides)

    def check_index(self, index: int) -> int:
        """Return ``index`` if it is a board of this layout.

        Raises:
            InvalidBoardError: not an integer in ``0..size - 1``.
        """
        if isinstance(index, bool) or not isinstance(index, (int, np.integer)) or not 0 <= index < self.size:
            raise InvalidBoardError(f"board index must be 0..{self.size - 1}, got {index!r}")
        return int(index)

    def board(self, index: int) -> tuple[int, ...]:
        """The whole board (``rules.rows`` entries) of ``index``; closed rows at the goal."""
        board = [self.rules.goal] * self.rules.rows
        for row, s in zip(self.rows, self.digits(index)):
            board[row - 1] = s
        return tuple(board)

    def index(self, board: Sequence[int]) -> int:
        """The index of a whole board.

        Raises:
            InvalidBoardError: a bad board, or a row below the goal that is not open here.
        """
        board = check_board(board, self.rules)
        outside = [r for r, s in enumerate(board, 1) if s < self.rules.goal and r not in self.rows]
        if outside:
            raise InvalidBoardError(f"rows {outside} are open on board {board} but this table covers "
                                    f"only open rows {list(self.rows)}")
        return sum(board[r - 1] * stride for r, stride in zip(self.rows, self.strides))

    def totals(self) -> np.ndarray:
        """Total progress of every board (int64 array of length ``size``)."""
        totals = np.zeros(1, dtype=np.int64)
        for _ in range(self.k):
            totals = (totals[None, :] + np.arange(self.base)[:, None]).ravel()
        return totals

    def boards_by_total(self) -> list[np.ndarray]:
        """For each total progress ``0 .. k * goal``, the indices with that total (int64,
        increasing); each list is a set of mutually independent boards."""
        totals = self.totals()
        order = np.argsort(totals, kind="stable")
        bounds = np.searchsorted(totals[order], np.arange(self.k * self.rules.goal + 2))
        return [order[bounds[t]:bounds[t + 1]] for t in range(self.k * self.rules.goal + 1)]

    def slabs(self, top: int) -> SlabPlan:
        """The plan that splits this layout into slabs of the ``top`` highest axes."""
        return SlabPlan(self, top)


@dataclass(frozen=True)
class SlabPlan:
    """A layout cut into slabs: the ``top`` highest axes fixed per slab.

    Slab ``t`` (``0 <= t < base**top``) holds the indices ``t * slab_size + lower`` for every
    ``lower`` index of the ``k - top`` lower axes. Slabs with the same top total are
    mutually independent.

    Attributes:
        layout: the table layout.
        top: number of top axes that name a slab (0: the whole table is one slab).
    """

    layout: BoardLayout
    top: int

    def __post_init__(self) -> None:
        if not isinstance(self.top, int) or not 0 <= self.top <= self.layout.k:
            raise ValueError(f"top must be 0..{self.layout.k}, got {self.top!r}")

    @property
    def count(self) -> int:
        """Number of slabs."""
        return self.layout.base ** self.top

    @property
    def slab_size(self) -> int:
        """Boards per slab."""
        return self.layout.base ** (self.layout.k - self.top)

    @cached_property
    def lower(self) -> BoardLayout | None:
        """The layout of the lower axes (rows of a slab); None when every axis is a top axis."""
        return BoardLayout(self.layout.rules, self.layout.rows[:self.layout.k - self.top]) \
            if self.top < self.layout.k else None

    @cached_property
    def lower_by_total(self) -> list[np.ndarray]:
        """Indices within a slab grouped by the lower axes' total, highest total first."""
        if self.lower is None:
            return [np.zeros(1, dtype=np.int64)]
        return self.lower.boards_by_total()[::-1]

    def top_digits(self, slab: int) -> tuple[int, ...]:
        """The top axes' progress of ``slab``."""
        base = self.layout.base
        return tuple((slab // base ** j) % base for j in range(self.top))

    def successors(self, slab: int) -> list[int]:
        """The slabs one top digit higher than ``slab``: all a slab must wait for."""
        base, goal = self.layout.base, self.layout.rules.goal
        return [slab + base ** j for j, d in enumerate(self.top_digits(slab)) if d < goal]

    def order(self) -> list[int]:
        """Every slab, highest top total first (a valid sequential order)."""
        return sorted(range(self.count), key=lambda t: (-sum(self.top_digits(t)), -t))

    def groups(self, size: int, done: Container[int] = frozenset()) -> list[tuple[int, ...]]:
        """The slabs not ``done`` in groups of at most ``size`` with the same top total
        (mutually independent), highest total first: the lanes of one kernel call."""
        waves: dict[int, list[int]] = {}
        for slab in self.order():
            if slab not in done:
                waves.setdefault(sum(self.top_digits(slab)), []).append(slab)
        return [tuple(wave[i:i + size]) for _, wave in sorted(waves.items(), reverse=True)
                for i in range(0, len(wave), size)]

    def independent_sets(self, slab: int):
        """The board sets of ``slab`` in solve order; each set is mutually independent.

        Yields:
            int64 index arrays (one per lower total, highest first).
        """
        offset = slab * self.slab_size
        for lower in self.lower_by_total:
            yield lower + offset

