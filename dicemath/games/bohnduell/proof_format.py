"""The certificate of a BohnDuell weak solve: what it claims, how its rows read, its file.

A certificate proves ``lower <= V(start) <= upper`` for the start of a game of ``stock``
beans a side (BOHN-1, A to move, BOHN-7), where ``V(me, opp)`` is the mover's future pot
gain minus the other's under best play (the values of
:mod:`~dicemath.games.bohnduell.solver_dict`; pots already filled never enter), and for
each first move listed an interval of its value ``gain - V(position after)``. The search
that writes it is :mod:`~dicemath.games.bohnduell.proof`, the checker that replays it with
the rules engine is :mod:`~dicemath.games.bohnduell.proof_check`; this module holds only
what both need.

**Rows.** One row per proven bound at a node ``(me, opp)`` (mover's side, other's side,
each ``(stock, c_1, ..., c_n)``):

- :data:`LOWER` ``v`` (``V >= v``) with the move that reaches it: the move's gain minus an
  *upper* bound of the position after it is at least ``v``;
- :data:`UPPER` ``u`` (``V <= u``): every move (or the pass, BOHN-6) has gain minus a
  *lower* bound of the position after it at most ``u``.

A bound at a position is *known* without a row from (a) the endgame table, when both sides
lie in it (the exact value), (b) the end of the game (neither player can move, BOHN-6:
``V = 0``) or (c) :func:`static_bounds`. Every other bound a row or a claim relies on needs
its own row. Each row is justified only by positions after a move, whose potential is
smaller or, after a pass, whose mover can move (see :mod:`~dicemath.games.bohnduell.state`):
the rows form no cycle, so rows that each hold given the others hold all together.

**File.** ``gzip`` (level :data:`COMPRESS_LEVEL`, no name, time 0: the same certificate gives the same bytes) of three
parts: the line :data:`MAGIC`; one line of JSON, the header (:class:`Header`: cups, stock,
capture, the claimed ``lower`` and ``upper``, the first moves' claimed intervals, the
endgame table's stock, 0 for none, the number of rows, the row width, the SHA-256 of the
body, and ``header_sha256``, the SHA-256 of the header's other fields written as sorted,
compact JSON); then the body, ``rows`` fixed-width little-endian records of
:func:`row_dtype`: the two sides (``uint8`` each), the kind (``uint8``), the move
(``int8``, :func:`encode_move`) and the value (``int16``), sorted by kind, then sides.

Example:
    >>> from dicemath.games.bohnduell.rules import Rules
    >>> cert = Certificate.build(Rules(stock=2), -4, 4, table_stock=0, rows=[])
    >>> cert.header.lower, cert.header.upper, cert.header.rows
    (-4, 4, 0)
    >>> unpack(pack(cert)) == cert
    True
    >>> static_bounds((2, 0, 0, 0, 0), (2, 0, 0, 0, 0))
    (-4, 4)
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from dicemath.core.errors import DicemathError, InvalidRulesError
from dicemath.games.bohnduell.rules import Rules
from dicemath.games.bohnduell.state import HARVEST, PASS_MOVE, SOW, Move, Side

FORMAT = "bohnduell-proof"
"""The ``format`` field of every header."""

VERSION = 1
"""The version of this format (the ``version`` field)."""

MAGIC = b"BOHNDUELL-PROOF 1\n"
"""The first line of the uncompressed file."""

COMPRESS_LEVEL = 1
"""The gzip level of the file: the fastest (a 40-bean certificate's 1.1 GB body is compressed in
seconds instead of minutes, the file about a fifth larger than at level 9)."""

LOWER, UPPER = 1, 2
"""Row kinds: ``V >= value`` (with its move) and ``V <= value``."""

KIND_NAMES = {LOWER: "lower", UPPER: "upper"}
"""The name of each row kind, for messages."""

MAX_COUNT = 255
"""The largest stock (and so cup content) a row's ``uint8`` sides hold."""

Row = tuple[Side, Side, int, int, int]
"""One row as Python values: ``(mover side, other side, kind, value, move code)``."""


class CertificateError(DicemathError):
    """A certificate that is unreadable, damaged, or proves less than it claims."""


class CorruptCertificateError(CertificateError):
    """A certificate file that is not one, or whose digests or counts do not match its content."""


class InvalidProofError(CertificateError):
    """A certificate whose rows do not prove its claims (a row or a claim that fails its check)."""


def row_dtype(cups: int) -> np.dtype:
    """The packed record of one row for ``cups`` cups: ``2 * (cups + 1) + 4`` bytes.

    Example:
        >>> row_dtype(4).itemsize
        14
    """
    return np.dtype([("me", "u1", (cups + 1,)), ("opp", "u1", (cups + 1,)), ("kind", "u1"),
                     ("move", "i1"), ("value", "<i2")])


def encode_move(move: Move) -> int:
    """A move as the row's ``int8``: ``k`` for a sow of ``k`` (BOHN-3), ``-d`` for the harvest
    of the cup at distance ``d`` (BOHN-5), 0 for the pass (BOHN-6); an :data:`UPPER` row has 0.

    Example:
        >>> [encode_move(Move.from_str(t)) for t in ("S3", "H2", "P")]
        [3, -2, 0]
    """
    if move.kind == SOW:
        return move.count
    if move.kind == HARVEST:
        return -move.count
    return 0


def decode_move(code: int) -> Move:
    """The move of a row's code (the inverse of :func:`encode_move`).

    Example:
        >>> str(decode_move(-1)), str(decode_move(4)), str(decode_move(0))
        ('H1', 'S4', 'P')
    """
    if code > 0:
        return Move(SOW, code)
    if code < 0:
        return Move(HARVEST, -code)
    return PASS_MOVE


def dead_beans(side: Side) -> int:
    """Beans in cups holding more than their distance (``c_d > d``): BOHN-5 never lets such a
    cup be harvested again, so these beans can reach only the other player's pot."""
    return sum(side[d] for d in range(1, len(side)) if side[d] > d)


def static_bounds(me: Side, opp: Side) -> tuple[int, int]:
    """Bounds on ``V(me, opp)`` from the beans alone: ``(-(B - dead(opp)), B - dead(me))``.

    ``B`` is the number of beans in both stocks and all cups (pots excluded) and ``dead`` is
    :func:`dead_beans`. Proof: every bean that enters a pot from now on lies in a stock or
    cup now, so each player's future gain is at least 0 and at most ``B``. A bean now in a
    cup of the mover holding ``c_d > d`` never enters the mover's pot: the mover's own sows
    and harvests only add beans to that cup (BOHN-3, BOHN-5), a harvest needs exactly ``d``
    (BOHN-5), and only the other's capture empties it, into the other's pot (BOHN-4). So the
    mover gains at most ``B - dead(me)`` and ``V <= B - dead(me)``; likewise
    ``V >= -(B - dead(opp))``.

    Example:
        >>> static_bounds((0, 0, 3, 0, 0), (1, 1, 0, 0, 0))     # the mover's 3 beans at d=2 are dead
        (-5, 2)
    """
    beans = sum(me) + sum(opp)
    return -(beans - dead_beans(opp)), beans - dead_beans(me)


@dataclass(frozen=True)
class Header:
    """What a certificate claims and how its body is checked.

    Attributes:
        cups, stock, capture: the game (BOHN-1, BOHN-4): both players start with ``stock``.
        lower, upper: the claimed bounds on ``V(start)``, A's final pot difference (A moves
            first, BOHN-7).
        table_stock: the stock of the endgame table the proof's leaves use (0: none).
        rows: the number of rows in the body.
        body_sha256: the SHA-256 (hex) of the uncompressed body.
        first_moves: claimed ``(move text, lower, upper)`` of the value of first moves.
    """

    cups: int
    stock: int
    capture: str
    lower: int
    upper: int
    table_stock: int
    rows: int
    body_sha256: str
    first_moves: tuple[tuple[str, int, int], ...] = ()

    @property
    def rules(self) -> Rules:
        """The rules of the game proven (raises :class:`CorruptCertificateError` for invalid ones)."""
        try:
            return Rules(cups=self.cups, stock=self.stock, capture=self.capture)
        except InvalidRulesError as error:
            raise CorruptCertificateError(f"the certificate's header names no valid game: {error}") from None

    def fields(self) -> dict[str, Any]:
        """The header's JSON fields without ``header_sha256``."""
        return {"format": FORMAT, "version": VERSION, "cups": self.cups, "stock": self.stock,
                "capture": self.capture, "lower": self.lower, "upper": self.upper,
                "table_stock": self.table_stock, "rows": self.rows, "row_bytes": row_dtype(self.cups).itemsize,
                "body_sha256": self.body_sha256, "first_moves": [list(m) for m in self.first_moves]}


def _canonical(fields: dict[str, Any]) -> bytes:
    return json.dumps(fields, sort_keys=True, separators=(",", ":")).encode()


@dataclass(frozen=True, eq=False)
class Certificate:
    """A certificate in memory: its :class:`Header` and its rows (a :func:`row_dtype` array)."""

    header: Header
    body: np.ndarray = field(repr=False)

    @classmethod
    def build(cls, rules: Rules, lower: int, upper: int, *, table_stock: int, rows: Iterable[Row],
              first_moves: Iterable[tuple[str, int, int]] = ()) -> Certificate:
        """A certificate of ``rules`` claiming ``lower <= V(start) <= upper`` from ``rows``
        (sorted here; their digest computed).

        Raises:
            CertificateError: a count above :data:`MAX_COUNT`, a side of the wrong length,
                or a value outside ``int16``.
        """
        n = rules.cups
        ordered = sorted(rows, key=lambda r: (r[2], r[0], r[1]))
        body = np.zeros(len(ordered), dtype=row_dtype(n))
        for i, (me, opp, kind, value, move) in enumerate(ordered):
            if len(me) != n + 1 or len(opp) != n + 1:
                raise CertificateError(f"row {me}/{opp}: a side of {n} cups has {n + 1} numbers")
            if max(me + opp) > MAX_COUNT or not -32768 <= value <= 32767:
                raise CertificateError(f"row {me}/{opp} value {value}: outside the row's integer widths")
            body[i] = (me, opp, kind, move, value)
        header = Header(rules.cups, rules.stock, rules.capture, lower, upper, table_stock, len(ordered),
                        hashlib.sha256(body.tobytes()).hexdigest(), tuple(first_moves))
        return cls(header, body)

    @property
    def rules(self) -> Rules:
        """The rules of the game proven."""
        return self.header.rules

    @property
    def digest(self) -> str:
        """The SHA-256 (hex) of the body: names this certificate's proof."""
        return self.header.body_sha256

    def row_tuples(self) -> list[Row]:
        """The rows as Python values, in file order."""
        body = self.body
        return [(tuple(me), tuple(opp), kind, value, move) for me, opp, kind, move, value in
                zip(body["me"].tolist(), body["opp"].tolist(), body["kind"].tolist(), body["move"].tolist(),
                    body["value"].tolist())]

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Certificate) and self.header == other.header
                and self.body.tobytes() == other.body.tobytes())

    def write(self, path: str | Path) -> Path:
        """Write the certificate file (see the module docstring); returns its path."""
        path = Path(path)
        path.write_bytes(pack(self))
        return path


def pack(certificate: Certificate) -> bytes:
    """The bytes of the certificate file (gzip of magic line, header line and body)."""
    fields = certificate.header.fields()
    fields["header_sha256"] = hashlib.sha256(_canonical(fields)).hexdigest()
    raw = MAGIC + _canonical(fields) + b"\n" + certificate.body.tobytes()
    out = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=out, mtime=0, compresslevel=COMPRESS_LEVEL) as stream:
        stream.write(raw)
    return out.getvalue()


def unpack(data: bytes) -> Certificate:
    """Read the bytes of a certificate file, checking its format, digests and counts.

    Raises:
        CorruptCertificateError: not gzip, another format, a missing or ill-typed header
            field, a header or body digest that does not match, or a body whose size is not
            ``rows`` records.
    """
    try:
        raw = gzip.decompress(data)
    except (OSError, EOFError, zlib.error) as error:
        raise CorruptCertificateError(f"not a readable gzip stream: {error}") from None
    if not raw.startswith(MAGIC):
        raise CorruptCertificateError(f"not a BohnDuell proof certificate (expected first line {MAGIC!r})")
    end = raw.find(b"\n", len(MAGIC))
    if end < 0:
        raise CorruptCertificateError("the certificate has no header line")
    try:
        fields = json.loads(raw[len(MAGIC):end])
    except ValueError:
        raise CorruptCertificateError("the certificate's header is not JSON") from None
    if not isinstance(fields, dict):
        raise CorruptCertificateError("the certificate's header is not a JSON object")
    stated = fields.pop("header_sha256", None)
    if stated != hashlib.sha256(_canonical(fields)).hexdigest():
        raise CorruptCertificateError("the certificate's header does not match its header_sha256 (header changed)")
    if fields.get("format") != FORMAT or fields.get("version") != VERSION:
        raise CorruptCertificateError(f"format {fields.get('format')!r} version {fields.get('version')!r}, "
                                      f"expected {FORMAT!r} version {VERSION}")
    header = _header(fields)
    _ = header.rules                                 # raises for an invalid game
    dtype = row_dtype(header.cups)
    body_bytes = raw[end + 1:]
    if fields["row_bytes"] != dtype.itemsize or len(body_bytes) != header.rows * dtype.itemsize:
        raise CorruptCertificateError(f"the body holds {len(body_bytes)} bytes, the header says {header.rows} rows "
                                      f"of {dtype.itemsize} bytes (rows dropped or added)")
    if hashlib.sha256(body_bytes).hexdigest() != header.body_sha256:
        raise CorruptCertificateError("the body does not match the header's body_sha256 (rows changed)")
    body = np.frombuffer(body_bytes, dtype=dtype).copy()
    bad = ~np.isin(body["kind"], (LOWER, UPPER))
    if bad.any():
        raise CorruptCertificateError(f"row {int(np.flatnonzero(bad)[0])} has kind "
                                      f"{int(body['kind'][bad][0])}, not {LOWER} or {UPPER}")
    return Certificate(header, body)


def _header(fields: dict[str, Any]) -> Header:
    ints = ("cups", "stock", "lower", "upper", "table_stock", "rows", "row_bytes")
    for name in ints:
        value = fields.get(name)
        if not isinstance(value, int) or isinstance(value, bool):
            raise CorruptCertificateError(f"header field {name!r} must be a whole number, got {value!r}")
    if not isinstance(fields.get("capture"), str) or not isinstance(fields.get("body_sha256"), str):
        raise CorruptCertificateError("header fields 'capture' and 'body_sha256' must be text")
    moves = fields.get("first_moves")
    if not isinstance(moves, list) or not all(
            isinstance(m, list) and len(m) == 3 and isinstance(m[0], str)
            and all(isinstance(v, int) and not isinstance(v, bool) for v in m[1:]) for m in moves):
        raise CorruptCertificateError("header field 'first_moves' must be a list of [move, lower, upper]")
    if fields["rows"] < 0 or fields["table_stock"] < 0:
        raise CorruptCertificateError("header fields 'rows' and 'table_stock' must be >= 0")
    return Header(fields["cups"], fields["stock"], fields["capture"], fields["lower"], fields["upper"],
                  fields["table_stock"], fields["rows"], fields["body_sha256"],
                  tuple((m[0], m[1], m[2]) for m in moves))


def read_certificate(path: str | Path) -> Certificate:
    """Read a certificate file (:func:`unpack`).

    Raises:
        CorruptCertificateError: see :func:`unpack`; also a file that cannot be read.
    """
    try:
        data = Path(path).read_bytes()
    except (OSError, ValueError) as error:             # ValueError: a path with a null byte
        raise CorruptCertificateError(f"cannot read certificate {path!r}: {error}") from None
    return unpack(data)
