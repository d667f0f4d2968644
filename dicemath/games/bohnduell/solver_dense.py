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
- A position is the pair ``(mover, other)`` at index ``mover * NP + other`` of one
  ``int8`` array (1 byte per position).
- Every move lowers ``Phi = K(mover) + K(other)`` except a pass, which keeps it. The
  kernel sweeps ``Phi = 0, 1, ...``; inside one ``Phi`` it first solves the positions
  where the mover has a move (their successors have a smaller ``Phi``, already solved),
  then those where the mover must pass (their successor, the same sides swapped, was just
  solved). No recursion, no hashing; the sweep over one ``Phi`` keeps the opponent's side
  in the outer loop so the successors read lie in a few rows of the table.

Example:
    >>> table = solve_dense(cups=4, stock=6)
    >>> start = table.rules_for(6).initial()
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
from numba import njit

from dicemath.core.cache import cached_arrays
from dicemath.core.errors import InvalidStateError
from dicemath.games.bohnduell.rules import BohnRules
from dicemath.games.bohnduell.state import (HARVEST, PASS_MOVE, SOW, Move, Position, Side, can_move,
                                            play_side, side_moves)

MAX_TABLE_STOCK = 63
"""Values lie in ``[-2S, 2S]``; ``int8`` holds them up to this stock."""

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


@dataclass
class SideIndex:
    """The ranking of sides: arrays shared by the kernel and the Python look-ups.

    Attributes:
        cups, stock: ``n`` and ``S``.
        sides: ``int64[NP, n + 1]``, the side of each rank.
        codes: ``int64[NP]``, the mixed-radix code ``sum side[j] * (S + 1) ** j``.
        rank: ``int32[(S + 1) ** (n + 1)]``, the rank of each code (-1: not a side).
        starts: ``int64[Kmax + 2]``; ranks ``starts[K] .. starts[K + 1] - 1`` have potential K.
        movable: ``bool[NP]``, whether the side's owner has a move.
    """

    cups: int
    stock: int
    sides: np.ndarray = field(repr=False)
    codes: np.ndarray = field(repr=False)
    rank: np.ndarray = field(repr=False)
    starts: np.ndarray = field(repr=False)
    movable: np.ndarray = field(repr=False)

    @classmethod
    def build(cls, cups: int, stock: int, sides: str = "reachable") -> SideIndex:
        """Rank the sides of ``cups`` cups with at most ``stock`` beans.

        Args:
            sides: ``"all"`` (every ``(stock, c_1..c_n)`` with at most ``stock`` beans) or
                ``"reachable"`` (default: only those in :func:`side_closure`, about half).
        """
        base = stock + 1
        if base ** (cups + 1) > MAX_CODE_SPACE:
            raise InvalidStateError(
                f"the dense solver's look-up for cups={cups}, stock={stock} needs "
                f"{base ** (cups + 1)} entries (limit {MAX_CODE_SPACE}); use fewer beans")
        n = cups
        if sides == "all":
            found = [s for s in itertools.product(range(stock + 1), repeat=n + 1) if sum(s) <= stock]
        elif sides == "reachable":
            found = list(side_closure(cups, stock))
        else:
            raise InvalidStateError(f"sides must be 'all' or 'reachable', got {sides!r}")
        potentials = [(n + 1) * s[0] + sum(d * s[d] for d in range(1, n + 1)) for s in found]
        order = sorted(range(len(found)), key=lambda i: (potentials[i], found[i]))
        ranked = np.array([found[i] for i in order], dtype=np.int64).reshape(-1, n + 1)
        powers = base ** np.arange(n + 1, dtype=np.int64)
        codes = ranked @ powers
        rank = np.full(base ** (n + 1), -1, dtype=np.int32)
        rank[codes] = np.arange(len(ranked), dtype=np.int32)
        kmax = (n + 1) * stock
        counts = np.bincount([potentials[i] for i in order], minlength=kmax + 1)
        starts = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        movable = np.array([can_move(tuple(s)) for s in ranked.tolist()], dtype=np.bool_)
        return cls(cups, stock, ranked, codes, rank, starts, movable)

    def code(self, side: Side) -> int:
        return sum(v * (self.stock + 1) ** j for j, v in enumerate(side))

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


@njit(cache=True)
def _best(me, opp, n, every, base, sides, codes, rank, values, np_):
    """Best ``gain - V(successor)`` of a mover with a move (BOHN-3, -4, -5)."""
    best = -128
    stock = sides[me, 0]
    code_me = codes[me]
    code_opp = codes[opp]
    # harvests: cup d holding exactly d beans
    power = 1
    for d in range(1, n + 1):
        power *= base
        if sides[me, d] == d:
            new = code_me - d * power
            p = base
            for j in range(1, d):
                new += p
                p *= base
            value = 1 - values[np.int64(rank[code_opp]) * np_ + rank[new]]
            if value > best:
                best = value
    # sows of k beans into distances n .. n-k+1
    top = n if stock > n else stock
    new_me = code_me
    new_opp = code_opp
    gain = 0
    power = base ** n
    for k in range(1, top + 1):
        d = n - k + 1
        new_me += power - 1          # one more bean in cup d, one fewer in stock
        power //= base
        was_empty = sides[me, d] == 0
        # the k-sow equals the (k-1)-sow plus cup d; captures of "every" accumulate
        captured_here = 0
        if was_empty:
            f = n + 1 - d
            captured_here = sides[opp, f]
        if every:
            gain_k = gain + captured_here
            opp_k = new_opp - captured_here * base ** f if was_empty else new_opp
            gain = gain_k
            new_opp = opp_k
        else:
            gain_k = captured_here
            opp_k = code_opp - captured_here * base ** (n + 1 - d) if was_empty else code_opp
        value = gain_k - values[np.int64(rank[opp_k]) * np_ + rank[new_me]]
        if value > best:
            best = value
    return best


@njit(cache=True)
def _sweep(n, every, base, sides, codes, rank, starts, movable, values):
    """Solve every position in order of the potential ``Phi`` (module docstring)."""
    np_ = np.int64(sides.shape[0])
    kmax = starts.shape[0] - 2
    for phi in range(2 * kmax + 1):
        lo = phi - kmax if phi > kmax else 0
        hi = phi if phi < kmax else kmax
        for phase in range(2):
            for k_opp in range(lo, hi + 1):
                k_me = phi - k_opp
                for opp in range(starts[k_opp], starts[k_opp + 1]):
                    for me in range(starts[k_me], starts[k_me + 1]):
                        if phase == 0:
                            if movable[me]:
                                values[me * np_ + opp] = _best(me, opp, n, every, base, sides,
                                                               codes, rank, values, np_)
                        elif not movable[me]:
                            if movable[opp]:
                                values[me * np_ + opp] = -values[opp * np_ + me]
                            else:
                                values[me * np_ + opp] = 0


@njit(cache=True)
def _moves(me, opp, n, every, base, sides, codes, rank, values, np_, out_value, out_over):
    """Every sow and harvest of the mover: value (``gain - V(next)``) and whether it puts a
    bean into an own cup that already holds its distance (an "overfill", BOHN-5).
    Order: harvests by distance, then sows by k. Returns the number of moves."""
    count = 0
    code_me = codes[me]
    code_opp = codes[opp]
    for d in range(1, n + 1):
        if sides[me, d] == d:
            new = code_me - d * base ** d
            over = False
            for j in range(1, d):
                new += base ** j
                if sides[me, j] == j:
                    over = True
            out_value[count] = 1 - values[np.int64(rank[code_opp]) * np_ + rank[new]]
            out_over[count] = over
            count += 1
    stock = sides[me, 0]
    top = n if stock > n else stock
    for k in range(1, top + 1):
        new_me = code_me - k
        new_opp = code_opp
        gain = 0
        over = False
        for d in range(n, n - k, -1):
            new_me += base ** d
            if sides[me, d] == d:
                over = True
            if sides[me, d] == 0 and (every or d == n - k + 1):
                f = n + 1 - d
                gain += sides[opp, f]
                new_opp -= sides[opp, f] * base ** f
        out_value[count] = gain - values[np.int64(rank[new_opp]) * np_ + rank[new_me]]
        out_over[count] = over
        count += 1
    return count


@njit(cache=True)
def _reach(start_me, start_opp, n, every, base, sides, codes, rank, starts, movable, seen):
    """Mark (bit array ``seen``) every position reachable from ``(start_me, start_opp)``.

    Sweeps ``Phi`` downwards; inside one ``Phi`` the passes first (they lead to the same
    ``Phi``). Returns the number of reachable positions.
    """
    np_ = np.int64(sides.shape[0])
    kmax = starts.shape[0] - 2
    first = start_me * np_ + start_opp
    seen[first >> 3] |= np.uint8(1 << (first & 7))
    total = 0
    for phi in range(2 * kmax, -1, -1):
        lo = phi - kmax if phi > kmax else 0
        hi = phi if phi < kmax else kmax
        for phase in range(2):
            for k_opp in range(lo, hi + 1):
                k_me = phi - k_opp
                for opp in range(starts[k_opp], starts[k_opp + 1]):
                    for me in range(starts[k_me], starts[k_me + 1]):
                        if movable[me] == (phase == 0):
                            continue
                        i = me * np_ + opp
                        if not (seen[i >> 3] >> (i & 7)) & 1:
                            continue
                        total += 1
                        if phase == 0:
                            if movable[opp]:
                                j = opp * np_ + me
                                seen[j >> 3] |= np.uint8(1 << (j & 7))
                            continue
                        code_me = codes[me]
                        code_opp = codes[opp]
                        for d in range(1, n + 1):
                            if sides[me, d] == d:
                                new = code_me - d * base ** d
                                for q in range(1, d):
                                    new += base ** q
                                j = np.int64(rank[code_opp]) * np_ + rank[new]
                                seen[j >> 3] |= np.uint8(1 << (j & 7))
                        top = n if sides[me, 0] > n else sides[me, 0]
                        for k in range(1, top + 1):
                            new_me = code_me - k
                            new_opp = code_opp
                            for d in range(n, n - k, -1):
                                new_me += base ** d
                                if sides[me, d] == 0 and (every or d == n - k + 1):
                                    f = n + 1 - d
                                    new_opp -= sides[opp, f] * base ** f
                            j = np.int64(rank[new_opp]) * np_ + rank[new_me]
                            seen[j >> 3] |= np.uint8(1 << (j & 7))
    return total


@njit(cache=True)
def _overfill_scan(n, every, base, sides, codes, rank, starts, movable, values, seen):
    """Over reachable positions offering both an overfilling and a clean move: counts of
    (overfill strictly best, tie, strictly worse) and the summed loss of the best
    overfilling move against the best move."""
    np_ = np.int64(sides.shape[0])
    out_value = np.zeros(2 * n + 1, dtype=np.int64)
    out_over = np.zeros(2 * n + 1, dtype=np.bool_)
    result = np.zeros(5, dtype=np.int64)   # better, tie, worse, summed loss, positions
    for me in range(sides.shape[0]):
        if not movable[me]:
            continue
        for opp in range(sides.shape[0]):
            i = me * np_ + opp
            if not (seen[i >> 3] >> (i & 7)) & 1:
                continue
            count = _moves(me, opp, n, every, base, sides, codes, rank, values, np_,
                           out_value, out_over)
            best_over = -1000
            best_clean = -1000
            for m in range(count):
                if out_over[m]:
                    best_over = max(best_over, out_value[m])
                else:
                    best_clean = max(best_clean, out_value[m])
            if best_over == -1000 or best_clean == -1000:
                continue
            result[4] += 1
            if best_over > best_clean:
                result[0] += 1
            elif best_over == best_clean:
                result[1] += 1
            else:
                result[2] += 1
                result[3] += best_clean - best_over
    return result


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
        return int(self.values.nbytes + ix.sides.nbytes + ix.codes.nbytes + ix.rank.nbytes
                   + ix.starts.nbytes + ix.movable.nbytes)

    def rules_for(self, stock: int) -> BohnRules:
        """The rules of a game with ``stock`` beans each that this table solves."""
        if stock > self.stock:
            raise InvalidStateError(f"this table covers stocks up to {self.stock}, not {stock}")
        return BohnRules(cups=self.cups, stock=stock, capture=self.capture)

    def covers(self, position: Position) -> bool:
        """Whether ``position`` (its variant and both sides) lies in the table."""
        return (position.rules.cups == self.cups and position.rules.capture == self.capture
                and all(self.index.contains(position.side(p)) for p in (0, 1)))

    def value(self, me: Side, opp: Side) -> int:
        """``V(me, opp)``: future pot difference from the mover's view."""
        np_ = self.index.sides.shape[0]
        return int(self.values[self.index.rank_of(me) * np_ + self.index.rank_of(opp)])

    def position_value(self, position: Position) -> int:
        """Final pot difference (mover minus other) under best play from ``position``."""
        self._check(position)
        me, other = position.to_move, 1 - position.to_move
        return position.pots[me] - position.pots[other] + self.value(*position.mover_sides)

    def move_values(self, position: Position) -> dict[Move, int]:
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

    def principal_variation(self, position: Position, max_moves: int = 1000) -> list[tuple[Move, Position]]:
        """A line of best play from ``position`` to the end: ``(move, position after)``.

        Ties are broken by the move order of :meth:`Position.legal_actions`.
        """
        line = []
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
        _reach(np.int64(start), np.int64(start), self.cups, self.capture == "every", self.stock + 1,
               ix.sides, ix.codes, ix.rank, ix.starts, ix.movable, seen)
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
        ix = self.index
        better, tie, worse, loss, total = _overfill_scan(
            self.cups, self.capture == "every", self.stock + 1, ix.sides, ix.codes, ix.rank,
            ix.starts, ix.movable, self.values, self.reachable(stock)).tolist()
        return {"positions": total, "overfill_better": better, "tie": tie, "overfill_worse": worse,
                "mean_loss_when_worse": loss / worse if worse else 0.0}

    def _check(self, position: Position) -> None:
        if not self.covers(position):
            raise InvalidStateError(
                f"position {position} is outside this table (cups={self.cups}, "
                f"capture={self.capture!r}, at most {self.stock} beans per side, sides "
                "reachable from a start unless built with sides='all')")


def solve_dense(cups: int = 4, stock: int = 10, capture: str = "last", sides: str = "reachable") -> DenseTable:
    """Solve every position with at most ``stock`` beans per side (float-free, exact ints).

    Args:
        cups: cups per row (BOHN-1).
        stock: the per-side bound ``S``; the table answers every game of stock ``<= S``.
        capture: ``"last"`` or ``"every"`` (BOHN-4).
        sides: ``"reachable"`` (default; the sides of :func:`side_closure`, a quarter of
            the positions) or ``"all"`` (every side with at most ``stock`` beans, so any
            valid position of those sizes can be looked up).

    Returns:
        The :class:`DenseTable` (``NP ** 2`` bytes of values).

    Raises:
        InvalidRulesError: an invalid variant.
        InvalidStateError: ``stock`` above :data:`MAX_TABLE_STOCK` or too large for the index.
    """
    rules = BohnRules(cups=cups, stock=stock, capture=capture)
    if stock > MAX_TABLE_STOCK:
        raise InvalidStateError(f"the dense table stores values as int8: stock must be <= "
                                f"{MAX_TABLE_STOCK}, got {stock}")
    index = SideIndex.build(cups, stock, sides)
    np_ = index.sides.shape[0]
    values = np.zeros(np_ * np_, dtype=np.int8)
    start = time.perf_counter()
    _sweep(cups, rules.every, stock + 1, index.sides, index.codes, index.rank, index.starts,
           index.movable, values)
    return DenseTable(cups, stock, capture, index, values, time.perf_counter() - start)


def load_dense(cups: int = 4, stock: int = 12, capture: str = "last", sides: str = "reachable", *,
               use_cache: bool = True) -> DenseTable:
    """:func:`solve_dense`, its value array kept in the on-disk cache (:mod:`dicemath.core.cache`).

    Example:
        >>> load_dense(4, 3).position_value(BohnRules(stock=3).initial())
        0
    """
    rules = BohnRules(cups=cups, stock=stock, capture=capture)
    built = {}

    def build() -> dict[str, np.ndarray]:
        built["table"] = solve_dense(cups, stock, capture, sides)
        return {"values": built["table"].values}

    arrays = cached_arrays("bohnduell-dense", (rules, sides), build, use_cache=use_cache)
    if "table" in built:
        return built["table"]
    return DenseTable(cups, stock, capture, SideIndex.build(cups, stock, sides), arrays["values"])
