"""Replay a BohnDuell proof certificate with the rules engine and the endgame table.

:func:`check` trusts only the rules (:mod:`~dicemath.games.bohnduell.state`,
:mod:`~dicemath.games.bohnduell.sides`), the endgame table the certificate names and the
format's leaf rules (:mod:`~dicemath.games.bohnduell.proof_format`); it shares no code
with the search that wrote the certificate (:mod:`~dicemath.games.bohnduell.proof`). It
verifies:

1. the file: its format, the header's own digest, the row count and the body's SHA-256
   (:func:`~dicemath.games.bohnduell.proof_format.read_certificate`);
2. every row's form: both sides hold at most the game's stock, the rows are strictly
   ascending by kind, then the mover's side, then the other's (the format's order, so no
   position has two bounds of one kind), an upper bound names no move;
3. every row, from the rules: at a position whose value is known (both sides in the table,
   or the end of the game, BOHN-6) the row must agree with it; elsewhere a
   :data:`~dicemath.games.bohnduell.proof_format.LOWER` row ``V >= v`` names a legal move
   (a sow BOHN-3/4, a harvest BOHN-5, or the pass when the mover has no move, BOHN-6) whose
   gain minus a proven *upper* bound of the position after it reaches ``v``, and an
   :data:`~dicemath.games.bohnduell.proof_format.UPPER` row ``V <= u`` has every move's
   gain minus a proven *lower* bound of the position after it at most ``u``;
4. the header's claims: ``lower <= V(start) <= upper`` and each first move's interval.

A bound is *proven* at a position when the table or the end of the game gives its exact
value, when :func:`~dicemath.games.bohnduell.proof_format.static_bounds` give it, or when
a row of that kind at that position is at least as tight. A row's justification looks only
at positions after a move, which come later in every game (their potential is smaller, or
after a pass their mover can move), so checking every row once proves them all, by
induction from the end of the game.

Two engines run steps 2 and 3 (:data:`ENGINES`). ``"compiled"`` (the default) is
``_proof_check_c.c``: its own sowing, harvest, capture and pass (BOHN-3..BOHN-6) and static
bounds, no rules shared with the search's C either (both read the table's layout alone from
``_dense_c_table.h``), the rows found through a hash of their sides; on a failing row it returns
that row's number and this module's replay of that row alone raises the error, so both engines
raise the same error, message included. ``"python"`` replays every row with the rules engine,
the rows in dicts. The claims (step 4) are checked in Python by both, the compiled route looking
rows up by binary search in the sorted body.

Example:
    >>> import tempfile, os
    >>> from dicemath.games.bohnduell.proof import prove
    >>> proven = prove(Rules(stock=4), all_first_moves=True)
    >>> result = check(proven.write(os.path.join(tempfile.mkdtemp(), "stock4.proof")))
    >>> result.value, {str(m): v for m, v in result.first_moves.items()}
    (0, {'S1': (0, 0), 'S2': (-2, -2), 'S3': (-2, -2), 'S4': (-3, -3)})
    >>> result.digest == proven.certificate.digest
    True
"""

from __future__ import annotations

import bisect
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from dicemath.core.errors import IllegalMoveError, InvalidRulesError, InvalidStateError
from dicemath.games.bohnduell import _proof_check_c  # type: ignore[attr-defined]  # C extension, no stubs
from dicemath.games.bohnduell.proof_format import (KIND_NAMES, LOWER, UPPER, Certificate, CertificateError,
                                                   InvalidProofError, Row, decode_move, read_certificate,
                                                   static_bounds)
from dicemath.games.bohnduell.rules import Rules
from dicemath.games.bohnduell.sides import can_move
from dicemath.games.bohnduell.solver_dense import DenseTable, solve_dense
from dicemath.games.bohnduell.state import PASS_MOVE, Move, Side, initial_state, play_side, side_moves

_Key = tuple[Side, Side]          # (side of the mover, side of the other player)

ENGINES = ("compiled", "python")
"""The checkers :func:`check` runs: the rows verified in C (``_proof_check_c.c``, its own rules and
static bounds, every variant of cups and capture), or replayed with the rules engine in Python."""


def _where(me: Side, opp: Side) -> str:
    return f"mover {me[0]}:{','.join(map(str, me[1:]))} / other {opp[0]}:{','.join(map(str, opp[1:]))}"


@dataclass(frozen=True)
class CheckResult:
    """What a verified certificate proves.

    Attributes:
        rules: the game (both players ``rules.stock`` beans, A moves first, BOHN-7).
        lower, upper: the verified bounds on A's final pot difference under best play.
        first_moves: per first move the certificate lists, the verified ``(lower, upper)``
            of A's final pot difference after it and best play.
        table_stock: the stock of the endgame table replayed (0: none).
        rows: the rows verified.
        digest: the SHA-256 of the certificate's body.
        seconds: wall time of the check (the table's build excluded).
    """

    rules: Rules
    lower: int
    upper: int
    first_moves: dict[Move, tuple[int, int]]
    table_stock: int
    rows: int
    digest: str
    seconds: float

    @property
    def value(self) -> int | None:
        """The proven value, or None when the certificate proves only bounds."""
        return self.lower if self.lower == self.upper else None

    def _repr_markdown_(self) -> str:
        value = f"**{self.value}**" if self.value is not None else f"between {self.lower} and {self.upper}"
        return (f"Certificate `{self.digest[:12]}` verified ({self.rows:,} rows, endgame table "
                f"{self.table_stock or 'none'}): the {self.rules.stock}-bean start, capture "
                f"{self.rules.capture!r}, is worth {value} to A")


class _SortedRows:
    """The rows of one kind of a body sorted by kind, then sides, found by binary search (no
    Python object per row): what the compiled route's messages and claims look up."""

    def __init__(self, body: np.ndarray, kind: int):
        self.body = body
        self.kind = kind
        self.first = int(np.searchsorted(body["kind"], kind, side="left"))
        self.last = int(np.searchsorted(body["kind"], kind, side="right"))

    def get(self, key: _Key) -> tuple[int, int] | int | None:
        """The row's ``(value, move code)`` (LOWER) or value (UPPER) at ``key``, or None."""
        body = self.body
        i = bisect.bisect_left(range(self.first, self.last), key,
                               key=lambda j: (tuple(body["me"][j].tolist()), tuple(body["opp"][j].tolist())))
        if i == self.last - self.first:
            return None
        me, opp, _, value, move = _row(body, self.first + i)
        if (me, opp) != key:
            return None
        return (value, move) if self.kind == LOWER else value


def _row(body: np.ndarray, i: int) -> Row:
    """Row ``i`` of a body as Python values."""
    record = body[i]
    return (tuple(record["me"].tolist()), tuple(record["opp"].tolist()), int(record["kind"]), int(record["value"]),
            int(record["move"]))


def _malformed(i: int, row: Row, before: Row | None, stock: int) -> str | None:
    """Why row ``i`` (after row ``before``) cannot be in a certificate of ``stock`` beans, or None:
    a side above the stock, a row not after the one before it (the body is strictly sorted by
    kind, then sides: a repeat is a second bound), an upper bound naming a move."""
    me, opp, kind, _, move = row
    if sum(me) > stock or sum(opp) > stock:
        return f"row {i} ({_where(me, opp)}): a side holds more than {stock} beans"
    if before is not None:
        if (before[2], before[0], before[1]) == (kind, me, opp):
            return f"row {i} ({_where(me, opp)}): a second {KIND_NAMES[kind]} bound"
        if (before[2], before[0], before[1]) > (kind, me, opp):
            return f"row {i} ({_where(me, opp)}): out of order (the rows are sorted by kind, then sides)"
    if kind != LOWER and move != 0:
        return f"row {i} ({_where(me, opp)}): an upper bound names no move, got {move}"
    return None


class _Replay:
    """The rules, the table and the rows' look-ups that replay one certificate."""

    def __init__(self, rules: Rules, table: DenseTable | None, lower: Any, upper: Any):
        self.every = rules.every
        self.table = table
        self.lower = lower       # (me, opp) -> (value, move code), with .get
        self.upper = upper       # (me, opp) -> value, with .get
        if table is not None:          # the table's look-up with Python ints (SideIndex.contains, DenseTable.value)
            self.powers = [int(p) for p in table.index.powers]
            self.rank = table.index.rank

    @classmethod
    def indexed(cls, certificate: Certificate, table: DenseTable | None) -> tuple[_Replay, list[Row]]:
        """The replay with the rows in dicts and the rows themselves; raises for a malformed row."""
        stock = certificate.header.stock
        rows = certificate.row_tuples()
        lower: dict[_Key, tuple[int, int]] = {}
        upper: dict[_Key, int] = {}
        before = None
        for i, row in enumerate(rows):
            fault = _malformed(i, row, before, stock)
            if fault is not None:
                raise InvalidProofError(fault)
            me, opp, kind, value, move = row
            if kind == LOWER:
                lower[(me, opp)] = (value, move)
            else:
                upper[(me, opp)] = value
            before = row
        return cls(certificate.header.rules, table, lower, upper), rows

    def rank_of(self, side: Side) -> int:
        """The side's rank in the table, or -1 (the look-up of ``SideIndex.contains``)."""
        if self.table is None or sum(side) > self.table.stock:
            return -1
        return int(self.rank[sum(v * p for v, p in zip(side, self.powers))])

    def exact(self, me: Side, opp: Side) -> int | None:
        """The exact ``V``: from the table when both sides lie in it; 0 when neither can move (BOHN-6)."""
        if self.table is not None:
            r_me = self.rank_of(me)
            if r_me >= 0:
                r_opp = self.rank_of(opp)
                if r_opp >= 0:
                    return int(self.table.values[self.table.index.position(r_me, r_opp)])
        if not can_move(me) and not can_move(opp):
            return 0
        return None

    def successors(self, me: Side, opp: Side) -> list[tuple[Move, int, Side, Side]]:
        """``(move, gain, next mover's side, next other's side)`` of every legal move, by the rules engine."""
        moves = side_moves(me)
        if not moves:
            return [(PASS_MOVE, 0, opp, me)] if can_move(opp) else []
        result = []
        for move in moves:
            gain, mine, theirs = play_side(me, opp, move, self.every)
            result.append((move, gain, theirs, mine))
        return result

    def at_least(self, me: Side, opp: Side, need: int) -> bool:
        """Whether ``V(me, opp) >= need`` is proven (exact, static or a row)."""
        known = self.exact(me, opp)
        if known is not None:
            return known >= need
        if static_bounds(me, opp)[0] >= need:
            return True
        row = self.lower.get((me, opp))
        return row is not None and row[0] >= need

    def at_most(self, me: Side, opp: Side, need: int) -> bool:
        """Whether ``V(me, opp) <= need`` is proven (exact, static or a row)."""
        known = self.exact(me, opp)
        if known is not None:
            return known <= need
        if static_bounds(me, opp)[1] <= need:
            return True
        row = self.upper.get((me, opp))
        return row is not None and row <= need

    def verify_row(self, i: int, row: tuple[Side, Side, int, int, int]) -> None:
        """Check one row against the rules (see the module docstring); raise if it fails."""
        me, opp, kind, value, code = row
        where = f"row {i} ({_where(me, opp)}, {KIND_NAMES[kind]} bound {value})"
        known = self.exact(me, opp)
        if known is not None:
            if (known < value) if kind == LOWER else (known > value):
                raise InvalidProofError(f"{where}: the exact value there is {known}")
            return
        nexts = self.successors(me, opp)
        if kind == LOWER:
            move = decode_move(code)
            chosen = [n for n in nexts if n[0] == move]
            if not chosen:
                raise InvalidProofError(f"{where}: its move {move} is not legal there "
                                        f"(legal: {', '.join(str(n[0]) for n in nexts)})")
            _, gain, next_me, next_opp = chosen[0]
            if not self.at_most(next_me, next_opp, gain - value):
                raise InvalidProofError(f"{where}: {move} gains {gain}, and nothing proves that the position after "
                                        f"it ({_where(next_me, next_opp)}) is worth at most {gain - value}")
            return
        for move, gain, next_me, next_opp in nexts:
            if not self.at_least(next_me, next_opp, gain - value):
                raise InvalidProofError(f"{where}: {move} gains {gain}, and nothing proves that the position after "
                                        f"it ({_where(next_me, next_opp)}) is worth at least {gain - value}")


def check_certificate(certificate: Certificate, table: DenseTable | None = None, *,
                      engine: str | None = None) -> CheckResult:
    """Verify a certificate in memory (see :func:`check`)."""
    engine = _engine(engine)
    began = time.perf_counter()
    header = certificate.header
    rules = header.rules
    if header.table_stock:
        if table is None:
            try:
                table = solve_dense(Rules(cups=rules.cups, stock=header.table_stock, capture=rules.capture))
            except InvalidStateError as error:
                raise CertificateError(f"cannot build the certificate's endgame table: {error}") from None
            began = time.perf_counter()
        elif (table.cups, table.capture, table.stock) != (rules.cups, rules.capture, header.table_stock):
            raise CertificateError(f"the certificate was proven with the endgame table cups={rules.cups}, "
                                   f"capture={rules.capture!r}, stock={header.table_stock}; got cups={table.cups}, "
                                   f"capture={table.capture!r}, stock={table.stock}")
    elif table is not None:
        raise CertificateError(f"the certificate was proven without an endgame table; got one of stock {table.stock}")
    if engine == "python":
        replay, rows = _Replay.indexed(certificate, table)
        for i, row in enumerate(rows):
            replay.verify_row(i, row)
    else:
        replay = _compiled(certificate, table)
    if header.lower > header.upper:
        raise InvalidProofError(f"the header claims lower {header.lower} > upper {header.upper}")
    me, opp = initial_state(rules).mover_sides
    if not replay.at_least(me, opp, header.lower):
        raise InvalidProofError(f"nothing proves the claimed lower bound {header.lower} of the start")
    if not replay.at_most(me, opp, header.upper):
        raise InvalidProofError(f"nothing proves the claimed upper bound {header.upper} of the start")
    nexts = {move: (gain, a, b) for move, gain, a, b in replay.successors(me, opp)}
    first_moves: dict[Move, tuple[int, int]] = {}
    for text, low, high in header.first_moves:
        try:
            move = Move.from_str(text)
        except IllegalMoveError:
            raise InvalidProofError(f"the header's first move {text!r} is no move") from None
        if move not in nexts or move in first_moves:
            raise InvalidProofError(f"the header's first move {text} is not legal at the start, or listed twice")
        gain, a, b = nexts[move]
        if not replay.at_most(a, b, gain - low):
            raise InvalidProofError(f"nothing proves that the first move {text} is worth at least {low}")
        if high < header.upper and not replay.at_least(a, b, gain - high):
            raise InvalidProofError(f"nothing proves that the first move {text} is worth at most {high}")
        first_moves[move] = (low, high)
    return CheckResult(rules, header.lower, header.upper, first_moves, header.table_stock, len(certificate.body),
                       certificate.digest, time.perf_counter() - began)


def _engine(engine: str | None) -> str:
    if engine is None:
        return "compiled"
    if engine not in ENGINES:
        raise InvalidRulesError(f"engine must be one of {ENGINES}, got {engine!r}")
    return engine


def _compiled(certificate: Certificate, table: DenseTable | None) -> _Replay:
    """Verify every row in C (``_proof_check_c.check``); return the replay that looks rows up for the
    claims. For a failing row, the Python replay of that row alone raises the Python route's error."""
    header = certificate.header
    rules = header.rules
    body = np.ascontiguousarray(certificate.body)
    arrays = None if table is None else (*table.index.kernel_arrays(), np.asarray(table.values))
    phase, failed = _proof_check_c.check(rules.cups, rules.every, header.stock, body.view(np.uint8), arrays,
                                         table.stock if table is not None else 0)
    if phase == 1:
        fault = _malformed(failed, _row(body, failed), _row(body, failed - 1) if failed else None, header.stock)
        if fault is not None:
            raise InvalidProofError(fault)
    replay = _Replay(rules, table, _SortedRows(body, LOWER), _SortedRows(body, UPPER))
    if phase == 2:
        replay.verify_row(failed, _row(body, failed))
    if phase:
        raise RuntimeError(f"the compiled checker rejects row {failed} of certificate {certificate.digest[:12]}, "
                           f"the Python replay accepts it: a bug in one of them")
    return replay


def check(certificate_path: str | Path, table: DenseTable | None = None, *, engine: str | None = None) -> CheckResult:
    """Verify the certificate file at ``certificate_path`` with the rules engine.

    Args:
        certificate_path: a file written by :meth:`~dicemath.games.bohnduell.proof.ProofResult.write`.
        table: the endgame table the certificate names (same cups, capture and stock), or
            None to build it here (:func:`~dicemath.games.bohnduell.solver_dense.solve_dense`).
        engine: ``"compiled"`` (the default, None) verifies the rows in C, ``"python"`` replays
            them with the rules engine (see the module docstring); both accept the same
            certificates and raise the same error on the same row.

    Returns:
        The :class:`CheckResult`: the verified bounds of the start and of its first moves.

    Raises:
        CorruptCertificateError: a file that is not a certificate, or whose digests or row
            count do not match (bytes, rows or header changed).
        InvalidProofError: a row or a claim that the rules, the table and the other rows do
            not prove.
        CertificateError: a table that is not the one the certificate names.
        InvalidRulesError: an unknown ``engine``.
    """
    return check_certificate(read_certificate(certificate_path), table, engine=engine)
