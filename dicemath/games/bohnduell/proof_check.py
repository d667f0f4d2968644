"""Replay a BohnDuell proof certificate with the rules engine and the endgame table.

:func:`check` trusts only the rules (:mod:`~dicemath.games.bohnduell.state`,
:mod:`~dicemath.games.bohnduell.sides`), the endgame table the certificate names and the
format's leaf rules (:mod:`~dicemath.games.bohnduell.proof_format`); it shares no code
with the search that wrote the certificate (:mod:`~dicemath.games.bohnduell.proof`). It
verifies:

1. the file: its format, the header's own digest, the row count and the body's SHA-256
   (:func:`~dicemath.games.bohnduell.proof_format.read_certificate`);
2. every row, from the rules: at a position whose value is known (both sides in the table,
   or the end of the game, BOHN-6) the row must agree with it; elsewhere a
   :data:`~dicemath.games.bohnduell.proof_format.LOWER` row ``V >= v`` names a legal move
   (a sow BOHN-3/4, a harvest BOHN-5, or the pass when the mover has no move, BOHN-6) whose
   gain minus a proven *upper* bound of the position after it reaches ``v``, and an
   :data:`~dicemath.games.bohnduell.proof_format.UPPER` row ``V <= u`` has every move's
   gain minus a proven *lower* bound of the position after it at most ``u``;
3. the header's claims: ``lower <= V(start) <= upper`` and each first move's interval.

A bound is *proven* at a position when the table or the end of the game gives its exact
value, when :func:`~dicemath.games.bohnduell.proof_format.static_bounds` give it, or when
a row of that kind at that position is at least as tight. A row's justification looks only
at positions after a move, which come later in every game (their potential is smaller, or
after a pass their mover can move), so checking every row once proves them all, by
induction from the end of the game.

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

import time
from dataclasses import dataclass
from pathlib import Path

from dicemath.core.errors import IllegalMoveError, InvalidStateError
from dicemath.games.bohnduell.proof_format import (KIND_NAMES, LOWER, Certificate, CertificateError, InvalidProofError,
                                                   decode_move, read_certificate, static_bounds)
from dicemath.games.bohnduell.rules import Rules
from dicemath.games.bohnduell.sides import can_move
from dicemath.games.bohnduell.solver_dense import DenseTable, solve_dense
from dicemath.games.bohnduell.state import PASS_MOVE, Move, Side, initial_state, play_side, side_moves

_Key = tuple[Side, Side]          # (side of the mover, side of the other player)


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


class _Replay:
    """The rows of one certificate and the rules to replay them."""

    def __init__(self, certificate: Certificate, table: DenseTable | None):
        header = certificate.header
        self.rules = header.rules
        self.every = self.rules.every
        self.table = table
        self.lower: dict[_Key, tuple[int, int]] = {}       # key -> (value, move code)
        self.upper: dict[_Key, int] = {}
        self.rows = certificate.row_tuples()
        for i, (me, opp, kind, value, move) in enumerate(self.rows):
            if sum(me) > header.stock or sum(opp) > header.stock:
                raise InvalidProofError(f"row {i} ({_where(me, opp)}): a side holds more than {header.stock} beans")
            rows = self.lower if kind == LOWER else self.upper
            if (me, opp) in rows:
                raise InvalidProofError(f"row {i} ({_where(me, opp)}): a second {KIND_NAMES[kind]} bound")
            if kind == LOWER:
                self.lower[(me, opp)] = (value, move)
            else:
                if move != 0:
                    raise InvalidProofError(f"row {i} ({_where(me, opp)}): an upper bound names no move, got {move}")
                self.upper[(me, opp)] = value

    def exact(self, me: Side, opp: Side) -> int | None:
        """The exact ``V``: from the table when both sides lie in it; 0 when neither can move (BOHN-6)."""
        table = self.table
        if table is not None and table.index.contains(me) and table.index.contains(opp):
            return table.value(me, opp)
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


def check_certificate(certificate: Certificate, table: DenseTable | None = None) -> CheckResult:
    """Verify a certificate in memory (see :func:`check`)."""
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
    replay = _Replay(certificate, table)
    for i, row in enumerate(replay.rows):
        replay.verify_row(i, row)
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
    return CheckResult(rules, header.lower, header.upper, first_moves, header.table_stock, len(replay.rows),
                       certificate.digest, time.perf_counter() - began)


def check(certificate_path: str | Path, table: DenseTable | None = None) -> CheckResult:
    """Verify the certificate file at ``certificate_path`` with the rules engine.

    Args:
        certificate_path: a file written by :meth:`~dicemath.games.bohnduell.proof.ProofResult.write`.
        table: the endgame table the certificate names (same cups, capture and stock), or
            None to build it here (:func:`~dicemath.games.bohnduell.solver_dense.solve_dense`).

    Returns:
        The :class:`CheckResult`: the verified bounds of the start and of its first moves.

    Raises:
        CorruptCertificateError: a file that is not a certificate, or whose digests or row
            count do not match (bytes, rows or header changed).
        InvalidProofError: a row or a claim that the rules, the table and the other rows do
            not prove.
        CertificateError: a table that is not the one the certificate names.
    """
    return check_certificate(read_certificate(certificate_path), table)
