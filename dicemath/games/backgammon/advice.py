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
    >>> [(a.text, round(a.value, 6)) for a in advise(state).options]
    [('double', 0.888889), ('roll', 0.444444)]
    >>> [(a.text, round(a.value, 6)) for a in advise(state.apply("double")).options]
    [('take', -0.888889), ('pass', -1.0)]
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from dicemath.core.advice import Advice, Option
from dicemath.core.errors import InvalidStateError
from dicemath.games.backgammon.cube import ACTIONS, DOUBLE_PASS, DOUBLE_TAKE, takes
from dicemath.games.backgammon.cube_advice import cube_advice
from dicemath.games.backgammon.evaluate import OUTPUTS, flip
from dicemath.games.backgammon.hint import MoveValue, hint
from dicemath.games.backgammon.state import DOUBLE, DOUBLED, MAY_DOUBLE, PASS, PLAY, ROLL_ON, TAKE, State


PLAY_UNIT = "cubeless money equity after the play"
"""What the values of a play's advice measure (the mover's view; higher is better)."""

CUBE_UNIT = "cubeful money equity per cube unit"
"""What the values of a cube action's advice measure (the decider's view; higher is better)."""


def advise(state: State, *, ply: int = 0) -> Advice:
    """Every legal action of the deciding player with its value, best first (module docstring).

    Args:
        state: a state where a player decides (``play``, ``may-double`` or ``doubled``).
        ply: the evaluator's look-ahead, 0..3 (positions with contact need the optional
            ``gnubg`` package).

    Returns:
        The :class:`~dicemath.core.advice.Advice`; each option's extras are its
        :meth:`~dicemath.games.backgammon.hint.MoveValue.as_dict` (``move``, ``equity``, the
        five ``probabilities``, ``ply``, ``source``, ``position_id``). Exact when every
        value comes from an exact database.

    Raises:
        InvalidStateError: nobody decides in ``state`` (chance, or the game is over), or a bad ply.
        GnubgUnavailableError: a position needs gnubg and it is not installed.
    """
    if state.phase == PLAY:
        return play_advice(state, hint(state.position, state.dice, state.rules, ply))
    if state.phase not in (MAY_DOUBLE, DOUBLED):
        raise InvalidStateError(f"nobody decides in {state}: advice needs a player's decision")
    return cube_options(state, cube_advice(state.position, state.cube_value, state.relative_owner, state.rules, ply))


def play_advice(state: State, moves: Sequence[MoveValue]) -> Advice:
    """The :class:`~dicemath.core.advice.Advice` of the plays of ``state`` ranked by
    :func:`~dicemath.games.backgammon.hint.hint` (``moves``, best first)."""
    actions = {state.action_text(action): action for action in state.legal_actions()}
    return _advice(state, PLAY_UNIT, [(actions[m.move], m) for m in moves])


def cube_options(state: State, cube: dict) -> Advice:
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
    return _advice(state, CUBE_UNIT,
                   [(action, MoveValue(action, float(values[action]), tuple(float(p) for p in probabilities),
                                       cube["ply"], cube["source"], cube["position_id"])) for action in order])


def _advice(state: State, unit: str, ranked: Sequence[tuple[object, MoveValue]]) -> Advice:
    sources = sorted({m.source for _, m in ranked})
    return Advice(game="backgammon", state=str(state), unit=unit, higher_is_better=True,
                  exact=bool(ranked) and sources == ["exact"], source=", ".join(sources) or "none",
                  options=tuple(Option(action, m.move, m.equity, m.as_dict()) for action, m in ranked))
