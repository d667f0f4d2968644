"""Legal plays of a roll (BG-3..BG-6) as the rules engine lists them, and move notation.

A *step* moves one checker with one die: ``(source, target)`` in the mover's own
numbering, ``25`` the bar and ``0`` borne off. A :class:`Move` is the steps of a whole
roll plus the resulting position (still seen from the mover; ``Move.after.swap()`` is the
opponent's turn). Two plays leading to the same position are the same move: only one is
listed (the one whose steps sort highest).

The rules themselves (BG-3 both dice or the larger, doubles four times; BG-4 closed points
and ``playtive``; BG-5 hits and the bar; BG-6 bearing off) are those of
:mod:`~dicemath.games.backgammon.plays` (compiled C): :func:`single_steps` runs its step
rule, :func:`legal_moves` and :func:`roll_results` its play generator.

Example:
    >>> from dicemath.games.backgammon.position import Position
    >>> from dicemath.games.backgammon.rules import STANDARD
    >>> moves = legal_moves(STANDARD, Position.initial(), (3, 1))
    >>> len(moves), str(moves[0])
    (16, '24/23 24/21')
"""

from __future__ import annotations

from dataclasses import dataclass

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from dicemath.core.dice import check_throw
from dicemath.core.errors import IllegalMoveError
from dicemath.games.backgammon.plays import move_checker, roll_plays, step_target, unpack_steps
from dicemath.games.backgammon.position import BAR, OFF, Position
from dicemath.games.backgammon.rules import Rules

Step = tuple[int, int]


@dataclass(frozen=True, order=True)
class Move:
    """A legal play of a whole roll (one move of a player).

    Attributes:
        steps: ``(source, target)`` per die used, sorted from the highest source down.
        after: the position after the play, the mover still "on roll" in it.
    """

    steps: tuple[Step, ...]
    after: Position

    def __str__(self) -> str:
        return format_steps(self.steps)


def format_steps(steps: Iterable[tuple[int, int]]) -> str:
    """Write steps in the usual notation: ``"24/18 13/11"``, ``"bar/22"``, ``"6/off"``.

    >>> format_steps(((25, 22), (6, 0)))
    'bar/22 6/off'
    """
    if not steps:
        return "(no move)"

    def name(point: int) -> str:
        return "bar" if point == BAR else "off" if point == OFF else str(point)

    return " ".join(f"{name(a)}/{name(b)}" for a, b in steps)


def check_roll(dice: Any) -> tuple[int, int]:   # any input: checked here
    """A roll of two dice as ``(high, low)``.

    Raises:
        InvalidDiceError: not two dice 1..6.

    >>> check_roll((3, 5))
    (5, 3)
    """
    low, high = check_throw(dice, 2, name="a roll", rule="BG-3")
    return high, low


def single_steps(rules: Rules, position: Position,
                 die: int) -> Iterator[tuple[tuple[int, int], Position]]:
    """Every legal single step of ``die`` for the player on roll, with the position after it
    (the step rule :func:`~dicemath.games.backgammon.plays.step_target`, BG-4..BG-6).

    Yields:
        ``((source, target), position_after)`` pairs, from the bar and the highest point down.
    """
    mine, theirs = position.on_roll, position.opponent
    for source in range(BAR, 0, -1):
        target = step_target(mine, theirs, source, die, rules.max_per_point or 0)
        if target >= 0:
            new_mine, new_theirs, _ = move_checker(mine, theirs, source, target)
            yield (source, target), Position(new_mine, new_theirs, position.player)


def legal_moves(rules: Rules, position: Position, dice: Sequence[int]) -> list[Move]:
    """All legal plays of ``dice`` for the player on roll, one per distinct resulting position.

    Args:
        rules: STANDARD or PLAYTIVE (BG-4 limit).
        position: the position, player on roll to move.
        dice: two dice 1..6 in any order.

    Returns:
        Moves sorted by their steps, highest first; ``[Move((), position)]`` when nothing
        can be played (the turn passes).

    Raises:
        InvalidDiceError: bad dice.
    """
    high, low = check_roll(dice)
    mines, theirs, steps, used = roll_plays(position.on_roll, position.opponent, high, low, rules.max_per_point or 0)
    moves = [Move(unpack_steps(code, used), Position(tuple(mine.tolist()), tuple(their.tolist()), position.player))
             for mine, their, code in zip(mines, theirs, steps)]
    return sorted(moves, reverse=True)


def roll_results(rules: Rules, on_roll: Sequence[int] | np.ndarray, opponent: Sequence[int] | np.ndarray,
                 first: int, second: int) -> tuple[np.ndarray, np.ndarray]:
    """The distinct positions the legal plays of a roll lead to, as arrays (the results of
    :func:`legal_moves` without their steps, for self-play and the evaluator's look-ahead).

    Args:
        rules: STANDARD or PLAYTIVE.
        on_roll, opponent: 25 counts each (player to move first, own numberings).
        first, second: the dice (assumed valid).

    Returns:
        ``(movers, opponents)``: int8 arrays (k, 25) of the mover's and the opponent's
        counts after each play (one row, the position itself, if nothing can be played).
    """
    movers, opponents, _, _ = roll_plays(on_roll, opponent, int(first), int(second), rules.max_per_point or 0)
    return movers, opponents


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
            repeat = _number(times, text)
        points = [BAR if part == "bar" else OFF if part == "off" else _number(part, text)
                  for part in (part.rstrip("*").lower() for part in token.split("/"))]
        for _ in range(repeat):
            for source, target in zip(points, points[1:]):
                current = _move_checker(current, source, target)
    return current


def _number(text: str, play: str) -> int:
    if not text.isdigit():
        raise IllegalMoveError(f"cannot read the play {play!r}: {text!r} is not a point")
    return int(text)


def _move_checker(position: Position, source: int, target: int) -> Position:
    if not 1 <= source <= BAR or not OFF <= target < BAR or position.on_roll[source - 1] == 0:
        raise IllegalMoveError(f"no step {source}/{target}: no checker of the player on roll on point {source}")
    mine, theirs, _ = move_checker(position.on_roll, position.opponent, source, target)
    return Position(mine, theirs, position.player)
