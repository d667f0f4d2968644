"""Immutable Backgammon positions (docs/rules.md section 4), seen from the player on roll.

A :class:`Position` stores two tuples of 25 counts, one per side, each in that side's own
numbering (GNU Backgammon's convention): entries 0..23 are the side's points 1..24 (it
bears off from its 1..6, its home board), entry 24 is its bar. A side's point ``p`` is the
other side's point ``25 - p``. Borne-off checkers are ``15 - sum``. ``player`` says who is
on roll (0 = X, 1 = O), which only matters for display and for the game's returns.

Its text forms live here too:

* the GNU Backgammon Position ID (GNU Backgammon manual, "A technical description of the
  Position ID"): a bit string built side by side, first the player NOT on roll then the
  player on roll (this is what GNU Backgammon 1.07 writes, checked against it in the tests),
  each over its points 1..24 and its bar in its own numbering: as many 1s as checkers, then
  a 0. The string is padded to 80 bits, packed into 10 bytes least significant bit first,
  and written as the 14 characters of its standard base64 form without padding;
* the XGID position field (eXtreme Gammon): 26 characters seen from X (player 0, at the
  bottom): character 0 is O's bar, 1..24 are X's points 1..24, 25 is X's bar; ``-`` is
  empty, ``A``..``O`` are 1..15 checkers of X and ``a``..``o`` of O;
* a plain-text board :func:`diagram` for humans (X at the bottom, moving from 24 down to 1).

Example:
    >>> start = Position.initial()
    >>> start.pip_count(), start.opponent_pip_count()
    (167, 167)
    >>> start.position_id()
    '4HPwATDgc/ABMA'
    >>> Position.from_position_id('4HPwATDgc/ABMA') == start
    True
    >>> xgid_position_field(start)
    '-b----E-C---eE---c-e----B-'
    >>> print(diagram(start).splitlines()[0])
     13 14 15 16 17 18 | 19 20 21 22 23 24
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterable
from dataclasses import dataclass

from dicemath.core.errors import InvalidStateError

CHECKERS = 15
"""Checkers per side (BG-1)."""
BAR = 25
"""The bar as a point number in move notation (a side's own numbering)."""
OFF = 0
"""Borne off as a point number in move notation."""
_START = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)


def check_counts(counts: Iterable[int], points: int, what: str) -> tuple[int, ...]:
    """``counts`` as a tuple of ``points`` ints: no negative count, at most 15 checkers (BG-1).

    Raises:
        InvalidStateError: naming ``what`` (e.g. "a home board") and the problem.
    """
    try:
        values = tuple(int(c) for c in counts)
    except (TypeError, ValueError):
        raise InvalidStateError(f"{what}: expected {points} checker counts, got {counts!r}") from None
    if len(values) != points:
        raise InvalidStateError(f"{what}: expected {points} checker counts, got {len(values)}: {counts!r}")
    if min(values) < 0:
        raise InvalidStateError(f"{what}: negative checker count in {values}")
    if sum(values) > CHECKERS:
        raise InvalidStateError(f"{what}: {sum(values)} checkers, more than {CHECKERS}")
    return values


@dataclass(frozen=True, order=True)
class Position:
    """A Backgammon position with the player on roll first (BG-1, BG-5, BG-6).

    Attributes:
        on_roll: 25 counts of the player on roll: points 1..24 (own numbering), then bar.
        opponent: 25 counts of the opponent, in the opponent's own numbering.
        player: 0 (X) or 1 (O), the player on roll.

    Raises:
        InvalidStateError: bad counts, more than 15 checkers a side, or both sides on a point.
    """

    on_roll: tuple[int, ...]
    opponent: tuple[int, ...]
    player: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "on_roll", check_counts(self.on_roll, 25, "player on roll (points 1..24 and the bar)"))
        object.__setattr__(self, "opponent", check_counts(self.opponent, 25, "opponent (points 1..24 and the bar)"))
        if self.player not in (0, 1):
            raise InvalidStateError(f"player must be 0 or 1, got {self.player!r}")
        for point in range(1, 25):
            if self.on_roll[point - 1] and self.opponent[24 - point]:
                raise InvalidStateError(f"both sides have checkers on point {point} (of the player on roll)")

    @classmethod
    def initial(cls, player: int = 0) -> Position:
        """The starting position (BG-1) with ``player`` on roll."""
        return cls(_START, _START, player)

    @classmethod
    def from_home_boards(cls, on_roll: Iterable[int], opponent: Iterable[int], player: int = 0) -> Position:
        """A bear-off position from two home boards (counts on points 1..6, the 1-point first).

        >>> Position.from_home_boards((0, 0, 0, 0, 0, 2), (1, 0, 0, 0, 0, 0)).borne_off()
        13
        """
        def full(board: Iterable[int]) -> tuple[int, ...]:
            board = tuple(board)
            if len(board) != 6:
                raise InvalidStateError(f"a home board has six counts (points 1..6), got {board!r}")
            return board + (0,) * 19

        return cls(full(on_roll), full(opponent), player)

    @classmethod
    def from_position_id(cls, text: str, player: int = 0) -> Position:
        """Decode a GNU Backgammon Position ID (see :mod:`.position_id`)."""
        return decode_position_id(text, player)

    @classmethod
    def from_str(cls, text: str, player: int = 0) -> Position:
        """Inverse of ``str()``: a Position ID, or an XGID (``XGID=...`` or its 26-character field).

        >>> Position.from_str(str(Position.initial())) == Position.initial()
        True
        """
        text = text.strip()
        if text.startswith("XGID=") or len(text.split(":")[0]) == 26:
            return position_from_xgid(text)
        return cls.from_position_id(text, player)

    def position_id(self) -> str:
        """The 14-character GNU Backgammon Position ID."""
        return encode_position_id(self)

    def swap(self) -> Position:
        """The same checkers with the other player on roll (the turn passes)."""
        return Position(self.opponent, self.on_roll, 1 - self.player)

    def borne_off(self) -> int:
        """Checkers the player on roll has borne off."""
        return CHECKERS - sum(self.on_roll)

    def opponent_borne_off(self) -> int:
        """Checkers the opponent has borne off."""
        return CHECKERS - sum(self.opponent)

    def pip_count(self) -> int:
        """Pips the player on roll needs to bear off everything (the bar counts 25)."""
        return sum(count * point for point, count in enumerate(self.on_roll, 1))

    def opponent_pip_count(self) -> int:
        """Pips of the opponent."""
        return sum(count * point for point, count in enumerate(self.opponent, 1))

    def home_board(self) -> tuple[int, ...]:
        """The player on roll's counts on points 1..6."""
        return self.on_roll[:6]

    def is_bear_off(self) -> bool:
        """Whether every checker of both sides is home (a pure bear-off race, BG-6)."""
        return sum(self.on_roll[6:]) == 0 and sum(self.opponent[6:]) == 0

    def is_contact(self) -> bool:
        """Whether the sides can still hit each other (someone is on the bar or they overlap)."""
        if self.on_roll[24] or self.opponent[24]:
            return True
        mine = [p for p in range(1, 25) if self.on_roll[p - 1]]
        theirs = [25 - q for q in range(1, 25) if self.opponent[q - 1]]
        return bool(mine and theirs) and max(mine) > min(theirs)

    def is_over(self) -> bool:
        """Whether a side has borne off all its checkers."""
        return sum(self.on_roll) == 0 or sum(self.opponent) == 0

    def __str__(self) -> str:
        return self.position_id()

    def _repr_markdown_(self) -> str:
        return "```\n" + diagram(self) + "\n```"


@dataclass(frozen=True)
class GameResult:
    """The end of a game (BG-7).

    Attributes:
        winner: 0 (X) or 1 (O).
        points: 1 single game, 2 gammon, 3 backgammon (before the cube).
        kind: ``"single"``, ``"gammon"`` or ``"backgammon"``.
    """

    winner: int
    points: int
    kind: str


def game_result(position: Position, cube: int = 1) -> GameResult | None:
    """The result of a finished game, or None while it goes on (BG-7).

    Gammon: the loser bore off none. Backgammon: besides, the loser still has a checker on
    the bar or in the winner's home board. ``cube`` multiplies the points.

    >>> p = Position((0,) * 25, (0,) * 18 + (15, 0, 0, 0, 0, 0, 0))  # loser all on his 19-point
    >>> game_result(p)
    GameResult(winner=0, points=3, kind='backgammon')
    """
    if cube < 1:
        raise InvalidStateError(f"cube value must be at least 1, got {cube}")
    for winner_side, loser_side, winner in ((position.on_roll, position.opponent, position.player),
                                            (position.opponent, position.on_roll, 1 - position.player)):
        if sum(winner_side) == 0:
            if sum(loser_side) < CHECKERS:
                return GameResult(winner, cube, "single")
            if loser_side[24] or sum(loser_side[18:24]):
                return GameResult(winner, 3 * cube, "backgammon")
            return GameResult(winner, 2 * cube, "gammon")
    return None


# -- the Position ID and the XGID position field ---------------------------------------

_ALPHABET = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")


def position_key(position: Position) -> bytes:
    """The 10-byte key of ``position`` (the bits before base64)."""
    bits = []
    for side in (position.opponent, position.on_roll):
        for count in side:
            bits.extend([1] * count)
            bits.append(0)
    bits.extend([0] * (80 - len(bits)))
    key = bytearray(10)
    for i, bit in enumerate(bits):
        if bit:
            key[i // 8] |= 1 << (i % 8)
    return bytes(key)


def encode_position_id(position: Position) -> str:
    """The 14-character GNU Backgammon Position ID of ``position``."""
    return base64.b64encode(position_key(position)).decode("ascii")[:14]


def decode_position_id(text: str, player: int = 0) -> Position:
    """The position written as a GNU Backgammon Position ID.

    Args:
        text: 14 base64 characters (a leading ``"Position ID:"`` label is not accepted).
        player: who is on roll (0 = X, 1 = O); the ID itself does not say.

    Raises:
        InvalidStateError: wrong length or characters, more than 15 checkers a side, or
            both sides on one point.

    >>> decode_position_id('4HPwATDgc/ABMA').on_roll[5]
    5
    """
    text = text.strip()
    if len(text) != 14 or not set(text) <= _ALPHABET:
        raise InvalidStateError(f"a Position ID is 14 base64 characters, got {text!r}")
    try:
        key = base64.b64decode(text + "==", validate=True)
    except (binascii.Error, ValueError):
        raise InvalidStateError(f"not a valid base64 Position ID: {text!r}") from None
    bits = [(key[i // 8] >> (i % 8)) & 1 for i in range(80)]
    sides: list[tuple[int, ...]] = []
    counts: list[int] = []
    count = 0
    for bit in bits:
        if len(sides) == 2:
            if bit:
                raise InvalidStateError(f"Position ID {text!r} has extra checkers after both sides")
            continue
        if bit:
            count += 1
            continue
        counts.append(count)
        count = 0
        if len(counts) == 25:
            sides.append(tuple(counts))
            counts = []
    if len(sides) != 2:
        raise InvalidStateError(f"Position ID {text!r} does not describe two sides")
    return Position(sides[1], sides[0], player)


def xgid_position_field(position: Position) -> str:
    """The 26-character XGID position field (X = player 0 at the bottom)."""
    x, o = (position.on_roll, position.opponent) if position.player == 0 else (position.opponent, position.on_roll)
    chars = ["-"] * 26
    chars[0] = chr(ord("a") + o[24] - 1) if o[24] else "-"
    chars[25] = chr(ord("A") + x[24] - 1) if x[24] else "-"
    for point in range(1, 25):
        if x[point - 1]:
            chars[point] = chr(ord("A") + x[point - 1] - 1)
        elif o[24 - point]:
            chars[point] = chr(ord("a") + o[24 - point] - 1)
    return "".join(chars)


def position_from_xgid(text: str, player: int | None = None) -> Position:
    """Read an XGID (``XGID=...:cube:owner:turn:...``) or just its 26-character position field.

    Args:
        text: the full XGID or its position field.
        player: who is on roll (0 = X, 1 = O); default: the XGID's turn field (1 means X,
            -1 means O), or X when only the position field is given.

    Raises:
        InvalidStateError: malformed field.

    >>> position_from_xgid('XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10') == Position.initial()
    True
    """
    body = text.strip()
    if body.startswith("XGID="):
        body = body[5:]
    fields = body.split(":")
    field = fields[0]
    if player is None:
        player = 0
        if len(fields) > 3:
            if fields[3] not in ("1", "-1"):
                raise InvalidStateError(f"XGID turn field must be 1 or -1, got {fields[3]!r}")
            player = 0 if fields[3] == "1" else 1
    if len(field) != 26:
        raise InvalidStateError(f"an XGID position field has 26 characters, got {len(field)}: {field!r}")
    x, o = [0] * 25, [0] * 25
    for i, char in enumerate(field):
        if char == "-":
            continue
        if "A" <= char <= "O":
            count, mine = ord(char) - ord("A") + 1, True
        elif "a" <= char <= "o":
            count, mine = ord(char) - ord("a") + 1, False
        else:
            raise InvalidStateError(f"bad character {char!r} in XGID position field {field!r}")
        if i == 0:
            if mine:
                raise InvalidStateError("XGID character 0 is O's bar and must be lower case or -")
            o[24] = count
        elif i == 25:
            if not mine:
                raise InvalidStateError("XGID character 25 is X's bar and must be upper case or -")
            x[24] = count
        elif mine:
            x[i - 1] = count
        else:
            o[24 - i] = count
    return Position(tuple(x), tuple(o), 0).swap() if player == 1 else Position(tuple(x), tuple(o), 0)


# -- the text diagram ---------------------------------------------------------------------

def _cell(count: int, mark: str, row: int, rows: int) -> str:
    if count <= row:
        return " . " if row == 0 else "   "
    if row == rows - 1 and count > rows:
        return f"{count:>2} "
    return f" {mark} "


def diagram(position: Position, rows: int = 5) -> str:
    """A text diagram of ``position`` from X's side (player 0), with bar, borne-off and pips.

    Args:
        position: the position.
        rows: checkers drawn per point before a count is shown.

    Returns:
        Multi-line text: points 13..24 on top, 12..1 below, X's checkers ``X``, O's ``O``.
    """
    x, o = (position.on_roll, position.opponent) if position.player == 0 else (position.opponent, position.on_roll)
    cells = {}
    for point in range(1, 25):
        if x[point - 1]:
            cells[point] = (x[point - 1], "X")
        elif o[24 - point]:
            cells[point] = (o[24 - point], "O")
        else:
            cells[point] = (0, " ")
    top = list(range(13, 25))
    bottom = list(range(12, 0, -1))

    def header(points: Iterable[int]) -> str:
        text = "".join(f"{p:>3}" for p in points)
        return text[:18] + " |" + text[18:]

    lines = [header(top)]
    for row in range(rows):
        text = "".join(_cell(*cells[p], row, rows) for p in top)
        lines.append(text[:18] + " |" + text[18:])
    lines.append(f"{'':18} |  bar: X {x[24]}  O {o[24]}".rstrip())
    for row in range(rows - 1, -1, -1):
        text = "".join(_cell(*cells[p], row, rows) for p in bottom)
        lines.append(text[:18] + " |" + text[18:])
    lines.append(header(bottom))
    on_roll = "X" if position.player == 0 else "O"
    lines.append(f"X: pips {sum(c * p for p, c in enumerate(x, 1))}, off {CHECKERS - sum(x)}   "
                 f"O: pips {sum(c * p for p, c in enumerate(o, 1))}, off {CHECKERS - sum(o)}   "
                 f"{on_roll} on roll   Position ID {position.position_id()}")
    return "\n".join(lines)
