"""Advice at any decision of a money game: the play of a roll, or the cube (BG-3..BG-8).

:func:`advise` is the game's entry point; it answers through the chain of sources of
:func:`sources` (:class:`~dicemath.core.sources.SourceChain`), the chain that
:meth:`BackgammonGame.advise <dicemath.core.game.Game.advise>`, ``dicemath backgammon
advise``, the page, ``dicemath analyse`` and the report all ask. Given a
:class:`~dicemath.games.backgammon.state.State` where a player decides, it ranks his legal
actions, best first, from the first source that covers the state:

* ``bear-off table`` (exact, float64): a play in a bear-off (BG-6) with at most
  :data:`~.limits.EXACT_CHECKERS` checkers a side: every play by
  :func:`~dicemath.games.backgammon.hint.hint`, the cubeless money equity (BG-7) after it
  from the exact two-sided table;
* ``cubeful bear-off table`` (exact, float64): a cube decision (``may-double``: ``"double"``
  and ``"roll"``; ``doubled``: ``"take"`` and ``"pass"``, seen by the taker) in a bear-off
  with at most :data:`~.limits.EXACT_CUBE_CHECKERS` checkers a side, standard rules, by
  :func:`~dicemath.games.backgammon.cube_advice.cube_advice` (cubeful equity per unit of
  the current cube; doubling is worth the opponent's better answer for him);
* ``race model`` (estimate): a play in a bear-off beyond the table: the one-sided race
  model of :mod:`~dicemath.games.backgammon.evaluate` (exact where a play reaches the table);
* ``gnubg`` (estimate): any other play: GNU Backgammon's nets at ``ply`` (the optional
  ``gnubg`` package; :class:`~.gnubg_engine.GnubgUnavailableError` without it);
* ``cube estimate`` (estimate): any other cube decision: Janowski's model at 0 ply, a
  cubeful look-ahead above (gnubg's nets where there is contact).

The advice's ``exact`` and ``source`` are its source's; each option's extras keep the
evaluator's own source of its value (``exact``, ``race``, ``gnubg-Nply``).

Example:
    >>> from dicemath.games.backgammon.state import State
    >>> state = State.from_str("AgAAGAAAAAAAAA X may-double cube 1")   # (0,2,0..) on roll vs (0,1,0..)
    >>> advice = advise(state)
    >>> [(a.text, round(a.value, 6)) for a in advice.options], advice.exact, advice.source
    ([('double', 0.888889), ('roll', 0.444444)], True, 'cubeful bear-off table')
    >>> [(a.text, round(a.value, 6)) for a in advise(state.apply("double")).options]
    [('take', -0.888889), ('pass', -1.0)]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

import numpy as np

from dicemath.core.advice import Advice, Option
from dicemath.core.errors import InvalidStateError
from dicemath.core.sources import Source, SourceChain
from dicemath.games.backgammon.cube import ACTIONS, DOUBLE_PASS, DOUBLE_TAKE, takes
from dicemath.games.backgammon.cube_advice import cube_advice
from dicemath.games.backgammon.evaluate import OUTPUTS, flip
from dicemath.games.backgammon.hint import MoveValue, hint
from dicemath.games.backgammon.limits import (EXACT_CHECKERS, EXACT_CUBE_CHECKERS, exact_bear_off,
                                              exact_cube_bear_off, in_home_boards)
from dicemath.games.backgammon.rules import Rules
from dicemath.games.backgammon.state import DOUBLE, DOUBLED, MAY_DOUBLE, PASS, PLAY, ROLL_ON, TAKE, State


PLAY_UNIT = "cubeless money equity after the play"
"""What the values of a play's advice measure (the mover's view; higher is better)."""

CUBE_UNIT = "cubeful money equity per cube unit"
"""What the values of a cube action's advice measure (the decider's view; higher is better)."""

CUBE_PHASES = (MAY_DOUBLE, DOUBLED)
"""The phases of a cube decision (the others where someone decides: ``play``)."""


def advise(state: State, *, ply: int = 0) -> Advice:
    """Every legal action of the deciding player with its value, best first, from the first
    source of :func:`sources` that covers ``state`` (module docstring).

    Args:
        state: a state where a player decides (``play``, ``may-double`` or ``doubled``).
        ply: the evaluator's look-ahead, 0..3 (positions with contact need the optional
            ``gnubg`` package; the exact tables ignore it).

    Returns:
        The :class:`~dicemath.core.advice.Advice`, ``exact`` and ``source`` its source's;
        each option's extras are its :meth:`~dicemath.games.backgammon.hint.MoveValue.as_dict`
        (``move``, ``equity``, the five ``probabilities``, ``ply``, ``source``, ``position_id``).

    Raises:
        InvalidStateError: nobody decides in ``state`` (chance, or the game is over), or a bad ply.
        GnubgUnavailableError: a position needs gnubg and it is not installed.
    """
    if state.phase != PLAY and state.phase not in CUBE_PHASES:
        raise InvalidStateError(f"nobody decides in {state}: advice needs a player's decision")
    return sources(state.rules).advise(state, ply=ply)


def _is_play(state: State) -> bool:
    return getattr(state, "phase", None) == PLAY


def _is_cube(state: State) -> bool:
    return getattr(state, "phase", None) in CUBE_PHASES


def _boards(state: State) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return state.position.on_roll, state.position.opponent


def _plays(name: str, exact: bool) -> Callable[..., Advice]:
    def advise_play(state: State, *, ply: int = 0) -> Advice:
        if state.dice is None:
            raise InvalidStateError(f"a play without dice: {state}")
        return play_advice(state, hint(state.position, state.dice, state.rules, ply), exact=exact, source=name)
    return advise_play


def _cube(name: str, exact: bool) -> Callable[..., Advice]:
    def advise_cube(state: State, *, ply: int = 0) -> Advice:
        if state.cube_value is None:
            raise InvalidStateError(f"a cube decision in a cubeless game: {state}")
        cube = cube_advice(state.position, state.cube_value, state.relative_owner, state.rules, ply)
        return cube_options(state, cube, exact=exact, source=name)
    return advise_cube


@lru_cache(maxsize=8)
def sources(rules: Rules) -> SourceChain:
    """Backgammon's chain of sources under ``rules`` (the module docstring), best first;
    each limit is a constant of :mod:`~dicemath.games.backgammon.limits`.

    >>> from dicemath.games.backgammon.rules import STANDARD
    >>> print(sources(STANDARD).describe())  # doctest: +NORMALIZE_WHITESPACE
    bear-off table (exact, float64): a play in a bear-off, at most 8 checkers a side
    cubeful bear-off table (exact, float64): a cube decision in a bear-off, at most 6 checkers a side, standard rules
    race model (estimate): any other play in a bear-off
    gnubg (estimate): any other play (GNU Backgammon's nets, the optional gnubg package)
    cube estimate (estimate): any other cube decision (Janowski's model, or a cubeful look-ahead above 0 ply)
    """
    return SourceChain(
        Source("bear-off table", True, f"a play in a bear-off, at most {EXACT_CHECKERS} checkers a side",
               lambda state, **_: _is_play(state) and exact_bear_off(*_boards(state)),
               _plays("bear-off table", True)),
        Source("cubeful bear-off table", True,
               f"a cube decision in a bear-off, at most {EXACT_CUBE_CHECKERS} checkers a side, standard rules",
               lambda state, **_: _is_cube(state) and exact_cube_bear_off(*_boards(state), state.rules),
               _cube("cubeful bear-off table", True)),
        Source("race model", False, "any other play in a bear-off",
               lambda state, **_: _is_play(state) and in_home_boards(*_boards(state)),
               _plays("race model", False)),
        Source("gnubg", False, "any other play (GNU Backgammon's nets, the optional gnubg package)",
               lambda state, **_: _is_play(state), _plays("gnubg", False)),
        Source("cube estimate", False,
               "any other cube decision (Janowski's model, or a cubeful look-ahead above 0 ply)",
               lambda state, **_: _is_cube(state), _cube("cube estimate", False)))


def play_advice(state: State, moves: Sequence[MoveValue], *, exact: bool | None = None,
                source: str | None = None) -> Advice:
    """The :class:`~dicemath.core.advice.Advice` of the plays of ``state`` ranked by
    :func:`~dicemath.games.backgammon.hint.hint` (``moves``, best first).

    ``exact`` and ``source`` are the answering source's (default: from the options' own
    sources, exact when all are ``"exact"``)."""
    actions = {state.action_text(action): action for action in state.legal_actions()}
    return _advice(state, PLAY_UNIT, [(actions[m.move], m) for m in moves], exact, source)


def cube_options(state: State, cube: dict, *, exact: bool | None = None, source: str | None = None) -> Advice:
    """The cube actions of ``state`` valued by ``cube``, the
    :func:`~dicemath.games.backgammon.cube_advice.cube_advice` of its position and cube,
    best first: ``"double"`` (worth the opponent's better answer) and ``"roll"`` in the
    ``may-double`` phase, ``"take"`` and ``"pass"`` seen by the taker in the ``doubled`` phase.
    ``exact`` and ``source`` as in :func:`play_advice` (default: exact when the cube came
    from the exact cubeful tables)."""
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
                                       cube["ply"], cube["source"], cube["position_id"])) for action in order],
                   cube["method"] == "exact cubeful bear-off" if exact is None else exact, source)


def _advice(state: State, unit: str, ranked: Sequence[tuple[object, MoveValue]], exact: bool | None,
            source: str | None) -> Advice:
    kinds = sorted({m.source for _, m in ranked})
    return Advice(game="backgammon", state=str(state), unit=unit, higher_is_better=True,
                  exact=bool(ranked) and kinds == ["exact"] if exact is None else exact,
                  source=source or ", ".join(kinds) or "none",
                  options=tuple(Option(action, m.move, m.equity, m.as_dict()) for action, m in ranked))
