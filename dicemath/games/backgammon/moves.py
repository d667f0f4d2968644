"""Legal plays of a roll (BG-3..BG-6), duplicates merged, and the game as a ``GameState``.

A *step* moves one checker with one die: ``(source, target)`` in the mover's own
numbering, ``25`` the bar and ``0`` borne off. A :class:`Move` is the steps of a whole
roll plus the resulting position (still seen from the mover; ``Move.after.swap()`` is the
opponent's turn). Two plays leading to the same position are the same move: only one is
listed (the one whose steps sort highest).

Rules implemented (RULES.md section 4):

* BG-3: each die moves one checker to an open point; doubles are played four times; both
  dice if possible, else one die, and then the larger one if either can be played. The
  count is strict, as in GNU Backgammon: bearing off the last checker with one die is not
  legal when a play using both dice exists (e.g. one checker on the 4-point, a blot on
  the 2-point, roll 4-2: only ``4/2*/off``, which may win a backgammon).
* BG-4: a point holding two or more opposing checkers is closed; under ``playtive`` also
  a point already holding ``max_per_point`` (5) of the mover's own checkers.
* BG-5: landing on a single opposing checker sends it to the bar; a checker on the bar
  must enter (on the opponent's home board) before anything else moves.
* BG-6: bearing off once all checkers are home: a die bears off from its own point, or
  from the highest occupied point when no checker stands higher.

Example:
    >>> from dicemath.games.backgammon.position import Position
    >>> moves = legal_moves(Position.initial(), (3, 1))
    >>> len(moves), str(moves[0])
    (16, '24/23 24/21')
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from dicemath.core.errors import IllegalMoveError, InvalidDiceError
from dicemath.core.game import CHANCE, TERMINAL
from dicemath.games.backgammon.position import BAR, OFF, Position, game_result
from dicemath.games.backgammon.rules import STANDARD, BackgammonRules

Step = tuple[int, int]


@dataclass(frozen=True, order=True)
class Move:
    """A legal play of a whole roll.

    Attributes:
        steps: ``(source, target)`` per die used, sorted from the highest source down.
        after: the position after the play, the mover still "on roll" in it.
    """

    steps: tuple[Step, ...]
    after: Position

    def __str__(self) -> str:
        return format_steps(self.steps)


def format_steps(steps) -> str:
    """Write steps in the usual notation: ``"24/18 13/11"``, ``"bar/22"``, ``"6/off"``.

    >>> format_steps(((25, 22), (6, 0)))
    'bar/22 6/off'
    """
    if not steps:
        return "(no move)"

    def name(point: int) -> str:
        return "bar" if point == BAR else "off" if point == OFF else str(point)

    return " ".join(f"{name(a)}/{name(b)}" for a, b in steps)


def check_dice(dice) -> tuple[int, int]:
    """Validate a roll of two dice.

    Raises:
        InvalidDiceError: not two numbers 1..6.
    """
    try:
        first, second = (int(d) for d in dice)
    except (TypeError, ValueError):
        raise InvalidDiceError(f"a roll is two dice 1..6, got {dice!r}") from None
    if not (1 <= first <= 6 and 1 <= second <= 6):
        raise InvalidDiceError(f"dice must be 1..6, got {dice!r}")
    return first, second


def single_steps(position: Position, die: int, rules: BackgammonRules = STANDARD):
    """Every legal single step of ``die`` for the player on roll, with the position after it.

    Yields:
        ``((source, target), position_after)`` pairs.
    """
    mine, theirs = position.on_roll, position.opponent
    if mine[24]:
        sources = [BAR]
    else:
        sources = [p for p in range(24, 0, -1) if mine[p - 1]]
    all_home = not mine[24] and sum(mine[6:24]) == 0
    highest = max((p for p in range(1, 7) if mine[p - 1]), default=0)
    for source in sources:
        target = source - die
        if target >= 1:
            if theirs[24 - target] >= 2 or not rules.is_open_for_own(mine[target - 1]):
                continue
        elif not all_home or (target < 0 and source != highest):
            continue
        new_mine = list(mine)
        new_theirs = list(theirs)
        new_mine[source - 1] -= 1
        if target >= 1:
            new_mine[target - 1] += 1
            if theirs[24 - target] == 1:  # BG-5: a blot is hit
                new_theirs[24 - target] = 0
                new_theirs[24] += 1
        yield (source, max(target, OFF)), Position(tuple(new_mine), tuple(new_theirs), position.player)


def _sequences(position: Position, dice: tuple[int, ...], rules: BackgammonRules, steps: tuple,
               out: list) -> None:
    if not dice or sum(position.on_roll) == 0:  # a play ending the game uses only its dice
        out.append((len(steps), steps, position))
        return
    moved = False
    for step, after in single_steps(position, dice[0], rules):
        moved = True
        _sequences(after, dice[1:], rules, steps + ((step, dice[0]),), out)
    if not moved:
        out.append((len(steps), steps, position))


def legal_moves(position: Position, dice, rules: BackgammonRules = STANDARD) -> list[Move]:
    """All legal plays of ``dice`` for the player on roll, one per distinct resulting position.

    Args:
        position: the position, player on roll to move.
        dice: two dice 1..6 in any order.
        rules: STANDARD or PLAYTIVE (BG-4 limit).

    Returns:
        Moves sorted by their steps, highest first; ``[Move((), position)]`` when nothing
        can be played (the turn passes).

    Raises:
        InvalidDiceError: bad dice.
    """
    first, second = check_dice(dice)
    orders = [(first,) * 4] if first == second else [(first, second), (second, first)]
    found: list = []
    for order in orders:
        _sequences(position, order, rules, (), found)
    most = max(used for used, _, _ in found)
    chosen = [(steps, after) for used, steps, after in found if used == most]
    if first != second and most == 1:  # BG-3: only one die can be played: the larger if able
        larger = max(first, second)
        with_larger = [(s, a) for s, a in chosen if not s or s[0][1] == larger]
        chosen = with_larger or chosen
    best: dict[Position, tuple] = {}
    for steps, after in chosen:
        plain = tuple(sorted((step for step, _ in steps), reverse=True))
        if after not in best or plain > best[after]:
            best[after] = plain
    return sorted((Move(steps, after) for after, steps in best.items()), reverse=True)


def apply_notation(position: Position, text: str) -> Position:
    """The position after a play written as ``"24/18 13/11"``, ``"bar/22* 6/off"``,
    ``"8/5(2)"`` or ``"13/7*/5"`` (GNU Backgammon's notation), from the mover's side.

    Only the mechanics are applied (a blot on a target is hit); legality is not checked.

    Raises:
        IllegalMoveError: unreadable text or a step from an empty point.
    """
    current = position
    for token in text.split():
        repeat = 1
        if token.endswith(")") and "(" in token:
            token, _, times = token[:-1].partition("(")
            repeat = int(times)
        points = []
        for part in token.split("/"):
            part = part.rstrip("*").lower()
            points.append(BAR if part == "bar" else OFF if part == "off" else int(part))
        for _ in range(repeat):
            for source, target in zip(points, points[1:]):
                current = _move_checker(current, source, target)
    return current


def _move_checker(position: Position, source: int, target: int) -> Position:
    mine, theirs = list(position.on_roll), list(position.opponent)
    if not 1 <= source <= 25 or mine[source - 1] == 0:
        raise IllegalMoveError(f"no checker of the player on roll on point {source}")
    mine[source - 1] -= 1
    if target >= 1:
        mine[target - 1] += 1
        if theirs[24 - target] == 1:
            theirs[24 - target] = 0
            theirs[24] += 1
    return Position(tuple(mine), tuple(theirs), position.player)


# ----------------------------------------------------------------------------------------
# The game in the shared vocabulary (dicemath.core.game)
# ----------------------------------------------------------------------------------------

_ROLLS = tuple((a, b) for a in range(1, 7) for b in range(1, a + 1))
_OPENING = tuple((x, o) for x in range(1, 7) for o in range(1, 7) if x != o)


@dataclass(frozen=True)
class BackgammonState:
    """A cubeless game state for the generic algorithms (``dicemath.core.game``).

    ``dice is None`` at a chance node (the roll comes next); ``opening`` is the first
    chance node of a game (BG-2: each player throws one die, equal throws again, so the 30
    unequal pairs are equally likely; the higher die's owner plays both numbers).
    Actions are the steps of a :class:`Move` (``()`` when the roll cannot be played).
    Returns are BG-7 points, +winner / -loser.
    """

    position: Position
    dice: tuple[int, int] | None = None
    rules: BackgammonRules = STANDARD
    opening: bool = False

    @classmethod
    def new_game(cls, rules: BackgammonRules = STANDARD) -> BackgammonState:
        """The start of a game: the opening throw comes next."""
        return cls(Position.initial(), None, rules, True)

    def current_player(self) -> int:
        if self.position.is_over():
            return TERMINAL
        if self.dice is None:
            return CHANCE
        return self.position.player

    def chance_outcomes(self):
        if self.current_player() != CHANCE:
            return []
        if self.opening:
            return [(pair, Fraction(1, 30)) for pair in _OPENING]
        return [(roll, Fraction(1 if roll[0] == roll[1] else 2, 36)) for roll in _ROLLS]

    def _moves(self) -> dict:
        return {m.steps: m for m in legal_moves(self.position, self.dice, self.rules)}

    def legal_actions(self):
        if self.current_player() < 0:
            return []
        return sorted(self._moves())

    def apply(self, action) -> BackgammonState:
        player = self.current_player()
        if player == TERMINAL:
            raise IllegalMoveError("the game is over")
        if player == CHANCE:
            if self.opening:
                x, o = action
                if x == o or not (1 <= x <= 6 and 1 <= o <= 6):
                    raise InvalidDiceError(f"opening throw needs two different dice, got {action!r}")
                starter = 0 if x > o else 1
                return BackgammonState(Position.initial(starter), (max(x, o), min(x, o)), self.rules)
            return BackgammonState(self.position, check_dice(action), self.rules)
        moves = self._moves()
        if tuple(action) not in moves:
            raise IllegalMoveError(f"{format_steps(action)} is not a legal play of {self.dice} in {self.position}")
        return BackgammonState(moves[tuple(action)].after.swap(), None, self.rules)

    def returns(self):
        result = game_result(self.position)
        if result is None:
            return [0.0, 0.0]
        values = [0.0, 0.0]
        values[result.winner] = float(result.points)
        values[1 - result.winner] = -float(result.points)
        return values
