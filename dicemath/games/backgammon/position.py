"""Immutable Backgammon positions (docs/rules.md section 4), seen from the player on roll.

A :class:`Position` stores two tuples of 25 counts, one per side, each in that side's own
numbering (GNU Backgammon's convention): entries 0..23 are the side's points 1..24 (it
bears off from its 1..6, its home board), entry 24 is its bar. A side's point ``p`` is the
other side's point ``25 - p``. Borne-off checkers are ``15 - sum``. ``player`` says who is
on roll (0 = X, 1 = O), which only matters for display and for the game's returns.

Example:
    >>> start = Position.initial()
    >>> start.pip_count(), start.opponent_pip_count()
    (167, 167)
    >>> start.position_id()
    '4HPwATDgc/ABMA'
    >>> Position.from_position_id('4HPwATDgc/ABMA') == start
    True
"""

from __future__ import annotations

from dataclasses import dataclass

from dicemath.core.errors import InvalidStateError

CHECKERS = 15
"""Checkers per side (BG-1)."""
BAR = 25
"""The bar as a point number in move notation (a side's own numbering)."""
OFF = 0
"""Borne off as a point number in move notation."""
_START = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)


def check_counts(counts, points: int, what: str) -> tuple[int, ...]:
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
    def from_home_boards(cls, on_roll, opponent, player: int = 0) -> Position:
        """A bear-off position from two home boards (counts on points 1..6, the 1-point first).

        >>> Position.from_home_boards((0, 0, 0, 0, 0, 2), (1, 0, 0, 0, 0, 0)).borne_off()
        13
        """
        def full(board) -> tuple[int, ...]:
            board = tuple(board)
            if len(board) != 6:
                raise InvalidStateError(f"a home board has six counts (points 1..6), got {board!r}")
            return board + (0,) * 19

        return cls(full(on_roll), full(opponent), player)

    @classmethod
    def from_position_id(cls, text: str, player: int = 0) -> Position:
        """Decode a GNU Backgammon Position ID (see :mod:`.position_id`)."""
        from dicemath.games.backgammon.position_id import decode_position_id

        return decode_position_id(text, player)

    @classmethod
    def from_str(cls, text: str, player: int = 0) -> Position:
        """Inverse of ``str()``: a Position ID, or an XGID (``XGID=...`` or its 26-character field).

        >>> Position.from_str(str(Position.initial())) == Position.initial()
        True
        """
        from dicemath.games.backgammon.position_id import position_from_xgid

        text = text.strip()
        if text.startswith("XGID=") or len(text.split(":")[0]) == 26:
            return position_from_xgid(text)
        return cls.from_position_id(text, player)

    def position_id(self) -> str:
        """The 14-character GNU Backgammon Position ID."""
        from dicemath.games.backgammon.position_id import encode_position_id

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
        from dicemath.games.backgammon.diagram import diagram

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
