"""GNU Backgammon Position IDs and the position field of XGIDs.

Position ID (GNU Backgammon manual, "A technical description of the Position ID"): a bit
string built side by side, first the player NOT on roll then the player on roll (this is
what GNU Backgammon 1.07 writes, checked against it in the tests), each over its points
1..24 and its bar in its own numbering: as many 1s as checkers, then a 0. The string is
padded to 80 bits, packed into 10 bytes least significant bit first, and written as the 14
characters of its standard base64 form without padding.

XGID position field (eXtreme Gammon): 26 characters seen from X (player 0, at the bottom):
character 0 is O's bar, 1..24 are X's points 1..24, 25 is X's bar; ``-`` is empty,
``A``..``O`` are 1..15 checkers of X and ``a``..``o`` of O.

Example:
    >>> from dicemath.games.backgammon.position import Position
    >>> encode_position_id(Position.initial())
    '4HPwATDgc/ABMA'
    >>> xgid_position_field(Position.initial())
    '-b----E-C---eE---c-e----B-'
"""

from __future__ import annotations

import base64
import binascii

from dicemath.core.errors import InvalidStateError
from dicemath.games.backgammon.position import Position

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
    sides, counts, count = [], [], 0
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
    return Position(x, o, 0).swap() if player == 1 else Position(x, o, 0)
