"""Fast exact solver: every pair of sides ranked into a dense table, solved without recursion.

The same values as :mod:`~dicemath.games.bohnduell.solver_dict` (``V(me, opp)``, the
mover's future pot gain minus the opponent's under best play; exact small integers stored
as ``int8``), for *every* pair of sides that can occur in a game of at most ``stock`` beans
each, not only the positions reachable from one start.

Layout:

- A *side* ``(stock, c_1..c_n)`` that a player starting with ``S`` beans can have
  (:func:`side_closure`; or every side with ``stock + sum(c) <= S``) gets a rank ``0..NP-1``;
  ranks are sorted by the side's potential ``K = (n + 1) * stock + sum(d * c_d)`` (the
  distance of its beans to the pot, see :mod:`~dicemath.games.bohnduell.state`), so the
  sides of one potential form a contiguous block. All sides: ``NP = C(S + n + 1, n + 1)``;
  reachable sides: about half as many, so a quarter of the positions.
- A position is the pair ``(mover, other)`` in one ``int8`` array (1 byte per position),
  laid out in blocks ``(K(mover), K(other))``: the blocks ordered by ``Phi = K(mover) +
  K(other)`` and, inside one ``Phi``, by ``K(other)``; inside a block mover-major
  (:meth:`SideIndex.position`). The positions of one ``Phi`` are one contiguous range
  (:attr:`SideIndex.phi_starts`), the unit a table larger than memory is built and written in
  (:mod:`~dicemath.games.bohnduell.strong_table`).
- Every move lowers ``Phi = K(mover) + K(other)`` except a pass, which keeps it. The
  kernel sweeps ``Phi = 0, 1, ...``; inside one ``Phi`` it first solves the positions
  where the mover has a move (their successors have a smaller ``Phi``, already solved),
  then those where the mover must pass (their successor, the same sides swapped, was just
  solved). No recursion, no hashing; the sweep over one ``Phi`` keeps the opponent's side
  in the outer loop so the successors read lie in a few rows of the table.
- The kernels are C (``_dense_c.c``, compiled when the package is installed), their rules
  (``_dense_c_sides.h``) the twin of :mod:`~dicemath.games.bohnduell.sides`, function for
  function, which the rules engine runs in Python. The tests check the table against the
  engine: the memoised search of :mod:`~dicemath.games.bohnduell.solver_dict` on every pair
  of sides of small games, and the core's generic search
  (:func:`dicemath.core.search.expectimax`).

Example:
    >>> from dicemath.games.bohnduell.state import initial_state
    >>> table = solve_dense(Rules(cups=4, stock=6))
    >>> start = initial_state(table.rules_for(6))
    >>> table.position_value(start)
    -1
    >>> {str(m): v for m, v in table.move_values(start).items()}
    {'S1': -1, 'S2': -2, 'S3': -5, 'S4': -8}
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from math import comb

import numpy as np

from dicemath.core.cache import cached_arrays
from dicemath.core.errors import InvalidStateError
from dicemath.games.bohnduell import _dense_c  # type: ignore[attr-defined]  # C extension, no stubs
from dicemath.games.bohnduell.limits import MAX_TABLE_STOCK
from dicemath.games.bohnduell.rules import Rules
from dicemath.games.bohnduell.sides import can_move
from dicemath.games.bohnduell.state import HARVEST, PASS_MOVE, SOW, Move, Side, State, play_side, side_moves

LAYOUT = "phi-blocks-1"
"""The version of the table's layout (:class:`SideIndex`): part of a stored table's version."""

MAX_MEMORY_POSITIONS = 12_000_000_000
"""The largest table :func:`solve_dense` builds in memory (one byte a position, 12 GB); a
larger one is built on disk (``dicemath bohnduell table build``)."""

MAX_CODE_SPACE = 1 << 27
"""Largest ``(S + 1) ** (n + 1)`` for which the code-to-rank lookup array is built."""


def side_count(cups: int, stock: int) -> int:
    """The number of sides ``(stock, c_1..c_n)`` with at most ``stock`` beans."""
    return comb(stock + cups + 1, cups + 1)


def side_closure(cups: int, stock: int) -> set[Side]:
    """Every side a player starting with ``stock`` beans can ever have (a superset).

    Closes ``(stock, 0, ..., 0)`` under his own sows (BOHN-3) and harvests (BOHN-5) and
    under emptying any one cup (the opponent's captures, BOHN-4; several captures of the
    ``every`` variant are a sequence of these). The set is closed under every move, holds
    the start of every smaller stock (sow one bean, have it captured), and is about half
    of all sides with at most ``stock`` beans: a side with ``s`` beans in stock can never
    hold beans near the pot that were not sown there from the far end.

    Example:
        >>> len(side_closure(4, 3)), side_count(4, 3)
        (19, 56)
        >>> (1, 1, 0, 0, 0) in side_closure(4, 3)   # needs a sow of 4: only 3 beans
        False
    """
    start = (stock,) + (0,) * cups
    seen = {start}
    stack = [start]
    while stack:
        side = stack.pop()
        following = []
        for d in range(1, cups + 1):
            if side[d] == d:
                following.append(play_side(side, side, Move(HARVEST, d))[1])
            if side[d]:
                following.append(side[:d] + (0,) + side[d + 1:])
        for k in range(1, min(cups, side[0]) + 1):
            following.append(play_side(side, (0,) * (cups + 1), Move(SOW, k))[1])
        for nxt in following:
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return seen


def ranked_sides(cups: int, stock: int, sides: str = "reachable") -> np.ndarray:
    """The sides of a :class:`SideIndex` in rank order: by potential, then as tuples.

    Args:
        sides: ``"all"`` (every ``(stock, c_1..c_n)`` with at most ``stock`` beans) or
            ``"reachable"`` (only those in :func:`side_closure`).

    Example:
        >>> ranked_sides(4, 1).tolist()
        [[0, 0, 0, 0, 0], [0, 0, 0, 0, 1], [1, 0, 0, 0, 0]]
    """
    n = cups
    if sides == "all":
        found = [s for s in itertools.product(range(stock + 1), repeat=n + 1) if sum(s) <= stock]
    else:
        found = list(side_closure(cups, stock))
    potentials = [(n + 1) * s[0] + sum(d * s[d] for d in range(1, n + 1)) for s in found]
    order = sorted(range(len(found)), key=lambda i: (potentials[i], found[i]))
    return np.array([found[i] for i in order], dtype=np.int64).reshape(-1, n + 1)


_KERNEL_DTYPES = (np.int64, np.int64, np.int32, np.int64, np.int64, np.int64, np.bool_)
"""The dtypes of :meth:`SideIndex.kernel_arrays`."""


SIDES_FORMAT = 1
"""The format version of the cached table ``bohnduell-sides``: change it when its computation or layout changes."""


@dataclass
class SideIndex:
    """The ranking of sides: arrays shared by the kernel and the Python look-ups.

    Attributes:
        cups, stock: ``n`` and ``S``.
        sides: ``int64[NP, n + 1]``, the side of each rank.
        powers: ``int64[n + 1]``, ``(S + 1) ** j``: a side's mixed-radix code is
            ``sum side[j] * powers[j]``.
        rank: ``int32[(S + 1) ** (n + 1)]``, the rank of each code (-1: not a side).
        starts: ``int64[Kmax + 2]``; ranks ``starts[K] .. starts[K + 1] - 1`` have potential K.
        movable: ``bool[NP]``, whether the side's owner has a move.
        potentials: ``int64[NP]``, the potential ``K`` of each rank.
        block_offsets: ``int64[Kmax + 1, Kmax + 1]``, the index of the first position of
            block ``(K(mover), K(other))``.
        phi_starts: ``int64[2 Kmax + 2]``; positions ``phi_starts[Phi] .. phi_starts[Phi + 1] - 1``
            have potential ``Phi``.
    """

    cups: int
    stock: int
    sides: np.ndarray = field(repr=False)
    powers: np.ndarray = field(repr=False)
    rank: np.ndarray = field(repr=False)
    starts: np.ndarray = field(repr=False)
    movable: np.ndarray = field(repr=False)
    potentials: np.ndarray = field(repr=False)
    block_offsets: np.ndarray = field(repr=False)
    phi_starts: np.ndarray = field(repr=False)

    @classmethod
    def build(cls, cups: int, stock: int, sides: str = "reachable") -> SideIndex:
        """Rank the sides of ``cups`` cups with at most ``stock`` beans (:func:`ranked_sides`,
        kept in the on-disk cache: a large index is computed once).

        Args:
            sides: ``"all"`` (every ``(stock, c_1..c_n)`` with at most ``stock`` beans) or
                ``"reachable"`` (default: only those in :func:`side_closure`, about half).
        """
        base = stock + 1
        if base ** (cups + 1) > MAX_CODE_SPACE:
            raise InvalidStateError(
                f"the dense solver's look-up for cups={cups}, stock={stock} needs "
                f"{base ** (cups + 1)} entries (limit {MAX_CODE_SPACE}); use fewer beans")
        if sides not in ("all", "reachable"):
            raise InvalidStateError(f"sides must be 'all' or 'reachable', got {sides!r}")
        n = cups
        ranked = cached_arrays("bohnduell-sides", (cups, stock, sides),
                               lambda: {"sides": ranked_sides(cups, stock, sides)},
                               format_version=SIDES_FORMAT)["sides"]
        potentials = ranked @ np.array([n + 1, *range(1, n + 1)], dtype=np.int64)   # K of each rank
        powers = base ** np.arange(n + 1, dtype=np.int64)
        rank = np.full(base ** (n + 1), -1, dtype=np.int32)
        rank[ranked @ powers] = np.arange(len(ranked), dtype=np.int32)
        counts = np.bincount(potentials, minlength=(n + 1) * stock + 1)
        starts = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        movable = (ranked[:, 0] > 0) | np.any(ranked[:, 1:] == np.arange(1, n + 1), axis=1)  # BOHN-3, BOHN-5
        return cls(cups, stock, ranked, powers, rank, starts, movable, *block_layout(starts))

    @property
    def size(self) -> int:
        """``NP``, the number of ranked sides."""
        return int(self.sides.shape[0])

    @property
    def kmax(self) -> int:
        """The largest side potential, ``(n + 1) * S``."""
        return int(self.starts.shape[0] - 2)

    def kernel_arrays(self) -> tuple[np.ndarray, ...]:
        """The index as every kernel of ``_dense_c`` takes it: ``sides, powers, rank,
        potentials, starts, block_offsets, movable``, C-contiguous in the dtypes above."""
        arrays = (self.sides, self.powers, self.rank, self.potentials, self.starts, self.block_offsets, self.movable)
        return tuple(np.ascontiguousarray(a, dtype=t) for a, t in zip(arrays, _KERNEL_DTYPES))

    def potential_ranks(self, phi: int) -> tuple[int, int]:
        """The ranks ``first, last`` (``last`` excluded) of the other sides of the positions of ``Phi = phi``."""
        kmax = self.kmax
        return int(self.starts[max(phi - kmax, 0)]), int(self.starts[min(phi, kmax) + 1])

    def position(self, me: int, opp: int) -> int:
        """The table index of the position ``(mover's rank, other's rank)``."""
        k_me, k_opp = int(self.potentials[me]), int(self.potentials[opp])
        width = int(self.starts[k_opp + 1] - self.starts[k_opp])
        return (int(self.block_offsets[k_me, k_opp]) + (me - int(self.starts[k_me])) * width
                + opp - int(self.starts[k_opp]))

    def decode(self, indices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The ranks ``(mover, other)`` of the positions at table ``indices`` (the inverse of :meth:`position`)."""
        indices = np.asarray(indices, dtype=np.int64)
        kmax = self.kmax
        counts = np.diff(self.starts)
        flat = self.block_offsets.ravel()
        filled = np.flatnonzero(np.outer(counts, counts).ravel())      # empty blocks share their offset
        filled = filled[np.argsort(flat[filled], kind="stable")]
        block = filled[np.searchsorted(flat[filled], indices, side="right") - 1]
        k_me, k_opp = block // (kmax + 1), block % (kmax + 1)
        width = self.starts[k_opp + 1] - self.starts[k_opp]
        local = indices - flat[block]
        return self.starts[k_me] + local // width, self.starts[k_opp] + local % width

    def code(self, side: Side) -> int:
        """The mixed-radix code of ``side``."""
        return sum(v * int(p) for v, p in zip(side, self.powers))

    def contains(self, side: Side) -> bool:
        """Whether ``side`` has a rank in this index."""
        return (len(side) == self.cups + 1 and min(side) >= 0 and sum(side) <= self.stock
                and self.rank[self.code(side)] >= 0)

    def rank_of(self, side: Side) -> int:
        """The rank of ``side``; raises if it is not in the index."""
        if not self.contains(side):
            raise InvalidStateError(f"side {side} is outside the table (cups={self.cups}, "
                                    f"at most {self.stock} beans per side, reachable sides only "
                                    "unless built with sides='all')")
        return int(self.rank[self.code(side)])


def block_layout(starts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The potential of each rank, the block offsets and the ``Phi`` starts of the table
    whose ranks of potential ``K`` are ``starts[K] .. starts[K + 1] - 1`` (see :class:`SideIndex`).

    Example:
        >>> potentials, offsets, phi_starts = block_layout(np.array([0, 1, 3]))   # K=0: 1 side, K=1: 2
        >>> potentials.tolist(), offsets.tolist(), phi_starts.tolist()
        ([0, 1, 1], [[0, 3], [1, 5]], [0, 1, 5, 9])
    """
    counts = np.diff(starts).astype(np.int64)
    kmax = counts.size - 1
    potentials = np.repeat(np.arange(kmax + 1, dtype=np.int64), counts)
    offsets = np.zeros((kmax + 1, kmax + 1), dtype=np.int64)
    phi_starts = np.zeros(2 * kmax + 2, dtype=np.int64)
    at = 0
    for phi in range(2 * kmax + 1):
        phi_starts[phi] = at
        for k_opp in range(max(phi - kmax, 0), min(phi, kmax) + 1):
            offsets[phi - k_opp, k_opp] = at
            at += int(counts[phi - k_opp] * counts[k_opp])
    phi_starts[-1] = at
    return potentials, offsets, phi_starts


_BITS = np.array([bin(i).count("1") for i in range(256)], dtype=np.uint8)


def popcount(bits: np.ndarray) -> int:
    """Number of set bits of a ``uint8`` bit array (in chunks, no unpacked copy)."""
    total = 0
    for start in range(0, bits.size, 1 << 24):
        total += int(_BITS[bits[start:start + (1 << 24)]].sum(dtype=np.int64))
    return total


@dataclass
class DenseTable:
    """Exact values of every position whose sides hold at most ``stock`` beans each.

    Attributes:
        cups, stock, capture: the variant (``stock`` is the per-side bean bound ``S``).
        index: the ranking of sides.
        values: ``int8[NP * NP]``; ``values[r(me) * NP + r(opp)] = V(me, opp)``.
        seconds: time of the sweep.
    """

    cups: int
    stock: int
    capture: str
    index: SideIndex = field(repr=False)
    values: np.ndarray = field(repr=False)
    seconds: float = 0.0

    @property
    def positions(self) -> int:
        """Number of positions in the table (``NP ** 2``)."""
        return int(self.values.size)

    @property
    def nbytes(self) -> int:
        """Bytes of the value table and the side index."""
        ix = self.index
        return int(self.values.nbytes + ix.sides.nbytes + ix.powers.nbytes + ix.rank.nbytes
                   + ix.starts.nbytes + ix.movable.nbytes + ix.potentials.nbytes + ix.block_offsets.nbytes)

    def rules_for(self, stock: int) -> Rules:
        """The rules of a game with ``stock`` beans each that this table solves."""
        if stock > self.stock:
            raise InvalidStateError(f"this table covers stocks up to {self.stock}, not {stock}")
        return Rules(cups=self.cups, stock=stock, capture=self.capture)

    def covers(self, position: State) -> bool:
        """Whether ``position`` (its variant and both sides) lies in the table."""
        return (position.rules.cups == self.cups and position.rules.capture == self.capture
                and all(self.index.contains(position.side(p)) for p in (0, 1)))

    def value(self, me: Side, opp: Side) -> int:
        """``V(me, opp)``: future pot difference from the mover's view."""
        index = self.index
        return int(self.values[index.position(index.rank_of(me), index.rank_of(opp))])

    def position_value(self, position: State) -> int:
        """Final pot difference (mover minus other) under best play from ``position``."""
        self._check(position)
        me, other = position.to_move, 1 - position.to_move
        return position.pots[me] - position.pots[other] + self.value(*position.mover_sides)

    def move_values(self, position: State) -> dict[Move, int]:
        """For each legal move: the final pot difference (mover's view) after best play."""
        self._check(position)
        me_side, opp_side = position.mover_sides
        base = position.pots[position.to_move] - position.pots[1 - position.to_move]
        every = self.capture == "every"
        result = {}
        moves = side_moves(me_side)
        if not moves:
            return {PASS_MOVE: base - self.value(opp_side, me_side)} if can_move(opp_side) else {}
        for move in moves:
            gain, mine, theirs = play_side(me_side, opp_side, move, every)
            result[move] = base + gain - self.value(theirs, mine)
        return result

    def principal_variation(self, position: State, max_moves: int = 1000) -> list[tuple[Move, State]]:
        """A line of best play from ``position`` to the end: ``(move, position after)``.

        Ties are broken by the move order of :meth:`State.legal_actions`.
        """
        line: list[tuple[Move, State]] = []
        while not position.is_over() and len(line) < max_moves:
            values = self.move_values(position)
            best = max(values.values())
            move = next(m for m in position.legal_actions() if values[m] == best)
            position = position.apply(move)
            line.append((move, position))
        return line

    def reachable(self, stock: int | None = None) -> np.ndarray:
        """Bit array (``uint8[ceil(NP^2 / 8)]``) of the positions reachable from the start
        with ``stock`` beans each (default: the table's own bound)."""
        stock = self.stock if stock is None else stock
        ix = self.index
        start = ix.rank_of((stock,) + (0,) * self.cups)
        seen = np.zeros((self.positions + 7) // 8, dtype=np.uint8)
        _dense_c.reach(start, start, self.capture == "every", *ix.kernel_arrays(), seen)
        return seen

    def reachable_count(self, stock: int | None = None) -> int:
        """Number of positions reachable from the start with ``stock`` beans each."""
        return popcount(self.reachable(stock))

    def overfill_stats(self, stock: int | None = None) -> dict:
        """What best play says about "never put more beans in a cup than its distance".

        Over the positions reachable from the start (``stock`` beans each) where the mover
        can choose between a move that puts a bean into a cup already holding its distance
        (making it unharvestable, BOHN-5) and one that does not, counts how often the best
        overfilling move is strictly better, equal, or worse than the best clean move, and
        the mean loss (beans of final pot difference) when it is worse.
        """
        better, tie, worse, loss, total = _dense_c.overfill_scan(
            self.capture == "every", *self.index.kernel_arrays(), np.asarray(self.values), self.reachable(stock))
        return {"positions": total, "overfill_better": better, "tie": tie, "overfill_worse": worse,
                "mean_loss_when_worse": loss / worse if worse else 0.0}

    def _check(self, position: State) -> None:
        if not self.covers(position):
            raise InvalidStateError(
                f"position {position} is outside this table (cups={self.cups}, "
                f"capture={self.capture!r}, at most {self.stock} beans per side, sides "
                "reachable from a start unless built with sides='all')")


def solve_dense(rules: Rules, sides: str = "reachable") -> DenseTable:
    """Solve every position with at most ``rules.stock`` beans per side (float-free, exact ints).

    Args:
        rules: the variant (cups, BOHN-1; capture, BOHN-4); its ``stock`` is the per-side
            bound ``S``: the table answers every game of stock ``<= S``.
        sides: ``"reachable"`` (default; the sides of :func:`side_closure`, a quarter of
            the positions) or ``"all"`` (every side with at most ``S`` beans, so any
            valid position of those sizes can be looked up).

    Returns:
        The :class:`DenseTable` (``NP ** 2`` bytes of values).

    Raises:
        InvalidStateError: ``rules.stock`` above :data:`MAX_TABLE_STOCK`, too large for the
            index, or a table over :data:`MAX_MEMORY_POSITIONS` (build it on disk instead).

    Example:
        >>> from dicemath.games.bohnduell.state import initial_state
        >>> solve_dense(Rules(stock=3)).position_value(initial_state(Rules(stock=3)))
        0
    """
    cups, stock, capture = rules.cups, rules.stock, rules.capture
    if stock > MAX_TABLE_STOCK:
        raise InvalidStateError(f"the dense table stores values as int8: stock must be <= "
                                f"{MAX_TABLE_STOCK}, got {stock}")
    index = SideIndex.build(cups, stock, sides)
    if index.size ** 2 > MAX_MEMORY_POSITIONS:
        raise InvalidStateError(
            f"the table of {stock} beans a side has {index.size ** 2:,} positions, more than the "
            f"{MAX_MEMORY_POSITIONS:,} solved in memory; build it on disk with 'dicemath bohnduell table build "
            f"--stock {stock}'")
    values = np.zeros(index.size ** 2, dtype=np.int8)
    arrays = index.kernel_arrays()
    start = time.perf_counter()
    for phi in range(2 * index.kmax + 1):          # in order of Phi: a move's successor has a smaller one
        first_rank, last_rank = index.potential_ranks(phi)
        first, last = int(index.phi_starts[phi]), int(index.phi_starts[phi + 1])
        moves = np.empty(last - first, dtype=np.int8)
        _dense_c.solve_moves(phi, first_rank, last_rank, rules.every, *arrays, values, moves, first)
        values[first:last] = moves                    # the pass positions' entries are set next
        _dense_c.solve_passes(phi, first_rank, last_rank, *arrays, values)
    return DenseTable(cups, stock, capture, index, values, time.perf_counter() - start)


DENSE_FORMAT = 1
"""The format version of the cached table ``bohnduell-dense``: change it when its computation or layout changes."""


def load_dense(rules: Rules, sides: str = "reachable", *, use_cache: bool = True) -> DenseTable:
    """:func:`solve_dense`, its value array kept in the on-disk cache (:mod:`dicemath.core.cache`).

    Example:
        >>> from dicemath.games.bohnduell.state import initial_state
        >>> load_dense(Rules(stock=3)).position_value(initial_state(Rules(stock=3)))
        0
    """
    cups, stock, capture = rules.cups, rules.stock, rules.capture
    built = {}

    def build() -> dict[str, np.ndarray]:
        built["table"] = solve_dense(rules, sides)
        return {"values": built["table"].values}

    arrays = cached_arrays("bohnduell-dense", (rules, sides), build, format_version=DENSE_FORMAT, use_cache=use_cache)
    if "table" in built:
        return built["table"]
    return DenseTable(cups, stock, capture, SideIndex.build(cups, stock, sides), arrays["values"])
