"""Weak solve of a BohnDuell start with a certificate: MTD(f) over a table of proven bounds.

:func:`prove` finds the value of the start of a game (BOHN-1: both players ``stock``
beans; BOHN-7: A moves first) without solving every position: ``V(me, opp)``, the mover's
future pot gain minus the other's under best play (as in
:mod:`~dicemath.games.bohnduell.solver_dict`; pots already filled never enter), is
bracketed by a series of null-window searches (MTD(f)). Each search asks "is ``V >= g``?"
and proves either ``V >= v`` for some ``v >= g`` (one move suffices) or ``V <= u`` for some
``u < g`` (every move, or the pass of BOHN-6, fails). Every answer is a *proven* bound,
kept in a transposition table keyed by ``(mover side, other side)``: a lower bound with
the move that reaches it, an upper bound; they only tighten. Moves are searched the
table's proven move first, then harvests (nearest the pot first), then sows by immediate
gain (captures first); before searching a position's moves, a move whose position after it
already has a good enough proven or exact value ends the search there (an enhanced
transposition cut-off).

The search is this module's, not the core's :func:`~dicemath.core.search.negamax`: that
one keeps one bound per position, replaced by the latest search, and not the move behind
a lower bound; a certificate needs both bounds of a position, only ever tightened, and the
move that proves each lower bound.

The search stops at positions whose value or bounds are known without searching:

- the endgame table ``table`` (a :class:`~dicemath.games.bohnduell.solver_dense.DenseTable`
  of the same cups and capture rule) when both sides lie in it: the exact value;
- the end of the game (neither player can move, BOHN-6): ``V = 0``;
- :func:`~dicemath.games.bohnduell.proof_format.static_bounds`: ``V`` lies within the
  beans left on both sides, less the beans that can never reach the mover's (or the
  other's) pot (BOHN-5: a cup holding more than its distance is never harvested).

The proven bounds that the claims rely on are written as a certificate
(:mod:`~dicemath.games.bohnduell.proof_format`), which
:func:`~dicemath.games.bohnduell.proof_check.check` replays with the rules engine. When the
node or time budget runs out, the result holds the bounds proven so far (its certificate
proves exactly those): a wide interval, never a claim beyond what was searched.

:func:`prove` runs the compiled twin of this search
(:mod:`~dicemath.games.bohnduell.proof_compiled`: the same steps, a bounded transposition
table of 24 bytes a position) wherever it applies (at most
:data:`~dicemath.games.bohnduell.proof_compiled.MAX_CUPS` cups), and this module's search
(:class:`_Prover`, 700 to 900 bytes a position) with ``engine="python"`` or beyond; until
the compiled table fills, the two give the same result, certificate included.

Example:
    >>> result = prove(Rules(stock=4))
    >>> result.value, [str(m) for m in result.best_moves]
    (0, ['S1'])
    >>> result.lower == result.upper == result.certificate.header.lower
    True
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from operator import mul
from pathlib import Path

from dicemath.core.errors import InvalidRulesError
from dicemath.games.bohnduell.proof_compiled import DEFAULT_MEMORY, MAX_CUPS, certificate, search_compiled
from dicemath.games.bohnduell.proof_format import (LOWER, MAX_COUNT, UPPER, Certificate, Row, decode_move,
                                                   static_bounds)
from dicemath.games.bohnduell.rules import Rules
from dicemath.games.bohnduell.sides import can_move, harvest, potential, sow
from dicemath.games.bohnduell.solver_dense import DenseTable
from dicemath.games.bohnduell.solver_dict import Key
from dicemath.games.bohnduell.state import Move, Side, initial_state

Child = tuple[int, int, Side, Side]
"""``(gain of the mover, move code, next mover's side, next other's side)`` of one move
(the move code of :func:`~dicemath.games.bohnduell.proof_format.encode_move`)."""

NO_MOVE = 127
"""The move code of a transposition-table entry whose lower bound has no move (not a row's code)."""


class _Exhausted(Exception):
    """The node or time budget ran out (caught by :func:`prove`)."""


class _Prover:
    """The search state: the transposition table of proven bounds and the exact leaves."""

    def __init__(self, rules: Rules, table: DenseTable | None, node_budget: int | None, seconds: float | None):
        self.cups = rules.cups
        self.every = rules.every
        self.table = table
        self.table_stock = table.stock if table is not None else -1
        if table is not None:                          # the table's look-up, as in SideIndex.rank_of
            self.rank, self.values = table.index.rank, table.values
            self.powers = [int(p) for p in table.index.powers]
        self.tt: dict[Key, list[int]] = {}           # key -> [lower, upper, move code of the lower]
        self.known: dict[Key, int] = {}               # exact values of leaves (table, end of game)
        self.nodes = 0
        self.limit = math.inf if node_budget is None else node_budget
        self.deadline = None if seconds is None else time.perf_counter() + seconds

    def exact(self, me: Side, opp: Side) -> int | None:
        """The exact ``V`` of a leaf: from the table when both sides lie in it, 0 at the end of
        the game (BOHN-6); None elsewhere."""
        if self.table is not None and sum(me) <= self.table_stock and sum(opp) <= self.table_stock:
            rank = self.rank
            mine, theirs = int(rank[sum(map(mul, me, self.powers))]), int(rank[sum(map(mul, opp, self.powers))])
            if mine >= 0 and theirs >= 0:
                return int(self.values[self.table.index.position(mine, theirs)])
        if not can_move(me) and not can_move(opp):
            return 0
        return None

    def children(self, me: Side, opp: Side) -> list[Child]:
        """Every move of the mover, or the pass (BOHN-6); empty at the end of the game.

        The order is the search's: harvests first, the cup nearest the pot first (BOHN-5: a
        harvest drops a bean into every nearer cup, spoiling a nearer cup ready to harvest),
        then sows (BOHN-3) by immediate gain, captures (BOHN-4) first, smaller sows first
        among equal gains.
        """
        n = self.cups
        result: list[Child] = []
        new_me, new_opp = [0] * (n + 1), [0] * (n + 1)
        for d in range(1, n + 1):
            if me[d] == d:
                gain = harvest(me, d, new_me)
                result.append((gain, -d, opp, tuple(new_me)))
        sows: list[Child] = []
        for k in range(1, min(n, me[0]) + 1):
            gain = sow(me, opp, k, self.every, new_me, new_opp)
            sows.append((gain, k, tuple(new_opp), tuple(new_me)))
        if not result and not sows:
            return [(0, 0, opp, me)] if can_move(opp) else []
        sows.sort(key=lambda child: -child[0])
        return result + sows

    def bounds(self, me: Side, opp: Side) -> tuple[int, int]:
        """The tightest bounds on ``V(me, opp)`` known now (exact, proven or static)."""
        key = (me, opp)
        entry = self.tt.get(key)
        if entry is not None:
            return entry[0], entry[1]
        value = self.known.get(key)
        if value is None:
            value = self.exact(me, opp)
        return (value, value) if value is not None else static_bounds(me, opp)

    def probe(self, me: Side, opp: Side, gamma: int) -> int:
        """Null-window test of ``V(me, opp) >= gamma`` (fail-soft): returns ``g``, with
        ``V >= g`` proven when ``g >= gamma``, ``V <= g`` proven when ``g < gamma``."""
        key = (me, opp)
        entry = self.tt.get(key)
        if entry is None:
            value = self.known.get(key)
            if value is not None:
                return value
            value = self.exact(me, opp)
            if value is not None:
                self.known[key] = value
                return value
            low, high = static_bounds(me, opp)
            entry = self.tt[key] = [low, high, NO_MOVE]
        if entry[0] >= gamma:
            return entry[0]
        if entry[1] < gamma:
            return entry[1]
        if self.nodes >= self.limit or (self.deadline is not None and self.nodes & 1023 == 0
                                        and time.perf_counter() > self.deadline):
            raise _Exhausted
        self.nodes += 1
        children = self.children(me, opp)
        tt, known = self.tt, self.known
        for gain, code, next_me, next_opp in children:       # a move already proven good enough?
            after = (next_me, next_opp)
            proven = tt.get(after)
            if proven is not None:
                high = proven[1]
            else:
                value = known.get(after)
                if value is None:
                    value = self.exact(next_me, next_opp)
                    if value is None:
                        continue
                    known[after] = value
                high = value
            if gain - high >= gamma:
                if gain - high > entry[0]:
                    entry[0], entry[2] = gain - high, code
                return gain - high
        if entry[2] != NO_MOVE:
            for i, child in enumerate(children):
                if child[1] == entry[2]:
                    if i:
                        children.insert(0, children.pop(i))
                    break
        best, best_move = -sys.maxsize, NO_MOVE
        for gain, code, next_me, next_opp in children:
            value = gain - self.probe(next_me, next_opp, gain - gamma + 1)
            if value > best:
                best, best_move = value, code
                if best >= gamma:
                    break
        if best >= gamma:
            if best > entry[0]:
                entry[0], entry[2] = best, best_move
        elif best < entry[1]:
            entry[1] = best
        return best

    def mtdf(self, me: Side, opp: Side, guess: int) -> tuple[int, int]:
        """Null-window probes around ``guess`` until ``V(me, opp)`` is exact (MTD(f))."""
        low, high = self.bounds(me, opp)
        g = min(max(guess, low), high)
        while low < high:
            g = self.probe(me, opp, g + 1 if g == low else g)
            low, high = self.bounds(me, opp)
        return low, high

    def rows(self, claims: list[tuple[Side, Side, int, int]]) -> list[Row]:
        """The certificate's rows for ``claims`` ``(me, opp, kind, value)``: every proven bound
        those claims rely on, recursively, that the leaves and the static bounds do not give."""
        rows: dict[tuple[Key, int], Row] = {}
        stack = list(claims)
        while stack:
            me, opp, kind, need = stack.pop()
            key = (me, opp)
            entry = self.tt.get(key)
            low, high = self.bounds(me, opp) if entry is None else static_bounds(me, opp)
            if (low >= need) if kind == LOWER else (high <= need):
                continue
            if entry is None:
                raise RuntimeError(f"internal error: no proof of the bound {need} (kind {kind}) at {key}")
            if (key, kind) in rows:
                continue
            if kind == LOWER:
                value, code = entry[0], entry[2]
                if value < need or code == NO_MOVE:
                    raise RuntimeError(f"internal error: the lower bound {need} at {key} is not proven")
                rows[(key, kind)] = (me, opp, LOWER, value, code)
                child = next(c for c in self.children(me, opp) if c[1] == code)
                stack.append((child[2], child[3], UPPER, child[0] - value))
            else:
                value = entry[1]
                if value > need:
                    raise RuntimeError(f"internal error: the upper bound {need} at {key} is not proven")
                rows[(key, kind)] = (me, opp, UPPER, value, 0)
                stack.extend((a, b, LOWER, gain - value) for gain, _, a, b in self.children(me, opp))
        return list(rows.values())


@contextmanager
def _recursion_room(depth: int) -> Iterator[None]:
    """Let Python recurse ``depth`` more calls (a game lasts at most ``2 * Phi + 1`` moves)."""
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(max(before, depth + 1000))
    try:
        yield
    finally:
        sys.setrecursionlimit(before)


@dataclass(frozen=True)
class ProofResult:
    """What :func:`prove` proved about the start of ``rules``.

    Attributes:
        rules: the game (both players ``rules.stock`` beans, A moves first, BOHN-7).
        lower, upper: the proven bounds on A's final pot difference under best play.
        first_moves: per first move, the proven ``(lower, upper)`` of A's final pot
            difference after it and best play (a point where proven exactly).
        table_stock: the endgame table's stock (0: none).
        nodes: positions expanded by the search (a position searched again counts again).
        positions: distinct positions in the transposition table.
        seconds: wall time of the search.
        exhausted: True when the budget ran out (before the value was proven or, with
            ``all_first_moves``, before every first move's value was).
        certificate: the certificate of these bounds (see :meth:`write`).
        engine: the search that ran: ``"compiled"`` or ``"python"``.
        replaced: transposition-table entries the compiled search replaced once its table was
            full (0: the same search as the Python one, node for node).
    """

    rules: Rules
    lower: int
    upper: int
    first_moves: dict[Move, tuple[int, int]]
    table_stock: int
    nodes: int
    positions: int
    seconds: float
    exhausted: bool
    certificate: Certificate = field(repr=False)
    engine: str = "python"
    replaced: int = 0

    @property
    def complete(self) -> bool:
        """True when the value is proven (``lower == upper``)."""
        return self.lower == self.upper

    @property
    def value(self) -> int | None:
        """The proven value (A's final pot difference), or None if only bounds are proven."""
        return self.lower if self.complete else None

    @property
    def best_moves(self) -> list[Move]:
        """The first moves proven to reach the value (empty unless it is proven)."""
        if not self.complete:
            return []
        return [move for move, (low, _) in self.first_moves.items() if low >= self.lower]

    def write(self, path: str | Path) -> Path:
        """Write the certificate file (:mod:`~dicemath.games.bohnduell.proof_format`); returns its path."""
        return self.certificate.write(path)

    def _repr_markdown_(self) -> str:
        value = f"**{self.value}**" if self.complete else f"between {self.lower} and {self.upper}"
        lines = [f"BohnDuell start, {self.rules.stock} beans a side, capture {self.rules.capture!r}: "
                 f"A's final pot difference {value} ({self.nodes:,} nodes, {self.seconds:.1f} s, "
                 f"endgame table {self.table_stock or 'none'})", "", "| first move | value |", "|---|---|"]
        for move, (low, high) in self.first_moves.items():
            lines.append(f"| {move} | {low if low == high else f'{low} .. {high}'} |")
        return "\n".join(lines)


ENGINES = ("compiled", "python")
"""The searches :func:`prove` runs: the compiled one and this module's."""


def prove(rules: Rules, table: DenseTable | None = None, *, node_budget: int | None = None,
          seconds: float | None = None, all_first_moves: bool = False, guess: int = 0, engine: str | None = None,
          memory: int = DEFAULT_MEMORY) -> ProofResult:
    """Weak solve of the start of ``rules`` (both players ``rules.stock`` beans, BOHN-1; A
    moves first, BOHN-7), with a certificate of what it proves.

    Args:
        rules: the game (cups, stock, capture rule BOHN-4).
        table: an endgame table of the same cups and capture rule (any stock), or None: its
            exact values end the search where both sides lie in it.
        node_budget: the most positions to expand (None: no limit).
        seconds: the most wall seconds to search (None: no limit).
        all_first_moves: also prove the exact value of every first move (by default only the
            best move's value is proven; the others get the bounds found on the way).
        guess: the first null window of MTD(f) (A's expected final pot difference).
        engine: ``"compiled"`` (:mod:`~dicemath.games.bohnduell.proof_compiled`, the default up
            to its :data:`~dicemath.games.bohnduell.proof_compiled.MAX_CUPS` cups) or
            ``"python"`` (this module's search, the default beyond).
        memory: the most bytes of the compiled search's transposition table.

    Returns:
        A :class:`ProofResult`: the proven bounds (equal when the budget sufficed), the first
        moves' proven intervals, the effort and the certificate.

    Raises:
        InvalidRulesError: a table of other cups or another capture rule, a stock above
            :data:`~dicemath.games.bohnduell.proof_format.MAX_COUNT`, an unknown engine, or
            the compiled engine for more cups than it takes.

    Example:
        >>> from dicemath.games.bohnduell.solver_dense import solve_dense
        >>> result = prove(Rules(stock=8), solve_dense(Rules(stock=5)), all_first_moves=True)
        >>> result.value, {str(m): v for m, v in result.first_moves.items()}
        (0, {'S1': (0, 0), 'S2': (-2, -2), 'S3': (-6, -6), 'S4': (-9, -9)})
        >>> prove(Rules(stock=8), node_budget=5).value is None
        True
    """
    if table is not None and (table.cups != rules.cups or table.capture != rules.capture):
        raise InvalidRulesError(f"the endgame table has cups={table.cups}, capture={table.capture!r}; "
                                f"the game has cups={rules.cups}, capture={rules.capture!r}")
    if rules.stock > MAX_COUNT:
        raise InvalidRulesError(f"a certificate holds stocks up to {MAX_COUNT}, got {rules.stock}")
    if engine is None:
        engine = "compiled" if rules.cups <= MAX_CUPS else "python"
    if engine not in ENGINES:
        raise InvalidRulesError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    if engine == "compiled":
        return _prove_compiled(rules, table, node_budget=node_budget, seconds=seconds,
                               all_first_moves=all_first_moves, guess=guess, memory=memory)
    prover = _Prover(rules, table, node_budget, seconds)
    me, opp = initial_state(rules).mover_sides
    began = time.perf_counter()
    exhausted = False
    with _recursion_room(2 * (potential(me) + potential(opp)) + 1):
        try:
            low, _ = prover.mtdf(me, opp, guess)
            if all_first_moves:
                for gain, _, next_me, next_opp in prover.children(me, opp):
                    prover.mtdf(next_me, next_opp, gain - low)
        except _Exhausted:
            exhausted = True
    seconds_used = time.perf_counter() - began
    low, high = prover.bounds(me, opp)
    first_moves: dict[Move, tuple[int, int]] = {}
    claims = [(me, opp, LOWER, low), (me, opp, UPPER, high)]
    for gain, code, next_me, next_opp in prover.children(me, opp):
        child_low, child_high = prover.bounds(next_me, next_opp)
        first_moves[decode_move(code)] = (gain - child_high, min(gain - child_low, high))
        claims.append((next_me, next_opp, UPPER, child_high))
        if gain - child_low < high:
            claims.append((next_me, next_opp, LOWER, child_low))
    first_moves = dict(sorted(first_moves.items()))
    certificate = Certificate.build(rules, low, high, table_stock=table.stock if table is not None else 0,
                                    rows=prover.rows(claims),
                                    first_moves=[(str(m), a, b) for m, (a, b) in first_moves.items()])
    return ProofResult(rules, low, high, first_moves, certificate.header.table_stock, prover.nodes,
                       len(prover.tt), seconds_used, exhausted, certificate)


def _prove_compiled(rules: Rules, table: DenseTable | None, *, node_budget: int | None, seconds: float | None,
                    all_first_moves: bool, guess: int, memory: int) -> ProofResult:
    """:func:`prove` by :func:`~dicemath.games.bohnduell.proof_compiled.search_compiled`."""
    began = time.perf_counter()
    outcome = search_compiled(rules, table, node_budget=node_budget, seconds=seconds,
                              all_first_moves=all_first_moves, guess=guess, memory=memory)
    seconds_used = time.perf_counter() - began
    table_stock = table.stock if table is not None else 0
    first_moves = dict(sorted((decode_move(code), (low, high)) for code, low, high in outcome.first_moves))
    return ProofResult(rules, outcome.lower, outcome.upper, first_moves, table_stock, outcome.nodes,
                       outcome.positions, seconds_used, outcome.exhausted,
                       certificate(rules, outcome, table_stock), "compiled", outcome.replaced)
