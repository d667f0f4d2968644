"""The plain-text view of a Backgammon state, and the words its picture shares.

:func:`view` is what ``dicemath backgammon show`` prints: whose turn it is and what he does
(:func:`status`: the opening throw, BG-2; a cube decision, BG-8; a roll or the play of the
dice; or how the game ended, BG-7), the board diagram of :func:`.position.diagram` (bar,
borne-off checkers, pip counts, the Position ID) and the cube (:func:`cube_text`). The
picture (:func:`.drawing.draw`) draws the same state with the same words.

Example:
    >>> from dicemath.games.backgammon.state import State
    >>> lines = view(State.from_str("4HPwATDgc/ABMA O play 6-5 cube 2X")).splitlines()
    >>> lines[0], lines[-1]
    ('O to play 6-5', 'Cube 2, owned by X; rules: standard')
"""

from __future__ import annotations

from dicemath.core.errors import InvalidStateError
from dicemath.games.backgammon.position import diagram
from dicemath.games.backgammon.position import game_result
from dicemath.games.backgammon.state import (
    DOUBLED, MAY_DOUBLE, OPENING, OVER, PASSED, PLAY, PLAYER_NAMES, ROLL, State)


def view(state: State) -> str:
    """The text view of ``state`` (see the module docstring)."""
    return f"{status(state)}\n{diagram(state.position)}\n{cube_text(state)}; rules: {state.rules.name}"


def status(state: State) -> str:
    """Whose turn it is and what he does, or how the game ended."""
    me, other = PLAYER_NAMES[state.position.player], PLAYER_NAMES[1 - state.position.player]
    if state.phase == OPENING:
        return "Opening: each player throws one die; the higher plays both (BG-2)"
    if state.phase == MAY_DOUBLE:
        return f"{me} on roll: double, or roll?"
    if state.phase == DOUBLED:
        if state.cube_value is None:
            raise InvalidStateError(f"phase {state.phase!r} needs a cube; the game is cubeless")
        return f"{me} doubles to {2 * state.cube_value}: {other} takes or passes?"
    if state.phase == ROLL:
        return f"{me} to roll"
    if state.phase == PLAY:
        if state.dice is None:
            raise InvalidStateError(f"phase {state.phase!r} has no dice")
        return f"{me} to play {state.dice[0]}-{state.dice[1]}"
    if state.phase == PASSED:
        return f"{other} passed: {me} wins {state.cube_value} point{'' if state.cube_value == 1 else 's'}"
    assert state.phase == OVER
    result = game_result(state.position, state.cube_value or 1)
    if result is None:
        raise InvalidStateError(f"phase {state.phase!r}, but the game at {state.position.position_id()} is not over")
    points = f"{result.points} point{'' if result.points == 1 else 's'}"
    return f"{PLAYER_NAMES[result.winner]} wins a {result.kind} ({points})"


def cube_text(state: State) -> str:
    """The cube in words: ``"Cube 2, owned by O"``."""
    if state.cube_value is None:
        return "No cube"
    owner = state.cube_owner
    return f"Cube {state.cube_value}, {'in the middle' if owner is None else f'owned by {PLAYER_NAMES[owner]}'}"
