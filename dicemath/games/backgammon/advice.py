"""Advice at any decision of a money game: the play of a roll, or the cube (BG-3..BG-8).

:func:`advise` is the game vocabulary's entry point (see :mod:`dicemath.games`): given a
:class:`~dicemath.games.backgammon.state.State` where a player decides, it ranks his legal
actions by the evaluator (:mod:`~dicemath.games.backgammon.evaluate`), best first:

* ``play``: every legal play of the dice, by :func:`~dicemath.games.backgammon.hint.hint`
  (cubeless money equity after the play);
* ``may-double``: ``"double"`` and ``"roll"``, by
  :func:`~dicemath.games.backgammon.cube_advice.cube_advice` (cubeful equity per unit of
  the current cube: doubling is worth the opponent's better answer for him);
* ``doubled``: ``"take"`` and ``"pass"``, from the same cube advice, seen by the taker.

Example:
    >>> from dicemath.games.backgammon.state import State
    >>> state = State.from_str("AgAAGAAAAAAAAA X may-double cube 1")   # (0,2,0..) on roll vs (0,1,0..)
    >>> [(a.move, round(a.equity, 6)) for a in advise(state)]
    [('double', 0.888889), ('roll', 0.444444)]
    >>> [(a.move, round(a.equity, 6)) for a in advise(state.apply("double"))]
    [('take', -0.888889), ('pass', -1.0)]
"""

from __future__ import annotations

import numpy as np

from dicemath.core.errors import InvalidStateError
from dicemath.games.backgammon.cube import ACTIONS, DOUBLE_PASS, DOUBLE_TAKE, takes
from dicemath.games.backgammon.cube_advice import cube_advice
from dicemath.games.backgammon.evaluate import OUTPUTS, flip
from dicemath.games.backgammon.hint import MoveValue, hint
from dicemath.games.backgammon.state import DOUBLE, DOUBLED, MAY_DOUBLE, PASS, PLAY, ROLL_ON, TAKE, State


def advise(state: State, *, ply: int = 0) -> list[MoveValue]:
    """Every legal action of the deciding player with its value, best first (module docstring).

    Args:
        state: a state where a player decides (``play``, ``may-double`` or ``doubled``).
        ply: the evaluator's look-ahead, 0..3 (positions with contact need the optional
            ``gnubg`` package).

    Returns:
        One :class:`~dicemath.games.backgammon.hint.MoveValue` per legal action.

    Raises:
        InvalidStateError: nobody decides in ``state`` (chance, or the game is over), or a bad ply.
        GnubgUnavailableError: a position needs gnubg and it is not installed.
    """
    if state.phase == PLAY:
        return hint(state.position, state.dice, state.rules, ply)
    if state.phase not in (MAY_DOUBLE, DOUBLED):
        raise InvalidStateError(f"nobody decides in {state}: advice needs a player's decision")
    return cube_options(state, cube_advice(state.position, state.cube_value, state.relative_owner, state.rules, ply))


def cube_options(state: State, cube: dict) -> list[MoveValue]:
    """The cube actions of ``state`` valued by ``cube``, the
    :func:`~dicemath.games.backgammon.cube_advice.cube_advice` of its position and cube,
    best first: ``"double"`` (worth the opponent's better answer) and ``"roll"`` in the
    ``may-double`` phase, ``"take"`` and ``"pass"`` seen by the taker in the ``doubled`` phase."""
    probabilities = np.array([cube["probabilities"][name] for name in OUTPUTS])
    double_take, double_pass = cube["double_take"], cube["double_pass"]
    answered = double_take if takes(double_take, double_pass) else double_pass
    if state.phase == MAY_DOUBLE:
        doubles = cube["action"] in (ACTIONS[DOUBLE_TAKE], ACTIONS[DOUBLE_PASS])
        values = {DOUBLE: answered, ROLL_ON: cube["no_double"]}
        order = (DOUBLE, ROLL_ON) if doubles else (ROLL_ON, DOUBLE)
    else:
        values = {TAKE: -double_take, PASS: -double_pass}
        order = (TAKE, PASS) if takes(double_take, double_pass) else (PASS, TAKE)
        probabilities = flip(probabilities)
    return [MoveValue(action, float(values[action]), tuple(float(p) for p in probabilities), cube["ply"],
                      cube["source"], cube["position_id"]) for action in order]
