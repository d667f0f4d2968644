"""A plain-text board diagram for humans (X at the bottom, moving from 24 down to 1).

Example:
    >>> from dicemath.games.backgammon.position import Position
    >>> print(diagram(Position.initial()).splitlines()[0])
     13 14 15 16 17 18 | 19 20 21 22 23 24
"""

from __future__ import annotations

from dicemath.games.backgammon.position import CHECKERS, Position


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

    def header(points) -> str:
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
